"""Moves on the table: where a move, a march or a combat move can take a unit, and the move.

Every move follows a way round impassable terrain (the tape's), is as long as the
unit's speed through the hardest terrain class it enters for that kind of unit
(SW-MOVE-02/03; a march doubles it on easy ground only, SW-MOVE-01; a combat move
rolls it, SW-ABSENT-02), and ends where :func:`kubik.game.battle.settle` says: never
through another model, never in contact with one. Whether the unit may make the move
at all is :func:`~kubik.rulesets.steel_war.movement.may_move`'s answer on the move
as an :class:`~kubik.rulesets.steel_war.morale_levels.Order` (where it goes: closer to
the enemy, away from it, into or out of cover).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from shapely.geometry import Point as ShapelyPoint
from shapely.ops import nearest_points

from kubik.core.keeping import Kept
from kubik.engine import Call, Procedure, emit
from kubik.engine.applied import deciding, replayed
from kubik.game.battle import Moment, Posture, Trigger, settle
from kubik.rulesets.steel_war.morale_levels import MoraleLevel, Order
from kubik.rulesets.steel_war.movement import (
    TerrainClass,
    combat_move,
    combat_move_dice,
    march_allowed,
    march_distance,
    move_distance,
)
from kubik.rulesets.steel_war.reaction import (
    ReactionAction,
    ReactionOutcome,
    reaction_rules,
    reaction_test,
    reaction_threat,
)
from kubik.table import CONTACT_TOLERANCE, Base, Cover, TerrainFeature
from kubik.table.geometry import Point
from kubik.table.tape import Way

from . import effects
from .board import Battlefield
from .formation import clamp_inside, edge_distance_of, edge_point, game_data, inches
from .options import MoveHow, MoveKind
from .state import Gone, Squad
from .terrain import RULE_CLASS


def clearance(squad: Squad) -> float:
    """How far the unit reaches from its centre, bases included (the width of its way)."""
    living = squad.active()
    if not living:
        return 0.5
    return max(math.dist(m.point, squad.centre) + m.diameter / 2 for m in living)


def width_of(game: Battlefield, squad: Squad) -> float:
    """:func:`clearance`, measured once while a menu is (every move of it asks)."""
    return game.kept(("clearance", squad.id), lambda: clearance(squad))


def bases_at(squad: Squad) -> Callable[[Point], list[Base]]:
    """The unit's bases were its centre at a point (it moves as it stands)."""
    cx, cy = squad.centre
    shape = [(m.x - cx, m.y - cy, m.diameter, m.id) for m in squad.active()]
    here: list[Base] = []  # the bases where it stands (every move of a menu starts there)

    def at(point: Point) -> list[Base]:
        if point[0] == cx and point[1] == cy:
            if not here:
                here.extend(Base(cx + dx, cy + dy, d, i) for dx, dy, d, i in shape)
            return list(here)
        return [Base(point[0] + dx, point[1] + dy, d, i) for dx, dy, d, i in shape]

    return at


def mover(game: Battlefield, squad: Squad) -> str:
    """The table's mover type for the unit (its row of the terrain table)."""
    return game.kind(squad)._value_  # (``.value``, without the enum property's call)


def terrain_class(game: Battlefield, squad: Squad, path: Sequence[Point]) -> TerrainClass:
    """The hardest terrain class the way enters for this kind of unit: the whole move goes
    at its pace (SW-MOVE-02 default, SW-MOVE-03)."""
    return RULE_CLASS[game.tape.worst_kind(tuple(path), mover(game, squad), width_of(game, squad))]


def length_to(path: Sequence[Point], point: Point) -> float:
    """How far along ``path`` the ``point`` (on it, rounded to 0.1") lies."""
    walked = 0.0
    best = (math.inf, 0.0)
    for p, q in itertools.pairwise(path):
        seg = math.dist(p, q)
        if seg == 0:
            continue
        t = ((point[0] - p[0]) * (q[0] - p[0]) + (point[1] - p[1]) * (q[1] - p[1])) / seg**2
        t = min(max(t, 0.0), 1.0)
        foot = (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)
        gap = math.dist(foot, point)
        if gap < best[0] - 1e-9:
            best = (gap, walked + seg * t)
        walked += seg
    return best[1]


