"""The four drivers on small procedures written for the test, checked by brute force."""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Any

import numpy as np
import pytest
from scipy.stats import chisquare

from kubik.core.errors import DiceAnswerError, ProcedureError
from kubik.engine import (
    Call,
    ChoiceOrigin,
    Choose,
    DiceOrigin,
    Distribution,
    OddsCache,
    OddsDriver,
    PolicyChooser,
    Procedure,
    Roll,
    TableSession,
    Tally,
    emit,
    msg,
    multiset_weights,
    play,
    roll_branches,
    simulate,
)
from kubik.engine.dice import D4, D6, D8, D10, D12
from kubik.engine.log import ChoiceEntry, EventEntry, RollEntry
from tests.conftest import brute_force


def armour_test(armour: Any, power: Any) -> Procedure[str]:
    p, a = yield Roll((power, armour), "power vs armour")
    if p >= 3 * a:
        return "killed"
    return "wounded" if p > a else "unharmed"


def volley(hits: int) -> Procedure[tuple[int, int]]:
    tally = yield Call(armour_test, (D4, D10), times=hits)
    return tally["wounded"], tally["killed"]


@dataclass(frozen=True)
class CountAbove:
    """How many of the first dice beat the last die — with a vectorised form."""

    def __call__(self, values: tuple[int, ...]) -> int:
        return sum(v > values[-1] for v in values[:-1])

    def batch(self, faces: np.ndarray) -> np.ndarray:
        return (faces[:, :-1] > faces[:, -1:]).sum(axis=1)


def opposed(reduce: Any) -> Procedure[int]:
    beaten = yield Roll((D8, D6, D10, D12), "pool vs range die", reduce=reduce)
    return min(int(beaten), 2)


def best_of(n: int) -> Procedure[int]:
    best = yield Roll((D6,) * n, "best die", unordered=True, reduce=max)
    yield emit("test.best", best=best)
    return int(best)


def decide() -> Procedure[tuple[str, int]]:
    side = yield Choose(("left", "right"), side="a", reason="which way", default="right")
    (v,) = yield Roll(D6, "go")
    return side, v


def test_multiset_weights_match_ordered_enumeration() -> None:
    ps = {"a": Fraction(1, 6), "b": Fraction(1, 3), "c": Fraction(1, 2)}
    expected: dict[Tally[str], Fraction] = {}
    for seq in product(ps, repeat=4):
        t = Tally(seq)
        w = Fraction(1)
        for s in seq:
            w *= ps[s]
        expected[t] = expected.get(t, Fraction(0)) + w
    assert dict(multiset_weights(ps, 4)) == expected


def test_unordered_roll_branches_match_brute_force() -> None:
    request = Roll((D6, D6, D6), "pool", unordered=True)
    branches = dict(roll_branches(request))
    expected: dict[tuple[int, ...], Fraction] = {}
    for values in product(range(1, 7), repeat=3):
        key = tuple(sorted(values))
        expected[key] = expected.get(key, Fraction(0)) + Fraction(1, 216)
    assert branches == expected


def test_vectorised_reducer_agrees_with_python_reducer() -> None:
    plain = dict(roll_branches(Roll((D8, D6, D10, D12), "x", reduce=CountAbove().__call__)))
    vectorised = dict(roll_branches(Roll((D8, D6, D10, D12), "x", reduce=CountAbove())))
    assert plain == vectorised
    assert sum(plain.values()) == 1


@pytest.mark.parametrize("reduce", [CountAbove(), CountAbove().__call__])
def test_odds_of_a_reduced_roll_match_brute_force(reduce: Any) -> None:
    exact = OddsDriver().distribution(opposed, (reduce,))
    assert dict(exact) == brute_force(opposed, (reduce,))
    assert sum(exact.values()) == 1


def test_call_times_convolves_like_nested_enumeration() -> None:
    for hits in range(0, 4):
        exact = OddsDriver().distribution(volley, (hits,))
        assert dict(exact) == brute_force(volley, (hits,)), hits


class Injuries:
    """(wounded, killed) of a tally of armour tests, with a fold form (one test at a time)."""

    def __call__(self, tally: Tally[str]) -> tuple[int, int]:
        return tally["wounded"], tally["killed"]

    def start(self) -> tuple[int, int]:
        return 0, 0

    def step(self, counts: tuple[int, int], injury: str) -> tuple[int, int]:
        return counts[0] + (injury == "wounded"), counts[1] + (injury == "killed")

    def finish(self, counts: tuple[int, int]) -> tuple[int, int]:
        return counts


