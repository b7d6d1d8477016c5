"""The board's hooks for Steel War: squads and vehicles on the layer's board.

Everything a battle asks about the table — enemies and friends, gaps, the nearest
enemy, sight and cover, where a walk ends by the contact rule — is the layer's
:class:`~kubik.game.battle.Board`; what is Steel War's own is filled in here: a unit
is a squad (or a vehicle) whose fighting models take up room while it is on the
table, it looks from its commander (its eyes, SW-FIRE-01: the commander sees), it
moves as it stands (its formation kept, SW-ABSENT-09) or, getting off a vehicle,
stands in its block, riders go where their vehicle goes, and a length is read off
the tape to 0.1 inch.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence

from kubik.game.battle import BattleGame, Board
from kubik.rulesets.steel_war.movers import MoverType
from kubik.table import Base
from kubik.table.geometry import Point

from .formation import inches, place
from .state import Squad


class SquadBoard(Board[Squad]):
    """The battle's squads as the layer's board sees them (the hooks only)."""

    #: Ways round impassable ground follow the tape's own sampling of features' edges.
    detour_step = 0.0

    def __init__(
        self, game: BattleGame, squads: Sequence[Squad], kind: Callable[[Squad], MoverType]
    ) -> None:
        super().__init__(game)
        self.squads = squads
        self.kind = kind

    def units(self) -> Sequence[Squad]:
        """Every squad and vehicle, in scenario order."""
        return self.squads

    def unit_id(self, unit: Squad) -> str:
        """The squad's id."""
        return unit.id

    def side_of(self, unit: Squad) -> str:
        """The side it fights for."""
        return unit.side

    def bases_of(self, unit: Squad) -> Sequence[Base]:
        """Its fighting models' bases while it stands on the table (not riding inside a
        vehicle, not gone from the battle)."""
        if unit.aboard is not None or unit.gone is not None:
            return []
        return unit.bases()

    def in_battle(self, unit: Squad) -> bool:
        """On the table and fighting (riders inside a vehicle are not)."""
        return unit.on_table

    def eyes_of(self, unit: Squad) -> Sequence[Base]:
        """The commander looks for the squad (its first fighting model without him)."""
        return [unit.anchor()]

    def mover_of(self, unit: Squad) -> str:
        """Its row of the terrain table (SW-MOVE-03)."""
        return self.kind(unit)._value_  # (``.value``, without the enum property's call)

    def clearance_of(self, unit: Squad) -> float:
        """How far it reaches from its centre, bases included (the width of its way);
        measured once while a menu is."""
        memo = self.game._still  # (the layer's menu memo: every walk of a menu asks)
        if memo is None:
            return clearance(unit)
        key = ("clearance", unit.id)
        found: float | None = memo.get(key)
        if found is None:
            found = memo[key] = clearance(unit)
        return found

    def centre_of(self, unit: Squad) -> Point:
        """The centre of its formation, which a move carries."""
        return unit.centre

    def bases_at(self, unit: Squad) -> Callable[[Point], Sequence[Base]]:
        """Its bases were its centre at a point: as it stands (a move keeps the
        formation), or in its block for a squad getting off a vehicle."""
        if unit.aboard is not None:
            count = len(unit.active())
            diameter = unit.models[0].diameter
            return lambda point: [Base(x, y, diameter) for x, y in place(point, count)]
        return bases_at(unit)

    def besides(self, unit: Squad) -> Sequence[Squad]:
        """The squads riding in a vehicle go where it goes."""
        return [s for s in self.squads if s.aboard == unit.id and s.present]

    def shape_key(self, unit: Squad) -> Hashable:
        """Everything a measurement of the squad may read of where it stands and what it
        is (see :func:`shape_of`)."""
        return shape_of(unit)

    def reading(self, inches_: float) -> float:
        """Lengths are read to 0.1 inch, half up (SW-FIRE-06)."""
        return inches(inches_)


def clearance(squad: Squad) -> float:
    """How far the unit reaches from its centre, bases included (the width of its way)."""
    living = squad.active()
    if not living:
        return 0.5
    return max(math.dist(m.point, squad.centre) + m.diameter / 2 for m in living)


def bases_at(squad: Squad) -> Callable[[Point], list[Base]]:
    """The unit's bases were its centre at a point (it moves as it stands)."""
    cx, cy = squad.centre
    shape = [(m.x - cx, m.y - cy, m.diameter, m.id) for m in squad.active()]
    here: list[Base] = []  # the bases where it stands (every move of a menu starts there)

    def at(point: Point) -> list[Base]:
        if point[0] == cx and point[1] == cy:
            if not here:
                here.extend(Base(cx + dx, cy + dy, d, i) for dx, dy, d, i in shape)
            return list(here)
        return [Base(point[0] + dx, point[1] + dy, d, i) for dx, dy, d, i in shape]

    return at


def shape_of(squad: Squad) -> Hashable:
    """Everything a measurement of the squad may read of where it stands and what it is.
    Its anchor (:meth:`~.state.Squad.anchor`) is the commander among the fighting models,
    else the first of them: named by the commander's id, not looked for (a measurement
    kept under the shape needs no anchor); with none left, where the commander fell."""
    models = tuple([(m.id, m.x, m.y, m.diameter, m.kind) for m in squad.active()])
    if not models:
        boss = squad.model(squad.commander)
        return (squad.id, squad.gone, squad.aboard, squad.centre, boss.x, boss.y, boss.diameter)
    return (squad.id, squad.gone, squad.aboard, squad.centre, squad.commander, models)


__all__ = ["SquadBoard", "bases_at", "clearance", "shape_of"]
