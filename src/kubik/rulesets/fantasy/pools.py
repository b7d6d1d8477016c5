"""Pool reducers for WFB's roll-a-handful-of-d6 habit, with closed forms for exact odds.

A to-hit or to-wound pool needs only how many dice succeeded, and for Poisoned
attacks (FB-SR-11) and Killing blow (FB-SR-13) how many of them were natural 6s:
a reducer answers ``(sixes, other successes)``, and its ``counts`` are a
trinomial, so the odds driver never walks the dice.

>>> from kubik.engine.dice import D6
>>> Successes(4, split_six=True)((1, 4, 6, 6))
(2, 1)
>>> Successes(4)((1, 4, 6, 6))
(0, 3)
>>> Successes(5).counts((D6, D6))[(0, 2)]
4
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from kubik.engine.dice import Die


@dataclass(frozen=True, slots=True)
class Successes:
    """How many dice of a d6 pool show ``needed`` or more; natural 6s apart when
    ``split_six`` (then the answer is ``(sixes, other successes)``, else ``(0, n)``)."""

    needed: int
    split_six: bool = False

    def __call__(self, values: tuple[int, ...]) -> tuple[int, int]:
        sixes = sum(1 for v in values if v >= 6) if self.split_six else 0
        hits = sum(1 for v in values if v >= self.needed)
        return (sixes, hits - sixes)

    def counts(self, dice: tuple[Die, ...]) -> dict[tuple[int, int], int]:
        """Multinomial counts over (natural 6, other success, failure)."""
        n = len(dice)
        faces = dice[0].faces
        top = 1 if self.split_six else 0
        good = max(0, faces - max(self.needed, 1) + 1) - top
        bad = faces - good - top
        out: dict[tuple[int, int], int] = {}
        for sixes in range(n + 1 if top else 1):
            for other in range(n - sixes + 1):
                fail = n - sixes - other
                ways = math.comb(n, sixes) * math.comb(n - sixes, other)
                count = ways * top**sixes * good**other * bad**fail
                if count:
                    key = (sixes, other)
                    out[key] = out.get(key, 0) + count
        return out
