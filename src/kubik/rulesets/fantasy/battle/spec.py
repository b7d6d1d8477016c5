"""Reading a fantasy scenario: every unit's profile, formation and kit, checked with
one-line errors naming the field."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, get_args

from kubik.game import Scenario, ScenarioError
from kubik.rulesets.fantasy.movement import may_join
from kubik.rulesets.fantasy.profiles import Fighter
from kubik.rulesets.fantasy.psychology import hated
from kubik.rulesets.fantasy.regiment import CommandGroup, ModelKind
from kubik.rulesets.fantasy.special_rules import SPECIAL_RULES, WeaponId

PROFILE_KEYS = ("m", "ws", "bs", "s", "t", "w", "i", "a", "ld")
#: The weapons a unit may carry: the ones the rules know (FB-ABSENT-18).
WEAPONS: tuple[str, ...] = get_args(WeaponId)


@dataclass(frozen=True, slots=True)
class Missile:
    """A unit's missile weapon: range and Strength."""

    range: float
    strength: int
    multiple: int = 1


@dataclass(frozen=True, slots=True)
class UnitSpec:
    """One regiment as the scenario sets it up."""

    id: str
    side: str
    troops: Fighter
    models: int
    files: int
    front: tuple[float, float]
    facing: int
    kind: ModelKind
    size: float
    command: CommandGroup
    character: Fighter | None
    character_name: tuple[str, str]
    general: bool
    battle_standard: bool
    missile: Missile | None
    impact: str | None
    breath_strength: int | None
    magic_resistance: int
    hates: tuple[str, ...]
    skirmish: bool = False
    race: str = ""


