"""Steel War's public close-combat procedures: charge, the charged squad's morale,
one round of close combat, and the fate of melee casualties.

Rule modules hold the rules on plain values; this module only adapts the public
JSON input to them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from pydantic import Field, field_validator, model_validator

from kubik.core.errors import InputError
from kubik.engine import Call, Procedure, ProcedureInput, procedure
from kubik.rulesets.steel_war.charge import (
    ChargeOutcome,
    DefenderMoraleOutcome,
    charge,
    defender_morale,
    defender_rules,
    defender_threat,
    is_frightening,
)
from kubik.rulesets.steel_war.dice import ChainDie, as_chain_die
from kubik.rulesets.steel_war.fire_weapons import WeaponId
from kubik.rulesets.steel_war.melee_casualties import CasualtiesOutcome, melee_casualties
from kubik.rulesets.steel_war.melee_fighters import Fighter, Side, can_fight_in_melee
from kubik.rulesets.steel_war.melee_morale import SideMorale, round_morale
from kubik.rulesets.steel_war.melee_pairing import Group, bouts_of, check_pairing, default_pairing
from kubik.rulesets.steel_war.melee_round import melee_round
from kubik.rulesets.steel_war.morale_levels import MoraleLevel
from kubik.rulesets.steel_war.movement import TerrainClass
from kubik.rulesets.steel_war.movers import MoverType
from kubik.rulesets.steel_war.procedures.morale import MoraleLevelInput


class ChargeInput(ProcedureInput):
    """A squad declaring a charge («атакую!») at an enemy ``distance`` inches away."""

    quality: ChainDie = Field(description="the charging squad's quality die, d4 .. d12")
    leadership: int = Field(ge=1, le=3, description="its commander's leadership, 1 (best) .. 3")
    morale: MoraleLevelInput = Field(
        default=MoraleLevel.STEADY,
        description="its morale level (Ув, Ст, По, Ра, Бе); broken and fleeing squads never charge",
    )
    distance: float = Field(ge=0, le=60, description="inches to the nearest enemy model")
    terrain: TerrainClass = Field(
        default=TerrainClass.EASY,
        description="terrain class of the ground crossed, for the attackers (not impassable)",
    )
    defensive_fire_casualties: int = Field(
        default=0,
        ge=0,
        le=30,
        description="casualties the defender's free fire causes if the charge falls short",
    )

    @field_validator("terrain")
    @classmethod
    def _passable(cls, terrain: TerrainClass) -> TerrainClass:
        if terrain is TerrainClass.IMPASSABLE:
            raise ValueError(
                "no charge crosses impassable terrain; easy, difficult or very_difficult"
            )
        return terrain


@procedure(
    "steel_war.charge",
    input=ChargeInput,
    rules=(
        "SW-CC-02",
        "SW-CC-03",
        "SW-CC-04",
        "SW-ABSENT-02",
        "SW-MOVE-02",
        "SW-CORE-02",
        "SW-CORE-03",
        "SW-MOR-01",
        "SW-REACT-01",
        "SW-REACT-02",
    ),
    examples=(
        {"quality": "d8", "leadership": 2, "morale": "steady", "distance": 7},
        {
            "quality": "d6",
            "leadership": 2,
            "morale": "shaken",
            "distance": 9,
            "defensive_fire_casualties": 1,
        },
        {
            "quality": "d10",
            "leadership": 1,
            "distance": 10,
            "terrain": "difficult",
            "defensive_fire_casualties": 0,
        },
        {"quality": "d8", "leadership": 2, "morale": "broken", "distance": 3},
    ),
)
def charge_procedure(inp: ChargeInput) -> Procedure[ChargeOutcome]:
    """Charge: enhanced reaction test, a 2d6" combat move, and a second try after the free fire.

    Dice order: the quality die (charge test), the 2d6 of the combat move; if it falls
    short and the free fire caused casualties, the quality die again; then the 2d6 of the
    second combat move.
    """
    return (
        yield from charge(
            as_chain_die(inp.quality),
            inp.leadership,
            MoraleLevel(inp.morale),
            inp.distance,
            inp.terrain,
            inp.defensive_fire_casualties,
        )
    )


class DefenderMoraleInput(ProcedureInput):
    """The charged squad when the charge has reached it."""

    quality: ChainDie = Field(description="the charged squad's quality die, d4 .. d12")
    leadership: int = Field(ge=1, le=3, description="its commander's leadership, 1 (best) .. 3")
    attackers: int = Field(ge=1, le=60, description="attacking models, cavalry included")
    defenders: int = Field(ge=1, le=60, description="charged models")
    cavalry_with_blades: int = Field(
        default=0,
        ge=0,
        le=60,
        description="attackers who are cavalry charging «в клинки» (count 2)",
    )
    frightening: bool = Field(
        default=False, description="frightening attackers (Keno Guard, berserk …): threat doubled"
    )
    other_threat: int = Field(
        default=0,
        ge=0,
        le=30,
        description="other threat modifiers that apply (threat table «+» rows)",
    )

    @model_validator(mode="after")
    def _cavalry_among_attackers(self) -> DefenderMoraleInput:
        if self.cavalry_with_blades > self.attackers:
            raise InputError("cavalry_with_blades: at most the number of attackers")
        return self


@procedure(
    "steel_war.defender_morale",
    input=DefenderMoraleInput,
    rules=(
        "SW-CC-05",
        "SW-CC-11",
        "SW-ABSENT-07",
        "SW-MOR-05",
        "SW-CORE-02",
        "SW-CORE-03",
        "SW-MOR-01",
        "SW-MOR-06",
        "SW-MOR-07",
        "SW-MOR-03",
    ),
    examples=(
        {"quality": "d8", "leadership": 2, "attackers": 5, "defenders": 4},
        {"quality": "d6", "leadership": 2, "attackers": 7, "defenders": 3, "frightening": True},
        {"quality": "d10", "leadership": 1, "attackers": 2, "defenders": 4},
        {
            "quality": "d8",
            "leadership": 3,
            "attackers": 3,
            "defenders": 5,
            "cavalry_with_blades": 3,
            "other_threat": 1,
        },
    ),
)
def defender_morale_procedure(inp: DefenderMoraleInput) -> Procedure[DefenderMoraleOutcome]:
    """Charged squad's morale: outnumbering threat, doubled against frightening attackers.

    Dice order: the charged squad's quality die.
    """
    threat = defender_threat(
        inp.attackers,
        inp.defenders,
        cavalry_with_blades=inp.cavalry_with_blades,
        other_threat=inp.other_threat,
        frightening=inp.frightening,
    )
    frightening = is_frightening(inp.frightening, inp.cavalry_with_blades)
    return (
        yield from defender_morale(
            as_chain_die(inp.quality),
            inp.leadership,
            threat,
            defender_rules(frightening, inp.cavalry_with_blades, threat_table=inp.other_threat > 0),
        )
    )


class FighterInput(ProcedureInput):
    """One side's fighters: the squad's quality, commander and weapon."""

    quality: ChainDie = Field(description="the squad's quality die, d4 .. d12")
    leadership: int = Field(ge=1, le=3, description="its commander's leadership, 1 (best) .. 3")
    weapon: WeaponId = Field(default="assault_rifle", description="the fighters' weapon id")
    cold_weapon: bool = Field(default=False, description="fixed bayonet, sword, axe …: +1 step")
    kind: MoverType = Field(
        default=MoverType.INFANTRY,
        description="infantry or cavalry; robots, armoured suits and vehicles cannot fight "
        "in close combat",
    )
    easy_terrain: bool = Field(
        default=True, description="the ground is easy terrain for cavalry (+2 steps when mounted)"
    )

    @field_validator("kind")
    @classmethod
    def _fights(cls, kind: MoverType) -> MoverType:
        if not can_fight_in_melee(kind):
            raise ValueError(f"{kind.value} cannot fight in close combat; infantry or cavalry")
        return kind

    def fighter(self) -> Fighter:
        """The rule module's fighter profile."""
        return Fighter(
            as_chain_die(self.quality),
            self.weapon,
            self.cold_weapon,
            self.kind is MoverType.CAVALRY and self.easy_terrain,
        )

    def morale(self, standing: int = 1) -> SideMorale:
        """What the side's morale test needs; ``standing``: its men still fighting."""
        return SideMorale(as_chain_die(self.quality), self.leadership, standing=standing)


