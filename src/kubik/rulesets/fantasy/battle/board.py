"""A Warhammer Fantasy battle's regiments on the battle layer's board: the hooks only.

The board answers who is an enemy or a friend, who is engaged, the gap edge to edge
between two regiments' nearest models, the nearest enemy, sight, walks and contact
(:class:`~kubik.game.battle.Board`). A regiment tells it where its models stand: its
ranks and files behind the centre of its front rank (:meth:`.units.Unit.bases`), the
point it moves by. It sees from its front rank.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kubik.game.battle import BattleGame, Board, clear_of
from kubik.rulesets.fantasy.battle.units import Unit
from kubik.table import Base, Point


class FantasyBoard(Board[Unit]):
    """The regiments of one battle, as the board asks about them."""

    def __init__(self, game: BattleGame, regiments: Sequence[Unit]) -> None:
        super().__init__(game)
        self.regiments = regiments

    def units(self) -> Sequence[Unit]:
        return self.regiments

    def unit_id(self, unit: Unit) -> str:
        return unit.id

    def side_of(self, unit: Unit) -> str:
        return unit.side

    def bases_of(self, unit: Unit) -> Sequence[Base]:
        return unit.bases() if unit.on_table else ()

    def in_battle(self, unit: Unit) -> bool:
        """On the table: fighting, or fleeing (a fleeing unit may still rally)."""
        return unit.on_table

    def eyes_of(self, unit: Unit) -> Sequence[Base]:
        """A regiment sees from its front rank (the models that shoot first)."""
        placed = self.bases_of(unit)
        return placed[: min(len(placed), unit.spec.files)]

    def centre_of(self, unit: Unit) -> Point:
        """A regiment moves by the centre of its front rank."""
        return unit.front

    def clearance_of(self, unit: Unit) -> float:
        """A regiment reaches half its frontage to either side of its front's centre
        (the width of a way it takes round impassable ground)."""
        return max(unit.frontage(), unit.spec.size) / 2

    def bases_at(self, unit: Unit) -> Callable[[Point], Sequence[Base]]:
        return lambda point: unit.bases(point)

    def facing_at(self, unit: Unit, facing: int) -> Callable[[Point], Sequence[Base]]:
        """The regiment's bases were its front at a point and it faced ``facing`` (a
        wheel or a turn before it moves): the ``shape`` the board's walks take."""
        return lambda point: unit.bases(point, facing)

    def clear(self, unit: Unit, placed: Sequence[Base], *, also: Sequence[Unit] = ()) -> bool:
        """Whether ``placed`` (where the regiment would stand) touches no other model
        but those of ``also`` (the contact rule)."""
        return clear_of(list(placed), self.blocking(unit, also=also))