def settle_on(
    game: Battlefield, squad: Squad, path: Sequence[Point], touch: Sequence[Squad] = ()
) -> Point | None:
    """Where the unit's move along ``path`` ends by the contact rule; the bases of
    ``touch`` (a charge's target) may be touched, never overlapped."""
    skip = (squad.id, *(s.id for s in touch), *(s.id for s in game.passengers(squad)))
    touched = [b for s in touch for b in s.bases()]
    return settle(path, bases_at(squad), game.others(*skip), may_touch=touched)


def _settle_from_here(
    game: Battlefield, squad: Squad, path: Sequence[Point], key: Hashable, unit: _Unit
) -> Point | None:
    """:func:`settle_on` for a move from where the unit stands (a menu's moves): the
    models out of reach of any way that long are left out once per menu, not per move
    (the contact rule looks only at those near the way: the answer is the same).
    ``key``: names ``path`` (a move's course), so the answer is kept while the unit and
    the models beside that path stand where they stood (models elsewhere may move)."""
    length = sum(math.dist(p, q) for p, q in itertools.pairwise(path))
    if not path or length > _reach_of(unit.speed) or tuple(path[0]) != squad.centre:
        return settle_on(game, squad, path)
    near = _near_of(game, squad, unit.speed)
    if not game.measuring:
        return settle(path, _bases_at(game, squad), near, may_touch=[])
    beside = _beside(path, near, unit.width)
    if not beside:  # no base near the way: the contact rule lets it end at its end
        last = path[-1]
        return (round(last[0], 1), round(last[1], 1))
    return game.lasting(  # (the rule is asked of those beside alone: it meets no other)
        ("settle", game.shape(squad), tuple([(b.x, b.y, b.radius) for b in beside]), key),
        lambda: settle(path, _bases_at(game, squad), beside, may_touch=[]),
    )


#: More than the contact rule's reach beyond a moving unit's own (its gap and the
#: rounding of a spot to 0.1"), so no base it may meet is left out of :func:`_beside`.
_BESIDE_SLACK = CONTACT_TOLERANCE + 0.5


def _beside(path: Sequence[Point], near: Sequence[Base], width: float) -> list[Base]:
    """The bases of ``near`` that stand beside ``path``, in their order (those within the
    unit's ``width`` and their own radius, and a margin, of the path's box): the contact
    rule meets no other base on the way, so its answer holds while these stand where
    they stood."""
    xs = [p[0] for p in path]
    ys = [p[1] for p in path]
    low_x, high_x, low_y, high_y = min(xs), max(xs), min(ys), max(ys)
    reach = width + _BESIDE_SLACK
    return [
        b
        for b in near
        if low_x - reach - b.radius <= b.x <= high_x + reach + b.radius
        and low_y - reach - b.radius <= b.y <= high_y + reach + b.radius
    ]


def _bases_at(game: Battlefield, squad: Squad) -> Callable[[Point], list[Base]]:
    """:func:`bases_at`, made once while a menu is measured."""
    return game.kept(("bases_at", squad.id), lambda: bases_at(squad))


def _near_others(game: Battlefield, squad: Squad, length: float) -> tuple[Base, ...]:
    """The bases of :func:`settle_on`'s others within reach of a way of at most ``length``
    inches from the unit's centre, in their order (a generous margin: none is lost)."""
    skip = (squad.id, *(s.id for s in game.passengers(squad)))
    centre = squad.centre
    reach = clearance(squad) + CONTACT_TOLERANCE + 0.1 + length + 0.01
    dist = math.dist  # (each model measured from its fields: a base made only for the near)
    return tuple(
        m.base()
        for m in game.other_models(*skip)
        if dist((m.x, m.y), centre) <= reach + m.diameter / 2
    )


def enemy_points(game: Battlefield, squad: Squad) -> list[Point]:
    """The enemy models' centres (gathered once while a menu is measured, and only when
    a measurement needs them)."""
    return game.kept(
        ("enemy_points", squad.side),
        lambda: [m.point for e in game.enemies(squad) for m in e.active()],
    )


