"""The scenario sections that describe a table, validated with pydantic.

A scenario TOML file describes the battlefield as::

    [table]
    width = 48
    height = 48
    units = "inches"            # or "paces" (Roads of the Apocalypse)
    inches_per_pace = 1.0       # default: 1 pace = 1 inch

    [[terrain]]
    id = "house"
    kind = "difficult"          # open | difficult | very_difficult | impassable
    kinds = { wheeled = "impassable" }   # per mover type (optional)
    cover = "hard"              # none | light | hard
    blocks_los = true
    points = [[10, 10], [16, 10], [16, 16], [10, 16]]

    [[terrain]]
    id = "fence"
    obstacle = true
    shape = "line"              # fences and walls may be lines
    cover = "light"
    points = [[20, 5], [20, 15]]

Lengths are in the table's units and stored in inches. Every error is one line
naming the field:

>>> table_from_dict({"table": {"width": 48, "height": 48},
...                  "terrain": [{"id": "x", "points": [[1, 1], [2, 2]]}]})
Traceback (most recent call last):
...
kubik.table.errors.TableError: terrain[0].points: a polygon needs at least 3 points, got 2
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator

from kubik.table.errors import TableError
from kubik.table.table import Table
from kubik.table.terrain import Cover, TerrainFeature, TerrainKind, line_problem, polygon_problem
from kubik.table.units import Unit, Units


class TableSection(BaseModel):
    """``[table]``: the size of the table and the unit its numbers are in."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    width: float = Field(gt=0, allow_inf_nan=False)
    height: float = Field(gt=0, allow_inf_nan=False)
    units: Unit = Unit.INCH
    inches_per_pace: float = Field(default=1.0, gt=0, allow_inf_nan=False)


class TerrainSection(BaseModel):
    """One ``[[terrain]]`` entry (fields as :class:`~kubik.table.terrain.TerrainFeature`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=1)
    name: str = ""
    name_ru: str = ""
    kind: TerrainKind = TerrainKind.OPEN
    kinds: dict[str, TerrainKind] = Field(default_factory=dict)
    cover: Cover = Cover.NONE
    blocks_los: bool = False
    obstacle: bool = False
    water: bool = False
    elevation: float = Field(default=0.0, allow_inf_nan=False)
    shape: Literal["polygon", "line"] = "polygon"
    points: list[tuple[float, float]]

    @field_validator("shape")
    @classmethod
    def _line_is_obstacle(cls, value: str, info: ValidationInfo) -> str:
        if value == "line" and not info.data.get("obstacle", False):
            raise ValueError("only obstacles may be lines (set obstacle = true)")
        return value

    @field_validator("points")
    @classmethod
    def _points_make_a_shape(
        cls, value: list[tuple[float, float]], info: ValidationInfo
    ) -> list[tuple[float, float]]:
        if "shape" not in info.data:
            return value  # the shape itself was invalid; that error is enough
        if any(v != v or v in (float("inf"), float("-inf")) for p in value for v in p):
            raise ValueError("every coordinate must be a finite number")
        check = line_problem if info.data.get("shape") == "line" else polygon_problem
        problem = check(value)
        if problem:
            raise ValueError(problem)
        return value


class TableScenario(BaseModel):
    """The table part of a scenario: ``[table]`` and ``[[terrain]]``."""

    model_config = ConfigDict(frozen=True)

    table: TableSection
    terrain: list[TerrainSection] = Field(default_factory=list)

    def build(self) -> Table:
        """The :class:`Table` these sections describe (lengths converted to inches)."""
        units = Units(self.table.units, self.table.inches_per_pace)
        k = units.inches_per_unit
        features = []
        for i, t in enumerate(self.terrain):
            try:
                features.append(
                    TerrainFeature.from_points(
                        t.id,
                        [(x * k, y * k) for x, y in t.points],
                        line=t.shape == "line",
                        name=t.name,
                        name_ru=t.name_ru,
                        kind=t.kind,
                        kinds=t.kinds,
                        cover=t.cover,
                        blocks_los=t.blocks_los,
                        obstacle=t.obstacle,
                        water=t.water,
                        elevation=t.elevation * k,
                    )
                )
            except TableError as e:
                raise e.under(f"terrain[{i}]") from None
        index = {t.id: i for i, t in reversed(list(enumerate(self.terrain)))}
        try:
            return Table(self.table.width * k, self.table.height * k, tuple(features), units)
        except TableError as e:
            if e.owner == "table":
                raise
            bad = next((f for f in features if f.label == e.owner), None)
            if bad is None:
                raise
            if e.problem.startswith("duplicate"):
                dupes = [i for i, t in enumerate(self.terrain) if t.id == bad.id]
                raise e.under(f"terrain[{dupes[1]}]") from None
            raise e.under(f"terrain[{index[bad.id]}]") from None


def _loc_text(loc: tuple[int | str, ...]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _message(err: Mapping[str, Any]) -> str:
    text = str(err["msg"])
    for prefix in ("Value error, ", "Assertion failed, "):
        if text.startswith(prefix):
            text = text[len(prefix) :]
    if err["type"] == "missing":
        text = "is required"
    elif err["type"] == "extra_forbidden":
        text = "is not a known field"
    elif not str(err["type"]).startswith("value_error") and isinstance(
        err.get("input"), int | float | str | bool
    ):
        text += f", got {err['input']!r}"
    return text


def table_from_dict(data: Mapping[str, Any]) -> Table:
    """Validate ``data["table"]`` and ``data["terrain"]`` and build the table.

    Other keys of ``data`` (forces, options …) are left alone, so the whole
    scenario mapping may be passed. Raises :class:`TableError` naming the field.
    """
    if not isinstance(data, Mapping):
        raise TableError("table", f"expected a mapping with a [table] section, got {data!r}")
    section = {"table": data.get("table"), "terrain": data.get("terrain", [])}
    if section["table"] is None:
        raise TableError("table", "is required (a [table] section with width and height)")
    try:
        scenario = TableScenario.model_validate(section)
    except ValidationError as e:
        errors = e.errors()
        first = errors[0]
        n = len(errors) - 1
        more = f" (and {n} more problem{'s' if n > 1 else ''})" if n else ""
        raise TableError(_loc_text(tuple(first["loc"])), _message(first) + more) from None
    return scenario.build()
