"""Terrain features: what a patch of the battlefield does to movement, sight and cover.

A :class:`TerrainFeature` is an area (a polygon) or, for linear obstacles such as
fences and walls, a line. It says how hard it is to cross (:class:`TerrainKind`,
possibly different per mover type: a wood is difficult for infantry and
impassable for wheeled vehicles, SW-MOVE-03), what cover it gives
(:class:`Cover`), whether it blocks line of sight, whether it is water, and how
high it stands.

>>> wood = TerrainFeature.from_points(
...     "wood", [(0, 0), (6, 0), (6, 4), (0, 4)], kind=TerrainKind.DIFFICULT,
...     kinds={"wheeled": TerrainKind.IMPASSABLE}, cover=Cover.LIGHT, blocks_los=True)
>>> wood.kind_for("infantry").value, wood.kind_for("wheeled").value
('difficult', 'impassable')
>>> wood.shape.area
24.0
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from typing import Any, TypeVar

import shapely
from shapely.geometry import LineString, Polygon
from shapely.validation import explain_validity

from kubik.table.errors import TableError
from kubik.table.geometry import Point, as_point, core


class TerrainKind(Enum):
    """How hard terrain is to cross (SW-MOVE-02): each inch costs ``cost`` inches of move.

    >>> [k.cost for k in TerrainKind]
    [1.0, 2.0, 3.0, inf]
    """

    __hash__ = object.__hash__  # members are singletons: hashed by identity, in C

    OPEN = "open"
    DIFFICULT = "difficult"
    VERY_DIFFICULT = "very_difficult"
    IMPASSABLE = "impassable"

    @property
    def cost(self) -> float:
        """Inches of movement allowance spent per inch travelled (∞: cannot enter)."""
        return _COSTS[self]

    @property
    def rank(self) -> int:
        """0 (open) … 3 (impassable): the most restrictive of several kinds wins."""
        return _KIND_ORDER.index(self)


_KIND_ORDER = (
    TerrainKind.OPEN,
    TerrainKind.DIFFICULT,
    TerrainKind.VERY_DIFFICULT,
    TerrainKind.IMPASSABLE,
)
_COSTS = {
    TerrainKind.OPEN: 1.0,
    TerrainKind.DIFFICULT: 2.0,
    TerrainKind.VERY_DIFFICULT: 3.0,
    TerrainKind.IMPASSABLE: math.inf,
}


#: Each kind's :attr:`~TerrainKind.rank`, read without a call.
_KIND_RANK = {kind: rank for rank, kind in enumerate(_KIND_ORDER)}


E = TypeVar("E", bound=Enum)


def _first_highest(items: Iterable[E], ranks: Mapping[E, int], none: E) -> E:
    """The first of ``items`` of the highest rank (``none`` if there are none); a plain
    loop, no key function called per item (every step of a move and line of fire asks)."""
    best, rank = none, -1
    for item in items:
        item_rank = ranks[item]
        if item_rank > rank:
            best, rank = item, item_rank
    return best


def worst_kind(kinds: Iterable[TerrainKind]) -> TerrainKind:
    """The most restrictive kind of several (OPEN if there are none)."""
    return _first_highest(kinds, _KIND_RANK, TerrainKind.OPEN)


class Cover(Enum):
    """Cover a feature gives (SW-FIRE-08): none, light (hinders aim), hard (stops bullets).

    The values are the strings rule procedures take (``"none"``, ``"light"``,
    ``"hard"``). Covers do not stack; the best one counts:

    >>> Cover.best([Cover.LIGHT, Cover.NONE, Cover.HARD]).value
    'hard'
    """

    __hash__ = object.__hash__  # members are singletons: hashed by identity, in C

    NONE = "none"
    LIGHT = "light"
    HARD = "hard"

    @property
    def rank(self) -> int:
        """0 (none), 1 (light), 2 (hard)."""
        return _COVER_ORDER.index(self)

    @staticmethod
    def best(covers: Iterable[Cover]) -> Cover:
        """The best of several covers (NONE if there are none)."""
        return _first_highest(covers, _COVER_RANK, Cover.NONE)


_COVER_ORDER = (Cover.NONE, Cover.LIGHT, Cover.HARD)
#: Each cover's :attr:`~Cover.rank`, read without a call.
_COVER_RANK = {cover: rank for rank, cover in enumerate(_COVER_ORDER)}


class MoverKinds(Mapping[str, TerrainKind]):
    """An immutable, hashable mapping mover type → terrain kind (e.g. ``"tracked"``)."""

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[str, TerrainKind] | None = None) -> None:
        self._items: tuple[tuple[str, TerrainKind], ...] = tuple(sorted((items or {}).items()))

    def __getitem__(self, key: str) -> TerrainKind:
        for k, v in self._items:
            if k == key:
                return v
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return (k for k, _ in self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return dict(self._items) == dict(other.items())
        return NotImplemented

    def __repr__(self) -> str:
        return f"MoverKinds({dict(self._items)!r})"


def _validity_problem(poly: Any) -> str | None:
    if poly.is_valid:
        return None
    reason = str(explain_validity(poly))
    if reason.startswith("Self-intersection"):
        return f"the polygon crosses itself ({reason})"
    return f"not a valid polygon ({reason})"


def polygon_problem(points: Sequence[Point]) -> str | None:
    """Why these points do not make a usable polygon, or ``None`` if they do.

    >>> polygon_problem([(0, 0), (2, 2), (2, 0), (0, 2)])
    'the polygon crosses itself (Self-intersection[1 1])'
    """
    if len(points) < 3:
        return f"a polygon needs at least 3 points, got {len(points)}"
    if LineString(points).convex_hull.area <= 0:
        return "the polygon has no area (its points are on one line)"
    return _validity_problem(Polygon(points))


def line_problem(points: Sequence[Point]) -> str | None:
    """Why these points do not make a usable line, or ``None`` if they do."""
    if len(points) < 2:
        return f"a line needs at least 2 points, got {len(points)}"
    if LineString(points).length <= 0:
        return "the line has no length (all its points are the same)"
    return None


def _shape_problem(shape: Any) -> str | None:
    geom_type = getattr(shape, "geom_type", None)
    if geom_type == "Polygon":
        problem = _validity_problem(shape)
        if problem is None and shape.area <= 0:
            return "the polygon has no area"
        return problem
    if geom_type == "LineString":
        return line_problem(list(shape.coords))
    return f"must be a shapely Polygon or LineString, got {geom_type or type(shape).__name__}"


@dataclass(frozen=True)
class TerrainFeature:
    """One piece of terrain: an area (Polygon) or a linear obstacle (LineString).

    ``kind`` is how hard it is to cross for any mover type not named in ``kinds``.
    ``obstacle`` marks walls, fences, hedges and ditches (rules about crossing or
    fighting across an obstacle); only obstacles may be lines. ``elevation`` is
    the height of its top in inches (negative for trenches and pits). ``name``
    and ``name_ru`` are what people read (the id, then the English name, by default).
    Build one from points with :meth:`from_points`.
    """

    id: str
    shape: Any
    name: str = ""
    name_ru: str = ""
    kind: TerrainKind = TerrainKind.OPEN
    kinds: Mapping[str, TerrainKind] = field(default_factory=MoverKinds)
    cover: Cover = Cover.NONE
    blocks_los: bool = False
    obstacle: bool = False
    water: bool = False
    elevation: float = 0.0

    def __post_init__(self) -> None:
        owner = self.label
        if not isinstance(self.id, str) or not self.id:
            raise TableError("id", "must be a non-empty string", owner)
        if not self.name:
            object.__setattr__(self, "name", self.id)
        if not self.name_ru:
            object.__setattr__(self, "name_ru", self.name)
        if not isinstance(self.kinds, MoverKinds):
            object.__setattr__(self, "kinds", MoverKinds(self.kinds))
        for mover, kind in self.kinds.items():
            if not isinstance(kind, TerrainKind):
                raise TableError(f"kinds.{mover}", f"must be a TerrainKind, got {kind!r}", owner)
        if not isinstance(self.kind, TerrainKind):
            raise TableError("kind", f"must be a TerrainKind, got {self.kind!r}", owner)
        if not isinstance(self.cover, Cover):
            raise TableError("cover", f"must be a Cover, got {self.cover!r}", owner)
        if not math.isfinite(self.elevation):
            raise TableError("elevation", f"must be finite, got {self.elevation}", owner)
        problem = _shape_problem(self.shape)
        if problem is None and not self.is_area and not self.obstacle:
            problem = "only obstacles may be lines (set obstacle = true)"
        if problem:
            raise TableError("points", problem, owner)
        shapely.prepare(self.shape)  # every game asks the same shapes again and again

    @classmethod
    def from_points(
        cls,
        id: str,
        points: Sequence[Sequence[float]],
        *,
        line: bool = False,
        **fields: Any,
    ) -> TerrainFeature:
        """Build a feature from its outline (a polygon) or, with ``line``, a polyline.

        Other keyword arguments are the dataclass fields (``kind``, ``cover`` …);
        ``kinds`` may be any mapping.
        """
        owner = f"terrain {id!r}"
        pts = [as_point(p, f"points[{i}]", owner) for i, p in enumerate(points)]
        problem = line_problem(pts) if line else polygon_problem(pts)
        if problem:
            raise TableError("points", problem, owner)
        shape = LineString(pts) if line else Polygon(pts)
        return cls(id, shape, **fields)

    @property
    def label(self) -> str:
        """How error messages name this feature."""
        return f"terrain {self.id!r}"

    @property
    def polygon(self) -> Any:
        """The outline (a LineString for linear obstacles); same as ``shape``."""
        return self.shape

    @cached_property
    def is_area(self) -> bool:
        """Whether the feature has an inside (a polygon) rather than being a line (read
        once: every point and line test asks it)."""
        return bool(self.shape.geom_type == "Polygon")

    def kind_for(self, mover_type: str | None = None) -> TerrainKind:
        """The kind for this mover type (``kinds`` entry, else the default ``kind``)."""
        if mover_type is not None and mover_type in self.kinds:
            return self.kinds[mover_type]
        return self.kind

    @cached_property
    def core(self) -> Any:
        """The shape a line must touch to pass through this feature (see ``geometry.core``)."""
        shape = core(self.shape)
        shapely.prepare(shape)
        return shape
