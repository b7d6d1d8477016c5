"""The options a squad has for its next action, each with a forecast, and a sensible default.

What is legal is the rules' own answer: each question of legality is one function of
the rule module that owns it (``fire.may_shoot``, ``movement.may_move``,
``charge.may_charge`` …), asked with the squad's plain situation
(:meth:`~.world.World.situation`); they apply the activation's limits (SW-CORE-04),
suppression (SW-SUP-01), the morale level (SW-MOR-01), going to ground (SW-FIRE-07)
and reaction tests failed this turn (SW-REACT-01).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import cache

from shapely.geometry import Point as ShapelyPoint
from shapely.ops import nearest_points

from kubik.dice import Die
from kubik.engine import (
    AnyForecast,
    Forecast,
)
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.charge import defender_rules, may_charge
from kubik.rulesets.steel_war.fire import may_get_up, may_go_to_ground, reach_inches
from kubik.rulesets.steel_war.fire_weapons import weapon
from kubik.rulesets.steel_war.inspiration import may_inspire
from kubik.rulesets.steel_war.morale_levels import MoraleLevel, Order, level_orders
from kubik.rulesets.steel_war.movement import (
    MoverType,
    TerrainClass,
    base_speed,
    march_allowed,
    march_distance,
    may_move,
    move_distance,
)
from kubik.rulesets.steel_war.no_step_back import may_stand_fast
from kubik.rulesets.steel_war.psionics_actions import PsiAction
from kubik.rulesets.steel_war.reaction import ReactionAction, reaction_threat
from kubik.rulesets.steel_war.reorganisation import Care, may_reorganise
from kubik.rulesets.steel_war.situation import UnitSituation, basic_verdict, needed_tests
from kubik.rulesets.steel_war.suppression import may_unsuppress
from kubik.table import Cover
from kubik.table.geometry import Point

from . import carry, field
from .actions import inspiration, stand
from .assault import bouts, charge_terrain, defender_threat, frightening
from .forecast import (
    assault_forecast,
    assault_value,
    fire_forecast,
    ground_forecast,
    inspire_forecast,
    odds_distance,
    odds_target,
    reorganise_forecast,
    unsuppress_forecast,
    weight,
)
from .options import Act, Charge, Disembark, Fire, Inspire, Kind, Move, MoveKind, Option, Psi
from .profiles import vehicle_profile
from .psionics import psi_options
from .shooting import may_shoot, plan_fire
from .state import Squad, Status
from .world import World


@dataclass(frozen=True, slots=True)
class Menu:
    """The options, one forecast per option, and the default."""

    options: tuple[Option, ...]
    forecasts: tuple[AnyForecast | None, ...]
    default: Option


def _allowed(unit: UnitSituation, action: ActionType) -> bool:
    """What every action passes (activation, suppression, morale): the rules' own answer."""
    return basic_verdict(unit, action).allowed


def _cover_score(cover: Cover) -> float:
    if cover is Cover.HARD:
        return weight("hard_cover")
    return weight("light_cover") if cover is Cover.LIGHT else 0.0


@cache
def _weapon_reach(weapon_id: str, quality: Die) -> float:
    return float(reach_inches(weapon(weapon_id), quality))


def _reach(squad: Squad) -> float:
    return max(_weapon_reach(m.weapon, squad.die) for m in squad.active())


def _dist_to_enemies(world: World, squad: Squad, point: Point) -> float | None:
    """Centre-to-closest-enemy-model distance from a point (for comparing moves)."""
    enemies = [m for e in world.enemies(squad) for m in e.active()]
    if not enemies:
        return None
    return min(math.dist(point, m.point) for m in enemies)


def _move_score(world: World, squad: Squad, end: Point, kind: MoveKind) -> float:
    """Positional value of ending a move at ``end``: cover gained, closing in, in range."""
    measure = world.measure
    score = _cover_score(measure.standing(end)) - _cover_score(measure.standing(squad.centre))
    now = _dist_to_enemies(world, squad, squad.centre)
    after = _dist_to_enemies(world, squad, end)
    if now is not None and after is not None:
        if squad.level.at_least(MoraleLevel.SHAKEN) and not squad.suppressed:
            score += weight("closing_per_inch") * (now - after)
            reach = _reach(squad)
            in_range = any(
                math.dist(end, e.centre) <= reach and measure.los(end, e.anchor().centre)
                for e in world.enemies(squad)
            )
            if in_range:
                score += weight("in_range")
        else:
            score += weight("closing_per_inch") * (after - now)
    if kind is MoveKind.OBJECTIVE and world.objectives:
        score += weight("objective")
    if kind is MoveKind.RETREAT and not squad.level.at_least(MoraleLevel.SHAKEN):
        score += weight("objective")
    return score


