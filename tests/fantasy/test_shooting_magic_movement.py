"""Shooting, magic, movement and the command group's rules (FB-SHOOT-*, FB-MAG-*,
FB-MOV-*, FB-CMD-02/05, FB-SR-01/15/16, FB-ABSENT-02/10/12/14/15/16)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

import pytest

import kubik.api as api
from kubik.core.errors import InputError
from kubik.engine import OddsDriver
from kubik.engine.registry import get
from kubik.rulesets.fantasy.charts import ShotNeed
from kubik.rulesets.fantasy.command import (
    Breath,
    breath_hits,
    champion_removed_out_of_order,
    look_out_sir,
    may_breathe,
    may_look_out_sir,
)
from kubik.rulesets.fantasy.magic import generate_spells, magic_resistance, resistance_chance
from kubik.rulesets.fantasy.movement import (
    Ground,
    Rout,
    RoutOutcome,
    flee_reaction,
    flees_on_ground,
    ground_for,
    may_deploy_scout,
    may_end_move_in,
    may_join,
    may_march,
    move_allowance,
    rout,
    vanguard_inches,
)
from kubik.rulesets.fantasy.shooting import (
    Volley,
    VolleyOutcome,
    may_stand_and_shoot,
    rider_takes,
    shooters,
    shot_need,
    sniper_may_pick,
)
from tests.fantasy.brute import at_least, convolve, one_attack

F = frozenset


def shoot(**fields: Any) -> dict[VolleyOutcome, Fraction]:
    spec = get("fantasy.shooting")
    base = {"ranks": [1], "ballistic_skill": 3, "strength": 3, "target_toughness": 3}
    inp = spec.input_model.model_validate({**base, **fields})
    return dict(OddsDriver().distribution(spec.function, (inp,)))


def wounds(dist: dict[VolleyOutcome, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for o, p in dist.items():
        out[o.wounds] = out.get(o.wounds, Fraction(0)) + p
    return out


def test_fb_absent_02_shooting_matches_brute_force() -> None:
    """FB-ABSENT-02: BS3 hits on 4+, then S3 vs T3 4+, 6+ armour."""
    got = wounds(shoot(ranks=[3], target_armour_save=6))
    assert got == convolve(one_attack(hit=4, wound=4, armour=6), 3)


def test_fb_absent_02_seven_plus_is_a_six_then_a_second_roll() -> None:
    """FB-ABSENT-02: BS1 at long range needs 7+: a 6, then 4+."""
    got = wounds(shoot(ballistic_skill=1, long_range=True, strength=10, target_toughness=1))
    hit = Fraction(1, 6) * Fraction(1, 2)
    assert got[1] == hit * Fraction(5, 6)


def test_fb_shoot_01_quick_to_fire_and_fb_mov_01_fire_on_the_march() -> None:
    """FB-SHOOT-01: no -1 for moving; FB-MOV-01: mounted light cavalry neither,
    unless a character joined it."""
    moved = Volley(1, 3, 3, 3, moved=True)
    assert shot_need(moved)[0] == ShotNeed(5)
    assert shot_need(Volley(1, 3, 3, 3, moved=True, rules=F({"quick_to_fire"})))[0] == ShotNeed(4)
    cav = Volley(1, 3, 3, 3, moved=True, mounted=True, rules=F({"light_cavalry"}))
    assert shot_need(cav)[0] == ShotNeed(4)
    joined = Volley(
        1, 3, 3, 3, moved=True, mounted=True, character_joined=True, rules=F({"light_cavalry"})
    )
    assert shot_need(joined)[0] == ShotNeed(5)


def test_fb_shoot_02_slow_to_fire_and_fb_absent_10_stand_and_shoot() -> None:
    """FB-SHOOT-02: no Stand and Shoot; FB-ABSENT-10: it needs missiles and is at -1."""
    assert not may_stand_and_shoot(F({"slow_to_fire"}), True).allowed
    assert not may_stand_and_shoot(F(), False).allowed
    assert may_stand_and_shoot(F(), True).allowed
    assert shot_need(Volley(1, 3, 3, 3, stand_and_shoot=True))[0] == ShotNeed(5)


def test_fb_absent_10_flee_reaction_runs_2d6() -> None:
    """FB-ABSENT-10: a fleeing unit runs 2D6 inches."""
    dist = OddsDriver().distribution(flee_reaction, ())
    assert dist[7] == Fraction(6, 36)


def test_fb_shoot_03_sniper_picks_and_ignores_the_lone_target_penalty() -> None:
    """FB-SHOOT-03: no -1 at a single target; he may pick the model (FB-CMD-05)."""
    assert shot_need(Volley(1, 3, 3, 3, single_target=True))[0] == ShotNeed(5)
    assert shot_need(Volley(1, 3, 3, 3, single_target=True, rules=F({"sniper"})))[0] == ShotNeed(4)
    assert sniper_may_pick(F({"sniper"})).allowed and not sniper_may_pick(F()).allowed
    assert champion_removed_out_of_order(failed_look_out_sir=False, sniper=True).allowed


def test_fb_shoot_04_volley_fire_half_the_rear_ranks_at_minus_one() -> None:
    """FB-SHOOT-04: two ranks normally, half of the rest (rounded down) at -1."""
    assert shooters((5, 5, 5, 4), volley=True) == (10, 4)
    assert shooters((5, 5, 5, 4), volley=False) == (10, 0)
    got = wounds(
        shoot(ranks=[0, 0, 3], special_rules=["volley_fire"], strength=10, target_toughness=1)
    )
    assert got[1] == Fraction(1, 3) * Fraction(5, 6)  # one overhead shot on 5+


def test_fb_shoot_05_multiple_shots_each_at_minus_one() -> None:
    """FB-SHOOT-05: x2 means two shots, each at an extra -1."""
    got = wounds(shoot(multiple=2, target_armour_save=None))
    assert got == convolve(one_attack(hit=5, wound=4, armour=None), 2)


def test_fb_shoot_06_hits_on_a_ridden_monster_split_1_to_4_and_5_6() -> None:
    """FB-SHOOT-06: a d6 per hit, 1-4 the monster, 5-6 the rider; FB-SR-16: the rider's
    excess wounds are lost."""
    dist = shoot(
        ballistic_skill=5, strength=10, target_toughness=1, ridden_monster=True, rider_toughness=1
    )
    hit = Fraction(5, 6)
    wound = Fraction(5, 6)
    assert dist[VolleyOutcome(0, 1)] == hit * Fraction(1, 3) * wound
    assert dist[VolleyOutcome(1, 0)] == hit * Fraction(2, 3) * wound
    assert rider_takes(3, 1) == (1, 2)


def test_fb_mag_01_magic_resistance_d20_table() -> None:
    """FB-MAG-01: the seed's d20 table: 25 %, 50 %, 75 %, 100 %."""
    for level, chance in ((1, Fraction(1, 4)), (2, Fraction(1, 2)), (3, Fraction(3, 4))):
        dist = OddsDriver().distribution(magic_resistance, (level,))
        assert dist[True] == chance == resistance_chance(level)
        assert dist[True] == Fraction(sum(1 for d in range(1, 21) if d <= 5 * level), 20)
    assert dict(OddsDriver().distribution(magic_resistance, (4,))) == {True: 1}


