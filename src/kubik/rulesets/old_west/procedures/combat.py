"""Old West's public procedure ``old_west.combat``: one close-combat round of one fight."""

from __future__ import annotations

from typing import Self

from pydantic import Field, model_validator

from kubik.engine import Procedure, ProcedureInput, procedure
from kubik.engine.registry import per_input
from kubik.rulesets.old_west.combat import CombatOutcome, Model, combat
from kubik.rulesets.old_west.core import Side, number
from kubik.rulesets.old_west.division import fight_shape
from kubik.rulesets.old_west.procedures.fight import (
    MOST_ATTACKS,
    MOST_FAME,
    MOST_FORTUNE,
    MOST_MODELS,
    MOST_WOUNDS,
    check_dice_per_side,
)


class CombatModelInput(ProcedureInput):
    """One model in the fight: profile and situation."""

    fight: int = Field(ge=1, le=10, description="Fight value (Ближний Бой), 1..10")
    attacks: int = Field(ge=1, le=MOST_ATTACKS, description="Attacks (Атаки), 1..3")
    strength: int = Field(ge=1, le=10, description="Strength (Сила), 1..10")
    toughness: int = Field(ge=1, le=10, description="Toughness (Выносливость), 1..10")
    wounds: int = Field(default=1, ge=1, le=MOST_WOUNDS, description="Wounds (Ранения) left, 1..3")
    fame: int = Field(default=0, ge=0, le=MOST_FAME, description="Fame (Слава) to spend, 0..3")
    prone: bool = Field(default=False, description="lying on the ground (OW-CC-10)")
    trapped: bool = Field(
        default=False, description='cannot back off the full 1" if it loses (OW-CC-09)'
    )
    across_obstacle: bool = Field(
        default=False, description="fights across an obstacle: strikes need 4+ to reach"
    )
    cliff_drop: int = Field(
        default=0, ge=0, le=20, description="inches: it stands at the edge of a drop (OW-CC-09)"
    )
    fortune: int = Field(
        default=0,
        ge=0,
        le=MOST_FORTUNE,
        description="Fortune (Удача) to spend against wounds, 0..3 (not from the seed)",
    )
    mounted: bool = Field(default=False, description="rides a horse or mule (OW-CC-16)")
    mount_toughness: int | None = Field(
        default=None, ge=1, le=10, description="the mount's Toughness (default from data)"
    )
    mount_wounds: int | None = Field(
        default=None,
        ge=1,
        le=MOST_WOUNDS,
        description="the mount's Wounds left, 1..3 (default from data)",
    )

    def model(self) -> Model:
        """The rule module's value (mount profile from data when not given)."""
        mount_t = mount_w = 0
        if self.mounted:
            mount_t = self.mount_toughness or number("mount", "toughness")
            mount_w = self.mount_wounds or number("mount", "wounds")
        return Model(
            self.fight,
            self.attacks,
            self.strength,
            self.toughness,
            self.wounds,
            self.fame,
            self.prone,
            self.trapped,
            self.across_obstacle,
            mount_t,
            mount_w,
            self.cliff_drop,
            self.fortune,
        )


class CombatInput(ProcedureInput):
    """One fight: one side must be a single model (fights are split that way)."""

    a: tuple[CombatModelInput, ...] = Field(
        min_length=1, max_length=MOST_MODELS, description="side a (1..6 models)"
    )
    b: tuple[CombatModelInput, ...] = Field(
        min_length=1, max_length=MOST_MODELS, description="side b (1..6 models)"
    )
    advantage: Side = Field(
        default=Side.A, description="side with advantage: it takes 1–3 on the roll-off"
    )

    @model_validator(mode="after")
    def _one_side_single(self) -> Self:
        if not fight_shape(len(self.a), len(self.b)).allowed:
            raise ValueError("a, b: one side of a fight must be a single model")
        check_dice_per_side(
            {"a": sum(f.attacks for f in self.a), "b": sum(f.attacks for f in self.b)}
        )
        return self


LAWMAN = {"fight": 3, "attacks": 1, "strength": 3, "toughness": 3}


@procedure(
    "old_west.combat",
    input=CombatInput,
    rules=(
        "OW-CC-01",
        "OW-CC-03",
        "OW-CC-04",
        "OW-CC-05",
        "OW-CC-09",
        "OW-CC-10",
        "OW-CC-11",
        "OW-CC-12",
        "OW-CC-13",
        "OW-CC-14",
        "OW-CC-15",
        "OW-CC-16",
        "OW-HERO-05",
    ),
    examples=(
        {"a": [LAWMAN], "b": [{**LAWMAN, "across_obstacle": True}]},
        {"a": [{**LAWMAN, "fame": 1}], "b": [{**LAWMAN, "trapped": True, "wounds": 2}]},
        {
            "a": [{**LAWMAN, "strength": 1}, {**LAWMAN, "strength": 1}],
            "b": [{**LAWMAN, "toughness": 10}],
        },
        {"a": [{**LAWMAN, "prone": True}], "b": [{**LAWMAN, "mounted": True}]},
        {"a": [{**LAWMAN, "fight": 4}], "b": [{**LAWMAN, "mounted": True}]},
    ),
)
def combat_procedure(inp: CombatInput) -> Procedure[CombatOutcome]:
    """A close-combat round: Dukin' it out, Back off!, then Woundin' (wounds on the losers).

    The rule's own generator, not one that delegates to it (as ``old_west.fight``: every
    answer the exact odds replay would pass through one more generator)."""
    a, b = _models(inp)
    return combat(a, b, inp.advantage)


@per_input
def _models(inp: CombatInput) -> tuple[tuple[Model, ...], tuple[Model, ...]]:
    """The rule's values of an input (built once: exact odds replay the procedure often)."""
    return tuple(m.model() for m in inp.a), tuple(m.model() for m in inp.b)
