"""Steel War's public reorganisation procedure: the fate of unverified casualties."""

from __future__ import annotations

from pydantic import Field, field_validator

from kubik.engine import Procedure, ProcedureInput, procedure
from kubik.rulesets.steel_war.reorganisation import (
    Care,
    CasualtyKind,
    ReorganiseOutcome,
    care_bonus,
    reorganise,
)


class ReorganiseInput(ProcedureInput):
    """A squad reorganising with ``casualties`` unverified casualties."""

    casualties: int = Field(ge=0, le=30, description="unverified casualties (непроверенные потери)")
    medic: bool = Field(
        default=False, description="a medic in the squad or a medical vehicle within 6 inches (+1)"
    )
    surgeon: bool = Field(default=False, description="a field surgeon with a medical team (+2)")
    kind: CasualtyKind = Field(
        default=CasualtyKind.HUMAN,
        description="human or android (no medical bonus); robots cannot be healed at all",
    )

    @field_validator("kind")
    @classmethod
    def _healable(cls, kind: CasualtyKind) -> CasualtyKind:
        care_bonus(Care.NONE, kind)  # robots cannot be healed: an InputError (a ValueError)
        return kind

    def care(self) -> Care:
        """The medical help at hand."""
        if self.medic and self.surgeon:
            return Care.BOTH
        if self.surgeon:
            return Care.SURGEON
        return Care.MEDIC if self.medic else Care.NONE


@procedure(
    "steel_war.reorganise",
    input=ReorganiseInput,
    rules=("SW-REORG-01", "SW-REORG-02", "SW-ABSENT-09", "SW-DMG-11"),
    examples=(
        {"casualties": 2},
        {"casualties": 3, "medic": True},
        {"casualties": 2, "surgeon": True},
        {"casualties": 2, "medic": True, "kind": "android"},
    ),
)
def reorganise_procedure(inp: ReorganiseInput) -> Procedure[ReorganiseOutcome]:
    """Reorganise: a d6 per unverified casualty, +1 medic, +2 surgeon: dies, stabilised, returns."""
    return (yield from reorganise(inp.casualties, inp.care(), inp.kind))
