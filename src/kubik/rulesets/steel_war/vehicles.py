"""Vehicle profiles (``data/vehicles.toml``): what a vehicle unit is.

The seed names vehicles and their rules (terrain rows per vehicle type, carrying
infantry, heavy-weapon fire with a guidance die, suppressed vehicles, medical
vehicles) but prints no profile (SW-ABSENT-05, SW-ABSENT-08); the profiles are
documented defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from kubik.engine.dice import Die, parse_die
from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war.movers import MoverType


@cache
def _data() -> Mapping[str, Any]:
    """The ruleset's numbers (read once)."""
    return load_ruleset_data("steel_war")


@dataclass(frozen=True, slots=True)
class VehicleProfile:
    """One vehicle type: how it moves, carries, is hurt and aims, how big its hull is."""

    id: str
    name: str
    name_ru: str
    mover: MoverType
    speed: int
    capacity: int
    armour: Die
    guidance: Die
    base_inches: float
    armoured: bool
    medical: bool


def vehicle_ids() -> tuple[str, ...]:
    """The profile ids, in file order.

    >>> vehicle_ids()
    ('apc', 'truck', 'tank', 'ambulance')
    """
    return tuple(k for k in _data()["game_vehicles"] if k != "provenance")


@cache
def vehicle_profile(profile_id: str) -> VehicleProfile:
    """The profile called ``profile_id`` (checked by the scenario first).

    >>> vehicle_profile("apc").mover.value, vehicle_profile("apc").capacity
    ('high_mobility_wheeled', 10)
    """
    row = _data()["game_vehicles"][profile_id]
    return VehicleProfile(
        profile_id,
        str(row["name"]),
        str(row["name_ru"]),
        MoverType(row["mover"]),
        int(row["speed"]),
        int(row["capacity"]),
        parse_die(str(row["armour"])),
        parse_die(str(row["guidance"])),
        float(row["base_inches"]),
        bool(row["armoured"]),
        bool(row["medical"]),
    )


def hits_to_destroy() -> int:
    """Wounding hits that destroy a vehicle: the first immobilises (SW-ABSENT-05 default).

    >>> hits_to_destroy()
    2
    """
    return int(_data()["game_vehicle_rules"]["hits_to_destroy"])


__all__ = ["VehicleProfile", "hits_to_destroy", "vehicle_ids", "vehicle_profile"]
