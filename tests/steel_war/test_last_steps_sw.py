"""The rules whose last request became a tail step (observe's target roll, a bout's
opponents, a charge's combat move, a round's later bouts, a fire's armour tests) keep
their exact odds: checked against counting every face by hand, with the rules' own
functions."""

from __future__ import annotations

import itertools
from fractions import Fraction

from kubik.engine import OddsDriver
from kubik.engine.dice import D4, D6, D8, D10
from kubik.rulesets.steel_war.charge import ChargeOutcome, charge, charge_reached
from kubik.rulesets.steel_war.damage import Injury, injury
from kubik.rulesets.steel_war.fire import Effect, FireOutcome, casualties
from kubik.rulesets.steel_war.melee_fighters import Side
from kubik.rulesets.steel_war.melee_pairing import Bout
from kubik.rulesets.steel_war.melee_round import BoutOutcome, bout_fight, melee_round
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


def _round_by_hand(bouts: tuple[Bout, ...]) -> dict[tuple[int, int, tuple[str, ...]], Fraction]:
    """A melee round's losses by rolling every fighter's die in turn (SW-CC-08)."""
    dice = [d for b in bouts for d in (b.fighter, *b.opponents)]
    total = 1
    for die in dice:
        total *= die.faces
    counts: dict[tuple[int, int, tuple[str, ...]], int] = {}
    for faces in itertools.product(*(range(1, d.faces + 1) for d in dice)):
        attackers = defenders = 0
        fallen: list[str] = []
        at = 0
        for bout in bouts:
            own, others = faces[at], faces[at + 1 : at + 1 + len(bout.opponents)]
            at += 1 + len(bout.opponents)
            centre = any(o > own for o in others)
            beaten = [i for i, o in enumerate(others) if o < own]
            if bout.names:
                fallen += [bout.names[0]] if centre else []
                fallen += [bout.names[1 + i] for i in beaten]
            if bout.centre is Side.ATTACKER:
                attackers, defenders = attackers + centre, defenders + len(beaten)
            else:
                attackers, defenders = attackers + len(beaten), defenders + centre
        key = (attackers, defenders, tuple(fallen))
        counts[key] = counts.get(key, 0) + 1
    return {k: Fraction(n, total) for k, n in counts.items()}


def test_SW_CC_08_a_rounds_odds_count_every_roll_of_its_bouts() -> None:
    """A round's later bouts are a tail call whose losses add to the earlier ones'."""
    alike = Bout(Side.ATTACKER, D4, (D4, D4))
    bouts = (alike, alike, Bout(Side.DEFENDER, D6, (D4,)), Bout(Side.ATTACKER, D4, (D6,)))
    odds = OddsDriver().distribution(melee_round, (bouts,))
    by_hand = _round_by_hand(bouts)
    assert {(o.attacker, o.defender, o.fallen): p for o, p in odds.items()} == by_hand


def test_SW_CC_08_a_round_of_named_bouts_names_its_fallen_in_order() -> None:
    bouts = (
        Bout(Side.ATTACKER, D4, (D4, D6), ("a1", "d1", "d2")),
        Bout(Side.DEFENDER, D6, (D4,), ("d3", "a2")),
    )
    odds = OddsDriver().distribution(melee_round, (bouts,))
    assert {(o.attacker, o.defender, o.fallen): p for o, p in odds.items()} == _round_by_hand(bouts)


def test_SW_DMG_03_a_fires_casualties_count_every_armour_test() -> None:
    """The armour tests are the casualties step's tail call, their counts its outcome."""
    hits = 3
    odds = OddsDriver().distribution(casualties, (D6, D8, hits, False, ()))
    counts: dict[FireOutcome, int] = {}
    for faces in itertools.product(range(1, 9), range(1, 7), repeat=hits):
        results = [injury(faces[2 * i], faces[2 * i + 1]) for i in range(hits)]
        outcome = FireOutcome(
            Effect.HITS, hits, results.count(Injury.WOUNDED), results.count(Injury.KILLED)
        )
        counts[outcome] = counts.get(outcome, 0) + 1
    assert dict(odds) == {o: Fraction(n, 48**hits) for o, n in counts.items()}
