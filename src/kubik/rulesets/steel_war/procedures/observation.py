"""Public procedure: observation (наблюдение), a documented default (SW-ABSENT-03)."""

from __future__ import annotations

from pydantic import Field

from kubik.engine import Procedure, ProcedureInput, procedure
from kubik.rulesets.steel_war.dice import ChainDie, as_chain_die
from kubik.rulesets.steel_war.observation import ObservationOutcome, observe


class ObserveInput(ProcedureInput):
    """An observer trying to spot a target."""

    observer: ChainDie = Field(
        description="the observer's quality die or observation-means die, d4 .. d12"
    )
    target: ChainDie = Field(
        description="the target's range die, computed as for shooting (zone, cover, gone to ground)"
    )


@procedure(
    "steel_war.observe",
    input=ObserveInput,
    rules=("SW-ABSENT-03",),
    examples=(
        {"observer": "d8", "target": "d6"},
        {"observer": "d4", "target": "d12"},
    ),
)
def observe_procedure(inp: ObserveInput) -> Procedure[ObservationOutcome]:
    """Observation: the observer's die must beat the target's range die (default rule)."""
    return (yield from observe(as_chain_die(inp.observer), as_chain_die(inp.target)))
