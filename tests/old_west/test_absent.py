"""Rules absent from the seed, implemented as documented defaults (OW-ABSENT-01..10).

NOT FROM THE SEED: these tests pin the defaults in data.toml, not rulebook text.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from kubik.engine import OddsDriver
from kubik.rulesets.data import ProvenanceKind, provenance_kind
from kubik.rulesets.old_west.absent import (
    AdvantageOutcome,
    FallOutcome,
    FortuneOutcome,
    JumpOutcome,
    JumpResult,
    Profile,
    ShotOutcome,
    ShotResult,
    WoundsOutcome,
    falling_hits,
    in_control_zone,
    move_allowance,
    stand_up_cost,
)
from kubik.rulesets.old_west.core import Side, data
from kubik.rulesets.old_west.fame import JustEnough
from kubik.rulesets.old_west.movement import Mover, allowance
from kubik.rulesets.old_west.procedures.heroics import (
    AdvantageInput,
    FallFromHorseInput,
    FallingInput,
    FortuneInput,
    JumpInput,
    ShootInput,
    advantage_procedure,
    fall_from_horse_procedure,
    falling_procedure,
    fortune_procedure,
    jump_procedure,
    shoot_procedure,
)

from .helpers import ByPolicy, table
from .test_chart_and_wound import brute_wound

ABSENT_TABLES = (
    "advantage",
    "movement",
    "shooting",
    "falling",
    "fall_from_horse",
    "fortune",
    "mount",
)


def test_OW_ABSENT_01_advantage_roll_default() -> None:
    first = OddsDriver().distribution(advantage_procedure, (AdvantageInput(),))
    assert first[AdvantageOutcome(Side.A)] == Fraction(1, 2)
    later = OddsDriver().distribution(advantage_procedure, (AdvantageInput(last=Side.A),))
    assert later[AdvantageOutcome(Side.B)] == Fraction(15, 36) + Fraction(6, 36)
    tie = table(advantage_procedure, (AdvantageInput(last=Side.B),), [4, 4])
    assert tie.result is not None and tie.result.outcome == AdvantageOutcome(Side.A)
    roll_off = table(advantage_procedure, (AdvantageInput(),), [4, 4, 5])
    assert roll_off.result is not None and roll_off.result.outcome == AdvantageOutcome(Side.B)


def test_OW_ABSENT_02_movement_defaults_and_jump_test() -> None:
    assert move_allowance(False) == 6 and move_allowance(True) == 10
    assert in_control_zone(1.0) and not in_control_zone(1.01)
    dist = OddsDriver().distribution(jump_procedure, (JumpInput(),))
    assert dist[JumpOutcome(JumpResult.FAIL)] == Fraction(1, 6)
    fell = table(jump_procedure, (JumpInput(fame=1),), [1])  # default: no Fame spent
    assert fell.result is not None and fell.result.outcome == JumpOutcome(JumpResult.FAIL)
    saved = table(jump_procedure, (JumpInput(fame=1),), [1], ByPolicy(JustEnough()))
    assert saved.result is not None and saved.result.outcome == JumpOutcome(JumpResult.STOP, 1)


def brute_shot(shoot: int, strength: int, toughness: int) -> Fraction:
    hits = sum(1 for r in range(1, 7) if r > 1 and r >= shoot)
    return Fraction(hits, 6) * brute_wound(strength, toughness, 0, False)


def test_OW_ABSENT_04_shooting_default() -> None:
    for shoot, s, t in product((2, 4, 6), (2, 3, 5), (3, 6, 9)):
        dist = OddsDriver().distribution(
            shoot_procedure, (ShootInput(shoot=shoot, strength=s, toughness=t),)
        )
        assert dist[ShotOutcome(ShotResult.TARGET, True)] == brute_shot(shoot, s, t)
    inp = ShootInput(shoot=2, strength=3, toughness=3, in_the_way=1, mount_toughness=3)
    blocked = table(shoot_procedure, (inp,), [5, 2])
    assert blocked.result is not None
    assert blocked.result.outcome == ShotOutcome(ShotResult.IN_THE_WAY, False, blocker=1)
    horse = table(shoot_procedure, (inp,), [5, 4, 3, 6])
    assert horse.result is not None and horse.result.outcome == ShotOutcome(ShotResult.MOUNT, True)
    natural_one = table(
        shoot_procedure, (ShootInput(shoot=2, strength=3, toughness=3, fame=3),), [1]
    )
    assert natural_one.result is not None
    assert natural_one.result.outcome == ShotOutcome(ShotResult.MISS, False)


def test_OW_ABSENT_05_falling_damage_default() -> None:
    assert [falling_hits(h) for h in (1, 2, 3, 4, 6)] == [0, 0, 1, 2, 3]
    dist = OddsDriver().distribution(falling_procedure, (FallingInput(height=4, toughness=3),))
    p = Fraction(1, 2)
    assert dict(dist) == {
        WoundsOutcome(0): (1 - p) ** 2,
        WoundsOutcome(1): 2 * p * (1 - p),
        WoundsOutcome(2): p**2,
    }


def test_OW_ABSENT_06_falling_from_a_horse_default() -> None:
    dist = OddsDriver().distribution(fall_from_horse_procedure, (FallFromHorseInput(toughness=3),))
    assert dist[FallOutcome(False, False)] == Fraction(1, 6)
    assert dist[FallOutcome(True, True)] == Fraction(1, 6) * Fraction(1, 2)
    assert dist[FallOutcome(False, True)] == Fraction(4, 6) + Fraction(1, 12)


def test_OW_ABSENT_07_fortune_default() -> None:
    dist = OddsDriver().distribution(fortune_procedure, (FortuneInput(wounds=1, fortune=2),))
    assert dist[FortuneOutcome(1, 2)] == Fraction(1, 4)
    session = table(fortune_procedure, (FortuneInput(wounds=2, fortune=2),), [2, 5])
    assert session.result is not None and session.result.outcome == FortuneOutcome(1, 2)


def test_OW_ABSENT_08_fearsome_reputation_is_a_profile_flag() -> None:
    assert Profile(shoot=4, fight=4, strength=3, toughness=3, fearsome=True).fearsome
    assert not Profile(shoot=4, fight=4, strength=3, toughness=3).fearsome


def test_OW_ABSENT_09_profile_default_characteristics() -> None:
    rider = Profile(shoot=4, fight=3, strength=3, toughness=3, attacks=1, wounds=1, pluck=4)
    assert rider.pluck == 4 and not rider.hero and rider.fame == 0
    assert allowance(Mover(mounted=True)) == move_allowance(True) == 10


def test_OW_ABSENT_10_standing_up_costs_half_a_move_unless_charged() -> None:
    assert stand_up_cost(6, False) == 3
    assert stand_up_cost(6, True) is None


def test_OW_ABSENT_01_defaults_are_marked_not_from_the_seed() -> None:
    tables = data()
    for name in ABSENT_TABLES:
        assert provenance_kind(tables[name], name) is ProvenanceKind.DEFAULT
        assert "NOT FROM THE SEED" in tables[name]["provenance"]["default"] or name == "mount"
    assert provenance_kind(tables["wound_chart"], "wound_chart") is ProvenanceKind.SOURCE
