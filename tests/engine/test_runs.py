"""Procedures made of independent runs of themselves (:mod:`kubik.engine.runs`): the
odds driver's sum of one run's odds equals the procedure enumerated as written and
die by die, whichever way it adds the runs up, with a cap read by the outcome."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

import pytest

from kubik.core.errors import ProcedureError
from kubik.engine import Choose, OddsDriver, Roll
from kubik.engine.dice import D6
from kubik.engine.requests import Procedure
from kubik.engine.runs import RUNS_KEY, RunPrefixes, Runs, odds_by_runs, runs_summed
from tests.conftest import brute_force


def _amounts(outcome: tuple[int, int]) -> tuple[int, int]:
    return outcome


def _capped(most: int) -> Any:
    def outcome(amounts: tuple[int, ...]) -> tuple[int, int]:
        near, far = amounts
        return (near, min(far, most))

    return outcome


def _split(near: int, far: int, most: int) -> Runs | None:
    if near + far <= 1:
        return None
    return Runs(
        ((near, (1, 0, most)), (far, (0, 1, most))),
        _amounts,
        _capped(most),
        most=(None, most),
    )


def _at_least(needed: int) -> Any:
    def hits(values: tuple[int, ...]) -> int:
        return sum(v >= needed for v in values)

    return hits


_NEAR, _FAR = _at_least(4), _at_least(5)


def _wounds(values: tuple[int, ...]) -> int:
    return sum(3 if v == 6 else 1 for v in values if v >= 4)


@odds_by_runs(_split)
def volley(near: int, far: int, most: int) -> Procedure[tuple[int, int]]:
    """A toy of two pools: hits on 4+ near, 5+ far; a hit wounds on 4+, a 6 to wound
    counts 3; the far wounds are capped at ``most``."""
    wounds = []
    for dice, hits_of in ((near, _NEAR), (far, _FAR)):
        hits = 0
        if dice:
            hits = yield Roll((D6,) * dice, "to hit", unordered=True, reduce=hits_of)
        caused = 0
        if hits:
            caused = yield Roll((D6,) * hits, "to wound", unordered=True, reduce=_wounds)
        wounds.append(caused)
    return (wounds[0], min(wounds[1], most))


@contextmanager
def _as_written(procedure: Any) -> Iterator[None]:
    split = getattr(procedure, RUNS_KEY)
    delattr(procedure, RUNS_KEY)
    try:
        yield
    finally:
        setattr(procedure, RUNS_KEY, split)


@pytest.mark.parametrize(("near", "far", "most"), [(0, 0, 2), (1, 1, 2), (2, 1, 1), (0, 3, 4)])
def test_runs_sum_to_the_procedure_die_by_die(near: int, far: int, most: int) -> None:
    summed = OddsDriver().distribution(volley, (near, far, most))
    assert dict(summed) == brute_force(volley, (near, far, most))


@pytest.mark.parametrize(("near", "far", "most"), [(6, 0, 3), (4, 5, 2), (0, 7, 30)])
def test_runs_sum_to_the_procedure_as_written(near: int, far: int, most: int) -> None:
    summed = OddsDriver().distribution(volley, (near, far, most))
    with _as_written(volley):
        written = OddsDriver().distribution(volley, (near, far, most))
    assert dict(summed) == dict(written)
    assert sum(summed.values()) == 1


def _naive(pairs: tuple[tuple[tuple[int, ...], int], ...], n: int) -> dict[tuple[int, ...], int]:
    sums: dict[tuple[int, ...], int] = {(0,) * len(pairs[0][0]): 1}
    for _ in range(n):
        after: dict[tuple[int, ...], int] = {}
        for total, weight in sums.items():
            for amounts, count in pairs:
                key = tuple(a + b for a, b in zip(total, amounts, strict=True))
                after[key] = after.get(key, 0) + weight * count
        sums = after
    return sums


@pytest.mark.parametrize("n", [0, 1, 2, 9, 40])
def test_a_sum_counted_by_tallies_or_run_by_run_is_the_same(n: int) -> None:
    """Three amounts far apart (a tally each: counted by tallies) and close together
    (few sums: added run by run) give the naive sum's integers."""
    for pairs in (
        (((0,), 3), ((1,), 2), ((10,), 1)),
        (((0,), 1), ((1,), 1), ((2,), 1)),
        (((0, 0), 2), ((1, 0), 3), ((0, 2), 1)),
    ):
        total, summed = runs_summed([(n, (6, pairs))])
        assert total == 6**n
        assert dict(summed) == _naive(pairs, n)


def test_an_amount_kept_at_most_its_cap_merges_the_sums_past_it() -> None:
    pairs = (((0, 0), 2), ((1, 0), 3), ((0, 2), 1))
    total, summed = runs_summed([(7, (6, pairs)), (3, (6, pairs))], most=(None, 3))
    expected: dict[tuple[int, ...], int] = {}
    for (near, far), count in _naive(pairs, 10).items():
        key = (near, min(far, 3))
        expected[key] = expected.get(key, 0) + count
    assert total == 6**10
    assert dict(summed) == expected


def test_pools_of_one_run_share_their_sums_whatever_the_order_asked() -> None:
    """Pools that differ only in size, every amount capped, are extended from the sums
    of smaller pools: the same integers, in the same order, as each pool summed alone."""
    pairs = (((0, 0), 2), ((1, 0), 3), ((0, 2), 1), ((2, 1), 4))
    shared = RunPrefixes((10, pairs), (5, 3))
    for n in (23, 9, 0, 1, 16, 17, 8, 40):
        assert shared.summed(n) == runs_summed([(n, (10, pairs))], most=(5, 3))


def test_runs_of_a_procedure_with_a_decision_are_refused() -> None:
    def split(n: int) -> Runs | None:
        return None if n == 1 else Runs(((n, (1,)),), lambda x: (x,), lambda s: s[0])

    @odds_by_runs(split)
    def chooses(n: int) -> Procedure[int]:
        pick = yield Choose((0, 1), "a", "pick", default=1)
        return int(pick)

    with pytest.raises(ProcedureError, match="decision"):
        OddsDriver().distribution(chooses, (3,))


def test_a_split_into_itself_is_refused() -> None:
    @odds_by_runs(lambda n: Runs(((n, (n,)),), lambda x: (x,), lambda s: s[0]))
    def same(n: int) -> Procedure[int]:
        return n
        yield

    with pytest.raises(ProcedureError, match="itself"):
        OddsDriver().distribution(same, (2,))


def test_the_sum_is_exact_for_a_large_pool() -> None:
    """Forty dice near: every one hits (1/2) and wounds with a 6 (1/6) for 120 wounds,
    exactly (1/12)^40; the far wounds' cap leaves at most its value."""
    dist = OddsDriver().distribution(volley, (40, 0, 1))
    assert dist[(120, 0)] == Fraction(1, 12**40)
    assert sum(dist.values()) == 1
    far = OddsDriver().distribution(volley, (0, 40, 5))
    assert {f for _, f in far} == set(range(6))
