"""Test helpers for Old West: scripted choosers and a brute-force oracle with a chooser."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from itertools import product
from typing import Any

from kubik.engine import Choose, TableSession
from kubik.engine.log import ChoiceOrigin, RollEntry


class Scripted:
    """Answers decisions from a list (then the default) and remembers every request."""

    origin = ChoiceOrigin.HUMAN

    def __init__(self, answers: list[Hashable] | None = None) -> None:
        self.answers = list(answers or [])
        self.requests: list[Choose] = []

    def choose(self, request: Choose) -> Hashable:
        self.requests.append(request)
        return self.answers.pop(0) if self.answers else request.default


class ByPolicy:
    """A chooser from a policy (origin POLICY)."""

    origin = ChoiceOrigin.POLICY

    def __init__(self, policy: Callable[[Choose], Hashable]) -> None:
        self.policy = policy

    def choose(self, request: Choose) -> Hashable:
        return self.policy(request)


def table(
    procedure: Callable[..., Any], args: tuple[Any, ...], dice: list[int], chooser: Any = None
) -> TableSession:
    """Resolve with typed dice; asserts the procedure finished with exactly these dice."""
    session = TableSession(procedure, args, chooser=chooser)
    session.supply(dice)
    assert session.result is not None, f"still waiting for {session.pending}"
    return session


def roll_sizes(session: TableSession) -> list[tuple[str, int]]:
    """(roller, number of dice) of every roll, in order."""
    assert session.result is not None
    return [(e.roller, len(e.values)) for e in session.result.log if isinstance(e, RollEntry)]


def replay_oracle(
    procedure: Callable[..., Any],
    args: tuple[Any, ...],
    policy: Callable[[Choose], Hashable],
    limit: int = 200_000,
) -> dict[Any, Fraction]:
    """Exact distribution by replaying every ordered dice sequence through the table
    driver (no reducers, multisets or memoised calls), decisions by ``policy``."""
    result: dict[Any, Fraction] = {}
    leaves = 0

    def explore(values: list[int], weight: Fraction) -> None:
        nonlocal leaves
        session = TableSession(procedure, args, chooser=ByPolicy(policy))
        session.supply(values)
        if session.result is not None:
            leaves += 1
            assert leaves <= limit, "state space too large for brute force"
            outcome = session.result.outcome
            result[outcome] = result.get(outcome, Fraction(0)) + weight
            return
        request = session.pending
        assert request is not None
        count = 1
        for d in request.dice:
            count *= d.faces
        for roll in product(*(d.values for d in request.dice)):
            explore([*values, *roll], weight / count)

    explore([], Fraction(1))
    return result
