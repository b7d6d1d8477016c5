"""The `kubik` command's conventions, as a newcomer meets them in the first hour.

Bare `kubik`, `-h`, `--version`, shell completion, help texts without raw type
placeholders, `kubik procedures NAME`, side ids in `kubik scenarios`, output that fits
an 80-column terminal (wrapped at word boundaries), odds said in sentences, and a
decision with one option that does not ask for "1–1".
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console

from kubik.api.words import say
from kubik.cli.app import app
from kubik.cli.console.render import print_choice_request
from kubik.engine.odds import OddsCache
from kubik.engine.requests import Choose, msg
from tests.bots.cli_harness import Kubik, kubik, toy_home
from tests.cli.processes import kubik_process as run

__all__ = ["kubik", "toy_home"]  # fixtures, used by name below

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = ("procedures", "resolve", "odds", "scenarios", "play", "load", "replay", "saves")


def test_bare_kubik_prints_help_and_exits_0(kubik: Kubik) -> None:
    done = kubik()
    assert done.code == 0, done.err
    assert "Usage: kubik" in done.out and "play" in done.out and "odds" in done.out


def test_h_is_help_everywhere_and_version_prints_the_version(kubik: Kubik) -> None:
    assert "Usage: kubik" in kubik("-h").out
    for command in COMMANDS:
        done = kubik(command, "-h")
        assert done.code == 0 and f"Usage: kubik {command}" in done.out, command
    version = kubik("--version")
    assert version.code == 0 and re.fullmatch(r"kubik \d+\.\d+\.\d+\S*\n", version.out)


def test_help_texts_have_no_raw_type_placeholders_or_doubled_defaults(kubik: Kubik) -> None:
    for command in ("", *COMMANDS):
        text = kubik(*([command] if command else []), "--help").out
        assert not re.search(r"<(bool|str|int|float|list\[[a-z]+\])>", text), (command, text)
        for line in text.splitlines():
            assert not ("(default" in line and "[default:" in line), (command, line)
    play = kubik("play", "--help").out
    assert "SIDE=KIND" in play and "--seed" in play and "N " in play


def test_shell_completion_installs_and_completes(tmp_path: Path) -> None:
    # the shell is named, not guessed from the processes above the test (make's sh, an
    # IDE's runner): typer then takes it as --show-completion's and --install-completion's value
    named = {"_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1", "SHELL": "/bin/bash"}
    shown = run("--show-completion", "bash", env=named)
    assert shown.returncode == 0, shown.stderr
    assert "_KUBIK_COMPLETE" in shown.stdout
    home = tmp_path / "home"
    home.mkdir()
    installed = run("--install-completion", "bash", env={"HOME": str(home), **named})
    assert installed.returncode == 0, installed.stderr
    assert "_KUBIK_COMPLETE" in (home / ".bashrc").read_text() + "".join(
        p.read_text() for p in home.rglob("*") if p.is_file()
    )
    completed = run(
        env={"_KUBIK_COMPLETE": "complete_bash", "COMP_WORDS": "kubik pl", "COMP_CWORD": "1"}
    )
    assert completed.returncode == 0 and "play" in completed.stdout


def test_procedures_name_shows_fields_with_ranges_and_defaults(kubik: Kubik) -> None:
    done = kubik("procedures", "steel_war.fire")
    assert done.code == 0, done.err
    out = done.out
    assert "distance" in out and "number 0–200" in out  # a range
    assert "cover" in out and "none, light, hard" in out and '"none"' in out  # a default
    assert "required" in out and "list of {weapon, count}" in out
    assert "Each item of weapons" in out and "whole number 1–30" in out  # nested fields
    assert "kubik odds steel_war.fire --input" in out  # an example to copy
    ru = kubik("procedures", "old_west.wound", "--lang", "ru")
    assert "целое число 1–10" in ru.out and "обязательно" in ru.out
    one = json.loads(kubik("procedures", "old_west.wound", "--json").out)
    assert one["name"] == "old_west.wound" and "input_schema" in one
    listing = kubik("procedures").out
    assert "kubik procedures NAME" in listing
    unknown = kubik("procedures", "old_west.wond")
    assert unknown.code == 2 and "did you mean old_west.wound" in unknown.err


def test_scenarios_show_the_side_ids_that_side_takes(kubik: Kubik) -> None:
    rows = {row["id"]: row for row in json.loads(kubik("scenarios", "--json").out)}
    assert [s["id"] for s in rows["toy_duel.demo"]["sides"]] == ["steel", "lianra"]
    assert [s["id"] for s in rows["old_west.demo"]["sides"]] == ["law", "outlaws"]
    text = kubik("scenarios").out
    assert "sides (--side): steel (Steel), lianra (Lianra)" in " ".join(text.split())
    assert "стороны (--side)" in kubik("scenarios", "--lang", "ru").out


def _lines_fit(text: str, width: int = 80) -> None:
    from rich.cells import cell_len

    for line in text.splitlines():
        assert cell_len(line) <= width, line


def _words_whole(text: str, out: str) -> None:
    """Every word of ``text`` appears whole in ``out``: lines were never broken mid-word."""
    words = set(out.split())
    for word in text.split():
        assert word in words, (word, text)


def test_a_battle_fits_80_columns_wrapped_at_word_boundaries(
    kubik: Kubik, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    done = kubik("play", "old_west.demo", "--seed", "3")
    assert done.code == 0, done.err
    _lines_fit(done.out)
    data = json.loads(kubik("play", "old_west.demo", "--seed", "3", "--json").out)
    long = [e["text"] for e in data["log"] if len(e["text"]) > 80]
    assert long, "the demo has lines longer than a terminal"
    for text in data["log"]:
        _words_whole(text["text"], done.out)


def test_odds_procedures_and_resolve_fit_80_columns(
    kubik: Kubik, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    fire = '{"quality": "d6", "weapons": [{"weapon": "lmg", "count": 1}], "distance": 10}'
    for args in (
        ("odds", "steel_war.fire", "-i", fire),
        ("odds", "steel_war.fire", "-i", fire, "--lang", "ru"),
        ("procedures",),
        ("procedures", "steel_war.fire"),
        ("resolve", "steel_war.fire", "-i", fire, "--seed", "4"),
        ("scenarios",),
        ("saves",),
    ):
        done = kubik(*args)
        assert done.code == 0, (args, done.err)
        _lines_fit(done.out)
    text = kubik("odds", "steel_war.fire", "-i", fire).out
    assert "effect: suppressed (подавлено)" in " ".join(text.split())


def test_odds_for_people_are_sentences_in_both_languages(kubik: Kubik) -> None:
    strike = '{"strength": 3, "toughness": 8}'
    assert "wounded: yes 8.3%, no 91.7%" in kubik("odds", "old_west.wound", "-i", strike).out
    ru = kubik("odds", "old_west.wound", "-i", strike, "--lang", "ru").out
    assert "ранено: да 8.3%, нет 91.7%" in ru and "точные шансы" in ru
    simulated = kubik("odds", "old_west.wound", "-i", strike, "--simulate", "600").out
    assert "wounded: yes" in simulated and "estimated from 600 runs" in simulated
    compared = kubik("odds", "old_west.wound", "-i", strike[:-1] + ', "fame": 3}', "--compare")
    assert "policy: just_enough" in compared.out and "wounded: yes 66.7%" in compared.out


def test_a_decision_with_one_option_asks_for_enter_not_1_to_1() -> None:
    out = io.StringIO()
    console = Console(file=out, width=80, highlight=False)
    request = Choose(("go",), "steel", msg("console.value", value="onward"))
    print_choice_request(console, request, "en", {}, OddsCache())
    text = out.getvalue()
    assert "1–1" not in text and "Only one option: press Enter" in text
    ru = io.StringIO()
    print_choice_request(Console(file=ru, width=80), request, "ru", {}, OddsCache())
    assert "Вариант только один" in ru.getvalue()
    assert "1–1" not in say("console.choose.bad_one", "en", text="x")


def test_the_app_keeps_the_contract_commands() -> None:
    names = {command.name for command in app.registered_commands}
    assert {"procedures", "resolve", "odds", "scenarios", "play"} <= names


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_summaries_are_in_the_chosen_language(kubik: Kubik, lang: str) -> None:
    done = kubik("play", "toy_duel.demo", "--quiet", "--lang", lang)
    assert done.code == 0, done.err
    expected = ("Result", "turns played") if lang == "en" else ("Итог", "Сыграно")
    for word in expected:
        assert word in done.out, done.out