def folded_volley(hits: int, reduce: Any) -> Procedure[tuple[int, int]]:
    counts: tuple[int, int] = yield Call(armour_test, (D4, D10), times=hits, reduce=reduce)
    return counts


@pytest.mark.parametrize("hits", range(0, 4))
def test_call_times_folds_a_reducer_with_a_fold_form_exactly(hits: int) -> None:
    """A reducer's fold form (runs folded one by one) gives the counts of every tally."""
    folded = OddsDriver().distribution(folded_volley, (hits, Injuries()))
    plain = OddsDriver().distribution(folded_volley, (hits, Injuries().__call__))
    assert dict(folded) == dict(plain) == brute_force(folded_volley, (hits, Injuries()))
    assert dict(folded) == dict(OddsDriver().distribution(volley, (hits,)))


@pytest.mark.parametrize("hits", [12, 20])
def test_call_times_counts_the_tallies_where_folding_would_cost_more(hits: int) -> None:
    """Where each tally is its own answer the fold stops at its budget; the answers are
    the same either way."""
    folded = OddsDriver().distribution(folded_volley, (hits, Injuries()))
    assert dict(folded) == dict(
        OddsDriver().distribution(folded_volley, (hits, Injuries().__call__))
    )


def test_calls_are_memoised_per_procedure_and_arguments() -> None:
    cache = OddsCache()
    driver = OddsDriver(cache=cache)
    driver.distribution(volley, (3,))
    before = len(cache.calls)
    driver.distribution(volley, (2,))
    assert len(cache.calls) == before + 1  # armour_test reused, only volley(2) is new
    cache.clear()
    assert len(cache) == 0


def test_unordered_best_of_matches_brute_force() -> None:
    exact = OddsDriver().distribution(best_of, (3,))
    assert dict(exact) == brute_force(best_of, (3,))
    assert exact[6] == 1 - Fraction(5, 6) ** 3


def test_choose_is_answered_by_the_policy() -> None:
    default = OddsDriver().distribution(decide)
    assert {o[0] for o in default} == {"right"}
    lefty = OddsDriver(policy=lambda request: "left").distribution(decide)
    assert {o[0] for o in lefty} == {"left"}
    with pytest.raises(ProcedureError):
        OddsDriver(policy=lambda request: "up").distribution(decide)


def test_distribution_is_exact_and_sums_to_one() -> None:
    with pytest.raises(ValueError, match="sum to"):
        Distribution({1: Fraction(1, 3)})
    d = Distribution.from_weights({"x": 1, "y": 3})
    assert d["y"] == Fraction(3, 4) and d["z"] == 0


def test_play_driver_is_reproducible_from_the_seed_passed_in() -> None:
    first = play(volley, (5,), random.Random(42))
    second = play(volley, (5,), random.Random(42))
    assert first.outcome == second.outcome and first.answers == second.answers
    assert all(e.origin is DiceOrigin.VIRTUAL for e in first.rolls)
    numpy_run = play(volley, (5,), np.random.default_rng(42))
    assert len(numpy_run.rolls) == 5


def test_play_logs_rolls_choices_and_events_in_order() -> None:
    result = play(best_of, (2,), random.Random(1))
    assert isinstance(result.log[0], RollEntry) and isinstance(result.log[1], EventEntry)
    chosen = play(decide, (), random.Random(1), PolicyChooser(lambda r: "left", ChoiceOrigin.BOT))
    assert isinstance(chosen.log[0], ChoiceEntry) and chosen.log[0].answer == "left"
    assert chosen.outcome[0] == "left"


def test_table_driver_uses_typed_dice_in_order() -> None:
    session = TableSession(volley, (2,))
    session.supply([7, 2, 3, 1])
    assert session.result is not None
    assert session.result.outcome == (0, 2)  # 7 ≥ 3·2 killed; 3 ≥ 3·1 killed
    assert all(e.origin is DiceOrigin.TYPED for e in session.result.rolls)


def test_table_driver_missing_dice_keep_what_was_answered() -> None:
    session = TableSession(volley, (2,))
    session.supply([7, 2])
    assert not session.finished and session.pending is not None
    assert session.pending.dice == (D10, D4)
    session.supply([3, 1])  # the rest: continues where it stopped
    assert session.result is not None and session.result.outcome == (0, 2)


