"""One exact odds question is bounded in steps of work (:mod:`kubik.engine.work`,
:data:`kubik.core.limits.ODDS_STEPS`): a question too large to answer within a second is
refused as soon as it is known to be, with one line naming the limit, the same way every
time; the questions players ask are answered as before, and nothing outside an odds
question (battles, bots) counts steps at all."""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import pytest

from kubik import api
from kubik.core import limits
from kubik.core.errors import InputError, TooLargeError
from kubik.engine.dice import D6
from kubik.engine.odds import OddsCache, OddsDriver
from kubik.engine.requests import Call, Roll
from kubik.engine.work import (
    BRANCH_STEPS,
    POSITION_STEPS,
    REPLAYED_STEPS,
    TooLarge,
    Work,
    bounded,
    current,
)
from tests.bots.cli_harness import Kubik, kubik, one_line_error, toy_home

__all__ = ["kubik", "toy_home"]  # fixtures, used by name below

HERO = {"fight": 5, "attacks": 3, "strength": 4, "toughness": 4, "wounds": 3}
HERO |= {"fame": 3, "fortune": 3}
RIVAL = {"fight": 5, "attacks": 2, "strength": 4, "toughness": 4, "wounds": 2}
RIVAL |= {"fame": 2, "fortune": 2}


def heroes(rivals: int) -> dict[str, Any]:
    """A Hero of the game's profile against ``rivals`` Heroes (old_west.combat)."""
    return {"a": [HERO], "b": [RIVAL] * rivals}


def at_the_edge(rivals: int) -> dict[str, Any]:
    """A Hero against ``rivals`` Heroes of 3 Wounds, Fame and Fortune at a 20" drop:
    each one's fall, Fortune and wounds multiply the outcomes (old_west.combat)."""
    rival = {**RIVAL, "wounds": 3, "fame": 3, "fortune": 3, "cliff_drop": 20}
    return {"a": [HERO], "b": [rival] * rivals}


def two_dice():
    first = yield Roll(D6, "first")
    second = yield Roll(D6, "second")
    return first[0] + second[0]


def twice():
    one = yield Call(two_dice, ())
    other = yield Call(two_dice, ())
    return one + other


def test_work_counts_steps_and_refuses_past_its_limit() -> None:
    work = Work(10)
    work.spend(4)
    work.outcomes(2, 6)  # two outcomes over a short total: a step each
    assert work.spent == 6 and work.left == 4
    work.outcomes(1, 1 << 400)  # a weight of 400 bits: one step and two for its length
    assert work.spent == 9
    with pytest.raises(TooLarge) as refused:
        work.spend(2)
    assert refused.value.limit == 10 and "10 steps" in str(refused.value)


def test_steps_are_counted_only_inside_a_bound() -> None:
    assert current() is None
    with bounded(10**6) as work:
        assert current() is work
        OddsDriver(cache=OddsCache()).counted(twice, ())
        spent = work.spent
    assert current() is None
    # two_dice: 36 branches (the first run, 5 more first dice, then 5 more second dice
    # after each of the 6), 30 of them replaying one answer, one outcome weighed at each
    # end, and 7 answers given on the way (the first run's two, then one in each of the 5
    # branches of the first die); twice the same over the 11 sums of a call: 1 + 10 +
    # 11 * 10 branches, 110 replaying one answer, 121 outcomes, 2 + 10 answers on the way
    two = 36 * BRANCH_STEPS + (30 + 7) * REPLAYED_STEPS + 36
    both = 121 * BRANCH_STEPS + (110 + 12) * REPLAYED_STEPS + 121
    assert spent == two + both
    with bounded(spent) as again:  # the same work from a cold memo: the same steps
        OddsDriver(cache=OddsCache()).counted(twice, ())
    assert again.left == 0
    with pytest.raises(TooLarge), bounded(spent - 1):
        OddsDriver(cache=OddsCache()).counted(twice, ())


def test_a_memoised_answer_costs_no_steps() -> None:
    cache = OddsCache()
    OddsDriver(cache=cache).counted(twice, ())
    with bounded(1) as work:
        found = OddsDriver(cache=cache).distribution(twice, ())
    assert work.spent == 0 and found[4] == Fraction(1, 1296)  # four ones


