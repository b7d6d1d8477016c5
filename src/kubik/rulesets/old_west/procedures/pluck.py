"""Old West's public Pluck procedures: the test, Head for the Hills, Fearsome Reputation,
Diving for Cover."""

from __future__ import annotations

from typing import Self

from pydantic import Field, model_validator

from kubik.engine import Procedure, ProcedureInput, procedure
from kubik.rulesets.old_west.pluck import (
    DivingOutcome,
    FearsomeOutcome,
    HeadForTheHillsOutcome,
    PluckOutcome,
    diving_for_cover,
    fearsome_reputation,
    head_for_the_hills,
    pluck_test,
)

PLUCK = Field(ge=0, le=10, description="Pluck (Смелость), 0..10")
FAME = Field(default=0, ge=0, le=10, description="Fame (Слава) the Hero may add, 0..10")


class PluckInput(ProcedureInput):
    """A model taking a Pluck test."""

    pluck: int = PLUCK
    fame: int = FAME


@procedure(
    "old_west.pluck_test",
    input=PluckInput,
    rules=("OW-PLK-01", "OW-HERO-04"),
    examples=({"pluck": 4}, {"pluck": 0}, {"pluck": 3, "fame": 2}),
)
def pluck_test_procedure(inp: PluckInput) -> Procedure[PluckOutcome]:
    """Pluck test (Проверка на Смелость): 2D6 + Pluck, 10 or more passes."""
    return (yield from pluck_test(inp.pluck, inp.fame, "model"))


class HeadForTheHillsInput(ProcedureInput):
    """A posse at the start of a turn."""

    models: int = Field(ge=1, le=100, description="models in the posse at the start")
    out_of_action: int = Field(
        ge=0, le=100, description="models out of action (not those that left by objective)"
    )
    left_table: int = Field(
        default=0, ge=0, le=100, description="models that left the table for objectives"
    )
    leader_pluck: int | None = Field(
        default=None, ge=0, le=10, description="the leader's Pluck; null if he is out of action"
    )
    pluck: tuple[int, ...] = Field(
        default=(), max_length=100, description="Pluck of the other models still in action"
    )
    voluntary: bool = Field(default=False, description="the player chooses to flee")
    fame: int = FAME

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.out_of_action + self.left_table > self.models:
            raise ValueError("out_of_action + left_table: cannot exceed models")
        if any(not 0 <= p <= 10 for p in self.pluck):
            raise ValueError("pluck: every value must be 0..10")
        return self


@procedure(
    "old_west.head_for_the_hills",
    input=HeadForTheHillsInput,
    rules=("OW-PLK-02", "OW-PLK-03", "OW-PLK-04", "OW-PLK-01"),
    examples=(
        {"models": 6, "out_of_action": 3, "leader_pluck": 4},
        {"models": 6, "out_of_action": 2, "left_table": 2, "leader_pluck": 4},
        {"models": 5, "out_of_action": 3, "pluck": [2, 5]},
        {"models": 4, "out_of_action": 2, "leader_pluck": 5, "voluntary": True},
    ),
)
def head_for_the_hills_procedure(inp: HeadForTheHillsInput) -> Procedure[HeadForTheHillsOutcome]:
    """Head for the Hills (Бегство): with half or more lost, the leader's Pluck test or flight."""
    return (
        yield from head_for_the_hills(
            inp.models, inp.out_of_action, inp.leader_pluck, inp.pluck, inp.voluntary, inp.fame
        )
    )


@procedure(
    "old_west.fearsome_reputation",
    input=PluckInput,
    rules=("OW-PLK-05", "OW-PLK-01", "OW-ABSENT-08"),
    examples=({"pluck": 3}, {"pluck": 2, "fame": 1}),
)
def fearsome_procedure(inp: PluckInput) -> Procedure[FearsomeOutcome]:
    """Fearsome Reputation (Пугающая репутация): a Pluck test before charging or shooting."""
    return (yield from fearsome_reputation(inp.pluck, inp.fame))


class DivingInput(ProcedureInput):
    """A model hit by an enemy weapon and not removed."""

    pluck: int = PLUCK
    behind_cover: bool = Field(default=False, description="already behind cover when shot")
    mounted: bool = Field(default=False, description="on a horse or mule (rider's Pluck)")
    fame: int = FAME


@procedure(
    "old_west.diving_for_cover",
    input=DivingInput,
    rules=("OW-PLK-06", "OW-PLK-07", "OW-PLK-01"),
    examples=(
        {"pluck": 3},
        {"pluck": 3, "behind_cover": True},
        {"pluck": 3, "behind_cover": True, "mounted": True},
    ),
)
def diving_procedure(inp: DivingInput) -> Procedure[DivingOutcome]:
    """Diving for cover (Залегание): Pluck test; failed — run to cover, lie down or dismount."""
    return (yield from diving_for_cover(inp.pluck, inp.behind_cover, inp.mounted, inp.fame))
