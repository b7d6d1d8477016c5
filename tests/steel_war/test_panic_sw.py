"""Panic (SW-PANIC-01) and what causes it by troop quality (SW-PANIC-02).

Seed 001, «Паника»: «на кубе качества бросить больше качества командира» is read as
leadership (the reaction list gives the event threat 0).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from kubik.engine import OddsDriver, TableSession
from kubik.engine.dice import D4, D6, D8, D10
from kubik.engine.registry import get
from kubik.rulesets.steel_war.activation import ActionType, action_verdict
from kubik.rulesets.steel_war.core import Quality
from kubik.rulesets.steel_war.morale_levels import MoraleLevel, apply_drop
from kubik.rulesets.steel_war.panic import (
    PanicEvent,
    PanicOutcome,
    causes_panic,
    panic_test,
    panic_triggers,
    quality_of,
)

E = PanicEvent


def test_SW_PANIC_02_triggers_by_quality() -> None:
    """«Необученные» … «Новобранцы» … «Регулярные» … «Ветераны» и «Элита» не паникуют."""
    assert panic_triggers(Quality.UNTRAINED) == {E.FIRST_ENEMY_IN_SIGHT, E.PSIONIC}
    assert panic_triggers(Quality.RECRUITS) == {E.FIRST_ARMOUR_SEEN, E.FIRST_SHOT_AT, E.PSIONIC}
    assert panic_triggers(Quality.REGULARS) == {E.FRIGHTENING_CHARGE, E.PSIONIC}
    assert panic_triggers(Quality.VETERANS) == {E.PSIONIC}
    assert panic_triggers(Quality.ELITE) == {E.PSIONIC}
    assert quality_of(D6) is Quality.RECRUITS


def test_SW_PANIC_02_events_that_do_not_panic_roll_nothing() -> None:
    assert not causes_panic(Quality.RECRUITS, E.FIRST_ENEMY_IN_SIGHT)
    assert not causes_panic(Quality.UNTRAINED, E.FIRST_SHOT_AT)
    session = TableSession(panic_test, (D10, 1, E.FIRST_SHOT_AT))
    session.supply([])
    assert session.result is not None
    assert session.result.outcome == PanicOutcome(panicked=False, drop=0)
    assert session.result.rolls == []


def test_SW_PANIC_01_passed_panic_never_comes_back_except_by_psionics() -> None:
    """«паника … больше до конца боя уже никогда не возникнет, что бы ни происходило»."""
    assert not causes_panic(Quality.REGULARS, E.FRIGHTENING_CHARGE, panic_over=True)
    assert causes_panic(Quality.REGULARS, E.PSIONIC, panic_over=True)


def test_SW_PANIC_01_test_beats_leadership_at_threat_zero() -> None:
    """Untrained d4, L = 2, first enemy in sight: 3 or 4 ends it, 1-2 panics (−1 level)."""
    spec = get("steel_war.panic_test")
    model = spec.input_model.model_validate(
        {"quality": "d4", "leadership": 2, "event": "first_enemy_in_sight"}
    )
    session = TableSession(spec.function, (model,))
    session.supply([])
    assert session.pending is not None and session.pending.dice == (D4,)
    assert session.pending.reason.kwargs["target"] == 2
    session.supply([2])
    assert session.result is not None
    assert session.result.outcome == PanicOutcome(panicked=True, drop=1)
    session = TableSession(spec.function, (model,))
    session.supply([3])
    assert session.result is not None
    assert session.result.outcome == PanicOutcome(panicked=False, drop=0)


def test_SW_PANIC_01_each_failed_attempt_costs_a_level_and_a_whole_activation() -> None:
    """«Каждый неудачный тест на панику приводит к такому ухудшению»."""
    level = MoraleLevel.STEADY
    for roll in (1, 2, 3):  # a recruit squad with L = 3 keeps failing
        session = TableSession(panic_test, (D6, 3, E.ONGOING))
        session.supply([roll])
        assert session.result is not None
        level = apply_drop(level, session.result.outcome.drop)
    assert level is MoraleLevel.FLEEING
    # a panicked squad can do nothing but the attempt, and it takes the whole activation
    assert action_verdict((), ActionType.END_PANIC, panicked=True).allowed
    assert not action_verdict((), ActionType.UNSUPPRESS, panicked=True).allowed
    assert not action_verdict((ActionType.END_PANIC,), ActionType.END_PANIC, panicked=True).allowed


def test_SW_PANIC_01_no_step_back_squads_pass_automatically() -> None:
    session = TableSession(panic_test, (D4, 3, E.PSIONIC, False, True))
    session.supply([])
    assert session.result is not None and session.result.outcome == PanicOutcome(False, 0)


@pytest.mark.parametrize("quality", ["d4", "d6", "d8", "d10", "d12"])
@pytest.mark.parametrize("leadership", [1, 2, 3])
@pytest.mark.parametrize("event", [e.value for e in PanicEvent])
def test_SW_PANIC_01_odds_match_brute_force(quality: str, leadership: int, event: str) -> None:
    faces = int(quality[1:])
    triggers = {
        4: {"first_enemy_in_sight"},
        6: {"first_armour_seen", "first_shot_at"},
        8: {"frightening_charge"},
    }.get(faces, set()) | {"psionic", "ongoing"}
    expected: dict[PanicOutcome, Fraction] = {}
    if event not in triggers:
        expected = {PanicOutcome(False, 0): Fraction(1)}
    else:
        for (roll,) in product(range(1, faces + 1)):
            key = PanicOutcome(False, 0) if roll > leadership else PanicOutcome(True, 1)
            expected[key] = expected.get(key, Fraction(0)) + Fraction(1, faces)
    spec = get("steel_war.panic_test")
    model = spec.input_model.model_validate(
        {"quality": quality, "leadership": leadership, "event": event}
    )
    assert dict(OddsDriver().distribution(spec.function, (model,))) == expected


def test_SW_PANIC_02_regulars_panic_at_a_frightening_charge() -> None:
    session = TableSession(panic_test, (D8, 1, E.FRIGHTENING_CHARGE))
    session.supply([1])
    assert session.result is not None and session.result.outcome.panicked
