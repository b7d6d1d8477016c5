"""Shooting, hiding, guard, psychology, manoeuvres and injuries: one test per rule, with
the seeds' numbers where they give any, and exact odds against brute force for the
shot."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from kubik.engine import OddsDriver
from kubik.rulesets.apocalypse.checks import mobility_test, spirit_test
from kubik.rulesets.apocalypse.core import Edition
from kubik.rulesets.apocalypse.guard import GuardEnd, Sentry, guard_ends, may_guard, may_guard_fire
from kubik.rulesets.apocalypse.hiding import (
    Hider,
    ambush_panic_applies,
    auto_detected,
    detection_radius,
    detection_roll,
    may_hide,
    may_target,
    stays_unnoticed_possible,
    witnesses,
)
from kubik.rulesets.apocalypse.injuries import Harm, Hits, Injury, save_needed, take_hits
from kubik.rulesets.apocalypse.manoeuvres import (
    Climb,
    LeapOutcome,
    climb,
    falling,
    giant_leap_apex,
    jump_down,
    jump_gap,
    may_climb,
    may_jump_down,
    may_leap_attack,
)
from kubik.rulesets.apocalypse.melee import Fighter
from kubik.rulesets.apocalypse.movement import Charger, may_charge
from kubik.rulesets.apocalypse.psychology import (
    Fright,
    Stupor,
    all_alone,
    fear_test,
    flee_distance,
    fright,
    ignores_psychology,
    may_rout_voluntarily,
    must_charge,
    must_test_rout,
    panic_test,
    rout_spirit,
    rout_test,
    spirit_for_test,
    stupidity,
    terror_test,
)
from kubik.rulesets.apocalypse.shooting import (
    Misfire,
    Shooter,
    Shot,
    ShotOutcome,
    WeaponKind,
    may_shoot,
    pre_emptive,
    shoot,
    take_cover_modifier,
    to_hit_modifier,
)
from tests.conftest import brute_force

from .helpers import events, resolve

# -- shooting ---------------------------------------------------------------------


def test_RA_ABSENT_04_and_RA_SHOOT_04_shot_against_duck() -> None:
    """Skill 3: a 4 (7) against the target's 2 + Подвижность 4 (6) hits; a tie misses."""
    assert resolve(shoot, (Shot(3, 4),), [4, 2])[0] == ShotOutcome(True)
    assert resolve(shoot, (Shot(3, 4),), [4, 3])[0] == ShotOutcome(False)


def test_RA_SHOOT_04_exact_odds_match_brute_force() -> None:
    shot = Shot(3, 4, modifier=-1)
    hits = sum(1 for a, b in itertools.product(range(1, 7), repeat=2) if a + 2 > b + 4)
    exact = OddsDriver().distribution(shoot, (shot,))
    assert sum(p for o, p in exact.items() if o.hit) == Fraction(hits, 36)


@pytest.mark.parametrize(
    "shot",
    [
        Shot(3, 4, modifier=-1),
        Shot(2, 2, modifier=1, kind=WeaponKind.THROWN),
        Shot(9, 1, in_range=False),
        Shot(4, 3, kind=WeaponKind.UNUSUAL),
    ],
)
def test_RA_SHOOT_04_whole_distribution_matches_brute_force(shot: Shot) -> None:
    """The duck die answers hit or miss; hits and misfires keep the odds of every face."""
    exact = OddsDriver().distribution(shoot, (shot,))
    assert dict(exact.items()) == brute_force(shoot, (shot,))


def test_RA_ABSENT_07_a_natural_one_calls_the_misfire_test() -> None:
    assert resolve(shoot, (Shot(3, 4),), [1, 6, 2])[0] == ShotOutcome(False, Misfire.JAMMED)
    assert resolve(shoot, (Shot(3, 4),), [1, 6, 3])[0] == ShotOutcome(False, Misfire.NONE)


def test_RA_SHOOT_01_grenades_fail_the_misfire_test_outright() -> None:
    outcome, log = resolve(shoot, (Shot(3, 4, kind=WeaponKind.THROWN),), [1, 6])
    assert outcome.misfire is Misfire.USED_UP
    assert "apocalypse.shot.used_up" in events(log)


