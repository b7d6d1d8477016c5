"""Steel War scenario fields: what a ``[[units]]`` entry, ``[options]`` and ``[end]`` hold.

A unit is a squad (отделение) standing in a block around its commander::

    [[units]]
    id = "steel_1"                 # unique id
    side = "steel"                 # a [[sides]] id
    name = "Steel, 1st squad"      # English name (default: the id)
    name_ru = "Стальные, 1-е отделение"
    quality = "regulars"           # untrained d4 | recruits d6 | regulars d8 | veterans d10
                                   # | elite d12
    leadership = 2                 # the commander's leadership, 1 (best) .. 3
    position = [12, 4]             # where the commander stands (inches)
    weapons = [{ weapon = "assault_rifle", count = 7 }, { weapon = "lmg", count = 1 }]
    kind = "infantry"              # infantry | cavalry | bronescaf | robot: what its models
                                   # are (armour table SW-DMG-04, terrain row SW-MOVE-03)
    armour = "d4"                  # infantry's armour die: d4 a man, d6 full infantry armour
    flak_vest = false              # бронежилеты: d6 against fragmentation
    frightening = false            # «страшные» by its army list: SW-CC-11
    keno_guard = false             # the Keno Guard: frightening, d8 for «Ни шагу назад!»
    android = false                # androids: d6 against psionics (SW-PSI-18), no medic bonus
    bayonets = false               # fixed bayonets / cold weapons: +1 step in close combat
    medic = false                  # a medic in the squad: +1 on reorganisation
    field_surgeon = false          # a field surgeon with a medical team: +2 (SW-REORG-02)
    radio = false                  # has radio (communication with an officer at any distance)
    officer = false                # a platoon officer: may inspire the squads in `commands`
    commands = []                  # ids of the squads this officer leads directly
    aboard = ""                    # the id of a friendly vehicle it starts in (SW-MOVE-04);
                                   # its position is then the vehicle's
    psionic = { psi = "master", faction = "barf_jat" }
                                   # its commander (first model) is a psionic (SW-PSI-02):
                                   # psi = d4..d12 or a level (deprived d4, student d6,
                                   # master d8, famous d10, legend d12); faction = barf_jat
                                   # | keno | otlok, whose best known die bounds psi

Each model carries one weapon, in the order listed (the first is the commander's); a
man-sized weapon (heavy machine gun, «Слон») is a model of its own, served by the
squad (SW-DMG-07).

A vehicle is a unit with ``vehicle`` set to a profile of ``data/vehicles.toml``
(``apc`` БТР, ``truck``, ``tank``: mover type, speed, capacity, armour, guidance die);
its quality and leadership are its crew's, its one weapon entry (count 1) its
mounted weapon, which fires as a heavy weapon (quality + guidance die, SW-FIRE-02); an
unarmed vehicle (an ambulance) lists none::

    [[units]]
    id = "apc_1"
    side = "steel"
    vehicle = "apc"
    quality = "regulars"
    leadership = 2
    position = [24, 6]
    weapons = [{ weapon = "hmg", count = 1 }]
    cargo = ["field_gun"]          # towed guns it tows (SW-MOVE-05): a crew unloads one in
                                   # its whole activation; it then stands as the crew's model

``[options]`` (every key optional)::

    motivation = "medium"          # low | medium | high  (SW-MOR-03), for every side
    fatigue = "tired"              # fresh (Ув) | tired (Ст) | exhausted (По)  (SW-MOR-02)
    table = false                  # a real table: people move the models and measure
    [options.sides.steel]          # per side: overrides, and the side's own table edge
    motivation = "high"
    fatigue = "fresh"
    edge = "south"                 # north | south | east | west (default: first side south)
    start_level = "broken"         # a scenario exception (long-encircled troops)

``[end]``: ``turn_limit`` and optional ``objectives = [{ id, name, name_ru, x, y }]``.
Every error is one line naming the field: ``units[2].weapons[0].weapon: no weapon 'x';
weapons: primitive, pistol, ...``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from kubik.core.errors import DiceError
from kubik.engine.dice import parse_die
from kubik.game.errors import ScenarioError
from kubik.game.scenario import field_path
from kubik.rulesets.steel_war.fire_weapons import towed_weapon_ids, weapon_ids
from kubik.rulesets.steel_war.morale_levels import Fatigue, MoraleLevel, Motivation
from kubik.rulesets.steel_war.psionics import PsiFaction, PsiQuality
from kubik.rulesets.steel_war.vehicles import vehicle_ids

QualityName = Literal["untrained", "recruits", "regulars", "veterans", "elite"]
KindName = Literal["infantry", "cavalry", "bronescaf", "robot"]
EdgeName = Literal["north", "south", "east", "west"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class WeaponSpec(_Strict):
    """``{ weapon = "lmg", count = 1 }``: models carrying this weapon."""

    weapon: str
    count: int = Field(default=1, ge=1, le=20)

    @field_validator("weapon")
    @classmethod
    def _known(cls, value: str) -> str:
        if value not in weapon_ids():
            raise ValueError(f"no weapon {value!r}; weapons: {', '.join(weapon_ids())}")
        return value


def _psi_die_name(value: str) -> str:
    """A psi die ("d8", "к8") or level ("master") as the die's name, or a ValueError."""
    levels = ", ".join(q.value for q in PsiQuality)
    try:
        return PsiQuality(value.strip().lower()).die.name
    except ValueError:
        pass
    try:
        die = parse_die(value)
    except DiceError:
        die = None
    if die is None or die.faces not in (4, 6, 8, 10, 12):
        raise ValueError(
            f"{value!r} is not a psi die; allowed: d4, d6, d8, d10, d12 or a level ({levels})"
        )
    return die.name


