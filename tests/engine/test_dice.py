"""Dice: names, parsing, steps and exact distributions."""

from fractions import Fraction
from itertools import product

import pytest

from kubik.core.errors import DiceError, KubikError
from kubik.engine.dice import (
    D3,
    D4,
    D6,
    D8,
    D10,
    D12,
    D20,
    STEP_CHAIN,
    Die,
    StepOverflow,
    d3_from_d6,
    parse_dice,
    parse_die,
    step,
    sum_counts,
    sum_distribution,
    try_step,
)


def test_known_dice_have_names_and_faces() -> None:
    assert [d.name for d in (D3, D4, D6, D8, D10, D12, D20)] == [
        "d3",
        "d4",
        "d6",
        "d8",
        "d10",
        "d12",
        "d20",
    ]
    assert list(D8.values) == list(range(1, 9))


def test_a_die_that_does_not_exist_is_a_clear_error() -> None:
    with pytest.raises(DiceError, match="there is no d7"):
        Die(7)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("d8", (D8,)),
        ("D8", (D8,)),
        ("к8", (D8,)),
        ("К12", (D12,)),
        ("2D6", (D6, D6)),
        ("3к6", (D6, D6, D6)),
        (" d20 ", (D20,)),
        ("d3", (D3,)),
    ],
)
def test_parse_dice_accepts_latin_and_cyrillic(text: str, expected: tuple[Die, ...]) -> None:
    assert parse_dice(text) == expected


@pytest.mark.parametrize("text", ["", "8", "d", "dd8", "d7", "0d6", "2x6", "d8+1", "к"])
def test_parse_dice_rejects_anything_else(text: str) -> None:
    with pytest.raises(KubikError):
        parse_dice(text)


def test_parse_die_wants_exactly_one() -> None:
    assert parse_die("к10") == D10
    with pytest.raises(DiceError, match="one die"):
        parse_die("2d6")


def test_steps_move_along_the_chain() -> None:
    assert STEP_CHAIN == (D4, D6, D8, D10, D12)
    assert step(D4, 1) == D6
    assert step(D6, 2) == D10
    assert step(D12, -4) == D4


def test_steps_past_either_end_clamp_by_default() -> None:
    """The cap: an improvement past d12 is lost, a degradation below d4 stays d4."""
    assert step(D12, 1) == D12
    assert step(D10, 3) == D12
    assert step(D4, -2) == D4


def test_steps_past_either_end_fail_when_asked() -> None:
    with pytest.raises(DiceError, match="above d12"):
        step(D12, 1, StepOverflow.FAIL)
    with pytest.raises(DiceError, match="below d4"):
        step(D6, -2, StepOverflow.FAIL)
    assert try_step(D4, -1) is None
    assert try_step(D8, 1) == D10


def test_dice_off_the_chain_cannot_step() -> None:
    with pytest.raises(DiceError, match="not on the die-step chain"):
        step(D20, 1)


def test_sum_distribution_matches_brute_force() -> None:
    dice = (D6, D8, D4)
    counts: dict[int, int] = {}
    for faces in product(*(d.values for d in dice)):
        counts[sum(faces)] = counts.get(sum(faces), 0) + 1
    assert sum_counts(dice) == counts
    dist = sum_distribution(dice)
    assert sum(dist.values()) == 1
    assert dist[9] == Fraction(counts[9], 6 * 8 * 4)


def test_single_die_distribution_is_uniform() -> None:
    assert D10.distribution() == {v: Fraction(1, 10) for v in range(1, 11)}


def test_d3_read_from_a_d6() -> None:
    assert [d3_from_d6(v) for v in D6.values] == [1, 1, 2, 2, 3, 3]
