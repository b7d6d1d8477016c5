"""Rule outcomes report what was spent and by whom (Fame, OW-HERO-02/04/05; Fortune,
OW-ABSENT-07) and what a shot hit (OW-ABSENT-04), so a game applies exactly that."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

from kubik.engine import OddsDriver
from kubik.rulesets.old_west.absent import JumpOutcome, JumpResult, ShotOutcome, ShotResult, shoot
from kubik.rulesets.old_west.combat import CombatOutcome
from kubik.rulesets.old_west.core import Side
from kubik.rulesets.old_west.fame import JustEnough
from kubik.rulesets.old_west.pluck import (
    CoverReaction,
    DivingOutcome,
    FearsomeOutcome,
    HeadForTheHillsOutcome,
    diving_for_cover,
    fearsome_reputation,
    head_for_the_hills,
)
from kubik.rulesets.old_west.procedures.combat import CombatInput, combat_procedure
from kubik.rulesets.old_west.procedures.heroics import (
    JumpInput,
    ShootInput,
    jump_procedure,
    shoot_procedure,
)

from .helpers import ByPolicy, Scripted, roll_sizes, table

LAWMAN: dict[str, Any] = {"fight": 3, "attacks": 1, "strength": 3, "toughness": 3}
BEST = ByPolicy(JustEnough())


def brute_shot_in_the_way(shoot_value: int, toughness: int, in_the_way: int) -> dict[Any, Fraction]:
    """Every ordered (to hit, in the way, wound) triple, without the engine: a natural 1
    misses; 1-3 on the in-the-way die hits the model (Toughness ``in_the_way``) instead;
    Strength 3 wounds on the chart's plain cells (3 v T3: 4+, 3 v T4: 5+)."""
    needed = {3: 4, 4: 5}
    out: dict[Any, Fraction] = {}
    for hit, way, wound in product(range(1, 7), repeat=3):
        if hit == 1 or hit < shoot_value:
            outcome = ShotOutcome(ShotResult.MISS, False)
        elif way <= 3:
            outcome = ShotOutcome(ShotResult.IN_THE_WAY, wound >= needed[in_the_way], 1)
        else:
            outcome = ShotOutcome(ShotResult.TARGET, wound >= needed[toughness])
        out[outcome] = out.get(outcome, Fraction(0)) + Fraction(1, 216)
    return out


def test_OW_ABSENT_04_a_model_in_the_way_hit_instead_is_rolled_against() -> None:
    inp = ShootInput(shoot=3, strength=3, toughness=3, models_in_the_way=(4,))
    exact = OddsDriver().distribution(shoot_procedure, (inp,))
    assert dict(exact) == brute_shot_in_the_way(3, 3, 4)
    # hit 5, in the way 2: the model (T4) is hit; wound 5 wounds it
    session = table(shoot_procedure, (inp,), [5, 2, 5])
    assert session.result is not None
    assert session.result.outcome == ShotOutcome(ShotResult.IN_THE_WAY, True, blocker=1)
    # terrain first, then the model: the second thing in the way is hit
    both = ShootInput(shoot=3, strength=3, toughness=3, in_the_way=1, models_in_the_way=(3,))
    second = table(shoot_procedure, (both,), [5, 6, 1, 4])
    assert second.result is not None
    assert second.result.outcome == ShotOutcome(ShotResult.IN_THE_WAY, True, blocker=2)


def test_OW_HERO_05_a_shot_reports_the_fame_spent_on_hitting_and_wounding() -> None:
    """To hit 3 (needs 4): 1 Fame; to wound 3 (S3 v T3 needs 4): 1 more Fame."""
    inp = ShootInput(shoot=4, strength=3, toughness=3, fame=2)
    session = table(shoot_procedure, (inp,), [3, 3], BEST)
    assert session.result is not None
    assert session.result.outcome == ShotOutcome(ShotResult.TARGET, True, fame=2)


def test_OW_ABSENT_04_the_shooters_side_rolls_every_die_of_the_shot() -> None:
    session = table(lambda: shoot(3, 3, 3, (0,), 3, 0, "law"), (), [5, 6, 2, 4])
    assert [roller for roller, _ in roll_sizes(session)] == ["law"] * 4


def test_OW_HERO_04_pluck_rules_report_the_fame_they_spent() -> None:
    """2D6 3+3 + Pluck 3 = 9: one Fame passes the test."""
    dive = table(lambda: diving_for_cover(3, False, False, 2, "gang"), (), [3, 3], BEST)
    assert dive.result is not None
    assert dive.result.outcome == DivingOutcome(CoverReaction.NONE, fame=1)
    assert roll_sizes(dive) == [("gang", 2)]
    fear = table(lambda: fearsome_reputation(3, 2, "law"), (), [3, 3], BEST)
    assert fear.result is not None and fear.result.outcome == FearsomeOutcome(True, fame=1)
    hills = table(lambda: head_for_the_hills(4, 2, 3, (), False, 2, "law"), (), [3, 3], BEST)
    assert hills.result is not None
    assert hills.result.outcome == HeadForTheHillsOutcome(True, False, fame=1)
    jump = table(jump_procedure, (JumpInput(fame=1),), [1], BEST)
    assert jump.result is not None and jump.result.outcome == JumpOutcome(JumpResult.STOP, 1)


def test_OW_HERO_03_combat_reports_each_heroes_fame_on_both_sides() -> None:
    """Sealed bids: a's Hero (die 3) bids 2, b's Hero (die 4) bids 0; a wins 5 to 4 and
    strikes (4: wounds T3 without Fame). Fame is reported per model and side."""
    hero_a = {**LAWMAN, "fame": 2}
    hero_b = {**LAWMAN, "fame": 1}
    inp = CombatInput.model_validate({"a": [hero_a], "b": [hero_b]})
    session = table(combat_procedure, (inp,), [3, 4, 4], Scripted([2, 0]))
    assert session.result is not None
    outcome = session.result.outcome
    assert outcome == CombatOutcome(Side.A, (1,), 1, fame_a=(2,))
    assert outcome.fame(Side.A, 0) == 2 and outcome.fame(Side.B, 0) == 0


def test_OW_CC_13_fame_of_several_winners_is_reported_model_by_model() -> None:
    """Two a-models against one: the second (a Hero, 1 Fame) lifts his wound roll 3 to 4."""
    inp = CombatInput.model_validate(
        {"a": [LAWMAN, {**LAWMAN, "fame": 1}], "b": [{**LAWMAN, "wounds": 2}]}
    )
    # dice: a's rank and file 5, a's Hero 2, b 1; strikes: 1 (no), 3 (+1 Fame: wounds)
    session = table(combat_procedure, (inp,), [5, 2, 1, 1, 3], BEST)
    assert session.result is not None
    assert session.result.outcome == CombatOutcome(Side.A, (1,), 0, fame_a=(0, 1))
