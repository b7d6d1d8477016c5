"""Line of sight between two models.

Two ways to draw the line, chosen per ruleset with :class:`LosMode`:

* ``CENTRE_TO_CENTRE`` (the default): one line from centre to centre must be clear.
  Simple, reproducible at a real table with a ruler, and what most of our rulebooks
  imply when they say "draw a line".
* ``ANY_EDGE``: sight is clear if **any** straight line from some point of the
  viewer's base to some point of the target's base is clear ("can see any part").
  Computed exactly (no sampling): if any clear line exists, one exists through two
  "critical" items — obstacle corners, points where an obstacle edge crosses a
  base rim, or tangents to a base — so those finitely many candidates are tried.
  Models whose bases touch always see each other in this mode.

What blocks:

* terrain features with ``blocks_los`` that the line passes **through**; a line
  that only grazes a corner, runs along an edge or passes the very end of a wall
  is clear (tolerance :data:`~kubik.table.geometry.CORE_EPS`);
* features either model **stands in** (base centre inside, see
  :meth:`Table.stands_in`) do not block under the default
  :attr:`OwnFeatures.SEE_IN_AND_OUT` policy ("you can see out of, and be seen
  in, the wood you are in"); :attr:`OwnFeatures.BLOCK` makes them block like any
  other;
* other models' bases, only when :attr:`LosRules.models_block` is set (then the
  line must not pass through their interior; touching a base is clear).

Sight is two-dimensional: elevation does not let a model see over a feature.
Rulesets that allow it pass the features to disregard in ``ignore``.

>>> from kubik.table.table import Table
>>> from kubik.table.terrain import TerrainFeature
>>> wall = TerrainFeature.from_points("wall", [(4, 0), (6, 0), (6, 2), (4, 2)],
...                                   blocks_los=True)
>>> table = Table(12, 12, (wall,))
>>> line_of_sight(table, Base(1, 1, 1), Base(9, 1, 1))
False
>>> line_of_sight(table, Base(1, 2, 1), Base(9, 2, 1))   # grazes the top edge
True
>>> line_of_sight(table, Base(1, 1.5, 1), Base(9, 1.5, 1), rules=LosRules(LosMode.ANY_EDGE))
True
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

import numpy as np
import shapely
from shapely.geometry import LineString, box

from kubik.table.geometry import CORE_EPS, Base, Point, point_segment_distance
from kubik.table.table import Table
from kubik.table.terrain import TerrainFeature


class LosMode(Enum):
    """Which lines count: centre to centre (default) or any line between the bases."""

    CENTRE_TO_CENTRE = "centre_to_centre"
    ANY_EDGE = "any_edge"


class OwnFeatures(Enum):
    """Whether a blocking feature a model stands in blocks that model's sight."""

    SEE_IN_AND_OUT = "see_in_and_out"
    BLOCK = "block"


@dataclass(frozen=True)
class LosRules:
    """A ruleset's line-of-sight policy (see the module docstring)."""

    mode: LosMode = LosMode.CENTRE_TO_CENTRE
    own_features: OwnFeatures = OwnFeatures.SEE_IN_AND_OUT
    models_block: bool = False


#: Centre to centre; models see out of / into the feature they stand in; models
#: do not block.
DEFAULT_LOS = LosRules()


@dataclass(frozen=True)
class Sight:
    """The answer: ``clear``, a clear ``line`` if one was found, and what blocks.

    ``blockers`` names what crosses the centre-to-centre line (feature ids, then
    model ids or ``"model"``), for the narrated log; with ``ANY_EDGE`` the sight
    may be clear even though the centre line has blockers.
    """

    clear: bool
    line: tuple[Point, Point] | None
    blockers: tuple[str, ...]

    def __bool__(self) -> bool:
        return self.clear


def line_of_sight(
    table: Table,
    a: Base,
    b: Base,
    *,
    rules: LosRules = DEFAULT_LOS,
    models: Iterable[Base] = (),
    ignore: Collection[str] = (),
) -> bool:
    """Whether ``a`` can see ``b`` (symmetric) under ``rules``; see :func:`sight`."""
    return sight(table, a, b, rules=rules, models=models, ignore=ignore).clear