def test_RA_SHOOT_02_out_of_range_still_rolls_for_a_jam() -> None:
    assert resolve(shoot, (Shot(9, 1, in_range=False),), [6])[0] == ShotOutcome(False)
    assert resolve(shoot, (Shot(9, 1, in_range=False),), [1, 1])[0].misfire is Misfire.JAMMED


def test_RA_SHOOT_03_unusual_weapons_use_the_ordinary_misfire() -> None:
    outcome, _log = resolve(shoot, (Shot(3, 4, kind=WeaponKind.UNUSUAL),), [1, 6, 1])
    assert outcome.misfire is Misfire.JAMMED


def test_RA_SHOOT_05_take_cover_gives_cover_or_small_target() -> None:
    assert take_cover_modifier(True) == -1
    assert take_cover_modifier(False) == -1
    assert may_shoot(Shooter(True, took_cover=True)).rules == ("RA-ABSENT-04", "RA-SHOOT-05")


def test_RA_SHOOT_06_pre_emptive_tie_goes_to_the_declared_shooter() -> None:
    assert resolve(pre_emptive, (4, 4), [3, 3])[0] is False
    assert resolve(pre_emptive, (4, 4), [3, 4])[0] is True


def test_RA_GUARD_04_fleeting_and_charging_stack() -> None:
    assert to_hit_modifier(fleeting=True) == -1
    assert to_hit_modifier(fleeting=True, charging_guard=True) == -2


# -- hiding and ambush ---------------------------------------------------------------


def test_RA_HIDE_06_seed_example_mobility_4() -> None:
    assert detection_radius(4, Edition.ACTIVATION) == 4
    assert detection_radius(4, Edition.TURN) == 2
    assert auto_detected(3.5, 4, Edition.ACTIVATION) and not auto_detected(3.5, 4, Edition.TURN)


def test_RA_HIDE_01_next_to_cover_and_fp_in_the_activation_edition() -> None:
    assert may_hide(Hider(Edition.TURN, next_to_cover=True)).allowed
    assert not may_hide(Hider(Edition.TURN, next_to_cover=False)).allowed
    assert not may_hide(Hider(Edition.ACTIVATION, next_to_cover=True, fp=0)).allowed
    assert may_hide(Hider(Edition.ACTIVATION, next_to_cover=True, fp=1)).allowed


def test_RA_HIDE_04_no_hiding_after_a_charge_or_a_run_in_the_turn_edition() -> None:
    assert not may_hide(Hider(Edition.TURN, True, charged=True)).allowed
    assert not may_hide(Hider(Edition.TURN, True, ran=True)).allowed
    assert may_hide(Hider(Edition.ACTIVATION, True, ran=True, fp=1)).allowed


def test_RA_HIDE_02_hidden_warriors_are_no_targets() -> None:
    assert not may_target(True).allowed
    assert not may_shoot(Shooter(True, target_hidden=True)).allowed


def test_RA_HIDE_03_and_RA_AMB_01_only_a_silent_kill_can_stay_hidden() -> None:
    assert stays_unnoticed_possible(True, True).allowed
    assert not stays_unnoticed_possible(False, True).allowed
    assert not stays_unnoticed_possible(True, False).allowed


def test_RA_HIDE_05_detection_roll_reaches_the_distance() -> None:
    assert resolve(detection_roll, (3, 7), [4])[0] is True
    assert resolve(detection_roll, (3, 7), [3])[0] is False


def test_RA_HIDE_07_found_this_turn_cannot_hide_again() -> None:
    verdict = may_hide(Hider(Edition.TURN, True, banned=True))
    assert not verdict.allowed and "RA-HIDE-07" in verdict.rules


def test_RA_AMB_02_one_passed_witness_is_enough() -> None:
    assert resolve(witnesses, ((3, 4),), [5, 4])[0] is True
    assert resolve(witnesses, ((3, 4),), [5, 6])[0] is False


def test_RA_AMB_03_panic_only_in_the_activation_edition() -> None:
    assert ambush_panic_applies(Edition.ACTIVATION) and not ambush_panic_applies(Edition.TURN)
    assert resolve(panic_test, (4,), [5])[0] is False


