"""Reducers any ruleset can put on a ``Roll``, with closed forms for exact odds.

A reducer maps a roll's values to the one thing the rule needs from them. These
know their own exact distribution (``counts``), so the odds driver never walks the
dice: the best of n dice from ``#(max ≤ v) = Π min(v, faces)``, a total by
convolving the dice one at a time.

>>> from kubik.engine.dice import D6
>>> Highest()((2, 5, 3)), Total()((2, 5, 3))
(5, 10)
>>> Highest().counts((D6, D6))[6], Total().counts((D6, D6))[7]
(11, 6)
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kubik.engine.dice import Die

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


@dataclass(frozen=True, slots=True)
class Highest:
    """The best die of a roll (Dukin' it out compares only the best die)."""

    def __call__(self, values: tuple[int, ...]) -> int:
        return max(values)

    def counts(self, dice: tuple[Die, ...]) -> dict[int, int]:
        """Face combinations whose best die is each value: #(≤ v) − #(≤ v−1)."""
        top = max(d.faces for d in dice)
        out: dict[int, int] = {}
        below = 0
        for value in range(1, top + 1):
            at_most = math.prod(min(value, d.faces) for d in dice)
            if at_most != below:
                out[value] = at_most - below
            below = at_most
        return out

    def batch(self, faces: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Vectorised form over an [m, ndice] array of faces."""
        import numpy as np

        return np.asarray(faces.max(axis=1))


@dataclass(frozen=True, slots=True)
class Total:
    """The sum of a roll (2D6 Pluck tests use only the total)."""

    def __call__(self, values: tuple[int, ...]) -> int:
        return sum(values)

    def counts(self, dice: tuple[Die, ...]) -> dict[int, int]:
        """Face combinations giving each total: the dice convolved one at a time."""
        totals = {0: 1}
        for die in dice:
            following: dict[int, int] = {}
            for total, count in totals.items():
                for value in die.values:
                    following[total + value] = following.get(total + value, 0) + count
            totals = following
        return totals

    def batch(self, faces: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Vectorised form over an [m, ndice] array of faces."""
        import numpy as np

        return np.asarray(faces.sum(axis=1))


@dataclass(frozen=True, slots=True)
class AtMost:
    """Whether a single die shows ``limit`` or less (a 1–3 / 4–6 roll-off): the rule
    needs only that, so exact odds branch twice, not once per face."""

    limit: int

    def __call__(self, values: tuple[int, ...]) -> bool:
        (value,) = values
        return value <= self.limit

    def counts(self, dice: tuple[Die, ...]) -> dict[bool, int]:
        """Faces at most the limit, and the others."""
        (die,) = dice
        low = max(0, min(self.limit, die.faces))
        return {answer: n for answer, n in ((True, low), (False, die.faces - low)) if n}


@dataclass(frozen=True, slots=True)
class AtLeast:
    """Whether a single die shows ``needed`` or more (a to-hit roll nothing can lift):
    exact odds branch on hit or miss, not on every face."""

    needed: int

    def __call__(self, values: tuple[int, ...]) -> bool:
        (value,) = values
        return value >= self.needed

    def counts(self, dice: tuple[Die, ...]) -> dict[bool, int]:
        """Faces from ``needed`` up, and the others."""
        (die,) = dice
        hits = max(0, die.faces - max(self.needed, 1) + 1)
        return {answer: n for answer, n in ((True, hits), (False, die.faces - hits)) if n}


def top_values_counts(
    dice: tuple[Die, ...], keep: int, cap: int
) -> dict[tuple[int, ...], int] | None:
    """Closed form for the best ``keep`` values (ascending), each capped at ``cap``.

    Face combinations per answer, for ``keep`` of 1 or 2 (``None`` otherwise: fold
    instead). With m(x) the faces of a die at most x (all of them from the cap up) and
    kᵍ dice of each kind g, the combinations whose best die is at most b and second
    best at most a ≤ b are G(a, b) = Π m(a) + Σ_g kᵍ (mᵍ(b) − mᵍ(a)) mᵍ(a)^(kᵍ−1) Π_{h≠g} mʰ(a)^kʰ;
    point counts are differences of G.

    >>> from kubik.engine.dice import D6
    >>> top_values_counts((D6, D6), 2, 7)[(6, 6)], top_values_counts((D6, D6), 2, 4)[(4, 4)]
    (1, 9)
    """
    if keep not in (1, 2) or not dice:
        return None
    kinds: dict[int, int] = {}
    for die in dice:
        kinds[die.faces] = kinds.get(die.faces, 0) + 1
    groups = tuple(kinds.items())
    top = min(cap, max(kinds))
    # at_most[x][g]: faces of a die of kind g at most x (all of them from the cap up)
    at_most = [
        [faces if x >= cap else min(x, faces) for faces, _ in groups] for x in range(top + 1)
    ]

    if keep == 1 or len(dice) == 1:
        out: dict[tuple[int, ...], int] = {}
        below = 0
        for value in range(1, top + 1):
            count = 1
            for below_value, (_, k) in zip(at_most[value], groups, strict=True):
                count *= below_value**k
            if count != below:
                out[(value,)] = count - below
            below = count
        return out

    # G(a, b) = Π m(a) + Σ_g slope_g(a) (mᵍ(b) − mᵍ(a)), with
    # slope_g(a) = kᵍ mᵍ(a)^(kᵍ−1) Π_{h≠g} mʰ(a)^kʰ: what depends on a alone made once
    kinds_range = range(len(groups))
    bases: list[int] = []  # Π m(a) − Σ_g slope_g(a) mᵍ(a)
    slopes: list[list[int]] = []
    for a in range(top + 1):
        low = at_most[a]
        powers = [low[g] ** groups[g][1] for g in kinds_range]
        base = math.prod(powers)
        slope_a = []
        for g in kinds_range:
            k = groups[g][1]
            slope = k * low[g] ** (k - 1) * math.prod(powers[h] for h in kinds_range if h != g)
            slope_a.append(slope)
            base -= slope * low[g]
        bases.append(base)
        slopes.append(slope_a)
    table: list[list[int]] = []  # table[b][a] = G(a, b), a ≤ b
    for b in range(top + 1):
        by_b = at_most[b]
        table.append([bases[a] + sum(map(operator.mul, slopes[a], by_b)) for a in range(b + 1)])
    out = {}
    for b in range(1, top + 1):
        row, before = table[b], table[b - 1]
        for a in range(1, b + 1):
            if a < b:
                count = row[a] - row[a - 1] - before[a] + before[a - 1]
            else:
                count = row[a] - row[a - 1]
            if count:
                out[(a, b)] = count
    return out


__all__ = ["AtLeast", "AtMost", "Highest", "Total", "top_values_counts"]
