"""Steel War shooting (SW-FIRE-01..15): the seed's worked examples, plain functions and exact odds.

Exact odds of ``steel_war.fire`` are checked against an enumeration written here
from the rules' text with plain itertools (no engine, no kubik rule function).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product
from math import floor
from typing import Any

import numpy as np
import pytest
from pydantic import ValidationError

from kubik.core.errors import InputError
from kubik.engine import OddsDriver, TableSession
from kubik.engine.dice import D4, D6, D8, D10, D12, Die
from kubik.engine.registry import get
from kubik.rulesets.steel_war.fire import (
    BeatRange,
    Cover,
    Effect,
    FireOutcome,
    TopValues,
    base_range_die,
    compose_group,
    effect_of,
    firing_weapons,
    in_range,
    range_die,
    range_zone,
    rate_die,
)
from kubik.rulesets.steel_war.fire_weapons import RangeLimit, weapon

FIRE = get("steel_war.fire")

PARTISANS: dict[str, Any] = {
    "quality": "d6",
    "weapons": [{"weapon": "lmg", "count": 1}],
    "distance": 10,
    "cover": "light",
    "prone": True,
    "armour": "d4",
    "target_models": 10,
}


def fire_input(**fields: Any) -> Any:
    return FIRE.input_model.model_validate(fields)


def session(data: dict[str, Any], dice: list[int]) -> TableSession:
    s = TableSession(FIRE.function, (FIRE.input_model.model_validate(data),))
    s.supply(dice)
    return s


def pending_dice(s: TableSession) -> tuple[Die, ...]:
    assert s.pending is not None, "the session should be waiting for dice"
    return s.pending.dice


def group_of(quality: Die, *weapons: tuple[str, int], distance: float) -> Any:
    listed = [(weapon(w), n) for w, n in weapons]
    return compose_group(quality, firing_weapons(quality, listed, distance))


# --- brute force written from the rules' text, independent of the engine -----------------


def brute_fire(
    pool: tuple[int, ...],
    range_faces: int,
    power: int,
    armour: int,
    models: int,
    flame: bool = False,
) -> dict[tuple[str, int, int, int], Fraction]:
    """Every ordered sequence of faces: pool, range die, then (power, armour) per hit."""
    effects: Counter[str] = Counter()
    for values in product(*(range(1, f + 1) for f in pool)):
        for target in range(1, range_faces + 1):
            beaten = sum(1 for v in values if v > target)
            effects["none" if beaten == 0 else "suppressed" if beaten == 1 else "hits"] += 1
    total = sum(effects.values())
    out: dict[tuple[str, int, int, int], Fraction] = {}
    for name in ("none", "suppressed"):
        if effects[name]:
            out[(name, 0, 0, 0)] = Fraction(effects[name], total)
    if not effects["hits"]:
        return out
    hits = min(floor(Fraction(sum(pool), range_faces) + Fraction(1, 2)), models)
    one_hit = list(product(range(1, power + 1), range(1, armour + 1)))
    casualties: Counter[tuple[int, int]] = Counter()
    for rolls in product(one_hit, repeat=hits):
        killed = sum(1 for p, a in rolls if p >= 3 * a)
        wounded = sum(1 for p, a in rolls if p < 3 * a and (p > a or flame))
        casualties[(wounded, killed)] += 1
    p_hits = Fraction(effects["hits"], total)
    n_rolls = len(one_hit) ** hits
    for (wounded, killed), count in casualties.items():
        out[("hits", hits, wounded, killed)] = p_hits * Fraction(count, n_rolls)
    return out


def kubik_fire(data: dict[str, Any]) -> dict[tuple[str, int, int, int], Fraction]:
    dist = OddsDriver().distribution(FIRE.function, (FIRE.input_model.model_validate(data),))
    assert sum(dist.values()) == 1
    return {(o.effect.value, o.hits, o.wounded, o.killed): p for o, p in dist.items()}


# --- SW-FIRE-01: opposed roll, the partisans example ---------------------------------------


def test_SW_FIRE_01_partisans_example_through_the_table_driver() -> None:
    """Seed: d6 + d8 roll 3 and 6, the partisans' d10 rolls 2 → suppressed and hit;
    14/10 → 1 casualty; LMG power 5 against armour 4 → the commander is wounded (SW-DMG-03)."""
    s = session(PARTISANS, [3, 6, 2, 5, 4])
    assert s.result is not None
    assert s.result.outcome == FireOutcome(Effect.HITS, hits=1, wounded=1, killed=0)
    rolls = s.result.rolls
    assert [tuple(d.name for d in r.dice) for r in rolls] == [("d6", "d8"), ("d10",), ("d10", "d4")]
    assert [r.roller for r in rolls[:2]] == ["shooter", "target"]
    assert [r.values for r in rolls] == [(3, 6), (2,), (5, 4)]


def test_SW_FIRE_01_table_driver_asks_pool_then_range_die_then_power_and_armour() -> None:
    s = session(PARTISANS, [])
    assert pending_dice(s) == (D6, D8)
    s.supply([3, 6])
    assert pending_dice(s) == (D10,)
    s.supply([2])
    assert pending_dice(s) == (D10, D4)


@pytest.mark.parametrize(
    ("dice", "effect"),
    [
        ([3, 6, 6], Effect.NONE),  # ties go to the target («столько же или меньше»)
        ([3, 6, 7], Effect.NONE),
        ([3, 6, 3], Effect.SUPPRESSED),  # only the 6 beats 3
        ([6, 6, 6], Effect.NONE),
    ],
)
def test_SW_FIRE_01_no_effect_and_suppression(dice: list[int], effect: Effect) -> None:
    s = session(PARTISANS, dice)
    assert s.result is not None
    assert s.result.outcome == FireOutcome(effect, 0, 0, 0)


def test_SW_FIRE_01_effect_by_number_of_beaten_dice() -> None:
    assert [effect_of(k) for k in range(4)] == [
        Effect.NONE,
        Effect.SUPPRESSED,
        Effect.HITS,
        Effect.HITS,
    ]


def test_SW_FIRE_01_reducers_batch_agrees_with_call() -> None:
    """The vectorised reducers the odds driver uses give what the table driver gets."""
    pool = (12, 12, 8, 10)
    faces = np.array(list(product(*(range(1, f + 1) for f in pool))), dtype=np.int64)
    for keep, cap in ((2, 5), (2, 7), (2, 13), (3, 9)):
        reducer = TopValues(keep, cap)
        codes = reducer.batch(faces)
        decoded = [reducer.decode(int(c)) for c in codes]
        assert decoded == [reducer(tuple(r)) for r in faces.tolist()]
    rows = np.arange(1, 13, dtype=np.int64).reshape(-1, 1)
    for best in [(1, 1), (2, 5), (5, 5), (7, 13), (3, 4, 9)]:
        beat = BeatRange(best)
        assert [beat.decode(int(c)) for c in beat.batch(rows)] == [beat((r,)) for r in range(1, 13)]


def test_SW_FIRE_01_capping_the_pool_loses_nothing() -> None:
    """TopValues keeps two dice capped at range faces + 1: the effect is unchanged for every
    range value."""
    for values in product(range(1, 13), repeat=3):
        for faces in (4, 6, 8, 10, 12):
            best = TopValues(2, faces + 1)(values)
            for target in range(1, faces + 1):
                beaten = sum(1 for v in values if v > target)
                assert BeatRange(best)((target,)) is effect_of(beaten)


# --- SW-FIRE-02/04/05: dice pools and the fire-allocation examples -------------------------


def test_SW_FIRE_02_pool_order_quality_rate_then_support_in_input_order() -> None:
    group = group_of(D8, ("grenade_launcher", 1), ("assault_rifle", 3), ("lmg", 1), distance=5)
    assert group.pool == (D8, D6, D10, D8)


def test_SW_FIRE_04_example_1_enemy_13_inches_away() -> None:
    """Recruits (d6) at 13" (zone 3): SMGs cannot fire; the LMG alone rolls d6 + d8;
    the sniper alone rolls d6 + d4 and chooses his victim."""
    assert range_zone(D6, 13) == 3
    lmg = group_of(D6, ("smg", 7), ("lmg", 1), distance=13)
    assert lmg.pool == (D6, D8)
    sniper = group_of(D6, ("sniper_rifle", 1), distance=13)
    assert sniper.pool == (D6, D4) and sniper.sniper
    with pytest.raises(
        InputError, match=r'^distance: .* none of the weapons can fire \(smg ≤ 6"\)'
    ):
        group_of(D6, ("smg", 7), distance=13)
    s = session({"quality": "d6", "weapons": [{"weapon": "lmg"}], "distance": 13}, [])
    assert pending_dice(s) == (D6, D8)
    s.supply([5, 7])
    assert pending_dice(s) == (D8,)  # zone 3 → d8


def test_SW_FIRE_04_example_2_enemy_5_inches_away() -> None:
    """At 5": 4 SMGs (12) + the LMG → d6, d12, d8; 3 SMGs + sniper rifle (9 + 1 = 10) →
    d6, d10, and the rifle does not choose its victim (it joined the group)."""
    first = group_of(D6, ("smg", 4), ("lmg", 1), distance=5)
    assert first.pool == (D6, D12, D8)
    second = group_of(D6, ("smg", 3), ("sniper_rifle", 1), distance=5)
    assert second.pool == (D6, D10)
    assert not second.sniper and not second.alone
    s = session(
        {
            "quality": "d6",
            "weapons": [{"weapon": "smg", "count": 4}, {"weapon": "lmg"}],
            "distance": 5,
        },
        [],
    )
    assert pending_dice(s) == (D6, D12, D8)


def test_SW_FIRE_05_ground_mounted_heavy_weapons_fire_twice() -> None:
    from kubik.rulesets.steel_war.fire_ammo import FiredThisActivation, shots_per_activation

    assert shots_per_activation("hmg", ground_mounted=True) == 2
    assert shots_per_activation("hmg", ground_mounted=False) == 1
    assert shots_per_activation("lmg", ground_mounted=True) == 1
    fired = FiredThisActivation().fired("gunner")
    assert not fired.may_fire("gunner", "lmg")
    assert fired.may_fire("gunner", "hmg", ground_mounted=True)
    assert not fired.fired("gunner").may_fire("gunner", "hmg", ground_mounted=True)


# --- SW-FIRE-03: rate-of-fire die ----------------------------------------------------------


def test_SW_FIRE_03_rate_die_examples_a_to_e() -> None:
    smg, rifle, sniper, pistol = (
        weapon(w).rate for w in ("smg", "rifle", "sniper_rifle", "pistol")
    )
    assert smg is not None and rifle is not None and sniper is not None and pistol is not None
    assert rate_die(4 * smg) == D12  # (b) 4 SMGs = 12
    assert rate_die(3 * smg + rifle) == D10  # (c) 9 + 1 = 10
    assert rate_die(sniper) == D4  # (d) one sniper rifle: 1 rounds up to d4
    assert rate_die(4 * pistol) == rate_die(pistol) == D4  # (e) four officers = one officer


def test_SW_FIRE_03_contradiction_nine_is_d8_not_the_printed_d6() -> None:
    """Seed example (a) prints 3 × 3 = 9 → к6, but its own rule «округлить вниз до
    ближайшего кубика» and examples (b)/(c) give d8; the rule is followed."""
    nine = 3 * (weapon("smg").rate or 0)
    assert nine == 9
    assert rate_die(nine) == D8
    assert rate_die(nine) != D6  # the printed example's reading differs


def test_SW_FIRE_03_rounding_down_and_the_ends() -> None:
    assert [rate_die(s).faces for s in range(1, 16)] == [
        4,
        4,
        4,
        4,
        4,
        6,
        6,
        8,
        8,
        10,
        10,
        12,
        12,
        12,
        12,
    ]
    assert rate_die(Fraction(7, 2)) == D4  # 7 primitive weapons: 3.5 → d4
    assert rate_die(Fraction(9, 2)) == D4


# --- SW-FIRE-06..09: range zones and the range die -----------------------------------------


def test_SW_FIRE_06_zone_width_is_the_quality_die() -> None:
    assert range_zone(D6, 10) == 2  # partisans
    assert range_zone(D8, 12) == 2  # regulars at 12"
    assert range_zone(D6, 13) == 3
    assert [range_zone(D6, d) for d in (0, 6, 6.5, 12, 18, 24, 30, 30.5)] == [
        1,
        1,
        2,
        2,
        3,
        4,
        5,
        6,
    ]
    assert [base_range_die(z) for z in range(1, 6)] == [D4, D6, D8, D10, D12]
    with pytest.raises(InputError, match=r"^distance:"):
        base_range_die(6)


def test_SW_FIRE_06_contradiction_printed_recruit_bands() -> None:
    """The seed prints recruits' zones 12–24 / 24–30 / 30–36; the width rule (6") gives
    12–18 / 18–24 / 24–30. The width rule is followed; here is where they differ."""
    printed = {3: (12, 24), 4: (24, 30), 5: (30, 36)}

    def printed_zone(distance: float) -> int:
        for zone, (low, high) in printed.items():
            if low < distance <= high:
                return zone
        return 1 if distance <= 6 else 2 if distance <= 12 else 6

    for distance in (20, 25, 33):
        assert range_zone(D6, distance) != printed_zone(distance)
    assert range_zone(D6, 20) == 4 and printed_zone(20) == 3
    assert range_zone(D6, 33) == 6 and printed_zone(33) == 5  # out of range vs zone 5
    assert not in_range(weapon("rifle"), D6, 33)
    for distance in (3, 10, 13, 15):
        assert range_zone(D6, distance) == printed_zone(distance)


def test_SW_FIRE_07_going_to_ground_adds_a_step() -> None:
    """Seed: 12" from a regular (d8) shooter the prone target rolls d8 instead of d6."""
    assert range_die(D8, 12, prone=False, cover=Cover.NONE) == D6
    assert range_die(D8, 12, prone=True, cover=Cover.NONE) == D8
    s = session(
        {"quality": "d8", "weapons": [{"weapon": "lmg"}], "distance": 12, "prone": True}, [1, 1]
    )
    assert pending_dice(s) == (D8,)