def test_the_solver_counts_its_positions() -> None:
    before = api.has_decisions("old_west.combat", heroes(1))
    assert before
    api.clear_cache()
    with bounded(10**9) as work:
        api.exact_distribution("old_west.combat", heroes(1), "optimal")
    # the answer counted inside a bound of its own as well (exact_work): the outer one
    # sees none of it, as a thread of its own would
    assert work.spent == 0
    from kubik.engine.expectimax import Solver

    solver = Solver(OddsCache(), ("a", "b"))
    assert solver.work is None
    with bounded(10**9) as work:
        solver = Solver(OddsCache(), ("a", "b"))
        solver._visit()
    assert work.spent == POSITION_STEPS


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_question_too_large_is_refused_at_once_naming_the_limit(lang: str) -> None:
    api.clear_cache()
    start = time.process_time()
    with pytest.raises(TooLargeError) as refused:
        api.odds("old_west.combat", heroes(4), policy="optimal")
    assert time.process_time() - start < 5  # about a second; minutes before the bound
    error = refused.value
    assert isinstance(error, InputError)  # the one-line kind every caller already shows
    text = error.text(lang)
    assert "\n" not in text and text.startswith("input: ")
    # under the optimal policy an estimate would solve each decision as it comes (longer
    # than the exact answer): another policy is what helps
    assert "old_west.combat" in text and "--policy default" in text
    assert "--simulate" not in text
    steps = f"{limits.ODDS_STEPS:,}"  # 1,600,000; in Russian 1 600 000
    assert (steps if lang == "en" else steps.replace(",", "\xa0")) in text
    assert ("steps of exact work" in text) if lang == "en" else ("шагов точного счёта" in text)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_question_too_large_under_any_policy_suggests_an_estimate(lang: str) -> None:
    api.clear_cache()
    assert len(api.odds("old_west.combat", at_the_edge(4))["outcomes"]) > 2000  # four answer
    with pytest.raises(TooLargeError) as refused:
        api.odds("old_west.combat", at_the_edge(5))
    text = refused.value.text(lang)
    assert "\n" not in text and "--simulate N" in text and "--policy" not in text
    estimate = api.odds("old_west.combat", at_the_edge(5), simulate=1000)
    assert sum(o["count"] for o in estimate["outcomes"]) == 1000


def test_a_refused_question_is_refused_again_and_leaves_the_memo_as_it_was() -> None:
    api.clear_cache()
    api.odds("old_west.combat", heroes(1), policy="optimal")
    from kubik.api.probabilities import _CACHE

    kept = _CACHE.mark()
    for _ in range(2):
        with pytest.raises(TooLargeError):
            api.odds("old_west.combat", heroes(4), policy="optimal")
        assert _CACHE.mark() == kept  # what it worked out before the bound is forgotten
    assert len(api.odds("old_west.combat", heroes(1), policy="optimal")["outcomes"]) == 62


def test_every_way_of_asking_exactly_is_bounded() -> None:
    api.clear_cache()
    with pytest.raises(TooLargeError):
        api.exact_distribution("old_west.combat", heroes(4), "optimal")
    with pytest.raises(TooLargeError):
        api.compare_policies("old_west.combat", heroes(4))
    # an estimate is not exact work: it answers
    found = api.odds("old_west.combat", at_the_edge(5), simulate=200)
    assert found["exact"] is False and sum(o["count"] for o in found["outcomes"]) == 200


def test_the_questions_players_ask_are_answered() -> None:
    """A Hero against two Heroes under the optimal policy, and a horde of sixty in a
    first round of close combat with the game's profiles: well inside the bound."""
    api.clear_cache()
    assert len(api.odds("old_west.combat", heroes(2), policy="optimal")["outcomes"]) == 188
    profile = {"weapon_skill": 3, "strength": 3, "toughness": 3, "wounds": 1}
    profile |= {"initiative": 3, "attacks": 1, "leadership": 7, "armour_save": 5}
    horde = {"troops": profile, "models": 60, "files": 10}
    answer = api.odds("fantasy.close_combat", {"a": {**horde, "charging": True}, "b": horde})
    assert answer["exact"] is True and len(answer["outcomes"]) > 100


def test_a_limit_the_readme_names(kubik: Kubik) -> None:
    assert limits.LIMITS["odds_steps"].value == limits.ODDS_STEPS


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_terminal_refuses_it_in_one_line(kubik: Kubik, lang: str) -> None:
    import json

    api.clear_cache()
    done = kubik(
        "odds",
        "old_west.combat",
        "--input",
        json.dumps(heroes(4)),
        "--policy",
        "optimal",
        "--lang",
        lang,
    )
    if lang == "en":
        line = one_line_error(done)
        assert "steps of exact work" in line
    else:
        assert done.code == 2 and "Traceback" not in done.err, done
        (line,) = done.err.strip().splitlines()
        assert line.startswith("ошибка: ") and "шагов точного счёта" in line
    assert "--policy default" in line


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_procedure_shows_the_work_its_questions_may_take(kubik: Kubik, lang: str) -> None:
    done = kubik("procedures", "fantasy.close_combat", "--lang", lang)
    assert done.code == 0, done.err
    text = " ".join(done.out.split())
    steps = f"{limits.ODDS_STEPS:,}"
    if lang == "en":
        assert f"Exact odds: at most {steps} steps of work a question" in text
    else:
        # (the words were joined again on any space: the no-break ones between digits too)
        assert f"не больше {steps.replace(',', ' ')} шагов счёта на вопрос" in text
