"""Where models can go: ways over the town, the contact rule, charges, backing off.

Every measurement is the battle's one tape (:attr:`~kubik.game.battle.BattleGame.tape`)
and every move ends where the battle layer's contact rule
(:func:`~kubik.game.battle.settle`) says: models never move through other models, an
ordinary move never ends touching one, and only a charge touches its target. Places
offered to players lie on a 0.1-inch grid.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
from shapely import lib as shapely_lib

from kubik.game.battle import GAP, clear_of, settle, touching
from kubik.rulesets.old_west.battle.figures import Figure
from kubik.rulesets.old_west.core import data, number
from kubik.table import Base, Cover, Point, TableError, TerrainKind
from kubik.table.tape import Way, along

if TYPE_CHECKING:
    from kubik.rulesets.old_west.battle.game import OldWestGame

#: Inches of measuring slack (rounding to the 0.1-inch grid, placing by hand).
SLACK = 0.05
#: How far a way round buildings samples their edges (inches).
DETOUR_STEP = 2.0
#: shapely's default for NaN coordinates when it builds a geometry ("allow").
_NAN_ALLOWED = np.intc(0)


def rounded(point: Sequence[float]) -> Point:
    """A point on the 0.1-inch grid.

    >>> rounded((1.04, 2.96))
    (1.0, 3.0)
    """
    return (round(point[0], 1), round(point[1], 1))


def battle_number(key: str) -> float:
    """A number of data/game.toml's ``[battle]`` table."""
    return float(data()["battle"][key])


def clearance(figure: Figure) -> float:
    """How far the model's centre keeps from impassable terrain: its base's radius."""
    return figure.base.radius - 1e-3


def bodies(game: OldWestGame, besides: Iterable[str] = ()) -> list[Base]:
    """The bases taking up room on the table, except the models in ``besides``."""
    skip = set(besides)
    return [f.base for f in game.figures if f.in_action and f.id not in skip]


def on_ground(game: OldWestGame, figure: Figure, point: Point) -> bool:
    """Whether the model's base fits on the table at ``point``, out of impassable terrain."""
    try:
        game.table.check_base(figure.base.moved_to(point))
    except TableError:
        return False
    return game.tape.kind_at(point, figure.mover, clearance(figure)) is not TerrainKind.IMPASSABLE


def fits(
    game: OldWestGame,
    figure: Figure,
    point: Point,
    besides: Iterable[str] = (),
    touch: Figure | None = None,
) -> bool:
    """Whether the model may stand at ``point``: on passable ground, touching nobody (the
    contact rule; ``touch``: the target of its charge, which it may touch, never overlap)."""
    if not on_ground(game, figure, point):
        return False
    skip = {figure.id, *besides, *([touch.id] if touch else [])}
    allowed = [touch.base] if touch else []
    return clear_of([figure.base.moved_to(point)], bodies(game, skip), may_touch=allowed)


def way(game: OldWestGame, figure: Figure, goal: Point) -> Way | None:
    """How the model gets to ``goal``: straight, or the cheapest way round (None: none)."""
    return game.tape.way(
        figure.base.centre, goal, figure.mover, clearance(figure), detour_step=DETOUR_STEP
    )


def walk(game: OldWestGame, figure: Figure, found: Way, allowance: float) -> Way:
    """How far along ``found`` the model gets with ``allowance`` inches of move."""
    moved = game.tape.reach(found.points, allowance, figure.mover, clearance(figure))
    return Way(along(found.points, moved.distance), moved.cost)


def settled(
    game: OldWestGame, figure: Figure, points: Sequence[Point], touch: Figure | None = None
) -> Point | None:
    """Where a move along ``points`` ends by the contact rule (``touch``: a charge's
    target, which the model may end touching); None when no point of it is clear."""
    skip = [figure.id, *([touch.id] if touch else [])]
    return settle(
        points,
        lambda p: [figure.base.moved_to(p)],
        bodies(game, skip),
        may_touch=[touch.base] if touch else (),
    )


def distance_along(points: Sequence[Point], spot: Point) -> float:
    """Inches from the start of a path to ``spot`` on it (rounded to 0.1)."""
    if len(points) < 2:
        return 0.0
    if type(points) is tuple:  # (a kept way's points, asked again by the next menu)
        return _located(points, spot)
    return _locate(points, spot)


