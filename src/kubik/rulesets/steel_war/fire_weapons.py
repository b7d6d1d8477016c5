"""Steel War's weapon table (SW-FIRE-10) as typed, frozen records.

The numbers live in ``data/fire.toml``; this module only reads them into
:class:`Weapon` values, so the fire rules, the melee rules (melee bonus) and the
game layer share one table.

>>> weapon("smg").rate, weapon("lmg").rate_die, weapon("lmg").power
(Fraction(3, 1), Die(faces=8), Die(faces=10))
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import cache
from typing import Any, Literal, get_args

from kubik.core.errors import InputError
from kubik.engine.dice import Die, parse_die
from kubik.rulesets.data import load_ruleset_data

#: The weapon ids of the public contract (design.md), one per row of the weapon table.
WeaponId = Literal[
    "primitive",
    "pistol",
    "smg",
    "shotgun",
    "rifle",
    "sniper_rifle",
    "assault_rifle",
    "improved_assault_rifle",
    "best_assault_rifle",
    "lmg",
    "hmg",
    "uragan",
    "slon",
    "grenade_launcher",
    "flamethrower_keno",
    "flamethrower_lianra",
]
WEAPON_IDS: tuple[str, ...] = get_args(WeaponId)


class WeaponKind(Enum):
    """Small arms sum a numeric rate (SW-FIRE-03); support weapons add a rate die (SW-FIRE-04)."""

    __hash__ = object.__hash__  # members are singletons: hashed by identity, in C

    SMALL_ARMS = "small_arms"
    SUPPORT = "support"


class RangeLimit(Enum):
    """Where a weapon may fire (SW-FIRE-11)."""

    ZONE1 = "zone1"  # only the shooter's first range zone
    ALL = "all"  # zones 1-5
    INCHES = "inches"  # an absolute distance (flamethrowers: 4")


class Special(Enum):
    """Special rules a weapon carries; they apply only when it fires on its own (SW-FIRE-13)."""

    __hash__ = object.__hash__  # members are singletons: hashed by identity, in C

    SNIPER = "sniper"  # SW-FIRE-14: the owner chooses the victim
    FLAME = "flame"  # SW-DMG-08: every victim is at least wounded
    BACKPACK_EXPLODES = "backpack_explodes"  # SW-DMG-09
    FRAGMENTATION = "fragmentation"  # SW-DMG-04: flak vests use their better die
    MAN_SIZED = "man_sized"  # SW-DMG-07: counts as a model when hit
    GROUND_HEAVY = "ground_heavy"  # SW-FIRE-05: fires twice per activation set up on the ground
    TOWED = "towed"  # SW-MOVE-05: towed cargo, unloaded by a whole activation


@dataclass(frozen=True, slots=True)
class Weapon:
    """One row of the weapon table."""

    id: str
    name_ru: str
    kind: WeaponKind
    range_limit: RangeLimit
    range_inches: int | None
    rate: Fraction | None  # small arms
    rate_die: Die | None  # support weapons
    power: Die
    melee: int  # steps added to the quality die in close combat (SW-CC-07)
    shots: int | None  # shots per battle (SW-FIRE-15); None = unlimited
    special: frozenset[Special]

    @property
    def is_small_arms(self) -> bool:
        """Whether its rate is a number summed with the group's other small arms."""
        return self.kind is WeaponKind.SMALL_ARMS

    def has(self, special: Special) -> bool:
        """Whether the weapon carries ``special``."""
        return special in self.special

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"steel_war.weapon.{self.id}"


@cache
def _table() -> dict[str, Any]:
    table: dict[str, Any] = load_ruleset_data("steel_war")["weapons"]
    return table


@cache
def _towed() -> dict[str, Any]:
    table: dict[str, Any] = load_ruleset_data("steel_war")["towed_weapons"]
    return table


def _build(weapon_id: str, row: dict[str, Any]) -> Weapon:
    kind = WeaponKind(row["kind"])
    raw_range = row["range"]
    if isinstance(raw_range, int):
        limit, inches = RangeLimit.INCHES, raw_range
    else:
        limit, inches = RangeLimit(raw_range), None
    rate = Fraction(row["rate"]) if kind is WeaponKind.SMALL_ARMS else None
    rate_die = parse_die(row["rate"]) if kind is WeaponKind.SUPPORT else None
    return Weapon(
        id=weapon_id,
        name_ru=str(row["name_ru"]),
        kind=kind,
        range_limit=limit,
        range_inches=inches,
        rate=rate,
        rate_die=rate_die,
        power=parse_die(row["power"]),
        melee=int(row["melee"]),
        shots=int(row["shots"]) if "shots" in row else None,
        special=frozenset(Special(s) for s in row["special"]),
    )


def weapon_ids() -> tuple[str, ...]:
    """Every weapon id of the table, in table order."""
    return tuple(k for k, v in _table().items() if isinstance(v, dict) and "kind" in v)


def towed_weapon_ids() -> tuple[str, ...]:
    """The towed guns the seed names without a row in its weapon table (SW-MOVE-05,
    SW-FIRE-05; profiles are defaults, ``[towed_weapons]``), in data order.

    >>> towed_weapon_ids()
    ('field_gun',)
    """
    return tuple(k for k, v in _towed().items() if isinstance(v, dict) and "kind" in v)


@cache
def weapon(weapon_id: str) -> Weapon:
    """The weapon called ``weapon_id`` (the weapon table's, or a towed gun's); an unknown
    id is an InputError listing the ids.

    >>> weapon("flamethrower_keno").range_inches
    4
    >>> weapon("field_gun").has(Special.TOWED)
    True
    """
    row = _table().get(weapon_id)
    if not isinstance(row, dict) or "kind" not in row:
        row = _towed().get(weapon_id)
    if not isinstance(row, dict) or "kind" not in row:
        known = ", ".join((*weapon_ids(), *towed_weapon_ids()))
        raise InputError(f"weapon: unknown weapon '{weapon_id}'; weapons: {known}")
    return _build(weapon_id, row)
