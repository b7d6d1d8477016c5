"""Close combat (seed 003): the worked example, every modifier, and exact odds of
``apocalypse.melee`` against a brute force that walks the dice itself.

The brute force below is written from the seed's text, not from the rule module: it
enumerates every ordered face of both fighters' dice (and of a block's re-roll) and
computes the results by hand.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

import kubik.api as api
from kubik.engine import OddsDriver, play
from kubik.engine.log import EventEntry
from kubik.rulesets.apocalypse.core import Pool, pool_summary
from kubik.rulesets.apocalypse.melee import (
    Fighter,
    MeleeOutcome,
    Winner,
    combat_result,
    decide,
    melee,
    outnumbering,
    weapon_for_hits,
)

from .helpers import events, resolve

RATNIK = Fighter(toughness=4, combat_skill=4, movement=4)
KOPALSHCHIK = Fighter(toughness=3, combat_skill=3, movement=4, charging=True)


def test_RA_CC_09_worked_example_as_the_rule_computes_it() -> None:
    """Seed 003: Ратник (P4; CS4) rolls 2, копальщик (P3; CS3) rolls 5 and charged.
    The seed prints the Ратник's total as 11, but 2 + 4 + 4 = 10 (erratum): by the rule
    the копальщик wins 12 against 10 and the Ратник takes 2 hits."""
    outcome, log = resolve(melee, (RATNIK, KOPALSHCHIK), [2, 5])
    assert outcome == MeleeOutcome(Winner.B, 2)
    result = next(e for e in log if isinstance(e, EventEntry) and e.event.id.endswith("result"))
    assert result.event.kwargs["margin"] == 2  # 12 against 10
    assert combat_result(RATNIK, pool_summary((2,)), pool_summary((5,))) == 10
    assert combat_result(KOPALSHCHIK, pool_summary((5,)), pool_summary((2,))) == 12


def test_RA_CC_09_worked_example_as_printed() -> None:
    """The printed totals (11 against 12, one hit) are what the rule gives for a roll of 3."""
    outcome, _ = resolve(melee, (RATNIK, KOPALSHCHIK), [3, 5])
    assert outcome == MeleeOutcome(Winner.B, 1)


def test_RA_CC_09_through_the_public_procedure() -> None:
    """``kubik resolve`` with the seed's dice: a then b."""
    inp = {
        "a": {"toughness": 4, "combat_skill": 4, "movement": 4},
        "b": {"toughness": 3, "combat_skill": 3, "movement": 4, "charging": True},
    }
    assert api.resolve("apocalypse.melee", inp, dice=[2, 5])["outcome"] == {
        "winner": "b",
        "hits": 2,
    }
    assert api.resolve("apocalypse.melee", inp, dice=[3, 5])["outcome"] == {
        "winner": "b",
        "hits": 1,
    }


def test_RA_CC_05_current_toughness_of_mortar() -> None:
    """Road knight Mortar: Стойкость 6, two wounds taken → current Стойкость 4."""
    assert Fighter(6, 4, 4, wounds=2).current_toughness == 4
    assert Fighter(6, 4, 4, wounds=2, insensitive=True).current_toughness == 6


def test_RA_CC_08_ties_go_to_mobility_then_draw() -> None:
    assert decide(Fighter(4, 4, 5), Fighter(4, 4, 4), 9, 9) == MeleeOutcome(Winner.A, 1)
    assert decide(Fighter(4, 4, 4), Fighter(4, 4, 4), 9, 9) == MeleeOutcome(Winner.DRAW, 0)


def test_RA_CC_06_only_the_highest_die_counts() -> None:
    two = Fighter(3, 3, 3, attack_dice=2)
    assert combat_result(two, pool_summary((2, 5)), None) == 11


def test_RA_CC_11_confusion_each_one_gives_the_opponent_plus_one() -> None:
    me = Fighter(3, 3, 3)
    assert combat_result(me, pool_summary((4,)), pool_summary((1, 1, 3))) == 4 + 6 + 2


def test_RA_CC_12_each_further_six_is_a_critical_plus_one() -> None:
    me = Fighter(3, 3, 3, attack_dice=3)
    assert combat_result(me, pool_summary((6, 6, 6)), None) == 6 + 6 + 2
    single = Fighter(3, 3, 3)
    assert combat_result(single, pool_summary((6,)), None) == 12


