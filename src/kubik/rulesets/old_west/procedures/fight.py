"""Old West's public procedure ``old_west.fight`` (Dukin' it out)."""

from __future__ import annotations

from typing import Self

from pydantic import Field, model_validator

from kubik.engine import Procedure, ProcedureInput, procedure
from kubik.engine.registry import per_input
from kubik.rulesets.old_west.core import Side, number
from kubik.rulesets.old_west.division import fight_shape
from kubik.rulesets.old_west.fight import Fighter, FightOutcome, fight

#: The ranges of a fight's questions are the game's, not every number a die could take:
#: the seed's largest values are three Attacks (three dice, OW-CC-11), three Wounds
#: (OW-CC-12) and three Fame spent on one roll (the worked example of OW-HERO-05), and no
#: profile of the game (data/game.toml) or built-in scenario goes past them (Fame 3,
#: Fortune 2, Attacks 2, Wounds 3 at most). Fortune, absent from the seed (OW-ABSENT-07),
#: is modelled on a Fate whose Heroes have at most three points, as many as Fame.
MOST_ATTACKS = 3
MOST_WOUNDS = 3
MOST_FAME = 3
MOST_FORTUNE = 3
#: Models that can touch one model's base: six bases of its size around it. A fight has
#: a single model on one side (OW-ABSENT-03, :func:`.division.fight_shape`), so the other
#: side is at most the six in contact with him.
MOST_MODELS = 6


class FighterInput(ProcedureInput):
    """One model in a fight."""

    fight: int = Field(ge=1, le=10, description="Fight value (Ближний Бой), 1..10")
    attacks: int = Field(
        ge=1, le=MOST_ATTACKS, description="Attacks (Атаки): dice it rolls, 1..3 (OW-CC-11)"
    )
    fame: int = Field(
        default=0,
        ge=0,
        le=MOST_FAME,
        description="Fame (Слава) a Hero may spend on his die, 0..3 (OW-HERO-05)",
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
    """Two sides in one fight; every model rolls one d6 per Attack. One side is a single
    model (fights are split that way, OW-ABSENT-03), as in ``old_west.combat``."""

    a: tuple[FighterInput, ...] = Field(
        min_length=1, max_length=MOST_MODELS, description="side a (1..6 models)"
    )
    b: tuple[FighterInput, ...] = Field(
        min_length=1, max_length=MOST_MODELS, description="side b (1..6 models)"
    )
    advantage: Side = Field(
        default=Side.A,
        description="side with advantage (преимущество): it takes 1–3 on the roll-off",
    )

    @model_validator(mode="after")
    def _bounded(self) -> Self:
        if not fight_shape(len(self.a), len(self.b)).allowed:
            raise ValueError("a, b: one side of a fight must be a single model")
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
    """Dukin' it out: best die wins; ties go to the best Fight value, then a d6 roll-off.

    The rule's own generator, not one that delegates to it: exact odds replay a fight
    hundreds of times, and each answer sent through one more generator costs a question
    of one die a few percent."""
    a, b = _fighters(inp)
    return fight(a, b, inp.advantage)


@per_input
def _fighters(inp: FightInput) -> tuple[tuple[Fighter, ...], tuple[Fighter, ...]]:
    """The rule's values of an input (built once: exact odds replay the procedure often)."""
    return tuple(f.fighter() for f in inp.a), tuple(f.fighter() for f in inp.b)
