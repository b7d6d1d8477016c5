"""Steel War movement: terrain classes per mover type, march order and the combat move.

Terrain never changes a die, only the distance: difficult terrain halves it,
very difficult thirds it (both rounded down), impassable forbids it (SW-MOVE-02).
Which class a terrain is depends on who moves (SW-MOVE-03), so the table is data.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import Enum
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from kubik.core.errors import InputError
from kubik.engine import Procedure, Roll, Verdict, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import Die
from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war.movers import MoverType
from kubik.rulesets.steel_war.reaction import ReactionAction, reaction_verdict
from kubik.rulesets.steel_war.situation import UnitSituation, all_of, basic_verdict

if TYPE_CHECKING:
    from kubik.rulesets.steel_war.morale_levels import Order


class Terrain(Enum):
    """Terrain features named by the seed's terrain table."""

    __hash__ = object.__hash__  # members are singletons: hashed by identity, in C

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

    __hash__ = object.__hash__  # members are singletons: hashed by identity, in C

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
def _data() -> Mapping[str, Any]:
    return load_ruleset_data("steel_war")


@decides("SW-MOVE-03")
@lru_cache(maxsize=1024)  # pure: asked on every menu and replay, of the same few values
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


@lru_cache(maxsize=1024)  # pure: asked on every menu and replay, of the same few values
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


@decides("SW-MOVE-02")
def move_distance(speed: int, classes: Iterable[TerrainClass] = ()) -> int:
    """How far a unit of ``speed`` moves through terrain of these classes (SW-MOVE-02).

    >>> move_distance(6, [TerrainClass.DIFFICULT])
    3
    """
    return terrain_distance(speed, most_restrictive(classes))


@decides("SW-ABSENT-02")
def base_speed(mover: MoverType) -> int:
    """Default speed in inches where the seed implies one (SW-ABSENT-02): infantry 6, tank 12.

    >>> base_speed(MoverType.INFANTRY), base_speed(MoverType.TRACKED)
    (6, 12)
    """
    speeds: dict[str, Any] = _data()["movement_speed"]
    if mover.value not in speeds:
        known = ", ".join(k for k in speeds if not k.startswith("provenance"))
        raise InputError(f"mover: no default speed for {mover.value}; defaults exist for {known}")
    return int(speeds[mover.value])


def terrain_move(
    mover: MoverType,
    terrains: Iterable[Terrain],
    speed: int | None = None,
    *,
    amphibious: bool = False,
) -> int:
    """Inches a unit moves through ``terrains`` by the seed's table for its type
    (SW-MOVE-03): its ``speed`` (the default for its type) cut by the hardest terrain
    on the way (SW-MOVE-02); 0 where any of it is impassable for this type.

    >>> wood = [Terrain.LIGHT_WOOD]
    >>> terrain_move(MoverType.INFANTRY, wood), terrain_move(MoverType.TRACKED, wood)
    (3, 4)
    >>> terrain_move(MoverType.HIGH_MOBILITY_WHEELED, wood, 12)
    0
    """
    classes = [terrain_class(mover, t, amphibious=amphibious) for t in terrains]
    return move_distance(base_speed(mover) if speed is None else speed, classes)


@decides("SW-MOVE-01")
def march_allowed(classes: Iterable[TerrainClass]) -> bool:
    """March order only through terrain easy for the mover (SW-MOVE-01).

    >>> march_allowed([TerrainClass.EASY, TerrainClass.EASY])
    True
    >>> march_allowed([TerrainClass.EASY, TerrainClass.DIFFICULT])
    False
    """
    allowed = _march_classes()
    return all(cls.value in allowed for cls in classes)


@cache
def _march_classes() -> frozenset[str]:
    """The terrain classes a march may cross (read once)."""
    return frozenset(_data()["march"]["allowed_classes"])


@decides("SW-MOVE-01")
def march_distance(speed: int, classes: Iterable[TerrainClass] = ()) -> int:
    """March distance: speed doubled, only on easy terrain (SW-MOVE-01).

    >>> march_distance(6)
    12
    """
    path = tuple(classes)
    if not march_allowed(path):
        raise InputError("terrain: march order is allowed only through easy terrain")
    return speed * _march_multiplier()


