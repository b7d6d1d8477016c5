"""The one measuring tape every battle uses: the table's answers, each computed once.

A battle asks the table the same few questions again and again — can a model at
*p* see one at *q*, what cover does *q* have against *p*, which way round the
barn, what terrain does the move cross — while only one unit moves at a time, and
every bot weighs every destination against every enemy. Each answer depends on
the terrain and the bases' geometry alone, so a :class:`Tape` keeps it for the
table (one tape per table, shared by every game of a scenario; each memo is
emptied past :data:`LIMIT` answers, so memory stays bounded).

The answers are exactly :mod:`kubik.table`'s under its default rules (tests check
the tape against the table functions on many random lines and points); only the
cost changes: shapes are prepared once and features are pre-filtered by their
bounding boxes.

>>> from shapely.geometry import box
>>> from kubik.table import Table, TerrainFeature, Cover
>>> wall = TerrainFeature("wall", box(4, 0, 6, 10), cover=Cover.HARD, blocks_los=True)
>>> tape = Tape.of(Table(12, 12, (wall,)))
>>> tape.sees(Base(1, 5, 1), Base(10, 5, 1)), tape.sees(Base(1, 11, 1), Base(10, 11, 1))
(False, True)
>>> tape.cover(Base(1, 11, 1), Base(5, 5, 1))
<Cover.HARD: 'hard'>
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
import shapely

from kubik.core.keeping import Kept
from kubik.table.cover import NEAR_TARGET, near_target_ends
from kubik.table.errors import TableError
from kubik.table.geometry import CORE_EPS, Base, Point
from kubik.table.movement import (
    Leg,
    Move,
    kind_at,
    legs,
    max_move_along,
    obstacles_crossed,
)
from kubik.table.pathfinding import shortest_path
from kubik.table.table import Table
from kubik.table.terrain import Cover, TerrainFeature, TerrainKind, worst_kind

T = TypeVar("T")
#: shapely's compiled predicates, called without its Python wrappers (every sight line
#: asks them).
_lib: Any = shapely.lib
#: shapely's "allow" for NaN coordinates, what ``LineString(points)`` passes its maker.
_ALLOW_NAN = np.intc(0)
#: Most answers kept per kind of measurement and table (an engine limit, not a rule).
LIMIT = 50_000
#: Inches added to every pre-filter rectangle, so rounding never drops a feature.
_MARGIN = 0.05
#: What :meth:`Tape.closest` measures every pair of centres with, in C.
_dist = math.dist
_product = itertools.product
_starmap = itertools.starmap
_radius = operator.attrgetter("radius")
_centre = operator.attrgetter("centre")


@dataclass(frozen=True, slots=True)
class Way:
    """A way a base can travel: its points and the movement it costs (difficult terrain
    counts extra, as :func:`kubik.table.path_cost` measures it)."""

    points: tuple[Point, ...]
    cost: float

    @property
    def end(self) -> Point:
        """Where it ends."""
        return self.points[-1]

    @property
    def length(self) -> float:
        """Its length in inches."""
        return sum(math.dist(p, q) for p, q in zip(self.points, self.points[1:], strict=False))


def along(path: Sequence[Point], length: float) -> tuple[Point, ...]:
    """The first ``length`` inches of ``path`` (the whole path if it is shorter).

    >>> along([(0.0, 0.0), (10.0, 0.0)], 2.5)
    ((0.0, 0.0), (2.5, 0.0))
    """
    points = tuple((float(x), float(y)) for x, y in path)
    if len(points) < 2 or length <= 0:
        return (points[0], points[0])
    line = _lib.linestrings(points, _ALLOW_NAN)  # as ``LineString(points)`` makes it
    if length >= float(_lib.length(line)):
        return points
    # ``shapely.ops.substring(line, 0, length)``, its steps without its wrappers: the
    # points where it starts and ends, and the vertices strictly between
    start = _lib.line_interpolate_point_scalar(line, 0.0)
    end = _lib.line_interpolate_point_scalar(line, float(length))
    cut = [(float(_lib.get_x(start)), float(_lib.get_y(start)))]
    walked: float = 0
    for p, q in itertools.pairwise(points):
        if 0 < walked < length:
            cut.append(p)
        elif walked >= length:
            break
        walked += ((q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2) ** 0.5
    cut.append((float(_lib.get_x(end)), float(_lib.get_y(end))))
    return tuple(cut)


#: What :meth:`Tape._memo` answers when it has no answer yet (an answer may be None).
_MISSING: Any = object()

#: The prefix of the memo names of :meth:`Tape.kept` (apart from the tape's own).
_KEPT = "kept:"


class Tape:
    """One table's memoised measurements; get it with :meth:`Tape.of`."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._memos: dict[str, Kept[Any, Any]] = {}
        #: prepared copies of the features' shapes and cores, by feature id
        self._shapes: dict[str, Any] = {}
        self._cores: dict[str, Any] = {}
        #: the memos of :meth:`kept`, by the caller's name
        self._own: dict[str, Kept[Any, Any]] = {}
        # the memos asked most (every sight line, every step of a move), read directly
        self._sight = self._memos["sees"] = Kept(LIMIT)
        self._kinds = self._memos["kind_at"] = Kept(LIMIT)
        self._worst = self._memos["worst"] = Kept(LIMIT)
        self._standing = self._memos["standing"] = Kept(LIMIT)
        self._stands = self._memos["stands_in"] = Kept(LIMIT)
        self._cover = self._memos["best_cover"] = Kept(LIMIT)
        self._cover_sources = self._memos["cover"] = Kept(LIMIT)
        self._cover_nearby = self._memos["cover_near"] = Kept(LIMIT)
        self._legs = self._memos["legs"] = Kept(LIMIT)

    @classmethod
    def of(cls, table: Table) -> Tape:
        """The tape of ``table`` (made once per table and kept with it)."""
        return table.cached(("kubik.table.tape",), lambda: cls(table))

    # -- memo plumbing ----------------------------------------------------------

    def _memo(self, name: str, key: object, build: Callable[[], T]) -> T:
        memo = self._memos.get(name)
        if memo is None:
            memo = self._memos[name] = Kept(LIMIT)
        found: T = memo.get(key, _MISSING)  # one lookup (a key's hash is not kept)
        if found is not _MISSING:
            return found
        kept: T = memo.keep(key, build())
        return kept

    def kept(self, name: str, key: Hashable, build: Callable[[], T]) -> T:
        """A measurement of a caller's own that depends on this table and ``key`` alone
        (a ruleset's way for a unit of some width to a goal, the nearest cover from a
        point), made once and kept like the tape's own answers; ``name`` keeps each kind
        apart."""
        memo = self._own.get(name)
        if memo is None:
            memo = self._own[name] = self._memos[_KEPT + name] = Kept(LIMIT)
        found: T = memo.get(key, _MISSING)  # one lookup (a key's hash is not kept)
        if found is _MISSING:
            found = memo.keep(key, build())
        return found

    def _prepared(self, feature: TerrainFeature, core: bool) -> Any:
        """A prepared copy of the feature's shape or core (the table's stay untouched)."""
        shapes = self._cores if core else self._shapes
        found = shapes.get(feature.id)
        if found is None:
            found = shapely.from_wkb(shapely.to_wkb(feature.core if core else feature.shape))
            shapely.prepare(found)
            shapes[feature.id] = found
        return found

    def _near(self, a: Point, b: Point, reach: float) -> tuple[TerrainFeature, ...]:
        """The features whose boxes come within ``reach`` of the box of ``a`` and ``b``
        (its corners ordered by comparisons: every sight line asks this)."""
        x0, x1 = (a[0], b[0]) if a[0] <= b[0] else (b[0], a[0])
        y0, y1 = (a[1], b[1]) if a[1] <= b[1] else (b[1], a[1])
        return self.table.candidates_in(x0 - reach, y0 - reach, x1 + reach, y1 + reach)

    def stands_in(self, point: Point, feature: TerrainFeature) -> bool:
        """:meth:`kubik.table.Table.stands_in` for a model whose centre is ``point``."""
        key = (point, feature.id)
        found: bool | None = self._stands.get(key)
        if found is None:  # (a point meets a shape exactly where the shape covers it)
            found = self._stands.keep(
                key,
                feature.is_area
                and bool(_lib.intersects_xy(self._prepared(feature, False), point[0], point[1])),
            )
        return found

    # -- sight and cover --------------------------------------------------------

    def sees(self, a: Base | Point, b: Base | Point) -> bool:
        """Whether models at ``a`` and ``b`` see each other: :func:`kubik.table.line_of_sight`
        under its default rules (centre to centre, models see in and out of the feature
        they stand in, models do not block), which depend on the centres alone."""
        p = a.centre if isinstance(a, Base) else (float(a[0]), float(a[1]))
        q = b.centre if isinstance(b, Base) else (float(b[0]), float(b[1]))
        key = (p, q) if p <= q else (q, p)
        found: bool = self._sight.get(key, _MISSING)
        if found is _MISSING:
            found = self._sight.keep(key, self._sees(*key))
        return found

    def _sees(self, p: Point, q: Point) -> bool:
        if p == q:
            return True
        line = None
        for feature in self._near(p, q, CORE_EPS + _MARGIN):
            if not feature.blocks_los or self.stands_in(p, feature) or self.stands_in(q, feature):
                continue
            if line is None:
                line = _lib.linestrings((p, q), _ALLOW_NAN)
            if _lib.intersects(self._prepared(feature, True), line):
                return False
        return True

    def sees_any(self, viewer: Base | Point, targets: Sequence[Base | Point]) -> bool:
        """Whether ``viewer`` sees at least one of ``targets``."""
        return any(self.sees(viewer, t) for t in targets)

    def cover(self, shooter: Base, target: Base, near: float = NEAR_TARGET) -> Cover:
        """The best cover ``target`` has against ``shooter``: :func:`kubik.table.cover_between`."""
        key = (shooter.centre, target.centre, target.radius, near)
        found: Cover | None = self._cover.get(key)
        if found is None:
            ids = self.cover_ids(shooter, target, near)
            best = Cover.best(self.table.feature(f).cover for f in ids)
            found = self._cover.keep(key, best)
        return found

    def cover_ids(self, shooter: Base, target: Base, near: float = NEAR_TARGET) -> tuple[str, ...]:
        """Ids of the features giving ``target`` cover against ``shooter`` (in table order):
        :func:`kubik.table.cover_sources`, which depends on the centres and the target's
        radius."""
        key = (shooter.centre, target.centre, target.radius, near)
        found: tuple[str, ...] | None = self._cover_sources.get(key)
        if found is None:
            found = self._cover_sources.keep(key, self._cover_ids(shooter, target, near))
        return found

    def _cover_near(self, point: Point, reach: float) -> bool:
        """Whether any feature giving cover comes within ``reach`` of ``point`` (by its
        bounding box): where none does, no shooter's line of fire finds cover there."""
        key = (point, reach)
        found: bool | None = self._cover_nearby.get(key)
        if found is None:
            x, y = point
            found = False
            for feature in self.table.candidates_in(
                x - reach - _MARGIN, y - reach - _MARGIN, x + reach + _MARGIN, y + reach + _MARGIN
            ):
                if feature.cover is not Cover.NONE:
                    found = True
                    break
            self._cover_nearby.keep(key, found)
        return found

    def _cover_ids(self, shooter: Base, target: Base, near: float) -> tuple[str, ...]:
        self.table.check_base(shooter)
        self.table.check_base(target)
        if not self._cover_near(target.centre, target.radius + near):
            return ()  # the last stretch of the line and the target meet no cover
        ends = near_target_ends(shooter.centre, target.centre, target.radius + near)
        # the features whose boxes meet the line's last stretch (or the target's centre):
        # the stretch's box is its ends', and its shape is made only to test one of them
        candidates = self._near(*(ends or (target.centre, target.centre)), 0.0)
        part = None
        found: list[str] = []
        for feature in candidates:
            if feature.cover is Cover.NONE:
                continue
            if self.stands_in(target.centre, feature):
                found.append(feature.id)
            elif ends is not None and not self.stands_in(shooter.centre, feature):
                if part is None:
                    part = _lib.linestrings(ends, _ALLOW_NAN)  # as ``near_target`` makes it
                if _lib.intersects(self._prepared(feature, True), part):
                    found.append(feature.id)
        return tuple(found)

    def standing(self, point: Point) -> Cover:
        """The best cover of the area features a model standing at ``point`` is in."""
        found: Cover = self._standing.get(point, _MISSING)
        if found is _MISSING:
            best = Cover.best(f.cover for f in self.table.features_at(point))
            found = self._standing.keep(point, best)
        return found

    def elevation(self, point: Point) -> float:
        """:meth:`kubik.table.Table.elevation_at`: the height of the ground at ``point``."""
        return self._memo("elevation", point, lambda: self.table.elevation_at(point))

    def in_water(self, point: Point) -> bool:
        """Whether a model standing at ``point`` is in water."""
        return self._memo(
            "water", point, lambda: any(f.water for f in self.table.features_at(point))
        )

    # -- terrain and movement -----------------------------------------------------

    def kind_at(
        self, point: Point, mover: str | None = None, clearance: float = 0.0
    ) -> TerrainKind:
        """:func:`kubik.table.kind_at`: the terrain kind for ``mover`` under a base of
        radius ``clearance`` at ``point``."""
        key = (point, mover, clearance)
        found: TerrainKind = self._kinds.get(key, _MISSING)
        if found is _MISSING:
            found = self._kinds.keep(key, kind_at(self.table, point, mover, clearance=clearance))
        return found

    def worst_kind(
        self, path: Sequence[Point], mover: str | None = None, clearance: float = 0.0
    ) -> TerrainKind:
        """:func:`kubik.table.worst_kind_along` (a single point: the kind there)."""
        points = tuple(path)
        if len(points) < 2 or points[0] == points[-1]:
            return self.kind_at(points[0], mover, clearance)
        key = (points, mover, clearance)
        found: TerrainKind = self._worst.get(key, _MISSING)
        if found is _MISSING:
            worst = worst_kind(leg.kind for leg in self.legs(points, mover, clearance))
            found = self._worst.keep(key, worst)
        return found

    def cost(
        self, path: Sequence[Point], mover: str | None = None, clearance: float = 0.0
    ) -> float:
        """:func:`kubik.table.path_cost` (infinite when the path meets impassable terrain)."""
        points = tuple(path)
        return self._memo(
            "cost",
            (points, mover, clearance),
            lambda: sum((leg.cost for leg in self.legs(points, mover, clearance)), 0.0),
        )

    def way(
        self,
        start: Point,
        end: Point,
        mover: str | None = None,
        clearance: float = 0.0,
        *,
        detour_step: float = 0.0,
    ) -> Way | None:
        """How a base gets from ``start`` to ``end``: the straight line when the terrain
        lets it through, else the cheapest way round (:func:`kubik.table.shortest_path`,
        ``detour_step`` its edge sampling); ``None`` when there is none or an end is off
        the table for the base."""
        key = (start, end, mover, clearance, detour_step)
        return self._memo("way", key, lambda: self._way(start, end, mover, clearance, detour_step))

    def _way(
        self, start: Point, end: Point, mover: str | None, clearance: float, step: float
    ) -> Way | None:
        try:  # :func:`kubik.table.path_cost`, its legs kept for the moves cut from this way
            cost = sum((leg.cost for leg in self.legs((start, end), mover, clearance)), 0.0)
        except TableError:
            return None
        if math.isfinite(cost):
            return Way((start, end), cost)
        try:
            found = shortest_path(
                self.table, start, end, mover, clearance=clearance, edge_step=step
            )
        except TableError:
            return None
        return None if found is None else Way(found.points, found.cost)

    def legs(
        self, path: Sequence[Point], mover: str | None = None, clearance: float = 0.0
    ) -> tuple[Leg, ...]:
        """:func:`kubik.table.legs`: the path cut into straight legs of one terrain kind
        each, in order (where a move first enters harder ground)."""
        points = tuple(path)
        key = (points, mover, clearance)
        found: tuple[Leg, ...] | None = self._legs.get(key)
        if found is None:
            found = self._legs.keep(key, legs(self.table, list(points), mover, clearance=clearance))
        return found

    def reach(
        self,
        path: Sequence[Point],
        allowance: float,
        mover: str | None = None,
        clearance: float = 0.0,
    ) -> Move:
        """:func:`kubik.table.max_move_along`: how far along ``path`` a base gets with
        ``allowance`` inches of movement (difficult terrain counting extra)."""
        points = tuple((float(x), float(y)) for x, y in path)
        return self._memo(
            "reach",
            (points, allowance, mover, clearance),
            lambda: max_move_along(self.table, points, allowance, mover, clearance=clearance),
        )

    def around(
        self,
        feature_id: str,
        clearance: float,
        gap: float,
        mover: str | None = None,
        step: float = 2.0,
    ) -> tuple[Point, ...]:
        """Where a base of radius ``clearance`` stands just outside a feature: a point
        every ``step`` inches round it, ``gap`` inches off its edge (rounded to 0.1"), on
        the table and clear of terrain impassable to ``mover`` — places to take cover
        behind a wall or reach a building's door."""
        key = (feature_id, clearance, gap, mover, step)
        return self._memo("around", key, lambda: self._around(*key))

    def _around(
        self, feature_id: str, clearance: float, gap: float, mover: str | None, step: float
    ) -> tuple[Point, ...]:
        ring = self.table.feature(feature_id).shape.buffer(clearance + gap).exterior
        count = max(4, int(ring.length // step))
        found: list[Point] = []
        for i in range(count):
            p = ring.interpolate(i * ring.length / count)
            spot = (round(float(p.x), 1), round(float(p.y), 1))
            try:
                self.table.check_base(Base(spot[0], spot[1], 2 * clearance))
            except TableError:
                continue
            if self.kind_at(spot, mover, clearance) is not TerrainKind.IMPASSABLE:
                found.append(spot)
        return tuple(dict.fromkeys(found))

    def crossed(self, path: Sequence[Point]) -> tuple[str, ...]:
        """Ids of the obstacles (fences, walls) a path crosses, in table order."""
        points = tuple(path)
        return self._memo(
            "crossed",
            points,
            lambda: tuple(f.id for f in obstacles_crossed(self.table, list(points))),
        )

    # -- distances ----------------------------------------------------------------

    @staticmethod
    def closest(a: Sequence[Base], b: Sequence[Base]) -> float:
        """Edge distance between the closest bases of two groups (inches, unrounded).

        A gap is ``dist - radius - other radius``, and rounding is monotonic: among bases
        of one size the nearest centres give the least gap, to the last bit. So where each
        group's bases are of one size (a squad, almost always) the nearest centres are
        found in one C loop and their gap is the answer, exactly as pair by pair."""
        if not (a and b):
            raise ValueError("min() arg is an empty sequence")
        if len(a) == 1 and len(b) == 1:  # two models (the same sum as below)
            one, two = a[0], b[0]
            gap = _dist(one.centre, two.centre) - one.radius - two.radius
            return gap if gap > 0.0 else 0.0
        first, other = a[0].radius, b[0].radius
        radii = list(map(_radius, a))
        other_radii = list(map(_radius, b))
        if radii.count(first) == len(radii) and other_radii.count(other) == len(other_radii):
            near = min(_starmap(_dist, _product(map(_centre, a), map(_centre, b))))
            gap = near - first - other
            return gap if gap > 0.0 else 0.0
        dist = math.dist
        others = [(y.centre, y.radius) for y in b]
        if len(a) == 1:  # one model against a group (the same sums as below)
            centre, radius = a[0].centre, a[0].radius
            best = min(
                dist(centre, where) - radius - other_radius for where, other_radius in others
            )
            return max(0.0, best)
        best = math.inf  # centres are finite, so every gap is below it
        for x in a:
            centre, radius = x.centre, x.radius
            for where, other_radius in others:
                gap = dist(centre, where) - radius - other_radius
                if gap < best:
                    best = gap
        return max(0.0, best)


__all__ = ["LIMIT", "Tape", "Way", "along"]
