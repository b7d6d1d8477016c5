"""Moving over terrain: what a path costs and how far along it a model gets.

Terrain cost per inch travelled (SW-MOVE-02): OPEN 1, DIFFICULT 2 (half speed),
VERY_DIFFICULT 3 (third speed), IMPASSABLE cannot be entered. Where features
overlap, the most restrictive kind for the mover type counts. A model's terrain
is where its base **centre** is; ``clearance`` (usually the base radius) keeps
the whole base out of impassable areas. Running exactly along the edge of a
feature is not being in it.

Linear features (fences, walls) have no area: crossing one costs nothing here,
unless its kind is IMPASSABLE for the mover, in which case it cannot be crossed
(it is widened by :data:`LINE_MARGIN`, or by ``clearance`` if that is larger).
Rules that charge for crossing obstacles use :func:`obstacles_crossed`.

Everything returns exact inches. Game rounding (Steel War halves and thirds
*rounding down*, SW-MOVE-02) and policies such as "the whole move uses the worst
terrain entered" (see :func:`worst_kind_along`) belong to the rulesets.

>>> from kubik.table.table import Table
>>> from kubik.table.terrain import TerrainFeature, TerrainKind
>>> wood = TerrainFeature.from_points("wood", [(4, 0), (8, 0), (8, 10), (4, 10)],
...                                   kind=TerrainKind.DIFFICULT)
>>> table = Table(24, 12, (wood,))
>>> path_cost(table, "infantry", [(0, 5), (10, 5)])     # 4 open + 4 wood x2 + 2 open
14.0
>>> max_move_along(table, [(0, 5), (10, 5)], 6, "infantry").end   # 4 open, then 1 in wood
(5.0, 5.0)
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from typing import Any, TypeAlias

import numpy as np
import shapely
from shapely.geometry import LineString, box

from kubik.core.keeping import Kept
from kubik.table.errors import TableError
from kubik.table.geometry import EPS, Point, as_point, core, point_distance
from kubik.table.table import Table
from kubik.table.terrain import TerrainFeature, TerrainKind, worst_kind

#: shapely's compiled predicates and operations, called without its Python wrappers
#: (argument checks, preparing again what is prepared): every move asks them per leg.
_lib: Any = shapely.lib
#: shapely's "allow" for NaN coordinates, what ``shapely.linestrings`` passes its maker.
_ALLOW_NAN = np.intc(0)
#: ``shapely.get_coordinates``'s defaults: x and y alone, no index.
_XY = (False, False, False)
#: ``shapely.get_coordinates``'s first step: one geometry as an array of objects.
_as_array = functools.partial(np.asarray, dtype=np.object_)
#: A bounding box: (min x, min y, max x, max y).
Box: TypeAlias = tuple[float, float, float, float]
#: Half-width given to impassable lines so that a path cannot slip through them.
LINE_MARGIN = 1e-3
#: Segments per quarter circle when rounding the corners of impassable areas by
#: ``clearance``: a base may clip a corner by at most 0.5% of the clearance
#: (0.0024 inch for a 25 mm base). Straight sides are exact.
CLEARANCE_QUAD_SEGS = 8
#: Most segments whose legs :class:`Regions` keeps (an engine limit, not a rule).
SEGMENTS_KEPT = 4096


@dataclass(frozen=True)
class Regions:
    """Where a mover is slowed or stopped (built once per mover type and clearance).

    ``slow`` is everything DIFFICULT or worse, ``slower`` everything VERY_DIFFICULT
    (so cost per inch = 1 + [in slow] + [in slower]); ``barrier`` is everything it
    cannot enter, grown by the clearance, and everything off the table. The ``*_core``
    versions are shrunk by :data:`~kubik.table.geometry.CORE_EPS` so that grazing an
    edge does not count.
    """

    slow: Any
    slower: Any
    barrier: Any
    slow_core: Any
    slower_core: Any
    barrier_core: Any
    #: The bounding boxes (min x, min y, max x, max y) of every feature in the three
    #: regions as it is there (impassable ones grown), and the rectangle inside the
    #: table's edge wall: a straight move that keeps clear of all of them meets no
    #: region (``None``: not known, every move is measured).
    boxes: tuple[Box, ...] = ()
    inside: Box | None = None
    #: The same boxes region by region (slow, slower, barrier; the barrier's without the
    #: table's edge wall, which ``inside`` stands for): a point or a move in none of a
    #: region's boxes is surely not in it (``None``: not known, shapely is asked).
    parts: tuple[tuple[Box, ...], tuple[Box, ...], tuple[Box, ...]] | None = None

    @cached_property
    def cut_segments(self) -> Kept[tuple[Point, Point], tuple[Leg, ...]]:
        """The legs of segments cut against these regions, kept by their ends (at most
        :data:`SEGMENTS_KEPT`): paths to one goal share their segments."""
        return Kept(SEGMENTS_KEPT)

    @cached_property
    def edges(self) -> tuple[tuple[Any, Any], ...]:
        """(region, its boundary) for slow, slower and barrier, the empty ones left out:
        where a straight move changes terrain (each boundary made once, not per move)."""
        return tuple((region, boundary) for region, boundary, _, _ in self.boxed_edges)

    @cached_property
    def boxed_edges(self) -> tuple[tuple[Any, Any, tuple[Box, ...] | None, bool], ...]:
        """:attr:`edges`, each with its region's boxes (``None``: unknown) and whether it
        holds the table's edge wall too."""
        parts = self.parts or (None, None, None)
        return tuple(
            (region, region.boundary, boxes, walled)
            for region, boxes, walled in zip(
                (self.slow, self.slower, self.barrier), parts, (False, False, True), strict=True
            )
            if not region.is_empty
        )


