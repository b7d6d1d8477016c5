"""Charges and the Close-combat phase on the table (OW-ABSENT-02/03, OW-CC-01..13)."""

from __future__ import annotations

import itertools
from fractions import Fraction

from kubik.engine.forecast import expected_value
from kubik.engine.log import RollEntry
from kubik.rulesets.old_west import division
from kubik.rulesets.old_west.battle.fights import contacts_of, order_of
from kubik.rulesets.old_west.battle.moves import options
from kubik.rulesets.old_west.battle.options import MoveKind, MoveTo
from kubik.rulesets.old_west.core import Status
from kubik.rulesets.old_west.division import Fight

from .helpers import Script, battle, event_ids, game_of, play, state_of, unit

DUEL = (
    unit("sam", "law", "deputy", 5, 12),
    unit("joe", "gang", "outlaw", 10, 12),
)
BUILDING = """
[[terrain]]
id = "store"
kind = "impassable"
cover = "hard"
blocks_los = true
points = [[10.6, 8], [14, 8], [14, 16], [10.6, 16]]
"""
CHARGE = Script(moves={"sam": (MoveKind.CHARGE, "joe")})


def test_OW_CC_01_a_charge_reaches_base_contact_and_the_fight_is_fought() -> None:
    """Advantage 6-1; Sam charges 4" into contact; dice 6 against 2 win the fight; Joe
    backs off, the strike (S3 v T3 needs 4) rolls 5: Joe is out, the law wins."""
    session = play(battle(*DUEL), [6, 1, 6, 2, 5], Script(moves=dict(CHARGE.moves)))
    state = state_of(session)
    assert state.figure("sam").base.centre == (9.0, 12.0)
    assert state.figure("joe").status is Status.OUT_OF_ACTION
    ids = event_ids(session)
    for expected in (
        "old_west.game.charges",
        "old_west.game.fight",
        "old_west.combat.back_off",
        "old_west.game.out_of_action",
    ):
        assert expected in ids
    assert session.result is not None and session.result.winner == "law"


def test_OW_CC_09_a_loser_with_a_wall_behind_him_is_trapped_and_struck_twice() -> None:
    """A building 0.6" behind Joe: he cannot back off 1", so Sam's one Attack strikes twice."""
    session = play(
        battle(*DUEL, terrain=BUILDING), [6, 1, 6, 2, 1, 4], Script(moves=dict(CHARGE.moves))
    )
    wound_rolls = [
        e for e in session.log if isinstance(e, RollEntry) and e.reason.id == "old_west.wound.roll"
    ]
    assert [e.values for e in wound_rolls] == [(1,), (4,)]
    assert "old_west.combat.trapped" in event_ids(session)
    assert session.result is not None and session.result.winner == "law"


def test_OW_CC_09_without_the_wall_the_same_fight_strikes_once() -> None:
    """The difference from the trapped reading: one strike, and its 1 does nothing."""
    session = play(battle(*DUEL), [6, 1, 6, 2, 1], Script(moves=dict(CHARGE.moves)))
    state = state_of(session)
    joe = state.figure("joe")
    assert joe.in_action and joe.base.centre[0] > 10.9  # backed off 1"
    assert not state.contacts.engaged("sam", "joe")  # the fight is over
    assert not session.finished


def test_OW_ABSENT_03_fights_are_formed_from_base_contact_and_split() -> None:
    """a1 touches b1 and b2, a2 touches b2: split into two one-to-one fights; two models
    touching one enemy make one two-against-one fight."""
    inch = "base_mm = 25.4"
    chain = battle(
        unit("a1", "law", "deputy", 10, 10, inch),
        unit("a2", "law", "deputy", 9, 11, inch),
        unit("b1", "gang", "outlaw", 11, 10, inch),
        unit("b2", "gang", "outlaw", 10, 11, inch),
    )
    game = game_of(chain)
    fights = division.divide(contacts_of(game), order_of(game))
    assert fights == (Fight(("a1",), ("b1",)), Fight(("a2",), ("b2",)))
    gang_up = battle(
        unit("a1", "law", "deputy", 10, 10, inch),
        unit("a2", "law", "deputy", 12, 10, inch),
        unit("b1", "gang", "outlaw", 11, 10, inch),
    )
    game = game_of(gang_up)
    (fight,) = division.divide(contacts_of(game), order_of(game))
    assert fight == Fight(("a1", "a2"), ("b1",)) and fight.id == "a1+a2 vs b1"


def test_OW_CC_03_charge_forecast_is_the_combat_rule_odds() -> None:
    """A brawler (F4 A1 S4) charging an outlaw (F3 T3): he wins on equal dice (better Fight)
    and wounds on 4+; losing, the outlaw's S3 wounds his T4 on 5+. Brute force: 11/72."""
    scenario = battle(unit("sam", "law", "brawler", 5, 12), unit("joe", "gang", "outlaw", 10, 12))
    game = game_of(scenario)
    sam = game.figure("sam")
    menu = options(game, sam, 6.0, None)
    charge = next(o for o in menu.options if o.kind is MoveKind.CHARGE)
    assert isinstance(charge, MoveTo)
    assert charge.target == "joe" and charge.distance == 4.0
    prediction = menu.offer_of(charge).forecast
    assert prediction is not None
    worth = Fraction(0)
    for mine, theirs, strike in itertools.product(range(1, 7), repeat=3):
        if mine >= theirs:
            worth += Fraction(int(strike >= 4), 216)
        else:
            worth -= Fraction(int(strike >= 5), 216)
    assert worth == Fraction(11, 72)
    assert expected_value(prediction) - Fraction(prediction.score) == worth
