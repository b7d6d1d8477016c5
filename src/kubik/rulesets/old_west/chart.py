"""The Strength-vs-Toughness wound chart (OW-CC-06) and its extra rolls (OW-CC-07).

>>> cell(3, 8)
WoundCell(first=6, second=4)
>>> str(cell(1, 10))
'-'
>>> cell(5, 5)
WoundCell(first=4, second=None)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from kubik.rulesets.data import DataError, load_ruleset_data

#: Strength and Toughness run 1..10 on the chart.
CHART_MIN, CHART_MAX = 1, 10


@dataclass(frozen=True, slots=True)
class WoundCell:
    """What a strike needs: ``first`` on a d6, then ``second`` on another d6 (6/X cells).

    ``first is None`` is the "-" cell: the target cannot be wounded.
    """

    first: int | None
    second: int | None = None

    def __str__(self) -> str:
        if self.first is None:
            return "-"
        return f"{self.first}/{self.second}" if self.second else str(self.first)


def parse_cell(text: str) -> WoundCell:
    """Read a chart cell: ``"4"``, ``"6/5"`` or ``"-"``."""
    text = text.strip()
    if text in {"-", "–"}:
        return WoundCell(None)
    first, _, second = text.partition("/")
    if not first.isdigit() or (second and not second.isdigit()):
        raise DataError(f"old_west.wound_chart: '{text}' is not a cell (4, 6/5 or -)")
    return WoundCell(int(first), int(second) if second else None)


@cache
def chart() -> tuple[tuple[WoundCell, ...], ...]:
    """The chart as loaded from data (with the user's overrides)."""
    rows = load_ruleset_data("old_west")["wound_chart"]["rows"]
    if len(rows) != CHART_MAX or any(len(r) != CHART_MAX for r in rows):
        raise DataError("old_west.wound_chart.rows: must be 10 rows of 10 cells")
    return tuple(tuple(parse_cell(c) for c in row) for row in rows)


def cell(strength: int, toughness: int) -> WoundCell:
    """The cell for ``strength`` against ``toughness`` (both clamped to 1..10)."""
    s = min(max(strength, CHART_MIN), CHART_MAX)
    t = min(max(toughness, CHART_MIN), CHART_MAX)
    return chart()[s - 1][t - 1]
