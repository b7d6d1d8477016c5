"""Public procedures: the communication test and inspiration (тест на воодушевление)."""

from __future__ import annotations

from pydantic import Field

from kubik.engine import Procedure, ProcedureInput, procedure
from kubik.rulesets.steel_war.dice import ChainDie, as_chain_die
from kubik.rulesets.steel_war.inspiration import (
    CommunicationOutcome,
    Contact,
    Inspiration,
    InspirationOutcome,
    communication_test,
    inspire,
)
from kubik.rulesets.steel_war.morale_levels import MoraleLevel
from kubik.rulesets.steel_war.procedures.morale import MoraleLevelInput


class CommunicationTestInput(ProcedureInput):
    """A unit trying to get through to another (тест на связь)."""

    quality: ChainDie = Field(description="quality die of the unit making contact, d4 .. d12")
    leadership: int = Field(ge=1, le=3, description="its leadership, 1 (best) .. 3")
    other_leadership: int = Field(
        ge=1, le=3, description="the other unit's leadership (the worse of the two is beaten)"
    )
    skipped_links: int = Field(
        default=0, ge=0, le=4, description="links of the chain of command skipped (-1 step each)"
    )
    distance: float | None = Field(
        default=None, ge=0, le=1000, description="inches between them (optional)"
    )
    line_of_sight: bool = Field(default=False, description="they see each other")
    radio: bool = Field(default=True, description="both have radio or telephone")


def _contact(distance: float | None, line_of_sight: bool, radio: bool) -> Contact:
    return Contact(distance, line_of_sight, radio)


@procedure(
    "steel_war.communication_test",
    input=CommunicationTestInput,
    rules=("SW-MOR-09", "SW-MOR-08", "SW-ABSENT-04", "SW-CORE-01", "SW-CORE-02", "SW-PSI-04"),
    examples=(
        {"quality": "d10", "leadership": 2, "other_leadership": 2, "skipped_links": 1},
        {"quality": "d6", "leadership": 1, "other_leadership": 3},
        {
            "quality": "d8",
            "leadership": 2,
            "other_leadership": 2,
            "distance": 5,
            "line_of_sight": True,
        },
    ),
)
def communication_test_procedure(inp: CommunicationTestInput) -> Procedure[CommunicationOutcome]:
    """Communication test: caller's die (−1 step per skipped link) beats the worse leadership."""
    return (
        yield from communication_test(
            as_chain_die(inp.quality),
            inp.leadership,
            inp.other_leadership,
            inp.skipped_links,
            _contact(inp.distance, inp.line_of_sight, inp.radio),
        )
    )


class InspirationInput(ProcedureInput):
    """A superior officer's attempt to inspire a squad (one of his actions)."""

    officer_quality: ChainDie = Field(description="the officer's quality die, d4 .. d12")
    officer_leadership: int = Field(ge=1, le=3, description="the officer's leadership, 1 .. 3")
    squad_quality: ChainDie = Field(description="the inspired squad's quality die, d4 .. d12")
    squad_leadership: int = Field(
        ge=1, le=3, description="the squad commander's leadership, 1 .. 3"
    )
    threat: int = Field(
        default=0, ge=0, le=30, description="the squad's standing threat (+ factors of the table)"
    )
    skipped_links: int = Field(
        default=0, ge=0, le=4, description="links of the chain of command skipped (-1 step each)"
    )
    distance: float | None = Field(
        default=None, ge=0, le=1000, description="inches between officer and squad (optional)"
    )
    line_of_sight: bool = Field(default=False, description="officer and squad see each other")
    radio: bool = Field(default=True, description="both have radio or telephone")
    level: MoraleLevelInput | None = Field(
        default=None, description="the squad's morale now (Ув, Ст, По, Ра, Бе), optional"
    )
    start_level: MoraleLevelInput | None = Field(
        default=None, description="the squad's morale at the start of the battle, optional"
    )


@procedure(
    "steel_war.inspiration",
    input=InspirationInput,
    rules=(
        "SW-MOR-08",
        "SW-MOR-09",
        "SW-MOR-10",
        "SW-MOR-04",
        "SW-CORE-01",
        "SW-CORE-02",
        "SW-MOR-01",
        "SW-MOR-06",
        "SW-PSI-04",
        "SW-MOR-03",
    ),
    examples=(
        {
            "officer_quality": "d10",
            "officer_leadership": 2,
            "squad_quality": "d10",
            "squad_leadership": 2,
            "threat": 2,
            "skipped_links": 1,
            "level": "Ра",
            "start_level": "Ст",
        },
        {
            "officer_quality": "d6",
            "officer_leadership": 1,
            "squad_quality": "d8",
            "squad_leadership": 3,
            "distance": 4,
            "line_of_sight": True,
        },
        {
            "officer_quality": "d8",
            "officer_leadership": 2,
            "squad_quality": "d8",
            "squad_leadership": 2,
            "level": "Ст",
            "start_level": "Ст",
        },
    ),
)
def inspiration_procedure(inp: InspirationInput) -> Procedure[InspirationOutcome]:
    """Inspiration: communication test, then the squad's die beats both leaderships + threat."""
    attempt = Inspiration(
        officer_quality=as_chain_die(inp.officer_quality),
        officer_leadership=inp.officer_leadership,
        squad_quality=as_chain_die(inp.squad_quality),
        squad_leadership=inp.squad_leadership,
        threat=inp.threat,
        skipped_links=inp.skipped_links,
        contact=_contact(inp.distance, inp.line_of_sight, inp.radio),
        level=MoraleLevel(inp.level) if inp.level is not None else None,
        start_level=MoraleLevel(inp.start_level) if inp.start_level is not None else None,
    )
    return (yield from inspire(attempt))