def _cover_goal(world: World, squad: Squad) -> Point | None:
    """The nearest point inside a feature giving cover that the squad is not already in."""
    return world.measure.cover_goal(squad.centre, lambda at: _nearest_cover(world, at))


def _nearest_cover(world: World, centre: Point) -> Point | None:
    best: tuple[float, Point] | None = None
    here = tuple(f.id for f in world.table.features_at(centre))
    depth = float(field.game_data()["game_moves"]["cover_depth_inches"])
    for feature in world.table.features:
        if not feature.is_area or feature.cover is Cover.NONE or feature.id in here:
            continue
        if feature.kind_for(field.INFANTRY).value == "impassable":
            continue
        inside = feature.shape.buffer(-depth)
        target = inside if not inside.is_empty else feature.shape
        point = nearest_points(target, ShapelyPoint(centre))[0]
        goal = (float(point.x), float(point.y))
        d = math.dist(goal, centre)
        if best is None or d < best[0]:
            best = (d, goal)
    return None if best is None else best[1]


def _goals(world: World, squad: Squad) -> list[tuple[MoveKind, Point]]:
    goals: list[tuple[MoveKind, Point]] = []
    near = world.nearest_enemy(squad)
    if near is not None:
        goals.append((MoveKind.ADVANCE, near[0].centre))
    cover = _cover_goal(world, squad)
    if cover is not None:
        goals.append((MoveKind.COVER, cover))
    for objective in world.objectives:
        if world.controller(objective) != squad.side:
            goals.append((MoveKind.OBJECTIVE, (objective.x, objective.y)))
            break
    goals.append((MoveKind.RETREAT, field.edge_point(world.table, squad.edge, squad.centre)))
    return goals


def _movement(
    world: World, squad: Squad, goal: Point, kind: MoveKind, march: bool
) -> tuple[Point, float, tuple[Point, ...]] | None:
    """Where a move (or march) toward ``goal`` ends, how far it goes, and its path."""
    table = world.table
    clearance = field.formation_radius(len(squad.active()))
    goal = field.clamp_inside(table, goal, clearance)
    mover, speed = _mover(squad)
    way = world.measure.route(squad.centre, goal, clearance, mover)
    if way is None:
        return None
    length = sum(math.dist(p, q) for p, q in itertools.pairwise(way))
    if kind is MoveKind.ADVANCE:
        near = world.nearest_enemy(squad)
        stop = clearance + (field.formation_radius(len(near[0].active())) if near else 0) + 1.0
        length = max(length - stop, 0.0)
    first = world.measure.truncate(way, min(length, 2 * speed if march else speed))
    cls = world.measure.worst_class(first, clearance, mover)
    if march:
        if not march_allowed([cls]):
            return None
        allowance = float(march_distance(speed, [cls]))
    else:
        if cls is TerrainClass.IMPASSABLE:
            return None
        allowance = float(move_distance(speed, [cls]))
    path = world.measure.truncate(way, min(length, allowance))
    end = (field.inches(path[-1][0]), field.inches(path[-1][1]))
    moved = field.inches(sum(math.dist(p, q) for p, q in itertools.pairwise(path)))
    if moved < float(field.game_data()["game_moves"]["min_inches"]):
        return None
    return end, moved, path


def _mover(squad: Squad) -> tuple[str, int]:
    """The table's mover type and the speed: infantry 6", a vehicle its profile's."""
    if squad.is_vehicle:
        profile = vehicle_profile(squad.spec.vehicle)
        return profile.mover.value, profile.speed
    return field.INFANTRY, base_speed(MoverType.INFANTRY)


