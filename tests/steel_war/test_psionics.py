"""Steel War psionics: psi dice, zones, the success readings, androids, survivability,
telepathic communication (seed 001, «Псионики»).

The seed's own numbers are written out here on purpose, as an independent check of
the data file.
"""

from __future__ import annotations

import pytest

from kubik.engine.dice import D4, D6, D8, D10, D12
from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war import psionics
from kubik.rulesets.steel_war.psionics import (
    CommunicationRoll,
    FireKind,
    PsiFaction,
    PsiQuality,
    PsiReading,
    PsiSuccess,
    needs_line_of_sight,
    psi_die_at,
    psi_succeeds,
    psi_zone,
    psionic_leadership,
    resisting_die,
    success_faces,
    survivability_armour_die,
    telepathic_communication,
    usual_armour,
)
from kubik.rulesets.steel_war.psionics_actions import PsiAction


def test_SW_PSI_02_psi_quality_dice_from_the_seed() -> None:
    """«к4 — лишённый … к6 ученик … к8 мастер … к10 известный … к12 Легенда»."""
    assert [q.die for q in PsiQuality] == [D4, D6, D8, D10, D12]
    assert PsiQuality.MASTER.die == D8
    assert PsiQuality.of(D6) is PsiQuality.STUDENT
    assert PsiQuality.LEGEND.msgid == "steel_war.psi_quality.legend"


def test_SW_PSI_02_who_has_psi_dice() -> None:
    """Every Barf-jat is at least a d4 psi-warrior; Keno has one d10, Otlok none."""
    assert PsiFaction.BARF_JAT.every_model == D4
    assert PsiFaction.BARF_JAT.usual == D8
    assert PsiFaction.BARF_JAT.allows(D12)
    assert PsiFaction.KENO.every_model is None
    assert PsiFaction.KENO.usual == D6
    assert PsiFaction.KENO.allows(D10) and not PsiFaction.KENO.allows(D12)
    assert PsiFaction.OTLOK.usual == D6
    assert PsiFaction.OTLOK.allows(D8) and not PsiFaction.OTLOK.allows(D10)


def test_SW_PSI_05_zones_are_fixed_at_12_inches() -> None:
    """Zone 1 is 0–12", zone 2 12–24" …, whatever the psionic's die."""
    assert [psi_zone(d) for d in (0, 6, 12, 12.01, 24, 24.5, 36, 60, 60.5)] == [
        1,
        1,
        1,
        2,
        2,
        3,
        3,
        5,
        6,
    ]


def test_SW_PSI_05_line_of_sight_needed_only_beyond_the_first_zone() -> None:
    assert not needs_line_of_sight(0)
    assert not needs_line_of_sight(12)
    assert needs_line_of_sight(12.5)
    assert needs_line_of_sight(48)


def test_SW_PSI_06_worked_example_master_d8_d6_d4() -> None:
    """«в первой зоне "мастер" бросает к8, во второй — к6, в третьей — к4»."""
    master = PsiQuality.MASTER.die
    assert psi_die_at(master, 6) == D8
    assert psi_die_at(master, 18) == D6
    assert psi_die_at(master, 30) == D4


def test_SW_PSI_06_below_d4_the_action_is_impossible() -> None:
    """Zone 4 for a master would be below d4: no psi die at all (catalogue default)."""
    assert psi_die_at(D8, 36.5) is None
    assert psi_die_at(D4, 12.5) is None
    assert psi_die_at(D4, 12) == D4
    # A legend reaches zone 5 on d4 and no further (the chain ends where max_zones does).
    assert psi_die_at(D12, 60) == D4
    assert psi_die_at(D12, 60.5) is None


def test_SW_PSI_06_clamp_setting_is_an_option(monkeypatch: pytest.MonkeyPatch) -> None:
    """With below_d4 = "clamp" the die stays d4 up to the data's maximum zone."""
    data = load_ruleset_data("steel_war", {"psi_range": {"below_d4": "clamp"}})
    monkeypatch.setattr(psionics, "psi_data", lambda: data)
    assert psi_die_at(D4, 48) == D4
    assert psi_die_at(D4, 60.5) is None


def test_SW_PSI_06_at_least_reading_against_more_than() -> None:
    """The list header («больше или равное») is the default; the paragraph says «больше».

    The readings differ exactly on a roll equal to the threshold.
    """
    assert PsiReading.from_data() is PsiReading.AT_LEAST
    for roll in range(1, 13):
        for threshold in range(1, 9):
            at_least = psi_succeeds(roll, threshold)
            more_than = psi_succeeds(roll, threshold, PsiReading.MORE_THAN)
            assert at_least == (roll >= threshold)
            assert more_than == (roll > threshold)
            assert at_least != more_than if roll == threshold else at_least == more_than


