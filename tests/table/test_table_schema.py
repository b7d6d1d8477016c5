"""Loading ``[table]`` and ``[[terrain]]`` scenario sections, with errors naming the field."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from kubik.table import Cover, TableError, TableScenario, TerrainKind, Unit, table_from_dict

SCENARIO = """
ruleset = "steel_war"

[table]
width = 48
height = 48

[[terrain]]
id = "house"
kind = "difficult"
cover = "hard"
blocks_los = true
points = [[10, 10], [16, 10], [16, 16], [10, 16]]

[[terrain]]
id = "wood"
name = "Birch wood"
kind = "difficult"
kinds = { tracked = "very_difficult", wheeled = "impassable" }
cover = "light"
points = [[20, 20], [30, 20], [30, 30]]

[[terrain]]
id = "fence"
obstacle = true
shape = "line"
cover = "light"
points = [[5, 30], [15, 30]]

[[terrain]]
id = "hill"
elevation = 2.5
points = [[30, 0], [40, 0], [40, 10], [30, 10]]
"""


def test_loads_a_toml_scenario() -> None:
    table = table_from_dict(tomllib.loads(SCENARIO))
    assert (table.width, table.height) == (48, 48)
    assert [f.id for f in table.features] == ["house", "wood", "fence", "hill"]
    house, wood, fence, hill = table.features
    assert house.kind is TerrainKind.DIFFICULT and house.cover is Cover.HARD and house.blocks_los
    assert wood.name == "Birch wood"
    assert wood.kind_for("wheeled") is TerrainKind.IMPASSABLE
    assert fence.shape.geom_type == "LineString" and fence.obstacle
    assert hill.elevation == 2.5
    assert table.elevation_at((35, 5)) == 2.5


def test_paces_are_converted_to_inches() -> None:
    data = {
        "table": {"width": 24, "height": 20, "units": "paces", "inches_per_pace": 2},
        "terrain": [{"id": "a", "elevation": 1, "points": [[1, 1], [2, 1], [2, 2]]}],
    }
    table = table_from_dict(data)
    assert (table.width, table.height) == (48, 40)
    assert table.units.unit is Unit.PACE
    assert table.units.from_inches(10) == 5
    assert table.features[0].shape.bounds == (2, 2, 4, 4)
    assert table.features[0].elevation == 2


def _terrain(*entries: dict[str, Any]) -> dict[str, Any]:
    return {"table": {"width": 48, "height": 48}, "terrain": list(entries)}


OK = {"id": "ok", "points": [[0, 0], [1, 0], [1, 1]]}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "table: is required"),
        ({"table": {"width": -48, "height": 48}}, "table.width: Input should be greater than 0"),
        ({"table": {"height": 48}}, "table.width: is required"),
        ({"table": {"width": 48, "height": 48, "colour": "green"}}, "table.colour: is not a known"),
        ({"table": {"width": 48, "height": 48, "units": "cubits"}}, "table.units: Input should be"),
        (
            _terrain(OK, OK | {"id": "b"}, {"id": "c", "points": [[0, 0], [1, 1]]}),
            r"^terrain\[2\].points: a polygon needs at least 3 points, got 2$",
        ),
        (
            _terrain(OK, {"id": "bow", "points": [[0, 0], [2, 2], [2, 0], [0, 2]]}),
            r"terrain\[1\].points: the polygon crosses itself",
        ),
        (_terrain(OK | {"kind": "swamp"}), r"terrain\[0\].kind: Input should be 'open'"),
        (_terrain(OK | {"cover": "heavy"}), r"terrain\[0\].cover: Input should be 'none'"),
        (
            _terrain(OK | {"kinds": {"tracked": "slow"}}),
            r"terrain\[0\].kinds.tracked: Input should be",
        ),
        (_terrain(OK, OK), r"terrain\[1\].id: duplicate terrain id 'ok'"),
        (
            _terrain(OK, {"id": "far", "points": [[40, 40], [50, 40], [40, 45]]}),
            r"terrain\[1\].points: \(50, 40\) is off the 48 x 48 table",
        ),
        (
            _terrain({"id": "f", "shape": "line", "points": [[0, 0], [5, 0]]}),
            r"^terrain\[0\].shape: only obstacles may be lines \(set obstacle = true\)$",
        ),
        (_terrain({"points": [[0, 0], [1, 0], [1, 1]]}), r"terrain\[0\].id: is required"),
        (_terrain(OK | {"points": [[0, 0, 1], [1, 0], [1, 1]]}), r"terrain\[0\].points\[0\]"),
        (_terrain(OK | {"elevation": "high"}), r"terrain\[0\].elevation: .*got 'high'"),
        (_terrain(OK | {"roof": True}), r"terrain\[0\].roof: is not a known field"),
    ],
)
def test_errors_name_the_field(data: dict[str, Any], message: str) -> None:
    with pytest.raises(TableError, match=message):
        table_from_dict(data)


def test_line_obstacle_needs_two_points() -> None:
    data = _terrain({"id": "f", "obstacle": True, "shape": "line", "points": [[0, 0]]})
    with pytest.raises(TableError, match=r"terrain\[0\].points: a line needs at least 2 points"):
        table_from_dict(data)


def test_json_schema_is_available() -> None:
    schema = TableScenario.model_json_schema()
    assert "table" in schema["properties"]
