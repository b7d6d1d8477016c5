"""Line of sight: blocked, clear, grazing, walls, own-feature policy, models, any-edge."""

from __future__ import annotations

import math

import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString

from kubik.table import (
    Base,
    LosMode,
    LosRules,
    OwnFeatures,
    Table,
    TableError,
    TerrainFeature,
    line_of_sight,
    sight,
)

HOUSE = TerrainFeature.from_points(
    "house", [(10, 10), (14, 10), (14, 14), (10, 14)], blocks_los=True
)
WALL = TerrainFeature.from_points(
    "wall", [(12, 0), (12, 6)], line=True, obstacle=True, blocks_los=True
)
BUSH = TerrainFeature.from_points("bush", [(2, 20), (4, 20), (4, 22), (2, 22)])  # no LOS effect
TABLE = Table(24, 24, (HOUSE, WALL, BUSH))
EDGE = LosRules(LosMode.ANY_EDGE)


def los(a: Base, b: Base, **kw: object) -> bool:
    result = line_of_sight(TABLE, a, b, **kw)  # type: ignore[arg-type]
    assert result == line_of_sight(TABLE, b, a, **kw)  # type: ignore[arg-type]  # symmetric
    return result


def test_blocked_through_a_house() -> None:
    s = sight(TABLE, Base(5, 12, 1), Base(19, 12, 1))
    assert not s.clear
    assert s.blockers == ("house",)
    assert s.line is None


def test_clear_past_a_house() -> None:
    s = sight(TABLE, Base(5, 15, 1), Base(19, 15, 1))
    assert s.clear and bool(s)
    assert s.line == ((5.0, 15.0), (19.0, 15.0))


def test_grazing_a_corner_is_clear() -> None:
    # the line y = x - 4 touches the house only at its corner (14, 10)
    assert los(Base(12, 8, 1), Base(16, 12, 1))
    # a hair further in, it is blocked
    assert not los(Base(12, 8.01, 1), Base(16, 12, 1))


def test_running_along_an_edge_is_clear() -> None:
    assert los(Base(5, 14, 1), Base(19, 14, 1))
    assert not los(Base(5, 13.99, 1), Base(19, 13.99, 1))


def test_wall_blocks_but_its_end_does_not() -> None:
    assert not los(Base(6, 3, 1), Base(18, 3, 1))
    assert los(Base(6, 6, 1), Base(18, 6, 1))  # passes exactly by the end of the wall
    assert los(Base(6, 7, 1), Base(18, 7, 1))


def test_features_without_blocks_los_do_not_block() -> None:
    assert los(Base(1, 21, 1), Base(8, 21, 1))


def test_ignore_lists_features_to_see_over() -> None:
    assert los(Base(5, 12, 1), Base(19, 12, 1), ignore={"house"})


def test_seeing_out_of_the_feature_you_stand_in() -> None:
    inside, outside, beyond = Base(12, 12, 1), Base(20, 12, 1), Base(3, 12, 1)
    assert los(inside, outside)  # default: see in and out
    assert not los(inside, outside, rules=LosRules(own_features=OwnFeatures.BLOCK))
    # a model outside on the other side still cannot see through the whole house
    assert not los(beyond, outside)


def test_models_block_only_when_the_rules_say_so() -> None:
    a, b = Base(2, 18, 1), Base(10, 18, 1)
    blocker = Base(6, 18, 1, id="grunt")
    assert los(a, b, models=[blocker])
    rules = LosRules(models_block=True)
    s = sight(TABLE, a, b, rules=rules, models=[a, b, blocker])
    assert not s.clear and s.blockers == ("grunt",)
    # a base touching the line does not block; the shooter and target never block
    assert los(a, b, rules=rules, models=[a, b, Base(6, 18.5, 1)])
    assert not los(a, b, rules=rules, models=[Base(6, 18.49, 1)])


def test_any_edge_sees_what_centre_to_centre_does_not() -> None:
    # centres at y = 13.9 cross the house's top strip; the tops of the bases (y 14.4) clear it
    a, b = Base(5, 13.9, 1), Base(19, 13.9, 1)
    assert not los(a, b)
    s = sight(TABLE, a, b, rules=EDGE)
    assert s.clear and s.blockers == ("house",)
    assert s.line is not None
    (p, q) = s.line
    assert math.dist(p, a.centre) <= a.radius + 1e-9
    assert math.dist(q, b.centre) <= b.radius + 1e-9
    assert not HOUSE.core.intersects(LineString(s.line))


