"""The rules of a brawl: a strike, and what a brawler may do where he stands.

Rule module: it takes plain values (inches between two bases) and uses only the engine,
the dice and the ruleset's data.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kubik.engine import Procedure, Roll, Verdict, emit, msg
from kubik.engine.dice import D6
from kubik.rulesets.data import load_ruleset_data


def _numbers() -> Mapping[str, Any]:
    return load_ruleset_data("brawl")


def need() -> int:
    """What a strike needs on a d6 to put the foe down (BR-STRIKE-01)."""
    return int(_numbers()["strike"]["need"])


def reach() -> float:
    """How far a brawler strikes, edge to edge, in inches (BR-REACH-01)."""
    return float(_numbers()["strike"]["reach"])


def walk() -> float:
    """How far a brawler walks in one go, in inches (BR-WALK-01)."""
    return float(_numbers()["walk"]["inches"])


def strike(needed: int) -> Procedure[bool]:
    """One strike: a d6 that puts the foe down on ``needed`` or more (BR-STRIKE-01)."""
    (value,) = yield Roll(D6, msg("brawl.strike.roll", need=needed), rules=("BR-STRIKE-01",))
    down = value >= needed
    yield emit(
        "brawl.strike.result",
        rules=("BR-STRIKE-01",),
        blow=msg("brawl.term.strike"),
        roll=value,
        result=msg("brawl.strike.down" if down else "brawl.strike.missed"),
    )
    return down


def may_strike(gap: float) -> Verdict:
    """A brawler strikes a foe within reach (BR-REACH-01)."""
    return Verdict.of(gap <= reach(), msg("brawl.permission.out_of_reach"), "BR-REACH-01")


def may_walk(gap: float) -> Verdict:
    """A brawler walks toward a foe not yet within reach (BR-WALK-01)."""
    return Verdict.of(gap > reach(), msg("brawl.permission.within_reach"), "BR-WALK-01")


def may_wait() -> Verdict:
    """A brawler may always bide his time (BR-WAIT-01)."""
    return Verdict.allow("BR-WAIT-01")
