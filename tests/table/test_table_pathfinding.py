"""Shortest paths around impassable terrain and across difficult ground."""

from __future__ import annotations

import math
import time

import pytest
from shapely.geometry import LineString

from kubik.table import (
    Table,
    TableError,
    TerrainFeature,
    TerrainKind,
    can_reach,
    path_cost,
    shortest_path,
)

IMP, D = TerrainKind.IMPASSABLE, TerrainKind.DIFFICULT
ROCK = TerrainFeature.from_points("rock", [(4, 0), (6, 0), (6, 6), (4, 6)], kind=IMP)


def test_straight_when_nothing_is_in_the_way() -> None:
    route = shortest_path(Table(12, 12), (1, 1), (4, 5))
    assert route is not None
    assert route.points == ((1, 1), (4, 5))
    assert route.cost == pytest.approx(5)


def test_around_an_impassable_block() -> None:
    table = Table(12, 12, (ROCK,))
    route = shortest_path(table, (2, 4), (8, 4))
    assert route is not None
    # over the top corners: (2,4)→(4,6) is √8, across 2, (6,6)→(8,4) is √8
    assert route.points == ((2, 4), (4, 6), (6, 6), (8, 4))
    assert route.cost == pytest.approx(2 * math.sqrt(8) + 2)
    assert route.length == pytest.approx(route.cost)
    assert route.cost == pytest.approx(path_cost(table, None, route.points))


def test_a_limit_gives_up_on_routes_that_cost_more() -> None:
    table = Table(12, 12, (ROCK,))
    full = 2 * math.sqrt(8) + 2  # the way round the block (7.66)
    within = shortest_path(table, (2, 4), (8, 4), limit=full + 0.01)
    assert within is not None and within.cost == pytest.approx(full)
    assert shortest_path(table, (2, 4), (8, 4), limit=full - 0.01) is None
    # in the open too: the straight route costs 5
    assert shortest_path(Table(12, 12), (1, 1), (4, 5), limit=4.99) is None
    assert shortest_path(Table(12, 12), (1, 1), (4, 5), limit=5.01) is not None


def test_around_the_block_with_a_base() -> None:
    table = Table(12, 12, (ROCK,))
    route = shortest_path(table, (2, 4), (8, 4), clearance=0.5)
    assert route is not None
    # hand bound: the centre goes round the rock grown by 0.5 — at least the path over
    # the grown top edge y = 6.5, at most that plus the rounded corners' detour
    lower = 2 * math.dist((2, 4), (4, 6.5)) + 2
    assert lower - 0.01 <= route.cost <= lower + 0.3
    line = LineString(route.points)
    assert line.distance(ROCK.shape) >= 0.5 * math.cos(math.pi / 32) - 1e-9


def test_no_route_through_a_wall_across_the_table() -> None:
    wall = TerrainFeature.from_points("wall", [(5, 0), (6, 0), (6, 12), (5, 12)], kind=IMP)
    table = Table(12, 12, (wall,))
    assert shortest_path(table, (2, 6), (10, 6)) is None
    assert not can_reach(table, (2, 6), (10, 6), 100)


def test_a_gap_too_narrow_for_the_base() -> None:
    low = TerrainFeature.from_points("low", [(5, 0), (6, 0), (6, 5.5), (5, 5.5)], kind=IMP)
    high = TerrainFeature.from_points("high", [(5, 6.5), (6, 6.5), (6, 12), (5, 12)], kind=IMP)
    table = Table(12, 12, (low, high))
    route = shortest_path(table, (2, 6), (10, 6))
    assert route is not None and route.cost == pytest.approx(8)
    assert shortest_path(table, (2, 6), (10, 6), clearance=0.6) is None  # a 1.2-inch base


def test_goes_round_a_wood_when_that_is_cheaper() -> None:
    wood = TerrainFeature.from_points("wood", [(4, 2), (8, 2), (8, 10), (4, 10)], kind=D)
    table = Table(12, 12, (wood,))
    route = shortest_path(table, (0, 6), (12, 6))
    assert route is not None
    # straight through costs 4 + 8 + 4 = 16; round a corner costs √32 + 4 + √32 ≈ 15.31
    assert route.cost == pytest.approx(4 + 2 * math.sqrt(32))
    assert route.points in (
        ((0, 6), (4, 10), (8, 10), (12, 6)),
        ((0, 6), (4, 2), (8, 2), (12, 6)),
    )


