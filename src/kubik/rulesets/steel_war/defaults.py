"""The battle's own rules where the seed is silent: documented defaults, not from it.

A whole battle needs more than the rulebook prints: how a squad stands (a block
around its commander that keeps coherency, SW-ABSENT-09), when a side holds an
objective, when a routing squad leaves by its table edge, where a squad getting off
a vehicle stands, which moves are worth offering, and the motivation and fatigue of
a side the scenario does not set (SW-MOR-02/03). Each number lives in
``data/game.toml`` with its provenance; the battle reads them only here.

>>> formation().per_row, control_inches(), leave_within_inches()
(4, 3.0, 1.0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war.morale_levels import Fatigue, Motivation


@cache
def _data() -> Mapping[str, Any]:
    return load_ruleset_data("steel_war")


@dataclass(frozen=True, slots=True)
class Formation:
    """How a squad stands: ``per_row`` models a row, bases ``base_inches`` wide and
    ``gap_inches`` apart (every model within 2" of another, SW-ABSENT-09)."""

    per_row: int
    gap_inches: float
    base_inches: float


@cache
def formation() -> Formation:
    """The block a squad stands in ([game_formation])."""
    table = _data()["game_formation"]
    return Formation(int(table["per_row"]), float(table["gap_inches"]), float(table["base_inches"]))


@cache
def control_inches() -> float:
    """How near an objective a side's effective model holds it, no enemy model as near
    ([game_objectives])."""
    return float(_data()["game_objectives"]["control_inches"])


@cache
def leave_within_inches() -> float:
    """How near its own table edge a Broken or Fleeing squad's move ends when it leaves
    the table, routed (SW-MOR-01: «двигаться к своему краю стола (чтобы уйти)»; [game_edge])."""
    return float(_data()["game_edge"]["leave_within_inches"])


@cache
def shortest_move_inches() -> float:
    """The shortest move worth offering (a move must go somewhere; [game_moves])."""
    return float(_data()["game_moves"]["min_inches"])


@cache
def cover_depth_inches() -> float:
    """How far inside a cover feature a move to it aims ([game_moves])."""
    return float(_data()["game_moves"]["cover_depth_inches"])


@cache
def disembark_gap_inches() -> float:
    """How far from the vehicle's base a squad getting off stands ([game_transport])."""
    return float(_data()["game_transport"]["gap_inches"])


@cache
def unload_within_inches() -> float:
    """How near the vehicle the crew's farthest man stands to unhitch a towed gun
    (the seed's 6" of SW-MOVE-04, for SW-MOVE-05; [game_transport])."""
    return float(_data()["game_transport"]["unload_within_inches"])


@cache
def side_defaults() -> tuple[Motivation, Fatigue]:
    """A side's motivation and fatigue when the scenario sets neither: an ordinary
    front-line battle, tired troops (SW-MOR-02/03 defaults; [game_sides])."""
    sides = _data()["game_sides"]
    return Motivation(sides["motivation"]), Fatigue(sides["fatigue"])


__all__ = [
    "Formation",
    "control_inches",
    "cover_depth_inches",
    "disembark_gap_inches",
    "formation",
    "leave_within_inches",
    "shortest_move_inches",
    "side_defaults",
    "unload_within_inches",
]
