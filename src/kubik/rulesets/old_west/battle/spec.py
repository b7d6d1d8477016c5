"""What an Old West scenario may say, checked with one-line errors naming the field.

A scenario unit is **one model** (Legends of the Old West moves, shoots and fights
model by model); a side of the scenario is a **posse** (Команда). Unit fields
(``[[units]]``)::

    id = "wyatt"                 # unique; side = the posse's side id
    name = "Wyatt"               # shown in the log (name_ru for Russian)
    profile = "marshal"          # a profile of data/game.toml (OW-ABSENT-09 default)
    weapons = ["pistol"]         # weapons of data/game.toml (none: cannot shoot)
    position = [6, 30]           # base centre, inches from the table's corner; a model set
                                 # up in base contact with an enemy starts in a fight with
                                 # him (as if one had charged the other)
    base_mm = 25                 # base diameter (default from data)
    leader = true                # the posse's leader (OW-PLK-02); at most one per side
    mounted = "horse"            # rides a mount of data/game.toml (horse, mule; true = horse):
                                 # Move 10", shots and strikes may hit the mount (OW-CC-16,
                                 # OW-ABSENT-04/06), Pluck as a rider (OW-PLK-07); a mounted
                                 # unit's base defaults to 40 mm
    # any profile field may be overridden: shoot, fight, strength, toughness, attacks,
    # wounds, pluck, fame, fortune, hero, fearsome

Options (``[options]``), all optional::

    leaders = { law = "wyatt" }  # side -> unit id; default: the unit with leader = true,
                                 # else the hero with the best Pluck, else the best Pluck
    fame = { wyatt = 4 }         # unit id -> starting Fame (heroes only)
    fortune = { wyatt = 2 }      # unit id -> starting Fortune (heroes only)
    heroic_actions = true        # offer Yee Haw!, Quickdraw, Time for Whuppin' (OW-HERO-06)
    diving_for_cover = true      # Pluck test when hit and not removed (OW-PLK-06)
    head_for_the_hills = true    # Pluck test at half strength (OW-PLK-02)

``[end]``: ``turn_limit`` (1..50). The game also ends when a posse flees (Head for the
Hills) or is wiped out; at the turn limit the posse with more models in action wins,
then the one with more Fame left, else a draw. An optional objective (OW-PLK-03)::

    [end.objective]
    side = "gang"                # the posse with the objective
    feature = "bank"             # terrain to reach: a model that ends its move within 1"
                                 # of it picks up one loot (while any is left)
    edge = "north"               # a carrier whose base touches this table edge leaves the
                                 # table with the loot (north: y = height, south: y = 0,
                                 # east: x = width, west: x = 0)
    loot = 2                     # loot there is to carry (default 1)
    needed = 2                   # loot carried off that wins the game (default 1)

A carrier put out of action drops his loot, and it is lost. Models that left the table
with loot are not casualties (OW-PLK-03). When the objective is achieved its posse
wins; at the turn limit without it, the other posse wins.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from kubik.engine import Message, msg
from kubik.game.battle import battle_table
from kubik.game.errors import ScenarioError
from kubik.game.scenario import Scenario, field_error
from kubik.rulesets.old_west.absent import Profile, mount_table, profile_table
from kubik.rulesets.old_west.movement import base_mm
from kubik.rulesets.old_west.shooting import weapon_table
from kubik.table import Base, Table, TableError, TerrainKind, centre_distance
from kubik.table.tape import Tape
from kubik.table.units import mm_to_inches

PROFILE_FIELDS = (
    "shoot",
    "fight",
    "strength",
    "toughness",
    "attacks",
    "wounds",
    "pluck",
    "fame",
    "fortune",
)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class UnitData(_Strict):
    """One ``[[units]]`` entry: a model of a posse."""

    id: str = Field(min_length=1)
    side: str = Field(min_length=1)
    name: str = ""
    name_ru: str = ""
    profile: str = Field(min_length=1)
    weapons: tuple[str, ...] = ()
    position: tuple[float, float]
    base_mm: float | None = Field(default=None, ge=10, le=80)
    leader: bool = False
    mounted: bool | str = False
    shoot: int | None = Field(default=None, ge=2, le=6)
    fight: int | None = Field(default=None, ge=1, le=10)
    strength: int | None = Field(default=None, ge=1, le=10)
    toughness: int | None = Field(default=None, ge=1, le=10)
    attacks: int | None = Field(default=None, ge=1, le=5)
    wounds: int | None = Field(default=None, ge=1, le=5)
    pluck: int | None = Field(default=None, ge=0, le=10)
    fame: int | None = Field(default=None, ge=0, le=10)
    fortune: int | None = Field(default=None, ge=0, le=5)
    hero: bool | None = None
    fearsome: bool | None = None


class OptionsData(_Strict):
    """``[options]`` of an Old West scenario (see the module docstring)."""

    leaders: dict[str, str] = Field(default_factory=dict)
    fame: dict[str, int] = Field(default_factory=dict)
    fortune: dict[str, int] = Field(default_factory=dict)
    heroic_actions: bool = True
    diving_for_cover: bool = True
    head_for_the_hills: bool = True


class ObjectiveData(_Strict):
    """``[end.objective]``: a posse must fetch loot from a terrain feature and carry it
    off a table edge (models that leave so are not casualties, OW-PLK-03)."""

    side: str = Field(min_length=1)
    feature: str = Field(min_length=1)
    edge: Literal["north", "south", "east", "west"]
    loot: int = Field(default=1, ge=1, le=10)
    needed: int = Field(default=1, ge=1, le=10)


class EndData(_Strict):
    """``[end]``: the turn limit, and an optional objective."""

    turn_limit: int | None = Field(default=None, ge=1, le=50)
    objective: ObjectiveData | None = None


@dataclass(frozen=True, slots=True)
class Weapon:
    """A shooting weapon: range in inches (edge to edge) and Strength."""

    id: str
    range: int
    strength: int
    name_en: str
    name_ru: str

    @property
    def name(self) -> Message:
        """The weapon's name in both languages."""
        return msg("game.name", en=self.name_en, ru=self.name_ru)


