"""The table's shortcuts give exactly shapely's answers.

Battles ask the terrain about every move, so the table skips work it can prove
idle: a move or a point in no feature's bounding box is open ground without a
shapely test, a segment is cut only against the regions whose boxes it meets,
and :func:`~kubik.table.tape.along` cuts a path with shapely's own steps without
its wrappers. Games are compared byte for byte, so each shortcut is checked here
against the plain shapely computation on every built-in table.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random

import pytest
import shapely
from shapely.geometry import LineString
from shapely.ops import substring

from kubik.table import TerrainKind
from kubik.table.movement import Regions, _kind_at, _segment_legs, regions
from kubik.table.tape import along
from tests.table.test_table_tape import SCENARIOS, _points, _table


def _plain(reg: Regions) -> Regions:
    """The same regions without their boxes: every question goes to shapely."""
    return dataclasses.replace(reg, boxes=(), inside=None, parts=None)


def _shapely_kind(reg: Regions, point: tuple[float, float]) -> TerrainKind:
    x, y = point
    if shapely.contains_xy(reg.barrier_core, x, y):
        return TerrainKind.IMPASSABLE
    if shapely.contains_xy(reg.slower_core, x, y):
        return TerrainKind.VERY_DIFFICULT
    if shapely.contains_xy(reg.slow_core, x, y):
        return TerrainKind.DIFFICULT
    return TerrainKind.OPEN


@pytest.mark.parametrize("name", SCENARIOS)
def test_terrain_kinds_and_legs_match_shapely(name: str) -> None:
    table = _table(name)
    movers = [None, *sorted({m for f in table.features for m in f.kinds})]
    points = _points(table, 120, 23, margin=0.3)
    shortcuts = 0
    for mover in movers:
        for clearance in (0.0, 0.5):
            reg = regions(table, mover, clearance)
            plain = _plain(reg)
            for i, p in enumerate(points):
                assert _kind_at(reg, p) is _shapely_kind(reg, p), (mover, clearance, p)
                q = points[(i * 7 + 5) % len(points)]
                cut, reference = _segment_legs(reg, p, q), _segment_legs(plain, p, q)
                assert tuple(cut) == tuple(reference), (mover, clearance, p, q)
                assert tuple(_segment_legs(reg, p, q)) == tuple(reference)  # kept: the same
                shortcuts += len(reference) > 1
    assert shortcuts > 0 or not table.features


def _substring(path: list[tuple[float, float]], length: float) -> tuple[tuple[float, float], ...]:
    """``along`` as shapely's ``substring`` computes it."""
    points = tuple((float(x), float(y)) for x, y in path)
    if len(points) < 2 or length <= 0:
        return (points[0], points[0])
    line = LineString(points)
    if length >= line.length:
        return points
    return tuple((float(x), float(y)) for x, y in substring(line, 0, length).coords)


def test_along_cuts_where_shapely_does() -> None:
    rng = random.Random(5)
    for _ in range(3000):
        path = [
            (round(rng.uniform(0, 48), rng.choice([0, 1, 9])), round(rng.uniform(0, 48), 1))
            for _ in range(rng.randint(1, 6))
        ]
        if len(path) > 2 and rng.random() < 0.2:
            path[1] = path[0]  # a repeated point
        total = sum(math.dist(p, q) for p, q in itertools.pairwise(path))
        lengths = (rng.uniform(0, total + 1), round(rng.uniform(0, total), 1), rng.randint(0, 9))
        for length in lengths:
            assert along(path, length) == _substring(path, length), (path, length)
