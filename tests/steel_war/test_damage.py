"""Steel War casualties (SW-DMG-01..11): potential casualties, armour tests, allocation,
commanders, flamethrowers, robots and man-sized weapons."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import product
from typing import Any

import numpy as np
import pytest

from kubik.core.errors import InputError
from kubik.engine import OddsDriver, PolicyChooser, TableSession, play
from kubik.engine.dice import D4, D6, D8, D10, D12
from kubik.engine.registry import get
from kubik.rulesets.steel_war.damage import (
    HitEffect,
    Injury,
    InjuryReducer,
    NewCommander,
    TargetKind,
    armour_die,
    armour_test,
    counts_for_morale,
    explodes_when_hit,
    explosion_radius,
    hit_armour,
    hit_effect,
    injury,
    kind_after_hit,
    new_leadership,
    potential_casualties,
    replace_commander,
    specialist_replaceable,
)
from kubik.rulesets.steel_war.damage_allocation import allocate_hits, allocation_die, model_position
from kubik.rulesets.steel_war.damage_models import ModelHit, TargetModel, explosion_hits

ARMOUR = get("steel_war.armour_test")


# --- SW-DMG-01 -----------------------------------------------------------------------------


def test_SW_DMG_01_worked_examples() -> None:
    """(a) d6 + d10 → 16 / 10 = 1.6 → 2; (b) the partisans: 6 + 8 = 14 / 10 = 1.4 → 1."""
    assert potential_casualties((D6, D10), D10) == 2
    assert potential_casualties((D6, D8), D10) == 1


def test_SW_DMG_01_halves_round_up_not_to_even() -> None:
    """«по правилам арифметики»: 2.5 → 3 (Python's banker's round() would give 2)."""
    assert potential_casualties((D4, D6), D4) == 3
    assert round(Fraction(10, 4)) == 2  # the reading we do not use
    assert potential_casualties((D4, D8, D6), D12) == 2  # 18 / 12 = 1.5 → 2
    assert potential_casualties((D4, D4), D12) == 1  # the smallest: 8 / 12 → 1


# --- SW-DMG-03 / SW-DMG-08: the armour test ------------------------------------------------


def test_SW_DMG_03_commander_wounded_example_through_the_table_driver() -> None:
    """LMG power d10 rolls 5, armour d4 rolls 4 → 5 > 4, 5 < 12 → wounded."""
    inp = ARMOUR.input_model.model_validate({"armour": "d4", "power": "d10"})
    s = TableSession(ARMOUR.function, (inp,))
    s.supply([5, 4])
    assert s.result is not None and s.result.outcome.injury is Injury.WOUNDED
    (roll,) = s.result.rolls
    assert roll.dice == (D10, D4) and roll.values == (5, 4)


def test_SW_DMG_03_thresholds_and_the_three_times_reading() -> None:
    assert injury(4, 4) is Injury.UNHARMED  # equal: stopped by the helmet
    assert injury(5, 4) is Injury.WOUNDED
    assert injury(11, 4) is Injury.WOUNDED
    assert injury(3, 1) is Injury.KILLED
    # «втрое больше» read as ≥ 3×: exactly three times kills; the strict reading would wound
    assert injury(12, 4) is Injury.KILLED
    assert not 12 > 3 * 4


def brute_armour(armour: int, power: int, flame: bool) -> dict[Injury, Fraction]:
    counts: Counter[Injury] = Counter()
    for p, a in product(range(1, power + 1), range(1, armour + 1)):
        if p >= 3 * a:
            counts[Injury.KILLED] += 1
        elif p > a or flame:
            counts[Injury.WOUNDED] += 1
        else:
            counts[Injury.UNHARMED] += 1
    return {k: Fraction(v, armour * power) for k, v in counts.items()}


@pytest.mark.parametrize(
    ("armour", "power", "flame"),
    [(4, 10, False), (10, 6, False), (4, 12, True), (8, 8, False), (6, 12, True), (12, 4, False)],
)
def test_SW_DMG_03_SW_DMG_08_armour_test_odds_match_brute_force(
    armour: int, power: int, flame: bool
) -> None:
    inp = ARMOUR.input_model.model_validate(
        {"armour": f"d{armour}", "power": f"d{power}", "flame": flame}
    )
    dist = OddsDriver().distribution(ARMOUR.function, (inp,))
    assert {o.injury: p for o, p in dist.items()} == brute_armour(armour, power, flame)


def test_SW_DMG_08_flamethrower_alone_never_leaves_anyone_unharmed() -> None:
    fire = get("steel_war.fire")
    data = {
        "quality": "d6",
        "weapons": [{"weapon": "flamethrower_keno"}],
        "distance": 3,
        "target_models": 2,
    }
    dist = OddsDriver().distribution(fire.function, (fire.input_model.model_validate(data),))
    assert any(o.effect.value == "hits" for o in dist)
    for outcome in dist:
        if outcome.effect.value == "hits":
            assert outcome.wounded + outcome.killed == outcome.hits
    assert injury(1, 4, flame=True) is Injury.WOUNDED
    assert injury(12, 4, flame=True) is Injury.KILLED


def test_SW_DMG_03_injury_reducer_batch_agrees() -> None:
    rows = np.array(list(product(range(1, 13), range(1, 13))), dtype=np.int64)
    for flame in (False, True):
        reducer = InjuryReducer(flame)
        batch = [reducer.decode(int(c)) for c in reducer.batch(rows)]
        assert batch == [reducer(tuple(r)) for r in rows.tolist()]


def test_SW_DMG_03_armour_test_plays_with_a_seeded_rng() -> None:
    seen = {play(armour_test, (D4, D12), random.Random(seed)).outcome for seed in range(60)}
    assert seen == {Injury.UNHARMED, Injury.WOUNDED, Injury.KILLED}


# --- SW-DMG-04: armour table and flak vests ------------------------------------------------


def test_SW_DMG_04_armour_table_and_flak_vests() -> None:
    assert armour_die(TargetKind.MAN) == D4
    assert armour_die(TargetKind.CAVALRY) == D4
    assert armour_die(TargetKind.FULL_INFANTRY_ARMOUR) == D6
    assert armour_die(TargetKind.ROBOT) == D8
    assert armour_die(TargetKind.MAN_SIZED_WEAPON) == D8
    assert armour_die(TargetKind.BRONESCAF) == D10
    assert hit_armour(D4, flak_vest=True, fragmentation=True) == D6
    assert hit_armour(D4, flak_vest=True, fragmentation=False) == D4  # bullets, flame
    assert hit_armour(D4, flak_vest=False, fragmentation=True) == D4
    assert hit_armour(D10, flak_vest=True, fragmentation=True) == D10


# --- SW-DMG-02 / SW-FIRE-14: allocating hits -----------------------------------------------

PARTISANS = tuple(f"partisan{i}" for i in range(1, 11))


def test_SW_DMG_02_d10_counts_from_the_left_and_lands_on_the_commander() -> None:
    """Seed: roll a d10 for ten partisans and count from the left — it is the commander."""
    squad = (*PARTISANS[:3], "commander", *PARTISANS[4:])
    s = TableSession(allocate_hits, (1, squad))
    s.supply([])
    assert s.pending is not None and s.pending.dice == (D10,)
    s.supply([4])
    assert s.result is not None and s.result.outcome == ("commander",)


def test_SW_DMG_02_exposed_models_are_hit_first_and_no_model_twice() -> None:
    s = TableSession(allocate_hits, (3, ("a", "b"), ("c", "d", "e", "f")))
    s.supply([3, 4])  # d4 for two exposed: 3 → b; a is the last exposed (no roll); d4 → f
    assert s.result is not None and s.result.outcome == ("b", "a", "f")
    dist = OddsDriver().distribution(allocate_hits, (2, ("a", "b"), ("c", "d")))
    assert dict(dist) == {("a", "b"): Fraction(1, 2), ("b", "a"): Fraction(1, 2)}


def test_SW_DMG_02_excess_hits_are_lost_and_odd_sizes_reroll() -> None:
    s = TableSession(allocate_hits, (3, ("a",), ("b",)))
    s.supply([])
    assert s.result is not None and s.result.outcome == ("a", "b")
    assert allocation_die(7) == D8 and model_position(8, D8, 7) is None
    s = TableSession(allocate_hits, (1, tuple("abcdefg")))
    s.supply([8, 8, 7])  # two re-rolls, then the seventh model
    assert s.result is not None and s.result.outcome == ("g",)
    assert allocation_die(2) == D4
    assert [model_position(v, D4, 2) for v in range(1, 5)] == [1, 1, 2, 2]
    with pytest.raises(InputError, match=r"^models: at most 20"):
        allocation_die(21)


def test_SW_FIRE_14_sniper_owner_chooses_any_model() -> None:
    """A lone sniper rifle: no random allocation; the owner picks (the machine-gunner in cover)."""

    def pick_gunner(request: Any) -> Any:
        return "gunner" if "gunner" in request.options else request.default

    s = TableSession(
        allocate_hits, (1, ("a", "b"), ("gunner",), True), chooser=PolicyChooser(pick_gunner)
    )
    s.supply([])
    assert s.result is not None and s.result.outcome == ("gunner",)
    assert s.result.rolls == []


# --- SW-DMG-05/06: specialists and commanders ----------------------------------------------


def test_SW_DMG_05_specialists_are_not_replaced() -> None:
    assert not specialist_replaceable(is_commander=False)
    assert specialist_replaceable(is_commander=True)


def test_SW_DMG_06_new_commander_by_d6_clamped() -> None:
    assert [new_leadership(2, r) for r in range(1, 7)] == [3, 3, 3, 2, 2, 1]
    assert new_leadership(3, 1) == 3  # cannot be worse than 3
    assert new_leadership(1, 6) == 1  # cannot be better than 1
    s = TableSession(replace_commander, (1,))
    s.supply([2])
    assert s.result is not None and s.result.outcome == NewCommander(2)
    assert s.result.rolls[0].dice == (D6,)
    dist = OddsDriver().distribution(replace_commander, (2,))
    assert dict(dist) == {
        NewCommander(3): Fraction(1, 2),
        NewCommander(2): Fraction(1, 3),
        NewCommander(1): Fraction(1, 6),
    }


# --- SW-DMG-07/09/10/11 ----------------------------------------------------------------------


def test_SW_DMG_07_man_sized_weapons() -> None:
    """An HMG crew of two plus the gun counts as three; the gun has armour d8 and
    'wounded' means destroyed, which is not a casualty for morale."""
    assert armour_die(TargetKind.MAN_SIZED_WEAPON) == D8
    assert hit_effect(TargetKind.MAN_SIZED_WEAPON, Injury.WOUNDED) is HitEffect.DESTROYED
    assert not counts_for_morale(TargetKind.MAN_SIZED_WEAPON, HitEffect.DESTROYED)


def test_SW_DMG_09_keno_backpack_explodes() -> None:
    """«Огнемётчик сразу гибнет, все бойцы в радиусе 4 дюймов от него получают попадание из
    огнемёта, и должны тоже пройти тест «ранен или убит»» (automatically wounded, SW-DMG-08)."""
    assert explodes_when_hit("flamethrower_keno") and not explodes_when_hit("flamethrower_lianra")
    assert explosion_radius() == 4
    two = (TargetModel("a"), TargetModel("b"))
    s = TableSession(explosion_hits, ("flamethrower_keno", two))
    s.supply([12, 4, 2, 3])  # power d12 vs armour d4: 12 ≥ 3×4 killed; 2 ≤ 3 still wounded
    assert s.result is not None
    assert [(h.model, h.injury) for h in s.result.outcome] == [
        ("a", Injury.KILLED),
        ("b", Injury.WOUNDED),
    ]
    dist = OddsDriver().distribution(explosion_hits, ("flamethrower_keno", (TargetModel("a"),)))
    killed = Fraction(sum(1 for p, a in product(range(1, 13), range(1, 5)) if p >= 3 * a), 48)
    dead = (ModelHit("a", HitEffect.REMOVED, Injury.KILLED, None, True),)
    hurt = (ModelHit("a", HitEffect.UNVERIFIED_CASUALTY, Injury.WOUNDED, TargetKind.MAN, True),)
    assert dict(dist) == {dead: killed, hurt: 1 - killed}
    with pytest.raises(InputError, match="bearer_weapon"):
        next(explosion_hits("flamethrower_lianra", two))


def test_SW_DMG_10_robots() -> None:
    assert hit_effect(TargetKind.ROBOT, Injury.WOUNDED) is HitEffect.IMMOBILISED
    damaged = kind_after_hit(TargetKind.ROBOT, HitEffect.IMMOBILISED)
    assert damaged is TargetKind.DAMAGED_ROBOT
    assert hit_effect(damaged, Injury.WOUNDED) is HitEffect.DESTROYED
    assert hit_effect(TargetKind.ROBOT, Injury.KILLED) is HitEffect.DESTROYED
    assert hit_effect(TargetKind.ROBOT, Injury.UNHARMED) is HitEffect.NONE
    assert armour_die(damaged) == D8
    assert kind_after_hit(damaged, HitEffect.DESTROYED) is None


def test_SW_DMG_11_wounded_men_are_unverified_casualties() -> None:
    assert hit_effect(TargetKind.MAN, Injury.WOUNDED) is HitEffect.UNVERIFIED_CASUALTY
    assert hit_effect(TargetKind.MAN, Injury.KILLED) is HitEffect.REMOVED
    assert counts_for_morale(TargetKind.MAN, HitEffect.UNVERIFIED_CASUALTY)
    # a bronescaf loses the suit, a cavalryman the horse: both become ordinary men
    assert hit_effect(TargetKind.BRONESCAF, Injury.WOUNDED) is HitEffect.LOSES_SUIT
    assert kind_after_hit(TargetKind.BRONESCAF, HitEffect.LOSES_SUIT) is TargetKind.MAN
    assert hit_effect(TargetKind.CAVALRY, Injury.WOUNDED) is HitEffect.LOSES_HORSE
    assert not counts_for_morale(TargetKind.BRONESCAF, HitEffect.LOSES_SUIT)
