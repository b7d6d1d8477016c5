"""From a scenario to a battle: check every field, place the squads, set the sides' morale.

:func:`check` is the ruleset's ``validate`` (one line per error, naming the field);
:func:`build` turns the checked scenario into a :class:`~.world.World`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kubik import limits
from kubik.engine.requests import msg
from kubik.game.errors import ScenarioError
from kubik.game.scenario import Scenario
from kubik.rulesets.steel_war.morale_levels import Fatigue, MoraleLevel, Motivation, starting_level
from kubik.table import Base, Table, TableError, TerrainKind, table_from_dict
from kubik.table.movement import kind_at

from . import field
from .profiles import vehicle_profile
from .spec import EndSpec, OptionsSpec, SquadSpec, parse_end, parse_options, parse_squad
from .state import Squad, build_squad
from .world import World

_DEFAULT_EDGES = ("south", "north")


@dataclass(frozen=True, slots=True)
class Checked:
    """A scenario that passed every check, parsed."""

    table: Table
    squads: tuple[SquadSpec, ...]
    options: OptionsSpec
    end: EndSpec


def _table(scenario: Scenario) -> Table:
    if not scenario.table:
        raise ScenarioError("table: missing (required): a [table] with width and height")
    try:
        return table_from_dict({"table": scenario.table, "terrain": list(scenario.terrain)})
    except TableError as error:
        raise ScenarioError(str(error)) from None


def _place(table: Table, index: int, spec: SquadSpec) -> list[Base]:
    """The squad's bases at its position; off the table or in impassable terrain is an error."""
    bases = []
    for n, (x, y) in enumerate(field.place(spec.position, spec.models)):
        base = Base(x, y, field.base_diameter(), f"{spec.id}.{n + 1}")
        where = f"units[{index}].position"
        given = f"({spec.position[0]:g}, {spec.position[1]:g})"
        try:
            table.check_base(base)
        except TableError:
            raise ScenarioError(
                f"{where}: {given} puts model {n + 1} of {spec.models} off the "
                f"{table.size_text} table; move the squad inward"
            ) from None
        if kind_at(table, (x, y), field.INFANTRY) is TerrainKind.IMPASSABLE:
            feature = next(
                f.id
                for f in table.features_at((x, y))
                if f.kind_for(field.INFANTRY) is TerrainKind.IMPASSABLE
            )
            raise ScenarioError(
                f"{where}: {given} puts model {n + 1} inside impassable terrain '{feature}'"
            )
        bases.append(base)
    return bases


def check(scenario: Scenario, overrides: Mapping[str, Any] | None = None) -> Checked:
    """Every Steel War check of a scenario; raises :class:`ScenarioError` naming the field."""
    table = _table(scenario)
    options = parse_options(
        dict(overrides if overrides is not None else scenario.options), scenario.side_ids
    )
    end = parse_end(scenario.end)
    squads = tuple(parse_squad(i, unit.data) for i, unit in enumerate(scenario.units))
    models = sum(spec.models for spec in squads)
    if models > limits.MODELS:  # an engine limit (kubik.limits), not a rule
        raise ScenarioError(msg("game.limit.models", n=models, limit=limits.MODELS))
    ids = [s.id for s in squads]
    placed: list[tuple[int, list[Base]]] = []
    for index, spec in enumerate(squads):
        for k, target in enumerate(spec.commands):
            if target not in ids:
                raise ScenarioError(
                    f"units[{index}].commands[{k}]: no unit '{target}'; units: {', '.join(ids)}"
                )
            if squads[ids.index(target)].side != spec.side:
                raise ScenarioError(
                    f"units[{index}].commands[{k}]: '{target}' fights for another side"
                )
        if spec.commands and not spec.officer:
            raise ScenarioError(
                f"units[{index}].commands: only an officer (officer = true) commands squads"
            )
        if spec.is_vehicle and spec.models != 1:
            raise ScenarioError(
                f"units[{index}].weapons: a vehicle has one mounted weapon (count = 1), "
                f"not {spec.models}"
            )
        if spec.is_vehicle and spec.psionic is not None:
            raise ScenarioError(
                f"units[{index}].psionic: a vehicle cannot be a psionic; give it to a squad of men"
            )
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
                    f"('{squads[other].id}'); keep squads apart"
                )
        placed.append((index, bases))
    for index, objective in enumerate(end.objectives):
        if not table.on_table((objective.x, objective.y)):
            raise ScenarioError(
                f"end.objectives[{index}]: ({objective.x:g}, {objective.y:g}) is off the "
                f"{table.size_text} table"
            )
    edges = [_edge(options, side, i) for i, side in enumerate(scenario.side_ids)]
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
    if carrier.side != spec.side:
        raise ScenarioError(f"{where}: '{spec.aboard}' fights for another side")
    riders = sum(s.models for s in squads if s.aboard == spec.aboard)
    capacity = vehicle_profile(carrier.vehicle).capacity
    if riders > capacity:
        raise ScenarioError(
            f"{where}: '{spec.aboard}' carries {capacity} men, its riders number {riders}"
        )


def _edge(options: OptionsSpec, side: str, index: int) -> str:
    chosen = options.sides.get(side)
    if chosen is not None and chosen.edge is not None:
        return chosen.edge
    if index >= len(_DEFAULT_EDGES):
        raise ScenarioError(f"options.sides.{side}.edge: required for a third side")
    return _DEFAULT_EDGES[index]


def side_settings(options: OptionsSpec, side: str) -> tuple[Motivation, MoraleLevel]:
    """A side's motivation and starting morale (SW-MOR-02/03), with the defaults."""
    defaults = field.game_data()["game_sides"]
    own = options.sides.get(side)
    motivation = (
        (own.motivation if own else None)
        or options.motivation
        or Motivation(defaults["motivation"])
    )
    fatigue = (own.fatigue if own else None) or options.fatigue or Fatigue(defaults["fatigue"])
    level = (own.start_level if own else None) or starting_level(fatigue)
    return motivation, level


def build(scenario: Scenario, overrides: Mapping[str, Any] | None = None) -> World:
    """The battle at its start: squads placed, each side's morale set."""
    checked = check(scenario, overrides)
    squads: list[Squad] = []
    for spec in checked.squads:
        motivation, level = side_settings(checked.options, spec.side)
        edge = _edge(checked.options, spec.side, scenario.side_ids.index(spec.side))
        squads.append(build_squad(spec, level, motivation, edge))
    for squad in squads:
        if squad.spec.aboard:
            carrier = next(s for s in squads if s.id == squad.spec.aboard)
            squad.aboard = carrier.id
            squad.move_to(carrier.centre)
    return World(checked.table, squads, scenario.side_ids, checked.end.objectives)


__all__ = ["Checked", "build", "check", "side_settings"]
