"""Blows and volleys are added up one blow (one model's shots) at a time for the exact
odds (:func:`~kubik.rulesets.fantasy.attacks.blow_by_blow`,
:func:`~kubik.rulesets.fantasy.shooting.shot_by_shot`): the same odds as the pools
enumerated as written, and die by die, with every special rule that changes a blow
(FB-ABSENT-01, FB-ABSENT-03..05, FB-SR-04, FB-SR-06, FB-SR-09..13, FB-PSY-06,
FB-SHOOT-04..06, FB-SR-16); the duel's strikes read only the wounds that kill and the
Overkill beyond them (FB-CHAL-03)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import kubik.api as api
from kubik.core.errors import InputError
from kubik.engine import OddsDriver
from kubik.engine.runs import RUNS_KEY
from kubik.rulesets.fantasy.attacks import Blows, attacks
from kubik.rulesets.fantasy.challenge import Duel, duel_round
from kubik.rulesets.fantasy.profiles import Fighter
from kubik.rulesets.fantasy.shooting import Volley, volley
from tests.conftest import brute_force

BLOW_RULES = (
    "poisoned_attacks",
    "killing_blow",
    "hatred",
    "always_strikes_first",
    "armour_piercing",
    "flaming_attacks",
    "devastating_charge",
)
TARGET_RULES = ("flammable", "ethereal", "regeneration")
SAVES = st.none() | st.integers(2, 6)


@contextmanager
def as_written(*procedures: Any) -> Iterator[None]:
    """The procedures' odds enumerated as written: pool by pool, no runs added up."""
    splits = [(p, getattr(p, RUNS_KEY)) for p in procedures]
    for procedure, _ in splits:
        delattr(procedure, RUNS_KEY)
    try:
        yield
    finally:
        for procedure, split in splits:
            setattr(procedure, RUNS_KEY, split)


@st.composite
def blows(draw: st.DrawFn, most: int = 4) -> Blows:
    return Blows(
        attacks=draw(st.integers(0, most)),
        weapon_skill=draw(st.integers(1, 10)),
        strength=draw(st.integers(1, 10)),
        target_weapon_skill=draw(st.integers(1, 10)),
        target_toughness=draw(st.integers(1, 10)),
        target_armour_save=draw(SAVES),
        target_ward_save=draw(SAVES),
        rules=frozenset(draw(st.sets(st.sampled_from(BLOW_RULES)))),
        target_rules=frozenset(draw(st.sets(st.sampled_from(TARGET_RULES)))),
        round_number=draw(st.integers(1, 2)),
        charging=draw(st.booleans()),
        initiative=draw(st.integers(1, 10)),
        target_initiative=draw(st.integers(1, 10)),
        target_regeneration=draw(SAVES),
        target_wounds=draw(st.integers(1, 4)),
        auto_hit=draw(st.booleans()),
        target_wounds_left=draw(st.none() | st.integers(1, 8)),
        target_rides=draw(st.booleans()),
    )


@settings(max_examples=60, deadline=None)
@given(blows(most=5))
def test_blows_added_one_by_one_are_the_pools_as_written(b: Blows) -> None:
    added = OddsDriver().distribution(attacks, (b,))
    with as_written(attacks):
        written = OddsDriver().distribution(attacks, (b,))
    assert dict(added) == dict(written)


@settings(max_examples=12, deadline=None)
@given(blows(most=1))
def test_blows_added_one_by_one_are_the_dice_one_by_one(b: Blows) -> None:
    added = OddsDriver().distribution(attacks, (b,))
    assert dict(added) == brute_force(attacks, (b,), limit=400_000)


@st.composite
def volleys(draw: st.DrawFn) -> Volley:
    return Volley(
        shots=draw(st.integers(0, 3)),
        overhead_shots=draw(st.integers(0, 2)),
        ballistic_skill=draw(st.integers(1, 6)),
        strength=draw(st.integers(1, 10)),
        target_toughness=draw(st.integers(1, 10)),
        target_armour_save=draw(SAVES),
        target_ward_save=draw(SAVES),
        target_regeneration=draw(SAVES),
        target_wounds=draw(st.integers(1, 3)),
        rules=frozenset(draw(st.sets(st.sampled_from((*BLOW_RULES, "sniper"))))),
        target_rules=frozenset(draw(st.sets(st.sampled_from(TARGET_RULES)))),
        moved=draw(st.booleans()),
        long_range=draw(st.booleans()),
        cover=draw(st.sampled_from(("none", "soft", "hard"))),
        multiple=draw(st.sampled_from((1, 2))),
        ridden_monster=draw(st.booleans()),
        rider_toughness=draw(st.integers(1, 10)),
        rider_armour_save=draw(SAVES),
        rider_wounds=draw(st.integers(1, 3)),
    )


@settings(max_examples=40, deadline=None)
@given(volleys())
def test_volleys_added_model_by_model_are_the_pools_as_written(v: Volley) -> None:
    added = OddsDriver().distribution(volley, (v,))
    with as_written(volley, attacks):
        written = OddsDriver().distribution(volley, (v,))
    assert dict(added) == dict(written)


