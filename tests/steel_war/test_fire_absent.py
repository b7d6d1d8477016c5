"""Defaults for fire the seed refers to but lacks: heavy/vehicle weapons (SW-ABSENT-05) and
artillery (SW-ABSENT-06), resolved through the same fire action."""

from __future__ import annotations

from fractions import Fraction

from kubik.engine import OddsDriver, TableSession
from kubik.engine.dice import D4, D6, D8, D10, D12
from kubik.rulesets.steel_war.fire import (
    Cover,
    Effect,
    FireOutcome,
    FireTarget,
    fire_action,
    range_die,
)
from kubik.rulesets.steel_war.fire_absent import (
    artillery_cover,
    artillery_group,
    default_guidance_die,
    heavy_weapon_group,
)


def test_SW_ABSENT_05_heavy_weapon_rolls_quality_and_guidance() -> None:
    group = heavy_weapon_group(D8, power=D12, guidance=D10)
    assert group.pool == (D8, D10) and group.power == D12
    assert heavy_weapon_group(D8, power=D12).pool == (D8, default_guidance_die())
    target = FireTarget(range_die=D8, armour=D10, models=1)
    s = TableSession(fire_action, (group, target))
    s.supply([7, 9, 3, 11, 5])  # 2 dice beat 3; (8 + 10) / 8 → 2 hits, capped at 1; 11 > 5
    assert s.result is not None and s.result.outcome == FireOutcome(Effect.HITS, 1, 1, 0)


def test_SW_ABSENT_06_artillery_strike_and_cover() -> None:
    group = artillery_group()
    assert group.pool == (D8, D10) and group.power == D10 and group.fragmentation
    assert artillery_cover(Cover.LIGHT, concealment_only=True) is Cover.NONE
    assert artillery_cover(Cover.HARD, concealment_only=False) is Cover.HARD
    # flak vests roll d6 against the fragments
    target = FireTarget(
        range_die=range_die(D8, 10, False, Cover.NONE), armour=D4, models=1, flak_vest=True
    )
    s = TableSession(fire_action, (group, target))
    s.supply([5, 5, 1])
    assert s.pending is not None and s.pending.dice == (D10, D6)
    dist = OddsDriver().distribution(fire_action, (group, target))
    assert sum(dist.values()) == 1
    assert dist[FireOutcome(Effect.NONE, 0, 0, 0)] == Fraction(
        sum(1 for a in range(1, 9) for b in range(1, 11) for r in range(1, 7) if a <= r and b <= r),
        480,
    )
