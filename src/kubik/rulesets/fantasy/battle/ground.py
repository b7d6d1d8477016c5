"""Ground on a Warhammer Fantasy table: which kinds of ground (difficult, water,
impassable; :class:`~kubik.rulesets.fantasy.movement.Ground`) a regiment's models go
through on a move, measured with the battle's one tape. What the ground does to the
move is the movement rules' answer (:func:`~kubik.rulesets.fantasy.movement.pace`,
:func:`~kubik.rulesets.fantasy.movement.may_cross`), never decided here.

A scenario's ``[[terrain]]`` entry names its ground (``ground = "water"``; without it
the table's ``kind`` and ``water`` say it). The table keeps each kind of ground as a
mover type of its own for which that feature alone is impassable, so one measurement
of the tape (:meth:`~kubik.table.tape.Tape.worst_kind`) answers whether a model's way
touches it."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from kubik.game.errors import ScenarioError
from kubik.rulesets.fantasy.battle.units import Unit
from kubik.rulesets.fantasy.movement import Ground
from kubik.table import Base, Point, TableError, TerrainKind
from kubik.table.tape import Tape

#: The table kind each ground is for a piece of no mover type (sight, the web table).
_TABLE_KIND = {
    Ground.OPEN: TerrainKind.OPEN,
    Ground.DIFFICULT: TerrainKind.DIFFICULT,
    Ground.WATER: TerrainKind.DIFFICULT,
    Ground.IMPASSABLE: TerrainKind.IMPASSABLE,
}


def probe(ground: Ground) -> str:
    """The table's mover type that finds ``ground`` (impassable to it there, open on
    every other feature)."""
    return f"ground_{ground.value}"


def prepare(index: int, entry: Mapping[str, Any]) -> Mapping[str, Any]:
    """A ``[[terrain]]`` entry in the table's fields: its ground read (``ground``, else
    from ``kind`` and ``water``), the table's ``kind`` and ``water`` filled from it and
    one probe mover type for it (see the module docstring)."""
    fields = dict(entry)
    written = fields.pop("ground", None)
    if written is None:
        kind = str(fields.get("kind", "open"))
        ground = (
            Ground.IMPASSABLE
            if kind == "impassable"
            else Ground.WATER
            if fields.get("water") is True
            else Ground.DIFFICULT
            if kind in ("difficult", "very_difficult")
            else Ground.OPEN
        )
    else:
        try:
            ground = Ground(str(written))
        except ValueError:
            allowed = ", ".join(g.value for g in Ground)
            raise ScenarioError(
                f"terrain[{index}].ground: {written!r} is not one of {allowed}"
            ) from None
        fields["kind"] = _TABLE_KIND[ground].value
        if ground is Ground.WATER:
            fields["water"] = True
    if ground is not Ground.OPEN:
        kinds = dict(fields.get("kinds") or {})
        for other in (Ground.DIFFICULT, Ground.WATER, Ground.IMPASSABLE):
            found = TerrainKind.IMPASSABLE if other is ground else TerrainKind.OPEN
            kinds[probe(other)] = found.value
        fields["kinds"] = kinds
    return fields


def _columns(start: Sequence[Base], end: Sequence[Base]) -> list[tuple[Point, Point]]:
    """The ways a formation's files sweep from ``start`` to ``end`` (the same formation
    moved straight): from each file's rearmost base at the start to its foremost at the
    end, so together they cover every place a model passes."""
    sx, sy = start[0].centre
    ex, ey = end[0].centre
    dx, dy = ex - sx, ey - sy
    length = math.hypot(dx, dy)
    if length < 1e-9:
        return [(b.centre, b.centre) for b in start]
    ux, uy = dx / length, dy / length
    files: dict[float, tuple[Point, Point, float]] = {}
    for a, b in zip(start, end, strict=True):
        across = round(a.centre[0] * uy - a.centre[1] * ux, 1)
        along = a.centre[0] * ux + a.centre[1] * uy
        held = files.get(across)
        if held is None:
            files[across] = (a.centre, b.centre, along)
        else:
            rear, front, rear_along = held
            if along < rear_along:
                rear, rear_along = a.centre, along
            b_along = b.centre[0] * ux + b.centre[1] * uy
            if b_along > front[0] * ux + front[1] * uy:
                front = b.centre
            files[across] = (rear, front, rear_along)
    return [(rear, front) for rear, front, _ in files.values()]


def _kind(tape: Tape, way: Sequence[Point], mover: str | None, radius: float) -> str:
    """The tape's worst kind along ``way`` (a model partly off the table's edge, as a
    fleeing rear rank may stand, meets no terrain there)."""
    try:
        return tape.worst_kind(way, mover, radius).value
    except TableError:
        return TerrainKind.OPEN.value


def _hard_bounds(tape: Tape) -> tuple[tuple[float, float, float, float], ...]:
    """The bounds of every feature that is hard ground for someone (not open)."""
    return tape.kept(
        "fantasy.hard_bounds",
        (),
        lambda: tuple(
            tuple(f.shape.bounds)
            for f in tape.table.features
            if f.kind is not TerrainKind.OPEN
            or any(kind is not TerrainKind.OPEN for kind in f.kinds.values())
        ),
    )


def _clear_of_hard_ground(tape: Tape, start: Sequence[Base], end: Sequence[Base]) -> bool:
    """Whether the box the models sweep lies away from every hard feature's bounds (then
    no model touches hard ground, and the tape need not be asked)."""
    r = max(b.radius for b in (*start, *end))
    xs = [b.centre[0] for b in (*start, *end)]
    ys = [b.centre[1] for b in (*start, *end)]
    low_x, low_y, high_x, high_y = min(xs) - r, min(ys) - r, max(xs) + r, max(ys) + r
    return all(
        high_x < fx0 or low_x > fx1 or high_y < fy0 or low_y > fy1
        for fx0, fy0, fx1, fy1 in _hard_bounds(tape)
    )


def grounds_swept(tape: Tape, start: Sequence[Base], end: Sequence[Base]) -> frozenset[Ground]:
    """Every kind of hard ground the models touch going straight from ``start`` to
    ``end`` (their formations, model by model)."""
    if _clear_of_hard_ground(tape, start, end):
        return frozenset()
    radius = start[0].radius
    ways = [(a, b) if a != b else (a,) for a, b in _columns(start, end)]
    kinds = [_kind(tape, way, None, radius) for way in ways]
    hard = [way for way, kind in zip(ways, kinds, strict=True) if kind != "open"]
    if not hard:
        return frozenset()
    # the table's kind is impassable only where impassable ground is (see prepare)
    found = {Ground.IMPASSABLE} if "impassable" in kinds else set()
    for g in (Ground.DIFFICULT, Ground.WATER):
        if any(_kind(tape, way, probe(g), radius) == "impassable" for way in hard):
            found.add(g)
    return frozenset(found)


def grounds_under(tape: Tape, bases: Sequence[Base]) -> frozenset[Ground]:
    """The kinds of hard ground the models of ``bases`` stand in."""
    return grounds_swept(tape, bases, bases)


def way(
    tape: Tape,
    unit: Unit,
    start: tuple[float, float],
    end: tuple[float, float],
    facing: int,
) -> tuple[frozenset[Ground], frozenset[Ground]]:
    """The hard ground ``unit`` goes through from ``start`` to ``end`` facing
    ``facing``, and the ground it stands in there."""
    there = unit.bases(end, facing)
    through = grounds_swept(tape, unit.bases(start, facing), there)
    return through, grounds_under(tape, there)
