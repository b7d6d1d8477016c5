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

from kubik.table import Base, TableError, TerrainKind
from kubik.table.movement import Regions, _kind_at, _segment_legs, regions
from kubik.table.tape import Tape, along
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


def test_closest_matches_every_pair_to_the_last_bit() -> None:
    """Groups of one base size take the nearest centres' gap: the same float as the least
    gap pair by pair (rounding is monotonic); mixed sizes are measured pair by pair."""
    rng = random.Random(11)
    for case in range(2000):
        sizes = [rng.choice([0.5, 1.0, 1.25, 32 / 25.4])]
        if case % 3 == 0:
            sizes.append(rng.choice([0.75, 2.0, 40 / 25.4]))

        a, b = (
            [
                Base(rng.uniform(1, 47), rng.uniform(1, 47), rng.choice(sizes))
                for _ in range(rng.randint(1, 8))
            ]
            for _ in range(2)
        )
        pairwise = min(math.dist(x.centre, y.centre) - x.radius - y.radius for x in a for y in b)
        assert Tape.closest(a, b) == max(0.0, pairwise), (a, b)
    with pytest.raises(ValueError):
        Tape.closest([], [Base(1, 1, 1)])


@pytest.mark.parametrize("name", SCENARIOS)
def test_candidates_are_the_features_whose_boxes_meet_the_rectangle(name: str) -> None:
    table = _table(name)
    rng = random.Random(17)
    for _ in range(500):
        x0, x1 = sorted(rng.uniform(-2, table.width + 2) for _ in range(2))
        y0, y1 = sorted(rng.uniform(-2, table.height + 2) for _ in range(2))
        if rng.random() < 0.3:
            x1, y1 = x0, y0  # a point
        expected = tuple(
            f
            for f in table.features
            if f.shape.bounds[0] <= x1
            and f.shape.bounds[2] >= x0
            and f.shape.bounds[1] <= y1
            and f.shape.bounds[3] >= y0
        )
        assert table.candidates_in(x0, y0, x1, y1) == expected
        point = (x0, y0)
        assert table.features_at(point) == tuple(
            f for f in table.features if f.is_area and f.shape.covers(shapely.Point(point))
        )


def test_a_moved_base_is_the_base_made_there() -> None:
    """``moved_to`` makes a checked base without checking it again: every field, the
    centre and the radius as the base made at that point has them."""
    rng = random.Random(3)
    for _ in range(200):
        base = Base(rng.uniform(1, 40), rng.uniform(1, 40), rng.choice([1.0, 32 / 25.4]), "m")
        point = (rng.uniform(1, 40), rng.uniform(1, 40))
        moved, made = base.moved_to(point), Base(point[0], point[1], base.diameter, "m")
        assert moved == made and hash(moved) == hash(made)
        assert (moved.centre, moved.radius, moved.id) == (made.centre, made.radius, made.id)
    with pytest.raises(TableError):
        Base(1, 1, 1).moved_to((math.inf, 1.0))
