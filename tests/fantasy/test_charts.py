"""The core charts (FB-ABSENT-01..06), cell by cell against the published WFB
6th/7th-edition charts (typed in here from the rulebook, not from data.toml)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from kubik.engine import OddsDriver
from kubik.rulesets.fantasy.charts import (
    ShotNeed,
    armour_needed,
    shooting_modifier,
    shooting_needed,
    to_hit_needed,
    to_wound_needed,
)
from kubik.rulesets.fantasy.leadership import LeadershipTest, TestKind, leadership_test

#: The published close-combat to-hit chart: rows attacker WS 1..10, columns target WS 1..10.
PUBLISHED_TO_HIT = """
4 4 5 5 5 5 5 5 5 5
3 4 4 4 5 5 5 5 5 5
3 3 4 4 4 4 5 5 5 5
3 3 3 4 4 4 4 4 5 5
3 3 3 3 4 4 4 4 4 4
3 3 3 3 3 4 4 4 4 4
3 3 3 3 3 3 4 4 4 4
3 3 3 3 3 3 3 4 4 4
3 3 3 3 3 3 3 3 4 4
3 3 3 3 3 3 3 3 3 4
"""

#: The published to-wound chart: rows Strength 1..10, columns Toughness 1..10; N cannot wound.
PUBLISHED_TO_WOUND = """
4 5 6 6 N N N N N N
3 4 5 6 6 N N N N N
2 3 4 5 6 6 N N N N
2 2 3 4 5 6 6 N N N
2 2 2 3 4 5 6 6 N N
2 2 2 2 3 4 5 6 6 N
2 2 2 2 2 3 4 5 6 6
2 2 2 2 2 2 3 4 5 6
2 2 2 2 2 2 2 3 4 5
2 2 2 2 2 2 2 2 3 4
"""


def _cells(chart: str) -> list[list[str]]:
    return [line.split() for line in chart.strip().splitlines()]


@pytest.mark.parametrize(("ws", "target"), list(product(range(1, 11), repeat=2)))
def test_fb_absent_01_to_hit_chart_every_cell(ws: int, target: int) -> None:
    """FB-ABSENT-01: every cell of the WS-vs-WS chart."""
    assert to_hit_needed(ws, target) == int(_cells(PUBLISHED_TO_HIT)[ws - 1][target - 1])


def test_fb_absent_01_chart_follows_the_catalogue_rule() -> None:
    """FB-ABSENT-01: higher WS 3+, up to twice 4+, more than twice 5+."""
    for ws, target in product(range(1, 11), repeat=2):
        rule = 3 if ws > target else 4 if target <= 2 * ws else 5
        assert to_hit_needed(ws, target) == rule


@pytest.mark.parametrize(("s", "t"), list(product(range(1, 11), repeat=2)))
def test_fb_absent_03_to_wound_chart_every_cell(s: int, t: int) -> None:
    """FB-ABSENT-03: every cell of the S-vs-T chart, «N» cells included."""
    cell = _cells(PUBLISHED_TO_WOUND)[s - 1][t - 1]
    assert to_wound_needed(s, t) == (None if cell == "N" else int(cell))


def test_fb_absent_03_corrected_cells_and_the_n_rule() -> None:
    """FB-ABSENT-03 (corrected): S1 cannot wound T5+, S3 wounds T6 on 6+ but not T7,
    S6 wounds T9 on 6+ but not T10: a Strength four or more below cannot wound."""
    assert [to_wound_needed(1, t) for t in range(1, 6)] == [4, 5, 6, 6, None]
    assert (to_wound_needed(3, 6), to_wound_needed(3, 7)) == (6, None)
    assert (to_wound_needed(6, 9), to_wound_needed(6, 10)) == (6, None)
    for s, t in product(range(1, 11), repeat=2):
        assert (to_wound_needed(s, t) is None) == (s <= t - 4)


def test_fb_absent_04_armour_saves_worsen_by_strength() -> None:
    """FB-ABSENT-04: -1 per point of Strength above 3; a save past 6 is lost."""
    assert [armour_needed(4, s) for s in range(1, 8)] == [4, 4, 4, 5, 6, None, None]
    assert armour_needed(None, 3) is None
    assert armour_needed(1, 3) == 2  # a 1 always fails


def test_fb_absent_02_ballistic_skill_and_seven_plus() -> None:
    """FB-ABSENT-02: 7 - BS, modifiers, and 7+/8+/9+ as a 6 then 4+/5+/6+."""
    assert [shooting_needed(bs, 0) for bs in range(1, 6)] == [ShotNeed(n) for n in (6, 5, 4, 3, 2)]
    assert shooting_needed(1, -1) == ShotNeed(6, 4)
    assert shooting_needed(1, -2) == ShotNeed(6, 5)
    assert shooting_needed(1, -3) == ShotNeed(6, 6)
    assert shooting_needed(1, -4) == ShotNeed(None)
    assert shooting_modifier(moved=True, long_range=True, cover="hard") == -4
    assert shooting_modifier(single_target=True, cover="soft", stand_and_shoot=True) == -3


@pytest.mark.parametrize("leadership", range(2, 13))
def test_fb_absent_06_leadership_test_is_2d6_at_most_ld_capped_at_10(leadership: int) -> None:
    """FB-ABSENT-06: 2D6, passed on a total not above Leadership (at most 10)."""
    dist = OddsDriver().distribution(leadership_test, (LeadershipTest(TestKind.PANIC, leadership),))
    capped = min(leadership, 10)
    expected = Fraction(sum(1 for a, b in product(range(1, 7), repeat=2) if a + b <= capped), 36)
    assert dist.get(True, Fraction(0)) == expected
