"""Old West's public procedure ``old_west.fight`` (Dukin' it out)."""

from __future__ import annotations

from typing import Self

from pydantic import Field, model_validator

from kubik.engine import Procedure, ProcedureInput, procedure
from kubik.engine.registry import per_input
from kubik.rulesets.old_west.core import Side, number
from kubik.rulesets.old_west.fight import Fighter, FightOutcome, fight


class FighterInput(ProcedureInput):
    """One model in a fight."""

    fight: int = Field(ge=1, le=10, description="Fight value (Ближний Бой), 1..10")
    attacks: int = Field(ge=1, le=10, description="Attacks (Атаки): dice it rolls, 1..10")
    fame: int = Field(
        default=0, ge=0, le=10, description="Fame (Слава) a Hero may spend on his die, 0..10"
    )

    def fighter(self) -> Fighter:
        """The rule module's value."""
        return Fighter(self.fight, self.attacks, self.fame)


def check_dice_per_side(sides: dict[str, int]) -> None:
    """Exact odds walk every multiset of a side's dice, so their number is bounded."""
    limit = number("close_combat", "max_dice_per_side")
    for name, dice in sides.items():
        if dice > limit:
            raise ValueError(f"{name}: {dice} Attacks in all; at most {limit} dice per side")


class FightInput(ProcedureInput):
    """Two sides in one fight; every model rolls one d6 per Attack."""

    a: tuple[FighterInput, ...] = Field(min_length=1, max_length=10, description="side a")
    b: tuple[FighterInput, ...] = Field(min_length=1, max_length=10, description="side b")
    advantage: Side = Field(
        default=Side.A,
        description="side with advantage (преимущество): it takes 1–3 on the roll-off",
    )

    @model_validator(mode="after")
    def _bounded(self) -> Self:
        check_dice_per_side(
            {"a": sum(f.attacks for f in self.a), "b": sum(f.attacks for f in self.b)}
        )
        return self


@procedure(
    "old_west.fight",
    input=FightInput,
    rules=("OW-CC-03", "OW-CC-11", "OW-CC-13", "OW-HERO-02", "OW-HERO-03", "OW-HERO-05"),
    examples=(
        {"a": [{"fight": 3, "attacks": 1}], "b": [{"fight": 3, "attacks": 1}]},
        {"a": [{"fight": 3, "attacks": 1}] * 3, "b": [{"fight": 4, "attacks": 1}]},
        {
            "a": [{"fight": 5, "attacks": 2, "fame": 2}],
            "b": [{"fight": 3, "attacks": 1}],
            "advantage": "b",
        },
        {
            "a": [{"fight": 4, "attacks": 1, "fame": 2}],
            "b": [{"fight": 4, "attacks": 1, "fame": 1}],
        },
    ),
)
def fight_procedure(inp: FightInput) -> Procedure[FightOutcome]:
    """Dukin' it out: best die wins; ties go to the best Fight value, then a d6 roll-off."""
    a, b = _fighters(inp)
    return (yield from fight(a, b, inp.advantage))


@per_input
def _fighters(inp: FightInput) -> tuple[tuple[Fighter, ...], tuple[Fighter, ...]]:
    """The rule's values of an input (built once: exact odds replay the procedure often)."""
    return tuple(f.fighter() for f in inp.a), tuple(f.fighter() for f in inp.b)
