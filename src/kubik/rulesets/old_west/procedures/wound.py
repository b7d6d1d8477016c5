"""Old West's public procedure ``old_west.wound``: input model and registration."""

from __future__ import annotations

from pydantic import Field

from kubik.engine import Procedure, ProcedureInput, procedure
from kubik.rulesets.old_west.wounds import WoundOutcome, wound


class WoundInput(ProcedureInput):
    """One strike: the striker's Strength against the victim's Toughness."""

    strength: int = Field(ge=1, le=10, description="striker's Strength (Сила), 1..10")
    toughness: int = Field(ge=1, le=10, description="victim's Toughness (Выносливость), 1..10")
    fame: int = Field(
        default=0, ge=0, le=10, description="Fame (Слава) the striking Hero may spend, 0..10"
    )


@procedure(
    "old_west.wound",
    input=WoundInput,
    rules=("OW-CC-05", "OW-CC-06", "OW-CC-07", "OW-HERO-02", "OW-HERO-05"),
    examples=(
        {"strength": 3, "toughness": 8},
        {"strength": 3, "toughness": 3},
        {"strength": 1, "toughness": 10},
        {"strength": 3, "toughness": 8, "fame": 3},
    ),
)
def wound_procedure(inp: WoundInput) -> Procedure[WoundOutcome]:
    """Woundin': roll on the Strength-vs-Toughness chart (6/X cells need a second roll)."""
    return (yield from wound(inp.strength, inp.toughness, inp.fame))
