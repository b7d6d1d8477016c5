"""From a scenario to a battle: check every field, place the squads, set the sides' morale.

:func:`check` is the ruleset's ``check`` (one line per error, naming the field);
:func:`squads_of` turns the checked scenario into the squads of a battle.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kubik.core import limits
from kubik.engine.requests import msg
from kubik.game.battle import battle_table
from kubik.game.errors import ScenarioError
from kubik.game.scenario import Scenario
from kubik.rulesets.steel_war.defaults import side_defaults
from kubik.rulesets.steel_war.morale_levels import Fatigue, MoraleLevel, Motivation, starting_level
from kubik.rulesets.steel_war.movers import MoverType
from kubik.rulesets.steel_war.vehicles import vehicle_profile
from kubik.table import Base, Table, TableError, TerrainKind

from .spec import EndSpec, OptionsSpec, SquadSpec, parse_end, parse_options, parse_squad
from .state import Squad, build_squad
from .terrain import read_terrain

_DEFAULT_EDGES = ("south", "north")


@dataclass(frozen=True, slots=True)
class Checked:
    """A scenario that passed every check, parsed."""

    table: Table
    squads: tuple[SquadSpec, ...]
    options: OptionsSpec
    end: EndSpec


def mover_of(spec: SquadSpec) -> MoverType:
    """The row of the terrain table a unit moves by (SW-MOVE-03)."""
    if spec.is_vehicle:
        return vehicle_profile(spec.vehicle).mover
    return {
        "infantry": MoverType.INFANTRY,
        "cavalry": MoverType.CAVALRY,
        "bronescaf": MoverType.ARMOURED_SUIT,
        "robot": MoverType.ROBOT,
    }[spec.kind]


def _place(table: Table, index: int, spec: SquadSpec) -> list[Base]:
    """The unit's bases at its position; off the table or in impassable terrain is an error."""
    squad = build_squad(spec, MoraleLevel.STEADY, Motivation.MEDIUM, "south")
    where = f"units[{index}].position"
    given = f"({spec.position[0]:g}, {spec.position[1]:g})"
    mover = mover_of(spec).value
    bases = []
    for n, model in enumerate(squad.models):
        base = model.base()
        try:
            table.check_base(base)
        except TableError:
            raise ScenarioError(
                f"{where}: {given} puts model {n + 1} of {len(squad.models)} off the "
                f"{table.size_text} table; move the unit inward"
            ) from None
        if any(f.kind_for(mover) is TerrainKind.IMPASSABLE for f in table.features_at(model.point)):
            feature = next(
                f.id
                for f in table.features_at(model.point)
                if f.kind_for(mover) is TerrainKind.IMPASSABLE
            )
            raise ScenarioError(
                f"{where}: {given} puts model {n + 1} inside terrain '{feature}', impassable "
                f"for it (SW-MOVE-03)"
            )
        bases.append(base)
    return bases


def _check_squad(index: int, spec: SquadSpec, squads: tuple[SquadSpec, ...]) -> None:
    ids = [s.id for s in squads]
    for k, target in enumerate(spec.commands):
        if target not in ids:
            raise ScenarioError(
                f"units[{index}].commands[{k}]: no unit '{target}'; units: {', '.join(ids)}"
            )
        if squads[ids.index(target)].side != spec.side:
            raise ScenarioError(f"units[{index}].commands[{k}]: '{target}' fights for another side")
    if spec.commands and not spec.officer:
        raise ScenarioError(
            f"units[{index}].commands: only an officer (officer = true) commands squads"
        )
    if spec.is_vehicle:
        mounted = sum(w.count for w in spec.weapons)
        if mounted > 1:
            raise ScenarioError(
                f"units[{index}].weapons: a vehicle has at most one mounted weapon "
                f"(count = 1), not {mounted}"
            )
        if spec.psionic is not None:
            raise ScenarioError(
                f"units[{index}].psionic: a vehicle cannot be a psionic; give it to a squad"
            )
        return
    if spec.weapons[0].weapon in ("hmg", "slon"):
        raise ScenarioError(
            f"units[{index}].weapons[0]: the first model commands the squad; list a man's "
            "weapon first, the man-sized weapon after"
        )