def test_SW_FIRE_08_cover_steps() -> None:
    assert range_die(D6, 5, False, Cover.LIGHT) == D6
    assert range_die(D6, 5, False, Cover.HARD) == D8


def test_SW_FIRE_09_partisans_range_die_and_clamp() -> None:
    """Zone 2 → d6, light cover → d8, gone to ground → d10; past d12 is lost."""
    assert range_die(D6, 10, prone=True, cover=Cover.LIGHT) == D10
    assert range_die(D6, 28, prone=True, cover=Cover.HARD) == D12


# --- SW-FIRE-10/11/12: weapon table and range limits ---------------------------------------


def test_SW_FIRE_10_weapon_table() -> None:
    table = {
        "primitive": (Fraction(1, 2), None, D4, 0),
        "pistol": (1, None, D6, 1),
        "smg": (3, None, D8, 1),
        "shotgun": (2, None, D8, 1),
        "rifle": (1, None, D10, 0),
        "sniper_rifle": (1, None, D10, 0),
        "assault_rifle": (2, None, D8, 0),
        "improved_assault_rifle": (2, None, D10, 0),
        "best_assault_rifle": (3, None, D10, 0),
        "lmg": (None, D8, D10, 0),
        "hmg": (None, D12, D10, 0),
        "uragan": (None, D10, D10, 0),
        "slon": (None, D4, D10, 0),
        "grenade_launcher": (None, D10, D6, 0),
        "flamethrower_keno": (None, D12, D12, 2),
        "flamethrower_lianra": (None, D6, D12, 2),
    }
    for weapon_id, (rate, die, power, melee) in table.items():
        w = weapon(weapon_id)
        assert (w.rate, w.rate_die, w.power, w.melee) == (rate, die, power, melee), weapon_id
    zone1 = {w for w in table if weapon(w).range_limit is RangeLimit.ZONE1}
    assert zone1 == {"primitive", "pistol", "smg", "shotgun"}


