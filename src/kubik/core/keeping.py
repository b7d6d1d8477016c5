"""Bounded keeping of answers, for every layer (the table's measurements, the engine's odds,
the rulesets' derived values): one kind of memo with one limit, instead of a hand-written
``if len(memo) >= N: memo.clear()`` in each module.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Kept(dict[K, V]):
    """Answers kept under their keys, at most ``limit`` of them: once full, the keeping
    starts afresh (answers are cheap to work out again, and forgetting them all at once
    costs nothing per lookup, unlike evicting the oldest).

    A dict (lookups are the dict's own: this is asked in the odds driver's tightest
    loops); only :meth:`keep` adds to it.

    >>> squares: Kept[int, int] = Kept(2)
    >>> squares.keep(3, 9), squares.get(3), squares.keep(4, 16), squares.keep(5, 25)
    (9, 9, 16, 25)
    >>> squares.get(3), len(squares)
    (None, 1)
    """

    __slots__ = ("limit",)

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"Kept: the limit must be at least 1, not {limit}")
        super().__init__()
        self.limit = limit

    def keep(self, key: K, value: V) -> V:
        """Keep ``value`` under ``key`` (forgetting everything first if full); returns it."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value


__all__ = ["Kept"]
