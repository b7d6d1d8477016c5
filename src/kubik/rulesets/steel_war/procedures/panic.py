"""Public procedure: the panic test (тест на панику)."""

from __future__ import annotations

from pydantic import Field

from kubik.engine import Procedure, ProcedureInput, procedure
from kubik.rulesets.steel_war.dice import ChainDie, as_chain_die
from kubik.rulesets.steel_war.panic import PanicEvent, PanicOutcome, panic_test


class PanicTestInput(ProcedureInput):
    """A panic-causing event, or a panicked squad's attempt to end its panic."""

    quality: ChainDie = Field(
        description="the squad's quality die, d4 (untrained) .. d12 (elite); "
        "it also decides which events cause panic"
    )
    leadership: int = Field(ge=1, le=3, description="commander's leadership, 1 (best) .. 3")
    event: PanicEvent = Field(
        default=PanicEvent.ONGOING,
        description="what happened; 'ongoing' = the squad is panicked and tries to end it",
    )
    panic_over: bool = Field(
        default=False,
        description="the squad already ended a panic this battle (only psionics panic it again)",
    )
    no_step_back: bool = Field(
        default=False, description="the squad is in «Ни шагу назад!»: it passes automatically"
    )


@procedure(
    "steel_war.panic_test",
    input=PanicTestInput,
    rules=(
        "SW-PANIC-01",
        "SW-PANIC-02",
        "SW-REACT-02",
        "SW-NSN-03",
        "SW-CORE-02",
        "SW-CORE-03",
        "SW-MOR-01",
        "SW-PSI-01",
        "SW-PSI-14",
        "SW-REACT-01",
    ),
    examples=(
        {"quality": "d4", "leadership": 2, "event": "first_enemy_in_sight"},
        {"quality": "d6", "leadership": 3, "event": "ongoing"},
        {"quality": "d10", "leadership": 1, "event": "first_shot_at"},
        {"quality": "d10", "leadership": 2, "event": "psionic"},
    ),
)
def panic_test_procedure(inp: PanicTestInput) -> Procedure[PanicOutcome]:
    """Panic test: beat leadership (threat 0); a failure keeps the panic and costs a level."""
    return (
        yield from panic_test(
            as_chain_die(inp.quality),
            inp.leadership,
            inp.event,
            inp.panic_over,
            inp.no_step_back,
        )
    )
