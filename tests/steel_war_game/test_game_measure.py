"""The battle's memoised measuring tape gives exactly kubik.table's answers.

:class:`~kubik.rulesets.steel_war.battle.measure.Measure` asks the table with
prepared shapes and memoises; the games must not change, so its sight, cover and
distances are checked against :mod:`kubik.table` on many random points of the
demo's table (every kind of feature: houses, woods, a hedge, a pond, a road).
"""

from __future__ import annotations

import random

from kubik.game import load_scenario
from kubik.rulesets.steel_war.battle import field
from kubik.rulesets.steel_war.battle.measure import Measure
from kubik.rulesets.steel_war.battle.setup import build
from kubik.table import Base, cover_between, edge_distance, line_of_sight


def _points(n: int, seed: int) -> list[tuple[float, float]]:
    rng = random.Random(seed)
    # on a 0.1-inch grid, as the battle's positions are; some on feature edges
    return [(rng.randint(5, 475) / 10, rng.randint(5, 475) / 10) for _ in range(n)]


def test_sight_and_cover_match_the_table_exactly() -> None:
    world = build(load_scenario("steel_war.demo"))
    table = world.table
    measure = Measure(table)
    points = [*_points(70, 5), (16.0, 24.0), (8.0, 20.0), (24.0, 15.0), (17.0, 15.0)]
    d = field.base_diameter()
    blocked = covered = 0
    for a in points:
        for b in points[::3]:
            base_a, base_b = Base(a[0], a[1], d), Base(b[0], b[1], d)
            sees = line_of_sight(table, base_a, base_b)
            assert measure.los(a, b) is sees, (a, b)
            cover = cover_between(table, base_a, base_b)
            assert measure.cover(a, b) is cover, (a, b)
            blocked += not sees
            covered += cover.value != "none"
    assert blocked > 50 and covered > 50  # the sample crosses the terrain often


def test_distances_match_the_table() -> None:
    measure = Measure(build(load_scenario("steel_war.demo")).table)
    points = _points(40, 9)
    d = field.base_diameter()
    for i in range(0, len(points) - 4, 4):
        a, b = points[i : i + 2], points[i + 2 : i + 4]
        expected = min(
            edge_distance(Base(p[0], p[1], d), Base(q[0], q[1], d)) for p in a for q in b
        )
        assert measure.closest(a, b) == expected