def _int(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ScenarioError(f"{where}: {value!r}; allowed: a whole number {low}..{high}")
    return value


def _profile(entry: Any, where: str, rules: Any, weapon: Any) -> Fighter:
    if not isinstance(entry, Mapping):
        raise ScenarioError(f"{where}: a table of {', '.join(PROFILE_KEYS)} is required")
    values = {}
    for key in PROFILE_KEYS:
        if key not in entry:
            raise ScenarioError(f"{where}.{key}: required (a whole number)")
        values[key] = _int(entry[key], f"{where}.{key}", 0 if key == "a" else 1, 10)
    save = entry.get("armour_save")
    ward = entry.get("ward_save")
    regen = entry.get("regeneration")
    for name, value in (("armour_save", save), ("ward_save", ward), ("regeneration", regen)):
        if value is not None:
            _int(value, f"{where}.{name}", 1, 6)
    names = tuple(rules or ())
    for index, rule in enumerate(names):
        if rule not in SPECIAL_RULES:
            allowed = ", ".join(SPECIAL_RULES)
            raise ScenarioError(f"{where}.special_rules[{index}]: {rule!r}; allowed: {allowed}")
    kit = str(weapon or "hand_weapon")
    if kit not in WEAPONS:
        raise ScenarioError(f"{where}.weapon: {kit!r}; allowed: {', '.join(WEAPONS)}")
    return Fighter(
        ws=values["ws"],
        s=values["s"],
        t=values["t"],
        w=values["w"],
        i=values["i"],
        a=values["a"],
        ld=values["ld"],
        armour_save=save,
        ward_save=ward,
        regeneration=regen,
        rules=frozenset(names),
        weapon=kit,
        bs=values["bs"],
        m=values["m"],
    )


def _formation(value: Any, where: str) -> bool:
    """Whether a unit fights as skirmishers (a loose formation) or in ranks."""
    if value not in ("ranks", "skirmish"):
        raise ScenarioError(f"{where}: {value!r}; allowed: ranks, skirmish")
    return bool(value == "skirmish")


COMPASS = {"north": 0, "east": 90, "south": 180, "west": 270}


def _facing(value: Any, where: str) -> int:
    """A facing in whole degrees (0 north, 90 east …) from a compass word or a number."""
    if isinstance(value, str) and value in COMPASS:
        return COMPASS[value]
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 360:
        return value
    raise ScenarioError(
        f"{where}: {value!r}; allowed: north, east, south, west or whole degrees 0..359"
    )


def unit_specs(scenario: Scenario) -> tuple[UnitSpec, ...]:
    """Every unit of the scenario, checked."""
    out = []
    for index, unit in enumerate(scenario.units):
        where = f"units[{index}]"
        d = unit.data
        troops = _profile(
            d.get("profile"), f"{where}.profile", d.get("special_rules"), d.get("weapon")
        )
        models = _int(d.get("models"), f"{where}.models", 1, 60)
        files = _int(d.get("files", min(models, 5)), f"{where}.files", 1, 20)
        front = d.get("front")
        if not (
            isinstance(front, list)
            and len(front) == 2
            and all(isinstance(v, int | float) for v in front)
        ):
            raise ScenarioError(f"{where}.front: [x, y] of the front rank's centre in inches")
        facing = _facing(d.get("facing", "north"), f"{where}.facing")
        kind_name = d.get("kind", "infantry")
        try:
            kind = ModelKind(kind_name)
        except ValueError:
            allowed = ", ".join(k.value for k in ModelKind)
            raise ScenarioError(f"{where}.kind: {kind_name!r}; allowed: {allowed}") from None
        size = float(d.get("base", 1.0))
        hero = d.get("character")
        character = None
        hero_name = ("", "")
        if hero is not None:
            character = _profile(
                hero, f"{where}.character", hero.get("special_rules"), hero.get("weapon")
            )
            hero_name = (str(hero.get("name", "hero")), str(hero.get("name_ru", "")))
        missile = d.get("missile")
        shot = None
        if missile is not None:
            shot = Missile(
                float(missile.get("range", 24)),
                _int(missile.get("strength", 3), f"{where}.missile.strength", 1, 10),
                _int(missile.get("multiple", 1), f"{where}.missile.multiple", 1, 3),
            )
        impact = d.get("impact_hits")
        if impact not in (None, "d3", "d6", "d6+1"):
            raise ScenarioError(f"{where}.impact_hits: {impact!r}; allowed: d3, d6, d6+1")
        breath = d.get("breath_strength")
        race = d.get("race", "")
        if not isinstance(race, str):
            raise ScenarioError(
                f"{where}.race: {race!r}; allowed: a race's name (dwarfs, orcs ...)"
            )
        named = d.get("hates", ())
        if not isinstance(named, list | tuple) or not all(isinstance(h, str) for h in named):
            raise ScenarioError(f"{where}.hates: a list of races, sides or unit ids")
        rules = troops.rules | (character.rules if character else frozenset())
        if "hatred" in rules and not hated(race, tuple(named)):
            raise ScenarioError(
                f"{where}.hates: required with hatred (FB-PSY-06): the races, sides or units"
                " it hates (or a race whose hatred the rules name: dwarfs)"
            )
        if character is not None and not may_join(character.rules, troops.rules).allowed:
            raise ScenarioError(
                f"{where}.character: only an ethereal character may join an ethereal unit"
                " (FB-SR-06)"
            )
        out.append(
            UnitSpec(
                id=unit.id,
                side=unit.side,
                troops=troops,
                models=models,
                files=files,
                front=(float(front[0]), float(front[1])),
                facing=facing,
                kind=kind,
                size=size,
                command=CommandGroup(
                    bool(d.get("champion", False)),
                    bool(d.get("standard", False)),
                    bool(d.get("musician", False)),
                ),
                character=character,
                character_name=hero_name,
                general=bool(hero is not None and hero.get("general", False)),
                battle_standard=bool(hero is not None and hero.get("battle_standard", False)),
                missile=shot,
                impact=impact,
                breath_strength=None
                if breath is None
                else _int(breath, f"{where}.breath_strength", 1, 10),
                magic_resistance=_int(
                    d.get("magic_resistance", 0), f"{where}.magic_resistance", 0, 4
                ),
                hates=tuple(named),
                skirmish=_formation(d.get("formation", "ranks"), f"{where}.formation"),
                race=race,
            )
        )
    return tuple(out)