@lru_cache(maxsize=1024)
def _located(points: tuple[Point, ...], spot: Point) -> float:
    return _locate(points, spot)


def _locate(points: Sequence[Point], spot: Point) -> float:
    # shapely's LineString(points).project(Point(spot)) without the geometry classes'
    # checks: the same GEOS geometries and call (a move's menu asks it of every place)
    line = shapely_lib.linestrings(np.array(points, dtype=float), _NAN_ALLOWED)
    at = shapely_lib.points(np.array(spot, dtype=float), _NAN_ALLOWED)
    return round(float(shapely_lib.line_locate_point(line, at)), 1)


def enemy_gap(game: OldWestGame, figure: Figure, spot: Point) -> float:
    """How near the model would stand to an enemy at ``spot`` (edge to edge on the tape,
    inches; 1e9 with no enemy left)."""
    enemies = [e.base for e in game.enemies(figure)]
    return game.tape.closest([figure.base.moved_to(spot)], enemies) if enemies else 1e9


def nearest_enemy(game: OldWestGame, figure: Figure) -> Figure:
    """The enemy nearest the model where it stands, edge to edge on the tape (between
    equally near ones, the first by id)."""
    return min(
        game.enemies(figure), key=lambda e: (game.tape.closest([figure.base], [e.base]), e.id)
    )


def away_from(origin: Point, threats: Sequence[Point], distance: float, turn: float = 0.0) -> Point:
    """The point ``distance`` inches from ``origin`` away from the threats' middle, turned
    by ``turn`` degrees."""
    mx = sum(p[0] for p in threats) / len(threats)
    my = sum(p[1] for p in threats) / len(threats)
    heading = math.atan2(origin[1] - my, origin[0] - mx) + math.radians(turn)
    return (origin[0] + math.cos(heading) * distance, origin[1] + math.sin(heading) * distance)


#: The directions round a target a charger tries, in 15° steps from the side facing him.
_CONTACT_STEPS = (0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6, 8, -8, 10, -10, 12)
#: The nudges (inches) onto the 0.1-inch grid round an ideal place, in the order tried.
_NUDGES = (0.0, 0.1, -0.1)


def contact_spots(game: OldWestGame, figure: Figure, target: Figure) -> tuple[Point, ...]:
    """Places on the 0.1-inch grid where the model's base touches ``target``'s (never
    overlapping it), the side facing the model first, then round the target; at the
    target's height (across a cliff face models do not touch). They depend on the table
    and the two bases alone, so each set is kept with the table."""
    cliff = battle_number("cliff_inches")
    one, other = figure.base, target.base
    return game.tape.kept(
        "old_west.contact_spots",
        (one.x, one.y, one.diameter, other.x, other.y, other.diameter, cliff),
        lambda: _contact_spots(game, one, other, cliff),
    )


def _contact_spots(game: OldWestGame, mover: Base, target: Base, cliff: float) -> tuple[Point, ...]:
    reach = target.radius + mover.radius
    heading = math.atan2(mover.y - target.y, mover.x - target.x)
    height = game.tape.elevation(target.centre)
    found: list[Point] = []
    centre = target.centre
    dist = math.dist
    for step in _CONTACT_STEPS:
        angle = heading + math.radians(step * 15)
        ideal = (centre[0] + reach * math.cos(angle), centre[1] + reach * math.sin(angle))
        # the grid points round the ideal place, each coordinate rounded once
        xs = [round(ideal[0] + d, 1) for d in _NUDGES]
        ys = [round(ideal[1] + d, 1) for d in _NUDGES]
        best: Point | None = None
        best_off = 0.0  # how far ``best`` lies from the ideal place
        for x in xs:
            for y in ys:
                spot = (x, y)
                gap = dist(spot, centre) - reach
                if -1e-6 <= gap <= GAP - 1e-9:
                    off = dist(spot, ideal)
                    if best is None or off < best_off:
                        best, best_off = spot, off
        if (
            best is not None
            and best not in found
            and abs(game.tape.elevation(best) - height) <= cliff
        ):
            found.append(best)
    return tuple(found)


