"""Observation (наблюдение): a documented default, not from the seed (SW-ABSENT-03).

The seed names the action (suppressed squads may still observe; psionics roll
their psi die instead of "the quality die or the observation-means die", against
"the range die") but never describes it. Default: one action; the observer rolls
its quality die (or observation-means die) against the target's range die
computed as for shooting (SW-FIRE-09, by the caller); strictly higher spots the
target until the end of the turn.
"""

from __future__ import annotations

from dataclasses import dataclass

from kubik.data import load_ruleset_data
from kubik.dice import Die
from kubik.engine import Procedure, Roll, Verdict, emit, msg
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.situation import UnitSituation, all_of, basic_verdict


@dataclass(frozen=True, slots=True)
class ObservationOutcome:
    """Whether the target was spotted."""

    spotted: bool


def spots(observer_roll: int, target_roll: int) -> bool:
    """Strictly higher spots; a tie favours the target, as in shooting.

    >>> spots(5, 4), spots(4, 4)
    (True, False)
    """
    return observer_roll > target_roll


def spotting_lasts() -> str:
    """How long a spotted target stays spotted (default: until the end of the turn)."""
    return str(load_ruleset_data("steel_war")["observation"]["lasts"])


def observe(observer: Die, target: Die) -> Procedure[ObservationOutcome]:
    """The observer's die, then the target's range die; higher observer spots."""
    (seen,) = yield Roll(
        observer, msg("steel_war.observe.roll"), roller="observer", rules="SW-ABSENT-03"
    )
    (hidden,) = yield Roll(
        target, msg("steel_war.observe.range_roll"), roller="target", rules="SW-ABSENT-03"
    )
    spotted = spots(seen, hidden)
    yield emit(
        "steel_war.observe.result",
        rules="SW-ABSENT-03",
        observer=observer,
        observer_roll=seen,
        target=target,
        target_roll=hidden,
        spotted=spotted,
    )
    return ObservationOutcome(spotted)


def may_observe(unit: UnitSituation) -> Verdict:
    """May ``unit`` spend an action on «наблюдение» (SW-ABSENT-03 default: one action)?
    One of a suppressed squad's five actions (SW-SUP-01)."""
    return all_of(basic_verdict(unit, ActionType.OBSERVE), Verdict.allow("SW-ABSENT-03"))
