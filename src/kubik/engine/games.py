"""Simultaneous decisions solved exactly: matrix games over rational payoffs.

Two sides bidding Fame in secret (OW-HERO-03) choose at once, so neither can
respond to the other: each plays a *security strategy* — the mixed strategy that
guarantees it the most whatever the other does. When the two objectives are
opposite (a zero-sum game, like "wins the fight") the two security strategies form
the equilibrium and the guaranteed values add up to the whole. Among equally safe
strategies a side takes the one that spends least.

Everything is exact: a small two-phase simplex over :class:`~fractions.Fraction`
with Bland's rule (no cycling), fine for the few options a bid has.

>>> from fractions import Fraction as F
>>> value, mix = security_strategy([[F(1), F(-1)], [F(-1), F(1)]])  # matching pennies
>>> value, mix
(Fraction(0, 1), (Fraction(1, 2), Fraction(1, 2)))
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from kubik.core.errors import ProcedureError

Matrix = Sequence[Sequence[Fraction]]


def _pivot(table: list[list[Fraction]], row: int, column: int) -> None:
    pivot_row = table[row]
    factor = pivot_row[column]
    if factor != 1:
        table[row] = pivot_row = [v / factor for v in pivot_row]
    for index, other in enumerate(table):
        if index == row:
            continue
        scale = other[column]
        if scale:
            table[index] = [a - scale * b for a, b in zip(other, pivot_row, strict=True)]


def _optimise(
    table: list[list[Fraction]], basis: list[int], cost: Sequence[Fraction], allowed: int
) -> None:
    """Pivot to the minimum of ``cost`` over the first ``allowed`` columns (Bland's rule)."""
    while True:
        entering = -1
        for column in range(allowed):
            if column in basis:
                continue
            reduced = cost[column] - sum(
                (cost[basis[i]] * table[i][column] for i in range(len(basis))), Fraction(0)
            )
            if reduced < 0:
                entering = column
                break
        if entering < 0:
            return
        leaving = -1
        best: tuple[Fraction, int] | None = None
        for i, row in enumerate(table):
            if row[entering] > 0:
                ratio = (row[-1] / row[entering], basis[i])
                if best is None or ratio < best:
                    best, leaving = ratio, i
        if leaving < 0:
            raise ProcedureError("linear programme is unbounded")
        _pivot(table, leaving, entering)
        basis[leaving] = entering


def minimise(
    cost: Sequence[Fraction], rows: Sequence[Sequence[Fraction]], rhs: Sequence[Fraction]
) -> tuple[Fraction, ...]:
    """A vertex minimising ``cost · x`` subject to ``rows · x = rhs``, ``x ≥ 0`` (exact)."""
    n = len(cost)
    m = len(rows)
    table: list[list[Fraction]] = []
    for i, (row, right) in enumerate(zip(rows, rhs, strict=True)):
        sign = -1 if right < 0 else 1
        artificial = [Fraction(int(k == i)) for k in range(m)]
        table.append([sign * Fraction(v) for v in row] + artificial + [sign * Fraction(right)])
    basis = [n + i for i in range(m)]
    phase_one = [Fraction(0)] * n + [Fraction(1)] * m
    _optimise(table, basis, phase_one, n + m)
    if any(basis[i] >= n and table[i][-1] != 0 for i in range(m)):
        raise ProcedureError("linear programme is infeasible")
    for i in range(m):  # drive zero-valued artificials out of the basis, or drop their rows
        if basis[i] >= n:
            column = next((j for j in range(n) if table[i][j] != 0 and j not in basis), -1)
            if column >= 0:
                _pivot(table, i, column)
                basis[i] = column
    keep = [i for i in range(m) if basis[i] < n]
    table = [[*table[i][:n], table[i][-1]] for i in keep]
    basis = [basis[i] for i in keep]
    _optimise(table, basis, [Fraction(c) for c in cost], n)
    x = [Fraction(0)] * n
    for i, column in enumerate(basis):
        x[column] = table[i][-1]
    return tuple(x)


def security_strategy(
    payoff: Matrix, costs: Sequence[Fraction] | None = None
) -> tuple[Fraction, tuple[Fraction, ...]]:
    """The row side's guaranteed value and its mixed strategy over the rows.

    ``payoff[i][j]``: what the row side gets when it plays row i and the other side
    column j. Among the strategies that guarantee the value, the one with the least
    expected ``costs`` (per row) is returned.

    Remembered by the matrix and the costs (the last :data:`GAMES_KEPT`): a fight's
    secret bids meet the same game under many rolls (only the gap between the dice
    counts), and solving one is a linear programme.
    """
    key = (tuple(map(tuple, payoff)), None if costs is None else tuple(costs))
    known = _solved_games.get(key)
    if known is None:
        known = _security_strategy(payoff, costs)
        if len(_solved_games) >= GAMES_KEPT:
            _solved_games.clear()
        _solved_games[key] = known
    return known


#: Matrix games remembered with their security strategies (an engine limit, not a rule).
GAMES_KEPT = 4096
_solved_games: dict[Any, tuple[Fraction, tuple[Fraction, ...]]] = {}


def _security_strategy(
    payoff: Matrix, costs: Sequence[Fraction] | None
) -> tuple[Fraction, tuple[Fraction, ...]]:
    rows, columns = len(payoff), len(payoff[0])
    pure = _saddle(payoff, costs)
    if pure is not None:
        return min(payoff[pure]), tuple(Fraction(int(i == pure)) for i in range(rows))
    low = min(min(row) for row in payoff)
    shift = 1 - low  # every shifted payoff is at least 1, so the value is positive
    shifted = [[Fraction(v) + shift for v in row] for row in payoff]
    # variables: x_1..x_rows, v, s_1..s_columns;  Σ_i x_i M[i][j] - v - s_j = 0;  Σ x = 1
    constraints = []
    for j in range(columns):
        slack = [Fraction(-int(k == j)) for k in range(columns)]
        constraints.append([shifted[i][j] for i in range(rows)] + [Fraction(-1), *slack])
    constraints.append([Fraction(1)] * rows + [Fraction(0)] * (1 + columns))
    rhs = [Fraction(0)] * columns + [Fraction(1)]
    primary = [Fraction(0)] * rows + [Fraction(-1)] + [Fraction(0)] * columns
    first = minimise(primary, constraints, rhs)
    value = first[rows]
    strategy = first[:rows]
    if costs is not None and any(costs):
        # among strategies guaranteeing the value: Σ_i x_i M[i][j] - s_j = value
        bounded = []
        for j in range(columns):
            slack = [Fraction(-int(k == j)) for k in range(columns)]
            bounded.append([shifted[i][j] for i in range(rows)] + slack)
        bounded.append([Fraction(1)] * rows + [Fraction(0)] * columns)
        cheapest = minimise(
            [Fraction(c) for c in costs] + [Fraction(0)] * columns,
            bounded,
            [value] * columns + [Fraction(1)],
        )
        strategy = cheapest[:rows]
    return value - shift, tuple(strategy)


def _saddle(payoff: Matrix, costs: Sequence[Fraction] | None) -> int | None:
    """A pure security strategy when one is plainly optimal: the rows' best worst case
    equals the columns' least best case (a saddle point), and no cheaper row exists
    that a mixture could use to guarantee the same more cheaply."""
    floors = [min(row) for row in payoff]
    best = max(floors)
    ceiling = min(max(row[j] for row in payoff) for j in range(len(payoff[0])))
    if best != ceiling:
        return None
    candidates = [i for i, floor in enumerate(floors) if floor == best]
    if not costs:
        return candidates[0]
    cheapest = min(candidates, key=lambda i: (costs[i], i))
    if any(costs[i] < costs[cheapest] for i in range(len(payoff)) if i != cheapest):
        return None
    return cheapest


def transpose(matrix: Matrix) -> list[list[Fraction]]:
    """Columns as rows (the other side's view of a game)."""
    return [[matrix[i][j] for i in range(len(matrix))] for j in range(len(matrix[0]))]


__all__ = ["minimise", "security_strategy", "transpose"]
