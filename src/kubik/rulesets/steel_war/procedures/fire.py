"""Steel War's public shooting procedures: fire and the armour test (unsuppressing a
squad is :mod:`.unsuppress`, so a fire question does not load its rule).

Only adapts the public JSON input to the rule modules (fire, damage, suppression).
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import Field

from kubik.core.errors import InputError
from kubik.engine import Procedure, ProcedureInput, procedure
from kubik.engine.registry import per_input
from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war.damage import Injury, armour_test
from kubik.rulesets.steel_war.dice import ChainDie, as_chain_die
from kubik.rulesets.steel_war.fire import (
    Cover,
    FireGroup,
    FireOutcome,
    FireTarget,
    compose_group,
    fire_action,
    fire_target,
    firing_weapons,
)
from kubik.rulesets.steel_war.fire_weapons import WeaponId, weapon


class WeaponEntry(ProcedureInput):
    """Some weapons of one type in the firing squad."""

    weapon: WeaponId = Field(description="weapon id from the weapon table (SW-FIRE-10)")
    count: int = Field(default=1, ge=1, le=30, description="how many of them fire")


class FireInput(ProcedureInput):
    """One fire action of an infantry squad at an infantry target."""

    quality: ChainDie = Field(description="shooter's quality die, d4 (untrained) .. d12 (elite)")
    weapons: tuple[WeaponEntry, ...] = Field(
        min_length=1, description="the weapons firing together; out-of-range ones do not fire"
    )
    distance: float = Field(ge=0, le=200, description="distance to the target in inches")
    cover: Cover = Field(
        default=Cover.NONE, description="target's cover: none, light +1 step, hard +2 steps"
    )
    prone: bool = Field(default=False, description="the target has gone to ground (+1 step)")
    armour: ChainDie = Field(default="d4", description="target models' armour die (d4 a man)")
    target_models: int = Field(
        default=10, ge=1, le=50, description="models in the target squad (hits beyond are lost)"
    )
    flak_vest: bool = Field(
        default=False, description="target wears flak vests (d6 against fragmentation hits)"
    )


@per_input
def _plan(inp: FireInput) -> tuple[FireGroup, FireTarget]:
    """The fire group and target of an input (computed once: the odds driver replays often)."""
    quality = as_chain_die(inp.quality)
    weapons = [(weapon(e.weapon), e.count) for e in inp.weapons]
    group = compose_group(quality, firing_weapons(quality, weapons, inp.distance))
    limit = int(load_ruleset_data("steel_war")["fire_pool_limit"]["max_dice"])
    if len(group.pool) > limit:
        raise InputError(
            f"weapons: the shooter's pool would have {len(group.pool)} dice; at most {limit} "
            "(quality + rate die + support weapons) in one fire action"
        )
    target = fire_target(
        quality,
        inp.distance,
        inp.prone,
        inp.cover,
        as_chain_die(inp.armour),
        inp.target_models,
        inp.flak_vest,
    )
    return group, target


@procedure(
    "steel_war.fire",
    input=FireInput,
    rules=(
        "SW-FIRE-01",
        "SW-FIRE-02",
        "SW-FIRE-03",
        "SW-FIRE-04",
        "SW-FIRE-06",
        "SW-FIRE-07",
        "SW-FIRE-08",
        "SW-FIRE-09",
        "SW-FIRE-10",
        "SW-FIRE-11",
        "SW-FIRE-13",
        "SW-FIRE-14",
        "SW-DMG-01",
        "SW-DMG-03",
        "SW-DMG-04",
        "SW-DMG-08",
        "SW-CORE-01",
        "SW-CORE-02",
        "SW-DMG-02",
        "SW-FIRE-12",
    ),
    examples=(
        {
            "quality": "d6",
            "weapons": [{"weapon": "lmg", "count": 1}],
            "distance": 10,
            "cover": "light",
            "prone": True,
            "armour": "d4",
            "target_models": 10,
        },
        {"quality": "d6", "weapons": [{"weapon": "sniper_rifle", "count": 1}], "distance": 13},
        {
            "quality": "d6",
            "weapons": [{"weapon": "flamethrower_lianra", "count": 1}],
            "distance": 3,
            "target_models": 1,
        },
        {
            "quality": "d4",
            "weapons": [{"weapon": "grenade_launcher", "count": 1}],
            "distance": 5,
            "flak_vest": True,
            "target_models": 1,
        },
    ),
)
def fire_procedure(inp: FireInput) -> Procedure[FireOutcome]:
    """Fire: the shooter's pool against the target's range die; suppression and casualties."""
    group, target = _plan(inp)
    return (yield from fire_action(group, target))


class ArmourTestInput(ProcedureInput):
    """One hit: the weapon's power die against the model's armour die."""

    armour: ChainDie = Field(
        description="armour die: d4 man, d6 full armour, d8 robot, d10 bronescaf"
    )
    power: ChainDie = Field(description="the weapon's power die (мощь)")
    flame: bool = Field(
        default=False, description="a flamethrower firing on its own: every victim at least wounded"
    )


@dataclass(frozen=True, slots=True)
class ArmourTestOutcome:
    """The model's fate: unharmed, wounded or killed."""

    injury: Injury


@procedure(
    "steel_war.armour_test",
    input=ArmourTestInput,
    rules=("SW-DMG-03", "SW-DMG-04", "SW-DMG-08"),
    examples=(
        {"armour": "d4", "power": "d10"},
        {"armour": "d10", "power": "d6"},
        {"armour": "d4", "power": "d12", "flame": True},
    ),
)
def armour_test_procedure(inp: ArmourTestInput) -> Procedure[ArmourTestOutcome]:
    """Armour test: power above armour wounds, three times armour kills."""
    result = yield from armour_test(
        as_chain_die(inp.armour), as_chain_die(inp.power), inp.flame, ("SW-DMG-04",)
    )
    return ArmourTestOutcome(result)