def test_RA_CC_10_modifier_table() -> None:
    base = Fighter(3, 3, 3)
    pool = Pool(4, 0, 0, 0)
    assert combat_result(base, pool, None) == 10
    assert combat_result(Fighter(3, 3, 3, charging=True), pool, None) == 11
    assert combat_result(Fighter(3, 3, 3, elevated=True), pool, None) == 11
    assert combat_result(Fighter(3, 3, 3, over_obstacle=True), pool, None) == 9
    assert combat_result(Fighter(3, 3, 3, leap_attack=True), pool, None) == 11


def test_RA_PSY_07_fear_halves_the_die_rounding_up() -> None:
    assert combat_result(Fighter(3, 3, 3, afraid=True), Pool(5, 0, 0, 0), None) == 3 + 6


def test_RA_PSY_08_terrified_fights_with_combat_skill_zero() -> None:
    assert combat_result(Fighter(3, 3, 3, terrified=True), Pool(5, 0, 0, 0), None) == 5 + 3


def test_RA_CC_18_outnumbering_adds_result_and_dice() -> None:
    """Three against one: each of the three gets +2 and +2 attack dice."""
    three = Fighter(3, 3, 3, outnumber=outnumbering(3, 1))
    assert three.dice == 3
    assert combat_result(three, Pool(4, 0, 0, 0), None) == 4 + 6 + 2


def test_RA_CC_07_extra_weapons_add_dice_and_frenzy_does_not_double_them() -> None:
    assert Fighter(3, 3, 3, extra_weapons=1).dice == 2
    assert Fighter(3, 3, 3, attack_dice=2, frenzied=True).dice == 4  # RA-PSY-10
    assert Fighter(3, 3, 3, extra_weapons=1, frenzied=True).dice == 3


def test_RA_MAN_05_leap_attack_adds_a_die_and_one() -> None:
    assert Fighter(3, 3, 3, leap_attack=True).dice == 2


def test_RA_CC_14_hits_alternate_between_weapons() -> None:
    assert weapon_for_hits(("axe", "mace"), 2) == ("axe", "mace")
    assert weapon_for_hits(("sword",), 2) == ("sword", "sword")


def test_RA_CC_17_knocked_down_rolls_nothing_and_takes_every_blow() -> None:
    outcome, _ = resolve(melee, (Fighter(3, 3, 3), Fighter(3, 3, 3, knocked_down=True)), [4])
    assert outcome == MeleeOutcome(Winner.A, 10)


def test_RA_PSY_11_a_stupid_winner_strikes_no_blows() -> None:
    outcome, _ = resolve(melee, (Fighter(3, 3, 3, stupid=True), Fighter(3, 3, 3)), [6, 1])
    assert outcome == MeleeOutcome(Winner.A, 0)


def test_RA_CC_13_block_makes_the_opponent_reroll_his_highest() -> None:
    """b blocks a's 6: a re-rolls it (a 2) and keeps his next-highest 5."""
    a = Fighter(3, 3, 3, attack_dice=2)
    b = Fighter(3, 3, 3, shield=True)
    outcome, _ = resolve(melee, (a, b), [5, 6, 3, 2])
    assert outcome == MeleeOutcome(Winner.A, 2)  # 5+6 = 11 against 3+6 = 9


@pytest.mark.parametrize("blocker", ["a", "b"])
def test_RA_CC_13_a_block_is_asked_and_told_in_the_tables_order(blocker: str) -> None:
    """Where a shield may block, the bout's last step (the other's dice and the block)
    is one exact-odds step; at the table the order stays: a's dice, b's dice, the block,
    the re-roll, then the result with the margin after the block, every roll and the
    question one level down from the bout."""
    shielded, plain = Fighter(3, 3, 3, shield=True), Fighter(3, 3, 3, attack_dice=2)
    a, b = (shielded, plain) if blocker == "a" else (plain, shielded)
    dice = [6, 5, 2, 1] if blocker == "b" else [2, 6, 5, 1]
    outcome, log = resolve(melee, (a, b), dice)
    # the blocked 6 comes up 1: the 5 counts, less 1 for the 1 (10 against 2 + 6 = 8)
    assert outcome == MeleeOutcome(Winner.A if blocker == "b" else Winner.B, 2)
    kinds = [(type(e).__name__, e.depth) for e in log if not isinstance(e, EventEntry)]
    assert kinds == [("RollEntry", 1), ("RollEntry", 1), ("ChoiceEntry", 1), ("RollEntry", 1)]
    result = [e for e in log if isinstance(e, EventEntry)][-1]
    assert (result.event.id, result.depth) == ("apocalypse.melee.result", 0)
    assert dict(result.event.params)["margin"] == 2


