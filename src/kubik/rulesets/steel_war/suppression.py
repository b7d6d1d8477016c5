"""Steel War suppression (подавление): markers, and what a suppressed unit may do.

A fire action that beats the range die with one die or more places a suppression
marker (SW-FIRE-01), at most three per unit (SW-SUP-02). A suppressed infantry
squad may only observe, communicate, reorganise in cover, unsuppress or move away
from the enemy (SW-SUP-01); unsuppressing is :mod:`.unsuppressing` (SW-SUP-03).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from kubik.core.errors import InputError
from kubik.engine import Verdict, msg
from kubik.engine.applied import decides
from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war.activation import ActionType

if TYPE_CHECKING:
    pass


@cache
def _data() -> Mapping[str, Any]:
    return load_ruleset_data("steel_war")


def max_markers() -> int:
    """The most suppression markers a unit can carry (SW-SUP-02: three)."""
    return int(_data()["suppression"]["max_markers"])


@decides("SW-SUP-02")
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


@decides("SW-SUP-01")
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
