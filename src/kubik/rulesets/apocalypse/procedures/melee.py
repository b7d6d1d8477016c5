"""The public procedure ``apocalypse.melee``: input models and registration."""

from __future__ import annotations

from pydantic import Field

from kubik.engine import Procedure, ProcedureInput, procedure
from kubik.rulesets.apocalypse.melee import Fighter, MeleeOutcome, melee


class FighterInput(ProcedureInput):
    """One fighter of the bout. The design's fields first; the rest default to off."""

    toughness: int = Field(ge=1, le=10, description="Стойкость (Toughness), 1..10")
    wounds: int = Field(default=0, ge=0, le=10, description="wounds already taken, 0..10")
    combat_skill: int = Field(ge=0, le=10, description="Боевое умение (Combat Skill), 0..10")
    movement: int = Field(ge=1, le=12, description="Подвижность (Mobility), 1..12: breaks ties")
    attack_dice: int = Field(default=1, ge=0, le=6, description="attack dice of the profile, 0..6")
    charging: bool = Field(default=False, description="charged this turn (+1)")
    elevated: bool = Field(default=False, description="stands on higher ground (+1)")
    shield: bool = Field(default=False, description="carries a shield (Блок)")
    extra_weapons: int = Field(
        default=0, ge=0, le=3, description="weapons beyond the first: +1 attack die each, 0..3"
    )
    over_obstacle: bool = Field(
        default=False, description="charged an enemy in cover, over an obstacle (−1)"
    )
    leap_attack: bool = Field(
        default=False, description="leapt onto the enemy from above (+1 and +1 die)"
    )
    afraid: bool = Field(
        default=False, description="failed a fear test against this charger (die halved)"
    )
    terrified: bool = Field(default=False, description="failed a terror test (Боевое умение 0)")
    outnumber: int = Field(
        default=0, ge=0, le=5, description="fighters of his side beyond the enemy's, 0..5"
    )
    frenzied: bool = Field(
        default=False, description="Бешенство: twice the profile's dice, maximum Стойкость"
    )
    insensitive: bool = Field(default=False, description="insensitive to pain: maximum Стойкость")
    hatred: bool = Field(
        default=False, description="Ненависть, first round: re-rolls attack dice below 4"
    )
    knocked_down: bool = Field(
        default=False, description="knocked down: rolls nothing, every blow lands"
    )
    stupid: bool = Field(default=False, description="failed a stupidity test: strikes no blows")

    def fighter(self) -> Fighter:
        """The rule's situation."""
        return Fighter(**self.model_dump())


class MeleeInput(ProcedureInput):
    """A bout between two fighters: ``a`` and ``b``."""

    a: FighterInput = Field(description="the first fighter (rolls first)")
    b: FighterInput = Field(description="the second fighter")


@procedure(
    "apocalypse.melee",
    input=MeleeInput,
    rules=(
        "RA-CC-04",
        "RA-CC-05",
        "RA-CC-06",
        "RA-CC-07",
        "RA-CC-08",
        "RA-CC-09",
        "RA-CC-10",
        "RA-CC-11",
        "RA-CC-12",
        "RA-CC-13",
        "RA-CC-17",
        "RA-CC-18",
        "RA-PSY-07",
        "RA-PSY-10",
        "RA-PSY-13",
        "RA-MAN-05",
    ),
    examples=(
        {
            "a": {"toughness": 4, "combat_skill": 4, "movement": 4},
            "b": {"toughness": 3, "combat_skill": 3, "movement": 4, "charging": True},
        },
        {
            "a": {"toughness": 4, "combat_skill": 3, "movement": 4, "attack_dice": 2},
            "b": {"toughness": 4, "wounds": 1, "combat_skill": 3, "movement": 5, "shield": True},
        },
        {
            "a": {"toughness": 3, "combat_skill": 3, "movement": 4, "shield": True},
            "b": {
                "toughness": 3,
                "combat_skill": 2,
                "movement": 3,
                "shield": True,
                "elevated": True,
            },
        },
        {
            "a": {"toughness": 4, "combat_skill": 4, "movement": 4, "outnumber": 1, "hatred": True},
            "b": {"toughness": 4, "combat_skill": 3, "movement": 4, "afraid": True},
        },
        {
            "a": {"toughness": 4, "combat_skill": 3, "movement": 4, "leap_attack": True},
            "b": {"toughness": 3, "combat_skill": 3, "movement": 3, "knocked_down": True},
        },
    ),
)
def melee_procedure(inp: MeleeInput) -> Procedure[MeleeOutcome]:
    """One round of close combat: attack dice, results, winner and hits."""
    return (yield from melee(inp.a.fighter(), inp.b.fighter()))
