"""Charges in a fantasy battle (FB-ABSENT-10): which face of the enemy a charge
goes into and where the charger's front touches it (FB-ABSENT-07), the charged
unit's reaction (hold, stand and shoot, flee), and the charge itself, whose reach
and ground are the movement rules' verdict."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from kubik.engine import Call, Forecast, Procedure, Verdict, emit, msg
from kubik.game.battle import Menu, clear_of, taste
from kubik.rulesets.fantasy.battle import ground, shots
from kubik.rulesets.fantasy.battle.formation import (
    ahead,
    depth,
    half_width,
    right,
    side_reach,
    turn_between,
)
from kubik.rulesets.fantasy.battle.moves import advance, run_away, walk_to
from kubik.rulesets.fantasy.battle.panic import friends_panic
from kubik.rulesets.fantasy.battle.state import FantasyState
from kubik.rulesets.fantasy.battle.units import Act, ChargePlan, Fight, State, Unit, fight_key
from kubik.rulesets.fantasy.close_combat import Facing, charged_face
from kubik.rulesets.fantasy.movement import (
    charge_distance,
    charge_reach,
    flee_reaction,
    may_charge,
    may_cross,
    may_flee_charge,
    may_hold_charge,
    pace,
)
from kubik.rulesets.fantasy.shooting import may_stand_and_shoot, volley


def charge_label(game: FantasyState, target: Unit, face: Facing) -> Any:
    key = {
        Facing.FRONT: "fantasy.option.charge",
        Facing.FLANK: "fantasy.option.charge_flank",
        Facing.REAR: "fantasy.option.charge_rear",
    }[face]
    return msg(key, target=game.name(target.id))


def charge_plan(game: FantasyState, unit: Unit, target: Unit) -> ChargePlan:
    """The charge ``unit`` would make at ``target``: which face of it the charger's
    front lies in now (FB-ABSENT-07), the one wheel that aligns the charger with
    that face, and the place on the table's 0.1" grid where its front rank touches
    it (FB-ABSENT-10)."""
    size, files, figures = target.spec.size, target.spec.files, target.figures()
    loose = target.spec.skirmish
    (dx, dy), (rx, ry) = ahead(target.facing), right(target.facing)
    ox, oy = unit.front[0] - target.front[0], unit.front[1] - target.front[1]
    across, along = ox * rx + oy * ry, ox * dx + oy * dy
    deep = depth(files, figures, size, loose)
    wide = half_width(files, figures, size, loose)
    face = charged_face(across, along - size / 2, wide + size / 2, deep + size, loose=loose)
    touch = (unit.spec.size + size) / 2
    tx, ty = target.front
    if face is Facing.FRONT:
        facing = (target.facing + 180) % 360
        ideal = (tx + dx * touch, ty + dy * touch)
    elif face is Facing.REAR:
        facing = target.facing
        ideal = (tx - dx * (deep + touch), ty - dy * (deep + touch))
    else:
        side = 1 if across > 0 else -1
        facing = (target.facing - 90 * side) % 360
        mx, my = tx - dx * deep / 2, ty - dy * deep / 2
        wide = side_reach(files, figures, size, side, loose)
        ideal = (mx + side * rx * (wide + touch), my + side * ry * (wide + touch))
    goal = touching_spot(game, unit, target, ideal, facing)
    wheel = turn_between(unit.facing, facing)
    distance = charge_distance(
        unit.frontage(), wheel, math.dist(unit.front, goal), loose=unit.spec.skirmish
    )
    return ChargePlan(face, facing, goal, distance)


def touching_spot(
    game: FantasyState, unit: Unit, target: Unit, ideal: tuple[float, float], facing: int
) -> tuple[float, float]:
    """The point of the 0.1" grid nearest ``ideal`` where the charger, facing
    ``facing``, touches the target without overlapping it (the board's
    :meth:`~kubik.game.battle.Board.contact_near`; ``ideal`` rounded when none does)."""
    board = game.board
    spot = board.contact_near(unit, target, ideal, shape=board.facing_at(unit, facing))
    return spot if spot is not None else (round(ideal[0], 1), round(ideal[1], 1))


def charge_verdict(
    game: FantasyState, unit: Unit, plan: ChargePlan, reach: float, target: Unit | None = None
) -> Verdict:
    """The movement rules' verdict on ``plan``: its reach, at half pace through
    difficult ground or water, never into impassable ground (FB-ABSENT-19), and (given
    its ``target``) a way into contact clear of other models (FB-ABSENT-10)."""
    through, under = ground.way(game.tape, unit, unit.front, plan.goal, plan.facing)
    rules, flying = unit.rules(), game.flyer(unit)

    def verdict(way_clear: bool) -> Verdict:
        return may_charge(
            plan.distance,
            reach,
            engaged=game.board.is_engaged(unit),
            fleeing=unit.state is State.FLEEING,
            stupid=unit.stupid,
            ground=may_cross(rules, through, under, flying=flying),
            inch_cost=pace(rules, through, flying=flying),
            way_clear=way_clear,
        )

    found = verdict(True)
    if found.allowed and target is not None and not reaches(game, unit, target, plan):
        return verdict(False)
    return found


def reaches(game: FantasyState, unit: Unit, target: Unit, plan: ChargePlan) -> bool:
    """Whether the charge's walk into contact meets ``target`` (no other model in the
    way: the board's walk, ended by the contact rule)."""
    walked = walk_to(game, unit, plan.goal, plan.facing, target=target, over=game.flyer(unit))
    if walked is None:
        return False
    return not clear_of(unit.bases(walked.end, plan.facing), target.bases())


