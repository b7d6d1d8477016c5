"""Pluck (OW-PLK-01..07): the test, Head for the Hills, flight, Fearsome Reputation, cover."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from kubik.core.errors import InputError
from kubik.engine import OddsDriver
from kubik.rulesets.old_west.fame import policies
from kubik.rulesets.old_west.pluck import (
    CoverReaction,
    DivingOutcome,
    FearsomeOutcome,
    HeadForTheHillsOutcome,
    PluckOutcome,
    cover_reaction,
    must_test_head_for_the_hills,
)
from kubik.rulesets.old_west.pluck import (
    tester_pluck as pick_tester,
)
from kubik.rulesets.old_west.procedures.pluck import (
    DivingInput,
    HeadForTheHillsInput,
    PluckInput,
    diving_procedure,
    fearsome_procedure,
    head_for_the_hills_procedure,
    pluck_test_procedure,
)

from .helpers import roll_sizes, table


def brute_pluck(pluck: int, fame: int, spend: bool) -> Fraction:
    passed = 0
    for d1, d2 in product(range(1, 7), repeat=2):
        total = d1 + d2 + pluck
        if total < 10 and spend and 10 - total <= fame:
            total = 10
        passed += total >= 10
    return Fraction(passed, 36)


@pytest.mark.parametrize("fame", [0, 1, 3])
def test_OW_PLK_01_pluck_test_odds_match_brute_force(fame: int) -> None:
    for name, policy in policies().items():
        driver = OddsDriver(policy)
        for pluck in range(11):
            dist = driver.distribution(pluck_test_procedure, (PluckInput(pluck=pluck, fame=fame),))
            assert dist[PluckOutcome(True)] == brute_pluck(pluck, fame, name == "just_enough")


def test_OW_PLK_01_two_dice_plus_pluck_ten_or_more_passes() -> None:
    passed = table(pluck_test_procedure, (PluckInput(pluck=3),), [3, 4])
    assert passed.result is not None and passed.result.outcome == PluckOutcome(True)
    assert roll_sizes(passed) == [("model", 2)]
    failed = table(pluck_test_procedure, (PluckInput(pluck=3),), [3, 3])
    assert failed.result is not None and failed.result.outcome == PluckOutcome(False)


def test_OW_HERO_04_fame_adds_to_the_pluck_total() -> None:
    from kubik.rulesets.old_west.fame import JustEnough

    from .helpers import ByPolicy

    session = table(
        pluck_test_procedure, (PluckInput(pluck=3, fame=2),), [3, 2], ByPolicy(JustEnough())
    )
    assert session.result is not None and session.result.outcome == PluckOutcome(True)


def test_OW_PLK_02_half_or_more_out_of_action_means_a_test_each_turn() -> None:
    assert not must_test_head_for_the_hills(6, 2)
    assert must_test_head_for_the_hills(6, 3)
    assert not must_test_head_for_the_hills(7, 3) and must_test_head_for_the_hills(7, 4)


def test_OW_PLK_02_leader_tests_or_else_the_highest_pluck() -> None:
    assert pick_tester(2, (5, 6)) == 2
    assert pick_tester(None, (3, 6, 4)) == 6
    with pytest.raises(InputError):
        pick_tester(None, ())
    inp = HeadForTheHillsInput(models=5, out_of_action=3, pluck=(2, 5))
    dist = OddsDriver().distribution(head_for_the_hills_procedure, (inp,))
    assert dist[HeadForTheHillsOutcome(True, True)] == 1 - brute_pluck(5, 0, False)
    fled = table(head_for_the_hills_procedure, (inp,), [2, 2])
    assert fled.result is not None and fled.result.outcome == HeadForTheHillsOutcome(True, True)
    held = table(head_for_the_hills_procedure, (inp,), [2, 3])
    assert held.result is not None and held.result.outcome == HeadForTheHillsOutcome(True, False)


def test_OW_PLK_03_models_that_left_for_objectives_are_not_out_of_action() -> None:
    inp = HeadForTheHillsInput(models=6, out_of_action=2, left_table=2, leader_pluck=4)
    session = table(head_for_the_hills_procedure, (inp,), [])
    assert session.result is not None
    assert session.result.outcome == HeadForTheHillsOutcome(False, False)
    # counting them as losses would have forced a test
    assert must_test_head_for_the_hills(6, 2 + 2)


def test_OW_PLK_04_voluntary_flight_after_half_lost() -> None:
    inp = HeadForTheHillsInput(models=4, out_of_action=2, leader_pluck=6, voluntary=True)
    session = table(head_for_the_hills_procedure, (inp,), [])
    assert session.result is not None
    assert session.result.outcome == HeadForTheHillsOutcome(True, True)
    early = HeadForTheHillsInput(models=4, out_of_action=1, leader_pluck=6, voluntary=True)
    with pytest.raises(InputError):
        table(head_for_the_hills_procedure, (early,), [])


def test_OW_PLK_05_fearsome_reputation_needs_a_pluck_test() -> None:
    dist = OddsDriver().distribution(fearsome_procedure, (PluckInput(pluck=3),))
    assert dist[FearsomeOutcome(True)] == brute_pluck(3, 0, False)
    scared = table(fearsome_procedure, (PluckInput(pluck=3),), [1, 5])
    assert scared.result is not None and scared.result.outcome == FearsomeOutcome(False)


def test_OW_PLK_06_diving_for_cover_reactions() -> None:
    assert cover_reaction(True, False, False) is CoverReaction.NONE
    assert cover_reaction(False, False, False) is CoverReaction.RUN_TO_COVER
    assert cover_reaction(False, True, False) is CoverReaction.LIE_DOWN
    assert CoverReaction.LIE_DOWN.pinned and not CoverReaction.NONE.pinned
    inp = DivingInput(pluck=2, behind_cover=True)
    session = table(diving_procedure, (inp,), [3, 4])
    assert session.result is not None
    assert session.result.outcome == DivingOutcome(CoverReaction.LIE_DOWN)
    # the test may be taken again in the same turn: each call is a fresh test
    again = table(diving_procedure, (inp,), [4, 4])
    assert again.result is not None and again.result.outcome == DivingOutcome(CoverReaction.NONE)
    dist = OddsDriver().distribution(diving_procedure, (DivingInput(pluck=2),))
    assert dist[DivingOutcome(CoverReaction.RUN_TO_COVER)] == 1 - brute_pluck(2, 0, False)


def test_OW_PLK_07_rider_behind_cover_dismounts_instead_of_lying_down() -> None:
    assert cover_reaction(False, True, True) is CoverReaction.DISMOUNT
    assert cover_reaction(False, False, True) is CoverReaction.RUN_TO_COVER
    inp = DivingInput(pluck=4, behind_cover=True, mounted=True)
    session = table(diving_procedure, (inp,), [1, 2])
    assert session.result is not None
    assert session.result.outcome == DivingOutcome(CoverReaction.DISMOUNT)
