"""Table measurements a battle asks again and again, memoised on the (immutable) table.

A bot weighs every destination of every model against every enemy gun, so the same
questions (can this spot see that one? what cover does it have? which way round the
saloon?) come back many times within a game: positions are rounded to 0.1 inch, and
most models stand still most of the time. Each answer depends only on the terrain
and the bases' geometry, so it is computed once per table with :mod:`kubik.table`
and kept in the table's own cache (one table per game). Nothing here measures by
itself: every function is a memoised call of the table layer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

from shapely.geometry import box

from kubik.table import (
    NEAR_TARGET,
    Base,
    Cover,
    Point,
    Table,
    TerrainKind,
    cover_between,
    cover_sources,
    kind_at,
    obstacles_crossed,
    sight,
)

T = TypeVar("T")
#: Most answers kept per kind of measurement and table.
LIMIT = 50_000
#: Inches added to every pre-filter rectangle, so rounding never drops a feature.
_MARGIN = 0.05
#: A base's geometry (centre and diameter): what every measurement depends on.
Shape = tuple[float, float, float]


def shape(base: Base) -> Shape:
    """The key of a base: its centre and diameter (its id does not change any measure)."""
    return (base.x, base.y, base.diameter)


def store(table: Table, name: str) -> dict[Any, Any]:
    """The table's memo of one kind of measurement; emptied when it grows past
    :data:`LIMIT` (tables are shared by every game of a scenario)."""
    memo: dict[Any, Any] = table.cached(("old_west.measure", name), dict)
    if len(memo) > LIMIT:
        memo.clear()
    return memo


def _memo(table: Table, name: str, key: object, build: Callable[[], T]) -> T:
    memo = store(table, name)
    if key not in memo:
        memo[key] = build()
    return cast(T, memo[key])


def _nearby(table: Table, xmin: float, ymin: float, xmax: float, ymax: float) -> tuple[str, ...]:
    """Ids of the features whose bounding boxes meet a rectangle (the table's pre-filter)."""
    return tuple(f.id for f in table.candidates(box(xmin, ymin, xmax, ymax)))


def sees(table: Table, a: Base, b: Base) -> bool:
    """Whether ``a`` has line of sight to ``b`` (the table layer's default rules).

    Only features that block sight near the line between the bases can block it, so
    when the table's pre-filter finds none around both bases the answer is yes.
    """

    def build() -> bool:
        reach = max(a.radius, b.radius) + _MARGIN
        low_x, low_y = min(a.x, b.x) - reach, min(a.y, b.y) - reach
        near = _nearby(table, low_x, low_y, max(a.x, b.x) + reach, max(a.y, b.y) + reach)
        if not any(table.feature(f).blocks_los for f in near):
            return True
        return sight(table, a, b).clear

    return _memo(table, "sight", (shape(a), shape(b)), build)


def cover(table: Table, shooter: Base, target: Base) -> Cover:
    """The best cover ``target`` has against ``shooter`` (the table layer's rule).

    Cover counts only within ``NEAR_TARGET`` of the target's base, so a target with
    no cover feature in that square around it (the table's pre-filter) has none.
    """

    def build() -> Cover:
        if not _cover_near(table, target):
            return Cover.NONE
        return cover_between(table, shooter, target)

    return _memo(table, "cover", (shape(shooter), shape(target)), build)


def _cover_near(table: Table, target: Base) -> bool:
    def build() -> bool:
        reach = target.radius + NEAR_TARGET + _MARGIN
        x, y = target.x, target.y
        near = _nearby(table, x - reach, y - reach, x + reach, y + reach)
        return any(table.feature(f).cover is not Cover.NONE for f in near)

    return _memo(table, "cover_near", shape(target), build)


def covered(table: Table, spot: Base, against: Base) -> bool:
    """Whether a model at ``spot`` has any cover against a shooter at ``against``."""
    return cover(table, against, spot) is not Cover.NONE


def cover_ids(table: Table, shooter: Base, target: Base, near: float) -> tuple[str, ...]:
    """Ids of the features giving ``target`` cover against ``shooter`` within ``near``."""
    return _memo(
        table,
        "cover_ids",
        (shape(shooter), shape(target), near),
        lambda: tuple(s.feature_id for s in cover_sources(table, shooter, target, near=near)),
    )


def crossed(table: Table, points: Sequence[Point]) -> tuple[str, ...]:
    """Ids of the obstacles (fences, troughs) a line through ``points`` crosses."""
    key = tuple(points)
    return _memo(
        table, "crossed", key, lambda: tuple(f.id for f in obstacles_crossed(table, list(key)))
    )


def impassable(table: Table, point: Point, clearance: float, mover: str | None = None) -> bool:
    """Whether a base of radius ``clearance`` at ``point`` touches terrain impassable to
    ``mover`` (None: on foot)."""
    return _memo(
        table,
        "impassable",
        (point, clearance, mover),
        lambda: kind_at(table, point, mover, clearance=clearance) is TerrainKind.IMPASSABLE,
    )


__all__ = [
    "LIMIT",
    "cover",
    "cover_ids",
    "covered",
    "crossed",
    "impassable",
    "sees",
    "shape",
    "store",
]
