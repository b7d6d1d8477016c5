"""Дороги Апокалипсиса on the game layer: ``GAME`` plays whole skirmishes of two warbands.

A scenario unit is one warrior; the unit fields are documented in
:mod:`kubik.rulesets.apocalypse.battle.warriors` and shown in ``apocalypse.demo``. The
option ``edition`` (``turn``, the default: seed 003; ``activation``: seed 000) picks the
edition where the two seeds differ.
"""

from __future__ import annotations

from kubik.game import Scenario, ScenarioError
from kubik.game.battle import BattleRuleset
from kubik.rulesets.apocalypse.battle.game import EDITION_OPTION, ApocalypseGame
from kubik.rulesets.apocalypse.battle.warriors import read_warriors
from kubik.rulesets.apocalypse.core import Edition


def check_scenario(scenario: Scenario) -> None:
    """Raise ScenarioError naming the field if the scenario cannot be played."""
    read_warriors(scenario)
    edition = scenario.options.get(EDITION_OPTION, Edition.TURN.value)
    if edition not in {e.value for e in Edition}:
        raise ScenarioError(f"options.{EDITION_OPTION}: {edition!r}; allowed: turn, activation")
    if len(scenario.side_ids) != 2:
        raise ScenarioError("sides: a battle of Дороги Апокалипсиса needs exactly two warbands")


GAME = BattleRuleset("apocalypse", check=check_scenario, start=ApocalypseGame)

__all__ = ["GAME", "ApocalypseGame", "check_scenario"]
