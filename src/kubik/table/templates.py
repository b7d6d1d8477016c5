"""Templates: round blasts, teardrop flamers and straight cones, and who is under them.

Rules hit every model **fully** under a template and models **partly** under it
(or whose base merely touches it) on a further roll (RA-MEL-07, FB flame
template). :func:`models_under` sorts bases into those two groups exactly: each
template has an exact signed distance (negative inside), so a base of radius r
with centre c is fully under iff ``sd(c) ≤ -r`` and at least partly under iff
``sd(c) ≤ r``.

Headings are in degrees, counter-clockwise from the +x axis (0° points along the
table's width, 90° along its height); :func:`heading_to` aims at a point.

>>> blast = Blast((10, 10), radius=1.5)
>>> hits = models_under(blast, [Base(10, 10, 1), Base(11.5, 10, 1), Base(13, 10, 1)])
>>> [b.x for b in hits.full], [b.x for b in hits.partial]
([10], [11.5])
>>> flame = Teardrop((0, 0), heading=0, length=8, far_width=3)
>>> flame.contains((7.5, 0)), flame.contains((8.5, 0))
(True, False)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, TypeAlias

from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon

from kubik.table.errors import TableError
from kubik.table.geometry import EPS, Base, Point, as_point


def heading_to(origin: Point, target: Point) -> float:
    """The heading in degrees from ``origin`` towards ``target``.

    >>> heading_to((0, 0), (0, 5))
    90.0
    """
    if origin == target:
        raise TableError("target", "must differ from the origin to give a direction")
    return math.degrees(math.atan2(target[1] - origin[1], target[0] - origin[0]))


def _positive(value: float, field: str, owner: str) -> None:
    if not (math.isfinite(value) and value > 0):
        raise TableError(field, f"must be a positive number of inches, got {value}", owner)


@dataclass(frozen=True)
class Blast:
    """A round template of ``radius`` inches centred at ``centre``.

    Rulebooks usually give the diameter (a "3-inch" small blast): use
    :meth:`from_diameter`.
    """

    centre: Point
    radius: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "centre", as_point(self.centre, "centre", "blast"))
        _positive(self.radius, "radius", "blast")

    @classmethod
    def from_diameter(cls, centre: Point, diameter: float) -> Blast:
        """A blast template given by its diameter."""
        _positive(diameter, "diameter", "blast")
        return cls(centre, diameter / 2)

    def signed_distance(self, point: Point) -> float:
        """Distance to the template's edge, negative inside."""
        return math.dist(point, self.centre) - self.radius

    def contains(self, point: Point) -> bool:
        """Whether the point is under the template (edge included)."""
        return self.signed_distance(point) <= EPS

    @cached_property
    def shape(self) -> Any:
        """The template as a shapely polygon (for drawing)."""
        return ShapelyPoint(self.centre).buffer(self.radius, quad_segs=32)


class _Aimed:
    """Shared frame of the templates laid from an origin along a heading."""

    origin: Point
    heading: float

    def _local(self, point: Point) -> Point:
        """The point in the template's frame: x along the heading, y across it."""
        rad = math.radians(self.heading)
        dx, dy = point[0] - self.origin[0], point[1] - self.origin[1]
        c, s = math.cos(rad), math.sin(rad)
        return (dx * c + dy * s, -dx * s + dy * c)

    def _world(self, local: Point) -> Point:
        rad = math.radians(self.heading)
        c, s = math.cos(rad), math.sin(rad)
        x, y = local
        return (self.origin[0] + x * c - y * s, self.origin[1] + x * s + y * c)

    def _check(self, owner: str, length: float, near_width: float, far_width: float) -> None:
        object.__setattr__(self, "origin", as_point(self.origin, "origin", owner))
        if not math.isfinite(self.heading):
            raise TableError(
                "heading", f"must be a finite angle in degrees, got {self.heading}", owner
            )
        _positive(length, "length", owner)
        _positive(far_width, "far_width", owner)
        if not (math.isfinite(near_width) and 0 <= near_width <= far_width):
            raise TableError(
                "near_width",
                f"must be between 0 and far_width ({far_width}), got {near_width}",
                owner,
            )


