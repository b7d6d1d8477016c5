"""Cover: standing in a cover feature, or behind cover within 1 inch of the target."""

from __future__ import annotations

import pytest

from kubik.table import (
    Base,
    Cover,
    CoverHow,
    CoverSource,
    Table,
    TableError,
    TerrainFeature,
    cover_between,
    cover_sources,
)

HEDGE = TerrainFeature.from_points(
    "hedge", [(10, 0), (10, 12)], line=True, obstacle=True, cover=Cover.LIGHT
)
WOOD = TerrainFeature.from_points("wood", [(20, 0), (26, 0), (26, 6), (20, 6)], cover=Cover.LIGHT)
WALL = TerrainFeature.from_points(
    "wall", [(19.5, 0), (19.5, 6)], line=True, obstacle=True, cover=Cover.HARD
)
FIELD = TerrainFeature.from_points("field", [(30, 0), (36, 0), (36, 6), (30, 6)])  # no cover
TABLE = Table(40, 12, (HEDGE, WOOD, WALL, FIELD))


def test_open_ground_gives_no_cover() -> None:
    assert cover_between(TABLE, Base(2, 9, 1), Base(8, 9, 1)) is Cover.NONE


def test_target_just_behind_a_hedge() -> None:
    # base edge at 10.5: the hedge is 0.5 inch in front of it
    assert cover_between(TABLE, Base(2, 9, 1), Base(11, 9, 1)) is Cover.LIGHT
    # base edge at 11.0: exactly 1 inch behind still counts
    assert cover_between(TABLE, Base(2, 9, 1), Base(11.5, 9, 1)) is Cover.LIGHT


def test_target_too_far_behind_the_hedge() -> None:
    # base edge at 11.5: the hedge is 1.5 inches in front of it
    assert cover_between(TABLE, Base(2, 9, 1), Base(12, 9, 1)) is Cover.NONE
    assert cover_between(TABLE, Base(2, 9, 1), Base(12, 9, 1), near=2) is Cover.LIGHT


def test_cover_in_front_of_the_shooter_does_not_protect_the_target() -> None:
    assert cover_between(TABLE, Base(9.5, 9, 1), Base(18, 9, 1)) is Cover.NONE


def test_shooting_past_the_end_of_a_fence() -> None:
    fence = TerrainFeature.from_points(
        "fence", [(10, 0), (10, 6)], line=True, obstacle=True, cover=Cover.LIGHT
    )
    table = Table(20, 12, (fence,))
    target = Base(11, 5, 1)
    # from (5, 11) the line of fire passes exactly by the fence's end (10, 6): no cover
    assert cover_between(table, Base(5, 11, 1), target) is Cover.NONE
    # a little lower, it crosses the fence 1.41 inches from the target's centre
    assert cover_between(table, Base(5, 10.9, 1), target) is Cover.LIGHT


def test_target_in_a_wood_has_its_cover_from_every_side() -> None:
    target = Base(23, 3, 1)
    assert cover_between(TABLE, Base(38, 3, 1), target) is Cover.LIGHT
    assert cover_between(TABLE, Base(23, 10, 1), target) is Cover.LIGHT
    assert cover_sources(TABLE, Base(23, 10, 1), target) == (
        CoverSource("wood", Cover.LIGHT, CoverHow.IN),
    )


def test_best_cover_counts() -> None:
    # in the wood, right behind the hard wall: hard cover beats light
    target = Base(20.5, 3, 1)
    assert cover_between(TABLE, Base(2, 3, 1), target) is Cover.HARD
    assert {s.feature_id: s.how for s in cover_sources(TABLE, Base(2, 3, 1), target)} == {
        "wood": CoverHow.IN,
        "wall": CoverHow.BEHIND,
    }


def test_both_in_the_same_wood() -> None:
    assert cover_between(TABLE, Base(21, 1, 1), Base(25, 5, 1)) is Cover.LIGHT


def test_shooting_out_of_a_wood_gives_the_target_no_cover() -> None:
    # the line of fire leaves the wood 0.5 inch before the target's base
    assert cover_between(TABLE, Base(22, 3, 1), Base(27, 3, 1)) is Cover.NONE


def test_cover_rejects_bad_input() -> None:
    with pytest.raises(TableError, match="near"):
        cover_between(TABLE, Base(2, 3, 1), Base(5, 3, 1), near=-1)
    with pytest.raises(TableError, match="position"):
        cover_between(TABLE, Base(2, 3, 1), Base(45, 3, 1))
