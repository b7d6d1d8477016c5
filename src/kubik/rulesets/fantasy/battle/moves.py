"""Regiments moving on a Warhammer Fantasy table: a wheel then straight ahead, a flight
straight away, a turn in place. The regiment's own geometry (its ranks and files, the
wheel about a front corner, the ground its files sweep) is the game's; how far the
ground lets it go is the movement rules' answer (:func:`~kubik.rulesets.fantasy.movement.pace`,
:func:`~kubik.rulesets.fantasy.movement.may_cross`), and where it may stand is the
board's walk, ended by the contact rule (:meth:`~kubik.game.battle.Board.walk`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from kubik.engine import Call, Procedure, emit
from kubik.game.battle import Walk
from kubik.rulesets.fantasy.battle import ground
from kubik.rulesets.fantasy.battle.formation import ahead, bearing, turn_between
from kubik.rulesets.fantasy.battle.state import FantasyState
from kubik.rulesets.fantasy.battle.table import Placed, PlacedOrder, where_ended
from kubik.rulesets.fantasy.battle.units import State, Unit
from kubik.rulesets.fantasy.movement import (
    Rout,
    RoutOutcome,
    flees_on_ground,
    may_cross,
    may_wheel,
    pace,
    rout,
    wheel_inches,
)
from kubik.table import Point

Spot = tuple[float, float]


def whole_way(points: Sequence[Point], allowance: float) -> float:
    """A walk's reach when the movement rules measured the way already (its goal is as
    far as they let the regiment go): all of it."""
    return math.inf


def straight_length(points: Sequence[Point]) -> float:
    """What a straight way the movement rules measured already costs: its length."""
    return math.dist(points[0], points[-1])


def stride(
    game: FantasyState, unit: Unit, start: Spot, facing: int, inches: float
) -> tuple[Spot, tuple[str, ...]]:
    """Where ``inches`` straight ahead take ``unit`` over the ground, and the rules
    that say so: at half pace through difficult ground or water (:func:`pace`), and
    only as far as :func:`may_cross` allows (never into impassable ground)."""
    rules, flying = unit.rules(), game.flyer(unit)
    dx, dy = ahead(facing)
    tape = game.tape

    def goal(d: float) -> Spot:
        return game.on_table(unit, (start[0] + dx * d, start[1] + dy * d), facing)

    whole = ground.way(tape, unit, start, goal(inches), facing)
    cost, paced = pace(rules, whole[0], flying=flying)
    at_pace = round(inches / cost, 1)
    ways = whole if at_pace == inches else ground.way(tape, unit, start, goal(at_pace), facing)
    inches = at_pace
    if may_cross(rules, *ways, flying=flying).allowed:
        return goal(inches), paced
    low, high = 0, int(inches * 10)  # tenths of an inch: allowed, refused
    while high - low > 1:
        mid = (low + high) // 2
        ways = ground.way(tape, unit, start, goal(mid / 10), facing)
        if may_cross(rules, *ways, flying=flying).allowed:
            low = mid
        else:
            high = mid
    return goal(low / 10), tuple(dict.fromkeys((*paced, "FB-ABSENT-19")))


def walk_to(
    game: FantasyState,
    unit: Unit,
    goal: Spot,
    facing: int,
    *,
    target: Unit | None = None,
    over: bool = False,
) -> Walk | None:
    """The board's walk of ``unit`` facing ``facing`` straight from where it stands to
    ``goal`` (as far as the movement rules let it go already), ended by the contact
    rule: never through a model, touching none but ``target``; ``over``: a flyer, over
    the models between, landing only where it is clear."""
    start = unit.front
    return game.board.walk(
        unit,
        goal,
        math.dist(start, goal),
        target=target,
        way=(start, goal),
        reach=whole_way,
        pace=straight_length,
        shape=game.board.facing_at(unit, facing),
        over=over,
    )


@dataclass(frozen=True, slots=True)
class Advance:
    """Where a move would take a regiment: its front's centre and facing there, the
    degrees it wheels and the rules that set how far it goes."""

    spot: Spot
    facing: int
    wheeled: int
    rules: tuple[str, ...]


def plan_advance(
    game: FantasyState,
    unit: Unit,
    target: Unit | None,
    inches: float,
    rules: tuple[str, ...] = (),
) -> Advance:
    """The move ``advance`` makes, worked out without making it: a wheel toward
    ``target`` (toward the first bend of the board's way round impassable ground),
    paying the outer corner's distance (FB-ABSENT-19), then straight ahead with what
    is left of ``inches`` as far as the ground lets it go, never into contact."""
    board = game.board
    start, facing = unit.front, unit.facing
    wheeled = 0
    if target is not None:
        aim = target.centre()
        if not game.flyer(unit):
            way = board.way(unit, aim)
            if way is not None and len(way) > 2:
                aim = way[1]
        want = bearing(start, aim)
        turn = turn_between(facing, want)
        wide = unit.frontage()
        turn = min(turn, int(math.degrees(inches / wide)) + 1)
        loose = unit.spec.skirmish
        while turn and wheel_inches(wide, turn, loose=loose) > inches:
            turn -= 1
        sense = 1 if (want - facing) % 360 <= 180 else -1
        new = (facing + sense * turn) % 360
        cost = wheel_inches(wide, turn, loose=loose)
        verdict = may_wheel(cost, inches, engaged=False, fleeing=False)
        if turn and verdict.allowed and board.clear(unit, unit.bases(start, new)):
            facing, wheeled = new, turn
            inches = round(inches - cost, 1)
    goal, paced = stride(game, unit, start, facing, inches)
    rules = tuple(dict.fromkeys((*(rules or ("FB-ABSENT-19",)), *paced)))
    walked = None
    if game.flyer(unit):  # over models and terrain, to a clear place (FB-MOV-02)
        walked = walk_to(game, unit, goal, facing, over=True)
    if walked is None:
        walked = walk_to(game, unit, goal, facing)
    return Advance(start if walked is None else walked.end, facing, wheeled, rules)


def advance(
    game: FantasyState,
    unit: Unit,
    target: Unit | None,
    inches: float,
    rules: tuple[str, ...] = (),
    planned: Advance | None = None,
) -> Procedure[None]:
    """Wheel to face ``target``, then go straight ahead with what is left of
    ``inches``, never into contact (:func:`plan_advance`; ``planned``: that plan,
    worked out already for the same position)."""
    if inches <= 0:
        return
    start, start_facing = unit.front, unit.facing
    plan = planned or plan_advance(game, unit, target, inches, rules)
    spot, facing, wheeled, rules = plan.spot, plan.facing, plan.wheeled, plan.rules
    if game.at_table:  # where the players put it (checked by the same rules)
        placed = yield from where_ended(
            game, unit, start, start_facing, Placed(*spot, facing), inches, rules
        )
        spot, facing = (placed.x, placed.y), placed.facing
        wheeled = turn_between(start_facing, facing)
    yield from arrive(game, unit, start, spot, facing, wheeled, rules)


def go_placed(
    game: FantasyState, unit: Unit, placed: PlacedOrder, rules: tuple[str, ...]
) -> Procedure[None]:
    """The move a person typed at the orders prompt, which the rules accepted when it
    was read: the regiment wheels to face the way it went and goes there."""
    start = unit.front
    wheeled = turn_between(unit.facing, placed.facing)
    if placed.march:
        unit.marched = True
    yield from arrive(game, unit, start, (placed.x, placed.y), placed.facing, wheeled, rules)


def arrive(
    game: FantasyState,
    unit: Unit,
    start: Point,
    spot: Point,
    facing: int,
    wheeled: int,
    rules: tuple[str, ...],
) -> Procedure[None]:
    """The regiment stands at ``spot`` facing ``facing`` after a move from ``start``
    (``wheeled``: degrees it turned), told in the log."""
    if spot == start and not wheeled:
        return
    unit.front, unit.facing = spot, facing
    unit.moved = True
    if wheeled:
        yield emit(
            "fantasy.game.wheeled",
            rules=("FB-ABSENT-19",),
            unit=game.name(unit.id),
            degrees=wheeled,
        )
    if spot != start:
        yield emit(
            "fantasy.game.moved",
            rules=rules,
            unit=game.name(unit.id),
            inches=round(math.dist(start, spot), 1),
        )


def turn_to(game: FantasyState, unit: Unit, facing: int) -> None:
    """Turn in place about the formation's middle (a rally's or a flight's free
    reform); not when the turned formation would touch another model: then it
    stays as it stands."""
    if facing == unit.facing:
        return
    cx, cy = unit.centre()
    deep = unit.depth() / 2
    dx, dy = ahead(facing)
    front = (round(cx + dx * deep, 3), round(cy + dy * deep, 3))
    if game.board.clear(unit, unit.bases(front, facing)):
        unit.front, unit.facing = front, facing


def facing_towards(game: FantasyState, unit: Unit) -> int:
    """The facing that looks from the regiment's middle at the nearest enemy's."""
    target = game.board.nearest(unit)
    if target is None:
        return unit.facing
    return bearing(unit.centre(), target.centre())


def run_away(
    game: FantasyState, unit: Unit, enemy: Unit | None, inches: float | None = None
) -> Procedure[None]:
    """The unit flees straight away from the enemy (off the table: gone)."""
    if inches is None:
        out: RoutOutcome = yield Call(rout, (Rout(pursue=False),))
        inches = float(out.fled)
    game.contacts.release(unit.id)
    unit.state = State.FLEEING
    threat = enemy or game.board.nearest(unit)
    away = (unit.facing + 180) % 360 if threat is None else bearing(threat.centre(), unit.centre())
    turn_to(game, unit, away)
    dx, dy = ahead(away)
    goal = (unit.front[0] + dx * inches, unit.front[1] + dy * inches)
    edge = 0.5
    table = game.table
    if not (edge <= goal[0] <= table.width - edge and edge <= goal[1] <= table.height - edge):
        unit.state = State.FLED
        yield emit("fantasy.game.fled_table", rules=("FB-ABSENT-08",), unit=game.name(unit.id))
        return
    walked = walk_to(game, unit, goal, unit.facing)
    if walked is not None:
        unit.front = walked.end
    yield emit(
        "fantasy.game.flees",
        rules=("FB-ABSENT-08", *flees_on_ground(unit.rules())),
        unit=game.name(unit.id),
        inches=inches,
    )