def distance_to_enemy(
    game: Battlefield, squad: Squad, point: Point, enemies: Sequence[Point] | None = None
) -> float | None:
    """Centre-to-closest-enemy-model distance from a point (for comparing moves);
    ``enemies``: the enemy models' centres, when the caller has them already. Measured
    once per point while a menu is (a move's order and its score both ask it)."""
    return game.kept(
        ("enemy_distance_at", squad.side, point),
        lambda: _distance_to_enemy(game, squad, point, enemies),
    )


def _distance_to_enemy(
    game: Battlefield, squad: Squad, point: Point, enemies: Sequence[Point] | None
) -> float | None:
    if enemies is None:
        enemies = enemy_points(game, squad)
    if not enemies:
        return None
    return min(map(math.dist, itertools.repeat(point), enemies))


def enemy_distance_now(
    game: Battlefield, squad: Squad, enemies: Sequence[Point] | None = None
) -> float | None:
    """:func:`distance_to_enemy` from where the unit stands (measured once per menu)."""
    return game.kept(
        ("enemy_distance", squad.id),
        lambda: distance_to_enemy(game, squad, squad.centre, enemies),
    )


@functools.cache
def _min_move() -> float:
    """The shortest move worth offering, in inches (a bot's taste; read once)."""
    return float(game_data()["game_moves"]["min_inches"])


@functools.cache
def _cover_depth() -> float:
    """How deep inside cover a move to it aims, in inches (read once)."""
    return float(game_data()["game_moves"]["cover_depth_inches"])


def _nearest_cover(game: Battlefield, squad: Squad) -> Point | None:
    """The nearest point inside a feature giving cover that the unit is not already in."""
    centre = squad.centre
    depth = _cover_depth()
    kind = mover(game, squad)
    return game.tape.kept(
        "steel_war.nearest_cover",
        (centre, depth, kind),
        lambda: _nearest_cover_from(game, centre, depth, kind),
    )


def _nearest_cover_from(game: Battlefield, centre: Point, depth: float, kind: str) -> Point | None:
    """The nearest cover's spot (the first feature in table order among equally near
    ones); features are measured nearest box first, and those whose box lies farther
    than the nearest spot found (by more than a spot's rounding) are not measured."""
    here = tuple(f.id for f in game.table.features_at(centre))
    found: list[tuple[float, int, TerrainFeature]] = []
    for index, feature in enumerate(game.table.features):
        if not feature.is_area or feature.cover is Cover.NONE or feature.id in here:
            continue
        if feature.kind_for(kind).value == "impassable":
            continue
        found.append((_box_distance(feature.shape.bounds, centre), index, feature))
    found.sort(key=lambda item: (item[0], item[1]))
    best: tuple[float, int, Point] | None = None
    for reach, index, feature in found:
        if best is not None and reach - _SPOT_ROUNDING > best[0]:
            break  # no spot of this feature, or of any after it, comes as near
        inside = _inside(game, feature, depth)
        target = inside if not inside.is_empty else feature.shape
        spot = _closest_point(target, centre)
        d = math.dist(spot, centre)
        if best is None or (d, index) < (best[0], best[1]):
            best = (d, index, spot)
    return None if best is None else best[2]


#: More than a spot rounded to 0.1" may lie nearer than the point it stands for.
_SPOT_ROUNDING = 0.08


def _box_distance(bounds: tuple[float, float, float, float], point: Point) -> float:
    """How far ``point`` is from a bounding box (0 inside it): no point in the box is nearer."""
    x0, y0, x1, y1 = bounds
    dx = max(x0 - point[0], 0.0, point[0] - x1)
    dy = max(y0 - point[1], 0.0, point[1] - y1)
    return math.hypot(dx, dy)


def _inside(game: Battlefield, feature: TerrainFeature, depth: float) -> Any:
    """The part of a feature at least ``depth`` inside it (kept with the table)."""
    return game.table.cached(
        ("steel_war.cover_inside", feature.id, depth), lambda: feature.shape.buffer(-depth)
    )


def _closest_point(shape: Any, point: Point) -> Point:
    found = nearest_points(shape, ShapelyPoint(point))[0]
    return (round(float(found.x), 1), round(float(found.y), 1))


