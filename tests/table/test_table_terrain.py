"""Terrain features and the table: validation, lookups, elevation."""

from __future__ import annotations

import pytest
from shapely.geometry import Polygon

from kubik.table import (
    Base,
    Cover,
    MoverKinds,
    Placement,
    Table,
    TableError,
    TerrainFeature,
    TerrainKind,
    worst_kind,
)

SQUARE = [(10, 10), (16, 10), (16, 16), (10, 16)]


def test_feature_from_points() -> None:
    house = TerrainFeature.from_points(
        "house", SQUARE, kind=TerrainKind.DIFFICULT, cover=Cover.HARD, blocks_los=True
    )
    assert house.name == "house"
    assert house.shape.area == 36
    assert house.polygon is house.shape
    assert house.is_area
    assert house.kind_for("infantry") is TerrainKind.DIFFICULT
    assert house == TerrainFeature.from_points(
        "house", SQUARE, kind=TerrainKind.DIFFICULT, cover=Cover.HARD, blocks_los=True
    )


def test_kinds_per_mover_type() -> None:
    wood = TerrainFeature.from_points(
        "wood",
        SQUARE,
        kind=TerrainKind.DIFFICULT,
        kinds={"tracked": TerrainKind.VERY_DIFFICULT, "wheeled": TerrainKind.IMPASSABLE},
    )
    assert isinstance(wood.kinds, MoverKinds)
    assert wood.kind_for(None) is TerrainKind.DIFFICULT
    assert wood.kind_for("infantry") is TerrainKind.DIFFICULT
    assert wood.kind_for("tracked") is TerrainKind.VERY_DIFFICULT
    assert wood.kind_for("wheeled") is TerrainKind.IMPASSABLE
    assert hash(wood.kinds) == hash(MoverKinds(dict(wood.kinds)))
    hash(wood)  # frozen and hashable


def test_kind_and_cover_ordering() -> None:
    assert [k.cost for k in TerrainKind] == [1.0, 2.0, 3.0, float("inf")]
    assert worst_kind([TerrainKind.DIFFICULT, TerrainKind.OPEN]) is TerrainKind.DIFFICULT
    assert worst_kind([]) is TerrainKind.OPEN
    assert Cover.best([Cover.LIGHT, Cover.NONE]) is Cover.LIGHT
    assert Cover.best([]) is Cover.NONE


@pytest.mark.parametrize(
    ("points", "line", "fields", "message"),
    [
        ([(0, 0), (1, 1)], False, {}, "terrain 'x'.points: a polygon needs at least 3 points"),
        (
            [(0, 0), (2, 2), (2, 0), (0, 2)],
            False,
            {},
            "terrain 'x'.points: the polygon crosses itself",
        ),
        ([(0, 0), (1, 1), (2, 2)], False, {}, "terrain 'x'.points: the polygon has no area"),
        ([(0, 0), (5, 0)], True, {}, "terrain 'x'.points: only obstacles may be lines"),
        ([(0, 0)], True, {"obstacle": True}, "a line needs at least 2 points"),
        ([(0, 0), ("a", 1), (1, 1)], False, {}, r"terrain 'x'.points\[1\]: must be two numbers"),
        (SQUARE, False, {"elevation": float("inf")}, "terrain 'x'.elevation: must be finite"),
    ],
)
def test_bad_feature_names_the_field(
    points: list[tuple[float, float]], line: bool, fields: dict[str, object], message: str
) -> None:
    with pytest.raises(TableError, match=message):
        TerrainFeature.from_points("x", points, line=line, **fields)


def test_feature_rejects_invalid_shapely_polygon() -> None:
    with pytest.raises(TableError, match="crosses itself"):
        TerrainFeature("bow", Polygon([(0, 0), (2, 2), (2, 0), (0, 2)]))
    with pytest.raises(TableError, match="must be a shapely Polygon or LineString"):
        TerrainFeature("pt", "not a shape")
    with pytest.raises(TableError, match="id: must be a non-empty string"):
        TerrainFeature("", Polygon(SQUARE))


@pytest.mark.parametrize(
    ("width", "height", "message"),
    [
        (-48, 48, "table.width: must be a positive number of inches, got -48"),
        (48, 0, "table.height: must be a positive"),
        (float("nan"), 48, "table.width"),
    ],
)
def test_bad_table_size(width: float, height: float, message: str) -> None:
    with pytest.raises(TableError, match=message):
        Table(width, height)


def test_table_rejects_duplicate_ids_and_terrain_off_table() -> None:
    a = TerrainFeature.from_points("a", SQUARE)
    with pytest.raises(TableError, match=r"terrain 'a'\.id: duplicate terrain id 'a'"):
        Table(48, 48, (a, a))
    with pytest.raises(TableError, match=r"terrain 'a'.points: \(16, 10\) is off the 12 x 48"):
        Table(12, 48, (a,))


def test_base_off_the_table() -> None:
    table = Table(48, 48)
    assert table.check_base(Base(0.5, 0.5, 1)) is not None  # touching the edge is fine
    with pytest.raises(TableError, match=r"base 'sgt'.position: \(47.8, 10\) puts the 1-inch"):
        table.check_base(Base(47.8, 10, 1, id="sgt"))
    with pytest.raises(TableError, match=r"point: .* is off the 48 x 48 table"):
        table.check_point((-1, 3))


def test_features_at_and_elevation() -> None:
    hill = TerrainFeature.from_points("hill", [(0, 0), (20, 0), (20, 20), (0, 20)], elevation=2)
    tower = TerrainFeature.from_points("tower", [(5, 5), (8, 5), (8, 8), (5, 8)], elevation=6)
    trench = TerrainFeature.from_points(
        "trench", [(30, 0), (32, 0), (32, 20), (30, 20)], elevation=-1, water=True
    )
    table = Table(48, 48, (hill, tower, trench))
    assert [f.id for f in table.features_at((6, 6))] == ["hill", "tower"]
    assert table.elevation_at((6, 6)) == 6  # the highest feature
    assert table.elevation_at((15, 15)) == 2
    assert table.elevation_at((20, 10)) == 2  # edge counts as on the hill
    assert table.elevation_at((40, 40)) == 0
    assert table.elevation_at((31, 10)) == -1  # in the trench
    assert table.height_difference(Base(6, 6, 1), Base(40, 40, 1)) == 6
    assert table.height_difference(Base(31, 10, 1), Base(15, 15, 1)) == -3
    assert table.in_water(Base(31, 10, 1))
    assert not table.in_water(Base(15, 15, 1))
    assert table.feature("tower") is tower
    with pytest.raises(TableError, match="no terrain feature 'moat'"):
        table.feature("moat")


def test_stands_in_and_features_under() -> None:
    wood = TerrainFeature.from_points("wood", [(10, 10), (20, 10), (20, 20), (10, 20)])
    table = Table(48, 48, (wood,))
    assert table.stands_in(Base(10.4, 15, 1), wood)  # centre inside, base sticks out
    assert not table.stands_in(Base(9.6, 15, 1), wood)  # centre outside, base pokes in
    assert table.features_under(Base(9.6, 15, 1)) == ((wood, Placement.PARTLY),)
    assert table.features_under(Base(15, 15, 1)) == ((wood, Placement.INSIDE),)
    assert table.features_under(Base(5, 5, 1)) == ()
    assert table.standing_in(Base(15, 15, 1)) == (wood,)