def sight(
    table: Table,
    a: Base,
    b: Base,
    *,
    rules: LosRules = DEFAULT_LOS,
    models: Iterable[Base] = (),
    ignore: Collection[str] = (),
) -> Sight:
    """Line of sight from ``a`` to ``b`` with the line found and the blockers.

    ``models`` are the other models on the table (ignored unless
    ``rules.models_block``; ``a`` and ``b`` themselves are skipped). ``ignore``
    holds ids of features to disregard (e.g. low walls a ruleset lets elevated
    models see over).
    """
    table.check_base(a)
    table.check_base(b)
    feats = _blocking_features(table, a, b, rules.own_features, ignore)
    others = []
    if rules.models_block:
        others = [table.check_base(m) for m in models if m != a and m != b]
    centre = (a.centre, b.centre)
    blockers = _centre_blockers(feats, others, centre)
    if not blockers:
        return Sight(True, centre, ())
    if rules.mode is LosMode.CENTRE_TO_CENTRE:
        return Sight(False, None, blockers)
    line = _any_clear_line(feats, others, a, b)
    return Sight(line is not None, line, blockers)


def _blocking_features(
    table: Table, a: Base, b: Base, own: OwnFeatures, ignore: Collection[str]
) -> list[TerrainFeature]:
    reach = max(a.radius, b.radius) + CORE_EPS
    (ax, ay), (bx, by) = a.centre, b.centre
    area = box(min(ax, bx) - reach, min(ay, by) - reach, max(ax, bx) + reach, max(ay, by) + reach)
    feats = [f for f in table.candidates(area) if f.blocks_los and f.id not in ignore]
    if own is OwnFeatures.SEE_IN_AND_OUT:
        feats = [f for f in feats if not (table.stands_in(a, f) or table.stands_in(b, f))]
    return feats


def _centre_blockers(
    feats: Sequence[TerrainFeature], others: Sequence[Base], line: tuple[Point, Point]
) -> tuple[str, ...]:
    p, q = line
    if p == q:
        return ()
    seg = LineString(line)
    names = [f.id for f in feats if f.core.intersects(seg)]
    names += [m.id or "model" for m in others if _cuts(m.centre, m.radius, p, q)]
    return tuple(names)


def _cuts(centre: Point, radius: float, p: Point, q: Point) -> bool:
    """Whether segment p–q passes through the inside of a disc (touching is clear)."""
    return point_segment_distance(centre, p, q) < radius - CORE_EPS


# --- any-edge sight: exact search over critical lines --------------------------------

_Disc = tuple[Point, float]
_Line = tuple[Point, Point]  # a point on the line and a unit direction


