"""The public procedure ``fantasy.attacks``: input model (design.md's contract) and
registration."""

from __future__ import annotations

from pydantic import Field

from kubik.engine import Procedure, ProcedureInput, procedure
from kubik.engine.requests import tail_step
from kubik.rulesets.fantasy.attacks import (
    AttacksOutcome,
    Blows,
    attacks,
    extra_attacks,
    weapon_bonus,
)
from kubik.rulesets.fantasy.procedures.target import target_fields
from kubik.rulesets.fantasy.special_rules import SpecialRule, WeaponId

#: Engine limit, not a rule: blows in one call (the pools' odds stay instant).
MAX_ATTACKS = 60


class AttacksInput(ProcedureInput):
    """One model's (or one rank's) blows at models of one kind."""

    attacks: int = Field(ge=0, le=MAX_ATTACKS, description="Attacks (Атаки) made, 0..60")
    weapon_skill: int = Field(ge=1, le=10, description="attacker's Weapon Skill (WS), 1..10")
    strength: int = Field(ge=1, le=10, description="attacker's Strength (S), 1..10")
    target_weapon_skill: int = Field(ge=1, le=10, description="target's Weapon Skill, 1..10")
    target_toughness: int = Field(ge=1, le=10, description="target's Toughness (T), 1..10")
    target_armour_save: int | None = Field(
        default=None, ge=2, le=6, description="target's armour save 2..6 (null: none)"
    )
    target_ward_save: int | None = Field(
        default=None, ge=2, le=6, description="target's ward (magical) save 2..6 (null: none)"
    )
    special_rules: tuple[SpecialRule, ...] = Field(
        default=(), description="attacker's special rules (snake_case ids of the seed's rules)"
    )
    round: int = Field(default=1, ge=1, le=20, description="round of the combat (1 = first)")
    charging: bool = Field(
        default=True, description="the attacker charged into this combat (Devastating charge)"
    )
    initiative: int = Field(default=3, ge=1, le=10, description="attacker's Initiative")
    target_initiative: int = Field(default=3, ge=1, le=10, description="target's Initiative")
    target_special_rules: tuple[SpecialRule, ...] = Field(
        default=(), description="target's special rules (ethereal, flammable ...)"
    )
    target_regeneration: int | None = Field(
        default=None, ge=2, le=6, description="target's regeneration save 2..6 (null: none)"
    )
    target_wounds: int = Field(
        default=1, ge=1, le=10, description="target's Wounds (a Killing blow takes them all)"
    )
    weapon: WeaponId = Field(default="hand_weapon", description="attacker's weapon")
    hates_target: bool | None = Field(
        default=None, description="the attacker hates the target (null: as its Hatred says)"
    )


@procedure(
    "fantasy.attacks",
    input=AttacksInput,
    rules=(
        "FB-ABSENT-01",
        "FB-ABSENT-03",
        "FB-ABSENT-04",
        "FB-ABSENT-05",
        "FB-SR-02",
        "FB-SR-04",
        "FB-SR-05",
        "FB-SR-06",
        "FB-SR-07",
        "FB-SR-09",
        "FB-SR-10",
        "FB-SR-11",
        "FB-SR-12",
        "FB-SR-13",
        "FB-PSY-05",
        "FB-PSY-06",
    ),
    examples=(
        {
            "attacks": 2,
            "weapon_skill": 4,
            "strength": 3,
            "target_weapon_skill": 3,
            "target_toughness": 3,
            "target_armour_save": 5,
        },
        {
            "attacks": 1,
            "weapon_skill": 3,
            "strength": 4,
            "target_weapon_skill": 3,
            "target_toughness": 4,
            "target_armour_save": 4,
            "target_ward_save": 5,
            "special_rules": ["poisoned_attacks", "hatred"],
        },
        {
            "attacks": 1,
            "weapon_skill": 5,
            "strength": 4,
            "target_weapon_skill": 4,
            "target_toughness": 5,
            "target_armour_save": 3,
            "special_rules": ["killing_blow", "armour_piercing"],
            "target_wounds": 3,
        },
        {
            "attacks": 1,
            "weapon_skill": 4,
            "strength": 4,
            "target_weapon_skill": 3,
            "target_toughness": 4,
            "special_rules": ["flaming_attacks"],
            "target_special_rules": ["flammable"],
            "target_regeneration": 4,
            "target_armour_save": 5,
        },
        {
            "attacks": 3,
            "weapon_skill": 3,
            "strength": 3,
            "target_weapon_skill": 3,
            "target_toughness": 3,
            "target_special_rules": ["ethereal"],
        },
    ),
)
def attacks_procedure(inp: AttacksInput) -> Procedure[AttacksOutcome]:
    """Blows in close combat: to hit (WS vs WS), to wound (S vs T), armour, ward, regeneration."""
    rules = frozenset(inp.special_rules)
    _, weapon_attacks = weapon_bonus(inp.weapon, round_number=inp.round, charging=inp.charging)
    more = extra_attacks(rules) + weapon_attacks if inp.attacks else 0
    blows = Blows(
        attacks=inp.attacks + more,
        weapon_skill=inp.weapon_skill,
        strength=inp.strength,
        target_weapon_skill=inp.target_weapon_skill,
        rules=rules,
        round_number=inp.round,
        charging=inp.charging,
        initiative=inp.initiative,
        target_initiative=inp.target_initiative,
        weapon=inp.weapon,
        **target_fields(inp),
        hates_target=inp.hates_target,
    )
    # a step of this procedure (logged as its own), whose odds are the blows' own
    outcome: AttacksOutcome = yield tail_step(attacks, blows)
    return outcome