def test_SW_FIRE_10_unknown_weapon_lists_the_ids() -> None:
    with pytest.raises(
        InputError, match=r"^weapon: unknown weapon 'laser'; weapons: primitive, pistol"
    ):
        weapon("laser")
    with pytest.raises(ValidationError, match="flamethrower_lianra"):
        fire_input(quality="d6", weapons=[{"weapon": "laser"}], distance=5)


def test_SW_FIRE_11_range_limits() -> None:
    assert in_range(weapon("smg"), D6, 6) and not in_range(weapon("smg"), D6, 6.5)
    assert in_range(weapon("flamethrower_keno"), D12, 4)
    assert not in_range(weapon("flamethrower_keno"), D12, 4.5)
    assert in_range(weapon("lmg"), D4, 20) and not in_range(weapon("lmg"), D4, 20.5)
    group = group_of(D6, ("smg", 3), ("rifle", 2), distance=13)  # SMGs drop out
    assert group.pool == (D6, D4)
    with pytest.raises(InputError, match=r'^distance: at 31 inches .* \(lmg ≤ 30"\); weapons:'):
        group_of(D6, ("lmg", 1), distance=31)
    with pytest.raises(InputError, match=r"^distance:"):
        next(FIRE.function(fire_input(quality="d6", weapons=[{"weapon": "pistol"}], distance=7)))


