"""The public procedure ``fantasy.close_combat``: a whole round between two regiments."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from kubik.core.errors import InputError
from kubik.engine import Procedure, ProcedureInput, msg, procedure
from kubik.rulesets.fantasy.close_combat import (
    ChallengeChoice,
    Facing,
    Regiment,
    Round,
    RoundOutcome,
    close_combat_round,
)
from kubik.rulesets.fantasy.leadership import Command
from kubik.rulesets.fantasy.profiles import Fighter
from kubik.rulesets.fantasy.regiment import CommandGroup, ModelKind
from kubik.rulesets.fantasy.special_rules import SpecialRule, WeaponId

#: Engine limit, not a rule: models in one regiment of the procedure.
MAX_MODELS = 60
#: Engine limit, not a rule: the Wounds of a regiment's rank and file in all (models ×
#: Wounds), so the exact odds of a round answer within a second: they follow every
#: pair of wounds the two sides can deal. As many as the largest regiment of one-Wound
#: models the procedure takes; in the game's units that is twenty Ogres of three
#: Wounds or ten monsters of six (the seed's dragon has six, FB-SR-13), which count as
#: much in unit strength (FB-UNIT-01).
MAX_TROOP_WOUNDS = 60


class ProfileInput(ProcedureInput):
    """A model's characteristics and kit."""

    weapon_skill: int = Field(default=3, ge=1, le=10, description="Weapon Skill (WS)")
    strength: int = Field(default=3, ge=1, le=10, description="Strength (S)")
    toughness: int = Field(default=3, ge=1, le=10, description="Toughness (T)")
    wounds: int = Field(default=1, ge=1, le=10, description="Wounds (W)")
    initiative: int = Field(default=3, ge=1, le=10, description="Initiative (I)")
    attacks: int = Field(default=1, ge=0, le=10, description="Attacks (A)")
    leadership: int = Field(default=7, ge=2, le=10, description="Leadership (Ld)")
    armour_save: int | None = Field(default=None, ge=1, le=6, description="armour save, 1..6")
    ward_save: int | None = Field(default=None, ge=2, le=6, description="ward save, 2..6")
    regeneration: int | None = Field(default=None, ge=2, le=6, description="regeneration, 2..6")
    special_rules: tuple[SpecialRule, ...] = Field(default=(), description="special rules")
    weapon: WeaponId = Field(default="hand_weapon", description="close-combat weapon")

    def fighter(self) -> Fighter:
        """The profile as the rules take it."""
        return Fighter(
            ws=self.weapon_skill,
            s=self.strength,
            t=self.toughness,
            w=self.wounds,
            i=self.initiative,
            a=self.attacks,
            ld=self.leadership,
            armour_save=self.armour_save,
            ward_save=self.ward_save,
            regeneration=self.regeneration,
            rules=frozenset(self.special_rules),
            weapon=self.weapon,
        )


