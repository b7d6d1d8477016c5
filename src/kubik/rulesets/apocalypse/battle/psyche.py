"""The start of a warband's turn: the rout test, recovery, fleeing warriors, terror and
stupidity (seed 003, «Психология»), and jamming the enemy's lasting Melodies.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from kubik.engine import Call, Forecast, Procedure, Verdict, emit, msg
from kubik.game.battle import Menu
from kubik.game.battle.tastes import taste
from kubik.rulesets.apocalypse.battle.warriors import Condition, Morale, Warrior, Watch
from kubik.rulesets.apocalypse.checks import spirit_test
from kubik.rulesets.apocalypse.psychology import (
    Fright,
    Stupor,
    flee_distance,
    fright,
    ignores_psychology,
    may_rout_voluntarily,
    must_test_rout,
    rout_spirit,
    rout_test,
    spirit_for_test,
    stupidity,
    terror_test,
)
from kubik.table import Point

if TYPE_CHECKING:
    from kubik.rulesets.apocalypse.battle.game import ApocalypseGame


def spirit_of(game: ApocalypseGame, w: Warrior) -> int:
    """The Spirit he tests on: his leader's within 3 paces (RA-PSY-04)."""
    leader = game.leader_of(w.side)
    if leader is None or leader is w:
        return w.spirit
    fit = leader.fit and leader.morale is Morale.STEADY
    return spirit_for_test(w.spirit, leader.spirit, game.gap(w, leader), fit)


def spirit_test_of(game: ApocalypseGame, w: Warrior) -> Procedure[int]:
    """The Spirit he tests on, saying so when it is his leader's (RA-PSY-04)."""
    spirit = spirit_of(game, w)
    if spirit != w.spirit:
        yield emit(
            "apocalypse.game.leader_spirit",
            rules=("RA-PSY-04",),
            unit=game.name(w.id),
            spirit=spirit,
        )
    return spirit


def start_of_turn(game: ApocalypseGame, side: str) -> Procedure[None]:
    """Everything a warband does before its warriors act."""
    from kubik.rulesets.apocalypse.battle import songs

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
            spirit = yield from spirit_test_of(game, w)
            w.stupor = yield Call(stupidity, (spirit, bool(game.engaged(w))))
        else:
            w.stupor = Stupor.SENSIBLE
    yield from songs.jam_lasting(game, side)


def _rout(game: ApocalypseGame, side: str) -> Procedure[None]:
    out, size = game.out_of_action(side), game.warband_size[side]
    if not must_test_rout(out, size):
        return
    menu: Menu[bool] = Menu()
    menu.offer(False, msg("apocalypse.option.fight_on"), Verdict.allow("RA-PSY-02"))
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


def _recover(game: ApocalypseGame, w: Warrior) -> Procedure[None]:
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


def _fleeing(game: ApocalypseGame, w: Warrior) -> Procedure[None]:
    """A fleeing warrior tests; passed, he stops (and does nothing this turn); failed, he
    runs d6 paces toward the nearest edge (RA-PSY-06)."""
    spirit = yield from spirit_test_of(game, w)
    passed = yield Call(spirit_test, (spirit,))
    if passed:
        w.morale = Morale.STEADY
        w.turn.moved = w.turn.shot = w.turn.ran = True
        yield emit("apocalypse.game.rallies", rules=("RA-PSY-06",), unit=game.name(w.id))
        return
    yield from run_away(game, w, None)


def _terror(game: ApocalypseGame, w: Warrior) -> Procedure[None]:
    """Within 3 paces of a terrifying enemy, a Spirit test or flee (RA-PSY-08, RA-PSY-09)."""
    from kubik.rulesets.apocalypse.core import decimal

    reach = decimal("psychology", "terror_paces")
    for enemy in game.enemies(w):
        if not enemy.fit or game.gap(w, enemy) > reach:
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
        spirit = yield from spirit_test_of(game, w)
        passed = yield Call(terror_test, (spirit,))
        if not passed:
            w.terrified = True
            yield from start_fleeing(game, w, enemy.base.centre)
        return


def start_fleeing(game: ApocalypseGame, w: Warrior, away_from: Point | None) -> Procedure[None]:
    """He breaks and flees (RA-PSY-05/06, RA-PSY-08)."""
    from kubik.rulesets.apocalypse.battle import songs

    if not w.in_battle:
        return
    w.morale = Morale.FLEEING
    w.watch = Watch.NONE
    yield emit("apocalypse.game.flees", rules=("RA-PSY-06",), unit=game.name(w.id))
    yield from songs.singer_gone(game, w)
    yield from run_away(game, w, away_from)


def run_away(game: ApocalypseGame, w: Warrior, away_from: Point | None) -> Procedure[None]:
    """Run d6 paces: away from ``away_from``, else toward the nearest table edge; off the
    table he has left the battle (RA-PSY-06)."""
    paces = yield Call(flee_distance, (0,))
    game.contacts.release(w.id)
    x, y = w.base.centre
    width, height = game.table.width, game.table.height
    if away_from is None or away_from == (x, y):
        edges = [(x, (0.0, y)), (width - x, (width, y)), (y, (x, 0.0)), (height - y, (x, height))]
        distance, goal = min(edges)
        if distance - w.base.radius <= paces:
            game.take_out(w, Condition.FLED)
            yield emit("apocalypse.game.left_table", rules=("RA-PSY-06",), unit=game.name(w.id))
            return
    else:
        dx, dy = x - away_from[0], y - away_from[1]
        norm = math.hypot(dx, dy)
        goal = (x + dx / norm * paces, y + dy / norm * paces)
        r = w.base.radius
        goal = (min(max(goal[0], r), width - r), min(max(goal[1], r), height - r))
    spot = game.walk(w, goal, float(paces))
    if spot is not None:
        game.place(w, spot)


__all__ = ["run_away", "spirit_of", "start_fleeing", "start_of_turn"]
