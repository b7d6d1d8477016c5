"""Steel War movement: terrain classes per mover type, march order and the combat move.

Terrain never changes a die, only the distance: difficult terrain halves it,
very difficult thirds it (both rounded down), impassable forbids it (SW-MOVE-02).
Which class a terrain is depends on who moves (SW-MOVE-03), so the table is data.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from functools import cache
from typing import Any

from kubik.data import load_ruleset_data
from kubik.dice import Die
from kubik.engine import Procedure, Roll, emit, msg
from kubik.errors import InputError


class MoverType(Enum):
    """Who moves: the rows of the terrain table (SW-MOVE-03)."""

    INFANTRY = "infantry"
    ARMOURED_SUIT = "armoured_suit"  # бронескафы
    CAVALRY = "cavalry"
    WHEELED = "wheeled"
    HIGH_MOBILITY_WHEELED = "high_mobility_wheeled"  # БТР, вездеходы
    TRACKED = "tracked"
    RAIL = "rail"
    ROBOT = "robot"  # not in the seed: moves as an armoured suit (data [mover_alias])

    @property
    def msgid(self) -> str:
        """Message id of its name."""
        return f"steel_war.term.movement.mover.{self.value}"


class Terrain(Enum):
    """Terrain features named by the seed's terrain table."""

    OPEN = "open"
    ROAD = "road"
    BUSHES = "bushes"
    DENSE_BUSHES = "dense_bushes"
    HILLS = "hills"
    PLOUGHLAND = "ploughland"
    MARSH = "marsh"
    STONY_WASTE = "stony_waste"
    LIGHT_WOOD = "light_wood"
    THICKET = "thicket"
    FORD = "ford"
    WATER = "water"
    SHEER_SLOPE = "sheer_slope"
    RAILS = "rails"


class TerrainClass(Enum):
    """How hard a terrain is for a mover (SW-MOVE-02)."""

    EASY = "easy"
    DIFFICULT = "difficult"
    VERY_DIFFICULT = "very_difficult"
    IMPASSABLE = "impassable"

    @property
    def msgid(self) -> str:
        """Message id of its name."""
        return f"steel_war.term.movement.terrain.{self.value}"


#: Terrain classes from least to most restrictive.
_SEVERITY: tuple[TerrainClass, ...] = tuple(TerrainClass)


@cache
def _data() -> dict[str, Any]:
    return load_ruleset_data("steel_war")


def terrain_class(mover: MoverType, terrain: Terrain, *, amphibious: bool = False) -> TerrainClass:
    """The class of ``terrain`` for ``mover`` (SW-MOVE-03).

    Amphibious vehicles cross water as the seed's «вода (для амфибий)».

    >>> terrain_class(MoverType.INFANTRY, Terrain.LIGHT_WOOD).value
    'difficult'
    >>> terrain_class(MoverType.TRACKED, Terrain.WATER, amphibious=True).value
    'difficult'
    """
    data = _data()
    row_name = data["mover_alias"].get(mover.value, mover.value)
    row: dict[str, str] = data["terrain_class"][row_name]
    key = terrain.value
    if amphibious and terrain is Terrain.WATER and "amphibious_water" in row:
        key = "amphibious_water"
    return TerrainClass(row[key])


def most_restrictive(classes: Iterable[TerrainClass]) -> TerrainClass:
    """The class that governs a whole move crossing several classes (SW-MOVE-02 default).

    >>> most_restrictive([TerrainClass.EASY, TerrainClass.VERY_DIFFICULT]).value
    'very_difficult'
    """
    return max(classes, key=_SEVERITY.index, default=TerrainClass.EASY)


def terrain_distance(distance: int, cls: TerrainClass) -> int:
    """``distance`` in inches after terrain: ÷2 or ÷3 rounded down, 0 if impassable (SW-MOVE-02).

    >>> terrain_distance(6, TerrainClass.DIFFICULT)
    3
    >>> terrain_distance(12, TerrainClass.VERY_DIFFICULT)
    4
    >>> terrain_distance(7, TerrainClass.DIFFICULT), terrain_distance(9, TerrainClass.IMPASSABLE)
    (3, 0)
    """
    if distance < 0:
        raise InputError(f"distance: must be 0 or more inches, not {distance}")
    divisor = int(_data()["terrain_effect"][cls.value])
    return 0 if divisor == 0 else distance // divisor


def move_distance(speed: int, classes: Iterable[TerrainClass] = ()) -> int:
    """How far a unit of ``speed`` moves through terrain of these classes (SW-MOVE-02).

    >>> move_distance(6, [TerrainClass.DIFFICULT])
    3
    """
    return terrain_distance(speed, most_restrictive(classes))


def base_speed(mover: MoverType) -> int:
    """Default speed in inches where the seed implies one (SW-ABSENT-02): infantry 6, tank 12.

    >>> base_speed(MoverType.INFANTRY), base_speed(MoverType.TRACKED)
    (6, 12)
    """
    speeds: dict[str, Any] = _data()["movement_speed"]
    if mover.value not in speeds:
        known = ", ".join(k for k in speeds if k != "provenance")
        raise InputError(f"mover: no default speed for {mover.value}; defaults exist for {known}")
    return int(speeds[mover.value])


def march_allowed(classes: Iterable[TerrainClass]) -> bool:
    """March order only through terrain easy for the mover (SW-MOVE-01).

    >>> march_allowed([TerrainClass.EASY, TerrainClass.EASY])
    True
    >>> march_allowed([TerrainClass.EASY, TerrainClass.DIFFICULT])
    False
    """
    allowed = set(_data()["march"]["allowed_classes"])
    return all(cls.value in allowed for cls in classes)


def march_distance(speed: int, classes: Iterable[TerrainClass] = ()) -> int:
    """March distance: speed doubled, only on easy terrain (SW-MOVE-01).

    >>> march_distance(6)
    12
    """
    path = tuple(classes)
    if not march_allowed(path):
        raise InputError("terrain: march order is allowed only through easy terrain")
    return speed * int(_data()["march"]["speed_multiplier"])


def combat_move_dice() -> tuple[Die, ...]:
    """The dice of a combat move (боевое движение): 2d6 (SW-ABSENT-02)."""
    table = _data()["combat_move"]
    return (Die(int(table["faces"])),) * int(table["dice"])


def combat_move(cls: TerrainClass) -> Procedure[int]:
    """Roll the combat move and apply terrain: "2к6 пополам" in a wood (SW-MOVE-02, SW-ABSENT-02).

    Returns the inches moved.
    """
    rolled: int = yield Roll(
        combat_move_dice(),
        msg("steel_war.combat_move.roll", terrain=cls),
        unordered=True,
        reduce=sum,
        roller="mover",
    )
    moved = terrain_distance(rolled, cls)
    yield emit("steel_war.combat_move.result", rolled=rolled, terrain=cls, moved=moved)
    return moved
