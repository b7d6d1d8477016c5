"""The board's grid and its measuring slack: every place a board offers lies on a
0.1-inch grid, and a way may cost a little more than its allowance for the rounding.

Kept apart because every part of the board (and rulesets placing models by hand) rounds
places the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

from kubik.table import Point

#: The grid every place a board offers lies on (inches): a spot typed or moved to.
GRID = 0.1
#: Inches of measuring slack (rounding to the grid, placing by hand): a way that costs
#: this much more than its allowance still fits it.
SLACK = 0.05


def on_grid(point: Sequence[float]) -> Point:
    """``point`` on the board's 0.1-inch grid.

    >>> on_grid((1.04, 2.96))
    (1.0, 3.0)
    """
    return (round(float(point[0]), 1), round(float(point[1]), 1))


__all__ = ["GRID", "SLACK", "on_grid"]
