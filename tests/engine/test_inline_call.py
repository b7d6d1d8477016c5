"""``Call(inline=True)``: a step of its caller split off for the odds driver's memo.

Its rolls and events are logged at the caller's depth (a reader sees one procedure),
and its outcomes are exactly those of the same steps written in the caller."""

from __future__ import annotations

from fractions import Fraction

from kubik.dice import D6
from kubik.engine import Call, OddsDriver, Procedure, Roll, emit
from kubik.engine.stepper import Stepper
from tests.conftest import brute_force


def hits_left(strikes: int, needed: int) -> Procedure[int]:
    """Roll one die per strike until ``needed`` hits, each roll a step of its own."""
    if strikes == 0 or needed == 0:
        yield emit("done")
        return needed
    (value,) = yield Roll(D6, "strike")
    left = needed - (value >= 5)
    rest: int = yield Call(hits_left, (strikes - 1, left), inline=True)
    return rest


def hits_left_loop(strikes: int, needed: int) -> Procedure[int]:
    """The same rule as one loop."""
    while strikes and needed:
        (value,) = yield Roll(D6, "strike")
        needed -= value >= 5
        strikes -= 1
    yield emit("done")
    return needed


def brawl() -> Procedure[int]:
    yield emit("brawl")
    left: int = yield Call(hits_left, (3, 2))
    return left


def test_inline_steps_are_logged_at_their_callers_depth() -> None:
    stepper = Stepper(brawl())
    depths = []
    request = stepper.advance()
    while request is not None:
        depths.append(stepper.depth)
        request = stepper.advance((1,))
    # three rolls nested one Call deep, however many inline steps down they were made
    assert depths == [1, 1, 1]
    assert [(e.event.id, e.depth) for e in stepper.log] == [("brawl", 0), ("done", 1)]


def test_inline_steps_have_the_odds_of_the_loop_they_replace() -> None:
    stepwise = OddsDriver().distribution(hits_left, (6, 3))
    looped = OddsDriver().distribution(hits_left_loop, (6, 3))
    assert stepwise == looped == brute_force(hits_left_loop, (6, 3))
    assert sum(stepwise.values()) == Fraction(1)
