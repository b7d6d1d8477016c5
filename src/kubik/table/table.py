"""The battlefield: a rectangle of ``width`` × ``height`` inches and its terrain.

The origin is the corner ``(0, 0)``; x runs along the width, y along the height.
:class:`Table` answers the questions that need only positions: which features a
point or a base is in, how high the ground is, whether a model is on the table.
Line of sight, cover, templates and movement live in their own modules and take
a table as their first argument.

>>> from kubik.table.terrain import TerrainFeature
>>> hill = TerrainFeature.from_points("hill", [(10, 10), (20, 10), (20, 20), (10, 20)],
...                                   elevation=2.0)
>>> table = Table(48, 48, (hill,))
>>> table.elevation_at((15, 15)), table.elevation_at((5, 5))
(2.0, 0.0)
>>> table.height_difference(Base(15, 15, 1), Base(5, 5, 1))
2.0
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar, cast

import shapely
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import box

from kubik.table.errors import TableError
from kubik.table.geometry import EPS, Base, Placement, Point, as_point, placement
from kubik.table.terrain import TerrainFeature
from kubik.table.units import INCHES, Units

#: shapely's compiled predicates, asked without its Python wrappers (the features' shapes
#: are prepared when they are made).
_lib: Any = shapely.lib
#: What :meth:`Table.cached` finds for a key it has nothing under yet.
_MISSING: Any = object()

T = TypeVar("T")


def _fmt(x: float) -> str:
    return f"{x:g}"


@dataclass(frozen=True)
class Table:
    """A ``width`` × ``height`` inch table with terrain features (ids unique).

    ``units`` is the unit the ruleset speaks (inches, or Apocalypse paces); the
    geometry itself is always in inches.
    """

    width: float
    height: float
    features: tuple[TerrainFeature, ...] = ()
    units: Units = INCHES
    _cache: dict[tuple[object, ...], object] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        for name in ("width", "height"):
            value = getattr(self, name)
            try:
                size = float(value)
            except (TypeError, ValueError):
                size = math.nan
            if not (math.isfinite(size) and size > 0):
                raise TableError(name, f"must be a positive number of inches, got {value}", "table")
            object.__setattr__(self, name, size)
        object.__setattr__(self, "features", tuple(self.features))
        seen: set[str] = set()
        area = self.area
        for feature in self.features:
            if not isinstance(feature, TerrainFeature):
                raise TableError("features", f"must hold TerrainFeatures, got {feature!r}", "table")
            if feature.id in seen:
                raise TableError("id", f"duplicate terrain id {feature.id!r}", feature.label)
            seen.add(feature.id)
            if not area.buffer(EPS).covers(feature.shape):
                outside = next(
                    (p for p in feature.shape.exterior.coords if not self.on_table(p))
                    if feature.is_area
                    else (p for p in feature.shape.coords if not self.on_table(p)),
                    None,
                )
                where = f"({_fmt(outside[0])}, {_fmt(outside[1])})" if outside else "it"
                raise TableError(
                    "points", f"{where} is off the {self.size_text} table", feature.label
                )

    @property
    def size_text(self) -> str:
        """``48 x 48`` (for messages)."""
        return f"{_fmt(self.width)} x {_fmt(self.height)}"

    @cached_property
    def area(self) -> Any:
        """The table's rectangle as a shapely polygon."""
        return box(0.0, 0.0, self.width, self.height)

    @cached_property
    def _bounds(self) -> tuple[tuple[int, float, float, float, float], ...]:
        """(index, min x, min y, max x, max y) of every feature with a shape: tables have
        tens of features, so comparing boxes in Python beats asking a search tree."""
        found = []
        for i, f in enumerate(self.features):
            if not f.shape.is_empty:
                x0, y0, x1, y1 = (float(v) for v in f.shape.bounds)
                found.append((i, x0, y0, x1, y1))
        return tuple(found)

    @cached_property
    def _boxed(self) -> tuple[tuple[TerrainFeature, float, float, float, float], ...]:
        """:attr:`_bounds` with each feature itself in place of its index."""
        features = self.features
        return tuple((features[i], x0, y0, x1, y1) for i, x0, y0, x1, y1 in self._bounds)

    def cached(self, key: tuple[object, ...], build: Callable[[], T]) -> T:
        """Memoise derived geometry (per mover type, per radius) on this immutable table."""
        cache = self._cache
        found = cache.get(key, _MISSING)  # one lookup: regions are asked at every move
        if found is _MISSING:
            found = cache[key] = build()
        return cast(T, found)

    def cached_now(self, key: tuple[object, ...]) -> Any:
        """What :meth:`cached` keeps under ``key``, or ``None`` (nothing yet): one lookup,
        no builder made, for geometry asked at every move."""
        return self._cache.get(key)

    def feature(self, feature_id: str) -> TerrainFeature:
        """The feature with this id."""
        for f in self.features:
            if f.id == feature_id:
                return f
        raise TableError("id", f"no terrain feature {feature_id!r}", "terrain")

    def on_table(self, point: Sequence[float]) -> bool:
        """Whether a point is on the table (edges included)."""
        x, y = point[0], point[1]
        return -EPS <= x <= self.width + EPS and -EPS <= y <= self.height + EPS

    def check_point(self, point: Sequence[float], field: str = "point", owner: str = "") -> Point:
        """The point, or a :class:`TableError` if it is not two finite numbers on the table."""
        p = as_point(point, field, owner)
        if not self.on_table(p):
            raise TableError(
                field, f"({_fmt(p[0])}, {_fmt(p[1])}) is off the {self.size_text} table", owner
            )
        return p

    def check_base(self, base: Base) -> Base:
        """The base, or a :class:`TableError` if any part of it is off the table."""
        r = base.radius
        if not (
            r - EPS <= base.x <= self.width - r + EPS and r - EPS <= base.y <= self.height - r + EPS
        ):
            raise TableError(
                "position",
                f"({_fmt(base.x)}, {_fmt(base.y)}) puts the {_fmt(base.diameter)}-inch base "
                f"off the {self.size_text} table",
                base.label,
            )
        return base

    def candidates(self, geom: Any) -> tuple[TerrainFeature, ...]:
        """Features whose bounding boxes meet ``geom``'s (a fast pre-filter), in table order."""
        if geom.is_empty:
            return ()
        return self.candidates_in(*(float(v) for v in geom.bounds))

    def candidates_in(
        self, min_x: float, min_y: float, max_x: float, max_y: float
    ) -> tuple[TerrainFeature, ...]:
        """Features whose bounding boxes meet the rectangle (edges touching count), in
        table order: :meth:`candidates` without making a shape."""
        found: tuple[TerrainFeature, ...] = ()
        for feature, x0, y0, x1, y1 in self._boxed:  # (a plain loop: no frame per call)
            if x0 <= max_x and x1 >= min_x and y0 <= max_y and y1 >= min_y:
                found += (feature,)
        return found

    def features_at(self, point: Sequence[float]) -> tuple[TerrainFeature, ...]:
        """Area features covering the point (edges included), in table order."""
        x, y = float(point[0]), float(point[1])
        found: tuple[TerrainFeature, ...] = ()
        for f in self.candidates_in(x, y, x, y):  # (the shapes are prepared when made)
            if f.is_area and _lib.intersects_xy(f.shape, x, y):
                found += (f,)
        return found

    def features_under(self, base: Base) -> tuple[tuple[TerrainFeature, Placement], ...]:
        """Every feature the base overlaps, with how (INSIDE or PARTLY)."""
        found = []
        for f in self.candidates(ShapelyPoint(base.centre).buffer(base.radius)):
            where = placement(base, f)
            if where is not Placement.OUTSIDE:
                found.append((f, where))
        return tuple(found)

    def stands_in(self, base: Base, feature: TerrainFeature) -> bool:
        """Whether a model stands in an area feature: its base's **centre** is in it.

        The one definition used for "in cover", "in water" and seeing out of a
        feature; rulesets wanting "any part" or "whole base" use :func:`placement`.
        """
        # for a point, "covers" (inside or on the edge) is "intersects": the fast xy form
        x, y = base.centre
        return feature.is_area and bool(_lib.intersects_xy(feature.shape, x, y))

    def standing_in(self, base: Base) -> tuple[TerrainFeature, ...]:
        """The area features a model stands in (see :meth:`stands_in`)."""
        return self.features_at(base.centre)

    def in_water(self, base: Base) -> bool:
        """Whether the model stands in a water feature (no going to ground, SW-FIRE-07)."""
        return any(f.water for f in self.standing_in(base))

    def elevation_at(self, point: Sequence[float]) -> float:
        """Ground height: the highest area feature covering the point, 0 where none does.

        A point only in a trench (negative elevation) is below 0.
        """
        heights = [f.elevation for f in self.features_at(point)]
        return max(heights) if heights else 0.0

    def height_difference(self, a: Base, b: Base) -> float:
        """How much higher ``a`` stands than ``b`` (negative if lower), in inches."""
        return self.elevation_at(a.centre) - self.elevation_at(b.centre)

    def with_features(self, features: Iterable[TerrainFeature]) -> Table:
        """A copy of this table with other terrain."""
        return Table(self.width, self.height, tuple(features), self.units)