def charge_way(game: OldWestGame, figure: Figure, target: Figure, allowance: float) -> Way | None:
    """The cheapest way into base contact with ``target`` the model can walk: it ends
    touching the target and nobody else, and its cost is within ``allowance`` (None: no
    such way; a charge that could not reach)."""
    here = figure.base.centre
    around = 2 * (target.base.radius + figure.base.radius) + 1.0
    for spot in contact_spots(game, figure, target):
        if math.dist(here, spot) > allowance + SLACK or not fits(game, figure, spot, touch=target):
            continue  # a way is never shorter than the straight line
        found = way(game, figure, spot)
        if found is None:
            continue
        if found.cost > allowance + SLACK:
            if found.cost > allowance + SLACK + around:
                break  # every other place round him is as far, give or take his width
            continue
        if settled(game, figure, found.points, touch=target) == spot:
            return found
    return None


@dataclass(frozen=True, slots=True)
class WayBack:
    """How a loser can back off, as the table measures it: ``spot`` where a lawful 1" way
    back ends (None: no room, OW-CC-09); at a cliff edge with no other way back,
    ``cliff_drop`` inches down to ``below``, where he lands (OW-CC-09, OW-ABSENT-05)."""

    spot: Point | None
    cliff_drop: int = 0
    below: Point | None = None

    @property
    def room(self) -> bool:
        """A lawful way back exists."""
        return self.spot is not None


def way_back(
    game: OldWestGame, loser: Figure, opponents: Sequence[Figure], at: Point | None = None
) -> WayBack:
    """The loser's way back 1" from his opponents (``at``: where he would stand, if not
    where he is): straight away from them, else turned aside as far as the data allows;
    each way is the rule's to judge (:func:`~kubik.rulesets.old_west.backing_off.back_off_path`:
    the full 1", touching no other enemy, no jump or climb)."""
    from kubik.rulesets.old_west.backing_off import BackOffPath, back_off_path

    here = at if at is not None else loser.base.centre
    mover = loser.base.moved_to(here)
    inches = number("close_combat", "back_off_inches") + SLACK
    threats = [o.base.centre for o in opponents]
    cliff = battle_number("cliff_inches")
    height = game.tape.elevation(here)
    edge: WayBack | None = None
    turns = [0.0, *(float(a) for a in data()["battle"]["back_off_angles"])]
    for turn in turns:
        spot = rounded(away_from(here, threats, inches + 0.05, turn))
        path = (here, spot)
        if any(math.dist(spot, t) <= math.dist(here, t) for t in threats):
            continue
        if not game.table.on_table(spot):
            continue
        crossed = game.tape.crossed(path)
        if edge is None and crossed and height - game.tape.elevation(spot) > cliff:
            edge = _over_the_edge(game, loser, here, threats, turn, height)
            continue
        if not on_ground(game, loser, spot):
            continue
        if not math.isfinite(game.tape.cost(path, loser.mover, clearance(loser))):
            continue
        base = mover.moved_to(spot)
        touches_enemy = any(
            touching(base, e.base) for e in game.enemies(loser) if e not in opponents
        )
        verdict = back_off_path(BackOffPath(math.dist(here, spot), touches_enemy, bool(crossed)))
        if not verdict.allowed:
            continue
        others = bodies(game, [loser.id, *(o.id for o in opponents)])
        if clear_of([base], others):
            return WayBack(spot)
    return edge if edge is not None else WayBack(None)


def _over_the_edge(
    game: OldWestGame,
    loser: Figure,
    here: Point,
    threats: Sequence[Point],
    turn: float,
    height: float,
) -> WayBack | None:
    """Where a loser backing off over a cliff edge lands: the first clear place below it,
    straight on (None: nowhere)."""
    inches = number("close_combat", "back_off_inches")
    for extra in (0.0, 0.5, 1.0, 1.5, 2.0):
        spot = rounded(away_from(here, threats, inches + extra + 0.1, turn))
        if on_ground(game, loser, spot) and fits(game, loser, spot):
            drop = height - game.tape.elevation(spot)
            return WayBack(None, max(1, round(drop)), spot)
    return None