def test_SW_FIRE_12_grenade_launcher_fragments_and_flamethrower_rates() -> None:
    gl = group_of(D6, ("grenade_launcher", 1), distance=10)
    assert gl.fragmentation and gl.power == D6 and gl.pool == (D6, D10)
    assert weapon("flamethrower_keno").rate_die == D12
    assert weapon("flamethrower_lianra").rate_die == D6


def test_SW_FIRE_13_support_fire_uses_the_small_arms_power_and_no_special_rules() -> None:
    """Seed: a sniper rifle (d10) with automats (d8) → the whole fire has power d8."""
    sniper_with_automats = group_of(D8, ("sniper_rifle", 1), ("assault_rifle", 4), distance=10)
    assert sniper_with_automats.power == D8 and not sniper_with_automats.sniper
    flame_support = group_of(D8, ("flamethrower_keno", 1), ("assault_rifle", 2), distance=3)
    assert flame_support.power == D8 and not flame_support.flame
    gl_support = group_of(D8, ("grenade_launcher", 1), ("rifle", 2), distance=10)
    assert gl_support.power == D10 and not gl_support.fragmentation
    assert group_of(D8, ("lmg", 1), distance=10).power == D10  # alone: its own power
    # mixed small arms: the most numerous type, the lower power on a tie (default)
    assert group_of(D8, ("rifle", 3), ("assault_rifle", 2), distance=5).power == D10
    assert group_of(D8, ("rifle", 2), ("assault_rifle", 2), distance=5).power == D8