class GroupInput(ProcedureInput):
    """``count`` groups of ``attackers`` against ``defenders``; one of the two must be 1."""

    attackers: int = Field(ge=1, le=10, description="attackers in one group")
    defenders: int = Field(ge=1, le=10, description="defenders in one group")
    count: int = Field(default=1, ge=1, le=30, description="how many such groups")

    @model_validator(mode="after")
    def _one_centre(self) -> GroupInput:
        if self.attackers != 1 and self.defenders != 1:
            raise InputError("groups: each group is one fighter facing one or more enemies")
        return self

    def group(self) -> Group:
        """The rule module's group."""
        if self.attackers == 1:
            return Group(Side.ATTACKER, self.defenders, self.count)
        return Group(Side.DEFENDER, self.attackers, self.count)


class CloseCombatInput(ProcedureInput):
    """One round of close combat between two squads."""

    attacker: FighterInput = Field(description="the attacking side's fighters")
    defender: FighterInput = Field(description="the charged side's fighters")
    attackers: int = Field(ge=1, le=30, description="attacking fighters")
    defenders: int = Field(ge=1, le=30, description="defending fighters")
    groups: tuple[GroupInput, ...] = Field(
        default=(),
        description="who fights whom; empty = the larger side spread evenly over the smaller",
    )

    @model_validator(mode="after")
    def _pairing_places_everybody(self) -> CloseCombatInput:
        if self.groups:
            check_pairing(self.pairing(), self.attackers, self.defenders)
        return self

    def pairing(self) -> tuple[Group, ...]:
        """The groups, given or by default."""
        if self.groups:
            return tuple(g.group() for g in self.groups)
        return default_pairing(self.attackers, self.defenders)