def test_RA_ABSENT_11_panic_test_on_the_leaders_spirit() -> None:
    assert resolve(panic_test, (4,), [4])[0] is True


# -- guard ---------------------------------------------------------------------------


def test_RA_GUARD_01_editions_differ_on_when() -> None:
    assert may_guard(Sentry(Edition.TURN)).allowed
    assert not may_guard(Sentry(Edition.TURN, moved_or_shot=True)).allowed
    assert may_guard(Sentry(Edition.ACTIVATION, start_of_turn=False)).allowed
    assert not may_guard(Sentry(Edition.ACTIVATION, on_foot=False)).allowed
    assert not may_guard(Sentry(Edition.TURN, in_combat=True)).allowed


def test_RA_GUARD_02_fire_at_a_seen_target() -> None:
    assert may_guard_fire(True, True, False).allowed
    assert not may_guard_fire(True, True, True).allowed
    assert not may_guard_fire(False, True, False).allowed


def test_RA_GUARD_03_leaving_guard() -> None:
    assert guard_ends(True, False, False, False) is GuardEnd.SHOT
    assert guard_ends(False, False, True, False) is GuardEnd.HARMED
    assert guard_ends(False, False, False, True) is GuardEnd.MOVED
    assert guard_ends(False, False, False, False) is None


# -- psychology ----------------------------------------------------------------------


def test_RA_PSY_01_spirit_test_at_most_spirit() -> None:
    assert resolve(spirit_test, (4,), [4])[0] is True
    assert resolve(spirit_test, (4,), [5])[0] is False


def test_RA_PSY_02_a_warband_of_12_tests_from_4_out() -> None:
    assert must_test_rout(4, 12) and not must_test_rout(3, 12)
    assert rout_spirit(None, (3, 5)) == 5
    assert resolve(rout_test, (4,), [5])[0] is False


def test_RA_PSY_03_voluntary_rout_only_when_a_test_is_due() -> None:
    assert may_rout_voluntarily(4, 12).allowed and not may_rout_voluntarily(3, 12).allowed


def test_RA_PSY_04_leader_within_three_paces() -> None:
    assert spirit_for_test(3, 5, 3.0, True) == 5
    assert spirit_for_test(3, 5, 3.1, True) == 3
    assert spirit_for_test(3, 5, 1.0, False) == 3


def test_RA_PSY_05_alone_against_two_or_more() -> None:
    assert all_alone(2, 0) and not all_alone(2, 1) and not all_alone(1, 0)


def test_RA_PSY_06_fleeing_runs_d6_paces() -> None:
    assert resolve(flee_distance, (), [5])[0] == 5
    assert not may_charge(Charger(8, 2, fleeing=True)).allowed


def test_RA_PSY_07_fear_test_before_charging_a_fear_causer() -> None:
    assert may_charge(Charger(8, 2, target_fright=Fright.FEAR)).needs_test
    assert resolve(fear_test, (3,), [4])[0] is False


def test_RA_PSY_08_terror_test() -> None:
    assert resolve(terror_test, (3,), [3])[0] is True


def test_RA_PSY_09_immunities() -> None:
    assert fright(Fright.FEAR, Fright.FEAR) is Fright.NONE
    assert fright(Fright.TERROR, Fright.FEAR) is Fright.FEAR
    assert fright(Fright.TERROR, Fright.TERROR) is Fright.NONE


def test_RA_PSY_10_frenzy_must_charge_and_ignores_psychology() -> None:
    assert must_charge(True, True, False) and not must_charge(True, True, True)
    assert ignores_psychology(True, True)
    assert Fighter(4, 3, 4, wounds=3, frenzied=True).current_toughness == 4


def test_RA_PSY_11_and_RA_PSY_12_stupidity_table() -> None:
    assert resolve(stupidity, (3, False), [3])[0] is Stupor.SENSIBLE
    assert resolve(stupidity, (3, False), [5, 2])[0] is Stupor.SHUFFLE
    assert resolve(stupidity, (3, False), [5, 4])[0] is Stupor.DROOL
    assert resolve(stupidity, (3, True), [5])[0] is Stupor.DROOL


# -- manoeuvres ----------------------------------------------------------------------


