"""The ``kubik`` command's first moment: version, help, completion and the language
chosen once, answered without loading the command line (see :mod:`kubik.cli.quick`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from kubik.cli import quick
from kubik.cli.app import app
from tests.cli.processes import kubik_process

HEAVY = ("typer", "rich", "kubik.game", "shapely", "numpy", "pydantic")


def modules_loaded(*args: str, env: dict[str, str] | None = None) -> set[str]:
    """The modules a ``kubik ARGS`` process had imported when it finished."""
    code = (
        "import sys; from kubik.cli.launch import main\n"
        f"main({list(args)!r})\n"
        "sys.stderr.write(' '.join(sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    return set(done.stderr.split())


def test_version_and_help_load_nothing_heavy() -> None:
    for args in (["--version"], ["-h"], ["--help", "--lang", "ru"], []):
        loaded = modules_loaded(*args)
        assert not [name for name in HEAVY if name in loaded], args


def test_top_help_lists_every_command_in_both_languages() -> None:
    commands = {command.name for command in app.registered_commands}
    assert set(quick.COMMANDS) == commands
    english = kubik_process("-h").stdout
    russian = kubik_process("--help", "--lang", "ru").stdout
    for name in commands:
        assert f"  {name}  " in english and f"  {name}  " in russian
    assert "Usage: kubik" in english and "Запуск: kubik" in russian
    assert "Сыграть бой целиком" in russian and "Play a whole battle" in english


def completions(line: str, home: Path) -> list[str]:
    done = kubik_process(
        env={
            "_KUBIK_COMPLETE": "complete_fish",
            "_TYPER_COMPLETE_ARGS": line,
            "KUBIK_HOME": str(home),
        }
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_completion_names_commands_scenarios_sides_saves_and_procedures(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert (
        kubik_process(
            "play", "old_west.demo", "--save", "duel1", "-q", env={"KUBIK_HOME": str(home)}
        ).returncode
        == 0
    )
    assert completions("kubik pl", home) == ["play"]
    assert "old_west.demo" in completions("kubik play old_", home)
    assert completions("kubik play old_west.demo --side ", home) == ["law=", "outlaws="]
    assert "law=human" in completions("kubik play old_west.demo --side law=", home)
    assert completions("kubik replay d", home) == ["duel1"]
    assert completions("kubik saves --delete ", home) == ["duel1"]
    assert "steel_war.fire" in completions("kubik odds steel_war.f", home)
    assert "steel_war.fire" in completions("kubik odds steel_war.f", home)  # kept, as read
    assert completions("kubik play --lang ", home) == ["en", "ru"]


def test_the_language_is_chosen_once(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = {"KUBIK_HOME": str(home)}
    assert (
        "Сохранённых партий пока нет"
        in kubik_process("saves", env={**env, "KUBIK_LANG": "ru"}).stdout
    )
    (home / "config.toml").write_text('lang = "ru"\n', encoding="utf-8")
    assert "Сохранённых партий пока нет" in kubik_process("saves", env=env).stdout
    assert "No saved games yet" in kubik_process("saves", "--lang", "en", env=env).stdout
    assert "Запуск: kubik" in kubik_process("-h", env=env).stdout