def goals(
    game: Battlefield, squad: Squad, near: tuple[Squad, float] | None = None
) -> list[tuple[MoveKind, Point]]:
    """Where a move may head: the nearest enemy (``near``, when the caller has it), the
    nearest cover, an objective not held, the own table edge."""
    found: list[tuple[MoveKind, Point]] = []
    near = near or game.nearest_enemy(squad)
    if near is not None:
        found.append((MoveKind.ADVANCE, near[0].centre))
    if not squad.is_vehicle:
        cover = _nearest_cover(game, squad)
        if cover is not None:
            found.append((MoveKind.COVER, cover))
    for objective in game.objectives:
        if game.controller(objective) != squad.side:
            found.append((MoveKind.OBJECTIVE, (objective.x, objective.y)))
            break
    found.append((MoveKind.RETREAT, edge_point(game.table, squad.edge, squad.centre)))
    return found


@dataclass(frozen=True, slots=True)
class Plan:
    """A move worked out: its way, the class of its terrain, where it ends, how far."""

    way: tuple[Point, ...]
    terrain: TerrainClass
    end: Point
    moved: float


def cut(path: Sequence[Point], length: float) -> tuple[Point, ...]:
    """The first ``length`` inches of ``path`` (the whole path if it is shorter): as
    :func:`kubik.table.tape.along`, by plain interpolation."""
    points = tuple((float(x), float(y)) for x, y in path)
    if len(points) < 2 or length <= 0:
        return (points[0], points[0])
    out = [points[0]]
    left = length
    for p, q in itertools.pairwise(points):
        d = math.dist(p, q)
        if d >= left:
            t = left / d if d else 0.0
            out.append((p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t))
            return tuple(out)
        out.append(q)
        left -= d
    return tuple(out)


def longest_roll() -> float:
    """The most a combat move's dice can give (2d6: 12", SW-ABSENT-02)."""
    return float(sum(d.faces for d in combat_move_dice()))


def farthest(
    game: Battlefield, squad: Squad, path: Sequence[Point], how: MoveHow, speed: int
) -> tuple[TerrainClass, float] | None:
    """How far along ``path`` the move may go, and the terrain class that governs it.

    The whole move goes at the pace of the hardest class it enters (SW-MOVE-02 default),
    by the unit's row of the terrain table (SW-MOVE-03): the unit may stop short of harder
    ground at its full pace, or go into it at that ground's pace — whichever takes it
    farther. A march stays on easy ground (SW-MOVE-01); a combat move's class is that of
    the ground its longest roll would cross (its dice set the distance)."""
    if how is MoveHow.COMBAT:
        cls = terrain_class(game, squad, path)
        return None if cls is TerrainClass.IMPASSABLE else (cls, longest_roll())
    order = list(TerrainClass)
    best: tuple[TerrainClass, float] | None = None
    worst, walked = TerrainClass.EASY, 0.0

    def consider(cls: TerrainClass, upto: float) -> None:
        nonlocal best
        if cls is TerrainClass.IMPASSABLE:
            return
        if how is MoveHow.MARCH:
            if not march_allowed([cls]):
                return
            allowance = float(march_distance(speed, [cls]))
        else:
            allowance = float(move_distance(speed, [cls]))
        reach = min(upto, allowance)
        if best is None or reach > best[1] + 1e-9:
            best = (cls, reach)

    legs = (
        game.tape.legs(tuple(path), mover(game, squad), width_of(game, squad))
        if len(path) > 1
        else ()
    )
    for leg in legs:
        cls = RULE_CLASS[leg.kind]
        if order.index(cls) > order.index(worst):
            consider(worst, walked)
            worst = cls
        walked += leg.length
    consider(worst, walked)
    return best


def plan(
    game: Battlefield,
    squad: Squad,
    kind: MoveKind,
    goal: Point,
    how: MoveHow,
    near: tuple[Squad, float] | None = None,
) -> Plan | None:
    """Where a move of this kind toward ``goal`` takes the unit now, or None if it cannot
    go there (impassable, no march off easy ground, less than the smallest move). A combat
    move's end is where its longest roll would take it (its dice decide). ``near``: the
    nearest enemy, when the caller has it (an advance stops short of it)."""
    if kind is MoveKind.ADVANCE:
        near = near or game.nearest_enemy(squad)
    toward = near[0] if near and kind is MoveKind.ADVANCE else None
    return game.lasting_of(
        lambda: (
            "plan",
            game.shape(squad),
            None if how is MoveHow.COMBAT else _near_board(game, squad, _unit(game, squad).speed),
            kind,
            goal,
            how,
            None if toward is None else game.shape(toward),
        ),
        lambda: _plan(game, squad, kind, goal, how, near),
    )


