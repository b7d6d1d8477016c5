"""``--lang ru`` leaves no English: the end-of-game summary and the errors people meet.

What may stay in Latin letters, and nothing else:

* in the summary: nothing at all (side names, count names, numbers);
* in an error line: the ids a person types back (scenario and procedure ids such as
  ``steel_war.demo``, side ids, controller kinds such as ``human``, policy names),
  option, argument, command and parameter names (``--side``, ``SCENARIO`` of the
  usage line, ``coverage``, ``policy``) and field paths
  (``input.strength``), a command to type (```kubik load friday```), the JSON words
  ``JSON``, ``true``, ``false``, and what the person typed or may type, quoted back
  («x», 'd4', "d9").
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kubik import api
from kubik.bots.registry import BOT_NAMES
from kubik.cli.console.parse import CONTROLLER_KINDS
from kubik.game import GameSession, list_scenarios, load_scenario
from kubik.game.errors import GameInputError
from tests.bots.cli_harness import Kubik, kubik, toy_home

__all__ = ["kubik", "toy_home"]  # fixtures, used by name below

BUILT_IN = ("steel_war.demo", "steel_war.convoy", "old_west.demo", "old_west.bank_job")
LATIN = re.compile(r"[A-Za-z]")


def _without_allowed(line: str, ids: set[str]) -> str:
    """``line`` without what may stay in Latin letters (see the module docstring)."""
    line = re.sub(r"«[^»]*»|`[^`]*`|'[^']*'|\"[^\"]*\"|--[a-z-]+|input[\w.\[\]]*", " ", line)
    line = re.sub(r"\b(JSON|true|false|policy|simulate|SCENARIO|coverage)\b", " ", line)
    for word in sorted(ids, key=len, reverse=True):
        line = re.sub(rf"(?<![\w.]){re.escape(word)}(?![\w])", " ", line)
    return line


def _ids() -> set[str]:
    ids = {info.id for info in list_scenarios()} | set(CONTROLLER_KINDS) | set(BOT_NAMES)
    ids |= {p["name"] for p in api.procedures()} | {"default", "just_enough", "optimal"}
    for scenario_id in BUILT_IN:
        ids |= set(load_scenario(scenario_id).side_ids)
    return ids


@pytest.mark.parametrize("scenario_id", BUILT_IN)
def test_the_end_and_the_summary_of_a_game_are_all_russian(kubik: Kubik, scenario_id: str) -> None:
    done = kubik("play", scenario_id, "--seed", "2", "--lang", "ru")
    assert done.code == 0, done.err
    lines = done.out.splitlines()
    start = next(i for i, line in enumerate(lines) if "─ Итог ─" in line)
    ending = [line for line in lines[:start] if line.startswith("Партия окончена")]
    summary = lines[start:]
    assert len(ending) == 1 and len(summary) >= 4
    english = [line for line in ending + summary if LATIN.search(line)]
    assert not english, english


@pytest.mark.parametrize(
    "args",
    [
        ("play", "nosuch"),
        ("play", "steel_wr.demo"),
        ("play", "steel_war.demo", "--side", "x=human"),
        ("play", "steel_war.demo", "--side", "steel=cat"),
        ("play", "steel_war.demo", "--side", "steel"),
        ("load", "nosave"),
        ("load", "bad name!"),
        ("replay", "nosave"),
        ("resolve", "steel_war.morale_tst", "--input", "{}"),
        ("resolve", "steel_war.morale_test", "--input", "{x"),
        ("resolve", "steel_war.morale_test", "--input", "[1]"),
        ("resolve", "steel_war.morale_test", "--input", "@nofile.json"),
        ("resolve", "old_west.fight", "--input", "{}"),
        ("resolve", "old_west.wound", "--input", '{"strength": 0, "toughness": "x", "zzz": 1}'),
        ("resolve", "steel_war.morale_test", "--input", '{"quality": "d9", "leadership": 2}'),
        ("odds", "steel_war.fire", "--input", '{"quality": "d6", "weapons": [], "prone": 2}'),
        ("odds", "old_west.wound", "--input", '{"strength": 3, "toughness": 8}', "--policy", "zz"),
        ("odds", "old_west.wound", "--input", '{"strength": 3, "toughness": 8}', "--simulate", "0"),
        ("coverage", "steel_war.demo", "--runs", "0"),
        ("coverage", "steel_war.demo", "--runs", "1", "--seed", "-1"),
        ("coverage", "steel_war.demo", "--runs", "1", "--bot", "zz"),
        ("coverage", "steel_war.demo", "--runs", "1", "--side", "steel=human"),
        ("coverage", "steel_war.demo", "steel_war.demo", "--runs", "1"),
    ],
)
def test_errors_are_told_in_russian(kubik: Kubik, args: tuple[str, ...]) -> None:
    done = kubik(*args, "--lang", "ru")
    assert done.code == 2
    (line,) = done.err.strip().splitlines()
    assert line.startswith("ошибка: ")
    rest = _without_allowed(line, _ids())
    assert not LATIN.search(rest), (line, rest)
    english = kubik(*args)
    assert english.err.startswith("error: ") and not re.search("[а-яё]", english.err)


def test_a_broken_user_scenario_is_told_in_russian(kubik: Kubik, toy_home: Path) -> None:
    folder = toy_home / "scenarios"
    folder.mkdir(parents=True, exist_ok=True)
    text = load_scenario("steel_war.demo").text.replace('side = "lianra"', 'side = "keno"', 1)
    (folder / "broken.toml").write_text(text, encoding="utf-8")
    listed = kubik("scenarios", "--lang", "ru")
    assert listed.code == 0, listed.err
    assert "нет стороны «keno»" in " ".join(listed.out.split()), listed.out
    played = kubik("play", "broken", "--lang", "ru")
    assert played.code == 2
    assert "broken.toml: units[" in played.err and "нет стороны «keno»" in played.err


def test_undo_with_nothing_to_undo_is_refused_in_russian() -> None:
    session = GameSession(load_scenario("steel_war.demo"), 1, lang="ru")
    with pytest.raises(GameInputError) as refused:
        session.undo()
    assert refused.value.text("ru") == "отменять нечего: ещё не дано ни одного ответа"
    assert str(refused.value) == "nothing to undo: no answer has been given yet"
