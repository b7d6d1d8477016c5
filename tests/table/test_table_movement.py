"""Terrain costs of paths and how far a model gets, against hand-computed numbers."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kubik.table import (
    Stop,
    Table,
    TableError,
    TerrainFeature,
    TerrainKind,
    kind_at,
    legs,
    max_move_along,
    obstacles_crossed,
    path_cost,
    path_length,
    worst_kind_along,
)

D, VD, IMP = TerrainKind.DIFFICULT, TerrainKind.VERY_DIFFICULT, TerrainKind.IMPASSABLE
WOOD = TerrainFeature.from_points(
    "wood",
    [(4, 2), (8, 2), (8, 10), (4, 10)],
    kind=D,
    kinds={"tracked": VD, "wheeled": IMP},
)
TABLE = Table(24, 12, (WOOD,))


def test_crossing_a_difficult_patch_straight() -> None:
    # 4 open + 4 in the wood at double cost + 4 open
    assert path_cost(TABLE, "infantry", [(0, 6), (12, 6)]) == pytest.approx(16)
    assert path_cost(TABLE, "tracked", [(0, 6), (12, 6)]) == pytest.approx(20)  # 4 + 12 + 4
    assert path_cost(TABLE, "wheeled", [(0, 6), (12, 6)]) == math.inf


def test_crossing_a_difficult_patch_diagonally() -> None:
    # (0,0) → (12,9): direction (0.8, 0.6), length 15; inside the wood for x in [4, 8],
    # i.e. 4 / 0.8 = 5 inches (y from 3 to 6, inside [2, 10]): cost 15 + 5
    assert path_cost(TABLE, "infantry", [(0, 0), (12, 9)]) == pytest.approx(20)


def test_a_path_with_a_bend() -> None:
    # (0,6)→(6,6): 4 open + 2 wood (×2); (6,6)→(6,0): 4 wood (×2) + 2 open
    assert path_cost(TABLE, None, [(0, 6), (6, 6), (6, 0)]) == pytest.approx(4 + 4 + 8 + 2)
    assert path_length([(0, 6), (6, 6), (6, 0)]) == 12


def test_running_along_the_edge_of_a_wood_is_open() -> None:
    assert path_cost(TABLE, None, [(0, 2), (12, 2)]) == pytest.approx(12)
    assert kind_at(TABLE, (6, 2)) is TerrainKind.OPEN
    assert kind_at(TABLE, (6, 3)) is D


def test_overlapping_features_use_the_worst_kind() -> None:
    slow = TerrainFeature.from_points("slow", [(4, 0), (8, 0), (8, 12), (4, 12)], kind=D)
    slower = TerrainFeature.from_points("slower", [(6, 0), (10, 0), (10, 12), (6, 12)], kind=VD)
    table = Table(24, 12, (slow, slower))
    # open 4, difficult 2 (×2), very difficult 4 (×3), open 2
    assert path_cost(table, None, [(0, 6), (12, 6)]) == pytest.approx(4 + 4 + 12 + 2)
    assert [(leg.kind, leg.length) for leg in legs(table, [(0, 6), (12, 6)])] == [
        (TerrainKind.OPEN, 4),
        (D, 2),
        (VD, 4),
        (TerrainKind.OPEN, 2),
    ]
    assert worst_kind_along(table, None, [(0, 6), (12, 6)]) is VD
    assert worst_kind_along(table, None, [(0, 6), (3, 6)]) is TerrainKind.OPEN


def test_max_move_along_stops_inside_the_wood() -> None:
    move = max_move_along(TABLE, [(0, 6), (12, 6)], 6, "infantry")
    # 4 inches of open ground cost 4; the last 2 inches of allowance buy 1 inch of wood
    assert move.end == pytest.approx((5, 6))
    assert move.distance == pytest.approx(5)
    assert move.cost == 6
    assert move.stop is Stop.ALLOWANCE and not move.complete


def test_max_move_along_exactly_to_the_edge_and_to_the_end() -> None:
    move = max_move_along(TABLE, [(0, 6), (12, 6)], 12, "infantry")
    assert move.end == pytest.approx((8, 6)) and move.stop is Stop.ALLOWANCE
    done = max_move_along(TABLE, [(0, 6), (12, 6)], 100, "infantry")
    assert done.end == (12, 6) and done.complete
    assert done.cost == pytest.approx(16) and done.distance == pytest.approx(12)
    assert max_move_along(TABLE, [(0, 6), (12, 6)], 0).end == (0, 6)


def test_max_move_along_stops_at_impassable_terrain() -> None:
    move = max_move_along(TABLE, [(0, 6), (12, 6)], 100, "wheeled")
    assert move.end == pytest.approx((4, 6))
    assert move.stop is Stop.IMPASSABLE
    assert move.cost == pytest.approx(4)


def test_clearance_keeps_the_base_off_impassable_terrain() -> None:
    rock = TerrainFeature.from_points("rock", [(10, 0), (14, 0), (14, 6), (10, 6)], kind=IMP)
    table = Table(24, 12, (rock,))
    assert path_cost(table, None, [(8, 3), (16, 3)]) == math.inf
    assert path_cost(table, None, [(8, 7), (16, 7)]) == pytest.approx(8)
    assert path_cost(table, None, [(8, 7), (16, 7)], clearance=0.5) == pytest.approx(8)
    assert path_cost(table, None, [(8, 7), (16, 7)], clearance=1.5) == math.inf
    # at y = 7.5 the base (radius 1.5) just skims the rock's top edge
    assert path_cost(table, None, [(8, 7.5), (16, 7.5)], clearance=1.5) == pytest.approx(8)
    # at y = 7.2 it hits the corner (10, 6) when its centre is at x = 10 - √(1.5² - 1.2²) = 9.1
    # (rounded corners are polygons: within 0.5% of the clearance)
    move = max_move_along(table, [(8, 7.2), (16, 7.2)], 20, clearance=1.5)
    assert move.stop is Stop.IMPASSABLE
    assert move.end[0] == pytest.approx(9.1, abs=0.02)


def test_impassable_fence() -> None:
    fence = TerrainFeature.from_points(
        "fence", [(12, 0), (12, 6)], line=True, obstacle=True, kind=IMP
    )
    table = Table(24, 12, (fence,))
    assert path_cost(table, None, [(8, 3), (16, 3)]) == math.inf
    assert path_cost(table, None, [(8, 6.01), (16, 6.01)]) == pytest.approx(8)
    move = max_move_along(table, [(8, 3), (16, 3)], 20)
    assert move.end[0] == pytest.approx(12, abs=0.002)


def test_obstacles_crossed() -> None:
    hedge = TerrainFeature.from_points("hedge", [(12, 0), (12, 6)], line=True, obstacle=True)
    table = Table(24, 12, (hedge, WOOD))
    assert obstacles_crossed(table, [(8, 3), (16, 3)]) == (hedge,)
    assert obstacles_crossed(table, [(8, 6), (16, 6)]) == ()  # past its very end
    assert path_cost(table, None, [(9, 1), (16, 1)]) == pytest.approx(7)  # no cost of its own


def test_bad_paths() -> None:
    with pytest.raises(TableError, match=r"path\[1\]: \(30, 5\) is off the 24 x 12 table"):
        path_cost(TABLE, None, [(0, 5), (30, 5)])
    with pytest.raises(TableError, match=r"path\[0\]: .*closer than 1 inches to the edge"):
        path_cost(TABLE, None, [(0.5, 5), (3, 5)], clearance=1)
    with pytest.raises(TableError, match="allowance"):
        max_move_along(TABLE, [(0, 5), (3, 5)], -1)
    with pytest.raises(TableError, match="clearance"):
        path_cost(TABLE, None, [(0, 5)], clearance=-1)
    with pytest.raises(TableError, match="path: needs at least one point"):
        path_cost(TABLE, None, [])


points = st.tuples(st.floats(0, 24), st.floats(0, 12))


@given(points, points, st.floats(0, 1))
def test_cost_is_additive_and_at_least_the_length(
    p: tuple[float, float], q: tuple[float, float], t: float
) -> None:
    mid = (p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]))
    whole = path_cost(TABLE, None, [p, q])
    assert whole >= path_length([p, q]) - 1e-9
    assert whole <= 2 * path_length([p, q]) + 1e-9
    assert path_cost(TABLE, None, [p, mid, q]) == pytest.approx(whole, abs=1e-6)


@given(points, points, st.floats(0, 30))
def test_max_move_never_overspends(
    p: tuple[float, float], q: tuple[float, float], allowance: float
) -> None:
    move = max_move_along(TABLE, [p, q], allowance, "infantry")
    assert move.cost <= allowance + 1e-9
    assert move.distance <= path_length([p, q]) + 1e-9
    assert path_cost(TABLE, "infantry", [p, move.end]) == pytest.approx(move.cost, abs=1e-6)
