"""Who fights in Steel War close combat (рукопашный бой) and with which die: infantry and
cavalry only (SW-CC-01); each man rolls his squad's quality die stepped up for his
weapon, a cold weapon, a mounted cavalryman on easy ground (SW-CC-07). The two sides of
a close combat (:class:`Side`) every other melee module names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import Any

from kubik.engine.applied import decides
from kubik.engine.dice import Die
from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war.core import step_die
from kubik.rulesets.steel_war.fire_weapons import weapon
from kubik.rulesets.steel_war.movement import Terrain, TerrainClass, terrain_class
from kubik.rulesets.steel_war.movers import MoverType


class Side(Enum):
    """The two sides of a close combat."""

    __hash__ = object.__hash__  # members are singletons: hashed by identity, in C

    ATTACKER = "attacker"
    DEFENDER = "defender"

    @property
    def msgid(self) -> str:
        """Message id of its name."""
        return f"steel_war.term.melee.side.{self.value}"

    @property
    def other(self) -> Side:
        """The opposing side."""
        return Side.DEFENDER if self is Side.ATTACKER else Side.ATTACKER


@cache
def _data() -> Mapping[str, Any]:
    return load_ruleset_data("steel_war")


@decides("SW-CC-01")
@cache  # pure, its data read once per process: asked on every menu and replay
def can_fight_in_melee(kind: MoverType) -> bool:
    """Only infantry and cavalry fight in close combat; robots, armoured suits and vehicles
    cannot (SW-CC-01).

    >>> can_fight_in_melee(MoverType.CAVALRY), can_fight_in_melee(MoverType.ROBOT)
    (True, False)
    """
    return kind.value in _data()["melee_eligibility"]["can_fight"]


@decides("SW-CC-07")
def cavalry_bonus_applies(terrain: Terrain, mounted: bool = True) -> bool:
    """The +2 steps of a cavalryman: mounted, on terrain easy for cavalry (SW-CC-07, SW-MOVE-03).

    A cavalryman who lost his horse fights as infantry (SW-ABSENT-07).

    >>> cavalry_bonus_applies(Terrain.PLOUGHLAND), cavalry_bonus_applies(Terrain.LIGHT_WOOD)
    (True, False)
    """
    return mounted and terrain_class(MoverType.CAVALRY, terrain) is TerrainClass.EASY


@dataclass(frozen=True, slots=True)
class Fighter:
    """A fighter's melee profile: his squad's quality die and what he carries (SW-CC-07)."""

    quality: Die
    weapon: str = "assault_rifle"
    cold_weapon: bool = False  # fixed bayonet, sword, axe ...
    cavalry_on_easy_terrain: bool = False  # a mounted cavalryman on terrain easy for him

    def steps(self) -> int:
        """Steps added to the quality die: the weapon table's «Бл. бой» column (SW-FIRE-10),
        a cold weapon, a mounted cavalryman on easy ground."""
        cold, cavalry = _melee_steps()
        steps = weapon(self.weapon).melee
        if self.cold_weapon:
            steps += cold
        if self.cavalry_on_easy_terrain:
            steps += cavalry
        return steps

    def die(self) -> Die:
        """The die he rolls in close combat (SW-CC-07).

        >>> from kubik.engine.dice import D8
        >>> Fighter(D8, "smg", cold_weapon=True).die()
        Die(faces=12)
        """
        return step_die(self.quality, self.steps())


@cache
def _melee_steps() -> tuple[int, int]:
    """Steps of a cold weapon and of a mounted cavalryman on easy ground (read once)."""
    table = _data()["melee_die"]
    return int(table["cold_weapon"]), int(table["cavalry_easy_terrain"])


__all__ = ["Fighter", "Side", "can_fight_in_melee", "cavalry_bonus_applies"]
