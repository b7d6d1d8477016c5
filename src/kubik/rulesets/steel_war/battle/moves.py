"""Moves on the table: where a move, a march or a combat move can take a unit, and the move.

Every move follows a way round impassable terrain (the tape's), is as long as the
unit's speed through the hardest terrain class it enters for that kind of unit
(SW-MOVE-02/03; a march doubles it on easy ground only, SW-MOVE-01; a combat move
rolls it, SW-ABSENT-02), and ends where the board's contact rule says
(:meth:`~kubik.game.battle.Board.settle`): never through another model, never in
contact with one. Whether the unit may make the move
at all is :func:`~kubik.rulesets.steel_war.movement.may_move`'s answer on the move
as an :class:`~kubik.rulesets.steel_war.morale_levels.Order` (where it goes: closer to
the enemy, away from it, into or out of cover).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from shapely.geometry import Point as ShapelyPoint
from shapely.ops import nearest_points

from kubik.core.keeping import Kept
from kubik.engine import Call, Procedure, emit
from kubik.engine.applied import deciding, replayed
from kubik.game.battle import Moment, Posture, Trigger, length_along
from kubik.rulesets.steel_war.defaults import (
    cover_depth_inches,
    leave_within_inches,
    shortest_move_inches,
)
from kubik.rulesets.steel_war.morale_levels import MoraleLevel, Order, level_orders
from kubik.rulesets.steel_war.movement import (
    TerrainClass,
    combat_move,
    combat_move_dice,
    combat_move_reaches,
    farthest_along,
)
from kubik.rulesets.steel_war.reaction import (
    ReactionAction,
    ReactionOutcome,
    reaction_rules,
    reaction_test,
    reaction_threat,
)
from kubik.table import Base, Cover, TerrainFeature
from kubik.table.geometry import Point
from kubik.table.tape import Way

from . import effects
from .board import clearance
from .field import Battlefield
from .formation import clamp_inside, edge_distance_of, edge_point, inches
from .options import Move, MoveHow, MoveKind
from .state import Gone, Squad
from .terrain import RULE_CLASS


def width_of(game: Battlefield, squad: Squad) -> float:
    """How far the unit reaches from its centre (the board's clearance), measured once
    while a menu is (every move of it asks)."""
    return game.board.clearance_of(squad)


def mover(game: Battlefield, squad: Squad) -> str:
    """The table's mover type for the unit (its row of the terrain table)."""
    return game.board.mover_of(squad)


def terrain_class(game: Battlefield, squad: Squad, path: Sequence[Point]) -> TerrainClass:
    """The hardest terrain class the way enters for this kind of unit: the whole move goes
    at its pace (SW-MOVE-02 default, SW-MOVE-03)."""
    return RULE_CLASS[game.tape.worst_kind(tuple(path), mover(game, squad), width_of(game, squad))]


def settle_on(
    game: Battlefield, squad: Squad, path: Sequence[Point], touch: Squad | None = None
) -> Point | None:
    """Where the unit's move along ``path`` ends by the contact rule (the board's); the
    bases of ``touch`` (a charge's target) may be touched, never overlapped."""
    return game.board.settle(squad, path, target=touch)


def enemy_points(game: Battlefield, squad: Squad) -> list[Point]:
    """The enemy models' centres (gathered once while a menu is measured, and only when
    a measurement needs them)."""
    return game.kept(
        ("enemy_points", squad.side),
        lambda: [m.point for e in game.board.enemies(squad) for m in e.active()],
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


def _nearest_cover(game: Battlefield, squad: Squad) -> Point | None:
    """The nearest point inside a feature giving cover that the unit is not already in."""
    centre = squad.centre
    depth = cover_depth_inches()
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
    """The first ``length`` inches of ``path`` (the whole path if it is shorter), by plain
    interpolation: :func:`kubik.table.tape.along` measures with shapely, whose last bit
    may differ where a move's end falls half way between two tenths of an inch, so Steel
    War's moves keep the arithmetic their games were played with."""
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
    legs = (
        game.tape.legs(tuple(path), mover(game, squad), width_of(game, squad))
        if len(path) > 1
        else ()
    )
    return farthest_along(
        [(RULE_CLASS[leg.kind], leg.length) for leg in legs],
        "march" if how is MoveHow.MARCH else "move",
        speed,
    )


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
            game.board.shape(squad),
            None
            if how is MoveHow.COMBAT
            else game.board.nearby_shape(squad, _reach_of(_unit(game, squad).speed)),
            kind,
            goal,
            how,
            None if toward is None else game.board.shape(toward),
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
    shape = game.board.shape(squad)
    board = game.board.nearby_shape(squad, _reach_of(unit.speed))
    vehicle = squad.is_vehicle
    full = unit.speed - 0.05
    out: list[tuple[MoveKind, Point, MoveHow, Plan]] = []
    for kind, goal in goals(game, squad, near):
        toward = game.board.shape(near[0]) if near and kind is MoveKind.ADVANCE else None
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


def offered_plan(game: Battlefield, squad: Squad, option: Move) -> Plan | None:
    """The plan a menu offered as ``option`` — its way and where it ends, as the rules
    judged it — found again among :func:`menu_plans` (nothing has moved since the menu
    was measured, so every plan is the one kept then); ``None`` when it is not there."""
    with game.still():
        near = game.nearest_enemy(squad)
        for kind, goal, how, found in menu_plans(game, squad, near):
            if kind is not option.kind or how is not option.how:
                continue
            if how is MoveHow.COMBAT:
                if (round(goal[0], 1), round(goal[1], 1)) == (option.x, option.y):
                    return found
            elif found.end == (option.x, option.y):
                return found
    return None


#: The ways to move, in the order a menu offers them.
_HOWS = tuple(MoveHow)


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
        return Plan(way.points, cls, end, inches(length_along(path, end)))
    found = game.board.settle(squad, path, key=key, within=_reach_of(unit.speed))
    if found is None:
        return None
    found = inside(game, squad, path, found)
    moved = inches(length_along(path, found))
    if moved < shortest_move_inches():
        return None
    return Plan(way.points, cls, found, moved)


def _course(
    game: Battlefield, squad: Squad, goal: Point, how: MoveHow, reach: float, stop: float | None
) -> tuple[Way, TerrainClass, tuple[Point, ...]] | None:
    """The terrain side of :func:`plan`, which depends on where the unit stands, how wide
    and what kind it is, the goal and the kind of move alone (kept on the tape): its way,
    the class of its terrain, the path its allowance covers."""
    goal = clamp_inside(game.table, goal, reach)
    points = game.board.way(squad, goal)
    if points is None:
        return None
    way = Way(points, 0.0)
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
    ends: Sequence[Point],
    kind: MoveKind,
    how: MoveHow,
    in_cover: bool | None = None,
    *,
    near: bool = True,
) -> Order:
    """The move as the morale and suppression rules see it (SW-MOR-01, SW-SUP-01), judged
    on every place it may end (``ends``: one for a move or a march; a combat move's, one
    for each distance its dice may give): it approaches the enemy when any of them is
    nearer the nearest enemy model than the squad stands now, it goes away from the enemy
    when every one is farther (edge to edge, as the board reads the tape); it leaves cover
    when any of them is out of cover. ``in_cover``: what the caller measured already;
    ``near``: whether the rules read how near the enemy it ends (they do not for a squad
    free to approach and not suppressed: then nothing is measured for it)."""
    places = tuple(ends)
    return game.lasting_of(
        lambda: (
            "order",
            game.board.shape(squad),
            game.enemy_board(squad) if near else None,
            places,
            kind,
            how,
            in_cover,
        ),
        lambda: _order_for(game, squad, places, kind, how, in_cover, near),
    )


def judged_by_nearness(squad: Squad) -> bool:
    """Whether the rules read how near the enemy a move of ``squad`` ends: it may not
    approach the enemy at its morale level (SW-MOR-01), or it is suppressed and may only
    move away from it (SW-SUP-01)."""
    return squad.suppressed or not level_orders(squad.level).approach


def _order_for(
    game: Battlefield,
    squad: Squad,
    ends: tuple[Point, ...],
    kind: MoveKind,
    how: MoveHow,
    in_cover: bool | None,
    near: bool,
) -> Order:
    board = game.board
    afters = [board.gap_at(squad, end) for end in ends] if near else None
    standing = [game.tape.standing(end) is not Cover.NONE for end in ends]
    return _order_of(game, squad, afters, standing, kind, how, in_cover)


def order_placed(
    game: Battlefield, squad: Squad, bases: Sequence[Base], kind: MoveKind, how: MoveHow
) -> Order:
    """:func:`order_for` of a move whose models people placed at a real table (in a
    formation of their own, or one by one): judged on where those ``bases`` stand — the
    nearest enemy model to any of them, edge to edge, and whether most of them stand
    in cover (the squad's own rule, as :meth:`~.field.Battlefield.in_cover` reads it)."""
    board = game.board
    enemies = [e for e in board.enemies(squad) if board.bases_of(e)]
    after = min((board.gap_from(bases, e) for e in enemies), default=math.inf)
    gap = board.reading(after) if math.isfinite(after) else after
    covered = sum(1 for b in bases if game.tape.standing(b.centre) is not Cover.NONE)
    return _order_of(game, squad, [gap], [2 * covered >= len(bases)], kind, how, None)


def _order_of(
    game: Battlefield,
    squad: Squad,
    afters: Sequence[float] | None,
    standing: Sequence[bool],
    kind: MoveKind,
    how: MoveHow,
    in_cover: bool | None,
) -> Order:
    """The order of a move that may leave the squad ``afters`` inches from the nearest
    enemy (``None``: not measured, the rules do not read it), in cover or not
    (``standing``) at each place it may end."""
    covered = game.in_cover(squad) if in_cover is None else in_cover
    if afters is None:
        approaches = away = False
    else:
        near = game.nearest_enemy(squad)
        now = None if near is None else near[1]
        approaches = now is not None and any(after < now for after in afters)
        away = now is None or all(after > now for after in afters)
    flags = (
        how.action,
        approaches,
        away,
        kind is MoveKind.RETREAT,
        kind is MoveKind.COVER and all(standing),
        covered and not all(standing),
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


def combat_ends(game: Battlefield, squad: Squad, found: Plan) -> tuple[Point, ...]:
    """Every place a combat move along ``found``'s way may end, one for each distance its
    dice may give through its terrain (SW-ABSENT-02, SW-MOVE-02): :func:`combat_end`."""
    ends = [combat_end(game, squad, found, reach) for reach in combat_move_reaches(found.terrain)]
    return tuple(dict.fromkeys(ends))


def combat_end(game: Battlefield, squad: Squad, found: Plan, rolled: float) -> Point:
    """Where a combat move along ``found``'s way ends when its dice give ``rolled``
    inches, by the contact rule: the contact rule walks the longest roll once, and a
    shorter one ends where it gets to, or where that walk was stopped if it gets no
    farther (standing still where it is stopped at once)."""
    stop, reached = _combat_walk(game, squad, found)
    path = cut(found.way, rolled)
    if rolled + 1e-9 >= reached:
        return inside(game, squad, path, stop)
    tip = path[-1]
    return inside(game, squad, path, (round(tip[0], 1), round(tip[1], 1)))


def inside(game: Battlefield, squad: Squad, path: Sequence[Point], spot: Point) -> Point:
    """``spot``, where a move along ``path`` ends on the 0.1" grid, pulled onto the nearest
    neighbouring grid point no farther from where the move began than the path is long
    when rounding took it so far that the tape reads it longer than the move (3.06" for
    a 3" move reads 3.1"): a move never overruns its allowance, even by the rounding of
    its end. As it was otherwise, or when no such point fits."""
    start = path[0]
    length = sum(math.dist(p, q) for p, q in itertools.pairwise(path))
    if inches(math.dist(start, spot)) <= inches(length):
        return spot
    tip = path[-1]
    xs = {round(math.floor(tip[0] * 10) / 10, 1), round(math.ceil(tip[0] * 10) / 10, 1)}
    ys = {round(math.floor(tip[1] * 10) / 10, 1), round(math.ceil(tip[1] * 10) / 10, 1)}
    near = sorted(((x, y) for x in xs for y in ys), key=lambda c: (math.dist(c, tip), c))
    for candidate in near:
        if inches(math.dist(start, candidate)) <= inches(length) and game.board.fits(
            squad, candidate
        ):
            return candidate
    return spot


def _combat_walk(game: Battlefield, squad: Squad, found: Plan) -> tuple[Point, float]:
    """Where the longest combat move along ``found``'s way ends by the contact rule and
    how far along it that is."""
    path = cut(found.way, longest_roll())
    end = game.board.settle(squad, path, within=_reach_of(_unit(game, squad).speed))
    stop = squad.centre if end is None else end
    return stop, length_along(path, stop)


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
    reach = clearance(squad) + leave_within_inches()
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
    "combat_end",
    "combat_ends",
    "cover_score",
    "cut",
    "distance_to_enemy",
    "enemy_distance_now",
    "enemy_points",
    "goals",
    "inside",
    "judged_by_nearness",
    "menu_plans",
    "move_rules",
    "mover",
    "offered_plan",
    "order_for",
    "order_placed",
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
