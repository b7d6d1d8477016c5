"""Steel War morale (боевой дух): the morale test and what it does to the level.

The test is the game's basic form — roll the squad's quality die and beat
leadership + threat — with a second threshold: rolling half of what was needed
or less drops two levels instead of one (SW-MOR-05).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from kubik.data import load_ruleset_data
from kubik.dice import Die
from kubik.engine import Call, Procedure, Roll, emit, msg
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


def morale_test(quality: Die, leadership: int, threat: int) -> Procedure[MoraleTestOutcome]:
    """Roll the quality die against leadership + threat; rolled even when hopeless."""
    target = leadership + threat
    (roll,) = yield Roll(quality, msg("steel_war.morale_test.roll", target=target), roller="target")
    drop = morale_drop(roll, target)
    yield emit(
        "steel_war.morale_test.result",
        die=quality,
        roll=roll,
        leadership=leadership,
        threat=threat,
        target=target,
        drop=drop,
    )
    return MoraleTestOutcome(drop)


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
        yield emit("steel_war.morale_event.no_test", level=level)
        return MoraleEventOutcome(0, level)
    outcome: MoraleTestOutcome = yield Call(morale_test, (quality, leadership, threat))
    after = apply_drop(level, outcome.drop)
    yield emit("steel_war.morale_event.level", before=level, after=after, drop=outcome.drop)
    return MoraleEventOutcome(outcome.drop, after)