@dataclass(frozen=True, slots=True)
class Mount:
    """A horse or mule a model rides (OW-ABSENT-06/09 default profile)."""

    id: str
    toughness: int
    wounds: int
    name_en: str
    name_ru: str

    @property
    def name(self) -> Message:
        """The mount's name in both languages."""
        return msg("game.name", en=self.name_en, ru=self.name_ru)


#: Mover type of mounted models for terrain (``kinds = { mounted = "impassable" }``).
MOUNTED = "mounted"


@dataclass(frozen=True, slots=True)
class ModelSpec:
    """A checked model: who it is, its profile, weapons, base and posse."""

    id: str
    side: str
    name: str
    name_ru: str
    profile: Profile
    weapons: tuple[Weapon, ...]
    base: Base
    leader: bool
    mount: Mount | None = None


@dataclass(frozen=True, slots=True)
class BattleSpec:
    """A checked scenario: the table, the models (file order), the options and the
    objective (None: the battle is fought to the end)."""

    table: Table
    models: tuple[ModelSpec, ...]
    options: OptionsData
    objective: ObjectiveData | None = None


def weapons() -> dict[str, Weapon]:
    """The weapons of the data (:func:`~kubik.rulesets.old_west.shooting.weapon_table`)."""
    return {
        key: Weapon(
            key,
            int(value["range"]),
            int(value["strength"]),
            str(value.get("name", key)),
            str(value.get("name_ru", value.get("name", key))),
        )
        for key, value in weapon_table().items()
    }


def mounts() -> dict[str, Mount]:
    """The mounts of the data (:func:`~kubik.rulesets.old_west.absent.mount_table`)."""
    return {
        key: Mount(
            key,
            int(value["toughness"]),
            int(value["wounds"]),
            str(value.get("name", key)),
            str(value.get("name_ru", value.get("name", key))),
        )
        for key, value in mount_table().items()
    }