def test_RA_CC_13_two_shields_cancel() -> None:
    a = Fighter(3, 3, 3, shield=True)
    b = Fighter(3, 3, 3, shield=True)
    outcome, log = resolve(melee, (a, b), [6, 3])
    assert outcome == MeleeOutcome(Winner.A, 3)
    assert "apocalypse.melee.shields_cancel" in events(log)


def test_RA_PSY_13_hatred_rerolls_low_dice() -> None:
    a = Fighter(3, 3, 3, attack_dice=2, hatred=True)
    outcome, _ = resolve(melee, (a, Fighter(3, 3, 3)), [1, 2, 5, 6, 4])
    # a re-rolls his 1 and 2 (to 6 and 5: highest 6); b rolls 4
    assert outcome == MeleeOutcome(Winner.A, 2)


# -- exact odds against brute force -----------------------------------------------


def brute_force(a: Fighter, b: Fighter) -> dict[MeleeOutcome, Fraction]:
    """Every ordered face of both pools (and of a block's re-roll), by hand."""

    def result(me: Fighter, dice: tuple[int, ...], other: tuple[int, ...]) -> int:
        top = max(dice)
        die = (top + 1) // 2 if me.afraid else top
        res = die + me.current_toughness + (0 if me.terrified else me.combat_skill)
        res += me.charging + me.elevated - me.over_obstacle + me.leap_attack
        res += other.count(1)
        if len(dice) >= 2 and dice.count(6) >= 2:
            res += dice.count(6) - 1
        return res + me.outnumber

    counts: Counter[MeleeOutcome] = Counter()
    total = 0
    blocker = "b" if b.shield and not a.shield else "a" if a.shield and not b.shield else ""
    for da in itertools.product(range(1, 7), repeat=a.dice):
        for db in itertools.product(range(1, 7), repeat=b.dice):
            for new in range(1, 7):  # a block's re-roll; ignored where nobody blocks
                fa, fb = da, db
                target = da if blocker == "b" else db
                if blocker and max(target) >= 4:  # the default: block a 4 or more
                    kept = tuple(sorted(target)[:-1])
                    if blocker == "b":
                        fa = (*kept, new)
                    else:
                        fb = (*kept, new)
                counts[decide(a, b, result(a, fa, fb), result(b, fb, fa))] += 1
                total += 1
    return {o: Fraction(n, total) for o, n in counts.items()}


CASES = [
    (Fighter(4, 4, 4), Fighter(3, 3, 4, charging=True)),
    (Fighter(4, 3, 4, attack_dice=2), Fighter(4, 3, 5, wounds=1, shield=True)),
    (Fighter(3, 3, 4, extra_weapons=1, elevated=True), Fighter(3, 2, 3, attack_dice=2)),
    (Fighter(4, 4, 4, outnumber=1), Fighter(4, 3, 4, afraid=True, over_obstacle=True)),
    (Fighter(3, 3, 3, shield=True, leap_attack=True), Fighter(3, 4, 3, attack_dice=2)),
    (Fighter(3, 3, 3, attack_dice=3), Fighter(5, 2, 3, terrified=True)),
]


@pytest.mark.parametrize("a,b", CASES)
def test_RA_CC_04_exact_odds_match_brute_force(a: Fighter, b: Fighter) -> None:
    exact = OddsDriver().distribution(melee, (a, b))
    assert dict(exact.items()) == brute_force(a, b)


def test_RA_CC_13_bouts_with_the_same_dice_share_their_odds_and_stay_exact() -> None:
    """A fighter's attack dice and a shield's block take only what they read, so their
    odds serve every bout with the same dice: fighters of other rules and profiles,
    worked out by one driver, each still match the brute force."""
    driver = OddsDriver()
    bouts = [
        (Fighter(4, 3, 4, attack_dice=2), Fighter(4, 3, 5, wounds=1, shield=True)),
        (Fighter(3, 4, 3, extra_weapons=1), Fighter(5, 2, 4, shield=True, charging=True)),
        (Fighter(4, 4, 4, attack_dice=2, shield=True), Fighter(3, 3, 4, attack_dice=2)),
    ]
    for a, b in bouts:
        assert dict(driver.distribution(melee, (a, b)).items()) == brute_force(a, b)


def test_RA_CC_04_monte_carlo_agrees_with_exact() -> None:
    import random

    a, b = CASES[1]
    exact = OddsDriver().distribution(melee, (a, b))
    rng = random.Random(7)
    n = 2000
    wins = sum(play(melee, (a, b), rng).outcome.winner is Winner.A for _ in range(n))
    p = float(sum(p for o, p in exact.items() if o.winner is Winner.A))
    assert abs(wins / n - p) < 4 * (p * (1 - p) / n) ** 0.5