def test_RA_ABSENT_09_mobility_test() -> None:
    assert resolve(mobility_test, (4,), [4])[0] is True
    assert resolve(mobility_test, (4,), [5])[0] is False


def test_RA_MAN_01_climbing() -> None:
    assert may_climb(2, 4, True).allowed and not may_climb(2.5, 4, True).allowed
    assert resolve(climb, (4, True), [5])[0] is Climb.STUCK
    assert resolve(climb, (4, False), [5])[0] is Climb.FELL
    assert resolve(climb, (4, True), [2])[0] is Climb.CLIMBED


def test_RA_MAN_02_jumping_gaps() -> None:
    assert resolve(jump_gap, (1.0, 0.5, 4, 2.0), [])[0] == LeapOutcome(False, 2.0)
    assert resolve(jump_gap, (1.0, 3.0, 4, 2.0), [3])[0] == LeapOutcome(True)
    assert resolve(jump_gap, (1.0, 3.0, 4, 2.0), [5])[0] == LeapOutcome(False, 2.0)


def test_RA_MAN_03_a_test_per_full_pace() -> None:
    assert not may_jump_down(2.5).allowed
    assert resolve(jump_down, (2.0, 4), [2, 3])[0] == LeapOutcome(True)
    assert resolve(jump_down, (2.0, 4), [2, 5])[0] == LeapOutcome(False, 2.0)
    assert resolve(jump_down, (0.5, 4), [])[0] == LeapOutcome(True)


def test_RA_MAN_04_giant_leap_tests_from_the_highest_point() -> None:
    assert giant_leap_apex(2.0, 0.5) == 2.0
    assert resolve(jump_down, (giant_leap_apex(2.0, 0.0), 4, True), [1, 1])[0].landed


def test_RA_MAN_05_leap_attack_within_a_pace() -> None:
    assert may_leap_attack(1.0).allowed and not may_leap_attack(1.5).allowed


def test_RA_MAN_06_falling_d3_per_full_pace() -> None:
    assert resolve(falling, (2.5,), [3, 2])[0] == 5
    assert resolve(falling, (0.5,), [])[0] == 0


# -- saves and injuries --------------------------------------------------------------


def test_RA_ABSENT_05_saves() -> None:
    assert save_needed("light", False) == 6 and save_needed("heavy", True) == 4


def test_RA_ABSENT_06_and_RA_CC_16_hits_then_injury() -> None:
    # two hits, light armour (6+): one saved; Стойкость 1 left: the other takes him to 0
    outcome, _ = resolve(take_hits, (Hits(2, 6, 1),), [3, 6, 5])
    assert outcome == Harm(1, Injury.OUT_OF_ACTION)
    outcome, _ = resolve(take_hits, (Hits(1, 7, 3),), [])
    assert outcome == Harm(1, Injury.STANDING)


def test_RA_CC_17_knocked_down_and_unsaved_is_out() -> None:
    outcome, _ = resolve(take_hits, (Hits(1, 6, 3, knocked_down=True),), [2])
    assert outcome.injury is Injury.OUT_OF_ACTION


def test_RA_CC_17_every_blow_on_a_man_down_still_meets_his_armour() -> None:
    # seed 003: «Если любая из атак пробивает по сбитому с ног воину, и он не проходит
    # тест на защиту доспехами, он автоматически погибает»: each blow gets its save, and
    # only one he fails kills him; blows his armour turns do nothing
    outcome, log = resolve(take_hits, (Hits(2, 5, 3, knocked_down=True),), [5, 6])
    assert outcome == Harm(0, Injury.STANDING)
    assert "RA-ABSENT-05" in {r for e in log for r in e.rules}
    outcome, _ = resolve(take_hits, (Hits(2, 5, 3, knocked_down=True),), [5, 4])
    assert outcome == Harm(1, Injury.OUT_OF_ACTION)


@pytest.mark.parametrize("toughness", [1, 2])
def test_RA_CC_16_exact_odds_sum_to_one(toughness: int) -> None:
    exact = OddsDriver().distribution(take_hits, (Hits(2, 5, toughness),))
    assert sum(p for _, p in exact.items()) == 1
