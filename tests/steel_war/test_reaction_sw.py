"""The reaction test (SW-REACT-01) and the actions that need one (SW-REACT-02).

Seed 001, «Тест на реакцию» and «Какие действия требуют теста на реакцию».
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from pydantic import ValidationError

from kubik.core.errors import InputError
from kubik.engine import OddsDriver, TableSession
from kubik.engine.dice import D6, D8
from kubik.engine.registry import get
from kubik.rulesets.steel_war.morale_levels import MoraleLevel
from kubik.rulesets.steel_war.reaction import (
    FailedReactions,
    ReactionAction,
    ReactionOutcome,
    reaction_test,
    reaction_threat,
)


def _model(inp: dict[str, object]) -> object:
    return get("steel_war.reaction_test").input_model.model_validate(inp)


THREATS = {
    "go_to_ground_open": 2,
    "go_to_ground_other": 0,
    "move_while_down": 2,
    "leave_cover_shaken": 2,
    "charge": 1,  # a Steady squad's charge; Shaken 3 (SW-CC-02)
    "panic_event": 0,
}


def test_SW_REACT_02_threats_from_the_seed_list() -> None:
    """«Попытка залечь на открытой местности. Уровень угрозы 2.» … «Попытка вступить в
    ближний бой. Уровень угрозы для «Ст» 1, для «По» 3» … «… панику. Уровень угрозы 0»."""
    steady = MoraleLevel.STEADY
    assert {a.value: reaction_threat(a, steady) for a in ReactionAction} == THREATS
    assert reaction_threat(ReactionAction.CHARGE, MoraleLevel.SHAKEN) == 3
    with pytest.raises(InputError, match="level"):
        reaction_threat(ReactionAction.CHARGE, MoraleLevel.BROKEN)


def test_SW_REACT_01_same_form_as_a_morale_test_but_no_morale_loss() -> None:
    """Beat L + T; a failure is only ``passed=False`` (no drop field at all)."""
    session = TableSession(reaction_test, (D6, 2, 2))
    session.supply([4])
    assert session.result is not None and session.result.outcome == ReactionOutcome(False)
    session = TableSession(reaction_test, (D6, 2, 2))
    session.supply([5])
    assert session.result is not None and session.result.outcome == ReactionOutcome(True)


def test_SW_REACT_01_shaken_squad_fails_to_leave_cover_and_may_not_retry_this_turn() -> None:
    """«"По" отделение попыталось выйти из укрытия, у него это не получилось …»."""
    spec = get("steel_war.reaction_test")
    session = TableSession(
        spec.function, (_model({"quality": "d8", "leadership": 2, "action": "leave_cover_shaken"}),)
    )
    session.supply([4])
    assert session.result is not None and not session.result.outcome.passed
    barred = FailedReactions().add(ReactionAction.LEAVE_COVER_SHAKEN)
    assert not barred.may_attempt(ReactionAction.LEAVE_COVER_SHAKEN)  # even a passed action
    assert barred.may_attempt(ReactionAction.GO_TO_GROUND_OTHER)  # something else is fine
    assert FailedReactions.new_turn().may_attempt(ReactionAction.LEAVE_COVER_SHAKEN)


def test_SW_REACT_01_action_or_threat_exactly_one() -> None:
    with pytest.raises(ValidationError, match="exactly one"):
        _model({"quality": "d8", "leadership": 2})
    with pytest.raises(ValidationError, match="exactly one"):
        _model({"quality": "d8", "leadership": 2, "action": "panic_event", "threat": 1})
    with pytest.raises(ValidationError, match="level"):
        _model({"quality": "d8", "leadership": 2, "action": "charge", "level": "Бе"})
    with pytest.raises(ValidationError):
        _model({"quality": "d8", "leadership": 2, "action": "climb"})


def test_SW_REACT_01_no_step_back_passes_without_a_roll() -> None:
    session = TableSession(reaction_test, (D8, 3, 30, True))
    session.supply([])
    assert session.result is not None
    assert session.result.outcome == ReactionOutcome(True) and session.result.rolls == []


@pytest.mark.parametrize("action", [a.value for a in ReactionAction])
@pytest.mark.parametrize("quality", ["d4", "d6", "d8", "d10", "d12"])
@pytest.mark.parametrize("leadership", [1, 2, 3])
def test_SW_REACT_02_odds_match_brute_force(action: str, quality: str, leadership: int) -> None:
    threat = THREATS[action]
    faces = int(quality[1:])
    wins = sum(1 for (r,) in product(range(1, faces + 1)) if r > leadership + threat)
    spec = get("steel_war.reaction_test")
    model = _model({"quality": quality, "leadership": leadership, "action": action})
    exact = OddsDriver().distribution(spec.function, (model,))
    assert exact[ReactionOutcome(True)] == Fraction(wins, faces)
    assert sum(exact.values()) == 1
