"""Steel War movement: march order, terrain classes per mover and the combat move
(SW-MOVE-01..03, SW-ABSENT-02)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from kubik.core.errors import InputError
from kubik.engine import OddsDriver, TableSession
from kubik.rulesets.steel_war.movement import (
    Terrain,
    TerrainClass,
    base_speed,
    combat_move,
    farthest_along,
    march_allowed,
    march_distance,
    most_restrictive,
    move_distance,
    terrain_class,
    terrain_distance,
)
from kubik.rulesets.steel_war.movers import MoverType

E, D, V, X = (
    TerrainClass.EASY,
    TerrainClass.DIFFICULT,
    TerrainClass.VERY_DIFFICULT,
    TerrainClass.IMPASSABLE,
)


def test_SW_MOVE_02_worked_example_infantry_tank_and_apc_in_a_forest() -> None:
    """Infantry 3 (or 2d6 halved), tank 4 (12 / 3), the APC cannot enter."""
    wood = Terrain.LIGHT_WOOD  # «не очень густой лес»
    infantry = terrain_class(MoverType.INFANTRY, wood)
    tank = terrain_class(MoverType.TRACKED, wood)
    apc = terrain_class(MoverType.HIGH_MOBILITY_WHEELED, wood)
    assert move_distance(base_speed(MoverType.INFANTRY), [infantry]) == 3
    assert move_distance(base_speed(MoverType.TRACKED), [tank]) == 4
    assert apc is X and move_distance(12, [apc]) == 0
    session = TableSession(combat_move, (infantry,))
    session.supply([3, 4])  # 2d6 = 7, halved and rounded down
    assert session.result is not None
    assert session.result.outcome == 3


def test_SW_MOVE_02_halving_and_thirding_round_down() -> None:
    assert [terrain_distance(n, D) for n in (5, 6, 7)] == [2, 3, 3]
    assert [terrain_distance(n, V) for n in (11, 12, 13)] == [3, 4, 4]
    assert terrain_distance(9, E) == 9
    assert terrain_distance(9, X) == 0
    with pytest.raises(InputError, match="distance"):
        terrain_distance(-1, E)


def test_SW_MOVE_02_a_move_uses_the_most_restrictive_class_crossed() -> None:
    assert most_restrictive([E, D, E]) is D
    assert most_restrictive([]) is E
    assert move_distance(12, [E, V]) == 4


@pytest.mark.parametrize("cls", [E, D, V])
def test_SW_ABSENT_02_combat_move_odds_match_brute_force(cls: TerrainClass) -> None:
    divisor = {E: 1, D: 2, V: 3}[cls]
    counts = Counter((a + b) // divisor for a, b in product(range(1, 7), repeat=2))
    exact = OddsDriver().distribution(combat_move, (cls,))
    assert dict(exact) == {d: Fraction(n, 36) for d, n in counts.items()}


def test_SW_MOVE_01_march_doubles_speed_only_through_easy_terrain() -> None:
    assert march_distance(6) == 12
    assert march_distance(12, [E, E]) == 24
    assert march_allowed([E]) and not march_allowed([E, D])
    with pytest.raises(InputError, match="easy"):
        march_distance(6, [D])


# Seed rows, verbatim classes (SW-MOVE-03).
SEED_ROWS: dict[MoverType, dict[TerrainClass, tuple[Terrain, ...]]] = {
    MoverType.INFANTRY: {
        E: (Terrain.OPEN, Terrain.BUSHES, Terrain.HILLS, Terrain.ROAD),
        D: (
            Terrain.LIGHT_WOOD,
            Terrain.THICKET,
            Terrain.DENSE_BUSHES,
            Terrain.PLOUGHLAND,
            Terrain.MARSH,
            Terrain.STONY_WASTE,
        ),
        V: (Terrain.FORD,),
        X: (Terrain.WATER, Terrain.SHEER_SLOPE),
    },
    MoverType.ARMOURED_SUIT: {
        E: (
            Terrain.OPEN,
            Terrain.BUSHES,
            Terrain.HILLS,
            Terrain.ROAD,
            Terrain.DENSE_BUSHES,
            Terrain.PLOUGHLAND,
            Terrain.STONY_WASTE,
        ),
        D: (Terrain.LIGHT_WOOD, Terrain.THICKET, Terrain.MARSH),
        V: (Terrain.FORD,),
        X: (Terrain.WATER, Terrain.SHEER_SLOPE),
    },
    MoverType.WHEELED: {
        E: (Terrain.ROAD,),
        D: (Terrain.OPEN, Terrain.HILLS),
        V: (Terrain.BUSHES, Terrain.PLOUGHLAND, Terrain.FORD),
        X: (
            Terrain.LIGHT_WOOD,
            Terrain.THICKET,
            Terrain.MARSH,
            Terrain.STONY_WASTE,
            Terrain.DENSE_BUSHES,
            Terrain.WATER,
            Terrain.SHEER_SLOPE,
        ),
    },
    MoverType.HIGH_MOBILITY_WHEELED: {
        E: (Terrain.OPEN, Terrain.ROAD),
        D: (Terrain.BUSHES, Terrain.DENSE_BUSHES, Terrain.HILLS, Terrain.PLOUGHLAND),
        V: (Terrain.MARSH, Terrain.STONY_WASTE, Terrain.FORD),
        X: (Terrain.LIGHT_WOOD, Terrain.THICKET, Terrain.SHEER_SLOPE, Terrain.WATER),
    },
    MoverType.TRACKED: {
        E: (Terrain.OPEN, Terrain.ROAD, Terrain.BUSHES, Terrain.DENSE_BUSHES),
        D: (Terrain.HILLS, Terrain.PLOUGHLAND, Terrain.STONY_WASTE),
        V: (Terrain.LIGHT_WOOD, Terrain.FORD),
        X: (Terrain.MARSH, Terrain.THICKET, Terrain.SHEER_SLOPE, Terrain.WATER),
    },
}


@pytest.mark.parametrize("mover", list(SEED_ROWS))
def test_SW_MOVE_03_terrain_table_rows(mover: MoverType) -> None:
    for cls, terrains in SEED_ROWS[mover].items():
        for terrain in terrains:
            assert terrain_class(mover, terrain) is cls, (mover, terrain)


def test_SW_MOVE_03_cavalry_moves_as_armoured_suits_robots_too() -> None:
    for terrain in Terrain:
        suit = terrain_class(MoverType.ARMOURED_SUIT, terrain)
        assert terrain_class(MoverType.CAVALRY, terrain) is suit
        assert terrain_class(MoverType.ROBOT, terrain) is suit


def test_SW_MOVE_03_amphibians_cross_water_as_difficult() -> None:
    for mover in (MoverType.HIGH_MOBILITY_WHEELED, MoverType.TRACKED):
        assert terrain_class(mover, Terrain.WATER) is X
        assert terrain_class(mover, Terrain.WATER, amphibious=True) is D
    assert terrain_class(MoverType.INFANTRY, Terrain.WATER, amphibious=True) is X


def test_SW_MOVE_03_railway_only_on_intact_rails() -> None:
    for terrain in Terrain:
        expected = E if terrain is Terrain.RAILS else X
        assert terrain_class(MoverType.RAIL, terrain) is expected


def test_SW_MOVE_03_every_mover_classifies_every_terrain() -> None:
    for mover in MoverType:
        for terrain in Terrain:
            assert isinstance(terrain_class(mover, terrain), TerrainClass)


def test_SW_ABSENT_02_default_speeds() -> None:
    assert base_speed(MoverType.INFANTRY) == 6
    assert base_speed(MoverType.TRACKED) == 12
    with pytest.raises(InputError, match="mover"):
        base_speed(MoverType.WHEELED)


def test_SW_MOVE_02_SW_MOVE_01_a_move_stops_short_of_harder_ground_or_goes_in_at_its_pace() -> None:
    """2" of open ground then a wood: the squad may stop at the wood's edge (2") or go in
    at the wood's pace (6 ÷ 2 = 3" in all) — the farther; 4.5" of open ground first: it
    stops at the edge. A march never enters the wood (SW-MOVE-01)."""
    easy, wood = TerrainClass.EASY, TerrainClass.DIFFICULT
    assert farthest_along([(easy, 2.0), (wood, 5.0)], "move", 6) == (wood, 3.0)
    assert farthest_along([(easy, 4.5), (wood, 5.0)], "move", 6) == (easy, 4.5)
    assert farthest_along([(easy, 4.5), (wood, 5.0)], "march", 6) == (easy, 4.5)
    assert farthest_along([(easy, 20.0)], "march", 6) == (easy, 12.0)
    assert farthest_along([(TerrainClass.IMPASSABLE, 3.0)], "move", 6) == (easy, 0.0)
