"""Steel War reorganisation: the action's limits and the fate of unverified casualties
(SW-REORG-01, SW-REORG-02)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from pydantic import ValidationError

from kubik.core.errors import InputError
from kubik.engine import OddsDriver, TableSession
from kubik.engine.log import EventEntry
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.procedures.reorganisation import (
    ReorganiseInput,
    reorganise_procedure,
)
from kubik.rulesets.steel_war.reorganisation import (
    Care,
    CasualtyKind,
    Fate,
    ReorganiseOutcome,
    care_at_hand,
    care_bonus,
    fate_of,
    may_reorganise,
    reorganise,
)
from kubik.rulesets.steel_war.situation import UnitSituation


def test_SW_REORG_01_one_action_once_per_activation_suppressed_only_in_cover() -> None:
    """«Реорганизация занимает одно действие (дважды в активацию повторять нельзя)»;
    «реорганизация (только в укрытии)» for a suppressed squad."""
    assert may_reorganise(UnitSituation()).allowed
    assert "SW-REORG-01" in may_reorganise(UnitSituation()).rules
    once = UnitSituation(done=(ActionType.REORGANISE,))
    assert not may_reorganise(once).allowed  # never twice
    spent = UnitSituation(done=(ActionType.MOVE, ActionType.SHOOT))
    assert not may_reorganise(spent).allowed
    assert not may_reorganise(UnitSituation(markers=1, in_cover=False)).allowed
    assert may_reorganise(UnitSituation(markers=1, in_cover=True)).allowed


def test_SW_REORG_01_regroup_is_announced_even_without_casualties() -> None:
    session = TableSession(reorganise, (0,))
    session.supply([])
    assert session.result is not None
    assert session.result.outcome == ReorganiseOutcome(0, 0, 0)
    events = [e.event.id for e in session.result.log if isinstance(e, EventEntry)]
    assert events == ["steel_war.reorganise.regroup", "steel_war.reorganise.result"]


def test_SW_REORG_02_fate_table() -> None:
    assert [fate_of(r) for r in range(1, 9)] == [
        Fate.DIED,
        Fate.DIED,
        Fate.STABILISED,
        Fate.STABILISED,
        Fate.STABILISED,
        Fate.RETURNED,
        Fate.RETURNED,
        Fate.RETURNED,
    ]


def test_SW_REORG_02_medic_and_surgeon_bonuses() -> None:
    assert care_bonus(Care.NONE) == 0
    assert care_bonus(Care.MEDIC) == 1
    assert care_bonus(Care.SURGEON) == 2
    assert care_at_hand(True, None) is Care.MEDIC
    assert care_at_hand(False, 6.0) is Care.MEDIC  # «в пределах 6 дюймов есть медицинская машина»
    assert care_at_hand(False, 6.5) is Care.NONE
    assert care_at_hand(field_surgeon=True) is Care.SURGEON  # «полевой хирург с медбригадой»
    assert care_at_hand(False, 2.0, field_surgeon=True) is Care.BOTH


def test_SW_REORG_02_medic_and_surgeon_do_not_stack_and_the_difference() -> None:
    """Default: the better bonus (+2). Stacking (+3) would turn a 3 into a return."""
    bonus = care_bonus(Care.BOTH)
    assert bonus == 2
    assert fate_of(3 + bonus) is Fate.STABILISED
    assert fate_of(3 + care_bonus(Care.MEDIC) + care_bonus(Care.SURGEON)) is Fate.RETURNED


def test_SW_REORG_02_androids_get_no_medical_bonus_robots_cannot_be_healed() -> None:
    assert care_bonus(Care.SURGEON, CasualtyKind.ANDROID) == 0
    with pytest.raises(InputError, match="robots"):
        care_bonus(Care.NONE, CasualtyKind.ROBOT)
    with pytest.raises(ValidationError, match="kind"):
        ReorganiseInput.model_validate({"casualties": 1, "kind": "robot"})


def test_SW_REORG_02_table_reproduction_with_a_medic() -> None:
    inp = ReorganiseInput(casualties=3, medic=True)
    session = TableSession(reorganise_procedure, (inp,))
    session.supply([1, 2, 5])  # 2 died, 3 stabilised, 6 returned
    assert session.result is not None
    assert session.result.outcome == ReorganiseOutcome(died=1, stabilised=1, returned=1)


@pytest.mark.parametrize(
    ("example", "bonus"),
    [
        ({"casualties": 2}, 0),
        ({"casualties": 3, "medic": True}, 1),
        ({"casualties": 2, "surgeon": True}, 2),
        ({"casualties": 2, "medic": True, "surgeon": True}, 2),
        ({"casualties": 2, "medic": True, "kind": "android"}, 0),
        ({"casualties": 0}, 0),
    ],
)
def test_SW_REORG_02_reorganise_odds_match_brute_force(
    example: dict[str, object], bonus: int
) -> None:
    inp = ReorganiseInput.model_validate(example)
    counts: Counter[ReorganiseOutcome] = Counter()
    for faces in product(range(1, 7), repeat=inp.casualties):
        modified = [f + bonus for f in faces]
        counts[
            ReorganiseOutcome(
                sum(1 for m in modified if m <= 2),
                sum(1 for m in modified if 3 <= m <= 5),
                sum(1 for m in modified if m >= 6),
            )
        ] += 1
    total = 6**inp.casualties
    exact = OddsDriver().distribution(reorganise_procedure, (inp,))
    assert dict(exact) == {o: Fraction(n, total) for o, n in counts.items()}
