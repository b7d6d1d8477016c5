"""Дороги Апокалипсиса's shared vocabulary: sides, editions, the rulebook data, and the
summary of a pool of d6 that every dice rule of the game reads (highest die, next
highest, natural 1s and 6s).

Every rule module reads its numbers through :func:`number` (the ruleset's TOML with
the user's overrides), so no rulebook number is written in Python.

>>> Side.A.other
<Side.B: 'b'>
>>> pool_summary((1, 1, 4, 6))
Pool(highest=6, second=4, ones=2, sixes=1)
>>> Edition("activation").seed
'000'
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from functools import cache
from typing import Any, NamedTuple

from kubik.rulesets.data import load_ruleset_data

RULESET = "apocalypse"


class Side(StrEnum):
    """The two fighters of a procedure (JSON: "a" / "b")."""

    A = "a"
    B = "b"

    @property
    def other(self) -> Side:
        """The opposing side."""
        return Side.B if self is Side.A else Side.A

    @property
    def msgid(self) -> str:
        """Message id of its name."""
        return f"apocalypse.side.{self.value}"


class Edition(StrEnum):
    """Which edition of the game a battle follows (the ruleset option ``edition``):
    seed 003 is turn-based, seed 000 activation-based; they differ in hiding, guard
    and panic (rules.md, 0.2)."""

    TURN = "turn"
    ACTIVATION = "activation"

    @property
    def seed(self) -> str:
        """The seed the edition is read from."""
        return "003" if self is Edition.TURN else "000"

    @property
    def msgid(self) -> str:
        """Message id of its name."""
        return f"apocalypse.edition.{self.value}"


@cache
def data() -> Mapping[str, Any]:
    """The ruleset's numbers (data.toml with the user's overrides), loaded once."""
    return load_ruleset_data(RULESET)


def number(table: str, key: str) -> int:
    """One integer from the data: ``number("melee", "charge")``."""
    return int(data()[table][key])


def decimal(table: str, key: str) -> float:
    """One number with a fraction from the data (distances in paces)."""
    return float(data()[table][key])


class Pool(NamedTuple):
    """What the rules read of a roll of d6: the highest die, the next highest (0 with one
    die), and how many natural 1s and 6s it shows. A named tuple, not a dataclass: exact
    odds hash and compare pools hundreds of thousands of times a game, and a tuple does
    that in C (the same hash and order a frozen dataclass of these fields has)."""

    highest: int
    second: int
    ones: int
    sixes: int

    def rerolled_highest(self, new: int) -> Pool:
        """The pool after its highest die is rolled again and shows ``new`` (a block,
        RA-CC-13): the best of ``new`` and the dice kept counts. A block comes once a
        round and nothing after it reads the next-highest die, so it is not kept (0).

        >>> Pool(6, 2, 0, 1).rerolled_highest(1)
        Pool(highest=2, second=0, ones=1, sixes=0)
        """
        ones = self.ones - (self.highest == 1) + (new == 1)
        sixes = self.sixes - (self.highest == 6) + (new == 6)
        return Pool(max(new, self.second), 0, ones, sixes)


def pool_summary(values: tuple[int, ...]) -> Pool:
    """Reduce a roll of d6 to what the rules read (the odds driver branches on this)."""
    ordered = sorted(values, reverse=True)
    second = ordered[1] if len(ordered) > 1 else 0
    return Pool(ordered[0], second, ordered.count(1), ordered.count(6))


__all__ = ["RULESET", "Edition", "Pool", "Side", "data", "decimal", "number", "pool_summary"]
