"""The exact odds' JSON (every outcome in order, each numeric field's marginals) built in
one pass over integer weights.

A question's outcomes are nearly always one frozen dataclass whose fields are whole
numbers, flags and enum members: the table reads each field as a column once, orders
the outcomes by those columns, writes each enum member's JSON once, and sums each
numeric field's weights as integers over the distribution's one total. Anything
else (outcomes of several types, bare values, a field mixing numbers with other
values) takes the general way, value by value (:mod:`kubik.engine.jsonify`). Both
ways give the same JSON, byte for byte (a test compares them on many questions).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from fractions import Fraction
from functools import cache, cached_property
from itertools import chain
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from kubik.engine.dice import Die
from kubik.engine.jsonify import (
    compared_fields,
    distribution_outcome_json,
    numeric_fields,
    outcome_order,
    to_json,
)
from kubik.engine.requests import Message
from kubik.engine.tally import Tally

if TYPE_CHECKING:
    from gmpy2 import mpz

#: Outcome weights over one total: ``(total, ((outcome, weight), ...))``.
Weights = tuple[int, Sequence[tuple[Any, int]]]


def ratio(count: int, total: int) -> str:
    """``count / total`` in lowest terms, as :class:`~fractions.Fraction` writes it."""
    common = math.gcd(count, total)
    if common == total:
        return str(count // common)
    return f"{count // common}/{total // common}"


#: The primes the faces of dice are made of (d2 to d12, and the d3).
DICE_PRIMES = (2, 3, 5, 7, 11)
#: Bits past which a total is written by :class:`Ratios` prime by prime and with GMP
#: (below them Python's own gcd and digits are quicker than the conversion).
LONG_BITS = 1024

#: A total's factorisation: (prime, power) for each of :data:`DICE_PRIMES` it holds.
Powers = tuple[tuple[int, int], ...]


def dice_powers(total: int) -> Powers | None:
    """``total`` as powers of the dice's primes, or ``None`` when it is short (at most
    :data:`LONG_BITS`) or has another prime factor."""
    if total.bit_length() <= LONG_BITS:
        return None
    # (imported only here: gmpy2 loads importlib.metadata, which a first question that
    # meets no long total should not pay for)
    from gmpy2 import mpz, remove

    left, powers = mpz(total), []
    for prime in DICE_PRIMES:
        left, times = remove(left, prime)
        if times:
            powers.append((prime, int(times)))
    return tuple(powers) if left == 1 else None


class Ratios:
    """:func:`ratio` of many counts over one ``total``, for an answer's outcomes and
    marginals.

    A round of many dice weighs its outcomes over a total thousands of digits long,
    where a gcd per outcome and Python's decimal conversion (both quadratic in the
    digits) cost more than working the odds out. A total of dice is a product of small
    primes (their faces), so a count's common factor with it is found by dividing those
    primes out of the count (GMP's ``remove``), and GMP writes the digits. A total with
    any other factor, or a short one, is written by :func:`ratio`."""

    __slots__ = ("_long", "total")

    def __init__(self, total: int) -> None:
        self.total = total
        self._long: tuple[Powers, mpz] | None = None  # the total's primes, and it in GMP
        powers = dice_powers(total)
        if powers is not None:
            from gmpy2 import mpz  # (loaded by :func:`dice_powers` already)

            self._long = (powers, mpz(total))

    def of(self, count: int) -> str:
        """``count / total`` in lowest terms, as :func:`ratio` writes it."""
        if self._long is None or not count:
            return ratio(count, self.total)
        powers, long = self._long
        from gmpy2 import mpz, remove  # (loaded by :func:`dice_powers` already)

        reduced = mpz(count)
        common = 1
        for prime, most in powers:
            reduced, found = remove(reduced, prime)
            times = int(found)
            if times > most:  # (the total has fewer of this prime: the rest stay)
                reduced *= prime ** (times - most)
                times = most
            common *= prime**times
        below = long // common
        return str(reduced) if below == 1 else f"{reduced}/{below}"


def weights_of(distribution: Mapping[Any, Fraction]) -> Weights:
    """A distribution's probabilities as integer weights over one common denominator."""
    total = math.lcm(*(p.denominator for p in distribution.values())) or 1
    return total, [(o, p.numerator * (total // p.denominator)) for o, p in distribution.items()]


#: Dataclasses that :func:`~kubik.engine.jsonify.to_json` writes otherwise than field by field.
_NOT_RECORDS = (Enum, Die, Message, Tally, int, float, str)
_NONE = type(None)
_WHOLE = frozenset({int, bool})


@cache
def _record(kind: type) -> tuple[tuple[str, ...], tuple[Callable[[Any], Any], ...]] | None:
    """A dataclass outcome's field names and a reader of each (``None`` for any other
    type); read once per type."""
    if not dataclasses.is_dataclass(kind) or issubclass(kind, _NOT_RECORDS):
        return None
    names = compared_fields(kind)  # as :func:`distribution_outcome_json` writes them
    return (names, tuple(attrgetter(name) for name in names)) if names else None


@cache
def _members(kind: type[Enum]) -> tuple[dict[int, int], dict[int, Any]]:
    """An enum's members (by identity): their place in the declaration and their JSON."""
    members = list(kind)
    return {id(m): i for i, m in enumerate(members)}, {id(m): to_json(m) for m in members}


class _Irregular(Exception):
    """Outcomes the column-wise way does not cover: the general way answers."""


class _Column:
    """One field of every outcome: its sort keys, its JSON values and, for a numeric
    field, its values as integers (``None`` for a field that is not a number).

    The keys order the outcomes as :func:`~kubik.engine.jsonify.outcome_order` does:
    its key of a number is ``(0, n)``, of an enum member ``(0, place)``, of a text
    ``(2, text)`` and of a tuple of numbers ``(1, ((0, n), ...))``; within one field
    of one kind those compare as ``n``, ``place``, ``text`` and the tuple itself.
    """

    __slots__ = ("json", "keys", "numbers")

    keys: list[Any]
    json: list[Any]
    numbers: list[int] | None

    def __init__(self, values: list[Any]) -> None:
        kinds = set(map(type, values))
        self.numbers = None
        kind = next(iter(kinds)) if len(kinds) == 1 else None
        if kinds <= _WHOLE:
            self.keys = self.json = values
            self.numbers = values if bool not in kinds else [int(v) for v in values]
        elif kind is str or kind is float:
            self.keys = self.json = values
        elif kind is _NONE:
            self.keys, self.json = [0] * len(values), values
        elif kind is tuple and set(map(type, chain.from_iterable(values))) <= _WHOLE:
            self.keys, self.json = values, [list(v) for v in values]
        elif kind is not None and issubclass(kind, Enum):
            place, written = _members(kind)
            try:
                self.keys = list(map(place.__getitem__, map(id, values)))
            except KeyError:  # a combination of flags: not one member
                self._general(values)
                return
            self.json = list(map(written.__getitem__, map(id, values)))
            if issubclass(kind, int):  # an IntEnum counts as its number
                self.numbers = [int(v) for v in values]
        else:
            self._general(values)

    def _general(self, values: list[Any]) -> None:
        """Any other field, value by value, as the general way reads it."""
        found = [isinstance(v, int | bool) for v in values]
        if any(found) and not all(found):  # its marginal would miss some outcomes
            raise _Irregular
        self.keys = [outcome_order(v) for v in values]
        self.json = [to_json(v) for v in values]
        if all(found):
            self.numbers = [int(v) for v in values]


class OddsTable:
    """A question's outcomes and weights, read once; :meth:`outcomes` and
    :meth:`fields` are the ``"outcomes"`` and ``"fields"`` of the ``odds`` JSON."""

    def __init__(self, weights: Weights) -> None:
        total, pairs = weights
        self.total = total
        self.outcomes_in_order = [o for o, n in pairs if n]
        self.weights = [n for _, n in pairs if n]
        self.names: tuple[str, ...] | None = None
        self.columns: list[_Column] = []
        kinds = set(map(type, self.outcomes_in_order))
        record = _record(next(iter(kinds))) if len(kinds) == 1 else None
        if record is not None:
            names, readers = record
            try:
                outcomes = self.outcomes_in_order
                self.columns = [_Column(list(map(read, outcomes))) for read in readers]
                self.names = names
            except _Irregular:
                self.columns = []

    def outcomes(self) -> list[dict[str, Any]]:
        """Every outcome in its natural order, with its exact and rounded probability."""
        total = self.total
        if self.names is None:
            pairs = sorted(
                zip(self.outcomes_in_order, self.weights, strict=True),
                key=lambda kv: outcome_order(kv[0]),
            )
            written = [distribution_outcome_json(o) for o, _ in pairs]
            weights = [n for _, n in pairs]
        else:
            names, columns = self.names, self.columns
            if len(columns) == 1:  # (a one-field outcome: its keys and JSON as they are)
                keys, name, json = columns[0].keys, names[0], columns[0].json
                order = sorted(range(len(keys)), key=keys.__getitem__)
                written = [{name: json[i]} for i in order]
            else:
                keys = list(zip(*(c.keys for c in columns), strict=True))
                order = sorted(range(len(keys)), key=keys.__getitem__)
                rows = list(zip(*(c.json for c in columns), strict=True))
                written = [dict(zip(names, rows[i], strict=True)) for i in order]
            weights = [self.weights[i] for i in order]
        ratios = self.ratios
        return [
            {"outcome": o, "probability": ratios.of(n), "p": round(n / total, 4)}
            for o, n in zip(written, weights, strict=True)
        ]

    def fields(self) -> dict[str, Any]:
        """Each numeric field on its own (flags as 0/1): for every value P(= v) and
        P(≥ v) as exact fractions and rounded floats, and the field's expected value."""
        by_field: dict[str, dict[int, int]] = {}
        if self.names is None:
            for outcome, weight in zip(self.outcomes_in_order, self.weights, strict=True):
                for field, value in numeric_fields(outcome).items():
                    bucket = by_field.setdefault(field, {})
                    bucket[int(value)] = bucket.get(int(value), 0) + weight
        else:
            for name, column in zip(self.names, self.columns, strict=True):
                if column.numbers is None:
                    continue
                bucket = by_field[name] = {}
                for value, weight in zip(column.numbers, self.weights, strict=True):
                    bucket[value] = bucket.get(value, 0) + weight
        return {field: _marginal(values, self.ratios) for field, values in by_field.items()}

    @cached_property
    def ratios(self) -> Ratios:
        """The table's probabilities as text, over its one total (its primes found once)."""
        return Ratios(self.total)


def _marginal(values: dict[int, int], ratios: Ratios) -> dict[str, Any]:
    rows = []
    total = ratios.total
    at_least = total
    for value in sorted(values):
        count = values[value]
        rows.append(
            {
                "value": value,
                "probability": ratios.of(count),
                "p": round(count / total, 6),
                "at_least": ratios.of(at_least),
                "p_at_least": round(at_least / total, 6),
            }
        )
        at_least -= count
    expected = Fraction(sum(v * n for v, n in values.items()), total)
    return {"values": rows, "expected": str(expected), "e": float(expected)}
