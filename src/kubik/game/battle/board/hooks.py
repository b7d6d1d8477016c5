"""The hooks a ruleset fills on its board, and who is who among the units they name.

The ruleset keeps its own units; the board knows them only through these hooks (which
units, a unit's id and side, its bases, whether it still fights) and answers from them
who is an enemy, a friend or in a fight, and where a unit stands as a key
(:meth:`BoardHooks.shape`) that every kept measurement of the board is filed under.
The other parts of the board (:mod:`.distances`, :mod:`.sight`, :mod:`.standing`,
:mod:`.contact_places`, :mod:`.walks`, :mod:`.making_way`) build on these alone.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Generic, TypeVar

from kubik.table import Base, Point

if TYPE_CHECKING:
    from kubik.game.battle.battle import BattleGame

#: A ruleset's unit, as its board knows it.
U = TypeVar("U")


class BoardHooks(ABC, Generic[U]):
    """The hooks of :class:`~kubik.game.battle.board.Board` and who is who (see its
    docstring for the list of hooks)."""

    def __init__(self, game: BattleGame) -> None:
        self.game = game

    # -- hooks a ruleset fills -------------------------------------------------------

    @abstractmethod
    def units(self) -> Sequence[U]:
        """Every unit of the battle, in a fixed order."""

    @abstractmethod
    def unit_id(self, unit: U) -> str:
        """The unit's id."""

    @abstractmethod
    def side_of(self, unit: U) -> str:
        """The side ``unit`` fights for."""

    @abstractmethod
    def bases_of(self, unit: U) -> Sequence[Base]:
        """The bases of ``unit``'s models that take up room on the table now."""

    @abstractmethod
    def in_battle(self, unit: U) -> bool:
        """Whether ``unit`` is still in the battle (on the table and fighting)."""

    def eyes_of(self, unit: U) -> Sequence[Base]:
        """The bases ``unit`` looks from (default: every model of it)."""
        return self.bases_of(unit)

    def mover_of(self, unit: U) -> str | None:
        """The table's mover type for ``unit`` (default: none, every feature as written)."""
        return None

    def clearance_of(self, unit: U) -> float:
        """How far ``unit`` reaches from :meth:`centre_of`, bases included (default: its
        first base's radius, less a thousandth so a base may stand against a wall)."""
        bases = self.bases_of(unit)
        return bases[0].radius - 1e-3 if bases else 0.5

    def centre_of(self, unit: U) -> Point:
        """The point ``unit`` moves by (default: its first model's centre)."""
        return self.bases_of(unit)[0].centre

    def bases_at(self, unit: U) -> Callable[[Point], Sequence[Base]]:
        """``unit``'s bases were its :meth:`centre_of` at a point (default: every base
        keeps its offset from it: the unit moves as it stands)."""
        cx, cy = self.centre_of(unit)
        shape = [(b.x - cx, b.y - cy, b.diameter, b.id) for b in self.bases_of(unit)]
        if len(shape) == 1:
            only = self.bases_of(unit)[0]
            return lambda point: [only.moved_to(point)]
        return lambda point: [Base(point[0] + dx, point[1] + dy, d, i) for dx, dy, d, i in shape]

    def besides(self, unit: U) -> Sequence[U]:
        """Units that go where ``unit`` goes and never block its moves (default: none)."""
        return ()

    def shape_key(self, unit: U) -> Hashable:
        """Everything a measurement of ``unit`` kept under :meth:`shape` may read of it
        (default: its id and where its bases stand; a ruleset whose eyes or kinds of
        model matter adds them)."""
        return (self.unit_id(unit), tuple((b.x, b.y, b.diameter) for b in self.bases_of(unit)))

    def reading(self, inches: float) -> float:
        """A length as the ruleset reads it off the tape (default: as measured)."""
        return inches

    # -- who is who --------------------------------------------------------------------

    def unit(self, unit_id: str) -> U:
        """The unit called ``unit_id``."""
        for unit in self.units():
            if self.unit_id(unit) == unit_id:
                return unit
        raise KeyError(unit_id)

    def enemies(self, unit: U) -> list[U]:
        """The units of every other side still in the battle, in order."""
        return list(self._sides(unit, False))

    def friends(self, unit: U) -> list[U]:
        """The other units of ``unit``'s side still in the battle, in order."""
        return list(self._sides(unit, True))

    def _sides(self, unit: U, own: bool) -> tuple[U, ...]:
        """The other units still in the battle of ``unit``'s side (``own``) or of every
        other side (found once while a menu is measured)."""
        memo = self.game._still  # (the layer's menu memo, read in place: asked most of all)
        if memo is None:
            return tuple(self._of_sides(unit, own))
        key = ("board.sides", id(unit), own)  # (the unit itself stands while a menu does)
        found: tuple[U, ...] | None = memo.get(key)
        if found is None:
            side = self.side_of(unit)
            of_side = ("board.side", side, own)
            every: tuple[U, ...] | None = memo.get(of_side)
            if every is None:
                every = memo[of_side] = tuple(
                    u
                    for u in self.units()
                    if (self.side_of(u) == side) is own and self.in_battle(u)
                )
            found = memo[key] = tuple(u for u in every if u is not unit) if own else every
        return found

    def _of_sides(self, unit: U, own: bool) -> list[U]:
        side = self.side_of(unit)
        return [
            u
            for u in self.units()
            if (self.side_of(u) == side) is own and self.in_battle(u) and u is not unit
        ]

    def engaged(self, unit: U) -> list[U]:
        """The units ``unit`` is in a fight with (a charge brought them into contact and
        nothing has parted them), still in the battle, in the order the fights began."""
        found = self.game.contacts.of(self.unit_id(unit))
        if not found:
            return []
        return [u for u in (self.unit(i) for i in found) if self.in_battle(u)]

    def is_engaged(self, unit: U) -> bool:
        """Whether ``unit`` is in a fight with a unit still in the battle."""
        return bool(self.engaged(unit))

    # -- where it stands, as a key ------------------------------------------------------------

    def shape(self, unit: U) -> int:
        """Where ``unit``'s models stand, as a small number
        (:meth:`~kubik.game.battle.BattleGame.shape_id`): a measurement kept under it holds
        until one of them moves or falls. Made once per menu."""
        game = self.game
        memo = game._still
        if memo is None:
            return game.shape_id(self.shape_key(unit))
        key = ("board.shape", id(unit))
        found: int | None = memo.get(key)
        if found is None:
            found = memo[key] = game.shape_id(self.shape_key(unit))
        return found

    def _bases_at(self, unit: U) -> Callable[[Point], Sequence[Base]]:
        """:meth:`bases_at`, made once while a menu is measured."""
        return self.game.kept(("board.bases_at", self.unit_id(unit)), lambda: self.bases_at(unit))


__all__ = ["BoardHooks", "U"]
