"""Steel War's public psionic procedures: one per action of the psi list (SW-PSI-07).

Every input names the psionic's psi die (or its level: student, master ...), the
distance to the target in inches, and what the target is. A target out of reach
(die below d4, beyond the first 12" zone without line of sight, a vehicle or robot,
a one-man squad for murder) is not an error: the outcome is ``result: impossible``,
so odds and the table see the same answer. Order of rolls for ``--dice``: the psi
die (unless its result is certain), then the target's morale die (strike, murder).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BeforeValidator, Field

from kubik.engine import Procedure, ProcedureInput, procedure
from kubik.rulesets.steel_war.dice import ChainDie, as_chain_die
from kubik.rulesets.steel_war.psionics import PsiQuality
from kubik.rulesets.steel_war.psionics_actions import (
    BlastChoice,
    PsiAttempt,
    PsiOutcome,
    PsiTarget,
    psi_avert_eyes,
    psi_blast,
    psi_confusion,
    psi_detection,
    psi_inspiration,
    psi_murder,
    psi_no_step_back,
    psi_panic,
    psi_remove_suppression,
    psi_strike,
)


def _level_to_die(value: object) -> object:
    """Accept a psi-quality level ("master") for the psi die ("d8")."""
    if isinstance(value, str):
        try:
            return PsiQuality(value.strip().lower()).die.name
        except ValueError:
            return value
    return value


#: The psionic's psi die ("d4".."d12", "к8") or psi-quality level ("student", "master" ...).
PsiDie = Annotated[ChainDie, BeforeValidator(_level_to_die)]


class PsiInput(ProcedureInput):
    """A psionic acting on a target squad."""

    psi: PsiDie = Field(
        description="the psionic's psi-quality die d4..d12, or its level: deprived (d4), "
        "student (d6), master (d8), famous (d10), legend (d12)"
    )
    distance: float = Field(
        default=0.0,
        ge=0,
        le=1000,
        description="inches to the target; 12-inch zones, each beyond the first steps the psi "
        "die down, below d4 the action is impossible",
    )
    line_of_sight: bool = Field(
        default=True, description="the target is in line of sight (needed beyond 12 inches)"
    )
    target_machine: bool = Field(
        default=False,
        description="the target is a vehicle or robot itself (psi affects only people, "
        "including vehicle crews): impossible",
    )
    target_android: bool = Field(
        default=False,
        description="the target squad is androids: its tests against psi are on d6",
    )

    def attempt(self) -> PsiAttempt:
        """The rule module's view of the attempt."""
        return PsiAttempt(
            as_chain_die(self.psi), self.distance, self.line_of_sight, self.target_machine
        )


class PsiPanicInput(PsiInput):
    """A psi panic attack: the target must take a panic test."""

    target_quality: ChainDie = Field(description="the target squad's quality die, d4..d12")


class PsiResistedInput(PsiInput):
    """A psi attack whose target must roll a morale test here."""

    target_quality: ChainDie = Field(description="the target squad's quality die, d4..d12")
    target_leadership: int = Field(ge=1, le=3, description="target commander's leadership, 1..3")

    def target(self) -> PsiTarget:
        """The resisting squad."""
        return PsiTarget(
            as_chain_die(self.target_quality), self.target_leadership, self.target_android
        )


class PsiStrikeInput(PsiResistedInput):
    """A psi strike: the target's morale test gets extra threat."""

    threat: int = Field(
        default=0,
        ge=0,
        le=30,
        description="other threat that applies; the strike adds its own extra threat",
    )


class PsiMurderInput(PsiResistedInput):
    """Murder: a comrade shoots a comrade, then a morale test as for a lost commander."""

    threat: int = Field(
        ge=0,
        le=30,
        description="threat of the morale test: the 'commander lost' value at the target's "
        "motivation (threat table), plus any '+' rows",
    )
    target_models: int = Field(
        default=10,
        ge=1,
        le=100,
        description="men in the target squad (a man-sized weapon counts as a man); "
        "a one-man squad cannot be murdered in",
    )


