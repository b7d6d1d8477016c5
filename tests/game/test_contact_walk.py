""":func:`settle` and :func:`clear_of` answer as walking the path spot by spot does.

Every move of every battle goes through :func:`settle`, which skips work it can
prove idle (bases far from the way, a group that keeps its shape checked only
against the bases near the box each model sweeps, samples made only as far as
they are walked). Games are compared byte for byte, so here the shortcuts meet
the plain walk — every 0.1" spot checked with :func:`touching` and
:func:`overlapping` against every base — on many random moves, blocked and free.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from kubik.game.battle import clear_of, overlapping, settle, touching
from kubik.game.battle.contact import GAP, STEP, _samples
from kubik.table import Base, Point


def _clear(
    bases: Sequence[Base], others: Sequence[Base], gap: float, allowed: Sequence[Base]
) -> bool:
    return not any(touching(a, b, gap) for a in bases for b in others) and not any(
        overlapping(a, b) for a in bases for b in allowed
    )


def _walk(path, bases_at, others, gap, allowed) -> Point | None:  # type: ignore[no-untyped-def]
    points = [(float(x), float(y)) for x, y in path]
    last = None
    for point in [*_samples(points, STEP), points[-1]]:
        spot = (round(point[0], 1), round(point[1], 1))
        if _clear(bases_at(spot), others, gap, allowed):
            last = spot
        elif last is not None:
            break
    return last


def test_settle_and_clear_of_match_the_walk() -> None:
    rng = random.Random(7)
    blocked = free = 0
    for _ in range(1500):
        offsets = [(rng.uniform(-3, 3), rng.uniform(-3, 3)) for _ in range(rng.randint(1, 8))]
        size = rng.choice([1.0, 1.26, 2.0])

        def bases_at(p: Point, offsets: list[Point] = offsets, size: float = size) -> list[Base]:
            return [Base(p[0] + dx, p[1] + dy, size) for dx, dy in offsets]

        path = [(rng.uniform(5, 40), rng.uniform(5, 40)) for _ in range(rng.randint(2, 4))]
        bases = [
            Base(round(rng.uniform(0, 48), 1), round(rng.uniform(0, 48), 1), rng.choice([1.0, 2.0]))
            for _ in range(rng.randint(0, 40))
        ]
        cut = rng.randint(0, 3) if rng.random() < 0.3 else 0
        allowed, others = bases[:cut], bases[cut:]
        gap = rng.choice([0.05, 0.0, 0.5])
        walked = _walk(path, bases_at, bases, gap, ())
        assert settle(path, bases_at, bases, gap) == walked, path
        # a charge's target (``may_touch``) is checked at every spot of the way too
        charged = _walk(path, bases_at, others, gap, allowed)
        assert settle(path, bases_at, others, gap, allowed) == charged, path
        start = bases_at(path[0])
        assert clear_of(start, others, gap, allowed) is _clear(start, others, gap, allowed)
        end = (round(path[-1][0], 1), round(path[-1][1], 1))
        blocked += walked != end
        free += walked == end
    assert blocked > 100 and free > 100


def test_settle_checks_only_the_spots_where_the_group_comes_near_a_model() -> None:
    """The spots walked before the group first comes within reach of another model (or
    of a charge's target) are not checked: a blocker met after a long clear stretch, one
    grazed at every distance from the way, a group that starts beside a model (walking
    out of reach, then perhaps into another's) end where the plain walk ends."""
    rng = random.Random(11)
    for _ in range(600):
        offsets = [(rng.uniform(-2, 2), rng.uniform(-2, 2)) for _ in range(rng.randint(1, 6))]
        size = rng.choice([1.0, 1.26, 2.0])

        def bases_at(p: Point, offsets: list[Point] = offsets, size: float = size) -> list[Base]:
            return [Base(p[0] + dx, p[1] + dy, size) for dx, dy in offsets]

        start = (rng.uniform(10, 30), rng.uniform(10, 30))
        far = (start[0] + rng.uniform(-12, 12), start[1] + rng.uniform(-12, 12))
        path = [start, far]
        along = rng.uniform(0.0, 1.0)
        beside = rng.uniform(0.0, 4.0) * rng.choice([-1, 1])
        dx, dy = far[0] - start[0], far[1] - start[1]
        norm = (dx * dx + dy * dy) ** 0.5 or 1.0
        x = start[0] + dx * along - dy / norm * beside
        y = start[1] + dy * along + dx / norm * beside
        blocker = Base(round(x, 2), round(y, 2), rng.choice([1.0, 2.0]))
        # and often one the group stands beside as it starts (a move stopped there before)
        ox, angle = rng.choice(offsets), rng.uniform(0, 6.3)
        edge = size / 2 + 0.5 + rng.choice([0.0, 0.06, 0.1, 0.13, 0.3])
        beside_start = Base(
            start[0] + ox[0] + edge * math.cos(angle),
            start[1] + ox[1] + edge * math.sin(angle),
            1.0,
        )
        gap = rng.choice([0.05, 0.0, 0.5])
        near = [beside_start] if rng.random() < 0.5 else []
        for others, allowed in (([*near, blocker], []), (near, [blocker])):
            walked = _walk(path, bases_at, others, gap, allowed)
            assert settle(path, bases_at, others, gap, allowed) == walked, (path, blocker)


def test_settle_of_a_path_of_one_spot_checks_that_spot() -> None:
    """A move of no length (one point, or two alike) ends where it stands if that is
    clear, else nowhere: the one spot is never taken for clear unchecked."""
    group = [(0.0, 0.0), (1.5, 0.0)]

    def bases_at(p: Point) -> list[Base]:
        return [Base(p[0] + dx, p[1] + dy, 1.0) for dx, dy in group]

    for x in (11.6, 12.0, 12.6, 13.0, 13.6, 14.0):
        others = [Base(x, 10.0, 1.0)]
        for path in ([(10.0, 10.0)], [(10.0, 10.0), (10.0, 10.0)]):
            assert settle(path, bases_at, others) == _walk(path, bases_at, others, GAP, ())
            assert settle(path, bases_at, [], 0.05, others) == _walk(
                path, bases_at, [], 0.05, others
            )
