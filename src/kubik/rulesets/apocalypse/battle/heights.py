"""Climbing, jumping and leaping on the battlefield (RA-MAN-01..06): where a warrior
lands or falls, and the leap attack that follows. The tests themselves are the rules'
own procedures (:mod:`kubik.rulesets.apocalypse.manoeuvres`), called from here."""

from __future__ import annotations

from typing import Any

from shapely.geometry import Point as ShapelyPoint

from kubik.engine import Call, Procedure, emit
from kubik.game.battle import clear_of
from kubik.rulesets.apocalypse.battle import moving
from kubik.rulesets.apocalypse.battle.state import ApocalypseState
from kubik.rulesets.apocalypse.battle.warriors import Warrior
from kubik.rulesets.apocalypse.manoeuvres import (
    Climb,
    LeapOutcome,
    climb,
    giant_leap_apex,
    jump_down,
    jump_gap,
)


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
        yield emit("apocalypse.game.climbed", rules=("RA-MAN-01",), unit=game.name(w.id))


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
    others = game.board.blocking(w)
    if game.on_table(w.base.moved_to(spot)) and clear_of([w.base.moved_to(spot)], others):
        return spot
    return None


def jump_off(game: ApocalypseState, w: Warrior, target: Warrior | None) -> Procedure[None]:
    """Jump down (RA-MAN-03), perhaps onto an enemy below (RA-MAN-05: landing in contact
    with him); a failure is a fall from the start (RA-MAN-06)."""
    roof = game.roof_under(w)
    if roof is None:
        return
    if target is not None:
        spot: tuple[float, float] | None = game.contact_point(w, target)
        if (
            spot is None
            or game.tape.elevation(spot) >= 1.0
            or not clear_to_land(game, w, spot, target)
        ):
            spot = None
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


def clear_to_land(
    game: ApocalypseState, w: Warrior, spot: tuple[float, float], target: Warrior
) -> bool:
    """Whether he may land at ``spot`` in contact with ``target`` (RA-MAN-05): on the
    table, clear of everyone else, touching only him."""
    others = game.board.blocking(w, also=(target,))
    moved = w.base.moved_to(spot)
    return (
        game.on_table(moved)
        and clear_of([moved], others)
        and clear_of([moved], [target.base], may_touch=[target.base])
    )


def _leap_contact(game: ApocalypseState, w: Warrior, target: Warrior) -> Procedure[None]:
    walked = game.walk(w, game.contact_point(w, target), 1.5, target=target)
    if walked is None:
        return
    yield from moving.travel(game, w, walked.path, walked.end, target=target)
    yield from _land_on(game, w, target)


def _land_on(game: ApocalypseState, w: Warrior, target: Warrior) -> Procedure[None]:
    """He landed in contact with the enemy he leapt at: a leap attack (RA-MAN-05)."""
    if w.fit and target.in_battle and game.board.gap(w, target) <= 0.05:
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
    apex = giant_leap_apex(game.height(w), game.height(target))
    landed: LeapOutcome = yield Call(jump_down, (apex, w.mobility, True))
    w.turn.moved = True
    if not landed.landed:
        yield from moving.fall(game, w, landed.fall_height)
        return
    yield from _leap_contact(game, w, target)


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
