"""The public procedure ``fantasy.shooting``: one unit's shots at one target."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from kubik.core.errors import InputError
from kubik.engine import Procedure, ProcedureInput, msg, procedure
from kubik.engine.requests import tail_step
from kubik.rulesets.fantasy.procedures.target import target_fields
from kubik.rulesets.fantasy.shooting import Volley, VolleyOutcome, shooters, volley
from kubik.rulesets.fantasy.special_rules import SpecialRule

#: Engine limit, not a rule: shots in one volley (models shooting × shots each), so
#: its exact odds answer within a second; as many as the attacks ``fantasy.attacks``
#: takes. Twenty models with three shots each, or thirty with two, is more than a
#: regiment fires (two ranks shoot, Volley fire adds half the rest).
MAX_SHOTS = 60


class ShootingInput(ProcedureInput):
    """Shots of a unit with missile weapons at one target."""

    ranks: tuple[Annotated[int, Field(ge=0, le=40)], ...] = Field(
        min_length=1,
        max_length=10,
        description=(
            "models in each rank, front first (0..40 each; "
            f"at most {MAX_SHOTS} shots in the volley, models shooting × shots each)"
        ),
    )
    ballistic_skill: int = Field(ge=1, le=10, description="shooters' Ballistic Skill (BS)")
    strength: int = Field(ge=1, le=10, description="the weapon's Strength")
    target_toughness: int = Field(ge=1, le=10, description="target's Toughness")
    target_armour_save: int | None = Field(default=None, ge=1, le=6, description="armour save")
    target_ward_save: int | None = Field(default=None, ge=2, le=6, description="ward save")
    target_regeneration: int | None = Field(default=None, ge=2, le=6, description="regeneration")
    target_wounds: int = Field(default=1, ge=1, le=10, description="target's Wounds")
    special_rules: tuple[SpecialRule, ...] = Field(default=(), description="shooters' rules")
    target_special_rules: tuple[SpecialRule, ...] = Field(default=(), description="target's")
    moved: bool = Field(default=False, description="the shooters moved this turn (-1)")
    mounted: bool = Field(default=False, description="the shooters are mounted")
    character_joined: bool = Field(default=False, description="a character joined the unit")
    long_range: bool = Field(default=False, description="over half range (-1)")
    single_target: bool = Field(default=False, description="a lone or skirmishing target (-1)")
    cover: Literal["none", "soft", "hard"] = Field(default="none", description="cover (-1/-2)")
    stand_and_shoot: bool = Field(default=False, description="Stand and Shoot reaction (-1)")
    multiple: Literal[1, 2, 3] = Field(default=1, description="shots each (×2/×3 at -1)")
    ridden_monster: bool = Field(default=False, description="the target is a ridden monster")
    rider_toughness: int = Field(default=3, ge=1, le=10, description="its rider's Toughness")
    rider_armour_save: int | None = Field(default=None, ge=1, le=6, description="rider's save")
    rider_wounds: int = Field(default=1, ge=1, le=10, description="rider's Wounds left")


@procedure(
    "fantasy.shooting",
    input=ShootingInput,
    rules=(
        "FB-ABSENT-02",
        "FB-SHOOT-01",
        "FB-SHOOT-03",
        "FB-SHOOT-04",
        "FB-SHOOT-05",
        "FB-SHOOT-06",
        "FB-MOV-01",
        "FB-SR-16",
    ),
    examples=(
        {"ranks": [2], "ballistic_skill": 3, "strength": 3, "target_toughness": 3},
        {
            "ranks": [1, 0, 2],
            "ballistic_skill": 3,
            "strength": 4,
            "target_toughness": 4,
            "special_rules": ["volley_fire"],
            "target_armour_save": 6,
        },
        {
            "ranks": [1],
            "ballistic_skill": 2,
            "strength": 3,
            "target_toughness": 3,
            "long_range": True,
            "cover": "soft",
        },
        {
            "ranks": [1],
            "ballistic_skill": 4,
            "strength": 5,
            "target_toughness": 5,
            "ridden_monster": True,
            "rider_toughness": 4,
        },
    ),
)
def shooting_procedure(inp: ShootingInput) -> Procedure[VolleyOutcome]:
    """Shooting: to hit by BS with its modifiers and 7+ rolls, to wound, saves."""
    rules = frozenset(inp.special_rules)
    normal, overhead = shooters(inp.ranks, "volley_fire" in rules)
    fired = (normal + overhead) * inp.multiple
    if fired > MAX_SHOTS:
        raise InputError(msg("fantasy.shooting.too_many_shots", shots=fired, most=MAX_SHOTS))
    shots_fired = Volley(
        shots=normal,
        overhead_shots=overhead,
        ballistic_skill=inp.ballistic_skill,
        strength=inp.strength,
        rules=rules,
        moved=inp.moved,
        mounted=inp.mounted,
        character_joined=inp.character_joined,
        long_range=inp.long_range,
        single_target=inp.single_target,
        cover=inp.cover,
        stand_and_shoot=inp.stand_and_shoot,
        multiple=inp.multiple,
        ridden_monster=inp.ridden_monster,
        rider_toughness=inp.rider_toughness,
        rider_armour_save=inp.rider_armour_save,
        rider_wounds=inp.rider_wounds,
        **target_fields(inp),
    )
    # a step of this procedure (logged as its own), whose odds are the volley's own
    outcome: VolleyOutcome = yield tail_step(volley, shots_fired)
    return outcome
