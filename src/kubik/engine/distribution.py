"""Exact probability distributions over hashable outcomes.

>>> d = Distribution({1: Fraction(1, 4), 2: Fraction(3, 4)})
>>> d[2], d.expected(lambda o: o)
(Fraction(3, 4), Fraction(7, 4))
>>> d.map(lambda o: o > 1)[True]
Fraction(3, 4)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from itertools import combinations_with_replacement
from typing import Any, Generic, TypeVar

from kubik.engine.tally import Tally

OutcomeT = TypeVar("OutcomeT", bound=Hashable)
K = TypeVar("K", bound=Hashable)


class Distribution(Mapping[OutcomeT, Fraction], Generic[OutcomeT]):
    """Outcome → exact probability; the probabilities sum to exactly 1."""

    __slots__ = ("_p",)

    def __init__(self, probabilities: Mapping[OutcomeT, Fraction], *, check: bool = True) -> None:
        self._p: dict[OutcomeT, Fraction] = {
            o: p if type(p) is Fraction else Fraction(p) for o, p in probabilities.items() if p
        }
        if check and sum(self._p.values()) != 1:
            raise ValueError(f"probabilities sum to {sum(self._p.values())}, not 1")

    @classmethod
    def from_weights(cls, weights: Mapping[OutcomeT, int | Fraction]) -> Distribution[OutcomeT]:
        """Normalise non-negative weights (integer counts or fractions)."""
        total = sum(weights.values())
        return cls({o: Fraction(w) / total for o, w in weights.items()})

    @classmethod
    def certain(cls, outcome: OutcomeT) -> Distribution[OutcomeT]:
        """The distribution of an outcome that always happens."""
        return cls({outcome: Fraction(1)})

    def __getitem__(self, outcome: OutcomeT) -> Fraction:
        return self._p.get(outcome, Fraction(0))

    def __iter__(self) -> Iterator[OutcomeT]:
        return iter(self._p)

    def __len__(self) -> int:
        return len(self._p)

    def __repr__(self) -> str:
        return f"Distribution({self._p!r})"

    def map(self, f: Callable[[OutcomeT], K]) -> Distribution[K]:
        """The distribution of ``f(outcome)``."""
        out: dict[K, Fraction] = {}
        for o, p in self._p.items():
            k = f(o)
            out[k] = out.get(k, Fraction(0)) + p
        return Distribution(out, check=False)

    def probability(self, predicate: Callable[[OutcomeT], bool]) -> Fraction:
        """P(predicate(outcome))."""
        return sum((p for o, p in self._p.items() if predicate(o)), Fraction(0))

    def expected(self, value: Callable[[OutcomeT], int | Fraction | bool]) -> Fraction:
        """E[value(outcome)]."""
        return sum((p * Fraction(value(o)) for o, p in self._p.items()), Fraction(0))


def multiset_weights(
    probabilities: Mapping[OutcomeT, Fraction], n: int
) -> Iterable[tuple[Tally[OutcomeT], Fraction]]:
    """Every multiset of ``n`` independent draws and its exact probability.

    Walks sorted multisets with multinomial weights: C(n+k-1, k-1) of them
    instead of k**n ordered sequences.

    >>> ps = {"hit": Fraction(1, 3), "miss": Fraction(2, 3)}
    >>> sorted((t["hit"], p) for t, p in multiset_weights(ps, 2))
    [(0, Fraction(4, 9)), (1, Fraction(4, 9)), (2, Fraction(1, 9))]
    """
    items = list(probabilities.items())
    if n == 0:
        yield Tally(), Fraction(1)
        return
    n_factorial = math.factorial(n)
    for combo in combinations_with_replacement(range(len(items)), n):
        counts: dict[int, int] = {}
        for index in combo:
            counts[index] = counts.get(index, 0) + 1
        weight = Fraction(n_factorial)
        for index, c in counts.items():
            weight = weight / math.factorial(c) * items[index][1] ** c
        yield Tally.from_counts({items[i][0]: c for i, c in counts.items()}), weight


def tally_counts(
    weights: tuple[tuple[OutcomeT, int], ...], n: int
) -> Iterator[tuple[Tally[OutcomeT], int]]:
    """Every multiset of ``n`` independent draws with its integer count.

    ``weights`` are each outcome's count over a common total t; a multiset's count
    (n! / Π kᵢ!) · Π cᵢ^kᵢ is over tⁿ. Integers only, built outcome by outcome as
    Π C(left, kᵢ) · cᵢ^kᵢ.

    >>> sorted((t["hit"], c) for t, c in tally_counts((("hit", 1), ("miss", 2)), 2))
    [(0, 4), (1, 4), (2, 1)]
    """
    items = [(o, c) for o, c in weights if c]
    if n == 0 or not items:
        if n == 0:
            yield Tally(), 1
        return
    last = len(items) - 1
    powers = [[1] * (n + 1) for _ in items]
    for index, (_, c) in enumerate(items):
        row = powers[index]
        for k in range(1, n + 1):
            row[k] = row[k - 1] * c
    taken = [0] * len(items)

    def walk(index: int, left: int, weight: int) -> Iterator[tuple[Tally[OutcomeT], int]]:
        if index == last:
            taken[index] = left
            yield (
                Tally.from_counts({items[i][0]: k for i, k in enumerate(taken) if k}),
                weight * powers[index][left],
            )
            return
        row = powers[index]
        for k in range(left + 1):
            taken[index] = k
            yield from walk(index + 1, left - k, weight * math.comb(left, k) * row[k])

    yield from walk(0, n, 1)


def tally_distribution(
    distribution: Mapping[OutcomeT, Fraction], n: int
) -> dict[Tally[OutcomeT], Fraction]:
    """Distribution of the tally of ``n`` independent outcomes."""
    return dict(multiset_weights(distribution, n))


def as_float_table(distribution: Mapping[Any, Fraction]) -> list[tuple[Any, float]]:
    """(outcome, probability as float) pairs, for display only."""
    return [(o, float(p)) for o, p in distribution.items()]
