"""An independent brute-force expectimax: every dice sequence and every choice, flat.

No reducers, no multisets, no memoised calls, no value tables for sub-procedures:
the procedure runs flat through the play engine's stepper (sub-procedures inline),
every die of every roll is enumerated face by face, every decision is tried, and a
decision takes the option whose final outcome is worth most to its side (the goal of
the procedure asked about), then the one spending least, then the earlier one.
Sealed decisions of two sides asked one after the other are a matrix game solved by
:func:`kubik.engine.games.security_strategy` (itself checked against certificates).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from fractions import Fraction
from itertools import product
from typing import Any

from kubik.engine import Choose, Roll
from kubik.engine.games import security_strategy, transpose
from kubik.engine.stepper import Stepper

Worths = Mapping[str, Callable[[Any], Any]]


class _Budget:
    def __init__(self, limit: int) -> None:
        self.left = limit

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise AssertionError("state space too large for brute force; use a smaller example")


def _pending(
    procedure: Callable[..., Any], args: tuple[Any, ...], answers: list[Any]
) -> tuple[Any, Any]:
    """(pending request, None) or (None, outcome) after sending ``answers`` in order."""
    stepper = Stepper(procedure(*args))
    request = stepper.advance()
    for answer in answers:
        assert request is not None, "finished before its answers"
        request = stepper.advance(answer)
    return (request, None) if request is not None else (None, stepper.outcome)


def brute_optimal(
    procedure: Callable[..., Any],
    args: tuple[Any, ...],
    worths: Worths,
    limit: int = 200_000,
) -> tuple[dict[Any, Fraction], dict[str, Fraction], dict[str, Fraction]]:
    """The outcome distribution under optimal play, each side's expected worth and spend."""
    sides = sorted(worths)
    budget = _Budget(limit)

    def solve(
        answers: list[Any],
    ) -> tuple[dict[str, Fraction], dict[str, Fraction], dict[Any, Fraction]]:
        budget.spend()
        request, outcome = _pending(procedure, args, answers)
        if request is None:
            value = {s: Fraction(worths[s](outcome)) for s in sides}
            return value, {s: Fraction(0) for s in sides}, {outcome: Fraction(1)}
        if isinstance(request, Roll):
            faces = list(product(*(d.values for d in request.dice)))
            share = Fraction(1, len(faces))
            total_v = {s: Fraction(0) for s in sides}
            total_c = {s: Fraction(0) for s in sides}
            dist: dict[Any, Fraction] = {}
            for values in faces:
                v, c, d = solve([*answers, request.answer(values)])
                for s in sides:
                    total_v[s] += share * v[s]
                    total_c[s] += share * c[s]
                for o, p in d.items():
                    dist[o] = dist.get(o, Fraction(0)) + share * p
            return total_v, total_c, dist
        assert isinstance(request, Choose)
        if request.sealed:
            first_next, _ = _pending(procedure, args, [*answers, request.options[0]])
            if (
                isinstance(first_next, Choose)
                and first_next.sealed
                and first_next.side != request.side
            ):
                return _matrix(request, first_next, answers)
        best: tuple[Any, ...] | None = None
        for index, option in enumerate(request.options):
            v, c, d = solve([*answers, option])
            c = {**c, request.side: c[request.side] + request.cost(option)}
            key = (v[request.side], -c[request.side], -index)
            if best is None or key > best[0]:
                best = (key, v, c, d)
        assert best is not None
        return best[1], best[2], best[3]

    def _matrix(
        first: Choose, second: Choose, answers: list[Any]
    ) -> tuple[dict[str, Fraction], dict[str, Fraction], dict[Any, Fraction]]:
        cells = []
        for a in first.options:
            row = []
            for b in second.options:
                v, c, d = solve([*answers, a, b])
                c = {
                    **c,
                    first.side: c[first.side] + first.cost(a),
                }
                c = {**c, second.side: c[second.side] + second.cost(b)}
                row.append((v, c, d))
            cells.append(row)
        rows = [[cell[0][first.side] for cell in row] for row in cells]
        columns = transpose([[cell[0][second.side] for cell in row] for row in cells])
        _, x0 = security_strategy(rows)
        _, y0 = security_strategy(columns)
        row_costs = [
            sum((y * cell[1][first.side] for y, cell in zip(y0, row, strict=True)), Fraction(0))
            for row in cells
        ]
        column_costs = [
            sum((x * cells[i][j][1][second.side] for i, x in enumerate(x0)), Fraction(0))
            for j in range(len(second.options))
        ]
        _, x = security_strategy(rows, row_costs)
        _, y = security_strategy(columns, column_costs)
        total_v = {s: Fraction(0) for s in sides}
        total_c = {s: Fraction(0) for s in sides}
        dist: dict[Any, Fraction] = {}
        for i, px in enumerate(x):
            for j, py in enumerate(y):
                v, c, d = cells[i][j]
                for s in sides:
                    total_v[s] += px * py * v[s]
                    total_c[s] += px * py * c[s]
                for o, p in d.items():
                    dist[o] = dist.get(o, Fraction(0)) + px * py * p
        return total_v, total_c, {o: p for o, p in dist.items() if p}

    value, cost, dist = solve([])
    return dist, value, cost


def as_worths(goals: Mapping[str, Any]) -> dict[str, Callable[[Any], Hashable]]:
    """The worth functions of declared goals, by side."""
    return {side: goal.worth for side, goal in goals.items()}
