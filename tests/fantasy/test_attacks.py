"""``fantasy.attacks`` (design.md's contract) and every special rule that changes a
blow, against an independent die-by-die enumeration (tests/fantasy/brute.py)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

import kubik.api as api
from kubik.engine import OddsDriver
from kubik.engine.registry import get
from kubik.rulesets.fantasy.attacks import AttacksOutcome, Blows, attacks, recover_wound
from tests.fantasy.brute import at_least, convolve, one_attack

BASE: dict[str, Any] = {
    "attacks": 3,
    "weapon_skill": 4,
    "strength": 3,
    "target_weapon_skill": 3,
    "target_toughness": 3,
    "target_armour_save": 5,
}


def odds(**changes: Any) -> dict[int, Fraction]:
    spec = get("fantasy.attacks")
    inp = spec.input_model.model_validate({**BASE, **changes})
    dist = OddsDriver().distribution(spec.function, (inp,))
    return {outcome.wounds: p for outcome, p in dist.items()}


def expected(times: int, **kw: Any) -> dict[int, Fraction]:
    return convolve(one_attack(**kw), times)


def test_contract_input_fields_and_outcome() -> None:
    """The contract's fields and its one outcome field, ``wounds``."""
    schema = get("fantasy.attacks").input_schema()
    for name in (
        "attacks",
        "weapon_skill",
        "strength",
        "target_weapon_skill",
        "target_toughness",
        "target_armour_save",
        "target_ward_save",
        "special_rules",
        "round",
    ):
        assert name in schema["properties"], name
    assert set(schema["required"]) == {
        "attacks",
        "weapon_skill",
        "strength",
        "target_weapon_skill",
        "target_toughness",
    }
    result = api.odds("fantasy.attacks", BASE)
    assert result["exact"] is True
    assert all(set(o["outcome"]) == {"wounds"} for o in result["outcomes"])
    assert sum(Fraction(o["probability"]) for o in result["outcomes"]) == 1


def test_plain_blows_match_brute_force_fb_absent_01_03_04() -> None:
    """FB-ABSENT-01/03/04: WS4 vs WS3 hits on 3+, S3 vs T3 wounds on 4+, 5+ armour."""
    assert odds() == expected(3, hit=3, wound=4, armour=5)


def test_fb_absent_05_ward_save_after_armour() -> None:
    """FB-ABSENT-05: the ward save is taken after the armour save."""
    assert odds(target_ward_save=4) == expected(3, hit=3, wound=4, armour=5, ward=4)


def test_fb_absent_03_n_cell_cannot_wound() -> None:
    """FB-ABSENT-03: S1 against T5 rolls nothing to wound and does nothing."""
    assert odds(strength=1, target_toughness=5) == {0: Fraction(1)}


def test_fb_sr_04_armour_piercing_worsens_the_save_by_one_more() -> None:
    """FB-SR-04 with FB-ABSENT-04: S4 and armour piercing turn a 4+ into a 6+."""
    got = odds(strength=4, target_armour_save=4, special_rules=["armour_piercing"])
    assert got == expected(3, hit=3, wound=3, armour=6)


def test_fb_sr_05_devastating_charge_only_when_charging_in_round_one() -> None:
    """FB-SR-05: +1 Strength charging in the first round, not later or unprovoked."""
    assert odds(special_rules=["devastating_charge"]) == expected(3, hit=3, wound=3, armour=6)
    assert odds(special_rules=["devastating_charge"], round=2) == odds()
    assert odds(special_rules=["devastating_charge"], charging=False) == odds()


def test_fb_sr_07_extra_attack_and_fb_psy_05_frenzy_add_one_attack() -> None:
    """FB-SR-07: +1 Attack; FB-PSY-05: Frenzy gives Extra attack (once, not twice)."""
    four = expected(4, hit=3, wound=4, armour=5)
    assert odds(special_rules=["extra_attack"]) == four
    assert odds(special_rules=["frenzy"]) == four
    assert odds(special_rules=["frenzy", "extra_attack"]) == four


def test_fb_sr_09_flaming_no_armour_no_regeneration_and_fb_sr_10_flammable() -> None:
    """FB-SR-09 (as the seed words it): no armour save, no regeneration; FB-SR-10:
    each flaming wound on a Flammable model counts twice."""
    flaming = odds(special_rules=["flaming_attacks"], target_regeneration=4)
    assert flaming == expected(3, hit=3, wound=4, armour=None)
    burnt = odds(special_rules=["flaming_attacks"], target_special_rules=["flammable"], attacks=2)
    assert burnt == expected(2, hit=3, wound=4, armour=None, flaming_flammable=True)


def test_fb_sr_11_poisoned_natural_six_wounds_without_armour() -> None:
    """FB-SR-11: a natural 6 to hit wounds without a roll and with no armour save."""
    got = odds(special_rules=["poisoned_attacks"], target_armour_save=4, target_toughness=6)
    assert got == expected(3, hit=3, wound=6, armour=4, poisoned=True)
    # against a «N» cell only the poisoned sixes can wound
    assert odds(special_rules=["poisoned_attacks"], strength=1, target_toughness=6, attacks=1) == {
        0: Fraction(5, 6),
        1: Fraction(1, 6),
    }


def test_fb_sr_12_regeneration_after_armour_and_ward() -> None:
    """FB-SR-12: a last save after armour and ward."""
    got = odds(target_ward_save=6, target_regeneration=4, attacks=2)
    assert got == expected(2, hit=3, wound=4, armour=5, ward=6, regen=4)


