"""Steel War's public unsuppress procedure: a suppressed squad's commander rallies it.

Only adapts the public JSON input to the rule module (:mod:`..unsuppressing`).
"""

from __future__ import annotations

from pydantic import Field

from kubik.engine import Procedure, ProcedureInput, procedure
from kubik.rulesets.steel_war.dice import ChainDie, as_chain_die
from kubik.rulesets.steel_war.unsuppressing import UnsuppressOutcome, unsuppress


class UnsuppressInput(ProcedureInput):
    """A suppressed squad's commander tries to rally it (one or two actions)."""

    quality: ChainDie = Field(description="the squad's quality die")
    leadership: int = Field(ge=1, le=3, description="commander's leadership, 1 (best) .. 3")
    markers: int = Field(default=1, ge=1, le=3, description="suppression markers on the squad")
    attempts: int = Field(default=2, ge=1, le=2, description="unsuppress actions spent (1 or 2)")


@procedure(
    "steel_war.unsuppress",
    input=UnsuppressInput,
    rules=("SW-SUP-03", "SW-SUP-01", "SW-CORE-03", "SW-CORE-02", "SW-CORE-04"),
    examples=(
        {"quality": "d6", "leadership": 1, "markers": 1, "attempts": 2},
        {"quality": "d8", "leadership": 3, "markers": 3, "attempts": 2},
        {"quality": "d4", "leadership": 2, "markers": 2, "attempts": 1},
    ),
)
def unsuppress_procedure(inp: UnsuppressInput) -> Procedure[UnsuppressOutcome]:
    """Unsuppress (расподавление): beat leadership on the quality die to remove a marker."""
    return (
        yield from unsuppress(as_chain_die(inp.quality), inp.leadership, inp.markers, inp.attempts)
    )
