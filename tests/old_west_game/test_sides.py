"""Relabelling a rule's requests for the posses (kubik.rulesets.old_west.battle.sides).

The fast paths (a request naming no side passes through; a kept roll is relabelled once;
a changed request is copied field by field) must give exactly what
``dataclasses.replace`` gives.
"""

from __future__ import annotations

from dataclasses import replace

from kubik.engine import Call, Choose, Emit, Roll, msg
from kubik.engine.dice import D6
from kubik.rulesets.old_west.battle.sides import Labels, as_sides
from kubik.rulesets.old_west.core import Side

LAW, OUTLAWS = msg("game.name", en="the law"), msg("game.name", en="the outlaws")
LABELS = Labels((("a", "law"), ("b", "outlaws")), ((Side.A, LAW), (Side.B, OUTLAWS)))


def test_a_roll_gets_the_posse_as_roller_and_name() -> None:
    roll = Roll((D6, D6), msg("old_west.fight.roll", side=Side.B, dice=2), roller="b")
    made = LABELS.request(roll)
    assert made == replace(
        roll, roller="outlaws", reason=msg("old_west.fight.roll", side=OUTLAWS, dice=2)
    )
    assert LABELS.request(roll) is made  # the same kept roll is relabelled once


def test_a_decision_and_an_event_are_relabelled_like_replace() -> None:
    choose = Choose((0, 1), "a", msg("x.bid", side=Side.A), costs=(0, 1), sealed=True)
    assert LABELS.request(choose) == replace(choose, side="law", reason=msg("x.bid", side=LAW))
    event = Emit(msg("x.won", winner=Side.B), ("OW-CC-03",))
    assert LABELS.request(event) == replace(event, event=msg("x.won", winner=OUTLAWS))


def test_requests_naming_no_side_pass_unchanged() -> None:
    roll = Roll(D6, "plain", roller="law")
    event = Emit(msg("x.plain", n=1))
    assert LABELS.request(roll) is roll and LABELS.request(event) is event
    call = LABELS.request(Call(len, ((1, 2),)))
    assert call.procedure is as_sides and call.args == (LABELS, len, ((1, 2),))


def test_a_tail_call_keeps_its_promise_when_relabelled() -> None:
    """A rule's tail call whose caller returns ``then`` of its answer (a combat round
    returns its outcome made from the strikes' answer) keeps ``then``: without it the
    round inside a battle broke its promise and stopped the game."""
    call = LABELS.request(Call(len, ((1, 2),), inline=True, tail=True, then=str))
    assert (call.inline, call.tail, call.then) == (True, True, str)


def test_labels_hash_and_compare_by_their_tables() -> None:
    again = Labels((("a", "law"), ("b", "outlaws")), ((Side.A, LAW), (Side.B, OUTLAWS)))
    assert again == LABELS and hash(again) == hash(LABELS)
    assert hash(LABELS) == hash((LABELS.roles, LABELS.names))
