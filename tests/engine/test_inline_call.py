"""``Call(inline=True)``: a step of its caller split off for the odds driver's memo.

Its rolls and events are logged at the caller's depth (a reader sees one procedure),
and its outcomes are exactly those of the same steps written in the caller. A
``tail`` step (:func:`~kubik.engine.requests.tail_step`), whose answer is its caller's
outcome, has the same odds without the caller replayed per answer; every driver
holds a procedure to that promise."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from kubik.core.errors import ProcedureError
from kubik.engine import Call, OddsDriver, Procedure, Roll, emit, msg
from kubik.engine.dice import D6
from kubik.engine.requests import tail_step
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


def hits_left_tail(strikes: int, needed: int) -> Procedure[int]:
    """:func:`hits_left` with its last step a tail step."""
    if strikes == 0 or needed == 0:
        yield emit("done")
        return needed
    (value,) = yield Roll(D6, "strike")
    yield emit("rolled")  # events may come between
    return (yield tail_step(hits_left_tail, strikes - 1, needed - (value >= 5)))


def test_tail_steps_have_the_odds_of_the_loop_they_replace() -> None:
    for strikes, needed in ((6, 3), (4, 4), (1, 1), (0, 2)):
        tail = OddsDriver().distribution(hits_left_tail, (strikes, needed))
        assert tail == OddsDriver().distribution(hits_left, (strikes, needed))
        assert tail == brute_force(hits_left_loop, (strikes, needed))


def test_tail_steps_play_and_log_as_the_loop() -> None:
    stepper = Stepper(hits_left_tail(3, 2))
    rolls = 0
    request = stepper.advance()
    while request is not None:
        rolls += 1
        request = stepper.advance((6,))
    assert (rolls, stepper.outcome) == (2, 0)
    assert [(e.event.id, e.depth) for e in stepper.log] == [("rolled", 0)] * 2 + [("done", 0)]


def asks_after_its_tail(strikes: int) -> Procedure[int]:
    left: int = yield tail_step(hits_left_tail, strikes, 1)
    yield Roll(D6, "one more")  # breaks the promise
    return left


def changes_its_tail(strikes: int) -> Procedure[int]:
    left: int = yield tail_step(hits_left_tail, strikes, 1)
    return left + 1  # breaks the promise


@pytest.mark.parametrize("procedure", [asks_after_its_tail, changes_its_tail])
def test_a_broken_tail_promise_is_refused_by_every_driver(
    procedure: Callable[[int], Procedure[int]],
) -> None:
    with pytest.raises(ProcedureError, match="after a tail call"):
        OddsDriver().distribution(procedure, (2,))
    stepper = Stepper(procedure(2))
    with pytest.raises(ProcedureError, match="after a tail call"):
        request = stepper.advance()
        while request is not None:
            request = stepper.advance((1,))


def _hit_any(left: int) -> bool:
    """Whether any hit was needed still: many answers to one outcome."""
    return left > 0


def strikes_then(strikes: int, needed: int, tail: bool) -> Procedure[bool]:
    """Whether hits are still needed after ``strikes``; the last step a ``tail`` call with
    ``then`` (its events read how many), or a plain call (the same rule written twice)."""
    (value,) = yield Roll(D6, "first strike")
    call = Call(
        hits_left_loop,
        (strikes - 1, needed - (value >= 5)),
        tail=tail,
        then=_hit_any if tail else None,
    )
    left: int = yield call
    yield emit("left", left=left)
    return _hit_any(left)


@pytest.mark.parametrize(("strikes", "needed"), [(4, 2), (3, 3), (1, 1)])
def test_then_maps_a_tail_calls_answers_to_the_callers_outcomes(strikes: int, needed: int) -> None:
    then = OddsDriver().distribution(strikes_then, (strikes, needed, True))
    plain = OddsDriver().distribution(strikes_then, (strikes, needed, False))
    assert then == plain == brute_force(strikes_then, (strikes, needed, True))


def test_then_plays_and_logs_as_the_plain_call() -> None:
    logs = []
    for tail in (True, False):
        stepper = Stepper(strikes_then(3, 2, tail))
        request = stepper.advance()
        while request is not None:
            request = stepper.advance((5,))
        logs.append((stepper.outcome, [(e.event, e.depth) for e in stepper.log]))
    assert logs[0] == logs[1] == (False, [(msg("done"), 1), (msg("left", left=0), 0)])


def breaks_its_then(strikes: int) -> Procedure[bool]:
    left: int = yield Call(hits_left_loop, (strikes, 1), tail=True, then=_hit_any)
    return left > 1  # breaks the promise where one hit is still needed


def test_a_broken_then_promise_is_refused_by_every_driver() -> None:
    with pytest.raises(ProcedureError, match="after a tail call"):
        OddsDriver().distribution(breaks_its_then, (2,))
    stepper = Stepper(breaks_its_then(2))
    with pytest.raises(ProcedureError, match="after a tail call"):
        request = stepper.advance()
        while request is not None:
            request = stepper.advance((1,))


def test_then_is_only_for_tail_calls() -> None:
    with pytest.raises(ProcedureError, match="then"):
        Call(hits_left_loop, (1, 1), then=_hit_any)


def _strike_after(strikes: int, needed: int) -> Callable[[tuple[int]], Any]:
    """What :func:`led_strikes` asks after its first strike rolls ``value``."""

    def leads_to(rolled: tuple[int]) -> Any:
        return Call(
            hits_left_loop, (strikes - 1, needed - (rolled[0] >= 5)), tail=True, then=_hit_any
        )

    return leads_to


def led_strikes(strikes: int, needed: int, leads: bool) -> Procedure[bool]:
    """:func:`strikes_then` whose first strike leads to its tail call (``Roll.leads_to``),
    or the same roll without the promise."""
    after = _strike_after(strikes, needed)
    (value,) = yield Roll(D6, "first strike", leads_to=after if leads else None)
    yield emit("struck", value=value)
    call = after((value,))
    left: int = yield call
    yield emit("left", left=left)
    return call.promised(left)


@pytest.mark.parametrize(("strikes", "needed"), [(4, 2), (3, 3), (1, 1)])
def test_a_roll_that_leads_to_its_tail_call_has_the_odds_of_the_replayed_roll(
    strikes: int, needed: int
) -> None:
    led = OddsDriver().distribution(led_strikes, (strikes, needed, True))
    replayed = OddsDriver().distribution(led_strikes, (strikes, needed, False))
    assert led == replayed == brute_force(led_strikes, (strikes, needed, True))


def leads_elsewhere(strikes: int) -> Procedure[bool]:
    yield Roll(D6, "first strike", leads_to=_strike_after(strikes, 2))
    left: int = yield Call(hits_left_loop, (strikes, 2), tail=True, then=_hit_any)  # not it
    return _hit_any(left)


def ends_before_it_leads(strikes: int) -> Procedure[bool]:
    (value,) = yield Roll(D6, "first strike", leads_to=_strike_after(strikes, 2))
    return value > 3


@pytest.mark.parametrize(
    ("procedure", "said"),
    [
        (leads_elsewhere, "not the call its roll leads to"),
        (ends_before_it_leads, "returned before"),
    ],
)
def test_a_roll_that_does_not_lead_where_it_said_is_refused(
    procedure: Callable[[int], Procedure[bool]], said: str
) -> None:
    with pytest.raises(ProcedureError, match=said):
        OddsDriver().distribution(procedure, (3,))
