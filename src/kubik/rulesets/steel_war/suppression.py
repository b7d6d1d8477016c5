"""Steel War suppression (подавление): markers, what a suppressed unit may do, unsuppressing.

A fire action that beats the range die with one die or more places a suppression
marker (SW-FIRE-01), at most three per unit (SW-SUP-02). A suppressed infantry
squad may only observe, communicate, reorganise in cover, unsuppress or move away
from the enemy (SW-SUP-01); unsuppressing is a commander test on the quality die
that removes one marker (SW-SUP-03).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from kubik.data import load_ruleset_data
from kubik.dice import Die
from kubik.engine import Procedure, Verdict, emit, msg
from kubik.errors import InputError
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.core import leadership_test

if TYPE_CHECKING:
    from kubik.rulesets.steel_war.situation import UnitSituation


@cache
def _data() -> Mapping[str, Any]:
    return load_ruleset_data("steel_war")


def max_markers() -> int:
    """The most suppression markers a unit can carry (SW-SUP-02: three)."""
    return int(_data()["suppression"]["max_markers"])


def add_marker(markers: int) -> int:
    """Markers after one more suppression result; past three nothing is added (SW-SUP-02).

    >>> add_marker(0), add_marker(2), add_marker(3)
    (1, 3, 3)
    """
    if markers < 0:
        raise InputError("markers: must be 0 or more")
    return min(markers + 1, max_markers())


def remove_marker(markers: int) -> int:
    """Markers after a successful unsuppress: one fewer, never below zero (SW-SUP-03).

    >>> remove_marker(2), remove_marker(0)
    (1, 0)
    """
    return max(markers - int(_data()["unsuppress"]["markers_removed"]), 0)


def is_suppressed(markers: int) -> bool:
    """A unit with at least one marker is suppressed (SW-SUP-01)."""
    return markers > 0


@lru_cache(maxsize=1024)  # pure: asked on every menu and replay, of the same few values
def suppression_verdict(
    action: ActionType,
    markers: int,
    *,
    machine: bool = False,
    in_cover: bool = False,
    away_from_enemy: bool = False,
) -> Verdict:
    """What suppression lets a unit with ``markers`` do (SW-SUP-01).

    A suppressed infantry squad may only observe, communicate, reorganise (in cover
    only), unsuppress, or move away from the enemy. A suppressed vehicle or robot
    (``machine``, техника) may do everything that does not need its crew or
    passengers to get out: it may fire and move, but not let anyone off or unload.
    Not suppressed: suppression forbids nothing (no rule applies).

    >>> suppression_verdict(ActionType.SHOOT, 1).allowed
    False
    >>> suppression_verdict(ActionType.SHOOT, 1, machine=True).allowed
    True
    >>> suppression_verdict(ActionType.MOVE, 2, away_from_enemy=True).rules
    ('SW-SUP-01',)
    """
    if not is_suppressed(markers):
        return Verdict.allow()
    table = _data()["suppression"]
    if machine:
        if action.value in table["crew_out_actions"]:
            return Verdict.forbid(msg("steel_war.permission.suppressed_vehicle"), "SW-SUP-01")
        return Verdict.allow("SW-SUP-01")
    allowed = table["allowed_infantry"]
    if action in MOVE_ACTIONS:
        if "move_away" in allowed and away_from_enemy:
            return Verdict.allow("SW-SUP-01")
        return Verdict.forbid(msg("steel_war.permission.suppressed_move"), "SW-SUP-01")
    if action.value not in allowed:
        return Verdict.forbid(msg("steel_war.permission.suppressed"), "SW-SUP-01")
    if action is ActionType.REORGANISE and table["reorganise_only_in_cover"] and not in_cover:
        return Verdict.forbid(
            msg("steel_war.permission.suppressed_reorganise"), "SW-SUP-01", "SW-REORG-01"
        )
    return Verdict.allow("SW-SUP-01")


#: Actions that move a squad: a suppressed one may take them only away from the enemy.
MOVE_ACTIONS = frozenset({ActionType.MOVE, ActionType.COMBAT_MOVE, ActionType.MARCH})


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
            msg(
                "steel_war.unsuppress.roll",
                attempt=attempt,
                target=leadership + threat,
                leadership=leadership,
            ),
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


@lru_cache(maxsize=4096)  # (a menu asks it of every situation again)
def may_unsuppress(unit: UnitSituation) -> Verdict:
    """May ``unit`` spend an action on «расподавление» now (SW-SUP-03)?

    It must carry a marker; one action, at most twice an activation; allowed while
    suppressed, of course (SW-SUP-01), and at any morale level that allows it (SW-MOR-01).
    """
    # imported here: the situation module needs this one (suppression_verdict) first
    from kubik.rulesets.steel_war.situation import all_of, basic_verdict

    return all_of(
        basic_verdict(unit, ActionType.UNSUPPRESS),
        Verdict.of(
            is_suppressed(unit.markers), msg("steel_war.permission.no_markers"), "SW-SUP-03"
        ),
    )