def _any_clear_line(
    feats: Sequence[TerrainFeature], others: Sequence[Base], a: Base, b: Base
) -> tuple[Point, Point] | None:
    da: _Disc = (a.centre, a.radius)
    db: _Disc = (b.centre, b.radius)
    gap = math.dist(a.centre, b.centre) - a.radius - b.radius
    if gap <= 0:  # the bases touch: the touching point is the line
        t = a.radius / (a.radius + b.radius)
        p = (a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
        return (p, p)
    # every line from base to base lies in the convex hull of the two bases
    hull = shapely.convex_hull(shapely.union(a.disc(32), b.disc(32))).buffer(
        0.01 * max(a.radius, b.radius) + 1e-6
    )
    near = [f for f in feats if f.shape.intersects(hull)]
    shapes = [f.shape for f in near]
    cores = [f.core for f in near]
    discs = [
        (m.centre, m.radius) for m in others if hull.distance(shapely.Point(m.centre)) < m.radius
    ]
    obstacle = shapely.union_all(cores) if cores else None
    if obstacle is not None:
        shapely.prepare(obstacle)
    points = _critical_points(shapes, discs, (da, db), hull)
    for batch in _batches(_candidate_lines(points, discs, da, db), 256):
        segments = [s for s in (_min_segment(line, da, db) for line in batch) if s is not None]
        if not segments:
            continue
        clear = np.ones(len(segments), dtype=bool)
        if obstacle is not None:
            # the prepared obstacle goes first, so GEOS uses its index
            clear &= ~shapely.intersects(obstacle, shapely.linestrings(np.array(segments)))
        for i, (p, q) in enumerate(segments):
            if clear[i] and not any(_cuts(c, r, p, q) for c, r in discs):
                return (p, q)
    return None


def _batches(items: Iterable[_Line], size: int) -> Iterator[list[_Line]]:
    it = iter(items)
    while batch := list(itertools.islice(it, size)):
        yield batch


def _rings(shape: Any) -> list[list[Point]]:
    if shape.geom_type == "Polygon":
        return [list(shape.exterior.coords)] + [list(r.coords) for r in shape.interiors]
    return [list(shape.coords)]


def _critical_points(
    shapes: Sequence[Any], discs: Sequence[_Disc], ends: Sequence[_Disc], hull: Any
) -> list[Point]:
    """Obstacle corners in the hull, and where obstacle edges or bases cross an end base rim."""
    pts: list[Point] = []
    for shape in shapes:
        for ring in _rings(shape):
            pts += [p for p in ring if hull.covers(shapely.Point(p))]
            for p, q in itertools.pairwise(ring):
                for c, r in ends:
                    pts += _circle_segment(c, r, p, q)
    for c, r in discs:
        for ce, re in ends:
            pts += _circle_circle(c, r, ce, re)
    return list(dict.fromkeys((float(x), float(y)) for x, y in pts))


def _circle_segment(c: Point, r: float, p: Point, q: Point) -> list[Point]:
    dx, dy = q[0] - p[0], q[1] - p[1]
    fx, fy = p[0] - c[0], p[1] - c[1]
    a = dx * dx + dy * dy
    if a == 0:
        return []
    bb = fx * dx + fy * dy
    disc = bb * bb - a * (fx * fx + fy * fy - r * r)
    if disc < 0:
        return []
    s = math.sqrt(disc)
    return [(p[0] + t * dx, p[1] + t * dy) for t in ((-bb - s) / a, (-bb + s) / a) if 0 <= t <= 1]


def _circle_circle(c1: Point, r1: float, c2: Point, r2: float) -> list[Point]:
    d = math.dist(c1, c2)
    if d == 0 or d > r1 + r2 or d < abs(r1 - r2):
        return []
    along = (d * d + r1 * r1 - r2 * r2) / (2 * d)
    h = math.sqrt(max(0.0, r1 * r1 - along * along))
    ux, uy = (c2[0] - c1[0]) / d, (c2[1] - c1[1]) / d
    mx, my = c1[0] + along * ux, c1[1] + along * uy
    return [(mx - h * uy, my + h * ux), (mx + h * uy, my - h * ux)]


def _tangents(c1: Point, r1: float, c2: Point, r2: float) -> list[_Line]:
    """Lines tangent to both circles (a point is a circle of radius 0)."""
    vx, vy = c2[0] - c1[0], c2[1] - c1[1]
    d2 = vx * vx + vy * vy
    if d2 == 0:
        return []
    lines: list[_Line] = []
    for s2 in (1.0, -1.0) if r2 > 0 else (1.0,):
        dr = s2 * r2 - r1
        h2 = d2 - dr * dr
        if h2 < -1e-12:
            continue
        h = math.sqrt(max(0.0, h2))
        for sign in (1.0, -1.0) if h > 0 else (1.0,):
            nx = (dr * vx - sign * h * vy) / d2
            ny = (dr * vy + sign * h * vx) / d2
            k = r1 - (nx * c1[0] + ny * c1[1])
            lines.append(((-k * nx, -k * ny), (-ny, nx)))
    return lines


def _through(p: Point, q: Point) -> list[_Line]:
    d = math.dist(p, q)
    if d == 0:
        return []
    return [(p, ((q[0] - p[0]) / d, (q[1] - p[1]) / d))]


def _candidate_lines(
    points: Sequence[Point], discs: Sequence[_Disc], da: _Disc, db: _Disc
) -> Iterator[_Line]:
    """Every line through two critical items, cheapest and likeliest first."""
    yield from _tangents(da[0], da[1], db[0], db[1])
    for p in points:
        for c, r in (da, db):
            if math.dist(p, c) >= r:
                yield from _tangents(p, 0.0, c, r)
    for p, q in itertools.combinations(points, 2):
        yield from _through(p, q)
    for c, r in discs:
        for p in points:
            if math.dist(p, c) >= r:
                yield from _tangents(p, 0.0, c, r)
        for c2, r2 in (da, db, *discs):
            if (c2, r2) != (c, r):
                yield from _tangents(c, r, c2, r2)


def _chord(line: _Line, disc: _Disc) -> tuple[float, float] | None:
    (ox, oy), (ux, uy) = line
    (cx, cy), r = disc
    wx, wy = ox - cx, oy - cy
    bb = ux * wx + uy * wy
    disc_ = bb * bb - (wx * wx + wy * wy - r * r)
    if disc_ < -1e-9 * max(1.0, r * r):
        return None
    s = math.sqrt(max(0.0, disc_))
    return (-bb - s, -bb + s)


def _min_segment(line: _Line, da: _Disc, db: _Disc) -> tuple[Point, Point] | None:
    """The shortest piece of ``line`` from base ``da`` to base ``db`` (None if it misses)."""
    ca, cb = _chord(line, da), _chord(line, db)
    if ca is None or cb is None:
        return None
    if ca[1] <= cb[0]:
        t0, t1 = ca[1], cb[0]
    elif cb[1] <= ca[0]:
        t0, t1 = ca[0], cb[1]
    else:
        return None  # chords overlap: only when the bases overlap, handled earlier
    (ox, oy), (ux, uy) = line
    return ((ox + t0 * ux, oy + t0 * uy), (ox + t1 * ux, oy + t1 * uy))
