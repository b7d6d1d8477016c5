"""Shared test helpers: an independent brute-force oracle for any procedure."""

from __future__ import annotations

import os
from collections.abc import Callable
from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from kubik.engine import TableSession

# The test suite never reads or writes the user's cache of answers (kubik.cli.answers);
# tests/cli/test_answer_cache.py turns it on in a temporary KUBIK_HOME.
os.environ["KUBIK_ANSWER_CACHE"] = "off"


def brute_force(
    procedure: Callable[..., Any], args: tuple[Any, ...], limit: int = 300_000
) -> dict[Any, Fraction]:
    """Exact distribution by walking every ordered dice sequence through the table driver.

    Independent of the odds driver: no reducers, no multisets, no memoised calls —
    every die of every roll is enumerated, each sequence replayed from the start.
    """
    result: dict[Any, Fraction] = {}
    leaves = 0

    def explore(values: list[int], weight: Fraction) -> None:
        nonlocal leaves
        session = TableSession(procedure, args)
        session.supply(values)
        if session.result is not None:
            leaves += 1
            if leaves > limit:
                raise AssertionError("state space too large for brute force; use a smaller example")
            outcome = session.result.outcome
            result[outcome] = result.get(outcome, Fraction(0)) + weight
            return
        request = session.pending
        assert request is not None
        faces = [d.faces for d in request.dice]
        share = weight / _prod(faces)
        for roll in product(*(d.values for d in request.dice)):
            explore([*values, *roll], share)

    explore([], Fraction(1))
    return result


def _prod(numbers: list[int]) -> int:
    out = 1
    for n in numbers:
        out *= n
    return out


@pytest.fixture
def oracle() -> Callable[..., dict[Any, Fraction]]:
    """The brute-force oracle, as a fixture."""
    return brute_force