def test_a_volley_at_a_ridden_monster_die_by_die() -> None:
    """Two shots, one overhead, at a ridden monster with a 1-Wound rider: every die."""
    v = Volley(
        shots=1,
        overhead_shots=1,
        ballistic_skill=4,
        strength=4,
        target_toughness=4,
        rules=frozenset({"killing_blow"}),
        ridden_monster=True,
        rider_toughness=3,
        rider_wounds=1,
        target_wounds=3,
    )
    assert dict(OddsDriver().distribution(volley, (v,))) == brute_force(volley, (v,))


def test_a_duel_reads_the_wounds_that_kill_and_the_overkill_as_before() -> None:
    """A Killing blow hero at a 10-Wound foe with one Wound left: the blow's 10 wounds
    pass the Overkill's most, and the duel's odds with each strike read up to that
    most equal the duel's every die (FB-CHAL-03, FB-SR-13)."""
    hero = Fighter(ws=5, s=4, t=4, w=2, i=5, a=1, rules=frozenset({"killing_blow"}))
    foe = Fighter(ws=4, s=5, t=5, w=10, i=4, a=1, armour_save=6)
    duel = Duel(hero, foe, 2, 1, 1, True)
    dist = OddsDriver().distribution(duel_round, (duel,))
    assert dict(dist) == brute_force(duel_round, (duel,))
    assert any(o.overkill > 0 for o in dist)


def _cpu(name: str, question: dict[str, Any]) -> float:
    api.clear_cache()
    start = time.process_time()
    api.odds(name, question)
    return time.process_time() - start


def test_the_issues_sixty_poisoned_killing_blows_answer_at_once() -> None:
    """Issue 31: 60 Poisoned Killing blows with Hatred (33 s before) now in well
    under a second of CPU, exactly."""
    question = {
        "attacks": 60,
        "weapon_skill": 4,
        "strength": 4,
        "target_weapon_skill": 4,
        "target_toughness": 4,
        "target_armour_save": 5,
        "target_ward_save": 5,
        "target_wounds": 3,
        "special_rules": ["poisoned_attacks", "killing_blow", "hatred"],
    }
    assert _cpu("fantasy.attacks", question) < 1.0
    answer = api.odds("fantasy.attacks", question)
    assert answer["exact"] is True
    total = sum(
        (int(n) / int(d) for n, d in (o["probability"].split("/") for o in answer["outcomes"])),
        0.0,
    )
    assert abs(total - 1) < 1e-9
    assert json.dumps(answer)


def test_one_blow_at_a_capped_target_is_capped() -> None:
    """A Killing blow at a 3-Wound model with 1 Wound left takes that one (FB-SR-13)."""
    b = Blows(
        attacks=1,
        weapon_skill=4,
        strength=4,
        target_weapon_skill=4,
        target_toughness=4,
        target_wounds=3,
        target_wounds_left=1,
        rules=frozenset({"killing_blow"}),
    )
    dist = OddsDriver().distribution(attacks, (b,))
    assert {o.wounds for o in dist} == {0, 1}
    assert dist == OddsDriver().distribution(attacks, (replace(b, target_wounds=1),))


def _volley_question(**fields: Any) -> dict[str, Any]:
    return {
        "ballistic_skill": 3,
        "strength": 4,
        "target_toughness": 4,
        "target_wounds": 3,
        "special_rules": ["killing_blow", "volley_fire"],
        **fields,
    }


def test_a_volley_of_more_than_sixty_shots_is_refused_in_one_line() -> None:
    """The exact odds answer in a second up to 60 shots (models shooting × shots each,
    Volley fire's overhead models too); more is refused naming ``ranks`` and the limit,
    in English and Russian."""
    try:
        api.odds("fantasy.shooting", _volley_question(ranks=[20, 20, 20], multiple=2))
    except InputError as error:
        assert error.text("en") == (
            "ranks: 100 shots in one volley (models shooting × shots each); at most 60"
        )
        assert error.text("ru") == (
            "ranks: 100 выстрелов за один залп (стреляющие модели × выстрелы каждой); "
            "можно не больше 60"
        )
    else:
        raise AssertionError("a volley of 100 shots was not refused")
    answer = api.odds("fantasy.shooting", _volley_question(ranks=[10, 10, 20], multiple=2))
    assert answer["exact"] is True


def test_the_largest_volley_allowed_is_exact() -> None:
    """Issue 31: the largest volley allowed, ten models a rank in ten ranks with Volley
    fire and two shots each (30 models, 60 shots), Killing blows at a 10-Wound ridden
    monster with a 10-Wound rider: exact, whole, the rider losing at most his 10 Wounds
    (its time is the worst-case bench's, ``python -m bench worst``)."""
    question = _volley_question(
        ranks=[5] * 10,
        multiple=2,
        ballistic_skill=10,
        strength=10,
        target_toughness=10,
        target_wounds=10,
        target_armour_save=6,
        target_ward_save=6,
        special_rules=["killing_blow", "volley_fire", "flaming_attacks", "poisoned_attacks"],
        target_special_rules=["flammable"],
        ridden_monster=True,
        rider_toughness=10,
        rider_wounds=10,
    )
    answer = api.odds("fantasy.shooting", question)
    assert answer["exact"] is True
    outcomes = [(o["outcome"], Fraction(o["probability"])) for o in answer["outcomes"]]
    assert sum(p for _, p in outcomes) == 1
    assert max(o["rider_wounds"] for o, _ in outcomes) == 10
