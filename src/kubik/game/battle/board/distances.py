"""How far units of the board stand from each other: gaps edge to edge (the nearest
two bases, on the battle's one tape, as the ruleset reads it), the nearest unit, the
units within a distance, and the gap a move would leave.

Kept while a menu is measured, and for as long as the units stand where they stood.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from kubik.game.battle.board.hooks import BoardHooks, U
from kubik.table import Base, Point
from kubik.table.tape import Tape


class BoardDistances(BoardHooks[U]):
    """How far: :meth:`gap`, :meth:`nearest` and their kin."""

    def gap(self, a: U, b: U) -> float:
        """Inches between the nearest models of ``a`` and ``b``, edge to edge, as the
        ruleset reads the tape (:meth:`reading`; 0 when they touch). Kept while both
        stand where they stood."""
        game = self.game
        memo = game._still
        if memo is None:
            return self.reading(self.gap_from(self.bases_of(a), b))
        key = ("board.gap", id(a), id(b))
        found: float | None = memo.get(key)  # (asked for every pair a menu weighs)
        if found is None:
            found = memo[key] = game.lasting(
                ("board.gap", self.shape(a), self.shape(b)),
                lambda: self.reading(self.gap_from(self.bases_of(a), b)),
            )
        return found

    def gap_from(self, bases: Sequence[Base], b: U) -> float:
        """Inches from ``bases`` (where a unit would stand) to ``b``'s nearest model."""
        theirs = self.bases_of(b)
        if not bases or not theirs:
            return math.inf
        if len(bases) == 1 and len(theirs) == 1:  # one model each: the gap of two bases
            mine, other = bases[0], theirs[0]
            gap = math.dist(mine.centre, other.centre) - mine.radius - other.radius
            return gap if gap > 0.0 else 0.0
        return Tape.closest(bases, theirs)

    def gap_at(self, unit: U, point: Point, among: Iterable[U] | None = None) -> float:
        """Inches from ``unit`` standing at ``point`` (its bases as :meth:`bases_at` puts
        them) to the nearest model of ``among`` (default: its enemies), edge to edge, as
        the ruleset reads the tape: where a move would leave it (closer to the enemy or
        farther). Infinite with none. Units whose centres lie too far off for any of their
        bases to be the nearest are not measured model by model."""
        bases = self._bases_at(unit)(point)
        if not bases:
            return math.inf
        others = self._sides(unit, False) if among is None else tuple(among)
        reach = self.clearance_of(unit) + 0.01  # (a clearance may be a hair short)
        dist, centre_of = math.dist, self.centre_of
        near = sorted(
            ((dist(point, centre_of(o)), i, o) for i, o in enumerate(others) if self.bases_of(o)),
            key=lambda item: (item[0], item[1]),
        )
        best = math.inf
        for apart, _, other in near:
            if apart - reach - self.clearance_of(other) - 0.01 > best:
                break  # (nearest centres first: no unit farther off can come nearer)
            best = min(best, Tape.closest(bases, self.bases_of(other)))
        return best if best == math.inf else self.reading(best)

    def nearest(self, unit: U, among: Iterable[U] | None = None) -> U | None:
        """The unit of ``among`` (default: its enemies) nearest ``unit`` by :meth:`gap`;
        between equally near ones, the first in order."""
        if among is None:
            memo = self.game._still
            if memo is None:
                return self._nearest(unit, self._sides(unit, False))
            key = ("board.nearest", id(unit))
            found: tuple[U | None] | None = memo.get(key)  # (asked by every goal)
            if found is None:
                found = memo[key] = (self._nearest(unit, self._sides(unit, False)),)
            return found[0]
        return self._nearest(unit, list(among))

    def _nearest(self, unit: U, candidates: Sequence[U]) -> U | None:
        if not candidates:
            return None
        return min(candidates, key=lambda other: self.gap(unit, other))

    def within(self, unit: U, inches: float, among: Iterable[U] | None = None) -> list[U]:
        """The units of ``among`` (default: its enemies) within ``inches`` of ``unit``."""
        candidates = self.enemies(unit) if among is None else among
        return [other for other in candidates if self.gap(unit, other) <= inches + 1e-9]

    def nearest_gap(self, unit: U, point: Point, among: Iterable[U] | None = None) -> float:
        """Inches from ``unit`` standing at ``point`` to the nearest unit of ``among``
        (default: its enemies), edge to edge (unrounded; infinite when there is none):
        how near a move would take it (a control zone, a charge's reach)."""
        candidates = self.enemies(unit) if among is None else among
        bases_of = self.bases_of
        theirs = [b for other in candidates for b in bases_of(other)]
        if not theirs:
            return math.inf
        return Tape.closest(self.bases_at(unit)(point), theirs)


__all__ = ["BoardDistances"]
