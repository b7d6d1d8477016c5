"""Reducers any ruleset can put on a ``Roll``, with closed forms for exact odds.

A reducer maps a roll's values to the one thing the rule needs from them. These
know their own exact distribution (``counts``), so the odds driver never walks the
dice: the best of n dice from ``#(max ≤ v) = Π min(v, faces)``, a total by
convolving the dice one at a time.

>>> from kubik.dice import D6
>>> Highest()((2, 5, 3)), Total()((2, 5, 3))
(5, 10)
>>> Highest().counts((D6, D6))[6], Total().counts((D6, D6))[7]
(11, 6)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kubik.dice import Die

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


__all__ = ["Highest", "Total"]