def charge(game: FantasyState, unit: Unit, target: Unit) -> Procedure[None]:
    plan = charge_plan(game, unit, target)
    yield emit(
        "fantasy.game.charge",
        rules=("FB-ABSENT-10",),
        unit=game.name(unit.id),
        target=game.name(target.id),
    )
    unit.acted = True
    reaction = yield from react(game, target, unit)
    if not unit.fighting:
        return
    if not target.on_table:  # it fled off the table: nothing left to reach
        yield from fall_short(game, unit, None)
        return
    reach = charge_reach(unit.spec.troops.m, unit.rules())
    if reaction == "flee":
        plan = replace(charge_plan(game, unit, target), face=plan.face)
    if not charge_verdict(game, unit, plan, reach).allowed:
        yield from fall_short(game, unit, target)
        return
    start, start_facing = unit.front, unit.facing
    walked = walk_to(game, unit, plan.goal, plan.facing, target=target, over=game.flyer(unit))
    if walked is not None:
        unit.front, unit.facing = walked.end, plan.facing
    if walked is None or not game.board.touching(unit, target):
        unit.front, unit.facing = start, start_facing
        yield from fall_short(game, unit, target)
        return
    spot = walked.end
    if spot != plan.goal and reaction != "flee":
        plan = align(game, unit, target, plan)
    if reaction == "flee":
        yield emit(
            "fantasy.game.caught_fleeing",
            rules=("FB-ABSENT-10", "FB-ABSENT-08"),
            unit=game.name(target.id),
        )
        stood = target.bases()
        game.destroy(target, by=unit)
        yield from friends_panic(game, target, stood)
        return
    game.contacts.engage(unit.id, target.id, ("FB-ABSENT-10",))
    unit.rounds[target.id] = 0
    target.rounds[unit.id] = 0
    unit.faces[target.id] = plan.face
    target.faces.pop(unit.id, None)
    game.fights[fight_key(unit, target)] = Fight()
    unit.charge_inches = charge_distance(
        unit.frontage(),
        turn_between(start_facing, unit.facing),
        math.dist(start, unit.front),
        loose=unit.spec.skirmish,
    )
    yield emit(
        f"fantasy.game.engaged_{plan.face.value}",
        rules=("FB-ABSENT-10", "FB-ABSENT-07", "FB-ABSENT-19"),
        unit=game.name(unit.id),
        target=game.name(target.id),
    )


def fall_short(game: FantasyState, unit: Unit, target: Unit | None) -> Procedure[None]:
    """A charge that does not reach: the chargers move their normal Movement toward
    the target instead (FB-ABSENT-10, the published failed charge)."""
    yield emit("fantasy.game.charge_failed", rules=("FB-ABSENT-10",), unit=game.name(unit.id))
    yield from advance(game, unit, target, float(unit.spec.troops.m), rules=("FB-ABSENT-10",))


def align(game: FantasyState, unit: Unit, target: Unit, plan: ChargePlan) -> ChargePlan:
    """A charge whose way met its target before the planned place (the contact rule
    stopped it, touching): the face it charges is the one its front lies in where it
    met the target (FB-ABSENT-07's arcs, :func:`charge_plan`). On the planned face it
    stands there, aligned to that face already; on another face it is aligned to the
    face it contacts (the published game's free "closing the door": the one wheel and
    the touching place :func:`charge_plan` gives from there), if it can stand there."""
    met = charge_plan(game, unit, target)
    if met.face is plan.face:
        return plan
    start, facing = unit.front, unit.facing
    walked = walk_to(game, unit, met.goal, met.facing, target=target)
    if walked is not None:
        unit.front, unit.facing = walked.end, met.facing
        if not game.board.touching(unit, target):
            unit.front, unit.facing = start, facing
    return met


def react(game: FantasyState, target: Unit, charger: Unit) -> Procedure[str]:
    """The charged unit's reaction: hold, stand and shoot, or flee (FB-ABSENT-10)."""
    if target.state is State.FLEEING:
        return "flee"
    engaged = game.board.is_engaged(target)
    menu: Menu[Act] = Menu()
    menu.offer(Act("hold"), msg("fantasy.option.hold"), may_hold_charge())
    missile = target.spec.missile
    refused: tuple[str, ...] = ()
    if missile is not None:
        stand = may_stand_and_shoot(target.rules(), True, engaged=engaged)
        refused = () if stand.allowed else stand.rules
        menu.offer(
            Act("stand_and_shoot", charger.id),
            msg("fantasy.option.stand_and_shoot", target=game.name(charger.id)),
            stand,
            Forecast(
                volley,
                (shots.volley_of(game, target, charger, stand=True),),
                value=shots.shot_worth,
            )
            if stand.allowed
            else None,
        )
    menu.offer(
        Act("flee"),
        msg("fantasy.option.flee"),
        may_flee_charge(engaged=engaged),
        Forecast(score=taste("fantasy", "flee_reaction")),
    )
    act = yield from game.choose(
        menu,
        target.side,
        msg("fantasy.game.reaction", unit=game.name(target.id)),
        rules=("FB-ABSENT-10", *refused),
    )
    if act.kind == "stand_and_shoot":
        yield from shots.fire(game, target, charger, stand=True)
    elif act.kind == "flee":
        inches = yield Call(flee_reaction, ())
        yield from run_away(game, target, charger, float(inches))
        return "flee"
    return "hold"
