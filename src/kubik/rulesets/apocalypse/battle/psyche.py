"""The start of a warband's turn: the rout test, recovery, fleeing warriors, terror and
stupidity (seed 003, «Психология»), and jamming the enemy's lasting Melodies.
"""

from __future__ import annotations

import math

from shapely.geometry import Point as ShapelyPoint

from kubik.engine import Call, Emit, Forecast, Procedure, Verdict, emit, msg
from kubik.game.battle import GAP, Menu, clear_of, settle
from kubik.game.battle.tastes import taste
from kubik.rulesets.apocalypse.battle import moving, songs
from kubik.rulesets.apocalypse.battle.nerve import run_away, spirit_test_of, start_fleeing
from kubik.rulesets.apocalypse.battle.state import ApocalypseState
from kubik.rulesets.apocalypse.battle.warriors import Condition, Morale, Sight, Warrior
from kubik.rulesets.apocalypse.checks import spirit_test
from kubik.rulesets.apocalypse.psychology import (
    Fright,
    Stupor,
    fright,
    ignores_psychology,
    may_rout_voluntarily,
    must_test_rout,
    rout_spirit,
    rout_test,
    shuffle_stops_short,
    stupidity,
    terror_reach,
    terror_test,
)
from kubik.table import Point, TerrainKind


def start_of_turn(game: ApocalypseState, side: str) -> Procedure[None]:
    """Everything a warband does before its warriors act."""
    game.reset_turn(side)
    yield from _rout(game, side)
    if game.routed:
        return
    for w in game.side_warriors(side):
        yield from _recover(game, w)
    for w in game.side_warriors(side):
        if w.fit and w.morale is Morale.FLEEING:
            yield from _fleeing(game, w)
    for w in game.side_warriors(side):
        if w.fit and w.morale is Morale.STEADY:
            yield from _terror(game, w)
    for w in game.side_warriors(side):
        if w.in_battle and w.has("stupidity"):
            yield emit("apocalypse.game.stupidity_test", rules=("RA-PSY-11",), unit=game.name(w.id))
            spirit = yield from spirit_test_of(game, w)
            w.stupor = yield Call(stupidity, (spirit, bool(game.board.engaged(w))))
        else:
            w.stupor = Stupor.SENSIBLE
    yield from songs.jam_lasting(game, side)


def _rout(game: ApocalypseState, side: str) -> Procedure[None]:
    out, size = game.out_of_action(side), game.warband_size[side]
    if not must_test_rout(out, size):
        return
    menu: Menu[bool] = Menu()
    menu.offer(False, msg("apocalypse.option.fight_on"), Verdict.neutral())
    menu.offer(
        True,
        msg("apocalypse.option.withdraw"),
        may_rout_voluntarily(out, size),
        Forecast(score=taste("apocalypse", "withdraw")),
    )
    withdraw = yield from game.choose(
        menu,
        side,
        msg("apocalypse.reason.rout", side=game.side_name(side), out=out, size=size),
        default=False,
        rules=("RA-PSY-03",),
    )
    if withdraw:
        game.routed = side
        yield emit("apocalypse.game.withdraws", rules=("RA-PSY-03",), side=game.side_name(side))
        return
    leader = game.leader_of(side)
    fit = leader is not None and leader.fit
    others = [w.spirit for w in game.side_warriors(side) if w.fit]
    spirit = rout_spirit(leader.spirit if fit and leader is not None else None, others)
    passed = yield Call(rout_test, (spirit,))
    if not passed:
        game.routed = side


def _recover(game: ApocalypseState, w: Warrior) -> Procedure[None]:
    """Knocked down gets up, stunned becomes knocked down (RA-ABSENT-06 default)."""
    if w.condition is Condition.STUNNED:
        w.condition = Condition.KNOCKED_DOWN
        yield emit(
            "apocalypse.game.recovers",
            rules=("RA-ABSENT-06",),
            unit=game.name(w.id),
            condition=Condition.KNOCKED_DOWN,
        )
    elif w.condition is Condition.KNOCKED_DOWN:
        w.condition = Condition.STANDING
        w.wounds = min(w.wounds, w.toughness - 1)
        yield emit(
            "apocalypse.game.recovers",
            rules=("RA-ABSENT-06",),
            unit=game.name(w.id),
            condition=Condition.STANDING,
        )


def _fleeing(game: ApocalypseState, w: Warrior) -> Procedure[None]:
    """A fleeing warrior tests; passed, he stops (and does nothing this turn); failed, he
    runs d6 paces toward the nearest edge (RA-PSY-06)."""
    yield emit("apocalypse.game.flight_test", rules=("RA-PSY-06",), unit=game.name(w.id))
    spirit = yield from spirit_test_of(game, w)
    passed = yield Call(spirit_test, (spirit,))
    if passed:
        w.morale = Morale.STEADY
        w.turn.moved = w.turn.shot = w.turn.ran = True
        yield emit("apocalypse.game.rallies", rules=("RA-PSY-06",), unit=game.name(w.id))
        return
    yield from run_away(game, w, None)


