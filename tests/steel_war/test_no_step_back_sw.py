"""«Ни шагу назад!» (SW-NSN-01..04): preconditions, the test, effects, the end.

Seed 001, «„Ни шагу назад!“ или берсерки».
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from kubik.engine import OddsDriver, TableSession
from kubik.engine.dice import D6, D8
from kubik.engine.registry import get
from kubik.rulesets.steel_war.morale_levels import MoraleLevel
from kubik.rulesets.steel_war.no_step_back import (
    Ending,
    NoStepBackOutcome,
    NoStepBackResult,
    NotAllowed,
    Stand,
    berserk_effects,
    counted_enemies,
    ending,
    failure_result,
    level_after_ending,
    preconditions_failing,
    test_die,
    test_success,
)

ST, PO, RA, BE = MoraleLevel.STEADY, MoraleLevel.SHAKEN, MoraleLevel.BROKEN, MoraleLevel.FLEEING
R = NoStepBackResult


def _resolve(inp: dict[str, object], dice: list[int]) -> NoStepBackOutcome:
    spec = get("steel_war.no_step_back_test")
    session = TableSession(spec.function, (spec.input_model.model_validate(inp),))
    session.supply(dice)
    assert session.result is not None
    outcome: NoStepBackOutcome = session.result.outcome
    return outcome


def test_SW_NSN_01_all_four_preconditions() -> None:
    """Cover or gone to ground; no friends within 12"; 3+ enemies in sight; По or higher."""
    three = (ST, ST, PO)
    assert preconditions_failing(Stand(PO, in_cover=True, enemy_levels_in_sight=three)) == ()
    assert preconditions_failing(Stand(ST, gone_to_ground=True, enemy_levels_in_sight=three)) == ()
    assert preconditions_failing(Stand(ST, enemy_levels_in_sight=three)) == (
        NotAllowed.NOT_IN_COVER,
    )
    assert preconditions_failing(
        Stand(ST, in_cover=True, nearest_friend=12.0, enemy_levels_in_sight=three)
    ) == (NotAllowed.FRIENDS_NEAR,)
    assert (
        preconditions_failing(
            Stand(ST, in_cover=True, nearest_friend=12.1, enemy_levels_in_sight=three)
        )
        == ()
    )
    assert preconditions_failing(Stand(RA, in_cover=True, enemy_levels_in_sight=three)) == (
        NotAllowed.MORALE_TOO_LOW,
    )


def test_SW_NSN_01_retreating_and_fleeing_enemies_do_not_count() -> None:
    """«не меньше трёх вражеских отделений, которые не отступают и не бегут»."""
    assert counted_enemies((ST, PO, RA, BE)) == 2
    stand = Stand(ST, in_cover=True, enemy_levels_in_sight=(ST, PO, RA, BE))
    assert preconditions_failing(stand) == (NotAllowed.TOO_FEW_ENEMIES,)
    assert _resolve({"enemy_levels_in_sight": ["Ст", "По", "Ра", "Бе"]}, []) == NoStepBackOutcome(
        R.NOT_ALLOWED
    )


def test_SW_NSN_02_d8_for_the_keno_guard_d6_for_others_six_or_more() -> None:
    """«Нужно бросить к8 для Гвардии Кено или к6 для любых других войск … «6» или выше»."""
    assert test_die(True) == D8 and test_die(False) == D6
    assert [test_success(r) for r in range(1, 9)] == [False] * 5 + [True] * 3
    assert _resolve({}, [6]) == NoStepBackOutcome(R.BERSERK)
    assert _resolve({}, [5]) == NoStepBackOutcome(R.SCATTERED)
    assert _resolve({"keno_guard": True}, [8]) == NoStepBackOutcome(R.BERSERK)


def test_SW_NSN_02_odds_match_brute_force() -> None:
    spec = get("steel_war.no_step_back_test")
    for keno, faces in ((False, 6), (True, 8)):
        model = spec.input_model.model_validate({"keno_guard": keno, "nearest_enemy": 10})
        expected: dict[NoStepBackOutcome, Fraction] = {}
        for (roll,) in product(range(1, faces + 1)):
            key = NoStepBackOutcome(R.BERSERK if roll >= 6 else R.SURRENDERED)
            expected[key] = expected.get(key, Fraction(0)) + Fraction(1, faces)
        assert dict(OddsDriver().distribution(spec.function, (model,))) == expected
    assert expected[NoStepBackOutcome(R.BERSERK)] == Fraction(3, 8)


def test_SW_NSN_03_failure_scatters_or_surrenders_within_12_inches() -> None:
    """«снимается со стола … если в пределах 12 дюймов есть противник – то сдались ему»."""
    assert failure_result(None) is R.SCATTERED
    assert failure_result(12.0) is R.SURRENDERED
    assert failure_result(12.5) is R.SCATTERED
    assert _resolve({"nearest_enemy": 8}, [1]) == NoStepBackOutcome(R.SURRENDERED)


def test_SW_NSN_03_success_means_no_tests_and_no_suppression() -> None:
    """«не проходит тесты на боевой дух, и на реакцию … маркеров подавления … не присваивают»."""
    effects = berserk_effects()
    assert effects.morale_tests_pass and effects.reaction_tests_pass
    assert effects.suppression_ignored and effects.frightening


def test_SW_NSN_03_not_allowed_rolls_nothing() -> None:
    spec = get("steel_war.no_step_back_test")
    session = TableSession(spec.function, (spec.input_model.model_validate({"level": "Ра"}),))
    session.supply([])
    assert session.result is not None
    assert session.result.outcome == NoStepBackOutcome(R.NOT_ALLOWED)
    assert session.result.rolls == []


def test_SW_NSN_04_ends_when_wiped_out_or_only_broken_enemies_remain() -> None:
    """«… кроме тех, кто находится в состоянии «разбитые». … боевой дух … «Стойкий»»."""
    assert ending(0, (ST,)) is Ending.WIPED_OUT
    assert ending(2, (RA, RA)) is Ending.NO_ENEMY_LEFT
    assert ending(2, ()) is Ending.NO_ENEMY_LEFT
    assert ending(2, (RA, PO)) is Ending.CONTINUES
    assert ending(2, (BE,)) is Ending.CONTINUES  # literal: only «разбитые» are ignored
    assert level_after_ending() is ST


@pytest.mark.parametrize("level", ["Ув", "Ст", "По"])
def test_SW_NSN_01_levels_por_or_higher_may_try(level: str) -> None:
    assert _resolve({"level": level}, [6]) == NoStepBackOutcome(R.BERSERK)
