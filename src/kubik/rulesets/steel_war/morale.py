"""Steel War morale (боевой дух): the morale test.

The test is the game's basic form — roll the squad's quality die and beat
leadership + threat — with a second threshold: rolling half of what was needed
or less drops two levels instead of one (SW-MOR-05).
"""

from __future__ import annotations

from dataclasses import dataclass

from kubik.dice import Die
from kubik.engine import Procedure, Roll, emit, msg


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
    return 2 if 2 * roll <= target else 1


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