def regions(table: Table, mover_type: str | None, clearance: float = 0.0) -> Regions:
    """The movement regions for a mover type and clearance (memoised on the table)."""
    key = ("regions", mover_type, clearance)
    found: Regions | None = table.cached_now(key)  # (asked at every move and point)
    if found is not None:
        return found  # (its clearance was checked when they were built)
    _check_clearance(clearance)
    return table.cached(key, lambda: _build_regions(table, mover_type, clearance))


def _build_regions(table: Table, mover_type: str | None, clearance: float) -> Regions:
    slow, slower, walls = [], [], []
    boxes: list[Box] = []
    slow_boxes: list[Box] = []
    slower_boxes: list[Box] = []
    wall_boxes: list[Box] = []
    for f in table.features:
        kind = f.kind_for(mover_type)
        if kind is TerrainKind.IMPASSABLE:
            margin = clearance if f.is_area else max(clearance, LINE_MARGIN)
            walls.append(_grow(f.shape, margin))
            boxes.append(_box_of(walls[-1]))
            wall_boxes.append(boxes[-1])
        elif f.is_area and kind is not TerrainKind.OPEN:
            slow.append(f.shape)
            boxes.append(_box_of(f.shape))
            slow_boxes.append(boxes[-1])
            if kind is TerrainKind.VERY_DIFFICULT:
                slower.append(f.shape)
                slower_boxes.append(boxes[-1])
    # the table's edge is a wall too (so a path cannot squeeze along it past terrain
    # that touches the edge); with a clearance, the base must stay wholly on the table
    inner = box(clearance, clearance, table.width - clearance, table.height - clearance)
    walls.append(box(-1.0, -1.0, table.width + 1, table.height + 1).difference(inner))
    geoms = [shapely.union_all(g) for g in (slow, slower, walls)]
    cores = [core(g) for g in geoms]
    for g in (*geoms, *cores):
        shapely.prepare(g)
    inside = (
        clearance + _BOX_SLACK,
        clearance + _BOX_SLACK,
        table.width - clearance - _BOX_SLACK,
        table.height - clearance - _BOX_SLACK,
    )
    (slow_all, slower_all, barrier), (slow_core, slower_core, barrier_core) = geoms, cores
    return Regions(
        slow_all,
        slower_all,
        barrier,
        slow_core,
        slower_core,
        barrier_core,
        tuple(boxes),
        inside,
        (tuple(slow_boxes), tuple(slower_boxes), tuple(wall_boxes)),
    )


#: How much wider than a feature's shape its box is taken (the regions are unions of
#: the shapes, whose points may move by a rounding's width): a move this close is
#: measured against the regions themselves.
_BOX_SLACK = 1e-6