class PsionicSpec(_Strict):
    """``psionic = { psi = "master", faction = "barf_jat" }``: the squad's psionic (SW-PSI-02)."""

    psi: str
    faction: Literal["barf_jat", "keno", "otlok"]

    @field_validator("psi")
    @classmethod
    def _psi(cls, value: str) -> str:
        return _psi_die_name(value)

    @model_validator(mode="after")
    def _known_in_faction(self) -> PsionicSpec:
        faction = PsiFaction(self.faction)
        die = parse_die(self.psi)
        if not faction.allows(die):
            raise ValueError(
                f"psi {self.psi} is above the best {self.faction} psionic "
                f"({faction.highest.name}); allowed: d4 .. {faction.highest.name}"
            )
        return self


class SquadSpec(_Strict):
    """One ``[[units]]`` entry: a squad and where its commander stands."""

    id: str
    side: str
    name: str = ""
    name_ru: str = ""
    quality: QualityName
    leadership: int = Field(ge=1, le=3)
    position: tuple[float, float]
    weapons: tuple[WeaponSpec, ...] = ()
    kind: KindName = "infantry"
    armour: str = "d4"
    flak_vest: bool = False
    frightening: bool = False
    keno_guard: bool = False
    android: bool = False
    bayonets: bool = False
    medic: bool = False
    field_surgeon: bool = False
    radio: bool = False
    officer: bool = False
    commands: tuple[str, ...] = ()
    vehicle: str = ""
    cargo: tuple[str, ...] = ()
    aboard: str = ""
    psionic: PsionicSpec | None = None

    @field_validator("vehicle")
    @classmethod
    def _profile(cls, value: str) -> str:
        if value and value not in vehicle_ids():
            raise ValueError(f"no vehicle profile {value!r}; profiles: {', '.join(vehicle_ids())}")
        return value

    @field_validator("armour")
    @classmethod
    def _armour_die(cls, value: str) -> str:
        try:
            die = parse_die(value)
        except DiceError:
            die = None
        if die is None or die.faces not in (4, 6):
            raise ValueError(
                f"{value!r} is not a man's armour (SW-DMG-04); allowed: d4 (a man), "
                "d6 (full infantry armour); bronescafs and robots: kind = ..."
            )
        return die.name

    @field_validator("cargo")
    @classmethod
    def _towed(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for item in value:
            if item not in towed_weapon_ids():
                raise ValueError(
                    f"no towed gun {item!r}; towed guns: {', '.join(towed_weapon_ids())}"
                )
        return value

    @model_validator(mode="after")
    def _consistent(self) -> SquadSpec:
        if not self.vehicle and not self.weapons:
            raise ValueError("weapons: a squad needs at least one model (one weapon each)")
        if self.cargo and not self.vehicle:
            raise ValueError("cargo: only a vehicle tows cargo (vehicle = ...)")
        if self.kind == "robot" and self.psionic is not None:
            raise ValueError("psionic: robots are not people; give the psionic to men")
        return self

    @property
    def models(self) -> int:
        """How many models the squad has (one per weapon carried); a vehicle is one."""
        return 1 if self.is_vehicle else sum(w.count for w in self.weapons)

    @property
    def is_vehicle(self) -> bool:
        """A vehicle rather than a squad of men."""
        return bool(self.vehicle)

    @property
    def display_name(self) -> tuple[str, str]:
        """(English, Russian) name; the id when none is given."""
        en = self.name or self.id
        return en, self.name_ru or en


class SideOptions(_Strict):
    """``[options.sides.<id>]``: one side's motivation, fatigue and table edge."""

    motivation: Motivation | None = None
    fatigue: Fatigue | None = None
    edge: EdgeName | None = None
    start_level: MoraleLevel | None = None


class OptionsSpec(_Strict):
    """``[options]``: defaults for every side, per-side settings, and ``table`` (a real
    table: people move the models and confirm what the program measured)."""

    table: bool = False
    motivation: Motivation | None = None
    fatigue: Fatigue | None = None
    sides: dict[str, SideOptions] = Field(default_factory=dict)


class ObjectiveSpec(_Strict):
    """An objective marker: a point on the table to hold at the end."""

    id: str = Field(min_length=1)
    name: str = ""
    name_ru: str = ""
    x: float
    y: float


class EndSpec(_Strict):
    """``[end]``: the turn limit and the objectives."""

    turn_limit: int | None = Field(default=None, ge=1, le=100)
    objectives: tuple[ObjectiveSpec, ...] = ()


def _problem(first: Any) -> str:
    text = str(first["msg"])
    for prefix in ("Value error, ", "Assertion failed, "):
        if text.startswith(prefix):
            text = text[len(prefix) :]
    kind = first["type"]
    if kind == "missing":
        return "missing (required)"
    if kind == "extra_forbidden":
        return "unknown field"
    if not kind.startswith("value_error") and "input" in first:
        given = first["input"]
        if isinstance(given, str | int | float | bool):
            text = f"{given!r}: {text}"
    return text


def one_line(error: ValidationError, prefix: str) -> ScenarioError:
    """The first pydantic problem as one line under ``prefix`` (``units[2]``)."""
    first = error.errors()[0]
    loc = field_path(first["loc"])
    where = prefix if not loc else (f"{prefix}.{loc}" if not loc.startswith("[") else prefix + loc)
    return ScenarioError(f"{where}: {_problem(first)}")


def parse_squad(index: int, data: dict[str, Any]) -> SquadSpec:
    """``units[index]`` as a :class:`SquadSpec`, or a one-line :class:`ScenarioError`."""
    try:
        return SquadSpec.model_validate(data)
    except ValidationError as error:
        raise one_line(error, f"units[{index}]") from None


def parse_options(data: dict[str, Any], side_ids: tuple[str, ...]) -> OptionsSpec:
    """``[options]`` checked, side ids included."""
    try:
        options = OptionsSpec.model_validate(data)
    except ValidationError as error:
        raise one_line(error, "options") from None
    for side in options.sides:
        if side not in side_ids:
            raise ScenarioError(
                f"options.sides.{side}: no side '{side}'; sides: {', '.join(side_ids)}"
            )
    return options


def parse_end(data: dict[str, Any]) -> EndSpec:
    """``[end]`` checked."""
    try:
        return EndSpec.model_validate(data)
    except ValidationError as error:
        raise one_line(error, "end") from None


__all__ = [
    "EdgeName",
    "EndSpec",
    "KindName",
    "ObjectiveSpec",
    "OptionsSpec",
    "PsionicSpec",
    "QualityName",
    "SideOptions",
    "SquadSpec",
    "WeaponSpec",
    "one_line",
    "parse_end",
    "parse_options",
    "parse_squad",
]