class Winner(Enum):
    """Who won the round: the other side fell back; ``none``: the melee goes on."""

    ATTACKER = "attacker"
    DEFENDER = "defender"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class CloseCombatOutcome:
    """Casualties of the round, the winner, and the loser's morale drop."""

    attacker_casualties: int
    defender_casualties: int
    winner: Winner
    drop: int


@procedure(
    "steel_war.close_combat",
    input=CloseCombatInput,
    rules=(
        "SW-CC-06",
        "SW-CC-07",
        "SW-CC-08",
        "SW-CC-09",
        "SW-CC-01",
        "SW-ABSENT-07",
        "SW-CORE-01",
        "SW-CORE-02",
        "SW-CORE-03",
        "SW-MOR-01",
        "SW-MOR-05",
    ),
    examples=(
        {
            "attacker": {"quality": "d6", "leadership": 2},
            "defender": {"quality": "d6", "leadership": 2},
            "attackers": 2,
            "defenders": 1,
        },
        {
            "attacker": {"quality": "d8", "leadership": 2, "weapon": "smg", "cold_weapon": True},
            "defender": {"quality": "d6", "leadership": 3, "weapon": "rifle"},
            "attackers": 1,
            "defenders": 1,
        },
        {
            "attacker": {"quality": "d4", "leadership": 1, "kind": "cavalry"},
            "defender": {"quality": "d8", "leadership": 2, "weapon": "pistol"},
            "attackers": 2,
            "defenders": 2,
        },
        {
            "attacker": {"quality": "d4", "leadership": 2, "weapon": "primitive"},
            "defender": {"quality": "d4", "leadership": 2},
            "attackers": 3,
            "defenders": 2,
            "groups": [{"attackers": 2, "defenders": 1}, {"attackers": 1, "defenders": 1}],
        },
    ),
)
def close_combat_procedure(inp: CloseCombatInput) -> Procedure[CloseCombatOutcome]:
    """One round of close combat: pairs, melee dice, casualties, then morale of the harder hit.

    Dice order: group by group (given order, or the default pairing's: larger groups
    first), within a group the lone fighter's die, then each of his opponents'; then the quality die
    of the side that tests first, and of the other side if the first held.
    """
    bouts = bouts_of(inp.pairing(), inp.attacker.fighter(), inp.defender.fighter())
    losses = yield Call(melee_round, (bouts,))
    result = yield from round_morale(
        losses,
        inp.attacker.morale(inp.attackers - losses.attacker),
        inp.defender.morale(inp.defenders - losses.defender),
    )
    fell_back = result.fell_back
    winner = Winner.NONE if fell_back is None else Winner(fell_back.other.value)
    return CloseCombatOutcome(losses.attacker, losses.defender, winner, result.drop)


class MeleeCasualtiesInput(ProcedureInput):
    """One side's men lost in a close combat that is over."""

    casualties: int = Field(ge=0, le=30, description="men this side lost in the melee")
    won: bool = Field(description="true for the side that held; false for the side that fled")


@procedure(
    "steel_war.melee_casualties",
    input=MeleeCasualtiesInput,
    rules=("SW-CC-10", "SW-DMG-11"),
    examples=(
        {"casualties": 3, "won": True},
        {"casualties": 2, "won": False},
        {"casualties": 0, "won": True},
    ),
)
def melee_casualties_procedure(inp: MeleeCasualtiesInput) -> Procedure[CasualtiesOutcome]:
    """Fate of melee casualties: d6 each — killed, wounded, unhurt; the loser's become prisoners."""
    return (yield from melee_casualties(inp.casualties, inp.won))
