"""What units of the board see and the cover they have: line of sight from a unit's eyes
(every model, unless the ruleset says who looks) and the cover of each model of a target.

The table's tape measures; how a unit's cover follows from its models' is the ruleset's
rule, not the board's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from kubik.game.battle.board.hooks import BoardHooks, U
from kubik.table import Base, Cover


class BoardSight(BoardHooks[U]):
    """What it sees: :meth:`sees`, :meth:`covers` and their kin."""

    def sees(self, viewer: U, target: U) -> bool:
        """Whether any of ``viewer``'s eyes sees any model of ``target`` (the table's line
        of sight). Kept while both stand where they stood."""
        game = self.game
        memo = game._still
        if memo is None:
            return self._sees(viewer, target)
        key = ("board.sees", id(viewer), id(target))
        found: bool | None = memo.get(key)  # (asked for every pair a menu weighs)
        if found is None:
            found = memo[key] = game.lasting(
                ("board.sees", self.shape(viewer), self.shape(target)),
                lambda: self._sees(viewer, target),
            )
        return found

    def _sees(self, viewer: U, target: U) -> bool:
        return self.sees_from(self.eyes_of(viewer), target)

    def covers(self, viewer: U, target: U) -> tuple[Cover, ...]:
        """The cover each model of ``target`` has against ``viewer`` (from the eye nearest
        it), in the order of :meth:`bases_of`. How a unit's cover follows from its models'
        is the ruleset's rule."""
        eyes = self.eyes_of(viewer)
        if not eyes:
            return tuple(Cover.NONE for _ in self.bases_of(target))
        cover = self.game.tape.cover
        out = []
        for b in self.bases_of(target):
            eye = min(eyes, key=lambda e: math.dist(e.centre, b.centre))
            out.append(cover(eye, b))
        return tuple(out)

    def cover(self, viewer: U, target: U) -> Cover:
        """The best cover any model of ``target`` has against ``viewer`` (for units of one
        model, simply its cover)."""
        return Cover.best(self.covers(viewer, target))

    def sees_from(self, bases: Sequence[Base], target: U) -> bool:
        """Whether models standing at ``bases`` (where a unit would stand, or one model of
        a unit looking for itself: a psionic, a spotter) would see any model of
        ``target``: sight from a place a move is weighed at."""
        sees = self.game.tape.sees
        theirs = self.bases_of(target)
        if len(bases) == 1 and len(theirs) == 1:  # (one model each: one line of sight)
            return sees(bases[0], theirs[0])
        return any(sees(eye, b) for eye in bases for b in theirs)

    def cover_at(self, bases: Sequence[Base], viewer: U) -> Cover:
        """The best cover models standing at ``bases`` (where a unit would stand) would
        have against ``viewer`` (from the eye nearest each): cover at a place a move is
        weighed at."""
        eyes = self.eyes_of(viewer)
        if not eyes:
            return Cover.NONE
        cover = self.game.tape.cover
        if len(eyes) == 1 and len(bases) == 1:  # (one model each: one line of fire)
            return cover(eyes[0], bases[0])
        return Cover.best(
            tuple(cover(min(eyes, key=lambda e: math.dist(e.centre, b.centre)), b) for b in bases)
        )


__all__ = ["BoardSight"]
