"""Where a model can go: free spots, routes, contact points, cover spots, backing off.

Everything is measured with :mod:`kubik.table`; the only geometry written here is
walking a short way along a route or a direction (the table layer answers every
question about terrain, distances and cover). Positions offered to players are
rounded to 0.1 inch, then checked again.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from shapely.geometry import LineString

from kubik.rulesets.old_west.battle import measure
from kubik.rulesets.old_west.battle.state import Battle, Figure
from kubik.table import (
    Base,
    Cover,
    Point,
    Table,
    TableError,
    TerrainKind,
    centre_distance,
    kind_at,
    max_move_along,
    obstacles_crossed,
    path_cost,
    shortest_path,
)

#: Positions offered to players are rounded to this many inches.
STEP = 0.1
_SLACK = 0.05  # inches of measuring slack (rounding, placing by hand)


def rounded(point: Sequence[float]) -> Point:
    """A point rounded to 0.1 inch.

    >>> rounded((1.04, 2.96))
    (1.0, 3.0)
    """
    return (round(point[0], 1), round(point[1], 1))


@dataclass(frozen=True, slots=True)
class Route:
    """A path a model can walk and the movement it costs."""

    points: tuple[Point, ...]
    cost: float

    @property
    def end(self) -> Point:
        """Where it ends."""
        return self.points[-1]


def free_spot(battle: Battle, figure: Figure, point: Point, ignore: Sequence[str] = ()) -> bool:
    """Whether the model's base fits at ``point``: on the table, out of impassable terrain,
    not overlapping another model in action (``ignore``: models that will make way)."""
    radius = figure.base.radius
    table = battle.table
    x, y = point[0], point[1]
    if not (radius <= x <= table.width - radius and radius <= y <= table.height - radius):
        try:
            table.check_base(figure.base.moved_to(point))
        except TableError:
            return False
    if measure.impassable(table, (x, y), radius - 1e-3, figure.mover):
        return False
    base = figure.base.moved_to((x, y))
    for other in battle.others(figure):
        if other.id in ignore:
            continue
        if centre_distance(base, other.base) < radius + other.base.radius - 1e-6:
            return False
    return True


def route(
    table: Table, start: Point, end: Point, radius: float, mover: str | None = None
) -> Route | None:
    """The straight line if terrain allows it, else the cheapest way round; None if cut off.

    ``mover``: the mover type (None on foot; riders may find more terrain impassable).
    Depends on the terrain only, so it is memoised on the table."""
    routes = measure.store(table, "routes")
    key = ((start[0], start[1]), (end[0], end[1]), radius, mover)
    if key not in routes:
        routes[key] = _route(table, start, end, radius, mover)
    found: Route | None = routes[key]
    return found


def _route(
    table: Table, start: Point, end: Point, radius: float, mover: str | None
) -> Route | None:
    clearance = radius - 1e-3
    try:
        cost = path_cost(table, mover, [start, end], clearance=clearance)
    except TableError:
        return None
    if math.isfinite(cost):
        return Route((start, end), cost)
    try:
        found = shortest_path(table, start, end, mover, clearance=clearance, edge_step=2.0)
    except TableError:
        return None
    if found is None:
        return None
    return Route(found.points, found.cost)


def walk(
    table: Table, path: Route, allowance: float, radius: float, mover: str | None = None
) -> Route:
    """How far along ``path`` a model gets with ``allowance`` inches of move."""
    moved = max_move_along(table, path.points, allowance, mover, clearance=radius - 1e-3)
    line = LineString(path.points)
    done = line.project(_shapely_point(moved.end))
    points = [p for p in path.points if line.project(_shapely_point(p)) < done - 1e-9]
    return Route((*points, moved.end), moved.cost)


def _shapely_point(p: Point) -> object:
    from shapely.geometry import Point as ShapelyPoint

    return ShapelyPoint(p)


def cut(path: Route, length: float) -> Route:
    """The first ``length`` inches of the path (cost not recomputed: use for truncating
    a walk that is already affordable)."""
    line = LineString(path.points)
    length = max(0.0, min(length, line.length))
    end = line.interpolate(length)
    points = [p for p in path.points if line.project(_shapely_point(p)) < length - 1e-9]
    return Route((*points, (float(end.x), float(end.y))), path.cost)


def crossings(table: Table, path: Route) -> tuple[str, ...]:
    """Obstacles (fences, troughs) the path jumps (a jump test each, OW-ABSENT-02)."""
    if len(path.points) < 2:
        return ()
    return measure.crossed(table, path.points)


def before_obstacle(table: Table, path: Route, radius: float) -> Point:
    """Where a model that fails its jump stops: just short of the first obstacle."""
    line = LineString(path.points)
    first = line.length
    for feature in obstacles_crossed(table, path.points):
        hit = line.intersection(feature.shape)
        if not hit.is_empty:
            first = min(first, line.project(hit.representative_point()))
    stop = max(0.0, first - radius - _SLACK)
    end = line.interpolate(stop)
    return (float(end.x), float(end.y))


def over_obstacle(table: Table, path: Route, radius: float) -> Point:
    """Where a model that clears an obstacle but loses the rest of its move stops: its
    base just beyond the first obstacle on the path (or the path's end, if nearer)."""
    line = LineString(path.points)
    first = line.length
    for feature in obstacles_crossed(table, path.points):
        hit = line.intersection(feature.shape)
        if not hit.is_empty:
            first = min(first, line.project(hit.representative_point()))
    end = line.interpolate(min(line.length, first + radius + _SLACK))
    return (float(end.x), float(end.y))


def contact_points(target: Base, mover: Base) -> tuple[Point, ...]:
    """Points where the mover's base touches the target's, the facing one first and then
    round the target (every 30 degrees)."""
    reach = target.radius + mover.radius
    heading = math.atan2(mover.y - target.y, mover.x - target.x)
    out: list[Point] = []
    for step in (0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6):
        angle = heading + step * math.pi / 6
        out.append((target.x + reach * math.cos(angle), target.y + reach * math.sin(angle)))
    return tuple(out)


def charge_route(battle: Battle, figure: Figure, target: Figure, allowance: float) -> Route | None:
    """The cheapest free spot in base contact with ``target`` the model can reach."""
    for point in contact_points(target.base, figure.base):
        spot = rounded(point)
        if centre_distance(target.base, figure.base.moved_to(spot)) > (
            target.base.radius + figure.base.radius + _SLACK
        ):
            spot = point
        if not free_spot(battle, figure, spot):
            continue
        path = route(battle.table, figure.base.centre, spot, figure.base.radius, figure.mover)
        if path is not None and path.cost <= allowance + _SLACK:
            return path
    return None


def away_from(origin: Point, threats: Sequence[Point], distance: float) -> Point:
    """The point ``distance`` inches from ``origin`` straight away from the threats' middle."""
    mx = sum(p[0] for p in threats) / len(threats)
    my = sum(p[1] for p in threats) / len(threats)
    dx, dy = origin[0] - mx, origin[1] - my
    norm = math.hypot(dx, dy) or 1.0
    return (origin[0] + dx / norm * distance, origin[1] + dy / norm * distance)


def back_off_spot(battle: Battle, figure: Figure, opponents: Sequence[Figure]) -> Point | None:
    """Where a loser backs off to (1" straight away from its opponents), or None when it
    cannot (it is trapped): the spot is off the table, in impassable terrain or taken by
    a model, or the rule (:func:`~kubik.rulesets.old_west.combat.back_off_path`) forbids
    the way — touching another enemy, or jumping an obstacle (OW-CC-04, OW-CC-09).
    """
    from kubik.rulesets.old_west.combat import BackOffPath, back_off_path
    from kubik.rulesets.old_west.core import number

    inches = number("close_combat", "back_off_inches") + _SLACK
    spot = away_from(figure.base.centre, [o.base.centre for o in opponents], inches)
    if not free_spot(battle, figure, spot, ignore=()):
        return None
    base = figure.base.moved_to(spot)
    touches = any(
        centre_distance(base, enemy.base) <= base.radius + enemy.base.radius + 1e-6
        for enemy in battle.enemies(figure)
    )
    climbs = bool(measure.crossed(battle.table, (figure.base.centre, spot)))
    return spot if back_off_path(BackOffPath(inches, touches, climbs)).allowed else None


def cover_spots(
    table: Table, radius: float, gap: float, mover: str | None = None
) -> tuple[Point, ...]:
    """Places that give cover: inside enterable cover (a barrel pile, a porch) and just
    beside buildings and fences, every 2 inches round them (computed once per table)."""

    def build() -> tuple[Point, ...]:
        spots: list[Point] = []
        for feature in table.features:
            if feature.cover is Cover.NONE:
                continue
            if feature.is_area and feature.kind is not TerrainKind.IMPASSABLE:
                p = feature.shape.representative_point()
                spots.append((float(p.x), float(p.y)))
            ring = feature.shape.buffer(radius + gap).exterior
            count = max(4, int(ring.length // 2.0))
            for i in range(count):
                p = ring.interpolate(i * ring.length / count)
                spots.append((float(p.x), float(p.y)))
        ok: list[Point] = []
        for spot in spots:
            spot = rounded(spot)
            try:
                table.check_base(Base(spot[0], spot[1], 2 * radius))
            except TableError:
                continue
            if kind_at(table, spot, mover, clearance=radius) is not TerrainKind.IMPASSABLE:
                ok.append(spot)
        return tuple(dict.fromkeys(ok))

    return table.cached(("old_west.cover_spots", round(radius, 4), gap, mover), build)


def spots_around(
    table: Table, feature_id: str, radius: float, gap: float, mover: str | None = None
) -> tuple[Point, ...]:
    """Free-standing places just outside a feature, every 2 inches round it (where a
    model stands to reach it; computed once per table)."""

    def build() -> tuple[Point, ...]:
        ring = table.feature(feature_id).shape.buffer(radius + gap).exterior
        count = max(4, int(ring.length // 2.0))
        ok: list[Point] = []
        for i in range(count):
            p = ring.interpolate(i * ring.length / count)
            spot = rounded((float(p.x), float(p.y)))
            try:
                table.check_base(Base(spot[0], spot[1], 2 * radius))
            except TableError:
                continue
            if kind_at(table, spot, mover, clearance=radius) is not TerrainKind.IMPASSABLE:
                ok.append(spot)
        return tuple(dict.fromkeys(ok))

    key = ("old_west.spots_around", feature_id, round(radius, 4), gap, mover)
    return table.cached(key, build)


def has_cover(table: Table, spot: Base, against: Base) -> bool:
    """Whether a model at ``spot`` has cover against a shooter at ``against``."""
    return measure.covered(table, spot, against)


__all__ = [
    "STEP",
    "Route",
    "away_from",
    "back_off_spot",
    "before_obstacle",
    "charge_route",
    "contact_points",
    "cover_spots",
    "crossings",
    "cut",
    "free_spot",
    "has_cover",
    "over_obstacle",
    "rounded",
    "route",
    "spots_around",
    "walk",
]