class PsiBlastInput(PsiInput):
    """A psi blast: morale levels lost or panic, at the psionic's choice."""

    choice: BlastChoice = Field(
        default=BlastChoice.LOSE_MORALE,
        description="the psionic's choice on success: lose_morale (morale levels lost) or panic",
    )


_RANGE_EXAMPLES = (
    {"psi": "d8", "distance": 6},
    {"psi": "master", "distance": 20},
    {"psi": "d6", "distance": 30},
)


@procedure(
    "steel_war.psi_remove_suppression",
    input=PsiInput,
    rules=("SW-PSI-08", "SW-PSI-05", "SW-PSI-06", "SW-PSI-07", "SW-CORE-01"),
    examples=_RANGE_EXAMPLES,
)
def psi_remove_suppression_procedure(inp: PsiInput) -> Procedure[PsiOutcome]:
    """Psi: remove suppression: the target loses every suppression marker."""
    return (yield from psi_remove_suppression(inp.attempt()))


@procedure(
    "steel_war.psi_inspiration",
    input=PsiInput,
    rules=("SW-PSI-09", "SW-PSI-05", "SW-PSI-06", "SW-PSI-07", "SW-CORE-01"),
    examples=_RANGE_EXAMPLES,
)
def psi_inspiration_procedure(inp: PsiInput) -> Procedure[PsiOutcome]:
    """Psi: inspiration: the target takes an inspiration roll, psionic as its commander."""
    return (yield from psi_inspiration(inp.attempt()))


@procedure(
    "steel_war.psi_no_step_back",
    input=PsiInput,
    rules=("SW-PSI-10", "SW-PSI-05", "SW-PSI-06", "SW-PSI-07", "SW-CORE-01"),
    examples=({"psi": "d8", "distance": 6}, {"psi": "d12", "distance": 13}, {"psi": "d4"}),
)
def psi_no_step_back_procedure(inp: PsiInput) -> Procedure[PsiOutcome]:
    """Psi: «Not one step back!»: the target enters the state at once."""
    return (yield from psi_no_step_back(inp.attempt()))


@procedure(
    "steel_war.psi_detection",
    input=PsiInput,
    rules=("SW-PSI-11", "SW-PSI-06", "SW-PSI-07", "SW-CORE-01", "SW-PSI-05"),
    examples=({"psi": "d6"}, {"psi": "d4", "distance": 13}),
)
def psi_detection_procedure(inp: PsiInput) -> Procedure[PsiOutcome]:
    """Psi: detection: the psi die may replace the observation die this activation."""
    return (yield from psi_detection(inp.attempt()))


@procedure(
    "steel_war.psi_avert_eyes",
    input=PsiInput,
    rules=("SW-PSI-12", "SW-PSI-06", "SW-PSI-07", "SW-CORE-01", "SW-PSI-05"),
    examples=({"psi": "d8"}, {"psi": "d4", "distance": 40}),
)
def psi_avert_eyes_procedure(inp: PsiInput) -> Procedure[PsiOutcome]:
    """Psi: avert eyes: the psi die may replace the distance die against observation."""
    return (yield from psi_avert_eyes(inp.attempt()))


@procedure(
    "steel_war.psi_strike",
    input=PsiStrikeInput,
    rules=(
        "SW-PSI-13",
        "SW-PSI-18",
        "SW-PSI-05",
        "SW-PSI-06",
        "SW-PSI-07",
        "SW-MOR-05",
        "SW-CORE-01",
        "SW-CORE-02",
        "SW-CORE-03",
    ),
    examples=(
        {"psi": "d8", "distance": 6, "target_quality": "d8", "target_leadership": 2},
        {
            "psi": "d10",
            "distance": 18,
            "target_quality": "d12",
            "target_leadership": 1,
            "target_android": True,
            "threat": 1,
        },
        {"psi": "d6", "distance": 40, "target_quality": "d6", "target_leadership": 3},
    ),
)
def psi_strike_procedure(inp: PsiStrikeInput) -> Procedure[PsiOutcome]:
    """Psi strike: the target takes a morale test with extra threat (d6 for androids)."""
    return (yield from psi_strike(inp.attempt(), inp.target(), inp.threat))


