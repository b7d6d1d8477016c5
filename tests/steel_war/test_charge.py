"""Steel War charge: enhanced reaction test, charge move, free fire and second attempt,
the charged squad's morale (SW-CC-02..05, SW-CC-11, SW-ABSENT-02, SW-ABSENT-07).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from pydantic import ValidationError

from kubik.core.errors import InputError
from kubik.engine import OddsDriver, Procedure, Roll, TableSession, msg
from kubik.engine.dice import D6, D8, D10, Die
from kubik.rulesets.steel_war.charge import (
    ChargeOutcome,
    DefenderMoraleOutcome,
    DefensiveFire,
    charge,
    charge_reached,
    charge_threat,
    defender_morale,
    defender_threat,
    is_frightening,
    outnumbering_threat,
    second_attempt_threat,
)
from kubik.rulesets.steel_war.morale_levels import MoraleLevel
from kubik.rulesets.steel_war.movement import TerrainClass
from kubik.rulesets.steel_war.procedures.melee import (
    ChargeInput,
    DefenderMoraleInput,
    charge_procedure,
    defender_morale_procedure,
)

NOT_DECLARED = ChargeOutcome(False, False, False, False)


def _oracle_charge(
    q: Die, leadership: int, threat: int, distance: float, divisor: int, casualties: int
) -> dict[ChargeOutcome, Fraction]:
    """Charge by hand: test die, 2d6, retest die, 2d6 — all enumerated every time."""
    counts: Counter[ChargeOutcome] = Counter()
    faces = range(1, q.faces + 1)
    d6 = range(1, 7)
    for t1, a, b, t2, c, d in product(faces, d6, d6, faces, d6, d6):
        if t1 <= leadership + threat:
            counts[NOT_DECLARED] += 1
            continue
        left = distance - (a + b) // divisor
        if left <= 2:
            counts[ChargeOutcome(True, True, False, False)] += 1
            continue
        if casualties > 0 and t2 <= leadership + casualties:
            counts[ChargeOutcome(True, False, True, True)] += 1
            continue
        left -= (c + d) // divisor
        counts[ChargeOutcome(True, left <= 2, True, False, 0.0 if left <= 2 else left)] += 1
    total = (q.faces * 36) ** 2
    return {o: Fraction(n, total) for o, n in counts.items()}


# --- SW-CC-02 ------------------------------------------------------------------------


def test_SW_CC_02_worked_example_ordinary_commander_steady_needs_more_than_3() -> None:
    assert charge_threat(MoraleLevel.STEADY) == 1
    inp = ChargeInput(quality="d8", leadership=2, morale="steady", distance=5)
    fails = TableSession(charge_procedure, (inp,))
    fails.supply([3])
    assert fails.result is not None
    assert fails.result.outcome == NOT_DECLARED  # the whole activation is lost
    passes = TableSession(charge_procedure, (inp,))
    passes.supply([4, 1, 2])
    assert passes.result is not None
    assert passes.result.outcome.declared


def test_SW_CC_02_shaken_adds_three_broken_and_fleeing_never_charge() -> None:
    assert charge_threat(MoraleLevel.SHAKEN) == 3
    assert charge_threat(MoraleLevel.CONFIDENT) == 0
    for morale in ("broken", "fleeing"):
        inp = ChargeInput(quality="d12", leadership=1, morale=morale, distance=3)
        session = TableSession(charge_procedure, (inp,))
        session.supply([])  # no die is rolled at all
        assert session.result is not None
        assert session.result.outcome == NOT_DECLARED


# --- SW-CC-03, SW-ABSENT-02 ----------------------------------------------------------


def test_SW_CC_03_SW_ABSENT_02_combat_move_2d6_reaches_within_two_inches() -> None:
    assert charge_reached(2) and not charge_reached(2.01)
    inp = ChargeInput(quality="d8", leadership=2, distance=9)
    session = TableSession(charge_procedure, (inp,))
    session.supply([8, 3, 4])  # moves 7": 2" left -> reached
    assert session.result is not None
    assert session.result.outcome == ChargeOutcome(True, True, False, False)


def test_SW_CC_03_combat_move_is_halved_in_difficult_terrain() -> None:
    inp = ChargeInput(quality="d8", leadership=2, distance=6, terrain="difficult")
    session = TableSession(charge_procedure, (inp,))
    session.supply([8, 3, 4, 6, 6])  # 7 // 2 = 3": 3" left; no fire casualties; 12 // 2 = 6
    assert session.result is not None
    assert session.result.outcome == ChargeOutcome(True, True, True, False)


# --- SW-CC-04 ------------------------------------------------------------------------


def test_SW_CC_04_casualties_force_a_test_of_leadership_plus_one_each() -> None:
    assert second_attempt_threat(2) == 2
    assert second_attempt_threat(0) is None  # default: no casualties, no test
    inp = ChargeInput(quality="d8", leadership=2, distance=12, defensive_fire_casualties=2)
    failed = TableSession(charge_procedure, (inp,))
    failed.supply([5, 1, 1, 4])  # 2" moved, short; 4 <= 2 + 2 -> suppressed and back
    assert failed.result is not None
    assert failed.result.outcome == ChargeOutcome(True, False, True, True)
    passed = TableSession(charge_procedure, (inp,))
    passed.supply([5, 1, 1, 5, 6, 6])  # 5 > 4: second move 12": reached
    assert passed.result is not None
    assert passed.result.outcome == ChargeOutcome(True, True, True, False)


def test_SW_CC_04_second_move_short_again_is_a_failed_charge() -> None:
    inp = ChargeInput(quality="d8", leadership=2, distance=30)
    session = TableSession(charge_procedure, (inp,))
    session.supply([8, 6, 6, 6, 6])
    assert session.result is not None
    # the attackers stay where the second move ended, 6" short (SW-CC-04 default)
    assert session.result.outcome == ChargeOutcome(True, False, True, False, 6.0)


def _toy_fire(die: Die, remaining: float) -> Procedure[int]:
    """A stand-in for the defender's free fire (measured ``remaining`` inches away): one
    casualty on 4+."""
    (roll,) = yield Roll(die, msg("steel_war.charge.free_fire", casualties=0))
    return 1 if roll >= 4 else 0


def _identity(casualties: int) -> int:
    return casualties


def test_SW_CC_04_free_fire_as_a_called_procedure_matches_brute_force() -> None:
    fire = DefensiveFire(_toy_fire, (D6,), _identity)
    exact = OddsDriver().distribution(
        charge, (D8, 2, MoraleLevel.STEADY, 10.0, TerrainClass.EASY, fire)
    )
    with_hit = _oracle_charge(D8, 2, 1, 10.0, 1, 1)
    without = _oracle_charge(D8, 2, 1, 10.0, 1, 0)
    expected = {
        o: (with_hit.get(o, 0) + without.get(o, 0)) / 2 for o in set(with_hit) | set(without)
    }
    # The fire only happens after a short first move; before that both branches agree.
    assert dict(exact) == {o: p for o, p in expected.items() if p}


@pytest.mark.parametrize(
    ("example", "q", "threat", "divisor"),
    [
        ({"quality": "d8", "leadership": 2, "morale": "steady", "distance": 7}, D8, 1, 1),
        (
            {
                "quality": "d6",
                "leadership": 2,
                "morale": "shaken",
                "distance": 9,
                "defensive_fire_casualties": 1,
            },
            D6,
            3,
            1,
        ),
        (
            {"quality": "d10", "leadership": 1, "distance": 10, "terrain": "difficult"},
            D10,
            1,
            2,
        ),
        (
            {
                "quality": "d8",
                "leadership": 1,
                "morale": "confident",
                "distance": 14.5,
                "terrain": "very_difficult",
                "defensive_fire_casualties": 3,
            },
            D8,
            0,
            3,
        ),
    ],
)
def test_SW_CC_02_SW_CC_03_SW_CC_04_charge_odds_match_brute_force(
    example: dict[str, object], q: Die, threat: int, divisor: int
) -> None:
    inp = ChargeInput.model_validate(example)
    exact = OddsDriver().distribution(charge_procedure, (inp,))
    expected = _oracle_charge(
        q, inp.leadership, threat, inp.distance, divisor, inp.defensive_fire_casualties
    )
    assert dict(exact) == expected


def test_SW_CC_03_negative_distance_is_refused() -> None:
    with pytest.raises(ValidationError, match="distance"):
        ChargeInput.model_validate({"quality": "d8", "leadership": 2, "distance": -1})
    with pytest.raises(InputError, match="distance"):
        next(charge(D8, 2, MoraleLevel.STEADY, -1.0))


# --- SW-CC-05, SW-CC-11, SW-ABSENT-07 -----------------------------------------------


def test_SW_CC_05_outnumbering_adds_one_two_three() -> None:
    assert outnumbering_threat(4, 4) == 0
    assert outnumbering_threat(5, 4) == 1
    assert outnumbering_threat(7, 4) == 1
    assert outnumbering_threat(8, 4) == 2
    assert outnumbering_threat(12, 4) == 3
    assert outnumbering_threat(2, 4) == 0
    with pytest.raises(InputError, match="defenders"):
        outnumbering_threat(3, 0)


def test_SW_ABSENT_07_cavalry_with_blades_counts_double_and_is_frightening() -> None:
    assert outnumbering_threat(3, 5) == 0
    assert outnumbering_threat(3, 5, cavalry_with_blades=3) == 1  # 6 against 5
    assert is_frightening(False, cavalry_with_blades=1)
    assert defender_threat(3, 5, cavalry_with_blades=3) == 2  # (+1) doubled
    with pytest.raises(ValidationError, match="cavalry_with_blades"):
        DefenderMoraleInput(
            quality="d8", leadership=2, attackers=2, defenders=2, cavalry_with_blades=3
        )


def test_SW_CC_11_frightening_doubles_every_threat_modifier() -> None:
    assert not is_frightening(False, 0)
    assert defender_threat(8, 4, other_threat=1) == 3
    assert defender_threat(8, 4, other_threat=1, frightening=True) == 6  # not only the charge's +2
    assert defender_threat(3, 4, other_threat=2, frightening=True) == 4


def test_SW_CC_05_failed_test_falls_back_passed_test_fights() -> None:
    session = TableSession(defender_morale, (D8, 2, 2))
    session.supply([3])  # target 4: 3 fails, 3 > 2 -> one level
    assert session.result is not None
    assert session.result.outcome == DefenderMoraleOutcome(1, False)
    session = TableSession(defender_morale, (D8, 2, 2))
    session.supply([5])
    assert session.result is not None
    assert session.result.outcome == DefenderMoraleOutcome(0, True)


@pytest.mark.parametrize(
    ("example", "q", "threat"),
    [
        ({"quality": "d8", "leadership": 2, "attackers": 5, "defenders": 4}, D8, 1),
        (
            {"quality": "d6", "leadership": 2, "attackers": 7, "defenders": 3, "frightening": True},
            D6,
            4,
        ),
        ({"quality": "d10", "leadership": 1, "attackers": 2, "defenders": 4}, D10, 0),
        (
            {
                "quality": "d8",
                "leadership": 3,
                "attackers": 3,
                "defenders": 5,
                "cavalry_with_blades": 3,
                "other_threat": 1,
            },
            D8,
            4,
        ),
    ],
)
def test_SW_CC_05_defender_morale_odds_match_brute_force(
    example: dict[str, object], q: Die, threat: int
) -> None:
    inp = DefenderMoraleInput.model_validate(example)
    counts: Counter[DefenderMoraleOutcome] = Counter()
    target = inp.leadership + threat
    for roll in range(1, q.faces + 1):
        if roll > target:
            counts[DefenderMoraleOutcome(0, True)] += 1
        else:
            counts[DefenderMoraleOutcome(2 if 2 * roll <= target else 1, False)] += 1
    exact = OddsDriver().distribution(defender_morale_procedure, (inp,))
    assert dict(exact) == {o: Fraction(n, q.faces) for o, n in counts.items()}
