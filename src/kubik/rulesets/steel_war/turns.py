"""Steel War on the game layer: the ruleset's :data:`GAME` adapter.

The game layer finds this module by name (``kubik.rulesets.steel_war.turns``) and
uses :data:`GAME` to check scenarios and start battles. The work is done in
:mod:`kubik.rulesets.steel_war.battle`: it measures the table, builds the plain
situations the rule procedures take, Calls them and applies their outcomes.
Scenario fields are documented in :mod:`kubik.rulesets.steel_war.battle.spec` and
in the commented built-in scenario ``steel_war.demo``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kubik.game import Scenario
from kubik.rulesets.steel_war.battle.game import SteelWarGame
from kubik.rulesets.steel_war.battle.setup import check


@dataclass(frozen=True, slots=True)
class SteelWarRuleset:
    """Checks Steel War scenarios and starts battles."""

    id: str = "steel_war"

    def validate(self, scenario: Scenario) -> None:
        """Raise :class:`~kubik.game.errors.ScenarioError` (one line, naming the field)."""
        check(scenario)

    def new_game(self, scenario: Scenario, options: Mapping[str, Any]) -> SteelWarGame:
        """A fresh battle of ``scenario`` with ``options`` (the scenario's, overridden)."""
        return SteelWarGame(scenario, options)


GAME = SteelWarRuleset()

__all__ = ["GAME", "SteelWarRuleset"]
