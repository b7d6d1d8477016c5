"""Measuring the battlefield for Steel War: formations, distances, sight, cover, moves.

Everything geometric is :mod:`kubik.table`'s; this module only decides *what* to
measure for a squad (closest models, the commander's line of sight, each target
model's cover) and turns it into the plain numbers the rules take: inches rounded
to 0.1, a :class:`~kubik.rulesets.steel_war.fire.Cover`, a terrain class.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from typing import Any

from shapely.geometry import LineString
from shapely.ops import substring

from kubik.data import load_ruleset_data
from kubik.rulesets.steel_war.fire import Cover as FireCover
from kubik.rulesets.steel_war.fire import squad_cover
from kubik.rulesets.steel_war.movement import TerrainClass
from kubik.table import (
    Base,
    Cover,
    Table,
    TableError,
    TerrainKind,
    cover_between,
    edge_distance,
    line_of_sight,
    shortest_path,
    worst_kind_along,
)
from kubik.table.geometry import Point
from kubik.table.movement import kind_at

#: The mover type the scenario's terrain is classed for (``kinds = { infantry = ... }``).
INFANTRY = "infantry"


@cache
def game_data() -> dict[str, Any]:
    """The game layer's own numbers (data/game.toml), with the rules' tables beside them."""
    return load_ruleset_data("steel_war")


def inches(value: float) -> float:
    """A measured length as shown and used: rounded half up to 0.1 inch.

    >>> inches(12.04), inches(12.05), inches(0.0)
    (12.0, 12.1, 0.0)
    """
    return math.floor(value * 10 + 0.5 + 1e-9) / 10


def formation_offsets(models: int) -> tuple[Point, ...]:
    """Where each model stands relative to the squad's centre: a block, ``per_row`` wide.

    >>> formation_offsets(2)
    ((-0.75, 0.0), (0.75, 0.0))
    """
    table = game_data()["game_formation"]
    per_row = int(table["per_row"])
    pitch = float(table["base_inches"]) + float(table["gap_inches"])
    rows = math.ceil(models / per_row)
    out = []
    for i in range(models):
        row, col = divmod(i, per_row)
        in_row = min(per_row, models - row * per_row)
        out.append(((col - (in_row - 1) / 2) * pitch, (row - (rows - 1) / 2) * pitch))
    return tuple(out)


def base_diameter() -> float:
    """The diameter of every infantry base (inches)."""
    return float(game_data()["game_formation"]["base_inches"])


def formation_radius(models: int) -> float:
    """How far the block reaches from its centre, bases included: the clearance of moves."""
    offsets = formation_offsets(max(models, 1))
    return max(math.hypot(x, y) for x, y in offsets) + base_diameter() / 2


def place(centre: Point, models: int) -> tuple[Point, ...]:
    """The model positions of a block standing at ``centre``."""
    return tuple((centre[0] + dx, centre[1] + dy) for dx, dy in formation_offsets(models))


def closest(a: Sequence[Base], b: Sequence[Base]) -> float:
    """Edge distance between the closest models of two squads (inches, unrounded)."""
    return min(edge_distance(x, y) for x in a for y in b)


def sees(table: Table, viewer: Base, targets: Sequence[Base]) -> bool:
    """Whether ``viewer`` sees at least one of ``targets`` (centre to centre)."""
    return any(line_of_sight(table, viewer, t) for t in targets)


def target_cover(
    table: Table, shooter: Base, targets: Sequence[Base]
) -> tuple[FireCover, tuple[bool, ...]]:
    """The squad's cover against ``shooter`` (SW-FIRE-08 default: the cover at least half
    its models share) and, per model, whether it is in cover (exposed models are hit first,
    SW-DMG-02)."""
    covers = [cover_between(table, shooter, t) for t in targets]
    light = sum(1 for c in covers if c is Cover.LIGHT)
    hard = sum(1 for c in covers if c is Cover.HARD)
    return squad_cover(light, hard, len(covers)), tuple(c is not Cover.NONE for c in covers)


def standing_cover(table: Table, point: Point) -> Cover:
    """The cover of the features a model standing at ``point`` is in."""
    return Cover.best(f.cover for f in table.features_at(point))


def terrain_class(kind: TerrainKind) -> TerrainClass:
    """The rule's terrain class for a table terrain kind (the names match)."""
    return {
        TerrainKind.OPEN: TerrainClass.EASY,
        TerrainKind.DIFFICULT: TerrainClass.DIFFICULT,
        TerrainKind.VERY_DIFFICULT: TerrainClass.VERY_DIFFICULT,
        TerrainKind.IMPASSABLE: TerrainClass.IMPASSABLE,
    }[kind]


def route(
    table: Table, start: Point, end: Point, clearance: float, mover: str = INFANTRY
) -> tuple[Point, ...] | None:
    """A way from ``start`` to ``end`` that keeps the block out of impassable terrain:
    the straight line when it is clear, else the shortest path; ``None`` if there is none."""
    try:
        straight = worst_kind_along(table, mover, [start, end], clearance=clearance)
    except TableError:  # an end too close to the table edge for the block
        return None
    if straight is not TerrainKind.IMPASSABLE:
        return (start, end)
    found = shortest_path(table, start, end, mover, clearance=clearance, edge_step=0)
    return None if found is None else found.points


def truncate(path: Sequence[Point], length: float) -> tuple[Point, ...]:
    """The first ``length`` inches of ``path``."""
    if len(path) < 2 or length <= 0:
        return (path[0], path[0])
    line = LineString(path)
    if length >= line.length:
        return tuple(path)
    cut = substring(line, 0, length)
    return tuple((float(x), float(y)) for x, y in cut.coords)


def worst_class(
    table: Table, path: Sequence[Point], clearance: float, mover: str = INFANTRY
) -> TerrainClass:
    """The most restrictive terrain class a path enters (the whole move uses it, SW-MOVE-02)."""
    if len(path) < 2 or path[0] == path[-1]:
        return terrain_class(kind_at(table, path[0], mover))
    return terrain_class(worst_kind_along(table, mover, list(path), clearance=clearance))


def edge_point(table: Table, edge: str, at: Point) -> Point:
    """The point of a table edge straight "behind" ``at`` (where a retreat heads)."""
    x, y = at
    return {
        "south": (x, 0.0),
        "north": (x, table.height),
        "west": (0.0, y),
        "east": (table.width, y),
    }[edge]


def edge_distance_of(table: Table, edge: str, at: Point) -> float:
    """How far ``at`` is from that edge of the table."""
    px, py = edge_point(table, edge, at)
    return math.dist((px, py), at)


def clamp_inside(table: Table, point: Point, margin: float) -> Point:
    """``point`` moved onto the table with ``margin`` inches to spare on every side."""
    return (
        min(max(point[0], margin), table.width - margin),
        min(max(point[1], margin), table.height - margin),
    )


__all__ = [
    "INFANTRY",
    "base_diameter",
    "clamp_inside",
    "closest",
    "edge_distance_of",
    "edge_point",
    "formation_offsets",
    "formation_radius",
    "game_data",
    "inches",
    "place",
    "route",
    "sees",
    "standing_cover",
    "target_cover",
    "terrain_class",
    "truncate",
    "worst_class",
]
