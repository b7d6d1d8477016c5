"""Дороги Апокалипсиса's battles leave the rules to the rule modules: the rules a game
applies are recorded by the rule modules' own deciding functions (guard's end, the
order of fights, the weapons that fight, a guard's −1 at a fleeting target, the
arsenal and the profiles), not by the
battle naming them in its log."""

from __future__ import annotations

import pytest

from kubik.bots import bot_for
from kubik.game import GameSession, load_scenario

DECIDED_BY_RULE_MODULES = {
    "RA-GUARD-03",  # guard.guard_ends
    "RA-GUARD-04",  # shooting.to_hit_modifier (a fleeting target too)
    "RA-CC-03",  # close_combat.fight_order
    "RA-CC-15",  # arms.loadouts
    "RA-ABSENT-13",  # warband.profiles
    "RA-ABSENT-14",  # arms.arsenal
}


@pytest.mark.parametrize(("scenario_id", "extra"), [("apocalypse.demo", {"RA-HIDE-07"})])
def test_rules_a_battle_applies_are_decided_by_rule_modules(
    scenario_id: str, extra: set[str]
) -> None:
    scenario = load_scenario(scenario_id)
    bots = {side: bot_for("random", 1, side) for side in scenario.side_ids}
    session = GameSession(scenario, 1, controllers=bots)
    session.advance()
    assert DECIDED_BY_RULE_MODULES | extra <= session.applied
