"""Battles of Дороги Апокалипсиса: the two editions, hidden information in the views
and the log, the rules the battle wires, and whole games."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from kubik.bots.registry import bot_for
from kubik.engine import TableSession, msg
from kubik.engine.log import ChoiceEntry, EventEntry, LogEntry, RollEntry
from kubik.game import GameSession, ScenarioError, load_scenario, parse_scenario
from kubik.game.battle import Moment, Trigger
from kubik.game.coverage import rules_named
from kubik.rulesets.apocalypse.battle import actions, shots
from kubik.rulesets.apocalypse.battle.game import ApocalypseGame
from kubik.rulesets.apocalypse.battle.warriors import Sight
from kubik.rulesets.apocalypse.core import Edition
from kubik.rulesets.apocalypse.turns import GAME
from tests.apocalypse.helpers import terrain

HEADER = """\
[scenario]
id = "apocalypse.test"
name = "Test"
ruleset = "apocalypse"

[options]
edition = "{edition}"

[table]
width = 24
height = 24

[[sides]]
id = "a"
name = "Side A"
name_ru = "Сторона А"

[[sides]]
id = "b"
name = "Side B"
name_ru = "Сторона Б"
"""


def unit(uid: str, side: str, x: float, y: float, *extra: str) -> str:
    """A ``[[units]]`` entry of a Ратник."""
    lines = [
        "[[units]]",
        f'id = "{uid}"',
        f'side = "{side}"',
        f'name = "{uid.title()}"',
        'profile = "ratnik"',
        'weapons = ["sword", "bow"]',
        f"position = [{x}, {y}]",
        *extra,
    ]
    return "\n".join(lines) + "\n"


def game(edition: str, *units: str) -> ApocalypseGame:
    text = HEADER.format(edition=edition) + "\n".join(units)
    scenario = parse_scenario(text, "test.toml")
    GAME.validate(scenario)
    battle = GAME.new_game(scenario, scenario.options)
    assert isinstance(battle, ApocalypseGame)
    return battle


def run(procedure: Any, dice: list[int]) -> tuple[LogEntry, ...]:
    session = TableSession(lambda: procedure, ())
    session.supply(dice)
    assert session.result is not None, f"still waiting for {session.pending}"
    return tuple(session.result.log)


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("KUBIK_HOME", str(tmp_path / "home"))
    yield


# -- the two editions ---------------------------------------------------------------------


def moved_near_hidden(edition: str, gap: float) -> ApocalypseGame:
    """A hides behind nothing in particular; B (Подвижность 4) has just moved to ``gap``
    paces from him."""
    battle = game(edition, unit("hider", "a", 5, 5), unit("seeker", "b", 5 + 1 + gap, 5))
    battle.warrior("hider").sight = Sight.HIDDEN
    return battle


def test_RA_HIDE_06_turn_edition_finds_within_half_mobility_only() -> None:
    battle = moved_near_hidden("turn", 3.0)
    run(shots.detection(battle, Moment(Trigger.MOVED, "b", "seeker")), [])
    assert battle.warrior("hider").sight is Sight.HIDDEN
    battle = moved_near_hidden("turn", 2.0)
    log = run(shots.detection(battle, Moment(Trigger.MOVED, "b", "seeker")), [])
    assert battle.warrior("hider").sight is Sight.FOUND  # RA-HIDE-07
    assert "RA-HIDE-07" in rules_named(log)


def test_RA_HIDE_06_activation_edition_finds_within_full_mobility() -> None:
    battle = moved_near_hidden("activation", 3.0)
    log = run(shots.detection(battle, Moment(Trigger.MOVED, "b", "seeker")), [])
    assert battle.warrior("hider").sight is Sight.FOUND
    assert "RA-HIDE-06" in rules_named(log)


def test_RA_HIDE_05_activation_edition_rolls_to_find() -> None:
    battle = moved_near_hidden("activation", 6.0)
    log = run(shots.detection(battle, Moment(Trigger.MOVED, "b", "seeker")), [1])
    assert battle.warrior("hider").sight is Sight.HIDDEN and "RA-HIDE-05" in rules_named(log)
    battle = moved_near_hidden("activation", 6.0)
    run(shots.detection(battle, Moment(Trigger.MOVED, "b", "seeker")), [2])
    assert battle.warrior("hider").sight is Sight.FOUND  # 2 + 4 = 6 reaches 6 paces


def test_RA_HIDE_05_no_roll_in_the_turn_edition() -> None:
    battle = moved_near_hidden("turn", 6.0)
    log = run(shots.detection(battle, Moment(Trigger.MOVED, "b", "seeker")), [])
    assert "RA-HIDE-05" not in rules_named(log)


def test_edition_option_is_checked() -> None:
    with pytest.raises(ScenarioError, match=r"options\.edition"):
        game("both", unit("x", "a", 5, 5), unit("y", "b", 15, 15))
    assert game("activation", unit("x", "a", 5, 5), unit("y", "b", 15, 15)).edition is (
        Edition.ACTIVATION
    )


def test_a_bad_unit_is_one_line_naming_the_field() -> None:
    with pytest.raises(ScenarioError, match=r"units\[0\]\.weapons\[0\]: no weapon 'laser'"):
        game("turn", unit("x", "a", 5, 5).replace('["sword", "bow"]', '["laser"]'))
    with pytest.raises(ScenarioError, match=r"units\[0\]\.abilities\[0\]"):
        game("turn", unit("x", "a", 5, 5, 'abilities = ["flying"]'))


# -- hidden information ---------------------------------------------------------------------


def test_RA_HIDE_02_a_hidden_warrior_is_left_out_of_the_enemys_view() -> None:
    battle = game("turn", unit("hider", "a", 5, 5), unit("seeker", "b", 15, 15))
    battle.warrior("hider").sight = Sight.HIDDEN
    enemy = {p["id"] for p in battle.view("b")["pieces"]}
    own = {p["id"]: p for p in battle.view("a")["pieces"]}
    referee = {p["id"]: p for p in battle.view(None)["pieces"]}
    assert enemy == {"seeker"}
    assert own["hider"]["hidden"] is True and referee["hider"]["hidden"] is True


def test_RA_HIDE_01_the_enemy_log_does_not_tell_of_hiding() -> None:
    battle = game("turn", unit("hider", "a", 5, 5), unit("seeker", "b", 15, 15))
    hidden = EventEntry(msg("apocalypse.game.hides", unit="hider", unseen_by="b"), ("RA-HIDE-01",))
    seen = EventEntry(msg("apocalypse.game.moves", unit="hider", paces=4), ("RA-ABSENT-08",))
    assert battle.narrated_for("b", (hidden, seen)) == (seen,)
    assert battle.narrated_for("a", (hidden, seen)) == (hidden, seen)
    assert battle.narrated_for(None, (hidden, seen)) == (hidden, seen)


def test_RA_HIDE_05_a_detection_roll_that_finds_nobody_is_kept_from_the_seekers() -> None:
    battle = moved_near_hidden("activation", 6.0)
    log = run(shots.detection(battle, Moment(Trigger.MOVED, "b", "seeker")), [1])
    rolls = [e for e in log if isinstance(e, RollEntry)]
    assert rolls and "RA-HIDE-05" in rolls[0].rules
    assert not battle.narrated_for("b", log)  # the seekers learn nothing
    assert battle.narrated_for("a", log) == log == battle.narrated_for(None, log)


def test_RA_HIDE_05_a_detection_roll_that_finds_him_shows_him_to_the_seekers() -> None:
    battle = moved_near_hidden("activation", 6.0)
    log = run(shots.detection(battle, Moment(Trigger.MOVED, "b", "seeker")), [2])
    told = battle.narrated_for("b", log)
    assert [e.event.id for e in told if isinstance(e, EventEntry)] == ["apocalypse.game.revealed"]


def test_RA_HIDE_02_what_a_hidden_warrior_decides_is_kept_from_the_enemy() -> None:
    battle = game("turn", unit("hider", "a", 5, 5), unit("seeker", "b", 20, 20))
    hider = battle.warrior("hider")
    hider.sight = Sight.HIDDEN
    log = run(actions.activate(battle, hider), [])
    choices = [e for e in log if isinstance(e, ChoiceEntry)]
    assert choices and all(e.side == "a" for e in choices)
    assert not [e for e in battle.narrated_for("b", log) if isinstance(e, ChoiceEntry)]
    assert battle.narrated_for("a", log) == log
    assert hider.sight is Sight.HIDDEN  # he held still: nothing of it is seen


def test_RA_HIDE_01_the_decision_to_hide_is_kept_from_the_enemy() -> None:
    battle = game("turn", unit("hider", "a", 5, 5), unit("seeker", "b", 20, 20), WALL_NEAR)
    hider = battle.warrior("hider")
    log = run(actions._hiding(battle, hider), [])
    assert hider.sight is Sight.HIDDEN
    assert [e for e in log if isinstance(e, ChoiceEntry)]
    assert battle.narrated_for("b", log) == ()
    assert battle.narrated_for("a", log) == log


WALL_NEAR = terrain("wall", [[4, 6], [7, 6]], obstacle=True, shape="line", cover="light")


# -- whole battles ---------------------------------------------------------------------------


@cache
def played(scenario_id: str, seed: int) -> tuple[GameSession, frozenset[str]]:
    scenario = load_scenario(scenario_id)
    bots = {side: bot_for("random", seed, side) for side in scenario.side_ids}
    session = GameSession(scenario, seed, controllers=bots)
    session.advance()
    return session, rules_named(session.log)


GAMES = [("apocalypse.demo", 1), ("apocalypse.demo", 2), ("apocalypse.ambush", 1)]


def all_rules() -> frozenset[str]:
    out: frozenset[str] = frozenset()
    for scenario_id, seed in GAMES:
        out |= played(scenario_id, seed)[1]
    return out


def test_a_random_game_is_reproducible() -> None:
    first, _ = played("apocalypse.demo", 1)
    scenario = load_scenario("apocalypse.demo")
    bots = {side: bot_for("random", 1, side) for side in scenario.side_ids}
    again = GameSession(scenario, 1, controllers=bots)
    again.advance()
    assert again.to_json() == first.to_json()
    assert first.finished


def test_RA_ABSENT_10_activation_rules_only_in_the_activation_edition() -> None:
    turn = played("apocalypse.demo", 1)[1] | played("apocalypse.demo", 2)[1]
    activation = played("apocalypse.ambush", 1)[1]
    assert "RA-ABSENT-10" in activation and "RA-ABSENT-10" not in turn
    assert not {"RA-HIDE-05", "RA-AMB-03", "RA-ABSENT-11"} & turn


@pytest.mark.parametrize(
    "rule",
    [
        "RA-CC-01",
        "RA-CC-02",
        "RA-CC-03",
        "RA-CC-04",
        "RA-CC-15",
        "RA-CC-16",
        "RA-CC-19",
        "RA-ABSENT-03",
        "RA-ABSENT-08",
        "RA-ABSENT-12",
        "RA-ABSENT-13",
        "RA-ABSENT-14",
        "RA-ABSENT-15",
        "RA-GUARD-01",
        "RA-GUARD-02",
        "RA-GUARD-03",
        "RA-SHOOT-04",
        "RA-PSY-10",
        "RA-PSY-11",
    ],
)
def test_the_battle_applies(rule: str) -> None:
    """Each wired rule shows in the log of a few random bot games."""
    assert rule in all_rules()


def test_RA_CC_20_breaking_from_combat_in_battle() -> None:
    """Some random game has a warrior break from combat, each opponent striking once."""
    found = False
    for seed in range(1, 8):
        _, rules = played("apocalypse.demo", seed)
        if "RA-CC-20" in rules:
            found = True
            break
    assert found
