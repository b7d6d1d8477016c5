"""Steel War suppression (подавление): markers, what a suppressed unit may do, unsuppressing.

A fire action that beats the range die with one die or more places a suppression
marker (SW-FIRE-01), at most three per unit (SW-SUP-02). A suppressed infantry
squad may only observe, communicate, reorganise in cover, unsuppress or move away
from the enemy (SW-SUP-01); unsuppressing is a commander test on the quality die
that removes one marker (SW-SUP-03).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import Any

from kubik.data import load_ruleset_data
from kubik.dice import Die
from kubik.engine import Procedure, emit, msg
from kubik.errors import InputError
from kubik.rulesets.steel_war.core import leadership_test


@cache
def _data() -> dict[str, Any]:
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


class Action(Enum):
    """A squad's actions as far as suppression restricts them (SW-CORE-04)."""

    OBSERVE = "observe"
    COMMUNICATE = "communicate"
    REORGANISE = "reorganise"
    UNSUPPRESS = "unsuppress"
    MOVE_AWAY = "move_away"
    MOVE = "move"
    SHOOT = "shoot"
    GO_TO_GROUND = "go_to_ground"
    GET_UP = "get_up"
    CHARGE = "charge"
    INSPIRE = "inspire"
    PSI = "psi"
    EMBARK = "embark"
    DISEMBARK = "disembark"

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"steel_war.action.{self.value}"


def infantry_may(action: Action, markers: int, in_cover: bool) -> bool:
    """Whether an infantry squad with ``markers`` may take ``action`` (SW-SUP-01).

    Suppressed: only the five listed actions, and reorganisation only in cover.

    >>> infantry_may(Action.SHOOT, 1, True), infantry_may(Action.UNSUPPRESS, 3, False)
    (False, True)
    >>> infantry_may(Action.REORGANISE, 1, False), infantry_may(Action.REORGANISE, 1, True)
    (False, True)
    """
    if not is_suppressed(markers):
        return True
    table = _data()["suppression"]
    if action.value not in table["allowed_infantry"]:
        return False
    return not (action is Action.REORGANISE and table["reorganise_only_in_cover"] and not in_cover)


def vehicle_may(crew_must_get_out: bool, markers: int) -> bool:
    """A suppressed vehicle may do anything that keeps crew and passengers inside (SW-SUP-01).

    >>> vehicle_may(True, 1), vehicle_may(False, 1), vehicle_may(True, 0)
    (False, True, True)
    """
    return not (is_suppressed(markers) and crew_must_get_out)


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
        )
        if passed:
            left = remove_marker(left)
        yield emit(
            "steel_war.unsuppress.result",
            attempt=attempt,
            roll=roll,
            leadership=leadership,
            result=msg("steel_war.unsuppress.passed")
            if passed
            else msg("steel_war.unsuppress.failed"),
            markers=left,
        )
    return UnsuppressOutcome(markers - left, left)