def _box_of(shape: Any) -> Box:
    x0, y0, x1, y1 = shape.bounds
    return (x0 - _BOX_SLACK, y0 - _BOX_SLACK, x1 + _BOX_SLACK, y1 + _BOX_SLACK)


def _meets_no_region(reg: Regions, p: Point, q: Point) -> bool:
    """Whether the segment surely meets none of the regions: both ends well inside the
    table's edge wall (so the whole segment is) and its box clear of every feature's."""
    inside = reg.inside
    if inside is None:
        return False
    x0, x1 = (p[0], q[0]) if p[0] <= q[0] else (q[0], p[0])
    y0, y1 = (p[1], q[1]) if p[1] <= q[1] else (q[1], p[1])
    if x0 <= inside[0] or y0 <= inside[1] or x1 >= inside[2] or y1 >= inside[3]:
        return False
    for bx0, by0, bx1, by1 in reg.boxes:
        if bx0 <= x1 and bx1 >= x0 and by0 <= y1 and by1 >= y0:
            return False
    return True


def _grow(shape: Any, margin: float) -> Any:
    """``shape`` grown by ``margin`` (rounded corners, see :data:`CLEARANCE_QUAD_SEGS`)."""
    if margin <= 0:
        return shape
    return shape.buffer(margin, quad_segs=CLEARANCE_QUAD_SEGS)


def _check_clearance(clearance: float) -> None:
    if not (math.isfinite(clearance) and clearance >= 0):
        raise TableError("clearance", f"must be a non-negative number of inches, got {clearance}")


@dataclass(frozen=True)
class Leg:
    """A straight piece of a path through one kind of terrain."""

    start: Point
    end: Point
    kind: TerrainKind

    @property
    def length(self) -> float:
        """Inches travelled."""
        return point_distance(self.start, self.end)

    @property
    def cost(self) -> float:
        """Movement allowance it uses (∞ if impassable)."""
        if self.kind is TerrainKind.IMPASSABLE:
            return math.inf
        return self.length * self.kind.cost


def check_path(
    table: Table, path: Sequence[Sequence[float]], clearance: float = 0.0
) -> list[Point]:
    """The path's points, each on the table with room for ``clearance`` around it."""
    if len(path) < 1:
        raise TableError("path", "needs at least one point")
    _check_clearance(clearance)
    points = []
    c = clearance - EPS
    high_x, high_y = table.width - c, table.height - c
    for i, p in enumerate(path):
        if type(p) is tuple and len(p) == 2:  # two floats well on the table: as they are
            x, y = p
            if type(x) is float and type(y) is float and c <= x <= high_x and c <= y <= high_y:
                points.append((x, y))
                continue
        x, y = table.check_point(p, f"path[{i}]")
        if not (c <= x <= table.width - c and c <= y <= table.height - c):
            raise TableError(
                f"path[{i}]",
                f"({x:g}, {y:g}) is closer than {clearance:g} inches "
                f"to the edge of the {table.size_text} table",
            )
        points.append((x, y))
    return points


def legs(
    table: Table,
    path: Sequence[Sequence[float]],
    mover_type: str | None = None,
    *,
    clearance: float = 0.0,
) -> tuple[Leg, ...]:
    """Cut a path into legs of one terrain kind each (consecutive equal kinds merged)."""
    points = check_path(table, path, clearance)
    reg = regions(table, mover_type, clearance)
    out: list[Leg] = []
    for p, q in itertools.pairwise(points):
        out += _segment_legs(reg, p, q)
    return tuple(out)


def _segment_legs(reg: Regions, p: Point, q: Point) -> Sequence[Leg]:
    dx, dy = q[0] - p[0], q[1] - p[1]
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return ()
    if _meets_no_region(reg, p, q):  # one leg, as the cuts below would make it
        if math.sqrt(length2) < 1e-12:
            return ()
        # its midpoint lies in the segment's box, clear of every region: open ground
        return (Leg(p, q, TerrainKind.OPEN),)
    key = (p, q)
    if 0.0 in p or 0.0 in q:  # (-0.0 would find 0.0's legs, whose ends are 0.0)
        return _cut_segment(reg, p, q, dx, dy, length2)
    memo = reg.cut_segments
    found = memo.get(key)
    if found is None:
        found = memo.keep(key, _cut_segment(reg, p, q, dx, dy, length2))
    return found


