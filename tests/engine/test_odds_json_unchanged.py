"""The ``odds`` JSON built in one pass over integer weights (:mod:`kubik.api.odds_table`)
is byte for byte the JSON written value by value from exact fractions.

The reference here is the plain way the contract describes the answer: every outcome
in :func:`~kubik.engine.jsonify.outcome_order` (written by
:func:`~kubik.engine.jsonify.distribution_outcome_json`) with its probability as a
:class:`~fractions.Fraction`, and each numeric field's chances summed as fractions.
It is compared, as JSON text, on every procedure's examples under every policy, on the
benchmark's largest questions, and on made-up outcomes of every kind a field can hold
(numbers, flags, texts, nulls, enums, tuples, nested records, several outcome types).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from enum import Enum, IntEnum
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kubik.api as api
from kubik.api.odds_table import LONG_BITS, OddsTable, dice_powers
from kubik.engine import registry
from kubik.engine.jsonify import distribution_outcome_json, numeric_fields, outcome_order


def reference_outcomes(distribution: dict[Any, Fraction]) -> list[dict[str, Any]]:
    ordered = sorted(distribution.items(), key=lambda kv: outcome_order(kv[0]))
    return [
        {"outcome": distribution_outcome_json(o), "probability": str(p), "p": round(float(p), 4)}
        for o, p in ordered
    ]


def reference_fields(distribution: dict[Any, Fraction]) -> dict[str, Any]:
    fields: dict[str, dict[int, Fraction]] = {}
    for outcome, p in distribution.items():
        for field, value in numeric_fields(outcome).items():
            bucket = fields.setdefault(field, {})
            bucket[int(value)] = bucket.get(int(value), Fraction(0)) + p
    out: dict[str, Any] = {}
    for field, values in fields.items():
        rows = []
        at_least = Fraction(1)
        for value in sorted(values):
            chance = values[value]
            rows.append(
                {
                    "value": value,
                    "probability": str(chance),
                    "p": round(float(chance), 6),
                    "at_least": str(at_least),
                    "p_at_least": round(float(at_least), 6),
                }
            )
            at_least -= chance
        expected = sum((v * q for v, q in values.items()), Fraction(0))
        out[field] = {"values": rows, "expected": str(expected), "e": float(expected)}
    return out


def text(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False)


def questions() -> list[tuple[str, dict[str, Any], str]]:
    found = []
    for listed in api.procedures():
        name = listed["name"]
        for example in registry.get(name).examples:
            for policy in api.policies(name):
                found.append((name, dict(example), policy))
    return found


@pytest.mark.parametrize(("name", "example", "policy"), questions(), ids=str)
def test_every_example_under_every_policy_answers_the_same_json(
    name: str, example: dict[str, Any], policy: str
) -> None:
    answer = api.odds(name, example, policy=policy)
    distribution = api.exact_distribution(name, example, policy)
    assert text(answer["outcomes"]) == text(reference_outcomes(distribution))
    assert text(answer["fields"]) == text(reference_fields(distribution))
    assert text(api.marginals(distribution)) == text(reference_fields(distribution))


def test_the_benchmarks_largest_questions_answer_the_same_json() -> None:
    from bench.bench_fire import case
    from bench.bench_old_west import combat_case, fight_case

    for name, data in (
        ("steel_war.fire", case(24, 50)),
        ("steel_war.fire", case(2, 10)),
        ("old_west.fight", fight_case(18)),
        ("old_west.combat", combat_case(18)),
    ):
        answer = api.odds(name, data)
        distribution = api.exact_distribution(name, data)
        assert text(answer["outcomes"]) == text(reference_outcomes(distribution))
        assert text(answer["fields"]) == text(reference_fields(distribution))


class Colour(Enum):
    RED = "red"
    GREEN = "green"
    BLUE = "blue"


class Rank(IntEnum):
    HIGH = 3
    LOW = 1
    MIDDLE = 2


@dataclass(frozen=True)
class Inner:
    hits: int
    flag: bool


@dataclass(frozen=True)
class Record:
    first: Any
    second: Any
    third: Any


@dataclass(frozen=True)
class Other:
    value: int


#: What one field may hold across a question's outcomes.
FIELD_KINDS: list[st.SearchStrategy[Any]] = [
    st.integers(-3, 12),
    st.booleans(),
    st.one_of(st.integers(0, 3), st.booleans()),
    st.sampled_from(["a", "b", "ab", ""]),
    st.sampled_from([0.5, 1.25, -2.0]),
    st.none(),
    st.one_of(st.none(), st.sampled_from(["x", "y"])),
    st.one_of(st.none(), st.integers(0, 2)),  # a number only sometimes: the general way
    st.sampled_from(list(Colour)),
    st.sampled_from(list(Rank)),
    st.one_of(st.sampled_from(list(Colour)), st.integers(0, 2)),
    st.lists(st.integers(0, 3), max_size=3).map(tuple),
    st.lists(st.one_of(st.integers(0, 2), st.booleans()), max_size=2).map(tuple),
    st.lists(st.sampled_from(list(Colour)), max_size=2).map(tuple),
    st.builds(Inner, st.integers(0, 2), st.booleans()),
    st.sampled_from([Fraction(1, 2), Fraction(2), Fraction(-1, 3)]),
]


@st.composite
def distributions(draw: st.DrawFn) -> dict[Any, int]:
    """Outcomes with positive integer weights: records whose fields each hold one kind
    of value, now and then bare values or outcomes of another type."""
    kinds = [draw(st.sampled_from(FIELD_KINDS)) for _ in range(3)]
    record = st.builds(Record, *kinds)
    shape = draw(st.sampled_from(["records", "mixed", "bare"]))
    if shape == "records":
        outcome: st.SearchStrategy[Any] = record
    elif shape == "mixed":
        outcome = st.one_of(record, st.builds(Other, st.integers(0, 3)))
    else:
        outcome = st.one_of(st.integers(0, 5), st.booleans(), st.sampled_from(list(Colour)))
    return draw(st.dictionaries(outcome, st.integers(1, 10**30), min_size=1, max_size=12))


@settings(max_examples=400, deadline=None)
@given(distributions())
def test_made_up_outcomes_of_every_kind_answer_the_same_json(weights: dict[Any, int]) -> None:
    total = sum(weights.values()) * 3  # weights over a total that is not in lowest terms
    distribution = {o: Fraction(w * 3, total) for o, w in weights.items()}
    table = OddsTable((total, tuple((o, w * 3) for o, w in weights.items())))
    assert text(table.outcomes()) == text(reference_outcomes(distribution))
    assert text(table.fields()) == text(reference_fields(distribution))


@st.composite
def dice_weights(draw: st.DrawFn) -> tuple[int, dict[int, int]]:
    """Weights over a total of thousands of digits, as a round of many dice has: a
    product of dice faces' primes, now and then times another prime (written the plain
    way), with counts that share some of its factors."""
    total = 2 ** draw(st.integers(0, 900)) * 3 ** draw(st.integers(700, 1200))
    total *= draw(st.sampled_from([1, 1, 5, 7**3, 11, 13, 10**9 + 7]))
    counts = draw(
        st.lists(
            st.tuples(st.integers(1, 10**60), st.integers(0, 700), st.integers(0, 700)),
            min_size=1,
            max_size=8,
        )
    )
    weights = {}
    for index, (base, twos, threes) in enumerate(counts):
        weights[index] = base * 2**twos * 3**threes
    return total * sum(weights.values()), weights


@settings(max_examples=150, deadline=None)
@given(dice_weights())
def test_weights_over_totals_of_thousands_of_digits_answer_the_same_json(
    drawn: tuple[int, dict[int, int]],
) -> None:
    # the big totals are written by GMP, each count's common factor found by dividing
    # the dice's primes out: the same text as the fractions' own
    total, weights = drawn
    factor = total // sum(weights.values())
    distribution = {o: Fraction(w * factor, total) for o, w in weights.items()}
    table = OddsTable((total, tuple((o, w * factor) for o, w in weights.items())))
    assert total.bit_length() > LONG_BITS
    assert text(table.outcomes()) == text(reference_outcomes(distribution))
    assert text(table.fields()) == text(reference_fields(distribution))


def test_a_first_round_duel_of_every_rule_answers_the_same_json() -> None:
    # a round whose weights run to thousands of digits (every rule on both sides, a
    # duel of characters), the largest kind of answer the odds JSON writes
    from bench.worst_cases import combined_inputs

    name = "fantasy.close_combat"
    question = combined_inputs(name, registry.get(name).input_model)[0]
    for side in ("a", "b"):
        question[side]["models"] = 10
        question[side]["character"]["wounds"] = 2
    answer = api.odds("fantasy.close_combat", question)
    distribution = api.exact_distribution("fantasy.close_combat", question, "default")
    total = math.lcm(*(p.denominator for p in distribution.values()))
    assert total.bit_length() > LONG_BITS  # (written by GMP)
    assert text(answer["outcomes"]) == text(reference_outcomes(distribution))
    assert text(answer["fields"]) == text(reference_fields(distribution))


def test_a_long_total_of_dice_is_known_by_its_primes_and_any_other_is_not() -> None:
    assert dice_powers(6**600) == ((2, 600), (3, 600))
    assert dice_powers(6**600 * 10**3 * 7) == ((2, 603), (3, 600), (5, 3), (7, 1))
    assert dice_powers(6**600 * 13) is None  # another prime: Python's gcd, digit by digit
    assert (6**300).bit_length() <= LONG_BITS and dice_powers(6**300) is None  # short