def test_goes_through_a_wood_when_that_is_cheaper() -> None:
    wood = TerrainFeature.from_points("wood", [(4, 0), (8, 0), (8, 12), (4, 12)], kind=D)
    table = Table(12, 12, (wood,))
    route = shortest_path(table, (0, 6), (12, 6))
    assert route is not None and route.cost == pytest.approx(16)


def test_mover_types_take_different_routes() -> None:
    wood = TerrainFeature.from_points(
        "wood", [(4, 0), (8, 0), (8, 10), (4, 10)], kind=D, kinds={"wheeled": IMP}
    )
    table = Table(12, 12, (wood,))
    foot = shortest_path(table, (2, 5), (10, 5), "infantry")
    car = shortest_path(table, (2, 5), (10, 5), "wheeled")
    assert foot is not None and foot.cost == pytest.approx(2 + 8 + 2)
    assert car is not None and car.cost == pytest.approx(2 * math.dist((2, 5), (4, 10)) + 4)


def test_can_reach_against_the_allowance() -> None:
    table = Table(12, 12, (ROCK,))
    cost = 2 * math.sqrt(8) + 2
    assert can_reach(table, (2, 4), (8, 4), cost + 1e-6)
    assert not can_reach(table, (2, 4), (8, 4), cost - 0.01)
    with pytest.raises(TableError, match="allowance"):
        can_reach(table, (2, 4), (8, 4), -1)


def test_start_inside_impassable_terrain() -> None:
    table = Table(12, 12, (ROCK,))
    assert shortest_path(table, (5, 3), (10, 10)) is None
    assert shortest_path(table, (10, 10), (5, 3)) is None


def test_bad_points() -> None:
    with pytest.raises(TableError, match=r"path\[1\]: \(13, 3\) is off the 12 x 12 table"):
        shortest_path(Table(12, 12), (1, 1), (13, 3))
    with pytest.raises(TableError, match="edge_step"):
        shortest_path(Table(12, 12), (1, 1), (3, 3), edge_step=-1)


def test_a_busy_table_is_fast_enough() -> None:
    feats = []
    for i in range(6):
        for j in range(4):
            x, y = 4 + i * 7, 4 + j * 11
            kind = IMP if (i + j) % 2 else D
            feats.append(
                TerrainFeature.from_points(
                    f"f{i}{j}", [(x, y), (x + 4, y), (x + 4, y + 5), (x, y + 5)], kind=kind
                )
            )
    table = Table(48, 48, tuple(feats))
    start = time.perf_counter()
    route = shortest_path(table, (1, 1), (47, 47), clearance=0.5)
    assert route is not None
    assert route.cost >= math.dist((1, 1), (47, 47))
    assert time.perf_counter() - start < 15  # about 1 s on a laptop


def test_later_searches_on_a_table_reuse_its_graph_and_find_the_same_routes() -> None:
    """The terrain's nodes and the edges between them are kept per table (and mover,
    clearance, edge step): a search on a fresh copy of the table gives the very same route."""
    from kubik.game import load_scenario
    from kubik.table import table_from_dict

    scenario = load_scenario("old_west.demo")
    data = {"table": scenario.table, "terrain": list(scenario.terrain)}
    shared, fresh_each = table_from_dict(data), None
    pairs = [((5.0, 25.0), (20.0, 18.0)), ((2.0, 2.0), (34.0, 34.0)), ((20.0, 2.0), (6.0, 30.0))]
    for _ in range(2):
        for a, b in pairs:
            fresh_each = table_from_dict(data)
            kept = shortest_path(shared, a, b, clearance=0.49, edge_step=2.0)
            anew = shortest_path(fresh_each, a, b, clearance=0.49, edge_step=2.0)
            assert kept is not None and anew is not None
            assert kept.points == anew.points and kept.cost == anew.cost
    graph = shared.cached(("nav-graph", None, 0.49, 2.0), lambda: None)
    assert graph is not None and graph.rows  # rows kept for the next search