@procedure(
    "steel_war.psi_panic",
    input=PsiPanicInput,
    rules=(
        "SW-PSI-14",
        "SW-PSI-18",
        "SW-PSI-01",
        "SW-PSI-05",
        "SW-PSI-06",
        "SW-PSI-07",
        "SW-CORE-01",
    ),
    examples=(
        {"psi": "d8", "distance": 6, "target_quality": "d12"},
        {"psi": "d8", "distance": 18, "target_quality": "d10", "target_android": True},
        {"psi": "d8", "distance": 18, "target_quality": "d6", "line_of_sight": False},
    ),
)
def psi_panic_procedure(inp: PsiPanicInput) -> Procedure[PsiOutcome]:
    """Psi panic: the target must take a panic test now, whatever its quality."""
    return (
        yield from psi_panic(inp.attempt(), as_chain_die(inp.target_quality), inp.target_android)
    )


@procedure(
    "steel_war.psi_confusion",
    input=PsiInput,
    rules=("SW-PSI-15", "SW-PSI-05", "SW-PSI-06", "SW-PSI-07", "SW-CORE-01"),
    examples=({"psi": "d8", "distance": 6}, {"psi": "d6", "target_machine": True}),
)
def psi_confusion_procedure(inp: PsiInput) -> Procedure[PsiOutcome]:
    """Psi confusion: the target loses its activation."""
    return (yield from psi_confusion(inp.attempt()))


@procedure(
    "steel_war.psi_blast",
    input=PsiBlastInput,
    rules=(
        "SW-PSI-16",
        "SW-PSI-05",
        "SW-PSI-06",
        "SW-PSI-07",
        "SW-CORE-01",
        "SW-MOR-01",
        "SW-PANIC-01",
    ),
    examples=(
        {"psi": "d12", "distance": 6},
        {"psi": "d10", "distance": 6, "choice": "panic"},
        {"psi": "d8", "distance": 18},
    ),
)
def psi_blast_procedure(inp: PsiBlastInput) -> Procedure[PsiOutcome]:
    """Psi blast: the target loses morale levels or falls into panic (psionic's choice)."""
    return (yield from psi_blast(inp.attempt(), inp.choice))


@procedure(
    "steel_war.psi_murder",
    input=PsiMurderInput,
    rules=(
        "SW-PSI-17",
        "SW-PSI-18",
        "SW-PSI-05",
        "SW-PSI-06",
        "SW-PSI-07",
        "SW-MOR-05",
        "SW-CORE-02",
        "SW-CORE-03",
        "SW-MOR-06",
        "SW-SUP-01",
        "SW-CORE-01",
        "SW-MOR-03",
    ),
    examples=(
        {"psi": "d12", "distance": 6, "target_quality": "d8", "target_leadership": 2, "threat": 3},
        {
            "psi": "d10",
            "distance": 10,
            "target_quality": "d10",
            "target_leadership": 1,
            "threat": 4,
            "target_android": True,
        },
        {
            "psi": "d12",
            "target_quality": "d8",
            "target_leadership": 2,
            "threat": 3,
            "target_models": 1,
        },
    ),
)
def psi_murder_procedure(inp: PsiMurderInput) -> Procedure[PsiOutcome]:
    """Psi murder: a soldier shoots a comrade; suppression and a morale test follow."""
    return (yield from psi_murder(inp.attempt(), inp.target(), inp.threat, inp.target_models))
