"""The rules whose last request became a tail step (observe's target roll, a bout's
opponents, a charge's combat move) keep their exact odds: checked against counting
every face by hand, with the rules' own functions."""

from __future__ import annotations

import itertools
from fractions import Fraction

from kubik.dice import D6, D8, D10
from kubik.engine import OddsDriver
from kubik.rulesets.steel_war.charge import ChargeOutcome, charge, charge_reached
from kubik.rulesets.steel_war.melee import Bout, BoutOutcome, Side, bout_fight
from kubik.rulesets.steel_war.morale_levels import MoraleLevel
from kubik.rulesets.steel_war.movement import TerrainClass
from kubik.rulesets.steel_war.observation import ObservationOutcome, observe, spots


def test_SW_ABSENT_03_observe_odds_count_every_pair_of_faces() -> None:
    odds = OddsDriver().distribution(observe, (D10, D6))
    spotted = Fraction(sum(spots(a, b) for a in range(1, 11) for b in range(1, 7)), 60)
    assert odds[ObservationOutcome(True)] == spotted
    assert odds[ObservationOutcome(False)] == 1 - spotted


def test_SW_CC_08_a_bouts_odds_count_every_roll_of_its_fighters() -> None:
    bout = Bout(Side.ATTACKER, D8, (D6, D6, D10))
    odds = OddsDriver().distribution(bout_fight, (bout,))
    counts: dict[BoutOutcome, int] = {}
    for own, *others in itertools.product(range(1, 9), range(1, 7), range(1, 7), range(1, 11)):
        outcome = BoutOutcome(any(o > own for o in others), sum(o < own for o in others))
        counts[outcome] = counts.get(outcome, 0) + 1
    assert {o: odds[o] for o in odds} == {o: Fraction(n, 8 * 6 * 6 * 10) for o, n in counts.items()}


def test_SW_CC_03_a_charge_without_tests_reaches_as_its_two_moves_add_up() -> None:
    odds = OddsDriver().distribution(
        charge, (D8, 1, MoraleLevel.STEADY, 13.0, TerrainClass.EASY, 0)
    )
    reached = odds.probability(lambda o: o.reached)
    declared = odds.probability(lambda o: o.declared)
    two_d6 = [a + b for a in range(1, 7) for b in range(1, 7)]
    first = Fraction(sum(charge_reached(max(13.0 - m, 0.0)) for m in two_d6), 36)
    short = [m for m in two_d6 if not charge_reached(max(13.0 - m, 0.0))]
    both = Fraction(
        sum(charge_reached(max(13.0 - m - n, 0.0)) for m in short for n in two_d6), 36 * 36
    )
    assert reached == declared * (first + both)
    stopped = [o for o in odds if o.declared and not o.reached and not o.suppressed]
    assert all(isinstance(o, ChargeOutcome) and o.remaining > 0 for o in stopped)