def check(scenario: Scenario, overrides: Mapping[str, Any] | None = None) -> Checked:
    """Every Steel War check of a scenario; raises :class:`ScenarioError` naming the field."""
    table = battle_table(scenario, read_terrain)
    options = parse_options(
        dict(overrides if overrides is not None else scenario.options), scenario.side_ids
    )
    end = parse_end(scenario.end)
    squads = tuple(parse_squad(i, unit.data) for i, unit in enumerate(scenario.units))
    models = sum(spec.models for spec in squads)
    if models > limits.MODELS:  # an engine limit (kubik.core.limits), not a rule
        raise ScenarioError(msg("game.limit.models", n=models, limit=limits.MODELS))
    ids = [s.id for s in squads]
    placed: list[tuple[int, list[Base]]] = []
    for index, spec in enumerate(squads):
        _check_squad(index, spec, squads)
        if spec.aboard:
            _check_aboard(squads, index, spec, ids)
            continue
        bases = _place(table, index, spec)
        for other, other_bases in placed:
            if any(
                math.dist(a.centre, b.centre) < a.radius + b.radius
                for a in bases
                for b in other_bases
            ):
                raise ScenarioError(
                    f"units[{index}].position: its models overlap those of units[{other}] "
                    f"('{squads[other].id}'); keep units apart"
                )
        placed.append((index, bases))
    for index, objective in enumerate(end.objectives):
        if not table.on_table((objective.x, objective.y)):
            raise ScenarioError(
                f"end.objectives[{index}]: ({objective.x:g}, {objective.y:g}) is off the "
                f"{table.size_text} table"
            )
    edges = [edge_of(options, side, i) for i, side in enumerate(scenario.side_ids)]
    if len(set(edges)) != len(edges):
        raise ScenarioError(
            f"options.sides: two sides have the same table edge ({', '.join(edges)})"
        )
    return Checked(table, squads, options, end)


def _check_aboard(
    squads: tuple[SquadSpec, ...], index: int, spec: SquadSpec, ids: list[str]
) -> None:
    """A squad starting aboard names a friendly vehicle with room for it (SW-MOVE-04)."""
    where = f"units[{index}].aboard"
    if spec.aboard not in ids:
        raise ScenarioError(f"{where}: no unit '{spec.aboard}'; units: {', '.join(ids)}")
    carrier = squads[ids.index(spec.aboard)]
    if not carrier.is_vehicle:
        raise ScenarioError(f"{where}: '{spec.aboard}' is not a vehicle (vehicle = ...)")
    if spec.is_vehicle:
        raise ScenarioError(f"{where}: a vehicle cannot ride in another vehicle")
    if spec.kind != "infantry":
        raise ScenarioError(f"{where}: only infantry rides in vehicles (SW-MOVE-04)")
    if carrier.side != spec.side:
        raise ScenarioError(f"{where}: '{spec.aboard}' fights for another side")
    riders = sum(s.models for s in squads if s.aboard == spec.aboard)
    capacity = vehicle_profile(carrier.vehicle).capacity
    if riders > capacity:
        raise ScenarioError(
            f"{where}: '{spec.aboard}' carries {capacity} men, its riders number {riders}"
        )


def edge_of(options: OptionsSpec, side: str, index: int) -> str:
    """A side's own table edge: its option, else south for the first side, north for the
    second."""
    chosen = options.sides.get(side)
    if chosen is not None and chosen.edge is not None:
        return chosen.edge
    if index >= len(_DEFAULT_EDGES):
        raise ScenarioError(f"options.sides.{side}.edge: required for a third side")
    return _DEFAULT_EDGES[index]


@dataclass(frozen=True, slots=True)
class SideStart:
    """How a side enters the battle: motivation (SW-MOR-03), fatigue and the morale it
    gives (SW-MOR-02), or a scenario's exception."""

    motivation: Motivation
    fatigue: Fatigue
    level: MoraleLevel
    exception: bool


def side_start(options: OptionsSpec, side: str) -> SideStart:
    """A side's motivation and starting morale (SW-MOR-02/03), with the defaults."""
    usual_motivation, usual_fatigue = side_defaults()
    own = options.sides.get(side)
    motivation = (own.motivation if own else None) or options.motivation or usual_motivation
    fatigue = (own.fatigue if own else None) or options.fatigue or usual_fatigue
    exception = own.start_level if own else None
    level = exception or starting_level(fatigue)
    return SideStart(motivation, fatigue, level, exception is not None)


def squads_of(scenario: Scenario, checked: Checked) -> list[Squad]:
    """The battle's units at the start: placed, each side's morale set, riders aboard."""
    squads: list[Squad] = []
    for spec in checked.squads:
        start = side_start(checked.options, spec.side)
        edge = edge_of(checked.options, spec.side, scenario.side_ids.index(spec.side))
        squads.append(build_squad(spec, start.level, start.motivation, edge))
    for squad in squads:
        if squad.spec.aboard:
            carrier = next(s for s in squads if s.id == squad.spec.aboard)
            squad.aboard = carrier.id
            squad.place_models(carrier.centre)
    return squads


__all__ = ["Checked", "SideStart", "check", "edge_of", "mover_of", "side_start", "squads_of"]
