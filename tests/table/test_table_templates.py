"""Templates: who is fully and who is partly under a blast, a flame teardrop, a cone."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from shapely.geometry import Point as ShapelyPoint

from kubik.table import Base, Blast, Cone, TableError, Teardrop, heading_to, models_under


def test_blast_full_partial_touching_outside() -> None:
    blast = Blast((10, 10), radius=1.5)
    centre = Base(10, 10, 1)
    inner_touch = Base(11, 10, 1)  # base edge exactly on the template edge, inside
    partly = Base(11.2, 10, 1)
    outer_touch = Base(12, 10, 1)  # base edge touches the template from outside
    miss = Base(12.1, 10, 1)
    hits = models_under(blast, [centre, inner_touch, partly, outer_touch, miss])
    assert hits.full == (centre, inner_touch)
    assert hits.partial == (partly, outer_touch)
    assert hits.all == (centre, inner_touch, partly, outer_touch)


def test_blast_from_diameter() -> None:
    assert Blast.from_diameter((5, 5), 3).radius == 1.5
    assert Blast((5, 5), 2).contains((7, 5))
    assert not Blast((5, 5), 2).contains((7.01, 5))


def test_teardrop_by_hand() -> None:
    # narrow end a point at the origin; wide end a circle of radius 1.5 centred at (6.5, 0)
    flame = Teardrop((0, 0), heading=0, length=8, far_width=3)
    assert flame.signed_distance((8, 0)) == pytest.approx(0)  # tip of the wide end
    assert flame.signed_distance((6.5, 0)) == pytest.approx(-1.5)
    # near the narrow end the sides are the tangents from the origin: sin α = 1.5 / 6.5
    assert flame.signed_distance((1, 0)) == pytest.approx(-3 / 13)
    assert flame.signed_distance((-1, 0)) == pytest.approx(1)
    bases = {
        "middle": Base(6.5, 0, 1),
        "rim": Base(6.5, 1.5, 1),
        "touch": Base(6.5, 2.0, 1),
        "miss": Base(6.5, 2.1, 1),
        "nozzle": Base(1, 0, 1),
    }
    hits = models_under(flame, bases.values())
    assert hits.full == (bases["middle"],)
    assert hits.partial == (bases["rim"], bases["touch"], bases["nozzle"])


def test_teardrop_turns_with_its_heading() -> None:
    north = Teardrop((10, 0), heading=90, length=8, far_width=3, near_width=1)
    assert north.contains((10, 7.9))
    assert not north.contains((17.9, 0))
    assert north.signed_distance((10, -0.1)) == pytest.approx(0.1)  # behind the nozzle
    aimed = Teardrop((0, 0), heading_to((0, 0), (3, 3)), length=8, far_width=3)
    assert aimed.contains((5, 5))


def test_cone_by_hand() -> None:
    cone = Cone((0, 0), heading=0, length=6, far_width=4)  # triangle (0,0) (6,-2) (6,2)
    deep, at_end, grazed, miss = Base(5, 0, 1), Base(6.5, 0, 1), Base(3, 1.5, 1), Base(3, 2, 1)
    # (3, 1.5) is |3 - 4.5| / √10 = 0.474 from the side: less than the 0.5 radius
    assert cone.signed_distance((3, 1.5)) == pytest.approx(1.5 / math.sqrt(10))
    hits = models_under(cone, [deep, at_end, grazed, miss])
    assert hits.full == (deep,)
    assert hits.partial == (at_end, grazed)


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Blast((0, 0), -1), "blast.radius: must be a positive"),
        (lambda: Blast((0, math.inf), 1), "blast.centre: must be finite"),
        (lambda: Teardrop((0, 0), 0, length=3, far_width=3), "teardrop.far_width: must be less"),
        (lambda: Teardrop((0, 0), 0, length=8, far_width=2, near_width=3), "near_width"),
        (lambda: Cone((0, 0), math.nan, length=8, far_width=2), "cone.heading"),
        (lambda: Cone((0, 0), 0, length=0, far_width=2), "cone.length"),
        (lambda: heading_to((1, 1), (1, 1)), "target: must differ"),
    ],
)
def test_bad_templates(build: object, message: str) -> None:
    with pytest.raises(TableError, match=message):
        build()  # type: ignore[operator]


@given(
    st.floats(-2, 12),
    st.floats(-5, 5),
    st.floats(0, 2),
    st.floats(2.5, 4),
    st.floats(0, 360),
)
def test_teardrop_distance_matches_its_polygon(
    x: float, y: float, near: float, far: float, heading: float
) -> None:
    flame = Teardrop((5, 5), heading=heading, length=9, far_width=far, near_width=near)
    poly = flame.shape
    p = ShapelyPoint(x, y)
    expected = -poly.exterior.distance(p) if poly.covers(p) else poly.distance(p)
    # the polygon's arcs are chords of the true circles, at most ~0.003 inch inside
    assert flame.signed_distance((x, y)) == pytest.approx(expected, abs=0.005)
