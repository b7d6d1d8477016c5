"""Steel War «расподавление» (unsuppressing, SW-SUP-03): a commander test on the quality
die that removes one suppression marker, at most twice an activation, and whether a
squad may spend an action on it now.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from kubik.core.errors import InputError
from kubik.engine import Procedure, Verdict, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import Die
from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.core import leadership_test
from kubik.rulesets.steel_war.situation import UnitSituation, all_of, basic_verdict
from kubik.rulesets.steel_war.suppression import is_suppressed, remove_marker


@cache
def _data() -> Mapping[str, Any]:
    return load_ruleset_data("steel_war")


def unsuppress_attempts() -> int:
    """How many times per activation a squad may try to unsuppress (SW-SUP-03: twice)."""
    return int(_data()["unsuppress"]["attempts_per_activation"])


@dataclass(frozen=True, slots=True)
class UnsuppressOutcome:
    """How many markers the attempts removed, and how many remain."""

    removed: int
    markers: int


def unsuppress(
    quality: Die, leadership: int, markers: int, attempts: int
) -> Procedure[UnsuppressOutcome]:
    """Up to ``attempts`` unsuppress actions, each removing a marker on quality die > leadership.

    A commander test (threat 0, SW-SUP-03); attempts stop once no marker is left.
    """
    if not 1 <= attempts <= unsuppress_attempts():
        raise InputError(f"attempts: 1..{unsuppress_attempts()} unsuppress actions per activation")
    threat = int(_data()["unsuppress"]["threat"])
    left = markers
    for attempt in range(1, attempts + 1):
        if left == 0:
            break
        passed, roll = yield from leadership_test(
            quality,
            leadership,
            threat,
            msg("steel_war.unsuppress.roll", attempt=attempt, target=leadership + threat),
            roller="target",
            rules=("SW-SUP-03",),
        )
        if passed:
            left = remove_marker(left)
        yield emit(
            "steel_war.unsuppress.result",
            rules=("SW-SUP-03", "SW-CORE-04") if attempt > 1 else "SW-SUP-03",
            attempt=attempt,
            roll=roll,
            leadership=leadership,
            result=msg("steel_war.unsuppress.passed")
            if passed
            else msg("steel_war.unsuppress.failed"),
            markers=left,
        )
    return UnsuppressOutcome(markers - left, left)


@decides()
@lru_cache(maxsize=4096)  # (a menu asks it of every situation again)
def may_unsuppress(unit: UnitSituation) -> Verdict:
    """May ``unit`` spend an action on «расподавление» now (SW-SUP-03)?

    It must carry a marker; one action, at most twice an activation; allowed while
    suppressed, of course (SW-SUP-01), and at any morale level that allows it (SW-MOR-01).
    """
    return all_of(
        basic_verdict(unit, ActionType.UNSUPPRESS),
        Verdict.of(
            is_suppressed(unit.markers), msg("steel_war.permission.no_markers"), "SW-SUP-03"
        ),
    )
