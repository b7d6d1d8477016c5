"""Legends of the Old West on the game layer: ``GAME`` plays whole battles of two posses.

A scenario unit is one model; each side is a posse (Команда). The unit and option
fields are documented in :mod:`kubik.rulesets.old_west.battle.spec` and shown in the
built-in scenario ``old_west.demo``. The turn structure (Head for the Hills,
advantage, Movement, Shooting, Close combat, heroic actions) is in
:mod:`kubik.rulesets.old_west.battle.game` and its phase modules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kubik.game import Scenario
from kubik.rulesets.old_west.battle.game import OldWestGame
from kubik.rulesets.old_west.battle.spec import build_spec


@dataclass(frozen=True, slots=True)
class OldWestRuleset:
    """The Old West game adapter: checks scenarios and starts battles."""

    id: str = "old_west"

    def validate(self, scenario: Scenario) -> None:
        """Raise ScenarioError naming the field if the scenario cannot be played."""
        build_spec(scenario)

    def new_game(self, scenario: Scenario, options: Mapping[str, Any]) -> OldWestGame:
        """A fresh battle of ``scenario`` with ``options`` (the scenario's, overridden)."""
        return OldWestGame(scenario, options)


GAME = OldWestRuleset()

__all__ = ["GAME", "OldWestGame", "OldWestRuleset"]
