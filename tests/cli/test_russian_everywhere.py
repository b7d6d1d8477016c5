"""Under ``--lang ru`` a Russian player sees no English: the demo, odds, a resolution,
whole battles of every ruleset and the help.

What may stay in Latin letters is what a person types or reads as a name, never as a
word: commands and options (``kubik play``, ``--seed``, a metavar ``N``), ids of
procedures, scenarios and sides, policy names in parentheses after their Russian words,
file kinds (``SVG``). Every other Latin word is an English leftover.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from kubik.cli.quick import COMMANDS
from tests.cli.processes import kubik_process

ROOT = Path(__file__).resolve().parents[2]
#: Latin words a Russian text may hold: command words, option values, file kinds.
ALLOWED = frozenset(
    {
        "kubik", "ru", "en", "json", "svg", "png", "csv", "undo", "decision", "log", "map",
        "save", "luck", "on", "help", "quit", "enter", "q", "t", "default", "optimal",
        "just_enough", "human", "heuristic", "fast", "random", "toml", "id", "side", "kind", "lang",
        "n",
    }
    | set(COMMANDS)
)  # fmt: skip


def english_words(text: str, ids: set[str]) -> set[str]:
    """The Latin words of ``text`` that are neither allowed nor an id, a command or an
    option (a command line quoted in backticks is left out whole)."""
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"kubik [a-z]+( [^\s(]+)*", " ", text)  # a command line, as typed
    found = set()
    for word in re.findall(r"(?<![\w.@/-])[A-Za-z][A-Za-z_']*(?![\w./-])", text):
        if word.lower() in ALLOWED or word in ids or "_" in word:
            continue
        found.add(word)
    return found


def known_ids() -> set[str]:
    """Scenario, side and unit ids and ruleset names: what `--side` and the lists name."""
    ids: set[str] = set()
    for path in (ROOT / "src" / "kubik" / "rulesets").glob("*/scenarios/*.toml"):
        text = path.read_text(encoding="utf-8")
        ids.update(re.findall(r'^id = "([^"]+)"', text, re.MULTILINE))
        ids.update(re.findall(r'^side = "([^"]+)"', text, re.MULTILINE))
        ids.add(path.parent.parent.name)
    return ids


RUN = [
    ("odds", "steel_war.fire", "--input", '{"quality": "d6", "weapons": [{"weapon": "lmg", '
     '"count": 1}], "distance": 10, "cover": "light", "prone": true}'),
    ("odds", "old_west.fight", "--input", "@examples/fight.json", "--policy", "optimal",
     "--explain"),
    ("odds", "apocalypse.melody", "--input", '{"difficulty": 7, "impulse": true}'),
    ("resolve", "old_west.wound", "--input", "@examples/strike.json", "--dice", "6,4"),
    ("resolve", "steel_war.morale_test", "--input",
     '{"quality": "d8", "leadership": 2, "threat": 6}', "--dice", "6"),
    ("play", "steel_war.demo", "--seed", "3"),
    ("play", "old_west.demo", "--seed", "3"),
    ("play", "apocalypse.demo", "--seed", "3"),
    ("play", "fantasy.demo", "--seed", "3", "--quiet"),
    ("--help",),
]  # fmt: skip


@pytest.mark.parametrize("args", RUN, ids=lambda args: " ".join(args[:2]))
def test_a_russian_player_sees_no_english(args: tuple[str, ...], tmp_path: Path) -> None:
    done = kubik_process(*args, "--lang", "ru", env={"KUBIK_HOME": str(tmp_path)}, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert not english_words(done.stdout, known_ids()), done.stdout


def test_the_demo_in_russian_has_no_english(tmp_path: Path) -> None:
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "kubik.cli.demo", "ru"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=ROOT,
        env={"KUBIK_HOME": str(tmp_path), "COLUMNS": "100", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    ids = known_ids() | {"Legends", "Old", "West"}  # (none: the titles are Russian)
    assert not english_words(done.stdout, ids - {"Legends", "Old", "West"}), done.stdout


#: Names of products a help text names as they are spelled (never English words).
PRODUCTS = frozenset(
    {"BattleScribe", "New", "Recruit", "SQLite", "Ray", "Parquet", "pyarrow", "DNS"}
)


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("how", ["--lang", "KUBIK_LANG"])
def test_every_commands_help_is_russian(command: str, how: str, tmp_path: Path) -> None:
    env = {"KUBIK_HOME": str(tmp_path), "COLUMNS": "100"}
    if how == "--lang":
        done = kubik_process(command, "--help", "--lang", "ru", env=env, cwd=ROOT)
    else:  # the language set once: `KUBIK_LANG=ru kubik odds -h`
        done = kubik_process(command, "-h", env={**env, "KUBIK_LANG": "ru"}, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "Запуск: kubik " in done.stdout and "Параметры" in done.stdout
    assert not english_words(done.stdout, known_ids() | PRODUCTS), done.stdout


def test_every_help_text_has_its_russian() -> None:
    """A help text added or changed in English without its Russian is found here, by
    name, before anyone reads it in English under ``--lang ru``."""
    import typer.main

    from kubik.cli.app import app
    from kubik.cli.console.help import untranslated

    group = typer.main.get_group(app)
    texts = [c.help or "" for c in group.commands.values()]
    texts += [
        p.help or "" for c in group.commands.values() for p in c.params if getattr(p, "help", "")
    ]
    metavars = {p.metavar for c in group.commands.values() for p in c.params if p.metavar}
    named = [m for m in metavars if re.search(r"[A-Z]{2}", m) and m != "JSON"]  # (not N, en|ru)
    assert untranslated([t for t in texts if t]) == []
    assert len(named) >= 10 and untranslated(named, metavar=True) == []


def test_the_checker_finds_english() -> None:
    found = english_words("Исход: итог: hits, попадания: 1; `kubik play x` kubik odds a.b", set())
    assert found == {"hits"}
