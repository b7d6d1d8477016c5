"""The public procedures ``apocalypse.melody`` and ``apocalypse.jam``."""

from __future__ import annotations

from pydantic import Field

from kubik.engine import Procedure, ProcedureInput, procedure
from kubik.rulesets.apocalypse.melody import (
    Casting,
    CastOutcome,
    Jamming,
    JamOutcome,
    cast,
    jam,
)


class MelodyInput(ProcedureInput):
    """A singer plays a Melody."""

    difficulty: int = Field(ge=2, le=20, description="the Melody's difficulty (сложность), 2..20")
    dice: int = Field(default=2, ge=1, le=8, description="casting dice (2D6 by default), 1..8")
    modifier: int = Field(default=0, ge=-6, le=6, description="added to the total, -6..6")
    reroll: bool = Field(default=False, description="the singer has an ordinary re-roll")
    impulse: bool = Field(
        default=False, description="the singer may use Единый Порыв (re-roll judging the Error)"
    )


@procedure(
    "apocalypse.melody",
    input=MelodyInput,
    rules=("RA-MEL-01", "RA-MEL-02", "RA-MEL-03", "RA-MEL-04", "RA-ABSENT-02", "RA-ABSENT-03"),
    examples=(
        {"difficulty": 7},
        {"difficulty": 9, "reroll": True},
        {"difficulty": 8, "impulse": True},
        {"difficulty": 10, "dice": 4},
        {"difficulty": 6, "dice": 3, "modifier": -1, "reroll": True, "impulse": True},
    ),
)
def melody_procedure(inp: MelodyInput) -> Procedure[CastOutcome]:
    """Play a Melody: casting dice against its difficulty, Terrible Error, Monstrous Power."""
    casting = Casting(inp.difficulty, inp.dice, inp.modifier, inp.reroll, inp.impulse)
    return (yield from cast(casting))


class JamInput(ProcedureInput):
    """An opponent tries to jam a Melody."""

    casting_total: int = Field(
        default=0, ge=0, le=60, description="the casting total (an instant Melody's target)"
    )
    difficulty: int = Field(
        default=0, ge=0, le=20, description="the Melody's difficulty (a lasting Melody's target)"
    )
    lasting: bool = Field(default=False, description="a lasting Melody (jammed against difficulty)")
    monstrous_power: bool = Field(
        default=False, description="cast with Monstrous Power (unjammable in its round)"
    )
    later_round: bool = Field(
        default=False, description="the round it was cast in is over (lasting Melodies)"
    )
    dice: int = Field(default=2, ge=1, le=8, description="jamming dice (2D6 by default), 1..8")
    modifier: int = Field(default=0, ge=-6, le=6, description="added to the jamming total")


@procedure(
    "apocalypse.jam",
    input=JamInput,
    rules=("RA-MEL-05", "RA-MEL-03", "RA-MEL-09", "RA-ABSENT-03"),
    examples=(
        {"casting_total": 8},
        {"difficulty": 7, "lasting": True},
        {"casting_total": 12, "monstrous_power": True},
        {"difficulty": 9, "lasting": True, "monstrous_power": True, "later_round": True},
        {"casting_total": 10, "dice": 3, "modifier": 1},
    ),
)
def jam_procedure(inp: JamInput) -> Procedure[JamOutcome]:
    """Jam a Melody: two natural 1s fail, a double six succeeds, else reach the target."""
    jamming = Jamming(
        inp.casting_total,
        inp.difficulty,
        inp.lasting,
        inp.monstrous_power,
        inp.later_round,
        inp.dice,
        inp.modifier,
    )
    return (yield from jam(jamming))
