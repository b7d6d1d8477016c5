"""Fantasy battles: the demo plays to its end the same way twice, and the battle
rules it wires show up in the log (turn phases, charges, close combat rounds,
Break tests and routs, shooting, command casualties)."""

from __future__ import annotations

from collections import Counter

import pytest

from kubik.cli.play import controllers_for
from kubik.engine import OddsCache
from kubik.engine.log import ChoiceEntry, EventEntry, RollEntry
from kubik.game import GameSession, ScenarioError, load_scenario, parse_scenario


def _play(scenario_id: str, seed: int) -> GameSession:
    scenario = load_scenario(scenario_id)
    kinds = {side: "heuristic" for side in scenario.side_ids}
    session = GameSession(scenario, seed, controllers=controllers_for(kinds, seed, OddsCache()))
    session.advance()
    return session


def _rules(session: GameSession) -> Counter[str]:
    seen: Counter[str] = Counter()
    for entry in session.log:
        if isinstance(entry, EventEntry | RollEntry | ChoiceEntry):
            seen.update(entry.rules)
    return seen


def test_fb_absent_19_the_demo_plays_to_the_end_the_same_way_twice() -> None:
    """FB-ABSENT-19: player turns of phases; same seed, same game."""
    one, two = _play("fantasy.demo", 1), _play("fantasy.demo", 1)
    assert one.finished and one.result is not None
    assert one.to_json() == two.to_json()
    assert _rules(one)["FB-ABSENT-19"] > 0


def test_the_battle_applies_its_core_rules() -> None:
    """FB-ABSENT-07/08/10/17: charges, rounds in strike order, resolution, Break tests."""
    seen = _rules(_play("fantasy.demo", 2)) + _rules(_play("fantasy.demo", 3))
    for rule in ("FB-ABSENT-10", "FB-ABSENT-07", "FB-ABSENT-17", "FB-ABSENT-08", "FB-ABSENT-02"):
        assert seen[rule] > 0, rule


def test_the_barrow_applies_the_undead_rules() -> None:
    """FB-SR-06 (ethereal), FB-SR-11 (poisoned), FB-SR-14 (impact hits) in bot battles."""
    seen: Counter[str] = Counter()
    for seed in (1, 2):
        seen.update(_rules(_play("fantasy.barrow", seed)))
    assert seen["FB-SR-11"] > 0 and seen["FB-ABSENT-13"] > 0


def test_a_bad_scenario_is_one_line_naming_the_field() -> None:
    text = """
[scenario]
id = "x.bad"
name = "Bad"
ruleset = "fantasy"
[table]
width = 24
height = 24
[[sides]]
id = "a"
name = "A"
[[sides]]
id = "b"
name = "B"
[[units]]
id = "u"
side = "a"
models = 5
front = [5, 5]
profile = { m = 4, ws = 3, bs = 3, s = 3, t = 3, w = 1, i = 3, a = 1, ld = 7 }
weapon = "blaster"
"""
    with pytest.raises(ScenarioError, match=r"units\[0\]\.profile\.weapon: 'blaster'; allowed: "):
        scenario = parse_scenario(text, "bad.toml")
        from kubik.rulesets.fantasy.turns import check_scenario

        check_scenario(scenario)


def test_the_pass_brings_about_its_troops_rules() -> None:
    """FB-MOV-01/02/03/05 and FB-SR-01 with FB-ABSENT-12 in bot battles of fantasy.pass."""
    scenario = load_scenario("fantasy.pass")
    seen: Counter[str] = Counter()
    for seed in (1, 2):
        session = GameSession(scenario, seed, controllers={s: "bot" for s in scenario.side_ids})
        session.advance()
        assert session.finished
        seen.update(_rules(session))
    for rule in ("FB-MOV-01", "FB-MOV-02", "FB-MOV-03", "FB-MOV-05", "FB-SR-01", "FB-ABSENT-12"):
        assert seen[rule] > 0, rule