def make_way(
    game: OldWestGame, loser: Figure, opponents: Sequence[Figure]
) -> tuple[Point, tuple[tuple[Figure, Point], ...]] | None:
    """Where a trapped loser ends out of contact, the others shuffling aside (OW-CC-09):
    the nearest place out of every enemy's reach that he gets to without a jump or a
    climb, and for each model in the way (not in a fight) a place it shuffles to.
    None when even that fails (he stays where he is, still in the fight)."""
    here = loser.base.centre
    threats = [o.base.centre for o in opponents]
    directions = int(battle_number("make_way_directions"))
    limit = battle_number("make_way_inches")
    radius = number("close_combat", "back_off_inches") + SLACK
    turns = sorted(
        (360.0 * k / directions for k in range(directions)),
        key=lambda a: (min(a, 360.0 - a), a),
    )
    while radius <= limit + 1e-9:
        for turn in turns:
            spot = rounded(away_from(here, threats, radius + 0.05, turn))
            found = _room_at(game, loser, here, spot)
            if found is not None:
                return spot, found
        radius += 0.5
    return None


def _room_at(
    game: OldWestGame, loser: Figure, here: Point, spot: Point
) -> tuple[tuple[Figure, Point], ...] | None:
    """The shuffles that make room for the loser at ``spot`` (None: no room there)."""
    if not on_ground(game, loser, spot) or game.tape.crossed((here, spot)):
        return None  # off the table, in a wall, or over an obstacle
    if not math.isfinite(game.tape.cost((here, spot), loser.mover, clearance(loser))):
        return None
    base = loser.base.moved_to(spot)
    if any(touching(base, e.base) for e in game.enemies(loser)):
        return None
    blocking = [
        f
        for f in game.figures
        if f.in_action and f.id != loser.id and f.side == loser.side and touching(base, f.base)
    ]
    if any(game.engaged(f) for f in blocking):
        return None
    moves: list[tuple[Figure, Point]] = []
    taken = [base]
    for other in blocking:
        aside = _aside(game, other, taken, [loser.id, *(f.id for f in blocking)])
        if aside is None:
            return None
        moves.append((other, aside))
        taken.append(other.base.moved_to(aside))
    return tuple(moves)


def _aside(
    game: OldWestGame, figure: Figure, taken: Sequence[Base], moving: Sequence[str]
) -> Point | None:
    """The nearest clear place (within 2") a model shuffles aside to."""
    here = figure.base.centre
    for radius in (0.5, 1.0, 1.5, 2.0):
        for k in range(12):
            angle = math.radians(30 * k)
            spot = rounded((here[0] + radius * math.cos(angle), here[1] + radius * math.sin(angle)))
            if not on_ground(game, figure, spot) or game.tape.crossed((here, spot)):
                continue
            base = figure.base.moved_to(spot)
            if clear_of([base], [*bodies(game, moving), *taken]):
                return spot
    return None


def cover_spots(game: OldWestGame, figure: Figure) -> tuple[Point, ...]:
    """Places that give cover: inside enterable cover (a barrel pile, a porch) and just
    beside buildings and fences, every 2 inches round them. They depend on the table and
    the model's mover type and base alone, so each set is found once per table."""
    return game.tape.kept(
        "old_west.cover_spots",
        (figure.mover, figure.base.diameter),
        lambda: _cover_spots(game, figure),
    )


def _cover_spots(game: OldWestGame, figure: Figure) -> tuple[Point, ...]:
    gap = battle_number("cover_gap_inches")
    radius = clearance(figure)
    spots: list[Point] = []
    for feature in game.table.features:
        if feature.cover is Cover.NONE:
            continue
        if feature.is_area and feature.kind_for(figure.mover) is not TerrainKind.IMPASSABLE:
            inside = feature.shape.representative_point()
            spot = rounded((float(inside.x), float(inside.y)))
            if on_ground(game, figure, spot):
                spots.append(spot)
        spots.extend(game.tape.around(feature.id, radius, gap, figure.mover))
    return tuple(dict.fromkeys(spots))


def has_cover(game: OldWestGame, spot: Base, against: Base) -> bool:
    """Whether a model at ``spot`` has cover against a shooter at ``against``."""
    return game.tape.cover(against, spot) is not Cover.NONE


__all__ = [
    "SLACK",
    "WayBack",
    "away_from",
    "bodies",
    "charge_way",
    "clearance",
    "contact_spots",
    "cover_spots",
    "distance_along",
    "enemy_gap",
    "fits",
    "has_cover",
    "make_way",
    "nearest_enemy",
    "on_ground",
    "rounded",
    "settled",
    "walk",
    "way",
    "way_back",
]