def _mount(unit: UnitData, where: str, known: Mapping[str, Mount]) -> Mount | None:
    if unit.mounted is False:
        return None
    name = "horse" if unit.mounted is True else unit.mounted
    if name not in known:
        raise ScenarioError(
            f"{where}.mounted: no mount '{name}'; mounts: {', '.join(known)} (or true, false)"
        )
    return known[name]


def profiles() -> dict[str, dict[str, Any]]:
    """The profiles of the data, profile id -> fields
    (:func:`~kubik.rulesets.old_west.absent.profile_table`)."""
    return {key: dict(value) for key, value in profile_table().items()}


def _profile(
    unit: UnitData,
    where: str,
    fame: int | None,
    fortune: int | None,
    known: Mapping[str, Mapping[str, Any]],
) -> Profile:
    if unit.profile not in known:
        raise ScenarioError(
            f"{where}.profile: no profile '{unit.profile}'; profiles: {', '.join(sorted(known))}"
        )
    fields = known[unit.profile]
    values = {name: getattr(unit, name) for name in PROFILE_FIELDS}
    merged = {name: int(fields[name]) if v is None else v for name, v in values.items()}
    hero = bool(fields["hero"]) if unit.hero is None else unit.hero
    fearsome = bool(fields["fearsome"]) if unit.fearsome is None else unit.fearsome
    if fame is not None:
        merged["fame"] = fame
    if fortune is not None:
        merged["fortune"] = fortune
    if not hero and (merged["fame"] or merged["fortune"]):
        raise ScenarioError(f"{where}.fame: only a Hero (hero = true) has Fame or Fortune")
    return Profile(
        shoot=merged["shoot"],
        fight=merged["fight"],
        strength=merged["strength"],
        toughness=merged["toughness"],
        attacks=merged["attacks"],
        wounds=merged["wounds"],
        pluck=merged["pluck"],
        fame=merged["fame"],
        fortune=merged["fortune"],
        hero=hero,
        fearsome=fearsome,
    )


def _weapons(unit: UnitData, where: str, known: Mapping[str, Weapon]) -> tuple[Weapon, ...]:
    for index, name in enumerate(unit.weapons):
        if name not in known:
            raise ScenarioError(
                f"{where}.weapons[{index}]: no weapon '{name}'; weapons: {', '.join(known)}"
            )
    return tuple(known[name] for name in unit.weapons)


def foot_base_inches() -> float:
    """The default base diameter of a model on foot, in inches (a dismounted rider's)."""
    return mm_to_inches(base_mm(mounted=False))


def _base(table: Table, unit: UnitData, where: str, mounted: bool) -> Base:
    diameter_mm = unit.base_mm or base_mm(mounted)
    base = Base(unit.position[0], unit.position[1], mm_to_inches(diameter_mm), unit.id)
    try:
        table.check_base(base)
    except TableError as error:
        raise ScenarioError(f"{where}.position: {error.problem}") from None
    mover = MOUNTED if mounted else None
    if Tape.of(table).kind_at(base.centre, mover, base.radius) is TerrainKind.IMPASSABLE:
        x, y = unit.position
        raise ScenarioError(f"{where}.position: ({x:g}, {y:g}) is inside impassable terrain")
    return base


def _check_options(
    options: OptionsData, units: Mapping[str, UnitData], sides: tuple[str, ...]
) -> None:
    for side, unit_id in options.leaders.items():
        if side not in sides:
            raise ScenarioError(
                f"options.leaders.{side}: no side '{side}'; sides: {', '.join(sides)}"
            )
        if unit_id not in units or units[unit_id].side != side:
            raise ScenarioError(
                f"options.leaders.{side}: '{unit_id}' is not a model of side '{side}'"
            )
    for key in ("fame", "fortune"):
        top = 10 if key == "fame" else 5
        for unit_id, points in getattr(options, key).items():
            if unit_id not in units:
                raise ScenarioError(f"options.{key}.{unit_id}: no unit '{unit_id}'")
            if not 0 <= points <= top:
                raise ScenarioError(f"options.{key}.{unit_id}: {points}; allowed: 0..{top}")


