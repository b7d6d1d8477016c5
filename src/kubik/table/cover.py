"""Cover: how well a target is protected against one shooter.

The rule used (:func:`cover_between`), stated once so every ruleset agrees:

1. **In cover**: the target stands in an area feature that gives cover (its
   base centre is inside; :meth:`Table.stands_in`). A target in a wood has the
   wood's cover from every direction (SW-FIRE-08: "a target in woods or bushes is
   always in light cover").
2. **Behind cover**: the line of fire (centre to centre) passes *through* a
   feature that gives cover — a wall, a fence, a hedge, the corner of a ruin —
   within ``near`` inches (default **1 inch**) of the target's base edge. Cover
   far from the target protects nothing ("cover counts only when it can protect",
   SW-FIRE-08); a wall right in front of the *shooter* is the shooter's cover,
   not the target's. Features the shooter stands in never count here (shooting
   out of a wood does not give the target the wood's cover).

Covers do not stack: the best one counts (SW-FIRE-09 default). Whether a given
cover protects against a given attack (bushes against artillery) is the
ruleset's decision; :func:`cover_sources` says which feature gave what.

>>> from kubik.table.table import Table
>>> from kubik.table.terrain import TerrainFeature
>>> wall = TerrainFeature.from_points("wall", [(10, 0), (10, 12)], line=True,
...                                   obstacle=True, cover=Cover.HARD)
>>> table = Table(24, 12, (wall,))
>>> cover_between(table, Base(2, 6, 1), Base(11, 6, 1)).value    # just behind the wall
'hard'
>>> cover_between(table, Base(2, 6, 1), Base(16, 6, 1)).value    # 5.5 inches behind it
'none'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

from shapely.geometry import LineString
from shapely.geometry import Point as ShapelyPoint

from kubik.table.errors import TableError
from kubik.table.geometry import Base, Point
from kubik.table.table import Table
from kubik.table.terrain import Cover

#: Default reach of intervening cover: it must cross the line of fire within this
#: many inches of the target's base edge.
NEAR_TARGET = 1.0


class CoverHow(Enum):
    """Why the target has a feature's cover: it stands in it, or is right behind it."""

    IN = "in"
    BEHIND = "behind"


@dataclass(frozen=True)
class CoverSource:
    """One feature giving the target cover, for the log and for ruleset exceptions."""

    feature_id: str
    cover: Cover
    how: CoverHow


def cover_between(table: Table, shooter: Base, target: Base, *, near: float = NEAR_TARGET) -> Cover:
    """The best cover ``target`` has against ``shooter`` (see the module rule)."""
    return Cover.best(s.cover for s in cover_sources(table, shooter, target, near=near))


def cover_sources(
    table: Table, shooter: Base, target: Base, *, near: float = NEAR_TARGET
) -> tuple[CoverSource, ...]:
    """Every feature that gives ``target`` cover against ``shooter``, in table order."""
    if not (near >= 0 and math.isfinite(near)):
        raise TableError("near", f"must be a non-negative number of inches, got {near}")
    table.check_base(shooter)
    table.check_base(target)
    near_part = near_target(shooter.centre, target.centre, target.radius + near)
    found: list[CoverSource] = []
    near_box = ShapelyPoint(target.centre) if near_part is None else near_part
    for f in table.candidates(near_box):  # features the line's last stretch or the target meets
        if f.cover is Cover.NONE:
            continue
        if table.stands_in(target, f):
            found.append(CoverSource(f.id, f.cover, CoverHow.IN))
        elif (
            near_part is not None
            and not table.stands_in(shooter, f)
            and f.core.intersects(near_part)
        ):
            found.append(CoverSource(f.id, f.cover, CoverHow.BEHIND))
    return tuple(found)


def near_target(shooter: Point, target: Point, reach: float) -> LineString | None:
    """The last ``reach`` inches of the line of fire before the target's centre."""
    ends = near_target_ends(shooter, target, reach)
    return None if ends is None else LineString(ends)


def near_target_ends(shooter: Point, target: Point, reach: float) -> tuple[Point, Point] | None:
    """Where :func:`near_target`'s line starts and ends (``None``: no line), without
    making the shape (a measuring tape makes it only when a feature is near)."""
    length = math.dist(shooter, target)
    if length == 0:
        return None
    t = max(0.0, 1.0 - reach / length)
    start = (shooter[0] + (target[0] - shooter[0]) * t, shooter[1] + (target[1] - shooter[1]) * t)
    return (start, target)


_near_target = near_target  # the former private name, still imported by callers
