"""Steel War's public procedures: input models and registration.

Rule modules hold the rules on plain values; this module only adapts the public
JSON input to them.
"""

from __future__ import annotations

from pydantic import Field

from kubik.engine import Procedure, ProcedureInput, procedure
from kubik.rulesets.steel_war.dice import ChainDie, as_chain_die
from kubik.rulesets.steel_war.morale import MoraleTestOutcome, morale_test


class MoraleTestInput(ProcedureInput):
    """A squad taking a morale test."""

    quality: ChainDie = Field(description="the squad's quality die, d4 (untrained) .. d12 (elite)")
    leadership: int = Field(ge=1, le=3, description="commander's leadership, 1 (best) .. 3")
    threat: int = Field(ge=0, le=30, description="threat level T from the threat table")


@procedure(
    "steel_war.morale_test",
    input=MoraleTestInput,
    rules=("SW-MOR-05", "SW-CORE-03", "SW-MOR-01"),
    examples=(
        {"quality": "d8", "leadership": 2, "threat": 6},
        {"quality": "d10", "leadership": 1, "threat": 3},
        {"quality": "d4", "leadership": 3, "threat": 0},
    ),
)
def morale_test_procedure(inp: MoraleTestInput) -> Procedure[MoraleTestOutcome]:
    """Morale test: beat leadership + threat on the quality die, or drop one or two levels."""
    return (yield from morale_test(as_chain_die(inp.quality), inp.leadership, inp.threat))
