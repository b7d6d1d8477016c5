"""Steel War on the game layer: ``GAME = BattleRuleset(...)``, the ruleset's adapter.

The game layer finds this module by name (``kubik.rulesets.steel_war.turns``) and
uses :data:`GAME` to check scenarios and start battles. The battle is
:class:`~kubik.rulesets.steel_war.battle.game.SteelWarGame`, hooks on the shared
battle layer (:mod:`kubik.game.battle`). Scenario fields are documented in
:mod:`kubik.rulesets.steel_war.battle.spec` and in the commented built-in scenario
``steel_war.demo``.
"""

from __future__ import annotations

from kubik.rulesets.steel_war.battle.game import GAME, SteelWarGame, check_scenario

__all__ = ["GAME", "SteelWarGame", "check_scenario"]
