"""The one measuring tape gives exactly kubik.table's answers, on every built-in table.

:class:`kubik.table.tape.Tape` memoises with prepared shapes and bounding-box
pre-filters; battles must not change, so sight, cover, terrain and ways are
checked against the table functions on many random points of every built-in
scenario's table (houses, woods, hedges, fences, water, roads, elevation).
"""

from __future__ import annotations

import math
import random

import pytest
from shapely.geometry import Point

from kubik.game import ScenarioSource, get_ruleset, list_scenarios, load_scenario
from kubik.game.battle import battle_table
from kubik.table import (
    Base,
    Table,
    TerrainKind,
    cover_sources,
    kind_at,
    legs,
    line_of_sight,
    max_move_along,
    obstacles_crossed,
    path_cost,
    table_from_dict,
    worst_kind_along,
)
from kubik.table.tape import LIMIT, Tape, along

SCENARIOS = [info.id for info in list_scenarios() if info.source is ScenarioSource.BUILT_IN]


def _table(name: str) -> Table:
    """The scenario's table as its battle builds it (a ruleset may read its own terrain
    fields into the table's, ``BattleGame.prepare_terrain``)."""
    scenario = load_scenario(name)
    start = getattr(get_ruleset(scenario.ruleset), "start", None)
    prepare = getattr(start, "prepare_terrain", None)
    if prepare is None:
        return table_from_dict({"table": scenario.table, "terrain": list(scenario.terrain)})
    return battle_table(scenario, prepare)


def _points(table: Table, n: int, seed: int, margin: float = 0.6) -> list[tuple[float, float]]:
    rng = random.Random(seed)
    w, h = int((table.width - 2 * margin) * 10), int((table.height - 2 * margin) * 10)
    # on a 0.1-inch grid, as battles' positions are; so some fall on feature edges
    return [(margin + rng.randint(0, w) / 10, margin + rng.randint(0, h) / 10) for _ in range(n)]


def test_every_built_in_scenario_is_measured() -> None:
    assert len(SCENARIOS) >= 4, SCENARIOS


@pytest.mark.parametrize("name", SCENARIOS)
def test_sight_and_cover_match_the_table(name: str) -> None:
    table = _table(name)
    tape = Tape(table)
    points = _points(table, 60, 5, margin=0.7)
    blocked = covered = 0
    for a in points:
        for b in points[::3]:
            base_a, base_b = Base(a[0], a[1], 1.0), Base(b[0], b[1], 1.25)
            sees = line_of_sight(table, base_a, base_b)
            assert tape.sees(base_a, base_b) is sees, (a, b)
            assert tape.sees(b, a) is sees, (a, b)
            expected = tuple(s.feature_id for s in cover_sources(table, base_a, base_b))
            assert tape.cover_ids(base_a, base_b) == expected, (a, b)
            blocked += not sees
            covered += bool(expected)
    assert covered >= 5  # the sample crosses cover (fantasy.pass has little of it)
    if any(f.blocks_los for f in table.features):
        assert blocked > 20


@pytest.mark.parametrize("name", SCENARIOS)
def test_terrain_and_ways_match_the_table(name: str) -> None:
    table = _table(name)
    tape = Tape(table)
    points = _points(table, 40, 11, margin=1.0)
    movers = [None, *sorted({m for f in table.features for m in f.kinds})]
    for i, a in enumerate(points):
        b = points[(i * 7 + 3) % len(points)]
        assert tape.standing(a) is _best_cover(table, a)
        assert tape.in_water(a) is any(f.water for f in table.features_at(a))
        assert tape.crossed([a, b]) == tuple(f.id for f in obstacles_crossed(table, [a, b]))
        for mover in movers:
            assert tape.kind_at(a, mover, 0.5) is kind_at(table, a, mover, clearance=0.5)
            assert tape.worst_kind([a, b], mover, 0.5) is worst_kind_along(
                table, mover, [a, b], clearance=0.5
            )
            cost = path_cost(table, mover, [a, b], clearance=0.5)
            assert tape.cost([a, b], mover, 0.5) == cost
            assert tape.legs([a, b], mover, 0.5) == legs(table, [a, b], mover, clearance=0.5)
            way = tape.way(a, b, mover, 0.5)
            if math.isfinite(cost):
                assert way is not None and way.points == (a, b) and way.cost == cost
            elif way is not None:  # a way round: it avoids impassable terrain
                assert math.isfinite(path_cost(table, mover, list(way.points), clearance=0.5))


def _best_cover(table: Table, point: tuple[float, float]):  # type: ignore[no-untyped-def]
    from kubik.table import Cover

    return Cover.best(f.cover for f in table.features_at(point))


def test_distances_and_cutting_a_path() -> None:
    a = [Base(0, 0, 1), Base(10, 0, 1)]
    b = [Base(3, 4, 1), Base(20, 20, 2)]
    assert Tape.closest(a, b) == pytest.approx(4.0)
    assert Tape.closest([Base(0, 0, 1)], [Base(0.5, 0, 1)]) == 0.0
    assert along([(0, 0), (3, 0), (3, 4)], 5) == ((0, 0), (3, 0), (3, 2))
    assert along([(0, 0), (3, 0)], 9) == ((0, 0), (3, 0))


def test_one_tape_per_table_and_bounded_memory() -> None:
    table = _table("steel_war.demo")
    assert Tape.of(table) is Tape.of(table)
    tape = Tape(table)
    for i in range(LIMIT + 10):
        tape.sees((1.0, 1.0 + i / 1e6), (2.0, 2.0))
    assert len(tape._memos["sees"]) <= LIMIT


@pytest.mark.parametrize("name", SCENARIOS)
def test_heights_reaches_and_places_round_features_match_the_table(name: str) -> None:
    table = _table(name)
    tape = Tape(table)
    points = _points(table, 30, 17, margin=1.0)
    for i, a in enumerate(points):
        b = points[(i * 5 + 1) % len(points)]
        assert tape.elevation(a) == table.elevation_at(a)
        for allowance in (0.0, 3.0, 6.0):
            expected = max_move_along(table, [a, b], allowance, None, clearance=0.5)
            assert tape.reach([a, b], allowance, None, 0.5) == expected
    for feature in table.features:
        spots = tape.around(feature.id, 0.5, 0.2)
        assert spots == tape.around(feature.id, 0.5, 0.2)
        for spot in spots:
            # beside the feature (rounding to 0.1" apart), on the table, on passable ground
            assert abs(feature.shape.distance(Point(spot)) - 0.7) < 0.1, (feature.id, spot)
            assert kind_at(table, spot, None, clearance=0.5) is not TerrainKind.IMPASSABLE
