"""Activations (SW-CORE-04) and the documented defaults for what the seed lacks:
turn order (SW-ABSENT-01), observation (SW-ABSENT-03), the communication action
(SW-ABSENT-04), squad profiles (SW-ABSENT-08), coherency (SW-ABSENT-09).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from kubik.core.errors import InputError
from kubik.engine import OddsDriver, TableSession
from kubik.engine.dice import D6, D8
from kubik.engine.registry import get
from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war.activation import (
    ActionType,
    Cost,
    action_rule,
    action_verdict,
    actions_per_activation,
    actions_used,
    alternating_order,
    roll_off_die,
    roll_off_winner,
)
from kubik.rulesets.steel_war.coherency import coherency_breaches, is_coherent
from kubik.rulesets.steel_war.core import Quality
from kubik.rulesets.steel_war.observation import ObservationOutcome, spots, spotting_lasts
from kubik.rulesets.steel_war.squad_profile import SquadProfile

A = ActionType


def _may(done: tuple[ActionType, ...], action: ActionType, **kwargs: bool) -> bool:
    return action_verdict(done, action, **kwargs).allowed


def test_SW_CORE_04_two_actions_per_activation() -> None:
    """«Но в активации два действия!»."""
    assert actions_per_activation() == 2
    assert _may((A.MOVE,), A.SHOOT)
    spent = action_verdict((A.MOVE, A.SHOOT), A.OBSERVE)
    assert not spent.allowed and spent.rules == ("SW-CORE-04",)
    assert spent.reason is not None and spent.reason.id == "steel_war.permission.activation_spent"


def test_SW_CORE_04_limits_per_activation() -> None:
    """Unsuppress twice; reorganise once; inspiration twice (the commander's two actions)."""
    assert action_rule(A.UNSUPPRESS).limit == 2
    assert _may((A.UNSUPPRESS,), A.UNSUPPRESS)  # «сначала снять подавление, а потом … пострелять»
    assert _may((A.UNSUPPRESS,), A.SHOOT)
    assert action_rule(A.REORGANISE).limit == 1
    twice = action_verdict((A.REORGANISE,), A.REORGANISE)
    assert not twice.allowed and twice.rules == ("SW-CORE-04", "SW-REORG-01")
    assert _may((A.INSPIRE,), A.INSPIRE)


def test_SW_CORE_04_whole_activation_actions() -> None:
    """Ending a panic, unloading, a charge take the whole activation."""
    for action in (A.END_PANIC, A.UNLOAD, A.CHARGE):
        assert action_rule(action).cost is Cost.ACTIVATION
        assert _may((), action)
        assert not _may((A.MOVE,), action)
        assert actions_used((action,)) == 2
        assert not _may((action,), A.MOVE)
    panicked = action_verdict((), A.SHOOT, panicked=True)
    assert not panicked.allowed and panicked.rules == ("SW-PANIC-01",)


def test_SW_ABSENT_01_a_passed_action_is_outside_the_squads_two() -> None:
    """The commander's passed action comes on top of the squad's own two (it may have
    activated already), but never as a whole-activation action."""
    assert _may((A.MOVE, A.SHOOT), A.SHOOT, passed=True)
    assert action_verdict((A.MOVE, A.SHOOT), A.SHOOT, passed=True).rules == ("SW-ABSENT-01",)
    assert not _may((), A.CHARGE, passed=True)


def test_SW_ABSENT_01_alternating_activations_and_roll_off() -> None:
    assert roll_off_die() == D6
    assert roll_off_winner({"a": 2, "b": 6}) == "b"
    assert roll_off_winner({"a": 3, "b": 3}) is None  # re-roll ties
    assert alternating_order("b", {"a": 3, "b": 1}) == ("b", "a", "a", "a")
    assert alternating_order("a", {"a": 2, "b": 2}) == ("a", "b", "a", "b")
    with pytest.raises(InputError, match="first"):
        alternating_order("c", {"a": 1})
    assert "default" in load_ruleset_data("steel_war")["turn_structure"]["provenance"]


def test_SW_ABSENT_01_passing_an_action_is_one_commander_action() -> None:
    assert action_rule(A.PASS_ACTION).cost is Cost.ACTION


def test_SW_ABSENT_03_observation_higher_die_spots() -> None:
    assert spots(5, 4) and not spots(4, 4)
    assert spotting_lasts() == "turn"
    spec = get("steel_war.observe")
    model = spec.input_model.model_validate({"observer": "d8", "target": "d6"})
    session = TableSession(spec.function, (model,))
    session.supply([])
    assert session.pending is not None and session.pending.dice == (D8,)
    session.supply([5, 4])
    assert session.result is not None
    assert session.result.outcome == ObservationOutcome(True)
    wins = sum(1 for o, t in product(range(1, 9), range(1, 7)) if o > t)
    exact = OddsDriver().distribution(spec.function, (model,))
    assert exact[ObservationOutcome(True)] == Fraction(wins, 48)


def test_SW_ABSENT_04_communication_is_an_action_using_the_communication_test() -> None:
    assert action_rule(A.COMMUNICATE).cost is Cost.ACTION
    spec = get("steel_war.communication_test")
    model = spec.input_model.model_validate(
        {"quality": "d6", "leadership": 1, "other_leadership": 3}
    )
    exact = OddsDriver().distribution(spec.function, (model,))
    assert [p for o, p in exact.items() if o.communicated] == [Fraction(3, 6)]


def test_SW_ABSENT_08_squad_profile_defaults() -> None:
    profile = SquadProfile(Quality.VETERANS, 2, 8, frozenset({"radio", "medic"}))
    assert profile.quality_die.faces == 10 and profile.has("medic")
    with pytest.raises(InputError, match="leadership"):
        SquadProfile(Quality.VETERANS, 4, 8)
    with pytest.raises(InputError, match="models"):
        SquadProfile(Quality.VETERANS, 2, 0)
    with pytest.raises(InputError, match="flags"):
        SquadProfile(Quality.VETERANS, 2, 3, frozenset({"jetpack"}))


def test_SW_ABSENT_09_coherency_2_inches_and_6_from_the_commander() -> None:
    assert coherency_breaches((1.0, 2.0, 2.1), (0.0, 6.0, 3.0)) == (2,)
    assert coherency_breaches((1.0, 1.0), (0.0, 6.5)) == (1,)
    assert is_coherent((1.0, 2.0), (0.0, 2.0))
    assert is_coherent((99.0,), (0.0,))  # a lone commander
    with pytest.raises(InputError, match="to_commander"):
        coherency_breaches((1.0,), (1.0, 2.0))


def test_SW_CORE_04_every_name_renders_in_both_languages() -> None:
    """Action types and every morale enum have English and Russian names."""
    from kubik.engine import msg
    from kubik.rulesets.steel_war.morale_levels import Fatigue, MoraleLevel, Motivation
    from kubik.rulesets.steel_war.no_step_back import NoStepBackResult, NotAllowed
    from kubik.rulesets.steel_war.panic import PanicEvent
    from kubik.rulesets.steel_war.reaction import ReactionAction
    from kubik.rulesets.steel_war.threat import PlusFactor, Trigger
    from kubik.text.i18n import catalogue, render

    enums = (ActionType, MoraleLevel, Fatigue, Motivation, NoStepBackResult, NotAllowed,
             PanicEvent, ReactionAction, PlusFactor, Trigger, Quality)  # fmt: skip
    for enum in enums:
        for member in enum:
            for lang in ("en", "ru"):
                assert member.msgid in catalogue(lang), (member, lang)
                assert render(msg(member.msgid), lang)
    assert render(msg(MoraleLevel.SHAKEN.msgid), "ru") == "Потрясённый (По)"
    assert "По" in render(msg(MoraleLevel.SHAKEN.msgid), "en")