def test_SW_FIRE_13_flamethrower_in_support_lets_armour_save() -> None:
    data = {
        "quality": "d6",
        "weapons": [{"weapon": "assault_rifle", "count": 1}, {"weapon": "flamethrower_lianra"}],
        "distance": 3,
        "target_models": 1,
    }
    assert kubik_fire(data) == brute_fire((6, 4, 6), 4, power=8, armour=4, models=1)


def test_SW_FIRE_14_sniper_alone_chooses_in_the_log() -> None:
    data = {"quality": "d6", "weapons": [{"weapon": "sniper_rifle"}], "distance": 13}
    s = session(data, [5, 4, 1, 9, 1])
    assert s.result is not None
    assert s.result.outcome == FireOutcome(Effect.HITS, 1, 0, 1)
    ids = [e.event.id for e in s.result.log if hasattr(e, "event")]
    assert "steel_war.fire.sniper_chooses" in ids
    assert group_of(D6, ("sniper_rifle", 1), distance=13).power == D10


def test_SW_FIRE_15_limited_ammunition() -> None:
    from kubik.rulesets.steel_war.fire_ammo import Ammo

    gl = Ammo.full("grenade_launcher")
    assert gl.shots_left == 3
    empty = gl.fire().fire().fire()
    assert empty.shots_left == 0 and not empty.can_fire
    with pytest.raises(InputError, match=r"^weapons: grenade_launcher has no shots left"):
        empty.fire()
    assert Ammo.full("flamethrower_lianra").shots_left == 4
    assert Ammo.full("flamethrower_keno").shots_left is None
    assert Ammo.full("rifle").fire() == Ammo.full("rifle")


