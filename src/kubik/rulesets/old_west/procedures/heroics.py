"""Old West's public procedures for heroic actions and the absent rules' defaults."""

from __future__ import annotations

from typing import Self

from pydantic import Field, model_validator

from kubik.engine import Procedure, ProcedureInput, procedure
from kubik.rulesets.old_west.absent import (
    AdvantageOutcome,
    FallOutcome,
    FortuneOutcome,
    JumpOutcome,
    ShotOutcome,
    WoundsOutcome,
    advantage_roll,
    fall_from_horse,
    falling,
    fortune,
    jump_test,
    shoot,
)
from kubik.rulesets.old_west.core import Side
from kubik.rulesets.old_west.heroics import OrderOutcome, heroic_order

TOUGHNESS = Field(ge=1, le=10, description="Toughness (Выносливость), 1..10")
FAME = Field(default=0, ge=0, le=10, description="Fame (Слава) the Hero may spend, 0..10")


class OrderInput(ProcedureInput):
    """Both sides declared heroic actions at the start of a phase."""

    advantage: Side = Field(default=Side.A, description="side with advantage this turn")


@procedure(
    "old_west.heroic_order",
    input=OrderInput,
    rules=("OW-HERO-07", "OW-HERO-06"),
    examples=({"advantage": "a"}, {"advantage": "b"}),
)
def heroic_order_procedure(inp: OrderInput) -> Procedure[OrderOutcome]:
    """Who acts first when both sides declare heroic actions: d6, 1–3 the side with advantage."""
    return (yield from heroic_order(inp.advantage))


class AdvantageInput(ProcedureInput):
    """The advantage roll at the start of a turn (NOT FROM THE SEED)."""

    last: Side | None = Field(
        default=None, description="side with advantage last turn (null: first)"
    )


@procedure(
    "old_west.advantage",
    input=AdvantageInput,
    rules=("OW-ABSENT-01",),
    examples=({}, {"last": "a"}),
)
def advantage_procedure(inp: AdvantageInput) -> Procedure[AdvantageOutcome]:
    """Advantage roll (NOT FROM THE SEED): higher d6; ties to the side without it last turn."""
    return (yield from advantage_roll(inp.last))


class JumpInput(ProcedureInput):
    """A jump or climb test (NOT FROM THE SEED)."""

    fame: int = FAME


@procedure(
    "old_west.jump_test",
    input=JumpInput,
    rules=("OW-ABSENT-02", "OW-HERO-04"),
    examples=({}, {"fame": 1}),
)
def jump_procedure(inp: JumpInput) -> Procedure[JumpOutcome]:
    """Jump/climb test (NOT FROM THE SEED): d6, 1 fails, 2–5 succeed ending the move, 6 succeeds."""
    return (yield from jump_test(inp.fame, "model"))


class ShootInput(ProcedureInput):
    """One shot (NOT FROM THE SEED: the shooting rules are absent)."""

    shoot: int = Field(ge=2, le=6, description="Shoot value: d6 roll needed to hit, 2..6")
    strength: int = Field(ge=1, le=10, description="the weapon's Strength, 1..10")
    toughness: int = TOUGHNESS
    in_the_way: int = Field(
        default=0, ge=0, le=3, description="terrain in the way (each stops the shot on 1–3)"
    )
    models_in_the_way: tuple[int, ...] = Field(
        default=(),
        max_length=3,
        description="Toughness of each model in the way, met after the terrain; a model "
        "hit instead of the target is rolled against",
    )
    mount_toughness: int = Field(
        default=0, ge=0, le=10, description="target's mount Toughness; 0 if on foot"
    )
    fame: int = FAME

    @model_validator(mode="after")
    def _in_the_way(self) -> Self:
        if any(not 1 <= t <= 10 for t in self.models_in_the_way):
            raise ValueError("models_in_the_way: every Toughness must be 1..10")
        if self.in_the_way + len(self.models_in_the_way) > 3:
            raise ValueError("in_the_way, models_in_the_way: at most 3 things in the way")
        return self


@procedure(
    "old_west.shoot",
    input=ShootInput,
    rules=("OW-ABSENT-04", "OW-HERO-05", "OW-CC-06"),
    examples=(
        {"shoot": 4, "strength": 3, "toughness": 3},
        {"shoot": 4, "strength": 3, "toughness": 3, "in_the_way": 1, "mount_toughness": 3},
        {"shoot": 3, "strength": 4, "toughness": 3, "models_in_the_way": [3]},
        {"shoot": 5, "strength": 3, "toughness": 8, "fame": 2},
    ),
)
def shoot_procedure(inp: ShootInput) -> Procedure[ShotOutcome]:
    """A shot (NOT FROM THE SEED): to hit, things in the way, horse or rider, then to wound."""
    in_the_way = (0,) * inp.in_the_way + inp.models_in_the_way
    return (
        yield from shoot(
            inp.shoot, inp.strength, inp.toughness, in_the_way, inp.mount_toughness, inp.fame
        )
    )


class FallingInput(ProcedureInput):
    """A fall from a height (NOT FROM THE SEED)."""

    height: int = Field(ge=0, le=20, description="height fallen, in inches")
    toughness: int = TOUGHNESS


@procedure(
    "old_west.falling",
    input=FallingInput,
    rules=("OW-ABSENT-05", "OW-CC-09"),
    examples=({"height": 2, "toughness": 3}, {"height": 5, "toughness": 3}),
)
def falling_procedure(inp: FallingInput) -> Procedure[WoundsOutcome]:
    """Falling (NOT FROM THE SEED): a Strength 3 hit per full 2" for falls of more than 2"."""
    return (yield from falling(inp.height, inp.toughness))


class FallFromHorseInput(ProcedureInput):
    """A rider whose mount was killed (NOT FROM THE SEED)."""

    toughness: int = TOUGHNESS


@procedure(
    "old_west.fall_from_horse",
    input=FallFromHorseInput,
    rules=("OW-ABSENT-06", "OW-CC-16"),
    examples=({"toughness": 3},),
)
def fall_from_horse_procedure(inp: FallFromHorseInput) -> Procedure[FallOutcome]:
    """Falling from a Horse (NOT FROM THE SEED): d6, 1 a Strength 3 hit, 2–5 prone, 6 standing."""
    return (yield from fall_from_horse(inp.toughness))


class FortuneInput(ProcedureInput):
    """A Hero who suffered wounds and may spend Fortune (NOT FROM THE SEED)."""

    wounds: int = Field(ge=0, le=5, description="wounds just suffered")
    fortune: int = Field(ge=0, le=5, description="Fortune (Удача) points to spend")


@procedure(
    "old_west.fortune",
    input=FortuneInput,
    rules=("OW-ABSENT-07", "OW-HERO-01"),
    examples=({"wounds": 1, "fortune": 2}, {"wounds": 2, "fortune": 3}),
)
def fortune_procedure(inp: FortuneInput) -> Procedure[FortuneOutcome]:
    """Fortune (NOT FROM THE SEED): 4+ on a d6 per Fortune point ignores a wound."""
    return (yield from fortune(inp.wounds, inp.fortune))
