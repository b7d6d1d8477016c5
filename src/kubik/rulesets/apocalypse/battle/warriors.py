"""The warriors of a battle: profiles and weapons from the scenario and the data, and
each warrior's state as enums (how he stands, hidden or seen, on guard, fleeing).

Scenario unit fields (one unit = one warrior; a side = a warband, банда):

``profile``      a profile of ``data/game.toml`` (ratnik, kopalshchik, chief, singer,
                 shooter, brute, mutant); any of its numbers may be overridden here:
                 ``mobility``, ``toughness``, ``combat_skill``, ``spirit``, ``shooting``,
                 ``attack_dice``
``weapons``      weapons of ``data/game.toml`` (knife, sword, axe, club, pistol, rifle,
                 crossbow, bow, grenade, flamer)
``position``     ``[x, y]`` in paces
``armour``       ``none`` (default), ``light``, ``heavy``; ``shield`` (bool)
``leader``       the warband's leader (rout tests, RA-PSY-02/04)
``singer``       a list of Melodies of ``[[rainbow.melodies]]`` he can play
``abilities``    any of fear, terror, frenzy, stupidity, hatred, insensitive,
                 resistance (with ``resistance = Y``), giant_leap (with ``giant_leap = X``)
``squad``        the squad (отряд) he belongs to in the activation edition (default: alone)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from kubik.game import Scenario, ScenarioError
from kubik.rulesets.apocalypse.arms import Loadout, Weapon, arsenal, loadouts
from kubik.rulesets.apocalypse.melody import melodies
from kubik.rulesets.apocalypse.psychology import Fright, Stupor
from kubik.rulesets.apocalypse.warband import profiles
from kubik.table import Base

BASE = 1.0  # paces: a 25 mm base at 1 pace = 1 inch (RA-ABSENT-12)
ABILITIES = (
    "fear",
    "terror",
    "frenzy",
    "stupidity",
    "hatred",
    "insensitive",
    "resistance",
    "giant_leap",
)
NUMBERS = ("mobility", "toughness", "combat_skill", "spirit", "shooting", "attack_dice")


class Condition(StrEnum):
    """How a warrior stands (RA-ABSENT-06 and RA-PSY-06)."""

    STANDING = "standing"
    KNOCKED_DOWN = "knocked_down"
    STUNNED = "stunned"
    OUT_OF_ACTION = "out_of_action"
    FLED = "fled"

    @property
    def msgid(self) -> str:
        """Message id of its name."""
        return f"apocalypse.condition.{self.value}"


class Sight(StrEnum):
    """Whether the enemy can see him (RA-HIDE-*)."""

    SEEN = "seen"
    HIDDEN = "hidden"
    FOUND = "found"  # revealed this turn: he cannot hide again until his next turn


class Watch(StrEnum):
    """Guard / Watch (RA-GUARD-*)."""

    NONE = "none"
    ON_GUARD = "on_guard"


class Ground(StrEnum):
    """«В укрытие!» (RA-SHOOT-05): he dived for cover in this turn — into cover within a
    pace, or prone in the open — and does nothing else this turn but shoot."""

    NONE = "none"
    COVER = "cover"
    PRONE = "prone"


class Morale(StrEnum):
    """Nerve (RA-PSY-05/06/08)."""

    STEADY = "steady"
    FLEEING = "fleeing"


@dataclass(slots=True)
class Turn:
    """What a warrior did this turn (reset at the start of his side's turn)."""

    moved: bool = False
    ran: bool = False
    charged: bool = False
    shot: bool = False
    leapt: bool = False
    over_obstacle: bool = False
    acted: bool = False
    afraid_of: str = ""  # failed a fear test against this charger (RA-PSY-07)


@dataclass(slots=True)
class Warrior:
    """One warrior of the battle: his profile and everything that changes."""

    id: str
    side: str
    profile: str
    base: Base
    mobility: int
    toughness: int
    combat_skill: int
    spirit: int
    shooting: int
    attack_dice: int
    weapons: tuple[Weapon, ...]
    armour: str = "none"
    shield: bool = False
    leader: bool = False
    melodies: tuple[str, ...] = ()
    abilities: tuple[str, ...] = ()
    resistance: int = 0
    giant_leap: int = 0
    squad: str = ""
    wounds: int = 0
    condition: Condition = Condition.STANDING
    sight: Sight = Sight.SEEN
    watch: Watch = Watch.NONE
    morale: Morale = Morale.STEADY
    ground: Ground = Ground.NONE
    ground_turn: str = ""  # whose turn he dived for cover in (activation edition: "")
    stupor: Stupor = Stupor.SENSIBLE
    terrified: bool = False
    frenzied: bool = False
    jammed: list[str] = field(default_factory=list)
    lasting: str = ""  # the lasting Melody he plays (RA-MEL-08)
    silenced_turn: int = -1  # a Terrible Error silenced him for this turn
    impulse_left: int = 0
    fallen_turn: int = -1  # fell this turn: no more moving or hiding (RA-MAN-06)
    loadout: Loadout | None = None  # what he declared he holds for this fight (RA-CC-07)
    facing: float = 0.0  # radians: the way he faces (the way he last moved; RA-PSY-12)
    turn: Turn = field(default_factory=Turn)

    @property
    def fit(self) -> bool:
        """On his feet and in the battle."""
        return self.condition is Condition.STANDING

    @property
    def in_battle(self) -> bool:
        """Still on the table (standing, knocked down or stunned)."""
        return self.condition in (
            Condition.STANDING,
            Condition.KNOCKED_DOWN,
            Condition.STUNNED,
        )

    @property
    def current_toughness(self) -> int:
        """Стойкость less the wounds (RA-CC-05)."""
        return max(0, self.toughness - self.wounds)

    @property
    def singer(self) -> bool:
        """A Певец: he knows Melodies."""
        return bool(self.melodies)

    @property
    def fright(self) -> Fright:
        """The fear or terror he causes (RA-PSY-07/08)."""
        if "terror" in self.abilities:
            return Fright.TERROR
        if "fear" in self.abilities:
            return Fright.FEAR
        return Fright.NONE

    def has(self, ability: str) -> bool:
        """Whether he has ``ability``."""
        return ability in self.abilities

    def ranged_weapons(self) -> tuple[Weapon, ...]:
        """His ranged weapons still working."""
        return tuple(w for w in self.weapons if w.ranged is not None and w.id not in self.jammed)

    def loadouts(self) -> tuple[Loadout, ...]:
        """What he may fight with (the arms rule, RA-CC-07, RA-CC-13 and RA-CC-15)."""
        return loadouts(self.weapons, self.shield, self.jammed)

    def in_hand(self) -> Loadout:
        """What he holds: what he declared for this fight, else the first of his
        :meth:`loadouts` (RA-CC-07)."""
        return self.loadout if self.loadout is not None else self.loadouts()[0]

    def melee_weapons(self) -> tuple[Weapon, ...]:
        """The weapons he fights with (:meth:`in_hand`; none: fists, RA-CC-15)."""
        chosen = self.in_hand().weapons
        return tuple(self.weapons[i] for i in chosen if self.weapons[i].id not in self.jammed)

    @property
    def shield_in_hand(self) -> bool:
        """Whether he fights with his shield in a hand (RA-CC-07, RA-CC-13)."""
        return self.shield and self.in_hand().shield


def _int(unit: Mapping[str, Any], key: str, where: str, low: int, high: int) -> int:
    value = unit[key]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ScenarioError(f"{where}.{key}: {value!r}; allowed: a whole number {low}..{high}")
    return value


def read_warriors(scenario: Scenario) -> list[Warrior]:
    """Every warrior of the scenario (one line naming the field when one is wrong)."""
    known = profiles()
    weapons = arsenal()
    songs_known = {m.id for m in melodies()}
    out = []
    for index, unit in enumerate(scenario.units):
        where = f"units[{index}]"
        raw = dict(unit.data)
        profile = raw.get("profile")
        if profile not in known:
            raise ScenarioError(f"{where}.profile: {profile!r}; profiles: {', '.join(known)}")
        numbers = {**known[str(profile)], **{k: raw[k] for k in NUMBERS if k in raw}}
        values = {k: _int(numbers, k, where, 0 if k != "mobility" else 1, 10) for k in NUMBERS}
        position = raw.get("position")
        if (
            not isinstance(position, list)
            or len(position) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in position)
        ):
            raise ScenarioError(f"{where}.position: a list [x, y] of paces is required")
        kit = []
        for w_index, name in enumerate(raw.get("weapons", [])):
            if name not in weapons:
                raise ScenarioError(
                    f"{where}.weapons[{w_index}]: no weapon {name!r}; weapons: {', '.join(weapons)}"
                )
            kit.append(weapons[name])
        armour = raw.get("armour", "none")
        if armour not in ("none", "light", "heavy"):
            raise ScenarioError(f"{where}.armour: {armour!r}; allowed: none, light, heavy")
        abilities = tuple(raw.get("abilities", []))
        for a_index, ability in enumerate(abilities):
            if ability not in ABILITIES:
                raise ScenarioError(
                    f"{where}.abilities[{a_index}]: {ability!r}; abilities: {', '.join(ABILITIES)}"
                )
        songs = tuple(raw.get("singer", []))
        for s_index, song in enumerate(songs):
            if song not in songs_known:
                raise ScenarioError(
                    f"{where}.singer[{s_index}]: no Melody {song!r}; "
                    f"Melodies: {', '.join(sorted(songs_known))}"
                )
        out.append(
            Warrior(
                unit.id,
                unit.side,
                str(profile),
                Base(float(position[0]), float(position[1]), BASE, unit.id),
                weapons=tuple(kit),
                armour=str(armour),
                shield=raw.get("shield", False) is True,
                leader=raw.get("leader", False) is True,
                melodies=songs,
                abilities=abilities,
                resistance=int(raw.get("resistance", 0)),
                giant_leap=int(raw.get("giant_leap", 0)),
                squad=str(raw.get("squad", unit.id)),
                frenzied="frenzy" in abilities,
                mobility=values["mobility"],
                toughness=values["toughness"],
                combat_skill=values["combat_skill"],
                spirit=values["spirit"],
                shooting=values["shooting"],
                attack_dice=values["attack_dice"],
            )
        )
    return out


__all__ = [
    "BASE",
    "Condition",
    "Ground",
    "Morale",
    "Sight",
    "Turn",
    "Warrior",
    "Watch",
    "Weapon",
    "read_warriors",
]
