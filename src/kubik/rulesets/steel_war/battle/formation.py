"""How a squad stands on the table, and the inches battles round to.

A squad stands in a block around its centre, four models a row (the default's
:func:`~kubik.rulesets.steel_war.defaults.formation`); a vehicle is one model on its
hull's footprint. Measuring is the board's; this module only says where models stand
and rounds what was measured the way the rules take it (0.1 inch).
"""

from __future__ import annotations

import math

from kubik.rulesets.steel_war.defaults import formation
from kubik.table import Table
from kubik.table.geometry import Point


def inches(value: float) -> float:
    """A measured length as shown and used: rounded half up to 0.1 inch.

    >>> inches(12.04), inches(12.05), inches(0.0)
    (12.0, 12.1, 0.0)
    """
    return math.floor(value * 10 + 0.5 + 1e-9) / 10


def base_diameter() -> float:
    """The diameter of every man's base (inches)."""
    return formation().base_inches


def pitch() -> float:
    """Centre to centre of two neighbours in a block (base and gap)."""
    block = formation()
    return block.base_inches + block.gap_inches


def formation_offsets(models: int) -> tuple[Point, ...]:
    """Where each model stands relative to the squad's centre: a block, ``per_row`` wide.

    >>> formation_offsets(2)
    ((-0.75, 0.0), (0.75, 0.0))
    """
    per_row = formation().per_row
    step = pitch()
    rows = math.ceil(models / per_row)
    out = []
    for i in range(models):
        row, col = divmod(i, per_row)
        in_row = min(per_row, models - row * per_row)
        out.append(((col - (in_row - 1) / 2) * step, (row - (rows - 1) / 2) * step))
    return tuple(out)


#: The formations people may type a squad into at a real table (English and Russian
#: words): the block it stands in by default, a line (one rank, across the way it went)
#: and a column (one file, along it).
FORMATIONS: dict[str, str] = {
    "block": "block",
    "блок": "block",
    "line": "line",
    "линия": "line",
    "цепь": "line",
    "column": "column",
    "колонна": "column",
}


def formation_points(
    formation: str, centre: Point, models: int, heading: tuple[float, float] = (0.0, 1.0)
) -> tuple[Point, ...]:
    """Where each of ``models`` stands in ``formation`` around ``centre``: the block
    (:func:`place`), or a line across / a column along ``heading`` (a direction), bases
    a pitch apart, in order from one end to the other.

    >>> formation_points("line", (10.0, 10.0), 3)
    ((8.5, 10.0), (10.0, 10.0), (11.5, 10.0))
    >>> formation_points("column", (10.0, 10.0), 2, (1.0, 0.0))
    ((9.25, 10.0), (10.75, 10.0))
    """
    if formation == "block":
        return place(centre, models)
    length = math.hypot(*heading) or 1.0
    hx, hy = heading[0] / length, heading[1] / length
    ux, uy = (hy, -hx) if formation == "line" else (hx, hy)
    step = pitch()
    return tuple(
        (
            round(centre[0] + (i - (models - 1) / 2) * step * ux, 3),
            round(centre[1] + (i - (models - 1) / 2) * step * uy, 3),
        )
        for i in range(models)
    )


def formation_radius(models: int, diameter: float | None = None) -> float:
    """How far the block reaches from its centre, bases included: the clearance of moves."""
    offsets = formation_offsets(max(models, 1))
    size = base_diameter() if diameter is None else diameter
    return max(math.hypot(x, y) for x, y in offsets) + size / 2


def place(centre: Point, models: int) -> tuple[Point, ...]:
    """The model positions of a block standing at ``centre`` (0.001" exact, so replays and
    saves give the same floats)."""
    return tuple(
        (round(centre[0] + dx, 3), round(centre[1] + dy, 3)) for dx, dy in formation_offsets(models)
    )


def edge_point(table: Table, edge: str, at: Point) -> Point:
    """The point of a table edge straight "behind" ``at`` (where a retreat heads)."""
    x, y = at
    return {
        "south": (x, 0.0),
        "north": (x, table.height),
        "west": (0.0, y),
        "east": (table.width, y),
    }[edge]


def edge_distance_of(table: Table, edge: str, at: Point) -> float:
    """How far ``at`` is from that edge of the table."""
    return math.dist(edge_point(table, edge, at), at)


def clamp_inside(table: Table, point: Point, margin: float) -> Point:
    """``point`` moved onto the table with ``margin`` inches to spare on every side, and
    a tenth more (a move's end is rounded to 0.1")."""
    room = margin + 0.1
    return (
        min(max(point[0], room), table.width - room),
        min(max(point[1], room), table.height - room),
    )


def toward(start: Point, goal: Point, length: float) -> Point:
    """The point ``length`` inches from ``start`` straight toward (or past) ``goal``.

    >>> toward((0.0, 0.0), (3.0, 4.0), 10.0)
    (6.0, 8.0)
    """
    d = math.dist(start, goal)
    if d == 0:
        return start
    t = length / d
    return (start[0] + (goal[0] - start[0]) * t, start[1] + (goal[1] - start[1]) * t)


__all__ = [
    "FORMATIONS",
    "base_diameter",
    "clamp_inside",
    "edge_distance_of",
    "edge_point",
    "formation_offsets",
    "formation_points",
    "formation_radius",
    "inches",
    "pitch",
    "place",
    "toward",
]