def _terror(game: ApocalypseState, w: Warrior) -> Procedure[None]:
    """Within 3 paces of a terrifying enemy, a Spirit test or flee (RA-PSY-08, RA-PSY-09)."""
    reach = terror_reach()
    for enemy in game.board.enemies(w):
        if not enemy.fit or game.board.gap(w, enemy) > reach:
            continue
        if enemy.fright is Fright.TERROR and fright(enemy.fright, w.fright) is not Fright.TERROR:
            only_fear = fright(enemy.fright, w.fright) is Fright.FEAR
            yield emit(
                "apocalypse.game.only_fear" if only_fear else "apocalypse.game.immune",
                rules=("RA-PSY-09",),
                unit=game.name(w.id),
                fright=enemy.fright,
            )
            continue
        if fright(enemy.fright, w.fright) is not Fright.TERROR:
            continue
        if ignores_psychology(w.frenzied, True):
            continue
        if enemy.sight is Sight.HIDDEN:  # the test is taken; who makes it is not seen
            yield Emit(
                msg("apocalypse.game.terror_unseen", unit=game.name(w.id), unseen_by=enemy.side),
                ("RA-PSY-08",),
            )
        yield Emit(
            game.told(
                enemy,
                "apocalypse.game.terror_test",
                unit=game.name(w.id),
                enemy=game.name(enemy.id),
            ),
            ("RA-PSY-08",),
        )
        spirit = yield from spirit_test_of(game, w)
        passed = yield Call(terror_test, (spirit,))
        if not passed:
            w.terrified = True
            yield from start_fleeing(game, w, enemy.base.centre)
        return


def shuffle(game: ApocalypseState, w: Warrior) -> Procedure[None]:
    """Stupid, 1–3 (RA-PSY-12): straight forward — the way he faces — at half speed, never
    round anything. He cannot charge: a step that would bring him into contact with an
    enemy ends a pace short of him; he stops against an obstacle, impassable ground, a
    model or the table's edge; walking off a roof he falls from it (RA-MAN-06)."""
    yield emit("apocalypse.game.shuffles", rules=("RA-PSY-12",), unit=game.name(w.id))
    if w.fallen_turn == game.turn_number:
        return
    dx, dy = math.cos(w.facing), math.sin(w.facing)
    start, r = w.base.centre, w.base.radius
    length = _inside_table(game, start, (dx, dy), r, w.mobility / 2)
    roof = game.roof_under(w)
    stop = shuffle_stops_short()
    blocking = [
        f
        for f in game.table.features
        if f is not roof and (f.obstacle or f.kind is TerrainKind.IMPASSABLE)
    ]
    board = game.board
    enemies = [e for e in board.enemies(w) if e.in_battle]
    last, contact = 0.0, False
    steps = int(length / STEP + 1e-9)
    for i in range(1, steps + 1):
        t = i * STEP
        here = (start[0] + t * dx, start[1] + t * dy)
        if roof is not None and not roof.shape.covers(ShapelyPoint(here)):
            # over the edge: he falls off the roof
            landing = (round(start[0] + (t + r) * dx, 1), round(start[1] + (t + r) * dy, 1))
            if game.on_table(w.base.moved_to(landing)) and clear_of(
                [w.base.moved_to(landing)], game.board.blocking(w)
            ):
                game.place(w, landing)
            yield emit(
                "apocalypse.game.walks_off", rules=("RA-PSY-12", "RA-MAN-06"), unit=game.name(w.id)
            )
            yield from moving.fall(game, w, float(roof.elevation))
            return
        point = ShapelyPoint(here)
        if roof is None and any(f.shape.distance(point) < r for f in blocking):
            break
        base = w.base.moved_to(here)
        if any(board.gap_from((base,), e) <= GAP for e in enemies):
            contact = True
            break
        last = t
    if contact:  # he would touch an enemy: he stops a pace short of every one
        while last > 0:
            here = (start[0] + last * dx, start[1] + last * dy)
            if all(board.gap_from((w.base.moved_to(here),), e) >= stop - 1e-9 for e in enemies):
                break
            last = round(last - STEP, 1)
    if last <= 0:
        return
    goal = (start[0] + last * dx, start[1] + last * dy)
    others = game.board.blocking(w)
    end = settle((start, goal), lambda p: [w.base.moved_to(p)], others)
    if end is None or end == start:
        return
    yield from moving.travel(game, w, (start, end), end)


STEP = 0.1  # paces: how finely a shuffle is walked


def _inside_table(
    game: ApocalypseState, start: Point, way: tuple[float, float], r: float, paces: float
) -> float:
    """How far he goes ``paces`` along ``way`` before his base would leave the table."""
    limit = paces
    for position, step, size in (
        (start[0], way[0], game.table.width),
        (start[1], way[1], game.table.height),
    ):
        if step > 1e-12:
            limit = min(limit, (size - r - position) / step)
        elif step < -1e-12:
            limit = min(limit, (r - position) / step)
    return max(0.0, limit)


__all__ = ["shuffle", "start_of_turn"]