@dataclass(frozen=True)
class Teardrop(_Aimed):
    """A flame template: its narrow end at ``origin``, ``length`` inches long along
    ``heading``, both ends rounded — ``near_width`` across at the narrow end (0: a
    point), ``far_width`` across at the wide end. It is the convex hull of two
    circles (diameters ``near_width`` and ``far_width``) touching the two ends.
    Rulebooks give the sizes (Fantasy's flame template is about 8 inches long).
    """

    origin: Point
    heading: float
    length: float
    far_width: float
    near_width: float = 0.0

    def __post_init__(self) -> None:
        self._check("teardrop", self.length, self.near_width, self.far_width)
        if self.far_width >= self.length:
            raise TableError(
                "far_width",
                f"must be less than the length ({self.length}), got {self.far_width}",
                "teardrop",
            )

    def signed_distance(self, point: Point) -> float:
        """Exact distance to the edge (negative inside): the "uneven capsule" formula."""
        r1, r2 = self.near_width / 2, self.far_width / 2
        h = self.length - r1 - r2  # distance between the two circle centres
        along, across = self._local(point)
        px, py = abs(across), along - r1  # capsule frame: axis along +y, narrow circle at 0
        b = (r1 - r2) / h
        a = math.sqrt(1.0 - b * b)
        k = -b * px + a * py
        if k < 0:
            return math.hypot(px, py) - r1
        if k > a * h:
            return math.hypot(px, py - h) - r2
        return a * px + b * py - r1

    def contains(self, point: Point) -> bool:
        """Whether the point is under the template (edge included)."""
        return self.signed_distance(point) <= EPS

    @cached_property
    def shape(self) -> Any:
        """The template as a shapely polygon (for drawing)."""
        r1, r2 = self.near_width / 2, self.far_width / 2
        narrow = ShapelyPoint(self._world((r1, 0.0)))
        wide = ShapelyPoint(self._world((self.length - r2, 0.0))).buffer(r2, quad_segs=32)
        tip = narrow.buffer(r1, quad_segs=32) if r1 > 1e-6 else narrow
        return tip.union(wide).convex_hull


@dataclass(frozen=True)
class Cone(_Aimed):
    """A straight-sided template: ``near_width`` across at ``origin`` (0: a point),
    ``far_width`` across ``length`` inches along ``heading``, with a flat far end.
    """

    origin: Point
    heading: float
    length: float
    far_width: float
    near_width: float = 0.0

    def __post_init__(self) -> None:
        self._check("cone", self.length, self.near_width, self.far_width)

    @cached_property
    def shape(self) -> Any:
        """The template as a shapely polygon."""
        n, f, L = self.near_width / 2, self.far_width / 2, self.length
        local = [(0.0, -n), (L, -f), (L, f), (0.0, n)] if n > 0 else [(0.0, 0.0), (L, -f), (L, f)]
        return Polygon([self._world(p) for p in local])

    def signed_distance(self, point: Point) -> float:
        """Exact distance to the edge (negative inside)."""
        p = ShapelyPoint(point)
        if self.shape.covers(p):
            return -float(self.shape.exterior.distance(p))
        return float(self.shape.distance(p))

    def contains(self, point: Point) -> bool:
        """Whether the point is under the template (edge included)."""
        return self.signed_distance(point) <= EPS


#: Any template.
Template: TypeAlias = Blast | Teardrop | Cone


@dataclass(frozen=True)
class TemplateHits:
    """The bases under a template: ``full`` (wholly under) and ``partial`` (partly
    under or touching), each in the order they were given."""

    full: tuple[Base, ...]
    partial: tuple[Base, ...]

    @property
    def all(self) -> tuple[Base, ...]:
        """Every base touched at all (full ones first)."""
        return self.full + self.partial


def models_under(template: Template, bases: Iterable[Base]) -> TemplateHits:
    """Split ``bases`` into those fully and those partly under ``template``."""
    full: list[Base] = []
    partial: list[Base] = []
    for base in bases:
        sd = template.signed_distance(base.centre)
        if sd <= -base.radius + EPS:
            full.append(base)
        elif sd <= base.radius + EPS:
            partial.append(base)
    return TemplateHits(tuple(full), tuple(partial))
