"""Who moves in Steel War: the rows of the terrain table, and which of them are
техника (vehicles and robots) or vehicles that carry others.

Every question of legality takes a unit's kind (:class:`~.situation.UnitSituation`),
so the kinds sit below the rules that ask them.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from functools import cache
from typing import Any

from kubik.rulesets.data import load_ruleset_data


@cache
def _data() -> Mapping[str, Any]:
    return load_ruleset_data("steel_war")


class MoverType(Enum):
    """Who moves: the rows of the terrain table (SW-MOVE-03)."""

    __hash__ = object.__hash__  # members are singletons: hashed by identity, in C

    INFANTRY = "infantry"
    ARMOURED_SUIT = "armoured_suit"  # бронескафы
    CAVALRY = "cavalry"
    WHEELED = "wheeled"
    HIGH_MOBILITY_WHEELED = "high_mobility_wheeled"  # БТР, вездеходы
    TRACKED = "tracked"
    RAIL = "rail"
    ROBOT = "robot"  # not in the seed: moves as an armoured suit (data [mover_alias])

    @property
    def msgid(self) -> str:
        """Message id of its name."""
        return f"steel_war.term.movement.mover.{self.value}"


@cache  # pure, its data read once per process: asked on every menu and replay
def is_machine(kind: MoverType) -> bool:
    """Vehicles and robots are техника: no psi on them, suppression spares what keeps
    the crew inside (data ``[unit_kinds]``).

    >>> is_machine(MoverType.ROBOT), is_machine(MoverType.ARMOURED_SUIT)
    (True, False)
    """
    return kind.value in _data()["unit_kinds"]["machines"]


@cache  # pure, its data read once per process: asked on every menu and replay
def is_vehicle(kind: MoverType) -> bool:
    """Vehicles carry crews, passengers and cargo (SW-MOVE-04).

    >>> is_vehicle(MoverType.TRACKED), is_vehicle(MoverType.ROBOT)
    (True, False)
    """
    return kind.value in _data()["unit_kinds"]["vehicles"]
