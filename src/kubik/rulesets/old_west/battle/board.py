"""The Old West board: the battle layer's :class:`~kubik.game.battle.Board` over the models.

A unit of the board is one model (a :class:`~.figures.Figure`): its one base takes up
room while it is in action, a mounted model moves as the table's ``mounted`` mover
type, and its centre is where it moves by. Everything else — enemies and friends, who
is in a fight, gaps edge to edge, sight and cover, walked ways round terrain, a
charge's contact spots, backing away and making way — is the layer's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from kubik.game.battle import BattleGame, Board
from kubik.rulesets.old_west.battle.figures import _IN_ACTION, Figure
from kubik.table import Base, Point

_NO_BASES: tuple[Base, ...] = ()


class OldWestBoard(Board[Figure]):
    """The board's hooks for Old West models."""

    def __init__(self, game: BattleGame, figures: tuple[Figure, ...]) -> None:
        super().__init__(game)
        self.figures = figures

    def units(self) -> Sequence[Figure]:
        """Every model, in the scenario's order."""
        return self.figures

    def unit_id(self, unit: Figure) -> str:
        """The model's id."""
        return unit.id

    def side_of(self, unit: Figure) -> str:
        """The model's posse."""
        return unit.side

    def bases_of(self, unit: Figure) -> Sequence[Base]:
        """Its base while it is in action (a model out of play takes up no room)."""
        return (unit.base,) if unit.in_action else _NO_BASES

    def in_battle(self, unit: Figure) -> bool:
        """Still in action."""
        return unit.in_action

    def mover_of(self, unit: Figure) -> str | None:
        """``mounted`` while it rides (some terrain is impassable to horses)."""
        return unit.mover

    def clearance_of(self, unit: Figure) -> float:
        """Its base's radius (less a thousandth: a base may stand against a wall)."""
        return unit.base.radius - 1e-3

    def centre_of(self, unit: Figure) -> Point:
        """Its base's centre."""
        return unit.base.centre

    def bases_at(self, unit: Figure) -> Callable[[Point], Sequence[Base]]:
        """Its base moved to a point."""
        base = unit.base
        return lambda point: (base.moved_to(point),)

    def blocking(self, unit: Figure, *, also: Iterable[Figure] = ()) -> list[Base]:
        """The layer's :meth:`~kubik.game.battle.Board.blocking` — every model in action but
        ``unit`` and ``also`` — read straight off the models (it is asked for every place
        a move is weighed at; the layer's way builds every model's piece first)."""
        skip = {unit.id, *(u.id for u in also)}
        return [f.base for f in self.figures if _IN_ACTION[f.status] and f.id not in skip]


__all__ = ["OldWestBoard"]
