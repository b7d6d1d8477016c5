"""Legends of the Old West on the game layer: ``GAME`` plays whole battles of two posses.

A scenario unit is one model; each side is a posse (Команда). The unit and option
fields are documented in :mod:`kubik.rulesets.old_west.battle.spec` and shown in the
built-in scenario ``old_west.demo``. The battle is hooks on the shared battle layer
(:mod:`kubik.game.battle`): the turn structure (Head for the Hills, advantage,
Movement, Shooting, Close combat, heroic actions) is
:class:`~kubik.rulesets.old_west.battle.game.OldWestGame` and its phase modules.
"""

from __future__ import annotations

from kubik.game import Scenario
from kubik.game.battle import BattleRuleset
from kubik.rulesets.old_west.battle.game import OldWestGame
from kubik.rulesets.old_west.battle.spec import build_spec


def check_scenario(scenario: Scenario) -> None:
    """Raise ScenarioError naming the field if the scenario cannot be played."""
    build_spec(scenario)


GAME = BattleRuleset("old_west", check=check_scenario, start=OldWestGame)

__all__ = ["GAME", "OldWestGame", "check_scenario"]
