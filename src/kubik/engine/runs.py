"""Procedures made of independent runs of themselves, and the exact sum of such runs.

A pool of dice whose every stage treats each die alone (a blow rolls to hit, the
hits to wound, the wounds their saves: a die's fate never depends on another's) is,
for the odds, ``n`` independent runs of the same procedure with one die. The rule
stays written once, as the pools a player rolls; :func:`odds_by_runs` marks it with
how its arguments split into such runs, and the odds driver
(:class:`~kubik.engine.odds.OddsDriver`) then enumerates the procedure with one die
and sums ``n`` of those runs exactly, instead of walking every way the pools'
counts can fall (a number of states that grows as a power of ``n``). Play, tables
and Monte Carlo run the procedure as written.

>>> from kubik.engine.dice import D6
>>> from kubik.engine.requests import Roll
>>> def hits(n):  # a pool of n d6, hits on 5+
...     values = yield Roll((D6,) * n, "to hit", unordered=True)
...     return sum(v >= 5 for v in values)
>>> def split(n):  # n runs of one die (one die: as written)
...     return None if n == 1 else Runs(((n, (1,)),), lambda hit: (hit,), lambda s: s[0])
>>> from kubik.engine.odds import OddsDriver
>>> marked = odds_by_runs(split)(hits)
>>> OddsDriver().distribution(marked, (40,))[40]
Fraction(1, 12157665459056928801)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, TypeVar

from kubik.core.errors import ProcedureError

P = TypeVar("P", bound=Callable[..., Any])

#: The attribute :func:`odds_by_runs` sets on a procedure.
RUNS_KEY = "__kubik_odds_by_runs__"

#: The counted distribution of a sum: integer weights over a total.
Summed = tuple[int, tuple[tuple[tuple[int, ...], int], ...]]


@dataclass(frozen=True, slots=True)
class Runs:
    """How a procedure's outcome is made of independent runs of itself.

    ``groups``: (how many runs, the arguments of one run) — a pool of dice of two
    kinds (shots at short range and overhead) is two groups. ``adds``: what one run's
    outcome adds to the sum, as whole numbers of zero or more (one per thing counted).
    ``outcome``: the procedure's outcome from the sum over every run (a cap on what the
    target has left applies here, as it applies to the whole pool at the table).
    ``most``: per amount, the most of it ``outcome`` reads (None: all), so sums past it
    are counted as one (a cap's few values, not every sum beyond it).
    """

    groups: tuple[tuple[int, tuple[Any, ...]], ...]
    adds: Callable[[Any], tuple[int, ...]]
    outcome: Callable[[tuple[int, ...]], Hashable]
    most: tuple[int | None, ...] = ()


def odds_by_runs(split: Callable[..., Runs | None]) -> Callable[[P], P]:
    """Mark a procedure whose outcome, for arguments ``split`` splits, is
    ``outcome`` of the sum of independent runs of itself (``split`` answers ``None``
    where the procedure is to be enumerated as it is: one run, nothing to split).

    A promise the rule makes, held by tests against the procedure enumerated die by
    die: every die of its pools goes its own way, and it asks no decision (a policy's
    choice may weigh the whole pool; the driver refuses runs that ask one).
    """

    def mark(procedure: P) -> P:
        setattr(procedure, RUNS_KEY, split)
        return procedure

    return mark


def runs_of(procedure: Callable[..., Any], args: tuple[Any, ...]) -> Runs | None:
    """How ``procedure(*args)`` splits into runs (:func:`odds_by_runs`), if it does."""
    split = getattr(procedure, RUNS_KEY, None)
    runs: Runs | None = None if split is None else split(*args)
    if runs is not None and any(one == args for _, one in runs.groups):
        raise ProcedureError(f"{procedure.__name__}{args!r} splits into runs of itself")
    return runs


def runs_summed(groups: list[tuple[int, Summed]], most: tuple[int | None, ...] = ()) -> Summed:
    """The exact distribution of the sum of independent runs: for each group, ``n``
    runs of one run's counted amounts (amounts as tuples of whole numbers over a
    total), all groups added together; an amount with a ``most`` kept at most that
    (what the outcome reads of it: sums beyond it are one)."""
    size = _size(groups)
    tops = [0] * size
    for n, (_, pairs) in groups:
        largest = [0] * size
        for amounts, _count in pairs:
            if len(amounts) != size or min(amounts, default=0) < 0:
                raise ProcedureError(f"a run added {amounts!r}: not {size} whole numbers >= 0")
            largest = [max(m, a) for m, a in zip(largest, amounts, strict=True)]
        tops = [t + n * m for t, m in zip(tops, largest, strict=True)]
    digits = _Digits(tops, [*most, *[None] * (size - len(most))][:size])
    total = 1
    sums: dict[int, int] = {0: 1}
    for n, (one_total, pairs) in groups:
        packed: dict[int, int] = {}
        for amounts, count in pairs:
            key = digits.pack(amounts)
            packed[key] = packed.get(key, 0) + count
        weights = tuple((k, c) for k, c in packed.items() if c)
        total *= one_total**n
        if len(sums) == 1 and _tallies_cheaper(weights, n, digits):
            ((start, scale),) = sums.items()
            sums = {start + k: c * scale for k, c in _by_tallies(weights, n).items()}
        else:
            sums = _run_by_run(sums, weights, n, digits)
    return total, tuple((digits.unpack(key), count) for key, count in sums.items())


class RunPrefixes:
    """The sums of 1, 2, 3, … runs of one counted run whose every amount is kept at most
    something (so the packing of the amounts does not depend on how many runs there
    are): a pool of ``n`` runs is extended from the nearest smaller pool already summed
    (one kept every :data:`PREFIX_STEP` runs), so pools of one run that differ only in
    size (a regiment's blows as its models fall) share their sums. The same sums, with
    the same integers, as :func:`runs_summed` of one group."""

    __slots__ = ("digits", "kept", "one_total", "weights")

    def __init__(self, one: Summed, most: tuple[int, ...]) -> None:
        self.one_total, pairs = one
        self.digits = _Digits([0] * len(most), list(most))
        packed: dict[int, int] = {}
        for amounts, count in pairs:
            if len(amounts) != len(most) or min(amounts, default=0) < 0:
                raise ProcedureError(f"a run added {amounts!r}: not {len(most)} whole numbers >= 0")
            key = self.digits.pack(amounts)
            packed[key] = packed.get(key, 0) + count
        self.weights = tuple((k, c) for k, c in packed.items() if c)
        #: the sums of every PREFIX_STEP-th pool (index i: i · PREFIX_STEP runs)
        self.kept: list[dict[int, int]] = [{0: 1}]

    def summed(self, n: int) -> Summed:
        """The exact distribution of the sum of ``n`` runs."""
        kept, digits, weights = self.kept, self.digits, self.weights
        while (len(kept) - 1) * PREFIX_STEP < n - n % PREFIX_STEP:
            kept.append(_run_by_run(kept[-1], weights, PREFIX_STEP, digits))
        sums = _run_by_run(kept[n // PREFIX_STEP], weights, n % PREFIX_STEP, digits)
        return self.one_total**n, tuple((digits.unpack(key), count) for key, count in sums.items())


#: Runs between the sums a :class:`RunPrefixes` keeps (memory against extending).
PREFIX_STEP = 8


def _size(groups: list[tuple[int, Summed]]) -> int:
    for _, (_, pairs) in groups:
        for amounts, _count in pairs:
            return len(amounts)
    return 0


class _Digits:
    """Amounts packed into one whole number, one digit each: adding two packed numbers
    adds the amounts, none carrying into the next (a digit holds its amount's largest
    sum, or twice its ``most`` for an amount kept at most that, clamped after each sum)."""

    def __init__(self, tops: list[int], most: list[int | None]) -> None:
        self.radix = [t + 1 if m is None else 2 * m + 1 for t, m in zip(tops, most, strict=True)]
        self.most = most
        # the amounts kept at most something take the lowest digits (the first at 1)
        order = sorted(range(len(most)), key=lambda index: most[index] is None)
        self.bases = [0] * len(most)
        base = 1
        for index in order:
            self.bases[index] = base
            base *= self.radix[index]
        #: (base, radix, most) of the amounts kept at most something, lowest first
        self.capped = tuple(
            (self.bases[i], self.radix[i], m) for i in order if (m := most[i]) is not None
        )

    def pack(self, amounts: tuple[int, ...]) -> int:
        key = 0
        for amount, base, most in zip(amounts, self.bases, self.most, strict=True):
            key += (amount if most is None else min(amount, most)) * base
        return key

    def unpack(self, key: int) -> tuple[int, ...]:
        return tuple(
            key // base % radix for base, radix in zip(self.bases, self.radix, strict=True)
        )

    def clamp(self, key: int) -> int:
        for base, radix, most in self.capped:
            digit = key // base % radix
            if digit > most:
                key -= (digit - most) * base
        return key


def _tallies_cheaper(weights: tuple[tuple[int, int], ...], n: int, digits: _Digits) -> bool:
    """Whether counting every tally of ``n`` runs takes fewer steps than adding run
    after run (the sums so far, bounded by the tallies and by the amounts' spread);
    never for amounts kept at most something (a tally's sum cannot be clamped)."""
    if digits.capped or n <= 1:
        return False
    kinds = len(weights)
    tallies = math.comb(n + kinds - 1, kinds - 1)
    largest = [max(a) for a in zip(*(digits.unpack(k) for k, _ in weights), strict=True)]
    steps = 0
    for i in range(1, n + 1):
        sums = math.comb(i + kinds - 2, kinds - 1)
        spread = math.prod(m * (i - 1) + 1 for m in largest)
        steps += kinds * min(sums, spread)
        if steps > tallies:
            return True
    return False


def _run_by_run(
    sums: dict[int, int], weights: tuple[tuple[int, int], ...], n: int, digits: _Digits
) -> dict[int, int]:
    """``sums`` with ``n`` more runs added, one by one (a digit kept at most something
    clamped after each)."""
    capped = digits.capped
    lowest = capped[0] if len(capped) == 1 and capped[0][0] == 1 else None
    for _ in range(n):
        following: dict[int, int] = {}
        get = following.get
        if not capped:
            for total, weight in sums.items():
                for key, count in weights:
                    after = total + key
                    following[after] = get(after, 0) + weight * count
        elif lowest is not None:  # one amount kept at most something, the lowest digit
            _, radix, most = lowest
            for total, weight in sums.items():
                for key, count in weights:
                    after = total + key
                    digit = after % radix
                    if digit > most:
                        after -= digit - most
                    following[after] = get(after, 0) + weight * count
        else:
            clamp = digits.clamp
            for total, weight in sums.items():
                for key, count in weights:
                    after = clamp(total + key)
                    following[after] = get(after, 0) + weight * count
        sums = following
    return sums


def _by_tallies(weights: tuple[tuple[int, int], ...], n: int) -> dict[int, int]:
    """Every tally of ``n`` runs over the amounts: (n! / Π kᵢ!) · Π cᵢ^kᵢ at Σ kᵢ·aᵢ."""
    keys = [k for k, _ in weights]
    powers = []
    for _, count in weights:
        row = [1] * (n + 1)
        for k in range(1, n + 1):
            row[k] = row[k - 1] * count
        powers.append(row)
    last = len(weights) - 1
    out: dict[int, int] = {}

    def walk(index: int, left: int, weight: int, total: int) -> None:
        if index == last:
            key = total + keys[index] * left
            out[key] = out.get(key, 0) + weight * powers[index][left]
            return
        row, amount = powers[index], keys[index]
        for taken in range(left + 1):
            walk(
                index + 1,
                left - taken,
                weight * math.comb(left, taken) * row[taken],
                total + amount * taken,
            )

    walk(0, n, 1, 0)
    return out


def summed_outcomes(runs: Runs, summed: Summed) -> tuple[int, dict[Hashable, int]]:
    """The procedure's outcomes from the distribution of the sum (``outcome`` of each)."""
    total, pairs = summed
    outcome = runs.outcome
    weights: dict[Hashable, int] = {}
    for amounts, count in pairs:
        key = outcome(amounts)
        weights[key] = weights.get(key, 0) + count
    return total, weights


__all__ = [
    "RUNS_KEY",
    "RunPrefixes",
    "Runs",
    "odds_by_runs",
    "runs_of",
    "runs_summed",
    "summed_outcomes",
]