# --- exact odds against the independent enumeration ---------------------------------------


@pytest.mark.parametrize(
    ("data", "pool", "range_faces", "power", "armour", "models", "flame"),
    [
        (PARTISANS, (6, 8), 10, 10, 4, 10, False),
        (  # SW-DMG-01 (a): d6 + d10 against d10 → 2 potential casualties
            {
                "quality": "d6",
                "weapons": [{"weapon": "smg", "count": 3}, {"weapon": "rifle"}],
                "distance": 5,
                "cover": "hard",
                "prone": True,
            },
            (6, 10),
            10,
            8,
            4,
            10,
            False,
        ),
        (  # flamethrower alone: every victim at least wounded (SW-DMG-08)
            {"quality": "d4", "weapons": [{"weapon": "flamethrower_lianra"}], "distance": 4},
            (4, 6),
            4,
            12,
            4,
            10,
            True,
        ),
        (  # hits capped by the target's size
            {
                "quality": "d8",
                "weapons": [{"weapon": "smg", "count": 4}],
                "distance": 2,
                "target_models": 2,
            },
            (8, 12),
            4,
            8,
            4,
            2,
            False,
        ),
        (  # flak vests against a lone grenade launcher: armour d6 (SW-DMG-04)
            {
                "quality": "d4",
                "weapons": [{"weapon": "grenade_launcher"}],
                "distance": 5,
                "flak_vest": True,
                "target_models": 2,
            },
            (4, 10),
            6,
            6,
            6,
            2,
            False,
        ),
    ],
)
def test_SW_FIRE_01_SW_DMG_01_exact_odds_match_brute_force(
    data: dict[str, Any],
    pool: tuple[int, ...],
    range_faces: int,
    power: int,
    armour: int,
    models: int,
    flame: bool,
) -> None:
    assert kubik_fire(data) == brute_fire(pool, range_faces, power, armour, models, flame)


def test_SW_FIRE_01_partisans_odds_in_numbers() -> None:
    """P(hits) for d6 + d8 against d10: both dice beat the range die."""
    dist = kubik_fire(PARTISANS)
    p_hits = sum(p for k, p in dist.items() if k[0] == "hits")
    both = Fraction(
        sum(1 for a, b, r in product(range(1, 7), range(1, 9), range(1, 11)) if a > r and b > r),
        480,
    )
    assert p_hits == both == Fraction(17, 96)