def test_fb_mag_02_loremaster_knows_the_whole_lore_fb_absent_16() -> None:
    """FB-MAG-02: a Loremaster rolls nothing; FB-ABSENT-16: others roll a d6 each."""
    assert dict(OddsDriver().distribution(generate_spells, (2, True))) == {(1, 2, 3, 4, 5, 6): 1}
    two = OddsDriver().distribution(generate_spells, (2, False))
    assert sum(two.values()) == 1 and all(len(s) == 2 for s in two)
    # (1,2), (2,1), and (1,1) or (2,2) where the duplicate takes the lowest unknown spell
    assert two[(1, 2)] == Fraction(4, 36)


def test_fb_absent_14_march_and_fb_mov_02_03_04_flight() -> None:
    """FB-ABSENT-14: a march is 2xM, with a test near the enemy; FB-MOV-02: 10"/20" in
    the air; FB-MOV-03: hovering never marches; FB-MOV-04: aquatic never marches on land."""
    assert move_allowance(5, F(), march=True)[0] == 10
    assert move_allowance(5, F({"fly"}), march=False, flying=True)[0] == 10
    assert move_allowance(5, F({"fly"}), march=True, flying=True)[0] == 20
    assert move_allowance(5, F({"hover"}), march=True, flying=True)[0] == 10
    assert move_allowance(5, F({"aquatic"}), march=True)[0] == 5
    assert move_allowance(5, F({"aquatic"}), march=True, on_land=False)[0] == 10
    assert may_march(6).test == "march" and may_march(9).allowed