def _check_objective(objective: ObjectiveData | None, table: Table, sides: tuple[str, ...]) -> None:
    if objective is None:
        return
    if objective.side not in sides:
        raise ScenarioError(
            f"end.objective.side: no side '{objective.side}'; sides: {', '.join(sides)}"
        )
    ids = [f.id for f in table.features]
    if objective.feature not in ids:
        raise ScenarioError(
            f"end.objective.feature: no terrain '{objective.feature}'; terrain: {', '.join(ids)}"
        )
    if objective.needed > objective.loot:
        raise ScenarioError(
            f"end.objective.needed: {objective.needed} but only {objective.loot} loot to carry"
        )


def build_spec(scenario: Scenario, given_options: Mapping[str, Any] | None = None) -> BattleSpec:
    """Check the scenario (one line per error, naming the field) and build its spec."""
    if len(scenario.sides) != 2:
        raise ScenarioError(f"sides: an Old West battle has 2 posses, got {len(scenario.sides)}")
    table = battle_table(scenario)
    try:
        options = OptionsData.model_validate(dict(given_options or scenario.options))
    except ValidationError as error:
        raise field_error(error, "options") from None
    try:
        end = EndData.model_validate(scenario.end)
    except ValidationError as error:
        raise field_error(error, "end") from None
    _check_objective(end.objective, table, scenario.side_ids)
    units: dict[str, UnitData] = {}
    checked: list[tuple[str, UnitData]] = []
    for index, spec in enumerate(scenario.units):
        where = f"units[{index}]"
        try:
            unit = UnitData.model_validate(spec.data)
        except ValidationError as error:
            raise field_error(error, where) from None
        units[unit.id] = unit
        checked.append((where, unit))
    _check_options(options, units, scenario.side_ids)
    models: list[ModelSpec] = []
    # the data's tables read once for every model (a mount's only when one rides)
    known_profiles, known_weapons = profiles(), weapons()
    riding = any(unit.mounted is not False for _, unit in checked)
    known_mounts = mounts() if riding else {}
    for where, unit in checked:
        fame, fortune = options.fame.get(unit.id), options.fortune.get(unit.id)
        profile = _profile(unit, where, fame, fortune, known_profiles)
        mount = _mount(unit, where, known_mounts)
        base = _base(table, unit, where, mount is not None)
        for other in models:
            if base.radius + other.base.radius - centre_distance(base, other.base) > 1e-6:
                raise ScenarioError(f"{where}.position: the base overlaps '{other.id}'")
        models.append(
            ModelSpec(
                unit.id,
                unit.side,
                unit.name or unit.id,
                unit.name_ru or unit.name or unit.id,
                profile,
                _weapons(unit, where, known_weapons),
                base,
                unit.leader,
                mount,
            )
        )
    for side in scenario.side_ids:
        own = [m for m in models if m.side == side]
        if not own:
            raise ScenarioError(f"units: side '{side}' has no models")
        leaders = [m.id for m in own if m.leader]
        if len(leaders) > 1:
            raise ScenarioError(
                f"units: side '{side}' has {len(leaders)} leaders ({', '.join(leaders)}); at most 1"
            )
    return BattleSpec(table, tuple(models), options, end.objective)


def leader_of(spec: BattleSpec, side: str) -> str:
    """The posse's leader: ``options.leaders``, else ``leader = true``, else the Hero with
    the best Pluck, else the model with the best Pluck (file order breaks ties)."""
    if side in spec.options.leaders:
        return spec.options.leaders[side]
    own = [m for m in spec.models if m.side == side]
    for model in own:
        if model.leader:
            return model.id
    best = max(own, key=lambda m: (m.profile.hero, m.profile.pluck))
    return best.id


__all__ = [
    "MOUNTED",
    "BattleSpec",
    "EndData",
    "ModelSpec",
    "Mount",
    "ObjectiveData",
    "OptionsData",
    "UnitData",
    "Weapon",
    "build_spec",
    "foot_base_inches",
    "leader_of",
    "mounts",
    "profiles",
    "weapons",
]
