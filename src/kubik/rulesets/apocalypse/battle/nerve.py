"""A warrior's nerve: the Spirit he tests on — his leader's within 3 paces (RA-PSY-04)
— and flight: breaking and running d6 paces away from the enemy or toward the nearest
edge of the table (RA-PSY-05/06, RA-PSY-08).
"""

from __future__ import annotations

import math

from kubik.engine import Call, Procedure, emit
from kubik.game.battle import GAP
from kubik.rulesets.apocalypse.battle.state import ApocalypseState
from kubik.rulesets.apocalypse.battle.warriors import Condition, Morale, Warrior, Watch
from kubik.rulesets.apocalypse.battle.wounds import singer_gone
from kubik.rulesets.apocalypse.psychology import flee_distance, spirit_for_test
from kubik.table import Point


def spirit_of(game: ApocalypseState, w: Warrior) -> int:
    """The Spirit he tests on: his leader's within 3 paces (RA-PSY-04)."""
    leader = game.leader_of(w.side)
    if leader is None or leader is w:
        return w.spirit
    fit = leader.fit and leader.morale is Morale.STEADY
    return spirit_for_test(w.spirit, leader.spirit, game.board.gap(w, leader), fit)


def spirit_test_of(game: ApocalypseState, w: Warrior) -> Procedure[int]:
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


def start_fleeing(game: ApocalypseState, w: Warrior, away_from: Point | None) -> Procedure[None]:
    """He breaks and flees (RA-PSY-05/06, RA-PSY-08)."""
    if not w.in_battle:
        return
    w.morale = Morale.FLEEING
    w.watch = Watch.NONE
    yield emit("apocalypse.game.flees", rules=("RA-PSY-06",), unit=game.name(w.id))
    yield from singer_gone(game, w)
    yield from run_away(game, w, away_from)


def run_away(game: ApocalypseState, w: Warrior, away_from: Point | None) -> Procedure[None]:
    """Run d6 paces: away from ``away_from``, else toward the nearest table edge; off the
    table he has left the battle (RA-PSY-06). Hemmed in where he stands, he is still in
    the fight he could not leave."""
    paces = yield Call(flee_distance, (0,))
    fighting = [game.warrior(o) for o in game.contacts.of(w.id)]
    x, y = w.base.centre
    width, height = game.table.width, game.table.height
    r = w.base.radius
    if away_from is None or away_from == (x, y):
        # toward the nearest edge, to the last place his base stands on the table
        edges = [
            (x, (r, y)),
            (width - x, (width - r, y)),
            (y, (x, r)),
            (height - y, (x, height - r)),
        ]
        distance, goal = min(edges)
        if distance - r <= paces:
            game.take_out(w, Condition.FLED)
            yield emit("apocalypse.game.left_table", rules=("RA-PSY-06",), unit=game.name(w.id))
            return
    else:
        dx, dy = x - away_from[0], y - away_from[1]
        norm = math.hypot(dx, dy)
        goal = (x + dx / norm * paces, y + dy / norm * paces)
        goal = (min(max(goal[0], r), width - r), min(max(goal[1], r), height - r))
    walked = game.walk(w, goal, float(paces))
    if walked is not None:
        game.place(w, walked.end)
    if all(game.board.gap(w, o) > GAP for o in fighting):
        game.contacts.release(w.id)


__all__ = ["run_away", "spirit_of", "spirit_test_of", "start_fleeing"]
