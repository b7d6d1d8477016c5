"""Climbing, jumping and leaping on the battlefield (RA-MAN-01..06): where a warrior
lands or falls, and the leap attack that follows. The tests themselves are the rules'
own procedures (:mod:`kubik.rulesets.apocalypse.manoeuvres`), called from here."""

from __future__ import annotations

import math
from typing import Any

from shapely.geometry import Point as ShapelyPoint

from kubik.engine import Call, Emit, Procedure, emit
from kubik.game.battle import SLACK, clear_of
from kubik.rulesets.apocalypse.battle import moving
from kubik.rulesets.apocalypse.battle.state import ApocalypseState
from kubik.rulesets.apocalypse.battle.warriors import Sight, Warrior
from kubik.rulesets.apocalypse.battle.wounds import revealed_note
from kubik.rulesets.apocalypse.manoeuvres import (
    Climb,
    LeapOutcome,
    climb,
    giant_leap_apex,
    jump_down,
    jump_gap,
)
from kubik.table import Point


def _centre_point(w: Warrior) -> Any:
    return ShapelyPoint(w.base.centre)


def climb_onto(game: ApocalypseState, w: Warrior, feature_id: str) -> Procedure[None]:
    """Climb a wall (RA-MAN-01): once up, he stands just inside the roof's edge."""
    feature = game.table.feature(feature_id)
    outcome = yield Call(climb, (w.mobility, True))
    w.turn.moved = True
    if outcome is not Climb.CLIMBED:
        return
    inner = feature.shape.buffer(-(w.base.radius + 0.2))
    if inner.is_empty:
        return
    near = inner.exterior.interpolate(inner.exterior.project(_centre_point(w)))
    spot = (round(near.x, 1), round(near.y, 1))
    others = game.board.blocking(w)
    if clear_of([w.base.moved_to(spot)], others) and feature.shape.covers(ShapelyPoint(spot)):
        yield from moving.travel(game, w, (w.base.centre, spot), spot)
        yield Emit(game.told(w, "apocalypse.game.climbed", unit=game.name(w.id)), ("RA-MAN-01",))


def climb_off(game: ApocalypseState, w: Warrior) -> Procedure[None]:
    """Climb down a wall (RA-MAN-01): a failed test and he falls from where he started."""
    roof = game.roof_under(w)
    if roof is None:
        return
    outcome = yield Call(climb, (w.mobility, False))
    w.turn.moved = True
    spot = _landing(game, w, roof, (game.table.width / 2, game.table.height / 2))
    if spot is None:
        yield emit("apocalypse.game.no_room", rules=("RA-MAN-01",), unit=game.name(w.id))
        return
    if outcome is Climb.FELL:
        game.place(w, spot)
        yield from moving.fall(game, w, float(roof.elevation))
        return
    yield from moving.travel(game, w, (w.base.centre, spot), spot)


def _landing(
    game: ApocalypseState, w: Warrior, roof: Any, toward: tuple[float, float]
) -> tuple[float, float] | None:
    """A place on the ground just off ``roof`` toward ``toward``."""
    outer = roof.shape.buffer(w.base.radius + 0.3)
    edge = outer.exterior.interpolate(outer.exterior.project(ShapelyPoint(toward)))
    spot = (round(edge.x, 1), round(edge.y, 1))
    return spot if game.board.fits(w, spot) else None


def jump_off(game: ApocalypseState, w: Warrior, target: Warrior | None) -> Procedure[None]:
    """Jump down (RA-MAN-03), perhaps onto an enemy below (RA-MAN-05: landing in contact
    with him); a failure is a fall from the start (RA-MAN-06)."""
    roof = game.roof_under(w)
    if roof is None:
        return
    if target is not None:
        spot = landing_by(game, w, target)
    else:
        spot = _landing(game, w, roof, (game.table.width / 2, game.table.height / 2))
    w.turn.moved = True
    if spot is None:
        yield emit("apocalypse.game.no_room", rules=("RA-MAN-03",), unit=game.name(w.id))
        return
    landed: LeapOutcome = yield Call(jump_down, (float(roof.elevation), w.mobility))
    if not landed.landed:
        fall = _landing(game, w, roof, spot)
        if fall is not None:
            game.place(w, fall)
        yield from moving.fall(game, w, landed.fall_height)
        return
    yield from moving.travel(game, w, (w.base.centre, spot), spot, target=target)
    if target is not None:
        yield from _land_on(game, w, target)