def test_SW_PSI_06_success_faces_per_reading() -> None:
    """Faces that succeed: one fewer under "more than" whenever the threshold is on the die."""
    assert success_faces(D8, 2) == 7
    assert success_faces(D8, 2, PsiReading.MORE_THAN) == 6
    assert success_faces(D4, 1) == 4  # threshold-1 actions are automatic under ≥
    assert success_faces(D4, 1, PsiReading.MORE_THAN) == 3
    assert success_faces(D6, 7) == 0  # psi blast is hopeless on d6
    assert success_faces(D8, 8) == 1
    assert success_faces(D8, 8, PsiReading.MORE_THAN) == 0  # murder impossible for a master


def test_SW_PSI_06_reducer_batch_agrees_with_call() -> None:
    import numpy as np

    for reading in PsiReading:
        reducer = PsiSuccess(4, reading)
        faces = np.arange(1, 11).reshape(-1, 1)
        assert reducer.batch(faces).tolist() == [reducer((int(v),)) for v in range(1, 11)]


def test_SW_PSI_07_action_thresholds_from_the_seed() -> None:
    """«Список действий»: the number after each action's name."""
    assert {a.value: a.threshold for a in PsiAction} == {
        "remove_suppression": 2,
        "inspiration": 4,
        "no_step_back": 6,
        "detection": 1,
        "avert_eyes": 1,
        "strike": 4,
        "panic": 4,
        "confusion": 4,
        "blast": 7,
        "murder": 8,
    }
    assert PsiAction.STRIKE.number("extra_threat") == 3
    assert PsiAction.BLAST.number("morale_levels") == 2
    assert PsiAction.MURDER.number("suppression_markers") == 1
    assert PsiAction.MURDER.number("min_models") == 2


def test_SW_PSI_18_androids_resist_on_d6() -> None:
    """«они проходят только на к6» — also when their quality die is better or worse."""
    for quality in (D4, D6, D8, D10, D12):
        assert resisting_die(quality, android=True) == D6
        assert resisting_die(quality, android=False) == quality


def test_SW_PSI_03_survivability_psi_die_instead_of_d4() -> None:
    """«бросает на защиту не обычный … к4, а кубик своего пси-качества (к8, если это
    барф-джатский мастер)»."""
    master = PsiQuality.MASTER.die
    assert usual_armour() == D4
    assert survivability_armour_die(master, D4, FireKind.AIMED_SMALL_ARMS) == D8


def test_SW_PSI_03_survivability_only_for_aimed_ground_fire_on_the_psionic() -> None:
    master = PsiQuality.MASTER.die
    assert survivability_armour_die(master, D4, FireKind.FRAGMENTATION) == D4
    assert survivability_armour_die(master, D4, FireKind.OTHER) == D4
    assert survivability_armour_die(master, D4, FireKind.AIMED_SMALL_ARMS, from_air=True) == D4
    assert (
        survivability_armour_die(master, D4, FireKind.AIMED_SMALL_ARMS, hit_on_psionic=False) == D4
    )


def test_SW_PSI_03_better_armour_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Default: a psionic in armour better than his psi die rolls the better die."""
    assert survivability_armour_die(D4, D6, FireKind.AIMED_SMALL_ARMS) == D6
    data = load_ruleset_data("steel_war", {"psi_survivability": {"keep_better_armour": False}})
    monkeypatch.setattr(psionics, "psi_data", lambda: data)
    assert survivability_armour_die(D4, D6, FireKind.AIMED_SMALL_ARMS) == D4


def test_SW_PSI_04_two_psionics_always_pass_communication() -> None:
    assert telepathic_communication(D4, D6, D4) == CommunicationRoll(True, D4)


def test_SW_PSI_04_psionic_and_troops_use_the_better_die() -> None:
    """«или куб пси-качества или куб качества подразделения на выбор»."""
    assert telepathic_communication(D6, D8, None) == CommunicationRoll(False, D8)
    assert telepathic_communication(D10, D6, None) == CommunicationRoll(False, D10)
    assert telepathic_communication(D6, None, D12) == CommunicationRoll(False, D12)
    assert telepathic_communication(D8, None, None) == CommunicationRoll(False, D8)


def test_SW_PSI_04_only_on_table_communication() -> None:
    """«Например, для вызова арт- или авианалёта оно не используется»."""
    assert telepathic_communication(D6, D12, None, on_table=False) == CommunicationRoll(False, D6)
    assert telepathic_communication(D6, D12, D12, on_table=False) == CommunicationRoll(False, D6)


def test_SW_PSI_09_psionic_leadership_default() -> None:
    assert psionic_leadership() == 2
    assert psionic_leadership(3) == 3


def test_SW_PSI_data_tables_carry_provenance() -> None:
    from kubik.rulesets.data import provenance_kind

    data = load_ruleset_data("steel_war")
    names = {
        "psi_quality",
        "psi_factions",
        "psi_range",
        "psi_success",
        "psi_actions",
        "psi_androids",
        "psi_survivability",
        "psi_communication",
        "psi_inspiration",
    }
    assert names <= set(data)
    for name in sorted(names):
        provenance_kind(data[name], name)