def test_fire_pool_limit_is_a_clear_error() -> None:
    data = {"quality": "d12", "weapons": [{"weapon": "lmg", "count": 24}], "distance": 5}
    with pytest.raises(
        InputError, match=r"^weapons: the shooter's pool would have 25 dice; at most 24"
    ):
        next(FIRE.function(FIRE.input_model.model_validate(data)))


def test_SW_FIRE_01_partisans_example_through_the_public_api() -> None:
    """What `kubik resolve steel_war.fire --input ... --dice 3,6,2,5,4` prints."""
    import kubik.api as api

    out = api.resolve("steel_war.fire", PARTISANS, dice=[3, 6, 2, 5, 4])
    assert out["outcome"] == {"effect": "hits", "hits": 1, "wounded": 1, "killed": 0}
    assert [r["dice"] for r in out["rolls"]] == [["d6", "d8"], ["d10"], ["d10", "d4"]]
    odds = api.odds("steel_war.fire", PARTISANS)
    assert sum(Fraction(o["probability"]) for o in odds["outcomes"]) == 1


def test_SW_FIRE_11_no_weapon_in_range_is_one_clear_line() -> None:
    import kubik.api as api

    data = {"quality": "d6", "weapons": [{"weapon": "smg", "count": 3}], "distance": 13}
    with pytest.raises(InputError) as caught:
        api.odds("steel_war.fire", data)
    message = str(caught.value)
    assert message.startswith("distance: at 13 inches (zone 3 for a d6 shooter)")
    assert "\n" not in message


def test_SW_FIRE_08_partly_covered_squads_and_cover_that_does_not_stack() -> None:
    from kubik.rulesets.steel_war.fire import squad_cover

    assert squad_cover(in_light=0, in_hard=5, models=10) is Cover.HARD
    assert squad_cover(in_light=4, in_hard=1, models=10) is Cover.LIGHT
    assert squad_cover(in_light=4, in_hard=0, models=10) is Cover.NONE
    assert squad_cover(in_light=10, in_hard=0, models=10) is Cover.LIGHT
    with pytest.raises(InputError, match=r"^models:"):
        squad_cover(in_light=8, in_hard=5, models=10)


def test_SW_FIRE_04_a_large_pool_is_exact_and_folded_die_by_die() -> None:
    """Ten support weapons: the pool of 11 dice is never expanded face by face."""
    import kubik.api as api
    from kubik.engine import Roll, roll_branches
    from kubik.rulesets.steel_war.fire import TopValues

    pool = (D12,) * 11
    reducer = TopValues(2, 13)
    folded = dict(roll_branches(Roll(pool, "pool", reduce=reducer)))
    assert sum(folded.values()) == 1
    assert (
        folded[(12, 12)]
        == 1 - Fraction(11, 12) ** 11 - 11 * Fraction(1, 12) * Fraction(11, 12) ** 10
    )
    data = {"quality": "d12", "weapons": [{"weapon": "lmg", "count": 10}], "distance": 5}
    odds = api.odds("steel_war.fire", data)
    assert sum(Fraction(o["probability"]) for o in odds["outcomes"]) == 1


def test_SW_FIRE_01_fold_form_agrees_with_the_plain_reducer() -> None:
    from itertools import product as every

    from kubik.rulesets.steel_war.fire import TopValues

    reducer = TopValues(2, 9)
    for values in every(range(1, 13), range(1, 9), range(1, 7)):
        state = reducer.start()
        for value in values:
            state = reducer.step(state, value)
        assert reducer.finish(state) == reducer(values)


def test_SW_FIRE_10_contract_weapon_ids_are_exactly_the_weapon_table() -> None:
    from kubik.rulesets.data import load_ruleset_data
    from kubik.rulesets.steel_war.fire_weapons import WEAPON_IDS

    assert set(WEAPON_IDS) == set(load_ruleset_data("steel_war")["weapons"]) - {
        "provenance",
        "provenance_cells",
    }
