"""Public procedure: the reaction test (тест на реакцию)."""

from __future__ import annotations

from pydantic import Field, model_validator

from kubik.engine import Procedure, ProcedureInput, procedure
from kubik.rulesets.steel_war.dice import ChainDie, as_chain_die
from kubik.rulesets.steel_war.morale_levels import MoraleLevel
from kubik.rulesets.steel_war.procedures.morale import MoraleLevelInput
from kubik.rulesets.steel_war.reaction import (
    ReactionAction,
    ReactionOutcome,
    reaction_rules,
    reaction_test,
    reaction_threat,
)


class ReactionTestInput(ProcedureInput):
    """A squad trying an action that needs a reaction test."""

    quality: ChainDie = Field(description="the squad's quality die, d4 (untrained) .. d12 (elite)")
    leadership: int = Field(ge=1, le=3, description="commander's leadership, 1 (best) .. 3")
    action: ReactionAction | None = Field(
        default=None,
        description="the action from the reaction list (its threat comes from data; a "
        "charge's from the squad's morale level); give this or threat",
    )
    level: MoraleLevelInput = Field(
        default=MoraleLevel.STEADY,
        description="the squad's morale level (Ув, Ст, По): the threat of a charge's test",
    )
    threat: int | None = Field(
        default=None, ge=0, le=30, description="an explicit threat level instead of an action"
    )
    no_step_back: bool = Field(
        default=False, description="the squad is in «Ни шагу назад!»: it passes automatically"
    )

    @model_validator(mode="after")
    def _one_of_action_or_threat(self) -> ReactionTestInput:
        if (self.action is None) == (self.threat is None):
            raise ValueError("give exactly one of action (from the reaction list) or threat")
        if self.action is ReactionAction.CHARGE:
            reaction_threat(self.action, self.level)  # Ра and Бе never charge: an InputError
        return self


@procedure(
    "steel_war.reaction_test",
    input=ReactionTestInput,
    rules=(
        "SW-REACT-01",
        "SW-REACT-02",
        "SW-CORE-03",
        "SW-NSN-03",
        "SW-CC-02",
        "SW-CORE-02",
        "SW-FIRE-07",
        "SW-MOR-01",
        "SW-PANIC-01",
    ),
    examples=(
        {"quality": "d6", "leadership": 2, "action": "go_to_ground_open"},
        {"quality": "d8", "leadership": 1, "action": "go_to_ground_other"},
        {"quality": "d10", "leadership": 3, "threat": 4},
        {"quality": "d4", "leadership": 3, "threat": 5, "no_step_back": True},
        {"quality": "d8", "leadership": 2, "action": "charge", "level": "По"},
    ),
)
def reaction_test_procedure(inp: ReactionTestInput) -> Procedure[ReactionOutcome]:
    """Reaction test: beat leadership + the action's threat; failing only loses the action."""
    if inp.action is not None:
        threat = reaction_threat(inp.action, inp.level)
        rules = reaction_rules(inp.action)
    else:
        assert inp.threat is not None  # the validator guarantees one of them
        threat, rules = inp.threat, ("SW-REACT-01",)
    return (
        yield from reaction_test(
            as_chain_die(inp.quality), inp.leadership, threat, inp.no_step_back, rules
        )
    )