def menu_plans(
    game: Battlefield, squad: Squad, near: tuple[Squad, float] | None
) -> list[tuple[MoveKind, Point, MoveHow, Plan]]:
    """The moves a menu offers, each :func:`plan`'s (kept under the same key): toward
    each of :func:`goals` a move, a march and a combat move — to cover a move alone, a
    vehicle no combat move, and a march only where the move went its full speed and
    only if it goes farther. ``near``: the nearest enemy. What every plan's key reads of
    the unit and of the models near it is read once here, not per goal and way."""
    unit = _unit(game, squad)
    shape = game.shape(squad)
    board = _near_board(game, squad, unit.speed)
    vehicle = squad.is_vehicle
    full = unit.speed - 0.05
    out: list[tuple[MoveKind, Point, MoveHow, Plan]] = []
    for kind, goal in goals(game, squad, near):
        toward = game.shape(near[0]) if near and kind is MoveKind.ADVANCE else None
        reached = 0.0
        for how in _HOWS:
            if how is not MoveHow.MOVE and kind is MoveKind.COVER:
                continue
            if how is MoveHow.COMBAT and vehicle:
                continue
            if how is MoveHow.MARCH and reached < full:
                continue  # the move stopped short of its speed: a march goes no farther
            found: Plan | None = game.lasting(
                ("plan", shape, None if how is MoveHow.COMBAT else board, kind, goal, how, toward),
                lambda: _plan(game, squad, kind, goal, how, near),  # noqa: B023 (called here)
            )
            if found is None or (how is MoveHow.MARCH and found.moved <= reached):
                continue  # (a march no farther than the move is not worth offering too)
            if how is MoveHow.MOVE:
                reached = found.moved
            out.append((kind, goal, how, found))
    return out


#: The ways to move, in the order a menu offers them.
_HOWS = tuple(MoveHow)


def _near_board(game: Battlefield, squad: Squad, speed: int) -> int:
    """Where the models a move of the unit from where it stands may meet stand, as a
    number (:meth:`~kubik.game.battle.BattleGame.shape_id`; once per menu): a plan reads
    the unit, the enemy it advances on and these alone (its way is the terrain's, and
    every path a plan settles starts at the unit and is shorter than the reach of
    :func:`_near_others`), so models elsewhere may move and the plan still holds."""
    return game.kept(
        ("near_board", squad.id),
        lambda: game.shape_id(
            ("near", tuple([(b.x, b.y, b.radius) for b in _near_of(game, squad, speed)]))
        ),
    )


def _near_of(game: Battlefield, squad: Squad, speed: int) -> tuple[Base, ...]:
    """:func:`_near_others` within reach of any way a plan settles (a march's, at most
    twice the unit's ``speed``), measured once per menu."""
    bound = _reach_of(speed)
    return game.kept(("near_others", squad.id, bound), lambda: _near_others(game, squad, bound))


def _reach_of(speed: int) -> float:
    """More than the longest path a plan settles (a march's, twice the unit's ``speed``)."""
    return 2.0 * speed + 1.0


@dataclass(frozen=True, slots=True)
class _Unit:
    """What every move a menu plans reads of the unit: how wide it is (:func:`width_of`),
    its row of the terrain table (:func:`mover`) and its speed."""

    width: float
    mover: str
    speed: int


def _unit(game: Battlefield, squad: Squad) -> _Unit:
    """The unit as its moves see it, measured once per menu (every goal and way asks)."""
    key = ("move_unit", squad.id)
    found: _Unit | None = game.kept_now(key)
    if found is None:
        found = game.kept(
            key, lambda: _Unit(width_of(game, squad), mover(game, squad), game.speed(squad))
        )
    return found


