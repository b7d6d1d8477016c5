"""Warhammer Fantasy on the game layer: ``GAME`` plays battles of regiments.

The unit fields are read (and checked) by :mod:`kubik.rulesets.fantasy.battle.spec`
and shown in the built-in scenario ``fantasy.demo``; the battle is
:class:`~kubik.rulesets.fantasy.battle.game.FantasyBattle`.
"""

from __future__ import annotations

from kubik.game import Scenario
from kubik.game.battle import BattleRuleset
from kubik.rulesets.fantasy.battle.game import FantasyBattle
from kubik.rulesets.fantasy.battle.spec import unit_specs


def check_scenario(scenario: Scenario) -> None:
    """Raise ScenarioError naming the field if the scenario cannot be played."""
    unit_specs(scenario)


GAME = BattleRuleset("fantasy", check=check_scenario, start=FantasyBattle)

__all__ = ["GAME", "FantasyBattle", "check_scenario"]
