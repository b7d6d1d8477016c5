"""Wound chart (OW-CC-06), extra rolls (OW-CC-07), Woundin' (OW-CC-05) and Fame on wounds."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from kubik.engine import OddsDriver, PolicyChooser, TableSession
from kubik.engine.log import ChoiceEntry
from kubik.rulesets.old_west.chart import WoundCell, cell, chart, parse_cell
from kubik.rulesets.old_west.fame import JustEnough, SpendNothing, apply_fame, policies
from kubik.rulesets.old_west.procedures.wound import WoundInput, wound_procedure
from kubik.rulesets.old_west.wounds import WoundOutcome, wound_with_fame


def closed_form(strength: int, toughness: int) -> tuple[int | None, int | None]:
    """The catalogue's closed form of the chart, k = T − S."""
    k = toughness - strength
    if k <= -2:
        return 3, None
    if k <= 0:
        return 4, None
    if k <= 2:
        return 5, None
    if k <= 4:
        return 6, None
    if k <= 7:
        return 6, k - 1
    return None, None


def brute_wound(strength: int, toughness: int, fame: int, spend: bool) -> Fraction:
    """P(wound) by walking both d6 (the second ignored when not rolled), no engine."""
    first, second = closed_form(strength, toughness)
    if first is None:
        return Fraction(0)
    wins = 0
    for r1, r2 in product(range(1, 7), repeat=2):
        used = 0
        if r1 < first and spend and first - r1 <= fame:
            used = first - r1
        ok = r1 + used >= first
        if ok and second is not None:
            total = r2 + used
            if total < second and spend and second - total <= fame - used:
                total = second
            ok = total >= second
        wins += ok
    return Fraction(wins, 36)


def test_OW_CC_06_chart_matches_closed_form_in_all_100_cells() -> None:
    table = chart()
    assert len(table) == 10 and all(len(row) == 10 for row in table)
    for s, t in product(range(1, 11), repeat=2):
        first, second = closed_form(s, t)
        assert cell(s, t) == WoundCell(first, second), (s, t)


def test_OW_CC_06_cell_counts_and_worked_example_S3_T8() -> None:
    cells = [str(cell(s, t)) for s, t in product(range(1, 11), repeat=2)]
    assert cells.count("-") == 3
    assert cells.count("6/4") == 5 and cells.count("6/5") == 4 and cells.count("6/6") == 3
    assert str(cell(3, 8)) == "6/4"
    assert parse_cell("–") == WoundCell(None)


def test_OW_CC_05_exact_odds_match_brute_force_for_every_cell() -> None:
    driver = OddsDriver()
    for s, t in product(range(1, 11), repeat=2):
        dist = driver.distribution(wound_procedure, (WoundInput(strength=s, toughness=t),))
        assert dist[WoundOutcome(True)] == brute_wound(s, t, 0, False), (s, t)


@pytest.mark.parametrize("fame", [0, 1, 2, 3, 4])
def test_OW_HERO_05_fame_odds_match_brute_force_under_both_policies(fame: int) -> None:
    for name, policy in policies().items():
        driver = OddsDriver(policy)
        for s, t in product(range(1, 11), repeat=2):
            inp = WoundInput(strength=s, toughness=t, fame=fame)
            got = driver.distribution(wound_procedure, (inp,))[WoundOutcome(True)]
            assert got == brute_wound(s, t, fame, name == "just_enough"), (name, s, t)


def test_OW_CC_07_second_die_only_after_a_six_and_dash_rolls_nothing() -> None:
    session = TableSession(wound_procedure, (WoundInput(strength=3, toughness=8),))
    session.supply([5])
    assert session.result is not None and session.result.outcome == WoundOutcome(False)
    session = TableSession(wound_procedure, (WoundInput(strength=3, toughness=8),))
    session.supply([6])
    assert session.pending is not None  # a 6 asks for the second d6
    session.supply([4])
    assert session.result is not None and session.result.outcome == WoundOutcome(True)
    session = TableSession(wound_procedure, (WoundInput(strength=3, toughness=8),))
    session.supply([6, 3])
    assert session.result is not None and session.result.outcome == WoundOutcome(False)
    session = TableSession(wound_procedure, (WoundInput(strength=1, toughness=10),))
    session.supply([])
    assert session.result is not None and session.result.outcome == WoundOutcome(False)
    assert session.result.rolls == []


def test_OW_CC_05_plain_cell_one_die() -> None:
    session = TableSession(wound_procedure, (WoundInput(strength=3, toughness=3),))
    session.supply([4])
    assert session.result is not None and session.result.outcome == WoundOutcome(True)


def test_OW_HERO_02_three_plus_two_fame_is_five() -> None:
    assert apply_fame(3, 2) == 5
    assert apply_fame(5, -1) == 4  # a point may also lower a roll


def _choices(session: TableSession) -> list[object]:
    assert session.result is not None
    return [e.answer for e in session.result.log if isinstance(e, ChoiceEntry)]


def test_OW_HERO_05_S3_vs_T8_four_plus_two_fame_is_six_and_carries_plus_two() -> None:
    """Seed: S3 vs T8 needs a 6 then a 4; first roll 4 + 2 Fame = 6; the second roll
    gets +2 automatically; a second roll of 1 becomes 3 and needs 1 more Fame (3 in all)."""
    inp = WoundInput(strength=3, toughness=8, fame=3)
    session = TableSession(wound_procedure, (inp,), chooser=PolicyChooser(JustEnough()))
    session.supply([4, 1])
    assert session.result is not None and session.result.outcome == WoundOutcome(True)
    assert _choices(session) == [2, 1]
    # the same dice with only 2 Fame: 1 + 2 = 3 < 4, no Fame left — no wound
    session = TableSession(
        wound_procedure,
        (WoundInput(strength=3, toughness=8, fame=2),),
        chooser=PolicyChooser(JustEnough()),
    )
    session.supply([4, 1])
    assert session.result is not None and session.result.outcome == WoundOutcome(False)
    assert _choices(session) == [2]


def test_OW_HERO_05_fame_carried_to_second_roll_counts_as_spent_once() -> None:
    """The points spent on the first roll are not paid again on the second."""
    session = TableSession(
        wound_with_fame, (3, 8, 2, "striker"), chooser=PolicyChooser(JustEnough())
    )
    session.supply([4, 2])  # 4+2 = 6; second 2+2 = 4: wounded with 2 Fame in all
    assert session.result is not None
    assert session.result.outcome.wounded and session.result.outcome.fame_spent == 2


def test_OW_HERO_05_default_policy_spends_nothing() -> None:
    inp = WoundInput(strength=3, toughness=8, fame=3)
    session = TableSession(wound_procedure, (inp,), chooser=PolicyChooser(SpendNothing()))
    session.supply([4])
    assert session.result is not None and session.result.outcome == WoundOutcome(False)
    assert _choices(session) == [0]


def test_OW_HERO_05_policies_are_hashable_and_named() -> None:
    assert set(policies()) == {"default", "just_enough"}
    default, best = policies()["default"], policies()["just_enough"]
    assert hash(default) == hash(SpendNothing()) and default != best
    odds = {
        name: OddsDriver(p).distribution(
            wound_procedure, (WoundInput(strength=3, toughness=8, fame=3),)
        )[WoundOutcome(True)]
        for name, p in policies().items()
    }
    assert odds == {"default": Fraction(1, 12), "just_enough": Fraction(2, 3)}
