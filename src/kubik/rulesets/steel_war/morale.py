"""Steel War morale (боевой дух): the morale test and what it does to the level.

The test is the game's basic form — roll the squad's quality die and beat
leadership + threat — with a second threshold: rolling half of what was needed
or less drops two levels instead of one (SW-MOR-05).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from kubik.engine import Call, Procedure, Roll, emit, msg
from kubik.engine.dice import Die
from kubik.engine.requests import RuleIds
from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war.core import test_form_rules
from kubik.rulesets.steel_war.morale_levels import MoraleLevel, apply_drop


@dataclass(frozen=True, slots=True)
class MoraleTestOutcome:
    """How many morale levels the squad drops: 0, 1 or 2."""

    drop: int


def morale_drop(roll: int, target: int) -> int:
    """Levels lost for a morale-test ``roll`` against ``target`` = L + T (SW-MOR-05).

    Passed iff roll > target; roll ≤ target/2 (2·roll ≤ target) loses two levels.

    >>> morale_drop(6, 8), morale_drop(4, 8), morale_drop(9, 8)
    (1, 2, 0)
    """
    if roll > target:
        return 0
    return 2 if _two_levels_divisor() * roll <= target else 1


@cache
def _two_levels_divisor() -> int:
    return int(load_ruleset_data("steel_war")["morale_test_drop"]["two_levels_divisor"])


def morale_test(
    quality: Die, leadership: int, threat: int, rules: RuleIds = ()
) -> Procedure[MoraleTestOutcome]:
    """Roll the quality die against leadership + threat; rolled even when hopeless.

    ``rules``: the rules that called for the test and made its threat (for the log).
    """
    target = leadership + threat
    applied = ("SW-MOR-05", *rules)
    (roll,) = yield Roll(
        quality,
        msg("steel_war.morale_test.roll", target=target, leadership=leadership, threat=threat),
        roller="target",
        rules=test_form_rules(applied),
    )
    drop = morale_drop(roll, target)
    yield emit(
        "steel_war.morale_test.result",
        rules=applied,
        die=quality,
        roll=roll,
        leadership=leadership,
        threat=threat,
        target=target,
        drop=drop,
    )
    return MoraleTestOutcome(drop)


#: The threat table's rules (SW-MOR-06, combined by SW-MOR-07, its column the side's
#: motivation, SW-MOR-03): what a morale event's threat comes from
#: (:func:`~kubik.rulesets.steel_war.threat.threat_level`).
THREAT_TABLE_RULES: RuleIds = ("SW-MOR-06", "SW-MOR-07", "SW-MOR-03")


@dataclass(frozen=True, slots=True)
class MoraleEventOutcome:
    """The squad's morale level after an event, and how many levels it lost."""

    drop: int
    level: MoraleLevel


def morale_event(
    quality: Die, leadership: int, level: MoraleLevel, threat: int | None
) -> Procedure[MoraleEventOutcome]:
    """A morale-test event applied to the squad's level (SW-MOR-05, SW-MOR-01).

    ``threat`` is :func:`~kubik.rulesets.steel_war.threat.threat_level`'s result:
    ``None`` means the event starts no test, so nothing is rolled.
    """
    if threat is None:
        yield emit("steel_war.morale_event.no_test", rules=THREAT_TABLE_RULES, level=level)
        return MoraleEventOutcome(0, level)
    outcome: MoraleTestOutcome = yield Call(
        morale_test, (quality, leadership, threat, THREAT_TABLE_RULES)
    )
    after = apply_drop(level, outcome.drop)
    yield emit(
        "steel_war.morale_event.level",
        rules=("SW-MOR-01", "SW-MOR-05"),
        before=level,
        after=after,
        drop=outcome.drop,
    )
    return MoraleEventOutcome(outcome.drop, after)
