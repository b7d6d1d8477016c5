"""Steel War's public procedures: input models and registration.

Rule modules hold the rules on plain values; this module only adapts the public
JSON input to them.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BeforeValidator, Field

from kubik.core.errors import InputError
from kubik.engine import Procedure, ProcedureInput, procedure
from kubik.rulesets.steel_war.dice import ChainDie, as_chain_die
from kubik.rulesets.steel_war.morale import (
    MoraleEventOutcome,
    MoraleTestOutcome,
    morale_event,
    morale_test,
)
from kubik.rulesets.steel_war.morale_levels import MoraleLevel, Motivation
from kubik.rulesets.steel_war.threat import PlusFactor, Trigger, threat_level


class MoraleTestInput(ProcedureInput):
    """A squad taking a morale test."""

    quality: ChainDie = Field(description="the squad's quality die, d4 (untrained) .. d12 (elite)")
    leadership: int = Field(ge=1, le=3, description="commander's leadership, 1 (best) .. 3")
    threat: int = Field(ge=0, le=30, description="threat level T from the threat table")


@procedure(
    "steel_war.morale_test",
    input=MoraleTestInput,
    rules=("SW-MOR-05", "SW-CORE-03", "SW-MOR-01", "SW-CORE-02"),
    examples=(
        {"quality": "d8", "leadership": 2, "threat": 6},
        {"quality": "d10", "leadership": 1, "threat": 3},
        {"quality": "d4", "leadership": 3, "threat": 0},
    ),
)
def morale_test_procedure(inp: MoraleTestInput) -> Procedure[MoraleTestOutcome]:
    """Morale test: beat leadership + threat on the quality die, or drop one or two levels."""
    return (yield from morale_test(as_chain_die(inp.quality), inp.leadership, inp.threat))


def _normalise_level(value: object) -> object:
    """Accept "Ст"/"steady"/"STEADY" for the level "steady"."""
    if isinstance(value, str):
        try:
            return MoraleLevel.parse(value)
        except InputError:
            return value
    return value


#: A morale level as procedure input: an id or the Russian abbreviation (Ув, Ст, По, Ра, Бе).
MoraleLevelInput = Annotated[MoraleLevel, BeforeValidator(_normalise_level)]


class MoraleEventInput(ProcedureInput):
    """An event from the threat table hitting a squad: threat, test and new level."""

    quality: ChainDie = Field(description="the squad's quality die, d4 (untrained) .. d12 (elite)")
    leadership: int = Field(ge=1, le=3, description="commander's leadership, 1 (best) .. 3")
    motivation: Motivation = Field(
        description="the side's motivation (уровень мотивации): the threat table's column"
    )
    triggers: tuple[Trigger, ...] = Field(
        description="what happened: first_suppressed, casualties, more_lost_than_remain, "
        "commander_lost (only the largest counts)"
    )
    artillery: bool = Field(default=False, description="the fire was artillery or an air attack")
    unverified: int = Field(
        default=0, ge=0, le=30, description="unverified casualties (wounded, fate unknown)"
    )
    wounded_left_behind: bool = Field(
        default=False, description="had to leave wounded closer to the enemy than to friends"
    )
    extra_threat: int = Field(
        default=0, ge=0, le=30, description="threat added by another rule (charge, melee, psi)"
    )
    level: MoraleLevelInput = Field(
        default=MoraleLevel.STEADY, description="morale before the event: Ув, Ст, По, Ра, Бе"
    )


@procedure(
    "steel_war.morale_event",
    input=MoraleEventInput,
    rules=(
        "SW-MOR-01",
        "SW-MOR-05",
        "SW-MOR-06",
        "SW-MOR-07",
        "SW-CORE-03",
        "SW-CORE-02",
        "SW-MOR-03",
    ),
    examples=(
        {
            "quality": "d8",
            "leadership": 2,
            "motivation": "low",
            "triggers": ["casualties", "more_lost_than_remain"],
            "unverified": 2,
            "level": "Ст",
        },
        {
            "quality": "d6",
            "leadership": 2,
            "motivation": "medium",
            "triggers": ["first_suppressed", "casualties", "commander_lost"],
            "artillery": True,
            "level": "Ра",
        },
        {"quality": "d10", "leadership": 1, "motivation": "high", "triggers": ["casualties"]},
    ),
)
def morale_event_procedure(inp: MoraleEventInput) -> Procedure[MoraleEventOutcome]:
    """Threat table, morale test and the resulting level (no roll when the event starts no test)."""
    motivation = Motivation(inp.motivation)
    threat = threat_level(
        motivation,
        {Trigger(t) for t in inp.triggers},
        {
            PlusFactor.ARTILLERY: int(inp.artillery),
            PlusFactor.UNVERIFIED_CASUALTY: inp.unverified,
            PlusFactor.WOUNDED_LEFT_BEHIND: int(inp.wounded_left_behind),
        },
        extra=inp.extra_threat,
    )
    return (
        yield from morale_event(
            as_chain_die(inp.quality), inp.leadership, MoraleLevel(inp.level), threat
        )
    )