def _cut_segment(
    reg: Regions, p: Point, q: Point, dx: float, dy: float, length2: float
) -> tuple[Leg, ...]:
    """The legs of a segment that meets some region: cut where it crosses a region's
    boundary, each piece of the kind at its middle."""
    x0, x1 = (p[0], q[0]) if p[0] <= q[0] else (q[0], p[0])
    y0, y1 = (p[1], q[1]) if p[1] <= q[1] else (q[1], p[1])
    inside = reg.inside
    within = (  # both ends well inside the table's edge wall, so the whole segment is
        inside is not None
        and x0 > inside[0]
        and y0 > inside[1]
        and x1 < inside[2]
        and y1 < inside[3]
    )
    seg = None
    ts = {0.0, 1.0}
    for region, boundary, boxes, walled in reg.boxed_edges:
        if boxes is not None and (within or not walled):
            for bx0, by0, bx1, by1 in boxes:
                if bx0 <= x1 and bx1 >= x0 and by0 <= y1 and by1 >= y0:
                    break
            else:
                continue  # its box meets none of the region's: it cannot cross the region
        if seg is None:
            seg = _lib.linestrings((p, q), _ALLOW_NAN)  # as ``shapely.linestrings`` makes it
        if not _lib.intersects(region, seg):
            continue
        # ``shapely.get_coordinates`` of the crossings, as Python floats (the same numbers)
        crossings = _lib.get_coordinates(_as_array(_lib.intersection(seg, boundary)), *_XY)
        for x, y in crossings.tolist():
            t = float(((x - p[0]) * dx + (y - p[1]) * dy) / length2)
            ts.add(min(1.0, max(0.0, t)))
    cuts = sorted(ts)
    result: list[Leg] = []
    for t0, t1 in itertools.pairwise(cuts):
        if (t1 - t0) * math.sqrt(length2) < 1e-12:
            continue
        a = (p[0] + t0 * dx, p[1] + t0 * dy)
        b = (p[0] + t1 * dx, p[1] + t1 * dy) if t1 < 1.0 else q
        if t0 == 0.0:
            a = p
        kind = _kind_at(reg, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
        if result and result[-1].kind is kind:  # same terrain on both sides of a cut
            result[-1] = Leg(result[-1].start, b, kind)
        else:
            result.append(Leg(a, b, kind))
    return tuple(result)


def _kind_at(reg: Regions, point: Point) -> TerrainKind:
    x, y = point  # the xy forms of "contains" make no point shape
    inside = _lib.contains_xy  # the regions are prepared when built
    sure, parts = reg.inside, reg.parts
    if (
        sure is not None
        and parts is not None
        and sure[0] < x < sure[2]
        and sure[1] < y < sure[3]
        and not _in_any(parts[2], x, y)
    ):  # well inside the table and in no impassable feature's box: not impassable
        if not _in_any(parts[0], x, y):
            return TerrainKind.OPEN
        if _in_any(parts[1], x, y) and inside(reg.slower_core, x, y):
            return TerrainKind.VERY_DIFFICULT
        return TerrainKind.DIFFICULT if inside(reg.slow_core, x, y) else TerrainKind.OPEN
    if inside(reg.barrier_core, x, y):
        return TerrainKind.IMPASSABLE
    if inside(reg.slower_core, x, y):
        return TerrainKind.VERY_DIFFICULT
    if inside(reg.slow_core, x, y):
        return TerrainKind.DIFFICULT
    return TerrainKind.OPEN


def _in_any(boxes: tuple[Box, ...], x: float, y: float) -> bool:
    """Whether ``(x, y)`` lies in any of ``boxes`` (edges included)."""
    for bx0, by0, bx1, by1 in boxes:  # noqa: SIM110 (a plain loop: no generator per point)
        if bx0 <= x <= bx1 and by0 <= y <= by1:
            return True
    return False


def kind_at(
    table: Table, point: Sequence[float], mover_type: str | None = None, *, clearance: float = 0.0
) -> TerrainKind:
    """The terrain kind a mover's centre is in at ``point`` (edges count as outside)."""
    return _kind_at(regions(table, mover_type, clearance), table.check_point(point))


def path_length(path: Sequence[Sequence[float]]) -> float:
    """Length of a polyline in inches, ignoring terrain.

    >>> path_length([(0, 0), (3, 4), (3, 10)])
    11.0
    """
    pts = [as_point(p, f"path[{i}]") for i, p in enumerate(path)]
    return sum(point_distance(p, q) for p, q in itertools.pairwise(pts))


def path_cost(
    table: Table,
    mover_type: str | None,
    path: Sequence[Sequence[float]],
    *,
    clearance: float = 0.0,
) -> float:
    """Movement allowance the path uses: Σ length × terrain cost; ``math.inf`` if it
    enters impassable terrain."""
    return sum((leg.cost for leg in legs(table, path, mover_type, clearance=clearance)), 0.0)


def worst_kind_along(
    table: Table,
    mover_type: str | None,
    path: Sequence[Sequence[float]],
    *,
    clearance: float = 0.0,
) -> TerrainKind:
    """The most restrictive terrain the path enters (for "the whole move uses the worst
    terrain" rules, SW-MOVE-02 default, and for march moves that need open terrain)."""
    return worst_kind(leg.kind for leg in legs(table, path, mover_type, clearance=clearance))


class Stop(Enum):
    """Why a move ended."""

    END = "end"  # reached the end of the path
    ALLOWANCE = "allowance"  # ran out of movement
    IMPASSABLE = "impassable"  # the next step would enter impassable terrain


@dataclass(frozen=True)
class Move:
    """Where a model following a path ends: the point, inches travelled along the
    path, allowance used, and why it stopped."""

    end: Point
    distance: float
    cost: float
    stop: Stop

    @property
    def complete(self) -> bool:
        """Whether the model reached the end of the path."""
        return self.stop is Stop.END


def max_move_along(
    table: Table,
    path: Sequence[Sequence[float]],
    allowance: float,
    mover_type: str | None = None,
    *,
    clearance: float = 0.0,
) -> Move:
    """How far along ``path`` a model with ``allowance`` inches of movement gets."""
    if not (math.isfinite(allowance) and allowance >= 0):
        raise TableError("allowance", f"must be a non-negative number of inches, got {allowance}")
    pieces = legs(table, path, mover_type, clearance=clearance)
    points = check_path(table, path, clearance)
    here, travelled, left = points[0], 0.0, allowance
    for leg in pieces:
        if left <= EPS:
            return Move(here, travelled, allowance - max(left, 0.0), Stop.ALLOWANCE)
        if leg.kind is TerrainKind.IMPASSABLE:
            return Move(here, travelled, allowance - left, Stop.IMPASSABLE)
        if leg.cost <= left + EPS:
            here, travelled, left = leg.end, travelled + leg.length, left - leg.cost
            continue
        step = left / leg.kind.cost
        t = step / leg.length
        here = (
            leg.start[0] + t * (leg.end[0] - leg.start[0]),
            leg.start[1] + t * (leg.end[1] - leg.start[1]),
        )
        return Move(here, travelled + step, allowance, Stop.ALLOWANCE)
    return Move(points[-1], travelled, allowance - max(left, 0.0), Stop.END)


def obstacles_crossed(table: Table, path: Sequence[Sequence[float]]) -> tuple[TerrainFeature, ...]:
    """The obstacle features (fences, walls, ditches) the path passes through, in table
    order; touching the end of a fence is not crossing it."""
    points = check_path(table, path)
    if len(points) < 2:
        return ()
    x0, y0 = x1, y1 = points[0]  # the line's box, shapeless
    for x, y in points:
        x0, x1 = (x, x1) if x < x0 else (x0, x if x > x1 else x1)
        y0, y1 = (y, y1) if y < y0 else (y0, y if y > y1 else y1)
    near = [f for f in table.candidates_in(x0, y0, x1, y1) if f.obstacle]
    if not near:
        return ()
    line = LineString(points)
    return tuple(f for f in near if f.core.intersects(line))