def _plan(
    game: Battlefield,
    squad: Squad,
    kind: MoveKind,
    goal: Point,
    how: MoveHow,
    near: tuple[Squad, float] | None,
) -> Plan | None:
    """:func:`plan`, measured (it depends on where every model stands alone)."""
    unit = _unit(game, squad)
    reach = unit.width
    stop = None
    if kind is MoveKind.ADVANCE:
        stop = reach + (width_of(game, near[0]) if near else 0.0) + 1.0
    key = (squad.centre, goal, reach, unit.mover, stop, how, unit.speed)
    course = replayed(  # (the tape is the table's, kept for every game on it)
        game.tape.kept(
            "steel_war.course",
            key,
            lambda: deciding(lambda: _course(game, squad, goal, how, reach, stop)),
        )
    )
    if course is None:
        return None
    way, cls, path = course
    if how is MoveHow.COMBAT:
        end = (round(path[-1][0], 1), round(path[-1][1], 1))
        return Plan(way.points, cls, end, inches(length_to(path, end)))
    found = _settle_from_here(game, squad, path, key, unit)
    if found is None:
        return None
    moved = inches(length_to(path, found))
    if moved < _min_move():
        return None
    return Plan(way.points, cls, found, moved)


def _course(
    game: Battlefield, squad: Squad, goal: Point, how: MoveHow, reach: float, stop: float | None
) -> tuple[Way, TerrainClass, tuple[Point, ...]] | None:
    """The terrain side of :func:`plan`, which depends on where the unit stands, how wide
    and what kind it is, the goal and the kind of move alone (kept on the tape): its way,
    the class of its terrain, the path its allowance covers."""
    goal = clamp_inside(game.table, goal, reach)
    way = game.tape.way(squad.centre, goal, mover(game, squad), reach)
    if way is None:
        return None
    length = way.length
    if stop is not None:
        length = max(length - stop, 0.0)
    speed = game.speed(squad)
    longest = (
        2 * speed
        if how is MoveHow.MARCH
        else (longest_roll() if how is MoveHow.COMBAT else float(speed))
    )
    pace = farthest(game, squad, cut(way.points, min(length, longest)), how, speed)
    if pace is None:
        return None
    cls, allowance = pace
    return way, cls, cut(way.points, min(length, allowance))


def order_for(
    game: Battlefield,
    squad: Squad,
    end: Point,
    kind: MoveKind,
    how: MoveHow,
    enemies: Sequence[Point] | None = None,
    in_cover: bool | None = None,
) -> Order:
    """The move as the morale and suppression rules see it (SW-MOR-01, SW-SUP-01);
    ``enemies``, ``in_cover``: what the caller measured already."""
    return game.lasting_of(
        lambda: (
            "order",
            game.shape(squad),
            game.enemy_board(squad),
            end,
            kind,
            how,
            in_cover,
        ),
        lambda: _order_for(game, squad, end, kind, how, enemies, in_cover),
    )


def _order_for(
    game: Battlefield,
    squad: Squad,
    end: Point,
    kind: MoveKind,
    how: MoveHow,
    enemies: Sequence[Point] | None,
    in_cover: bool | None,
) -> Order:
    if enemies is None:
        enemies = enemy_points(game, squad)
    now = enemy_distance_now(game, squad, enemies)
    after = distance_to_enemy(game, squad, end, enemies)
    closer = now is not None and after is not None and after < now
    end_cover = game.tape.standing(end) is not Cover.NONE
    covered = game.in_cover(squad) if in_cover is None else in_cover
    flags = (
        how.action,
        closer,
        now is None or (after is not None and after > now),
        kind is MoveKind.RETREAT,
        kind is MoveKind.COVER and end_cover,
        covered and not end_cover,
    )
    found = _ORDERS.get(flags)  # (the few orders there are, each kept as one object: the
    if found is None:  # movement rule's remembered verdicts find it without comparing)
        action, approaches, away, edge, to_cover, leaves = flags
        order = Order(
            action,
            approaches_enemy=approaches,
            away_from_enemy=away,
            toward_own_edge=edge,
            toward_cover=to_cover,
            leaves_cover=leaves,
        )
        found = _ORDERS.keep(flags, order)
    return found


#: The orders of moves met by their flags, each kept as one object (a handful of them).
_ORDERS: Kept[tuple[object, ...], Order] = Kept(256)


