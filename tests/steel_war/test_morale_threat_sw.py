"""The reconstructed threat table (SW-MOR-06) and how factors combine (SW-MOR-07).

Seed 001, «Таблица уровня угрозы»: the plain-number cells were lost; surviving cells
and the worked examples are checked here, the guesses are pinned to the data file
with their provenance.
"""

from __future__ import annotations

import pytest

from kubik.core.errors import InputError
from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war.morale_levels import Motivation
from kubik.rulesets.steel_war.threat import (
    PlusFactor,
    Trigger,
    persistent_threat,
    plus_threat,
    plus_value,
    threat_level,
    trigger_value,
)

LOW, MEDIUM, HIGH = Motivation.LOW, Motivation.MEDIUM, Motivation.HIGH


def test_SW_MOR_06_surviving_plus_cells() -> None:
    """«Под артобстрелом +2 +1 +0», «непроверенную потерю +1 +0 Нет теста», «раненых +3 +2 +1»."""
    assert [plus_value(m, PlusFactor.ARTILLERY) for m in Motivation] == [2, 1, 0]
    assert [plus_value(m, PlusFactor.UNVERIFIED_CASUALTY) for m in Motivation] == [1, 0, 0]
    assert [plus_value(m, PlusFactor.WOUNDED_LEFT_BEHIND) for m in Motivation] == [3, 2, 1]


def test_SW_MOR_06_trigger_cells_reconstructed_and_guessed() -> None:
    """Low «more lost» = 4 and medium «commander» = 3 come from the examples; rest guesses."""
    assert trigger_value(LOW, Trigger.MORE_LOST_THAN_REMAIN) == 4
    assert trigger_value(MEDIUM, Trigger.COMMANDER_LOST) == 3
    table = {t: [trigger_value(m, t) for m in Motivation] for t in Trigger}
    assert table == {
        Trigger.FIRST_SUPPRESSED: [2, 1, None],
        Trigger.CASUALTIES: [3, 2, None],
        Trigger.MORE_LOST_THAN_REMAIN: [4, 3, 2],
        Trigger.COMMANDER_LOST: [4, 3, 2],
    }
    # The example's constraints: commander lost is the largest of the three medium triggers.
    medium = [trigger_value(MEDIUM, t) for t in Trigger if t is not Trigger.MORE_LOST_THAN_REMAIN]
    assert max(v for v in medium if v is not None) == 3


def test_SW_MOR_06_every_cell_has_its_provenance() -> None:
    table = load_ruleset_data("steel_war")["threat_table"]
    assert list(table["provenance"]) == ["reconstructed"]
    cells = table["provenance_cells"]
    for kind in ("triggers", "plus"):
        for row, columns in table[kind].items():
            for column in columns:
                provenance = cells[f"{kind}.{row}.{column}"]
                assert len(provenance) == 1
                assert next(iter(provenance)) in {"source", "reconstructed", "default"}
    assert "reconstructed" in cells["triggers.more_lost_than_remain.low"]
    assert "reconstructed" in cells["triggers.commander_lost.medium"]
    assert "source" in cells["plus.artillery.medium"]


def test_SW_MOR_07_worked_example_medium_takes_only_the_largest_trigger() -> None:
    """«Из этих трёх факторов нужно выбрать наибольший (3 за потерю командира)»."""
    events = {Trigger.FIRST_SUPPRESSED, Trigger.CASUALTIES, Trigger.COMMANDER_LOST}
    assert threat_level(MEDIUM, events) == 3


def test_SW_MOR_07_worked_example_medium_with_artillery_is_four() -> None:
    """«Выбираем 3 за потерю командира, и ещё к нему добавляем +1 за артналёт … 4!»."""
    events = {Trigger.FIRST_SUPPRESSED, Trigger.CASUALTIES, Trigger.COMMANDER_LOST}
    assert threat_level(MEDIUM, events, {PlusFactor.ARTILLERY: 1}) == 4


def test_SW_MOR_07_low_example_threat_six_and_target_eight() -> None:
    """SW-MOR-05: 4 (more lost than remain) + 1 × 2 unverified; with L = 2 → 8."""
    threat = threat_level(
        LOW,
        {Trigger.CASUALTIES, Trigger.MORE_LOST_THAN_REMAIN},
        {PlusFactor.UNVERIFIED_CASUALTY: 2},
    )
    assert threat == 6
    assert 2 + threat == 8


def test_SW_MOR_07_plus_rows_never_start_a_test() -> None:
    """«События, отмеченные знаком «+» сами по себе не вызывают теста»."""
    assert threat_level(LOW, set(), {PlusFactor.ARTILLERY: 1}) is None
    assert threat_level(MEDIUM, (), {PlusFactor.WOUNDED_LEFT_BEHIND: 1}) is None


def test_SW_MOR_07_no_test_cells_at_high_motivation() -> None:
    assert threat_level(HIGH, {Trigger.FIRST_SUPPRESSED, Trigger.CASUALTIES}) is None
    assert threat_level(HIGH, {Trigger.CASUALTIES, Trigger.COMMANDER_LOST}) == 2
    assert threat_level(HIGH, {Trigger.COMMANDER_LOST}, {PlusFactor.UNVERIFIED_CASUALTY: 5}) == 2


def test_SW_MOR_07_extra_threat_from_other_rules_is_added() -> None:
    """Charge odds, melee casualties, psi strike add to the table's threat."""
    assert threat_level(MEDIUM, {Trigger.CASUALTIES}, extra=3) == 5


def test_SW_MOR_07_counts_must_not_be_negative() -> None:
    with pytest.raises(InputError, match="unverified_casualty"):
        plus_threat(LOW, {PlusFactor.UNVERIFIED_CASUALTY: -1})


def test_SW_MOR_10_persistent_threat_of_the_inspiration_example() -> None:
    """«одну непроверенную потерю (+0), … оставить на поле боя своих раненых (+2)»."""
    assert persistent_threat(MEDIUM, unverified=1, wounded_left_behind=True) == 2
    assert persistent_threat(LOW, unverified=2, under_artillery=True) == 4
