"""The contact move of a charge that reached (SW-CC-03): the attackers run along their
way at the defenders' centre, so the way always meets the defenders' models before its
end. The contact rule stops them where one of their models first touches one of the
defenders': no spot of the way they walk overlaps a defender, and the two squads are
engaged."""

from __future__ import annotations

import math

from kubik.game.battle import overlapping
from kubik.game.battle.contact import STEP
from kubik.rulesets.steel_war.battle import assault
from kubik.rulesets.steel_war.battle.board import bases_at as bases_of_squad_at
from tests.game.ways import overlaps, up_to

from .builders import new_game, play, rules_in, scenario, unit


def test_SW_CC_03_the_attackers_stop_at_the_first_defender_they_meet() -> None:
    game = new_game(scenario([unit("s", "steel", (6, 4)), unit("l", "lianra", (8, 9))]))
    attacker, defender = game.squad("s"), game.squad("l")
    theirs = defender.bases()
    way = assault.charge_way(game, attacker, defender)
    assert way is not None
    start, bases_at = attacker.centre, bases_of_squad_at(attacker)
    assert overlaps(way, bases_at, theirs)  # the way, walked to its end, runs into them
    log = play(assault.contact, (game, attacker, defender)).result
    assert log is not None
    end = attacker.centre
    assert end != start
    assert not overlaps(up_to(way, end), bases_at, theirs)
    mine = attacker.bases()
    assert not any(overlapping(a, b) for a in mine for b in theirs)
    # one step (0.1") more along the way and they would overlap: they stand as close as
    # the table's grid lets them (base contact or within one step of it)
    gaps = [math.dist(a.centre, b.centre) - a.radius - b.radius for a in mine for b in theirs]
    assert 0 <= min(gaps) <= STEP + 0.01
    assert game.contacts.engaged("s", "l")
    assert "SW-CC-03" in rules_in(log.log)
    assert not game.contact_violations()