def cover_score(cover: Cover) -> float:
    """What standing in cover is worth to a bot."""
    from .forecast import weight

    if cover is Cover.HARD:
        return weight("hard_cover")
    return weight("light_cover") if cover is Cover.LIGHT else 0.0


def react(game: Battlefield, squad: Squad, action: ReactionAction) -> Procedure[bool]:
    """A reaction test (SW-REACT-01/02); a failure bars the act for the rest of the turn."""
    outcome: ReactionOutcome = yield Call(
        reaction_test,
        (
            squad.die,
            squad.leadership,
            reaction_threat(action),
            squad.berserk,
            reaction_rules(action),
        ),
    )
    if not outcome.passed:
        squad.failed = squad.failed.add(action)
        yield emit(
            "steel_war.game.reaction_failed",
            rules=("SW-REACT-01",),
            squad=game.name(squad.id),
            action=action,
        )
    elif action is ReactionAction.MOVE_WHILE_DOWN:
        squad.posture = Posture.STANDING
    return outcome.passed


def take_tests(game: Battlefield, squad: Squad, tests: Sequence[ReactionAction]) -> Procedure[bool]:
    """The reaction tests an act needs, in the order the rules gave them: the first
    failure stops it (SW-REACT-01)."""
    for test in tests:
        if not (yield from react(game, squad, test)):
            return False
    return True


def rolled_path(
    game: Battlefield, squad: Squad, goal: Point, kind: MoveKind
) -> tuple[tuple[Point, ...], TerrainClass] | None:
    """The way a combat move toward ``goal`` takes, and its terrain class."""
    found = plan(game, squad, kind, goal, MoveHow.COMBAT)
    if found is None:
        return None
    return found.way, found.terrain


def walk(game: Battlefield, squad: Squad, way: Sequence[Point], inches_: float) -> Point | None:
    """Where ``inches_`` along ``way`` the contact rule lets the unit stop."""
    return settle_on(game, squad, cut(way, inches_))


def arrive(game: Battlefield, squad: Squad, end: Point) -> Procedure[None]:
    """The unit stands at ``end`` (as it stood: its formation kept); riders go with a
    vehicle; a Broken or Fleeing squad at its own edge leaves the table; a fleeing one
    with an enemy near surrenders; and the other side sees it (first sight, SW-PANIC-02)."""
    squad.shift(end)
    for rider in game.passengers(squad):
        rider.place_models(end)
    at_edge = edge_distance_of(game.table, squad.edge, squad.centre)
    reach = clearance(squad) + float(game_data()["game_edge"]["leave_within_inches"])
    if squad.level in (MoraleLevel.BROKEN, MoraleLevel.FLEEING) and at_edge <= reach:
        yield from effects.remove(game, squad, Gone.ROUTED, ("SW-MOR-01",))
        return
    yield from effects.check_surrender(game, squad)
    yield from game.interrupts.fire(Moment(Trigger.MOVED, squad.side, squad.id, at=end))


def move_rules(how: MoveHow, terrain: TerrainClass) -> tuple[str, ...]:
    """The rules a move applies: its kind (SW-MOVE-01 march, SW-ABSENT-02 combat move) and
    the terrain by unit type (SW-MOVE-02/03)."""
    own = {MoveHow.MARCH: ("SW-MOVE-01",), MoveHow.COMBAT: ("SW-ABSENT-02",)}.get(how, ())
    return (*own, "SW-MOVE-03", *(("SW-MOVE-02",) if terrain is not TerrainClass.EASY else ()))


def roll_combat_move(terrain: TerrainClass) -> Call[int, TerrainClass]:
    """The combat move's dice (SW-ABSENT-02), halved or thirded by terrain (SW-MOVE-02)."""
    return Call(combat_move, (terrain,))


__all__ = [
    "Plan",
    "arrive",
    "bases_at",
    "clearance",
    "cover_score",
    "cut",
    "distance_to_enemy",
    "enemy_distance_now",
    "enemy_points",
    "goals",
    "length_to",
    "menu_plans",
    "move_rules",
    "mover",
    "order_for",
    "plan",
    "react",
    "roll_combat_move",
    "rolled_path",
    "settle_on",
    "take_tests",
    "terrain_class",
    "walk",
    "width_of",
]