def test_any_edge_fully_hidden() -> None:
    assert not los(Base(5, 12, 1), Base(19, 12, 1), rules=EDGE)
    assert not los(Base(5, 12, 1), Base(15, 12, 1), rules=EDGE)  # right behind the house


def test_any_edge_around_a_model() -> None:
    rules = LosRules(LosMode.ANY_EDGE, models_block=True)
    a, b = Base(2, 18, 1), Base(10, 18, 1)
    assert los(a, b, rules=rules, models=[Base(6, 18, 1)])  # tangent line over it
    assert not los(a, b, rules=rules, models=[Base(6, 18, 2)])  # a bigger base hides b


def test_any_edge_through_a_gap() -> None:
    left = TerrainFeature.from_points(
        "l", [(10, 0), (12, 0), (12, 9.9), (10, 9.9)], blocks_los=True
    )
    right = TerrainFeature.from_points(
        "r", [(10, 10.1), (12, 10.1), (12, 20), (10, 20)], blocks_los=True
    )
    table = Table(24, 24, (left, right))
    # the centre line rises too steeply for the 0.2-inch gap (y = 10.27 at x = 10);
    # a flatter line from the bottom of a to the bottom of b threads it
    a, b = Base(2, 10, 1), Base(20, 10.6, 1)
    assert not line_of_sight(table, a, b)
    assert line_of_sight(table, a, b, rules=EDGE)


def test_touching_bases_always_see_each_other() -> None:
    assert los(Base(13.5, 9.5, 1), Base(14.5, 9.5, 1), rules=EDGE)


def test_bases_off_the_table_are_rejected() -> None:
    with pytest.raises(TableError, match=r"base 'x'\.position"):
        line_of_sight(TABLE, Base(30, 3, 1, id="x"), Base(3, 3, 1))


# --- the exact any-edge search never misses a clear line that sampling finds ---------

rects = st.tuples(st.floats(0, 16), st.floats(0, 16), st.floats(0.2, 4), st.floats(0.2, 4)).map(
    lambda r: (r[0], r[1], r[0] + r[2], r[1] + r[3])
)


def _sampled_clear(table: Table, a: Base, b: Base) -> bool:
    cores = shapely.union_all([f.core for f in table.features])
    pts_a = _disc_samples(a)
    pts_b = _disc_samples(b)
    segs = shapely.linestrings([[p, q] for p in pts_a for q in pts_b])
    return bool((~shapely.intersects(segs, cores)).any())


def _disc_samples(base: Base) -> list[tuple[float, float]]:
    pts = [base.centre]
    for frac in (0.5, 1.0):
        for k in range(24):
            t = 2 * math.pi * k / 24
            pts.append(
                (
                    base.x + frac * base.radius * math.cos(t),
                    base.y + frac * base.radius * math.sin(t),
                )
            )
    return pts


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(rects, min_size=1, max_size=4),
    st.tuples(st.floats(1, 19), st.floats(1, 19)),
    st.tuples(st.floats(1, 19), st.floats(1, 19)),
)
def test_any_edge_agrees_with_sampling(
    boxes: list[tuple[float, float, float, float]],
    pa: tuple[float, float],
    pb: tuple[float, float],
) -> None:
    feats = tuple(
        TerrainFeature(f"f{i}", shapely.box(*r), blocks_los=True) for i, r in enumerate(boxes)
    )
    table = Table(20, 20, feats)
    a, b = Base(*pa, 1.5), Base(*pb, 1.0)
    rules = LosRules(LosMode.ANY_EDGE, own_features=OwnFeatures.BLOCK)
    s = sight(table, a, b, rules=rules)
    if _sampled_clear(table, a, b):
        assert s.clear
    if s.clear and s.line is not None:
        p, q = s.line
        assert math.dist(p, a.centre) <= a.radius + 1e-6
        assert math.dist(q, b.centre) <= b.radius + 1e-6
        if p != q:
            assert not any(f.core.intersects(LineString(s.line)) for f in feats)