class RegimentInput(ProcedureInput):
    """One side of the combat."""

    troops: ProfileInput = Field(description="the rank and file's profile")
    models: int = Field(
        ge=1,
        le=MAX_MODELS,
        description=(
            "models, command group included "
            f"(at most {MAX_TROOP_WOUNDS} Wounds in all, models × the troops' Wounds)"
        ),
    )
    files: int = Field(default=5, ge=1, le=20, description="models in the front rank (frontage)")
    kind: ModelKind = Field(default=ModelKind.INFANTRY, description="kind, for unit strength")
    champion: bool = Field(default=False, description="a champion (Командир) in the unit")
    standard: bool = Field(default=False, description="a standard bearer (Знаменосец)")
    musician: bool = Field(default=False, description="a musician (Музыкант)")
    character: ProfileInput | None = Field(default=None, description="a character in the unit")
    battle_standard: bool = Field(default=False, description="the character is the army's BSB")
    general: bool = Field(default=False, description="the character is the General")
    charging: bool = Field(
        default=False,
        description=(
            "the unit charged into this combat this turn (at most one side: only the side "
            "whose turn it is charges, FB-ABSENT-19)"
        ),
    )
    facing: Facing = Field(default=Facing.FRONT, description="enemy face it fights")
    high_ground: bool = Field(default=False, description="the unit holds the high ground")
    hates_enemy: bool | None = Field(
        default=None, description="the unit hates this enemy (null: as its Hatred says)"
    )
    impact_hits: Literal["d3", "d6", "d6+1"] | None = Field(
        default=None, description="impact hits of a charger that gained speed"
    )
    breath_strength: int | None = Field(
        default=None, ge=1, le=10, description="Strength of a breath weapon used this round"
    )
    afraid: bool = Field(default=False, description="failed a Fear test earlier in this combat")
    terror_tested: bool = Field(default=False, description="already took its one Terror test")
    general_leadership: int | None = Field(
        default=None, ge=2, le=10, description="Leadership of the General in reach (null: none)"
    )
    battle_standard_near: bool = Field(
        default=False, description="the army's Battle standard is within 12 inches"
    )

    def regiment(self) -> Regiment:
        """The regiment as the rules take it."""
        reach = Command(
            general_leadership=self.general_leadership,
            general_inches=0 if self.general_leadership is not None else None,
            battle_standard_inches=0 if self.battle_standard_near else None,
        )
        return Regiment(
            troops=self.troops.fighter(),
            models=self.models,
            files=self.files,
            kind=self.kind,
            command=CommandGroup(self.champion, self.standard, self.musician),
            character=self.character.fighter() if self.character else None,
            battle_standard=self.battle_standard,
            general=self.general,
            charging=self.charging,
            facing=self.facing,
            high_ground=self.high_ground,
            hates_enemy=self.hates_enemy,
            impact=self.impact_hits,
            breath_strength=self.breath_strength,
            afraid=self.afraid,
            terror_tested=self.terror_tested,
            reach=reach,
        )


class CloseCombatInput(ProcedureInput):
    """A round of close combat between regiments ``a`` and ``b``."""

    a: RegimentInput = Field(description="side a")
    b: RegimentInput = Field(description="side b")
    round: int = Field(default=1, ge=1, le=20, description="round of the combat (1 = first)")
    challenge: ChallengeChoice = Field(
        default=ChallengeChoice.ACCEPT,
        description="none, or a challenge accepted or refused (first round only)",
    )


_ONE = {"troops": {"weapon_skill": 3, "attacks": 1, "leadership": 7}, "models": 1, "files": 1}


@procedure(
    "fantasy.close_combat",
    input=CloseCombatInput,
    rules=(
        "FB-ABSENT-07",
        "FB-ABSENT-08",
        "FB-ABSENT-13",
        "FB-ABSENT-17",
        "FB-SR-01",
        "FB-SR-02",
        "FB-SR-03",
        "FB-SR-14",
        "FB-PSY-01",
        "FB-PSY-02",
        "FB-PSY-08",
        "FB-PSY-09",
        "FB-PSY-10",
        "FB-CMD-03",
        "FB-CMD-04",
        "FB-CMD-06",
        "FB-CHAL-03",
        "FB-UNIT-01",
    ),
    examples=(
        {"a": {**_ONE, "charging": True}, "b": _ONE},
        {
            "a": {**_ONE, "troops": {"weapon_skill": 4, "strength": 4, "leadership": 8}},
            "b": {**_ONE, "troops": {"special_rules": ["stubborn"], "leadership": 6}},
            "round": 2,
        },
        {
            "a": {**_ONE, "troops": {"special_rules": ["fear"]}, "charging": True},
            "b": {**_ONE, "troops": {"special_rules": ["unbreakable"], "attacks": 0}},
        },
    ),
)
def close_combat_procedure(inp: CloseCombatInput) -> Procedure[RoundOutcome]:
    """A round of close combat: blows in strike order, combat resolution, Break test."""
    if inp.a.charging and inp.b.charging:
        raise InputError(msg("fantasy.close_combat.both_charging"))
    for side, reg in (("a", inp.a), ("b", inp.b)):
        wounds = reg.models * reg.troops.wounds
        if wounds > MAX_TROOP_WOUNDS:
            raise InputError(
                msg(
                    "fantasy.close_combat.too_many_wounds",
                    side=side,
                    models=reg.models,
                    each=reg.troops.wounds,
                    wounds=wounds,
                    most=MAX_TROOP_WOUNDS,
                )
            )
    return (
        yield from close_combat_round(
            Round(inp.a.regiment(), inp.b.regiment(), inp.round, inp.challenge)
        )
    )