def landing_by(
    game: ApocalypseState, w: Warrior, target: Warrior, within: float | None = None
) -> Point | None:
    """Where he lands in base contact with ``target`` (RA-MAN-05): the first of the
    board's contact spots round him on the ground (not on a roof) where his base fits,
    touching only him; with ``within``, only spots that near (a giant leap's reach,
    RA-MAN-04). ``None``: no room."""
    board = game.board
    here = w.base.centre
    for spot in board.contact_spots(w, target):
        if within is not None and math.dist(here, spot) > within + SLACK:
            continue
        if game.tape.elevation(spot) < 1.0 and board.fits(w, spot, touch=target):
            return spot
    return None


def _land_on(game: ApocalypseState, w: Warrior, target: Warrior) -> Procedure[None]:
    """He landed in contact with the enemy he leapt at: a leap attack (RA-MAN-05)."""
    if w.fit and target.in_battle and game.board.gap(w, target) <= 0.05:
        if w.sight is not Sight.SEEN:  # an attack from hiding reveals him (RA-HIDE-03)
            w.sight = Sight.SEEN
            yield from revealed_note(game, w, ("RA-HIDE-03", "RA-HIDE-04"))
        w.turn.charged = w.turn.leapt = True
        game.contacts.engage(w.id, target.id, ("RA-MAN-05",))
        yield emit(
            "apocalypse.game.leap_attack",
            rules=("RA-MAN-05",),
            unit=game.name(w.id),
            target=game.name(target.id),
        )


def giant_leap_at(game: ApocalypseState, w: Warrior, target: Warrior) -> Procedure[None]:
    """Гигантский скачок X onto an enemy: the jump-down tests at the highest point
    (RA-MAN-04), then a leap attack (RA-MAN-05)."""
    spot = landing_by(game, w, target, within=float(w.giant_leap))
    if spot is None:  # (the menu offers only leaps with room to land)
        return
    apex = giant_leap_apex(game.height(w), game.height(target))
    landed: LeapOutcome = yield Call(jump_down, (apex, w.mobility, True))
    w.turn.moved = True
    if not landed.landed:
        yield from moving.fall(game, w, landed.fall_height)
        return
    # he flies over whatever stands between: straight to where he lands
    yield from moving.travel(game, w, (w.base.centre, spot), spot, target=target)
    yield from _land_on(game, w, target)


def leap_gap(game: ApocalypseState, w: Warrior, feature_id: str) -> Procedure[None]:
    """Jump across to another roof (RA-MAN-02)."""
    roof = game.roof_under(w)
    other = game.table.feature(feature_id)
    if roof is None:
        return
    width = float(roof.shape.distance(other.shape))
    outcome: LeapOutcome = yield Call(
        jump_gap, (width, float(w.mobility), w.mobility, float(roof.elevation))
    )
    w.turn.moved = True
    inner = other.shape.buffer(-(w.base.radius + 0.2))
    if outcome.landed and not inner.is_empty:
        near = inner.exterior.interpolate(inner.exterior.project(_centre_point(w)))
        spot = (round(near.x, 1), round(near.y, 1))
        others = game.board.blocking(w)
        if clear_of([w.base.moved_to(spot)], others):
            game.place(w, spot)
        return
    if not outcome.landed:
        centre = other.shape.centroid
        landing = _landing(game, w, roof, (float(centre.x), float(centre.y)))
        if landing is not None:
            game.place(w, landing)
        yield from moving.fall(game, w, outcome.fall_height)
