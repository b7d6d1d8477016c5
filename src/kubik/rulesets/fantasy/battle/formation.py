"""Regiments on the table: ranks and files of round bases behind a front, facing any
compass angle (whole degrees: 0 north (+y), 90 east (+x), 180 south, 270 west).
Models of a regiment keep a gap, so they never touch."""

from __future__ import annotations

import math
from functools import lru_cache

from kubik.rulesets.fantasy.command import flame_template
from kubik.rulesets.fantasy.regiment import formation_inches
from kubik.table import Base, Point


def spacing() -> float:
    """Distance between neighbouring models' centres (inches)."""
    return formation_inches("spacing")


def contact() -> float:
    """Distance between the centres of two models in base contact (inches)."""
    return formation_inches("contact")


def corner_contact() -> float:
    """How near (edge to edge, inches) a model comes to an enemy's to touch it corner to
    corner: the round bases stand for square ones, which touch their diagonal
    neighbours across the gap between files."""
    return formation_inches("corner_contact")


def step(size: float, loose: bool = False) -> float:
    """Distance between neighbouring centres of a regiment of ``size`` bases; a loose
    formation (skirmishers) stands farther apart."""
    if loose:
        return max(formation_inches("skirmish_spacing"), size + 0.1)
    return max(spacing(), size + 0.1)


def ahead(facing: int) -> Point:
    """The unit vector a regiment facing ``facing`` degrees looks along."""
    angle = math.radians(facing)
    return (math.sin(angle), math.cos(angle))


def right(facing: int) -> Point:
    """The unit vector along its front rank, to its right."""
    angle = math.radians(facing)
    return (math.cos(angle), -math.sin(angle))


def bearing(start: Point, end: Point) -> int:
    """The whole-degree facing that looks from ``start`` at ``end``."""
    return round(math.degrees(math.atan2(end[0] - start[0], end[1] - start[1]))) % 360


def turn_between(a: int, b: int) -> int:
    """The smallest turn from facing ``a`` to ``b`` (degrees, 0..180)."""
    d = (b - a) % 360
    return min(d, 360 - d)


def slots(
    front: Point, facing: int, files: int, models: int, size: float, loose: bool = False
) -> list[Point]:
    """Centres of ``models`` models in ``files`` files behind ``front`` (the centre of
    the front rank), the front rank filled first, each rank from the middle file
    outward. The places of fewer models are always among those of more, so a
    regiment losing models never reaches beyond where it stood."""
    return list(_slots(*_placing(front, facing, files, models, size, loose)))


#: The arguments of a regiment's places as :func:`_slots` keys them.
_Placing = tuple[float, float, bool, bool, int, int, int, float]


def _placing(
    front: Point, facing: int, files: int, models: int, size: float, loose: bool
) -> _Placing:
    """Everything :func:`_slots` reads: the front (with the signs of its zeros, which
    rounding keeps), facing, files, models and the gap between centres."""
    x, y = front
    signs = math.copysign(1.0, x) < 0, math.copysign(1.0, y) < 0
    return (x, y, *signs, facing, files, models, step(size, loose))


#: Formations kept (an engine limit, not a rule): a battle measures each many times.
_FORMATIONS_KEPT = 1024


@lru_cache(maxsize=_FORMATIONS_KEPT)
def _slots(
    x: float,
    y: float,
    _x_negative: bool,
    _y_negative: bool,
    facing: int,
    files: int,
    models: int,
    gap: float,
) -> tuple[Point, ...]:
    """:func:`slots`, once per placing (regiments are measured over and over)."""
    (dx, dy), (rx, ry) = ahead(facing), right(facing)
    middle = (files - 1) / 2
    order = _order(files)
    out: list[Point] = []
    for k in range(models):
        rank, place = divmod(k, files)
        across = (order[place] - middle) * gap
        back = rank * gap
        out.append(
            (
                round(x + across * rx - back * dx, 3),
                round(y + across * ry - back * dy, 3),
            )
        )
    return tuple(out)


def depth(files: int, models: int, size: float, loose: bool = False) -> float:
    """From the front rank's centres to the last rank's (inches)."""
    ranks = max(1, -(-models // max(1, files)))
    return (ranks - 1) * step(size, loose)


def _order(files: int) -> list[int]:
    middle = (files - 1) / 2
    return sorted(range(files), key=lambda f: (abs(f - middle), -f))


def side_reach(files: int, models: int, size: float, side: int, loose: bool = False) -> float:
    """From the front rank's centre to its outermost model's centre on the right
    (``side`` 1) or the left (−1), in inches."""
    middle = (files - 1) / 2
    used = _order(files)[: min(files, models)]
    return max(0.0, max(side * (f - middle) for f in used) * step(size, loose))


def half_width(files: int, models: int, size: float, loose: bool = False) -> float:
    """From the front rank's centre to its farther outermost model's centre (inches)."""
    return max(
        side_reach(files, models, size, 1, loose), side_reach(files, models, size, -1, loose)
    )


def frontage(files: int, models: int, size: float, loose: bool = False) -> float:
    """The front rank's width from edge to edge (inches): what a wheel swings."""
    return 2 * half_width(files, models, size, loose) + size


def bases(
    front: Point, facing: int, files: int, models: int, size: float, unit: str, loose: bool = False
) -> list[Base]:
    """The regiment's bases at ``front``."""
    return list(_bases(_placing(front, facing, files, models, size, loose), size, unit))


@lru_cache(maxsize=_FORMATIONS_KEPT)
def _bases(placing: _Placing, size: float, unit: str) -> tuple[Base, ...]:
    """:func:`bases`, once per placing (bases are immutable)."""
    return tuple(Base(x, y, size, f"{unit}.{k}") for k, (x, y) in enumerate(_slots(*placing)))


def under_flame(apex: Point, facing: int, targets: list[Base]) -> tuple[int, int]:
    """(Models fully, models partly) under the flame template laid from ``apex`` along
    ``facing`` (FB-ABSENT-12): a teardrop widening evenly from its narrow end to
    ``flame_width`` at ``flame_length``. A base touching its edge is partly under."""
    length, width = flame_template()
    half = width / 2
    (dx, dy), (rx, ry) = ahead(facing), right(facing)
    fully = partly = 0
    for base in targets:
        ox, oy = base.centre[0] - apex[0], base.centre[1] - apex[1]
        along, off = ox * dx + oy * dy, abs(ox * rx + oy * ry)
        r = base.radius
        if along + r < 0 or along - r > length:
            continue
        if along - r >= 0 and along + r <= length and off + r <= half * (along - r) / length:
            fully += 1
        elif off - r <= half * min(length, max(0.0, along + r)) / length:
            partly += 1
    return fully, partly