def _move_options(
    world: World, squad: Squad, done: tuple[ActionType, ...]
) -> list[tuple[Move, AnyForecast]]:
    out: list[tuple[Move, AnyForecast]] = []
    if squad.immobilised:
        return out
    unit = world.situation(squad, done)
    in_cover = unit.in_cover
    now = _dist_to_enemies(world, squad, squad.centre)
    for kind, goal in _goals(world, squad):
        for march in (False, True):
            action = ActionType.MARCH if march else ActionType.MOVE
            if march and kind is MoveKind.COVER:
                continue
            moved = _movement(world, squad, goal, kind, march)
            if moved is None:
                continue
            end, length, _ = moved
            after = _dist_to_enemies(world, squad, end)
            closer = now is not None and after is not None and after < now
            end_cover = world.measure.standing(end) is not Cover.NONE
            order = Order(
                action,
                approaches_enemy=closer,
                away_from_enemy=not closer,
                toward_own_edge=kind is MoveKind.RETREAT,
                toward_cover=kind is MoveKind.COVER,
                leaves_cover=in_cover and not end_cover,
            )
            verdict = may_move(unit, order)
            tests = needed_tests(verdict)
            if not verdict.allowed or len(tests) > 1:
                continue  # (a Move carries at most one reaction test)
            test = tests[0].value if tests else ""
            option = Move(kind, end[0], end[1], length, march, test)
            out.append((option, Forecast(score=_move_score(world, squad, end, kind))))
    return out


def _charge_option(
    world: World, squad: Squad, target: Squad, distance: float, unit: UnitSituation
) -> tuple[Charge, AnyForecast] | None:
    verdict = may_charge(unit, world.kind(target))
    tests = needed_tests(verdict)
    if not verdict.allowed or ReactionAction.MOVE_WHILE_DOWN in tests:
        return None  # (the charge here does not take the getting-up test: get up first)
    limit = float(field.game_data()["game_charge"]["max_declare_inches"])
    if distance > limit:
        return None
    terrain = charge_terrain(world, squad, target)
    if terrain is TerrainClass.IMPASSABLE:
        return None
    back = world.sight(target, squad)
    plan = plan_fire(target, squad, back) if may_shoot(world, target, squad) else None
    forecast_args = (
        (squad.die, squad.leadership, squad.level),
        (
            target.die,
            target.leadership,
            defender_threat(squad, target),
            defender_rules(frightening(squad)),
        ),
        odds_distance(distance),
        terrain,
        None if plan is None else (plan.group, odds_target(plan.group, plan.target)),
        bouts(squad, target, named=False),
    )
    en, ru = target.spec.display_name
    return (
        Charge(target.id, en, ru, distance),
        Forecast(assault_forecast, forecast_args, value=assault_value),
    )