def test_fb_mov_02_flyers_flee_on_the_ground_and_fb_absent_15_swift_3d6() -> None:
    """FB-MOV-02: flee and pursue on the ground; FB-ABSENT-15/08: 3D6 for swift units,
    caught when the pursuit is at least the flight."""
    assert flees_on_ground(F({"fly"})) == ("FB-MOV-02",)
    dist = OddsDriver().distribution(rout, (Rout(),))
    caught = sum((p for o, p in dist.items() if o.caught), Fraction(0))
    pairs = list(product(range(2, 13), repeat=2))
    weights = {t: Fraction(6 - abs(t - 7), 36) for t in range(2, 13)}
    assert caught == sum((weights[f] * weights[q] for f, q in pairs if q >= f), Fraction(0))
    assert OddsDriver().distribution(rout, (Rout(fleer_swift=True, pursue=False),))[
        RoutOutcome(18, 0, False)
    ] == Fraction(1, 216)


def test_fb_sr_06_ethereal_moves_over_everything_but_not_into_it() -> None:
    """FB-SR-06: all terrain open, never ending in impassable; no mortal character joins."""
    assert ground_for(F({"ethereal"}), Ground.IMPASSABLE)[0] is Ground.OPEN
    assert not may_end_move_in(F({"ethereal"}), Ground.IMPASSABLE).allowed
    assert (
        not may_join(F(), F({"ethereal"})).allowed
        and may_join(F({"ethereal"}), F({"ethereal"})).allowed
    )
    assert ground_for(F({"aquatic"}), Ground.WATER)[0] is Ground.OPEN  # FB-MOV-04


def test_fb_mov_01_vanguard_and_fb_mov_05_scouts() -> None:
    """FB-MOV-01: a 12" vanguard move, not with a character; FB-MOV-05: scouts
    anywhere but within 12" of the enemy."""
    assert vanguard_inches(F({"light_cavalry"}), False)[0] == 12
    assert vanguard_inches(F({"light_cavalry"}), True)[0] == 0
    assert may_deploy_scout(F({"scouts"}), 13).allowed
    assert not may_deploy_scout(F({"scouts"}), 11).allowed
    assert not may_deploy_scout(F(), 20).allowed


def test_fb_cmd_02_look_out_sir() -> None:
    """FB-CMD-02: under a template, with more than 5 infantry: a 1 and the champion is hit."""
    assert may_look_out_sir(template=True, champion=True, infantry_models=6)
    assert not may_look_out_sir(template=True, champion=True, infantry_models=5)
    assert not may_look_out_sir(template=False, champion=True, infantry_models=10)
    assert OddsDriver().distribution(look_out_sir, ())[True] == Fraction(5, 6)
    assert champion_removed_out_of_order(failed_look_out_sir=True, sniper=False).allowed
    assert not champion_removed_out_of_order(failed_look_out_sir=False, sniper=False).allowed


def test_fb_sr_01_breath_template_and_fb_absent_12() -> None:
    """FB-SR-01/FB-ABSENT-12: fully covered hit, partly covered on 4+; twice a game,
    once a turn."""
    dist = OddsDriver().distribution(breath_hits, (Breath(fully=3, partly=2),))
    assert dist[3] == Fraction(1, 4) and dist[5] == Fraction(1, 4)
    assert at_least(4) == Fraction(1, 2)
    assert not may_breathe(0, False).allowed
    assert not may_breathe(1, True).allowed
    assert may_breathe(2, False).allowed


def test_fb_unit_02_lost_weapons_are_fb_absent_18() -> None:
    """FB-UNIT-02: the seed's weapons list is lost; the weapons played are FB-ABSENT-18
    (their effects: test_attacks)."""
    from kubik.rulesets.fantasy.charts import data

    assert set(data()["weapons"]) >= {"great_weapon", "spear", "halberd", "lance"}
    assert "default" in data()["weapons"]["provenance"]


def test_a_rank_of_more_models_than_a_unit_holds_is_one_input_error() -> None:
    """A rank is 0..40 models (the input said so, and did not check it: a rank of
    406549349526 models made a pool of that many dice and ran out of memory)."""
    shots = {"ballistic_skill": 3, "strength": 3, "target_toughness": 3}
    with pytest.raises(
        InputError, match=r"^input\.ranks\[0\]: 406549349526 is too large; at most 40"
    ) as error:
        api.odds("fantasy.shooting", {"ranks": [406_549_349_526], **shots})
    assert "\n" not in str(error.value)
    assert api.odds("fantasy.shooting", {"ranks": [40], **shots})["exact"]
