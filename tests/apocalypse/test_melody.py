"""Music magic (seed 000): casting, Terrible Error, Monstrous Power, re-rolls, jamming,
resistance, templates and lasting Melodies — with exact odds against brute force."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

import kubik.api as api
from kubik.engine import OddsCache, OddsDriver
from kubik.engine.objectives import objectives_for
from kubik.engine.optimal import Optimal
from kubik.rulesets.apocalypse.melody import (
    Casting,
    CastOutcome,
    ErrorEffect,
    Jamming,
    JamOutcome,
    JamResult,
    LastingEnd,
    Reroll,
    Singer,
    Special,
    cast,
    jam,
    lasting_ends,
    may_jam,
    may_sing,
    resists,
    terrible_error,
    under_template,
)
from tests.conftest import brute_force
from tests.optimal_oracle import as_worths, brute_optimal

from .helpers import resolve


def test_RA_MEL_01_success_when_the_total_reaches_the_difficulty() -> None:
    assert resolve(cast, (Casting(7),), [3, 4])[0] == CastOutcome(True, Special.NONE, 7)
    assert resolve(cast, (Casting(8),), [3, 4])[0] == CastOutcome(False, Special.NONE, 0)


def test_RA_MEL_02_two_ones_fail_whatever_the_total() -> None:
    outcome, _ = resolve(cast, (Casting(2, dice=3, modifier=6),), [1, 1, 6])
    assert outcome == CastOutcome(False, Special.TERRIBLE_ERROR, 0)


def test_RA_MEL_03_two_sixes_are_monstrous_power_and_succeed() -> None:
    outcome, _ = resolve(cast, (Casting(15),), [6, 6])
    assert outcome == CastOutcome(True, Special.MONSTROUS_POWER, 12)


def test_RA_MEL_04_the_error_has_priority_over_power() -> None:
    outcome, _ = resolve(cast, (Casting(5, dice=4),), [1, 1, 6, 6])
    assert outcome.special is Special.TERRIBLE_ERROR and not outcome.success


def test_RA_MEL_04_natural_dice_before_modifiers() -> None:
    """A modifier cannot make or unmake the specials: 1+1−(−5) is still an Error."""
    outcome, _ = resolve(cast, (Casting(2, modifier=5),), [1, 1])
    assert outcome.special is Special.TERRIBLE_ERROR


def test_RA_MEL_04_an_ordinary_reroll_neither_saves_nor_causes() -> None:
    # an Error cannot be re-rolled at all: no re-roll is offered
    outcome, _ = resolve(cast, (Casting(7, reroll=True),), [1, 1])
    assert outcome.special is Special.TERRIBLE_ERROR
    # a failure re-rolled into 1,1 is no Error: only the total changes (2 < 7: fails)
    outcome, _ = resolve(cast, (Casting(7, reroll=True),), [2, 3, 1, 1])
    assert outcome == CastOutcome(False, Special.NONE, 0)
    # re-rolled into 6,6 is no Power, but 12 ≥ 7 succeeds on the total
    outcome, _ = resolve(cast, (Casting(13, reroll=True),), [2, 3, 6, 6])
    assert outcome == CastOutcome(False, Special.NONE, 0)


def test_RA_ABSENT_02_united_impulse_can_avoid_the_error() -> None:
    outcome, _ = resolve(cast, (Casting(7, impulse=True),), [1, 1, 3, 5])
    assert outcome == CastOutcome(True, Special.NONE, 8, impulse_used=True)


def test_RA_MEL_04_the_impulse_reroll_never_makes_an_error_itself() -> None:
    # seed 000: Error and Power «происходят в зависимости от выпавших значений на кубиках
    # ... и перед перебросами»; Единый Порыв is the one exception only in that it «позволяет
    # избежать Ужасной Ошибки». A 1,1 on its re-roll is a low total, no Error
    outcome, log = resolve(cast, (Casting(7, impulse=True),), [2, 3, 1, 1])
    assert outcome == CastOutcome(False, Special.NONE, 0, impulse_used=True)
    assert "RA-MEL-02" not in {r for e in log for r in e.rules}
    # nor after an Error: the re-roll lifts it, whatever it shows
    outcome, _ = resolve(cast, (Casting(7, impulse=True),), [1, 1, 1, 1])
    assert outcome.special is Special.NONE and not outcome.success
    # but it never creates Power
    outcome, _ = resolve(cast, (Casting(13, impulse=True),), [2, 3, 6, 6])
    assert outcome.special is Special.NONE and not outcome.success


def test_RA_MEL_04_the_singer_may_accept_the_failure() -> None:
    outcome, _ = resolve(cast, (Casting(7, impulse=True),), [2, 3], answers=[Reroll.ACCEPT])
    assert outcome == CastOutcome(False, Special.NONE, 0)


def test_RA_MEL_05_jamming_two_ones_fail_double_six_succeeds() -> None:
    assert resolve(jam, (Jamming(3, 0),), [1, 1])[0] == JamOutcome(False, JamResult.FAILED)
    assert resolve(jam, (Jamming(20, 0),), [6, 6])[0] == JamOutcome(True, JamResult.JAMMED)
    assert resolve(jam, (Jamming(3, 0, dice=4),), [1, 1, 6, 6])[0].jammed is False
    assert resolve(jam, (Jamming(8, 0),), [3, 5])[0].jammed is True
    assert resolve(jam, (Jamming(9, 0),), [3, 5])[0].jammed is False


def test_RA_MEL_03_monstrous_power_cannot_be_jammed() -> None:
    outcome, _log = resolve(jam, (Jamming(12, 7, monstrous_power=True),), [])
    assert outcome == JamOutcome(False, JamResult.UNJAMMABLE)


def test_RA_MEL_09_lasting_melodies_are_jammed_against_the_difficulty() -> None:
    """Casting total 11, difficulty 7: a jam of 8 succeeds against a lasting Melody."""
    assert resolve(jam, (Jamming(11, 7, lasting=True),), [3, 5])[0].jammed is True
    assert resolve(jam, (Jamming(11, 7, lasting=False),), [3, 5])[0].jammed is False
    power = Jamming(12, 7, lasting=True, monstrous_power=True, later_round=True)
    assert may_jam(power).allowed
    assert not may_jam(Jamming(11, 7, lasting=True), tried_this_round=True).allowed


def test_RA_MEL_06_resistance_d6_at_most_y() -> None:
    assert resolve(resists, (3,), [3])[0] is True
    assert resolve(resists, (3,), [4])[0] is False


def test_RA_MEL_07_templates_fully_under_always_partly_on_four() -> None:
    assert resolve(under_template, (True,), [])[0] is True
    assert resolve(under_template, (False,), [4])[0] is True
    assert resolve(under_template, (False,), [3])[0] is False


def test_RA_MEL_08_one_lasting_melody_per_singer_and_its_end() -> None:
    assert not may_sing(Singer(True, lasting_active=True)).allowed
    assert lasting_ends(True, True, False) is LastingEnd.SINGER_FLED
    assert lasting_ends(True, False, True) is LastingEnd.AT_WILL


def test_RA_MEL_10_no_singing_in_a_fight_or_stupefied() -> None:
    assert not may_sing(Singer(True, in_combat=True)).allowed
    assert not may_sing(Singer(True, stupid=True)).allowed
    assert may_sing(Singer(True)).allowed


def test_RA_ABSENT_01_terrible_error_table() -> None:
    assert resolve(terrible_error, (), [2, 3])[0].wounds == 3
    assert resolve(terrible_error, (), [4])[0].effect is ErrorEffect.SILENCED
    assert resolve(terrible_error, (), [6])[0].effect is ErrorEffect.NOTHING


# -- exact odds against brute force -----------------------------------------------


def brute_cast(c: Casting) -> dict[CastOutcome, Fraction]:
    """Every ordered face of the casting dice and of a re-roll, by hand (default policy:
    an ordinary re-roll of a plain failure first, else Единый Порыв)."""
    counts: Counter[CastOutcome] = Counter()
    total = 0
    for first in itertools.product(range(1, 7), repeat=c.dice):
        for again in itertools.product(range(1, 7), repeat=c.dice):
            total += 1
            ones, sixes = first.count(1), first.count(6)
            special = (
                Special.TERRIBLE_ERROR
                if ones >= 2
                else Special.MONSTROUS_POWER
                if sixes >= 2
                else Special.NONE
            )
            score = sum(first) + c.modifier
            ok = special is Special.MONSTROUS_POWER or (
                special is Special.NONE and score >= c.difficulty
            )
            used = False
            if not ok and c.reroll and special is Special.NONE:
                score = sum(again) + c.modifier
                ok = score >= c.difficulty
            elif not ok and c.impulse:
                used = True
                score = sum(again) + c.modifier
                special = Special.NONE  # its dice judged for nothing but the total
                ok = score >= c.difficulty
            counts[CastOutcome(ok, special, score if ok else 0, used)] += 1
    return {o: Fraction(n, total) for o, n in counts.items()}


@pytest.mark.parametrize(
    "c",
    [
        Casting(7),
        Casting(9, reroll=True),
        Casting(8, impulse=True),
        Casting(10, dice=3),
        Casting(6, dice=3, modifier=-1, reroll=True, impulse=True),
    ],
)
def test_RA_MEL_01_exact_odds_match_brute_force(c: Casting) -> None:
    assert dict(OddsDriver().distribution(cast, (c,)).items()) == brute_cast(c)


@pytest.mark.parametrize(
    "j",
    [Jamming(8, 0), Jamming(0, 7, lasting=True), Jamming(10, 0, dice=3, modifier=1)],
)
def test_RA_MEL_05_exact_odds_match_brute_force(j: Jamming) -> None:
    counts: Counter[bool] = Counter()
    faces = list(itertools.product(range(1, 7), repeat=j.dice))
    for dice in faces:
        if dice.count(1) >= 2:
            counts[False] += 1
        elif dice.count(6) >= 2:
            counts[True] += 1
        else:
            counts[sum(dice) + j.modifier >= j.needed] += 1
    exact = OddsDriver().distribution(jam, (j,))
    got = {o.jammed: p for o, p in exact.items()}
    assert got == {k: Fraction(n, len(faces)) for k, n in counts.items()}


def test_RA_MEL_02_kubik_odds_of_a_difficulty_7_melody() -> None:
    """2D6 against 7: an Error 1/36, Power 1/36; the rest succeed on 7+ (21/36 of all
    faces, less the double six counted as Power)."""
    odds = api.odds("apocalypse.melody", {"difficulty": 7})
    rows = [
        (o["outcome"]["success"], o["outcome"]["special"], Fraction(o["probability"]))
        for o in odds["outcomes"]
    ]
    error = sum(p for _, s, p in rows if s == "terrible_error")
    power = sum(p for _, s, p in rows if s == "monstrous_power")
    success = sum(p for ok, _, p in rows if ok)
    assert (error, power, success) == (Fraction(1, 36), Fraction(1, 36), Fraction(21, 36))


@pytest.mark.parametrize(
    "casting",
    [
        Casting(12, dice=2, modifier=-1, reroll=True, impulse=True),
        Casting(9, dice=3, modifier=1, reroll=True, impulse=True),
        Casting(7, dice=2, impulse=True),
    ],
)
def test_RA_MEL_04_rerolled_casting_odds_match_brute_force_under_every_policy(
    casting: Casting,
) -> None:
    """The re-roll is a step on the first roll's kind (its total alone counts): the exact
    odds, and the optimal choice between Единый Порыв, a re-roll and accepting, equal
    every die walked flat."""
    args = (casting, "a")
    assert dict(OddsDriver().distribution(cast, args)) == brute_force(cast, args)
    goals = objectives_for(cast, args)
    assert goals is not None
    sides, node = Optimal().solution(cast, args, OddsCache())
    dist, value, _ = brute_optimal(cast, args, as_worths(goals))
    assert node.dist == dist
    assert {s: node.value[i] for i, s in enumerate(sides)} == value