def test_fb_sr_12_regeneration_recovers_a_wound_when_idle() -> None:
    """FB-SR-12: a model idle for a whole turn rolls its regeneration to heal one wound."""
    dist = OddsDriver().distribution(recover_wound, (4,))
    assert dist[True] == Fraction(1, 2)


def test_fb_sr_13_killing_blow_slays_outright_only_a_ward_helps() -> None:
    """FB-SR-13: a 6 to wound kills a 5-wound model outright; no armour, no
    regeneration; only the ward save."""
    got = odds(
        special_rules=["killing_blow"],
        target_wounds=5,
        target_armour_save=3,
        target_ward_save=5,
        target_regeneration=4,
        attacks=2,
    )
    assert got == expected(
        2, hit=3, wound=4, armour=3, ward=5, regen=4, killing=True, target_wounds=5
    )
    assert max(got) == 10


def test_fb_psy_06_hatred_rerolls_misses_in_round_one_only() -> None:
    """FB-PSY-06: re-roll failed to-hit rolls in the first round of the combat."""
    assert odds(special_rules=["hatred"]) == expected(3, hit=3, wound=4, armour=5, reroll=True)
    assert odds(special_rules=["hatred"], round=2) == odds()
    assert odds(hates_target=True) == odds(special_rules=["hatred"])


def test_fb_sr_02_always_strikes_first_rerolls_with_higher_initiative() -> None:
    """FB-SR-02: with higher Initiative than the foe, re-roll failed to-hit rolls
    (every round, the catalogue's guess); not with equal Initiative, not with ASL too."""
    asf = ["always_strikes_first"]
    rerolled = expected(3, hit=3, wound=4, armour=5, reroll=True)
    assert odds(special_rules=asf, initiative=5, target_initiative=3, round=2) == rerolled
    assert odds(special_rules=asf, initiative=5, target_initiative=3, round=1) == rerolled
    assert odds(special_rules=asf, initiative=3, target_initiative=3) == odds()
    both = [*asf, "always_strikes_last"]
    assert odds(special_rules=both, initiative=5, target_initiative=3) == odds()


def test_fb_sr_06_ethereal_only_magical_attacks_harm_and_its_own_allow_no_armour() -> None:
    """FB-SR-06: non-magical attacks do an ethereal target no harm; magical ones do
    (FB-ABSENT-20); an ethereal attacker's blows allow no armour save."""
    assert odds(target_special_rules=["ethereal"]) == {0: Fraction(1)}
    magical = odds(target_special_rules=["ethereal"], special_rules=["magical_attacks"])
    assert magical == odds(special_rules=["magical_attacks"]) == odds()
    assert odds(special_rules=["ethereal"]) == expected(3, hit=3, wound=4, armour=None)


def test_fb_absent_18_weapons_change_strength_and_attacks() -> None:
    """FB-ABSENT-18: great weapon +2 S, halberd +1, lance +2 charging, flail +2 and
    morning star +1 in the first round, additional hand weapon +1 A."""
    assert odds(weapon="great_weapon") == expected(3, hit=3, wound=2, armour=None)
    assert odds(weapon="halberd") == expected(3, hit=3, wound=3, armour=6)
    assert odds(weapon="lance") == expected(3, hit=3, wound=2, armour=None)
    assert odds(weapon="lance", charging=False) == odds()
    assert odds(weapon="flail", round=2) == odds()
    assert odds(weapon="morning_star") == expected(3, hit=3, wound=3, armour=6)
    assert odds(weapon="additional_hand_weapon") == expected(4, hit=3, wound=4, armour=5)


def test_a_big_pool_is_exact() -> None:
    """Thirty blows: the pools' closed forms and memoised stages keep the odds exact."""
    got = odds(attacks=30, target_ward_save=5, target_regeneration=5)
    assert got == expected(30, hit=3, wound=4, armour=5, ward=5, regen=5)
    both = odds(attacks=6, special_rules=["poisoned_attacks", "killing_blow"], target_ward_save=5)
    assert both == expected(6, hit=3, wound=4, armour=5, ward=5, poisoned=True, killing=True)


def test_the_seed_table_magic_of_at_least() -> None:
    assert at_least(7) == 0 and at_least(1) == 1


def test_resolve_rolls_pools_in_table_order() -> None:
    """Rolls to hit, then to wound, then saves, as pools (design.md)."""
    result = api.resolve("fantasy.attacks", BASE, dice=[3, 4, 6, 1, 5, 5, 2, 6])
    reasons = [roll["reason"] for roll in result["rolls"]]
    assert len(reasons) == 3
    assert result["outcome"] == {"wounds": 1}


@pytest.mark.parametrize("bad", [{"special_rules": ["laser"]}, {"target_armour_save": 7}])
def test_bad_input_is_one_line(bad: dict[str, Any]) -> None:
    from kubik.core.errors import KubikError

    with pytest.raises((KubikError, ValueError)):
        api.odds("fantasy.attacks", {**BASE, **bad})


def test_blows_directly_are_the_same_procedure() -> None:
    blows = Blows(1, 4, 3, 3, 3, target_armour_save=5)
    dist = OddsDriver().distribution(attacks, (blows,))
    assert dist[AttacksOutcome(1)] == Fraction(2, 3) * Fraction(1, 2) * Fraction(2, 3)
