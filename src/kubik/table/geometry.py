"""Points, round bases and the distances between them.

Every length is in inches (see :mod:`kubik.table.units`). A model is a point with a
round base; rules measure between base **edges** ("within 6 inches" means the
closest points of the two bases are at most 6 inches apart), so the functions
here work on discs exactly, never on polygon approximations of circles.

>>> a = Base(0, 0, 1.0)
>>> b = Base(4, 3, 1.0)
>>> centre_distance(a, b), edge_distance(a, b)
(5.0, 4.0)
>>> within(a, b, 4), within(a, b, 3.99)
(True, False)
>>> in_base_contact(a, Base(1, 0, 1.0))
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol, TypeAlias

import shapely
from shapely.geometry import LineString
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry
from shapely.ops import substring

from kubik.table.errors import TableError
from kubik.table.units import mm_to_inches

#: A position on the table, in inches: ``(x, y)``.
Point: TypeAlias = tuple[float, float]

#: Slack for float comparisons of lengths (inches); far below anything measurable.
EPS = 1e-9
#: How far inside a feature a line must pass to count as passing *through* it
#: (inches). A line that only grazes a corner or runs along an edge is not blocked.
CORE_EPS = 1e-7
#: Default slack for base contact: 0.05 in (about 1.3 mm), the accuracy of
#: placing a model by hand.
CONTACT_TOLERANCE = 0.05
#: Sets a field of a frozen value while it is made (what frozen dataclasses do).
_set = object.__setattr__
#: Makes an instance without calling its __init__ (a moved base, already checked).
_new = object.__new__
#: The number types a base's position is checked inline for (see ``Base.__init__``).
_REAL = (float, int)


def as_point(value: Sequence[float], field: str, owner: str = "") -> Point:
    """Check that ``value`` is two finite numbers and return it as a point."""
    if type(value) is tuple and len(value) == 2:  # the common case, without a generator
        x, y = value
        if type(x) is float and type(y) is float and math.isfinite(x) and math.isfinite(y):
            return (x, y)
    try:
        x, y = (float(v) for v in value)
    except (TypeError, ValueError):
        raise TableError(field, f"must be two numbers (x, y), got {value!r}", owner) from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise TableError(field, f"must be finite, got ({x}, {y})", owner)
    return (x, y)


def point_distance(p: Point, q: Point) -> float:
    """Euclidean distance between two points."""
    return math.hypot(q[0] - p[0], q[1] - p[1])


def point_segment_distance(p: Point, a: Point, b: Point) -> float:
    """Distance from ``p`` to the segment ``a``–``b``.

    >>> point_segment_distance((1, 1), (0, 0), (2, 0))
    1.0
    """
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return math.hypot(a[0] - p[0], a[1] - p[1])
    t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2
    t = 1.0 if t > 1.0 else (t if t > 0.0 else 0.0)  # (min(1.0, max(0.0, t)) inline)
    # point_distance(p, the nearest point), inline: the same sums, no call and no tuple
    return math.hypot(a[0] + t * dx - p[0], a[1] + t * dy - p[1])


@dataclass(frozen=True, init=False)
class Base:
    """A model: a round base of ``diameter`` inches centred at ``(x, y)``.

    ``id`` is an optional label (the model's id) used in error messages and to
    tell models apart. Manufacturers size bases in millimetres: use
    :meth:`from_mm` (``Base.from_mm(3, 4, 25)`` is a 25 mm base).
    """

    x: float
    y: float
    diameter: float
    id: str = ""
    #: The centre of the base, ``(x, y)`` (made once: rules read it many times a base).
    centre: Point = field(init=False, repr=False, compare=False)
    #: Half the diameter, in inches.
    radius: float = field(init=False, repr=False, compare=False)

    def __init__(self, x: float, y: float, diameter: float, id: str = "") -> None:
        # the dataclass's own __init__ and checks in one call (bases are made by the
        # hundred thousand): plain numbers are checked inline, anything else goes through
        # as_point, which names what is wrong
        _set(self, "x", x)
        _set(self, "y", y)
        _set(self, "diameter", diameter)
        _set(self, "id", id)
        if not (type(x) in _REAL and type(y) in _REAL and math.isfinite(x) and math.isfinite(y)):
            as_point((x, y), "position", self.label)
        if not (math.isfinite(diameter) and diameter > 0):
            raise TableError("diameter", f"must be a positive number, got {diameter}", self.label)
        _set(self, "centre", (x, y))
        _set(self, "radius", diameter / 2)

    @classmethod
    def from_mm(cls, x: float, y: float, diameter_mm: float, id: str = "") -> Base:
        """A base whose diameter is given in millimetres (position in inches)."""
        if not (math.isfinite(diameter_mm) and diameter_mm > 0):
            label = f"base {id!r}" if id else "base"
            raise TableError("diameter_mm", f"must be a positive number, got {diameter_mm}", label)
        return cls(x, y, mm_to_inches(diameter_mm), id)

    @property
    def label(self) -> str:
        """How error messages name this base."""
        return f"base {self.id!r}" if self.id else "base"

    def moved_to(self, point: Sequence[float]) -> Base:
        """The same model standing at another point."""
        if type(point) is tuple and len(point) == 2:  # (as_point's common case, no label made)
            x, y = point
            if type(x) is float and type(y) is float and math.isfinite(x) and math.isfinite(y):
                # a checked base's diameter at a checked position: made without checking
                # them again (its __init__'s fields, set as it sets them)
                moved = _new(Base)
                _set(moved, "x", x)
                _set(moved, "y", y)
                _set(moved, "diameter", self.diameter)
                _set(moved, "id", self.id)
                _set(moved, "centre", point)
                _set(moved, "radius", self.radius)
                return moved
        x, y = as_point(point, "position", self.label)
        return Base(x, y, self.diameter, self.id)

    def disc(self, quad_segs: int = 16) -> Any:
        """The base as a shapely polygon (for drawing; measurements use exact circles)."""
        return ShapelyPoint(self.x, self.y).buffer(self.radius, quad_segs=quad_segs)


def centre_distance(a: Base, b: Base) -> float:
    """Distance between the centres of two bases (:func:`point_distance`, on the fields)."""
    return math.hypot(b.x - a.x, b.y - a.y)


def edge_distance(a: Base, b: Base) -> float:
    """Distance between the closest points of two bases (0 if they touch or overlap)."""
    gap = math.hypot(b.x - a.x, b.y - a.y) - (a.radius + b.radius)
    return gap if gap > 0.0 else 0.0


def in_base_contact(a: Base, b: Base, tolerance: float = CONTACT_TOLERANCE) -> bool:
    """Whether the bases touch, give or take ``tolerance`` inches (overlap counts too)."""
    if tolerance < 0:
        raise TableError("tolerance", f"must not be negative, got {tolerance}")
    return centre_distance(a, b) - (a.radius + b.radius) <= tolerance + EPS


def within(a: Base, b: Base, inches: float) -> bool:
    """Whether the bases are within ``inches`` edge to edge ("within N" means ≤ N)."""
    if not (inches >= 0):
        raise TableError("inches", f"must not be negative, got {inches}")
    return edge_distance(a, b) <= inches + EPS


class Shaped(Protocol):
    """Anything with a shapely ``shape`` (a terrain feature, a template)."""

    @property
    def shape(self) -> Any:
        """The shapely geometry."""


def _geometry(target: Shaped | BaseGeometry) -> Any:
    return target if isinstance(target, BaseGeometry) else target.shape


def distance_to(base: Base, target: Shaped | BaseGeometry) -> float:
    """Edge distance from a base to a polygon, a line or a feature (0 if they overlap).

    Exact: the distance from a disc to a set is the distance from its centre minus
    the radius.

    >>> from shapely.geometry import box
    >>> distance_to(Base(0, 0, 1), box(3, -1, 5, 1))
    2.5
    """
    d = float(ShapelyPoint(base.centre).distance(_geometry(target)))
    return max(0.0, d - base.radius)


class Placement(Enum):
    """Where a base is relative to an area: wholly outside, partly in, wholly inside."""

    OUTSIDE = "outside"
    PARTLY = "partly"
    INSIDE = "inside"


def placement(base: Base, target: Shaped | BaseGeometry, *, touching: bool = False) -> Placement:
    """Whether ``base`` is inside, partly inside or outside ``target``.

    A base that merely touches the edge is OUTSIDE, unless ``touching`` is true
    (template rules: "partially under, or whose base merely touches it").
    Lines (fences, walls) have no inside: a base is PARTLY on a line it crosses.

    >>> from shapely.geometry import box
    >>> wood = box(0, 0, 10, 10)
    >>> [placement(Base(x, 5, 2), wood).value for x in (5, 0.5, -1, -2)]
    ['inside', 'partly', 'outside', 'outside']
    >>> placement(Base(-1, 5, 2), wood, touching=True).value
    'partly'
    """
    geom = _geometry(target)
    centre = ShapelyPoint(base.centre)
    r = base.radius
    outside_at = r + EPS if touching else r - EPS
    if geom.geom_type in ("Polygon", "MultiPolygon") and geom.covers(centre):
        if float(centre.distance(geom.boundary)) >= r - EPS:
            return Placement.INSIDE
        return Placement.PARTLY
    if float(centre.distance(geom)) < outside_at:
        return Placement.PARTLY
    return Placement.OUTSIDE


def core(geom: Any) -> Any:
    """The part of a shape a line must touch to pass *through* it, not graze it.

    Polygons shrink by :data:`CORE_EPS`; lines lose :data:`CORE_EPS` at each end (so
    passing exactly by the end of a wall is clear, crossing it is not).
    """
    if geom.is_empty:
        return geom
    if geom.geom_type in ("Polygon", "MultiPolygon"):
        return geom.buffer(-CORE_EPS, join_style="mitre")
    if geom.geom_type in ("LineString", "LinearRing"):
        length = float(geom.length)
        if length <= 2 * CORE_EPS:
            return LineString()
        return substring(geom, CORE_EPS, length - CORE_EPS)
    parts = [core(part) for part in geom.geoms]
    return shapely.union_all([p for p in parts if not p.is_empty])
