"""Memoised table measurements: the same question about the same points is asked once.

A battle asks the table the same few questions again and again — can a model at
*p* see one at *q*, what cover does *q* have against *p*, what terrain is the way
from *p* to *q* — while only one squad moves at a time. Every infantry base has
the same diameter, so each answer depends on the points alone and is kept for the
whole battle (positions are floats rounded to 0.1 inch, so the keys repeat).
The answers are exactly :mod:`.field`'s (and so :mod:`kubik.table`'s); only the
cost changes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import shapely
from shapely.geometry import LineString
from shapely.geometry import Point as ShapelyPoint

from kubik.rulesets.steel_war.fire import Cover as FireCover
from kubik.rulesets.steel_war.fire import squad_cover
from kubik.rulesets.steel_war.movement import TerrainClass
from kubik.table import Base, Cover, Table
from kubik.table.cover import NEAR_TARGET, _near_target
from kubik.table.geometry import Point, point_distance
from kubik.table.terrain import TerrainFeature

from . import field


def _blocks_sight(feature: TerrainFeature) -> bool:
    return feature.blocks_los


def _gives_cover(feature: TerrainFeature) -> bool:
    return feature.cover is not Cover.NONE


class Measure:
    """One battle's measuring tape: each answer computed once per set of points."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._diameter = field.base_diameter()
        self._los: dict[tuple[Point, Point], bool] = {}
        self._cover: dict[tuple[Point, Point], Cover] = {}
        self._standing: dict[Point, Cover] = {}
        self._water: dict[Point, bool] = {}
        self._routes: dict[tuple[Point, Point, float, str], tuple[Point, ...] | None] = {}
        self._classes: dict[tuple[tuple[Point, ...], float, str], TerrainClass] = {}
        self._cuts: dict[tuple[tuple[Point, ...], float], tuple[Point, ...]] = {}
        self._cover_goals: dict[Point, Point | None] = {}
        self._radius = self._diameter / 2
        self._shapes: dict[tuple[str, bool], Any] = {}
        self._stands: dict[tuple[Point, str], bool] = {}

    def base(self, point: Point) -> Base:
        """An infantry base standing at ``point``."""
        return Base(point[0], point[1], self._diameter)

    def _met(
        self, a: Point, b: Point, wanted: Callable[[TerrainFeature], bool], *, core: bool
    ) -> list[TerrainFeature]:
        """The ``wanted`` features whose shape (or core) the segment a–b meets."""
        line = LineString([a, b]) if a != b else ShapelyPoint(a)
        return [
            f
            for f in self.table.candidates(line)
            if wanted(f) and self._prepared(f, core).intersects(line)
        ]

    def stands_in(self, point: Point, feature: TerrainFeature) -> bool:
        """:meth:`kubik.table.Table.stands_in` for a model at ``point``, memoised."""
        key = (point, feature.id)
        found = self._stands.get(key)
        if found is None:
            found = feature.is_area and bool(
                self._prepared(feature, False).covers(ShapelyPoint(point))
            )
            self._stands[key] = found
        return found

    def _prepared(self, feature: TerrainFeature, core: bool) -> Any:
        """A prepared copy of the feature's shape or core (the table's stay untouched)."""
        key = (feature.id, core)
        found = self._shapes.get(key)
        if found is None:
            found = shapely.from_wkb(shapely.to_wkb(feature.core if core else feature.shape))
            shapely.prepare(found)
            self._shapes[key] = found
        return found

    def closest(self, a: Sequence[Point], b: Sequence[Point]) -> float:
        """As :func:`.field.closest` for infantry bases at these points (unrounded):
        :func:`kubik.table.edge_distance` of the closest pair, without building bases."""
        centres = min(point_distance(p, q) for p in a for q in b)
        return max(0.0, centres - (self._radius + self._radius))

    def los(self, a: Point, b: Point) -> bool:
        """Whether models standing at ``a`` and ``b`` see each other (symmetric).

        :func:`kubik.table.line_of_sight` under its default rules (centre to centre,
        models see in and out of the feature they stand in, models do not block),
        asked with prepared shapes: the centre line is blocked by a sight-blocking
        feature whose core it meets and neither model stands in. A test checks it
        against the table on many lines.
        """
        key = (a, b) if a <= b else (b, a)
        found = self._los.get(key)
        if found is None:
            found = a == b or not any(
                not (self.stands_in(a, f) or self.stands_in(b, f))
                for f in self._met(a, b, _blocks_sight, core=True)
            )
            self._los[key] = found
        return found

    def sees(self, viewer: Point, targets: Sequence[Point]) -> bool:
        """Whether a model at ``viewer`` sees at least one of ``targets``."""
        return any(self.los(viewer, t) for t in targets)

    def cover(self, shooter: Point, target: Point) -> Cover:
        """The cover a model at ``target`` has against a shooter at ``shooter``.

        :func:`kubik.table.cover_between` asked with prepared shapes: the best cover of
        the features the target stands in, and of those the last inch of the line of
        fire passes through that the shooter does not stand in. A test checks it
        against the table on many lines.
        """
        key = (shooter, target)
        found = self._cover.get(key)
        if found is None:
            near = _near_target(shooter, target, self._radius + NEAR_TARGET)
            covers = []
            for f in self._met(shooter, target, _gives_cover, core=False):
                if self.stands_in(target, f) or (
                    near is not None
                    and not self.stands_in(shooter, f)
                    and self._prepared(f, True).intersects(near)
                ):
                    covers.append(f.cover)
            found = Cover.best(covers)
            self._cover[key] = found
        return found

    def target_cover(
        self, shooter: Point, targets: Sequence[Point]
    ) -> tuple[FireCover, tuple[bool, ...]]:
        """As :func:`.field.target_cover`: the squad's cover and each model's."""
        covers = [self.cover(shooter, t) for t in targets]
        light = sum(1 for c in covers if c is Cover.LIGHT)
        hard = sum(1 for c in covers if c is Cover.HARD)
        return squad_cover(light, hard, len(covers)), tuple(c is not Cover.NONE for c in covers)

    def standing(self, point: Point) -> Cover:
        """The cover of the features a model standing at ``point`` is in."""
        found = self._standing.get(point)
        if found is None:
            found = field.standing_cover(self.table, point)
            self._standing[point] = found
        return found

    def in_water(self, point: Point) -> bool:
        """Whether a model standing at ``point`` is in water."""
        found = self._water.get(point)
        if found is None:
            found = self.table.in_water(self.base(point))
            self._water[point] = found
        return found

    def route(
        self, start: Point, end: Point, clearance: float, mover: str = field.INFANTRY
    ) -> tuple[Point, ...] | None:
        """As :func:`.field.route`, memoised."""
        key = (start, end, clearance, mover)
        if key not in self._routes:
            self._routes[key] = field.route(self.table, start, end, clearance, mover)
        return self._routes[key]

    def truncate(self, path: Sequence[Point], length: float) -> tuple[Point, ...]:
        """As :func:`.field.truncate`, memoised."""
        key = (tuple(path), length)
        found = self._cuts.get(key)
        if found is None:
            found = field.truncate(path, length)
            self._cuts[key] = found
        return found

    def cover_goal(self, point: Point, find: Callable[[Point], Point | None]) -> Point | None:
        """The nearest cover a squad standing at ``point`` could head for (``find``
        computes it; it depends on the table and the point alone)."""
        if point not in self._cover_goals:
            self._cover_goals[point] = find(point)
        return self._cover_goals[point]

    def worst_class(
        self, path: Sequence[Point], clearance: float, mover: str = field.INFANTRY
    ) -> TerrainClass:
        """As :func:`.field.worst_class`, memoised."""
        key = (tuple(path), clearance, mover)
        found = self._classes.get(key)
        if found is None:
            found = field.worst_class(self.table, path, clearance, mover)
            self._classes[key] = found
        return found


__all__ = ["Measure"]
