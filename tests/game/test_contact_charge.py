"""A charge never passes through its target's models.

:func:`settle` lets a charge touch its target's bases (``may_touch``) but never overlap
them, at every spot of its way, not only where the way ends: a regiment swinging round,
a way bending past the target, or a charger starting beside one of the target's models
and heading for another stops at the last clear spot before it would first overlap one.
Here the answer meets a plain walk of the way (each 0.1" spot from the tape's ``along``,
checked with :func:`touching` and :func:`overlapping` against every base), on hand-made
charges and on random ones.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kubik.game.battle import overlapping, settle, touching
from kubik.game.battle.contact import STEP
from kubik.table import Base, Point
from kubik.table.tape import along


def _clear(
    bases: Sequence[Base], others: Sequence[Base], gap: float, target: Sequence[Base]
) -> bool:
    return not any(touching(a, b, gap) for a in bases for b in others) and not any(
        overlapping(a, b) for a in bases for b in target
    )


def _spots(path: Sequence[Point]) -> list[Point]:
    """Every 0.1" spot of the way, rounded to the table's 0.1" grid, then its end."""
    length = sum(math.dist(p, q) for p, q in itertools.pairwise(path))
    points = [along(list(path), i * STEP)[-1] for i in range(int(length / STEP + 1e-9) + 1)]
    return [(round(x, 1), round(y, 1)) for x, y in [*points, path[-1]]]


def _walk(
    path: Sequence[Point],
    bases_at: object,
    others: Sequence[Base],
    gap: float,
    target: Sequence[Base],
) -> tuple[Point | None, list[Point]]:
    """Where the walk ends, and the spots it stood on from its first clear one."""
    assert callable(bases_at)
    last: Point | None = None
    stood: list[Point] = []
    for spot in _spots(path):
        if _clear(bases_at(spot), others, gap, target):
            last = spot
            stood.append(spot)
        elif last is not None:
            break
    return last, stood


def _single(p: Point) -> list[Base]:
    return [Base(p[0], p[1], 1.0)]


def test_a_charge_stops_at_the_first_model_of_its_target_in_its_way() -> None:
    """A charger heading for the far model of a line of three meets the near one first."""
    target = [Base(5.0, 0.0, 1.0), Base(7.0, 0.0, 1.0), Base(9.0, 0.0, 1.0)]
    end = settle([(0.0, 0.0), (10.0, 0.0)], _single, [], may_touch=target)
    assert end == (4.0, 0.0)
    assert touching(_single(end)[0], target[0]) and not overlapping(_single(end)[0], target[0])


def test_a_charger_beside_one_model_does_not_slide_through_the_next() -> None:
    """Starting in contact with one model of the target and heading for the far side
    of another, the charger's way crosses the target's line: it may not move at all."""
    target = [Base(x, 0.0, 2.0) for x in (0.0, 2.2, 4.4)]
    start = (0.0, 1.5)
    assert touching(_single(start)[0], target[0])
    for goal in ((4.4, -1.5), (2.2, -1.5)):
        assert settle([start, goal], _single, [], may_touch=target) == start
    # along the target's front, clear of it, the same charger reaches the far model
    assert settle([start, (4.4, 1.5)], _single, [], may_touch=target) == (4.4, 1.5)


def test_a_way_bending_round_the_target_ends_where_it_first_meets_it() -> None:
    """A two-leg way whose second leg cuts through the target to reach its far side."""
    target = [Base(5.0, 5.0, 2.0)]
    path = [(0.0, 0.0), (0.0, 5.0), (10.0, 5.0)]
    end = settle(path, _single, [], may_touch=target)
    assert end == (3.5, 5.0)
    walked, stood = _walk(path, _single, [], 0.05, target)
    assert end == walked and all(_clear(_single(s), [], 0.05, target) for s in stood)


def test_a_regiment_swinging_round_stops_when_its_end_meets_the_target() -> None:
    """A wide group (a regiment's front rank) moving along a way that brings its far
    end across the target stops when that end first touches it."""
    target = [Base(6.0, 2.0, 1.0), Base(7.2, 2.0, 1.0)]

    def rank(p: Point) -> list[Base]:
        return [Base(p[0] + dx, p[1], 1.0) for dx in (-2.4, -1.2, 0.0, 1.2, 2.4)]

    end = settle([(0.0, 0.0), (4.0, 0.0), (6.0, 3.0)], rank, [], may_touch=target)
    assert end is not None
    assert not any(overlapping(a, b) for a in rank(end) for b in target)
    assert any(touching(a, b) for a in rank(end) for b in target)
    assert end == _walk([(0.0, 0.0), (4.0, 0.0), (6.0, 3.0)], rank, [], 0.05, target)[0]


def test_a_clear_way_to_the_target_ends_at_its_end() -> None:
    target = [Base(5.0, 0.0, 1.0), Base(5.0, 1.2, 1.0)]
    end = settle([(0.0, 0.0), (4.0, 0.0)], _single, [], may_touch=target)
    assert end == (4.0, 0.0)


_COORD = st.floats(min_value=0.0, max_value=16.0, allow_nan=False).map(lambda v: round(v, 2))
_OFFSET = st.floats(min_value=-2.5, max_value=2.5, allow_nan=False).map(lambda v: round(v, 2))
_SIZE = st.sampled_from([1.0, 1.26, 2.0])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    offsets=st.lists(st.tuples(_OFFSET, _OFFSET), min_size=1, max_size=5),
    size=_SIZE,
    path=st.lists(st.tuples(_COORD, _COORD), min_size=2, max_size=4),
    others=st.lists(st.tuples(_COORD, _COORD, _SIZE), max_size=6),
    target=st.lists(st.tuples(_COORD, _COORD, _SIZE), min_size=1, max_size=6),
    gap=st.sampled_from([0.05, 0.0, 0.5]),
)
def test_settle_is_the_walk_and_no_spot_up_to_it_overlaps_anything(
    offsets: list[Point],
    size: float,
    path: list[Point],
    others: list[tuple[float, float, float]],
    target: list[tuple[float, float, float]],
    gap: float,
) -> None:
    def group(p: Point) -> list[Base]:
        return [Base(p[0] + dx, p[1] + dy, size) for dx, dy in offsets]

    blocking = [Base(*b) for b in others]
    touchable = [Base(*b) for b in target]
    assume(not set(blocking) & set(touchable))  # a base is the target's or another's
    end = settle(path, group, blocking, gap, may_touch=touchable)
    walked, stood = _walk(path, group, blocking, gap, touchable)
    assert end == walked
    if end is not None:
        # every spot from the first clear one up to where the move ends is clear
        assert stood[-1] == end
        for spot in stood:
            bases = group(spot)
            assert not any(overlapping(a, b) for a in bases for b in [*blocking, *touchable])
            assert not any(touching(a, b, gap) for a in bases for b in blocking)


def test_a_group_exactly_touching_a_model_is_judged_on_its_own_bases() -> None:
    """A group moving as it stands carries its models' offsets from the start; at a spot
    where a model's edge meets another's exactly (gap 0) the offsets, a bit off in the
    last place, must not decide: the move ends where the walk of its own bases ends."""

    def group(p: Point) -> list[Base]:
        return [Base(p[0] + 0.9, p[1] + 1.8, 1.0)]

    path = [(0.0, 1.0), (0.0, 0.0)]
    blocking, target = [Base(0.0, 1.0, 2.0)], [Base(0.0, 0.0, 1.0)]
    end = settle(path, group, blocking, 0.0, may_touch=target)
    assert end == _walk(path, group, blocking, 0.0, target)[0] == (0.0, 0.4)
