"""Bases, distances, base contact and placement against hand-computed numbers."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from shapely.geometry import LineString, box

from kubik.core.errors import KubikError
from kubik.table import (
    Base,
    Placement,
    TableError,
    centre_distance,
    distance_to,
    edge_distance,
    in_base_contact,
    inches_to_mm,
    mm_to_inches,
    placement,
    within,
)
from kubik.table.units import PACES, Unit, Units


def test_base_from_mm_stores_inches() -> None:
    base = Base.from_mm(1, 2, 25.4, id="sgt")
    assert base.diameter == pytest.approx(1.0)
    assert base.radius == pytest.approx(0.5)
    assert Base.from_mm(0, 0, 40).diameter == pytest.approx(40 / 25.4)
    assert inches_to_mm(mm_to_inches(32)) == pytest.approx(32)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"x": 0, "y": 0, "diameter": -1, "id": "sgt"}, "base 'sgt'.diameter: must be a positive"),
        ({"x": 0, "y": 0, "diameter": 0}, "base.diameter: must be a positive"),
        ({"x": math.nan, "y": 0, "diameter": 1}, "base.position: must be finite"),
    ],
)
def test_bad_base_names_the_field(kwargs: dict[str, float], message: str) -> None:
    with pytest.raises(TableError, match=message) as err:
        Base(**kwargs)  # type: ignore[arg-type]
    assert isinstance(err.value, KubikError)
    assert isinstance(err.value, ValueError)


def test_from_mm_rejects_bad_diameter() -> None:
    with pytest.raises(TableError, match="diameter_mm"):
        Base.from_mm(0, 0, -25)


def test_distances_3_4_5() -> None:
    a, b = Base(0, 0, 1.0), Base(3, 4, 2.0)
    assert centre_distance(a, b) == 5.0
    assert edge_distance(a, b) == 3.5  # 5 - 0.5 - 1
    assert within(a, b, 3.5)
    assert not within(a, b, 3.49)


def test_overlapping_bases_are_zero_apart() -> None:
    assert edge_distance(Base(0, 0, 2), Base(1, 0, 2)) == 0.0


def test_base_contact_with_tolerance() -> None:
    a = Base(0, 0, 1)
    assert in_base_contact(a, Base(1, 0, 1))  # exactly touching
    assert in_base_contact(a, Base(1.04, 0, 1))  # 0.04 gap < default 0.05
    assert not in_base_contact(a, Base(1.06, 0, 1))
    assert in_base_contact(a, Base(1.06, 0, 1), tolerance=0.1)
    assert not in_base_contact(a, Base(1.01, 0, 1), tolerance=0)
    with pytest.raises(TableError, match="tolerance"):
        in_base_contact(a, a, tolerance=-1)


def test_within_rejects_negative() -> None:
    with pytest.raises(TableError, match="inches"):
        within(Base(0, 0, 1), Base(1, 1, 1), -2)


def test_distance_to_polygon_and_line() -> None:
    house = box(10, 10, 16, 16)
    assert distance_to(Base(5, 13, 1), house) == pytest.approx(4.5)
    assert distance_to(Base(13, 13, 1), house) == 0.0  # inside
    # diagonal to the corner (10, 10) from (7, 6): distance 5, minus radius 1
    assert distance_to(Base(7, 6, 2), house) == pytest.approx(4.0)
    fence = LineString([(0, 0), (0, 10)])
    assert distance_to(Base(3, 5, 1), fence) == pytest.approx(2.5)


@pytest.mark.parametrize(
    ("x", "expected"),
    [
        (5.0, Placement.INSIDE),
        (1.0, Placement.INSIDE),  # edge of base exactly on the edge of the wood
        (0.9, Placement.PARTLY),
        (0.0, Placement.PARTLY),  # centre on the edge
        (-0.9, Placement.PARTLY),
        (-1.0, Placement.OUTSIDE),  # touching from outside
        (-3.0, Placement.OUTSIDE),
    ],
)
def test_placement_in_a_wood(x: float, expected: Placement) -> None:
    assert placement(Base(x, 5, 2), box(0, 0, 10, 10)) is expected


def test_placement_touching_counts_when_asked() -> None:
    assert placement(Base(-1, 5, 2), box(0, 0, 10, 10), touching=True) is Placement.PARTLY
    fence = LineString([(0, 0), (0, 10)])
    assert placement(Base(0.5, 5, 2), fence) is Placement.PARTLY
    assert placement(Base(1, 5, 2), fence) is Placement.OUTSIDE


def test_units_paces() -> None:
    assert PACES.to_inches(6) == 6.0  # default 1 pace = 1 inch
    big = Units(Unit.PACE, inches_per_pace=1.5)
    assert big.to_inches(4) == 6.0
    assert big.from_inches(6) == 4.0
    with pytest.raises(TableError, match="inches_per_pace"):
        Units(Unit.PACE, inches_per_pace=0)


coords = st.floats(min_value=0, max_value=48, allow_nan=False)
sizes = st.floats(min_value=0.1, max_value=3, allow_nan=False)
bases = st.builds(Base, coords, coords, sizes)


@given(bases, bases)
def test_distances_are_symmetric(a: Base, b: Base) -> None:
    assert centre_distance(a, b) == centre_distance(b, a)
    assert edge_distance(a, b) == edge_distance(b, a)
    assert in_base_contact(a, b) == in_base_contact(b, a)
    assert 0 <= edge_distance(a, b) <= centre_distance(a, b)


@given(bases, bases, bases)
def test_triangle_inequality(a: Base, b: Base, c: Base) -> None:
    assert centre_distance(a, c) <= centre_distance(a, b) + centre_distance(b, c) + 1e-9
    # going via c's base can only be longer than the direct edge-to-edge gap
    assert edge_distance(a, b) <= edge_distance(a, c) + c.diameter + edge_distance(c, b) + 1e-9


@given(bases, bases, st.floats(min_value=0, max_value=60))
def test_within_matches_edge_distance(a: Base, b: Base, n: float) -> None:
    assert within(a, b, n) == (edge_distance(a, b) <= n + 1e-9)