def test_table_driver_rejects_impossible_values_and_keeps_earlier_answers() -> None:
    session = TableSession(volley, (2,))
    with pytest.raises(DiceAnswerError, match="a d4 cannot show 5"):
        session.supply([7, 2, 3, 5])
    assert len(session.answers) == 1  # the first hit's dice were kept
    session.supply([3, 1])
    assert session.result is not None and session.result.outcome == (0, 2)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        (["x"], "'x' is not a number"),
        ([0], "cannot show 0"),
        ([11], "a d10 cannot show 11"),
        ([True], "is not a number"),
    ],
)
def test_table_driver_names_the_die_and_the_problem(values: list[Any], message: str) -> None:
    session = TableSession(volley, (1,))
    with pytest.raises(DiceAnswerError, match=message):
        session.supply(values)


def test_table_driver_rejects_extra_dice() -> None:
    session = TableSession(volley, (1,))
    with pytest.raises(DiceAnswerError, match="too many dice: 1"):
        session.supply([5, 1, 6])
    assert session.result is not None  # the resolution itself is kept


def test_simulate_agrees_with_odds() -> None:
    exact = OddsDriver().distribution(volley, (3,))
    sim = simulate(volley, (3,), runs=6000, seed=7)
    outcomes = list(exact)
    observed = [sim.counts.get(o, 0) for o in outcomes]
    expected = [float(exact[o]) * sim.runs for o in outcomes]
    assert sum(observed) == sim.runs
    assert chisquare(observed, expected).pvalue > 0.001
    for estimate in sim.estimates():
        low, high = estimate.interval
        assert low <= estimate.p <= high


def test_simulate_uses_a_batch_form_when_given() -> None:
    def batch(inp: int, rng: np.random.Generator, n: int) -> list[Hashable]:
        return [int(x) for x in rng.integers(1, 7, size=(n, inp)).max(axis=1)]

    exact = OddsDriver().distribution(best_of, (2,))
    sim = simulate(best_of, (2,), runs=6000, seed=3, batch=batch)
    outcomes = sorted(exact)
    observed = [sim.counts.get(o, 0) for o in outcomes]
    assert chisquare(observed, [float(exact[o]) * 6000 for o in outcomes]).pvalue > 0.001
    again = simulate(best_of, (2,), runs=6000, seed=3, batch=batch)
    assert again.counts == sim.counts


def test_a_procedure_yielding_garbage_is_a_protocol_error() -> None:
    def broken() -> Procedure[int]:
        yield "roll a die"  # type: ignore[misc]
        return 0

    with pytest.raises(ProcedureError):
        play(broken, (), random.Random(0))
    with pytest.raises(ProcedureError):
        OddsDriver().distribution(broken)


def test_requests_validate_their_shape() -> None:
    with pytest.raises(ProcedureError):
        Roll((), "nothing")
    with pytest.raises(ProcedureError):
        Roll((D6, D8), "mixed", unordered=True)
    with pytest.raises(ProcedureError):
        Choose((), "a", "empty")
    with pytest.raises(ProcedureError):
        Choose(("x",), "a", "bad default", default="y")
    assert Roll(D6, msg("m", n=1)).reason.kwargs == {"n": 1}


def test_odds_by_shares_a_distribution_between_calls_differing_in_rule_ids() -> None:
    from kubik.engine.odds import odds_by

    runs: list[tuple[str, ...]] = []

    @odds_by(lambda needed, rules: (needed,))
    def hit(needed: int, rules: tuple[str, ...]) -> Procedure[bool]:
        runs.append(rules)
        (value,) = yield Roll(D6, "to hit", rules=rules)
        return bool(value >= needed)

    driver = OddsDriver()
    first = driver.distribution(hit, (4, ("SW-FIRE-01",)))
    enumerated = len(runs)
    again = driver.distribution(hit, (4, ("SW-FIRE-02",)))
    assert first == again and first[True] == Fraction(1, 2)
    assert len(runs) == enumerated  # computed once for both annotations
    assert driver.distribution(hit, (5, ("SW-FIRE-01",)))[True] == Fraction(1, 3)


def test_a_policy_that_raises_stop_iteration_is_a_fault_not_an_outcome() -> None:
    from kubik.core.errors import ProcedureError
    from kubik.engine.odds import OddsDriver
    from kubik.engine.requests import Choose

    def pick() -> Any:
        answer = yield Choose(("far", "near"), "steel", "target")
        return answer

    def broken(request: Choose) -> Any:
        raise StopIteration

    with pytest.raises(ProcedureError, match="stopped"):
        OddsDriver(broken).counted(pick, ())
