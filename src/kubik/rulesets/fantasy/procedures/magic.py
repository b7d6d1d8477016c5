"""The public procedure ``fantasy.magic_resistance``: the seed's d20 table."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import Field

from kubik.engine import Procedure, ProcedureInput, procedure
from kubik.rulesets.fantasy.magic import magic_resistance


class MagicResistanceInput(ProcedureInput):
    """An undispelled enemy spell on a unit with Magic resistance."""

    level: int = Field(ge=1, le=4, description="Magic resistance (1)..(4)")


@dataclass(frozen=True, slots=True)
class ResistanceOutcome:
    """Whether the spell failed on the unit."""

    resisted: bool


@procedure(
    "fantasy.magic_resistance",
    input=MagicResistanceInput,
    rules=("FB-MAG-01",),
    examples=({"level": 1}, {"level": 3}, {"level": 4}),
)
def magic_resistance_procedure(inp: MagicResistanceInput) -> Procedure[ResistanceOutcome]:
    """Magic resistance: a d20 of 1-5, 1-10, 1-15 stops the spell; (4) always."""
    resisted = yield from magic_resistance(inp.level)
    return ResistanceOutcome(resisted)