def menu(world: World, squad: Squad, done: tuple[ActionType, ...]) -> Menu:
    """Every legal next action of ``squad`` with its forecast; the default last resort is
    to end the activation."""
    if squad.aboard is not None:
        return _rider_menu(world, squad, done)
    items: list[tuple[Option, AnyForecast | None]] = []
    unit = world.situation(squad, done)
    in_cover = unit.in_cover
    fires: list[tuple[Fire, AnyForecast]] = []
    charges: list[tuple[Charge, AnyForecast]] = []
    for enemy in world.enemies(squad):
        sight = world.sight(squad, enemy)
        if not sight.visible:
            continue
        en, ru = enemy.spec.display_name
        if may_shoot(world, squad, enemy, done, unit):
            plan = plan_fire(squad, enemy, sight)
            if plan is not None:
                option = Fire(enemy.id, en, ru, sight.distance, sight.cover)
                fires.append((option, fire_forecast(plan.group, plan.target)))
        if not done:
            found = _charge_option(world, squad, enemy, sight.distance, unit)
            if found is not None:
                charges.append(found)
    fires.sort(key=lambda item: item[0].distance)
    items += fires
    if may_unsuppress(unit).allowed:
        items.append(
            (Act(Kind.UNSUPPRESS), unsuppress_forecast(squad.die, squad.leadership, squad.markers))
        )
    wounded = len(squad.with_status(Status.UNVERIFIED))
    if wounded and may_reorganise(unit).allowed:
        care = Care.MEDIC if squad.spec.medic else Care.NONE
        items.append((Act(Kind.REORGANISE), reorganise_forecast(wounded, care)))
    if squad.spec.officer:
        for target_id in squad.spec.commands:
            target = world.squad(target_id)
            if not target.present:
                continue
            attempt = inspiration(world, squad, target)
            verdict = may_inspire(unit, target.level, target.start_level, 0, attempt.contact)
            if verdict.allowed:
                en, ru = target.spec.display_name
                items.append((Inspire(target.id, en, ru), inspire_forecast(attempt)))
    psis: list[tuple[Psi, AnyForecast]] = psi_options(world, squad, done)
    items += psis
    items += charges
    unloads: list[tuple[Disembark, AnyForecast]] = []
    if squad.is_vehicle and _allowed(unit, ActionType.DISEMBARK):
        unloads = carry.disembark_options(world, squad, world.passengers(squad))
    items += unloads
    if _allowed(unit, ActionType.EMBARK):
        items += carry.embark_options(world, squad, done)
    moves = _move_options(world, squad, done)
    items += moves
    if squad.is_vehicle:
        items.append((Act(Kind.END), Forecast(score=0.0)))
        options = tuple(o for o, _ in items)
        default = _default(squad, items, fires, moves)
        if unloads and (_enemy_within_unload(world, squad) or not moves):
            default = unloads[0][0]
        return Menu(options, tuple(f for _, f in items), default)
    if may_get_up(unit).allowed:
        items.append((Act(Kind.GET_UP), Forecast(score=0.0)))
    if may_go_to_ground(unit).allowed:
        action = ReactionAction.GO_TO_GROUND_OTHER if in_cover else ReactionAction.GO_TO_GROUND_OPEN
        seen_by = sum(1 for e in world.enemies(squad) if world.sees(e, squad))
        items.append(
            (
                Act(Kind.GO_TO_GROUND),
                ground_forecast(
                    squad.die, squad.leadership, reaction_threat(action), squad.berserk, seen_by
                ),
            )
        )
    if (
        not done
        and may_stand_fast(
            stand(world, squad), berserk=squad.berserk, panicked=squad.panicked
        ).allowed
    ):
        items.append((Act(Kind.NO_STEP_BACK), Forecast(score=0.0)))
    must_move = level_orders(squad.level).must_move and bool(moves)
    if not must_move:
        items.append((Act(Kind.END), Forecast(score=0.0)))
    options = tuple(o for o, _ in items)
    forecasts = tuple(f for _, f in items)
    default = _default(squad, items, fires, moves)
    if psis and not fires and default not in (Act(Kind.UNSUPPRESS), Act(Kind.REORGANISE)):
        default = _psi_default(psis, default)
    return Menu(options, forecasts, default)


def _psi_default(psis: list[tuple[Psi, AnyForecast]], default: Option) -> Option:
    """A psionic with nothing to fire at strikes the nearest enemy he can (SW-PSI-13)."""
    strikes = [o for o, _ in psis if o.act is PsiAction.STRIKE]
    return strikes[0] if strikes else default


def _enemy_within_unload(world: World, squad: Squad) -> bool:
    """An enemy is close enough for a bot to get its men out (a taste, game.toml)."""
    near = world.nearest_enemy(squad)
    limit = float(field.game_data()["game_transport"]["default_disembark_within_inches"])
    return near is not None and near[1] <= limit


def _rider_menu(world: World, squad: Squad, done: tuple[ActionType, ...]) -> Menu:
    """A squad inside a vehicle may only get off (one action, SW-MOVE-04) or wait."""
    vehicle = world.squad(squad.aboard) if squad.aboard else squad
    items: list[tuple[Option, AnyForecast | None]] = []
    if _allowed(world.situation(squad, done), ActionType.DISEMBARK):
        items += carry.disembark_options(world, vehicle, [squad])
    items.append((Act(Kind.END), Forecast(score=0.0)))
    options = tuple(o for o, _ in items)
    default = options[-1]
    if len(options) > 1 and (_enemy_within_unload(world, vehicle) or vehicle.immobilised):
        default = options[0]
    return Menu(options, tuple(f for _, f in items), default)


def _default(
    squad: Squad,
    items: list[tuple[Option, AnyForecast | None]],
    fires: list[tuple[Fire, AnyForecast]],
    moves: list[tuple[Move, AnyForecast]],
) -> Option:
    """What a player who does not think long does: fire at the nearest target; rally a
    suppressed squad; settle many wounded; else take the best-placed move; else stop."""
    if fires:
        return fires[0][0]
    options = [o for o, _ in items]
    for kind in (Kind.UNSUPPRESS, Kind.REORGANISE):
        if Act(kind) in options:
            return Act(kind)
    if moves:
        best = max(moves, key=lambda item: item[1].score)
        if best[1].score > 0 or Act(Kind.END) not in options:
            return best[0]
    return Act(Kind.END) if Act(Kind.END) in options else options[0]


__all__ = ["Menu", "menu"]