@cache
def _march_multiplier() -> int:
    """How many times its speed a march takes a unit (read once)."""
    return int(_data()["march"]["speed_multiplier"])


@decides("SW-ABSENT-02")
@cache  # pure, its data read once per process: asked on every menu and replay
def combat_move_dice() -> tuple[Die, ...]:
    """The dice of a combat move (боевое движение): 2d6 (SW-ABSENT-02)."""
    table = _data()["combat_move"]
    return (Die(int(table["faces"])),) * int(table["dice"])


def combat_move(cls: TerrainClass) -> Procedure[int]:
    """Roll the combat move and apply terrain: "2к6 пополам" in a wood (SW-MOVE-02, SW-ABSENT-02).

    Returns the inches moved.
    """
    rules = ("SW-ABSENT-02", *(("SW-MOVE-02",) if cls is not TerrainClass.EASY else ()))
    rolled: int = yield Roll(
        combat_move_dice(),
        msg("steel_war.combat_move.roll", terrain=cls),
        unordered=True,
        reduce=sum,
        roller="mover",
        rules=rules,
    )
    moved = terrain_distance(rolled, cls)
    yield emit("steel_war.combat_move.result", rules=rules, rolled=rolled, terrain=cls, moved=moved)
    return moved


#: The action types that move a unit by itself (a charge is the charge's own question).
MOVE_KINDS = ("move", "combat_move", "march")


@decides()
def may_move(
    unit: UnitSituation, order: Order, terrain: TerrainClass = TerrainClass.EASY
) -> Verdict:
    """May ``unit`` carry out this move (a move, a combat move or a march) now?

    ``order`` says the kind of move and where it goes; ``terrain``: the hardest class
    on the way for this unit (SW-MOVE-03). Impassable ground (SW-MOVE-02), march only
    on easy ground (SW-MOVE-01), an immobilised robot or vehicle (SW-DMG-10), and the
    rules every action passes (activation, suppression: only away from the enemy,
    morale: where the level lets it go). A squad gone to ground moves only after a
    reaction test, threat 2, unless it spends an action to get up first (SW-FIRE-07).

    >>> from kubik.rulesets.steel_war.activation import ActionType
    >>> from kubik.rulesets.steel_war.morale_levels import Order
    >>> from kubik.rulesets.steel_war.situation import UnitSituation
    >>> may_move(UnitSituation(prone=True), Order(ActionType.MOVE)).test
    (<ReactionAction.MOVE_WHILE_DOWN: 'move_while_down'>,)
    """
    if order.action.value not in MOVE_KINDS:
        raise InputError(f"order: a move is one of {', '.join(MOVE_KINDS)}, not {order.action}")
    verdicts = [_kind_verdict(order.action.value)]
    if unit.immobilised:
        verdicts.append(Verdict.forbid(msg("steel_war.permission.immobilised"), "SW-DMG-10"))
    if terrain is TerrainClass.IMPASSABLE:
        verdicts.append(
            Verdict.forbid(msg("steel_war.permission.impassable"), "SW-MOVE-02", "SW-MOVE-03")
        )
    elif order.action.value == "march":
        verdicts.append(
            Verdict.of(
                march_allowed([terrain]),
                msg("steel_war.permission.march_terrain"),
                "SW-MOVE-01",
                "SW-MOVE-03",
            )
        )
    verdicts.append(basic_verdict(unit, order.action, order))
    if unit.prone:
        verdicts.append(
            reaction_verdict(ReactionAction.MOVE_WHILE_DOWN, unit.failed, no_step_back=unit.berserk)
        )
    return all_of(*verdicts)


def _kind_verdict(kind: str) -> Verdict:
    """The rule that makes the move what it is: a move of its speed, a rolled combat
    move (SW-ABSENT-02), a march at double speed (SW-MOVE-01)."""
    rules = {"move": ("SW-MOVE-02",), "combat_move": ("SW-ABSENT-02",), "march": ("SW-MOVE-01",)}
    return Verdict.allow(*rules[kind])
