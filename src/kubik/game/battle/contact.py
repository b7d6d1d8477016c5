"""The contact rule: no ordinary move ends in base contact with, or overlapping, another
model; contact with an enemy comes only through the ruleset's charge.

Every ruleset moves its models through :func:`settle` (where along a path a move may
end) and records each fight a charge starts in :class:`Engagements`; the only bases
that may touch are those of units engaged with each other. :func:`violations` lists
every breach, so the conformance suite (and a referee who doubts the program) can
check a battle after every answer.

>>> from kubik.table import Base
>>> others = [Base(5.0, 0.0, 1.0)]
>>> settle([(0.0, 0.0), (9.0, 0.0)], lambda p: [Base(p[0], p[1], 1.0)], others)
(3.9, 0.0)
>>> clear_of([Base(4.0, 0.0, 1.0)], others)
False
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from kubik.engine import Message, msg
from kubik.game.battle.pieces import Piece
from kubik.table import CONTACT_TOLERANCE, Base, Point
from kubik.table.geometry import point_segment_distance

#: Two bases whose edges are closer than this are in contact (a table tolerance: the
#: width of a measuring tape's edge, not a rule of any game).
GAP = CONTACT_TOLERANCE
#: Overlap smaller than this is rounding, not two models in one place.
_OVERLAP_EPS = 1e-6
#: Inches within which the quick check of a group moving as it stands defers to its
#: own bases at the spot (its offsets, carried from the start, may differ in the last bit).
_KNIFE_EDGE = 1e-9
#: How far back along a path :func:`settle` looks for a clear spot, in steps of 0.1".
STEP = 0.1


def overlapping(a: Base, b: Base) -> bool:
    """Whether two bases overlap (one model standing partly on another)."""
    return math.dist(a.centre, b.centre) < a.radius + b.radius - _OVERLAP_EPS


def touching(a: Base, b: Base, gap: float = GAP) -> bool:
    """Whether two bases are in base contact (edges within ``gap``) or overlap."""
    return math.dist(a.centre, b.centre) - a.radius - b.radius <= gap


def clear_of(
    bases: Sequence[Base], others: Iterable[Base], gap: float = GAP, may_touch: Iterable[Base] = ()
) -> bool:
    """Whether none of ``bases`` touches or overlaps any of ``others``; bases in
    ``may_touch`` (the target of a charge) may be touched but never overlapped.

    (:func:`touching` and :func:`overlapping` over every pair, in plain loops: a
    battle asks this for every spot a move passes.)"""
    blocking = [(b.centre, b.radius) for b in others]
    touchable = [(b.centre, b.radius) for b in may_touch]
    if not (blocking or touchable):
        return True
    movers = [(a.centre, a.radius) for a in bases]
    dist = math.dist
    for centre, radius in movers:
        for other, other_radius in blocking:
            if dist(centre, other) - radius - other_radius <= gap:
                return False
    for centre, radius in movers:
        for other, other_radius in touchable:
            if dist(centre, other) < radius + other_radius - _OVERLAP_EPS:
                return False
    return True


def settle(
    path: Sequence[Point],
    bases_at: Callable[[Point], Sequence[Base]],
    others: Iterable[Base],
    gap: float = GAP,
    may_touch: Iterable[Base] = (),
) -> Point | None:
    """Where a move along ``path`` may end: models never move through other models, and
    an ordinary move never ends in contact with one.

    The moving models (``bases_at(point)``, a unit standing at ``point``) walk the path
    in steps of 0.1"; the move ends at its end, or at the last clear point (rounded to
    0.1") before the first place where they would touch another model. A charge passes
    its target's bases as ``may_touch`` (and not in ``others``): they may be touched,
    never overlapped, at any spot of the way (a charge whose way crosses its target
    ends where it first meets it, not beyond it). A unit that starts touching a model
    (a fight it leaves) may walk out of contact. ``None`` when no point of the path is clear."""
    points = [(float(x), float(y)) for x, y in path]
    if not points:
        return None
    allowed = tuple(may_touch)
    group = bases_at(points[0])
    near = _near_path(points, group, [*others, *allowed], gap)
    end = (round(points[-1][0], 1), round(points[-1][1], 1))
    if not near:
        return end  # nothing near the way: it ends at its end
    others = tuple(b for b in near if b not in allowed)
    allowed = tuple(b for b in near if b in allowed)
    # Where the group comes near enough to touch another model, or to overlap the
    # target's (touched, never overlapped): every spot walked elsewhere is clear.
    spans = _near_spans(points, group, others, gap)
    spans += _near_spans(points, group, allowed, -_OVERLAP_EPS)
    if not spans and clear_of(bases_at(end), others, gap, allowed):
        return end  # the whole way passes clear of every model, the target's too
    clear = _rigid_check(points, bases_at, others, gap, allowed)
    steps = _last_sample(points, STEP)
    last: Point | None = None
    walked = 0  # the samples before this one are walked
    for low, high in _to_check(spans, steps):
        if low > walked:  # a stretch known clear: the move passes it, to its last spot
            passed = next(_samples(points, STEP, low - 1))
            last = (round(passed[0], 1), round(passed[1], 1))
        for point in itertools.islice(_samples(points, STEP, low), high - low + 1):
            spot = (round(point[0], 1), round(point[1], 1))
            if clear(spot) if clear is not None else clear_of(bases_at(spot), others, gap, allowed):
                last = spot
            elif last is not None:
                return last  # blocked: the move ends at the last clear point
        walked = high + 1
    if walked <= steps:
        passed = next(_samples(points, STEP, steps))
        last = (round(passed[0], 1), round(passed[1], 1))
    spot = end  # (the path's end, always checked)
    if clear(spot) if clear is not None else clear_of(bases_at(spot), others, gap, allowed):
        last = spot
    return last


def _to_check(spans: list[tuple[float, float]], steps: int) -> list[tuple[int, int]]:
    """The samples (first and last index, 0 to ``steps``) to check for the stretches
    ``spans`` (inches along the path), each widened by a sample on either side (a
    sample's place along the path is exact to far less than that), in order."""
    ranges: list[tuple[int, int]] = []
    for begin, finish in sorted(spans):
        low, high = max(int(begin / STEP) - 1, 0), min(int(finish / STEP) + 1, steps)
        if low > high:
            continue  # past the last sample: only the end is left (always checked)
        if ranges and low <= ranges[-1][1] + 1:
            if high > ranges[-1][1]:
                ranges[-1] = (ranges[-1][0], high)
        else:
            ranges.append((low, high))
    return ranges


def _rigid_check(
    points: Sequence[Point],
    bases_at: Callable[[Point], Sequence[Base]],
    others: Sequence[Base],
    gap: float,
    allowed: Sequence[Base],
) -> Callable[[Point], bool] | None:
    """:func:`clear_of` for a group that moves as it stands (every base keeps its offset
    from the point), on plain numbers; ``None`` when the group does not."""
    start, end = points[0], points[-1]
    first, last = bases_at(start), bases_at(end)
    shape = [(b.x - start[0], b.y - start[1], b.radius) for b in first]
    moved = [(b.x - end[0], b.y - end[1], b.radius) for b in last]
    if len(shape) != len(moved) or any(
        abs(a[0] - b[0]) > 1e-9 or abs(a[1] - b[1]) > 1e-9 or a[2] != b[2]
        for a, b in zip(shape, moved, strict=True)
    ):
        return None
    blocking = [(o.x, o.y, o.radius) for o in others]
    touchable = [(o.x, o.y, o.radius) for o in allowed]
    # Each model meets only the bases near the box its own centre sweeps: a spot is the
    # path's point rounded to 0.1" (at most 0.0708" off it), so a base farther than
    # reach + 0.08" from that box can never touch nor overlap it there.
    slack = max(gap, 0.0) + 0.08
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    low_x, high_x, low_y, high_y = min(xs), max(xs), min(ys), max(ys)
    pairs = []
    for dx, dy, radius in shape:
        reach = radius + slack
        x0, x1 = low_x + dx - reach, high_x + dx + reach
        y0, y1 = low_y + dy - reach, high_y + dy + reach
        near = [
            [
                (ox, oy, other)
                for ox, oy, other in bases
                if x0 - other <= ox <= x1 + other and y0 - other <= oy <= y1 + other
            ]
            for bases in (blocking, touchable)
        ]
        if near[0] or near[1]:
            pairs.append((dx, dy, radius, near[0], near[1]))

    def clear(spot: Point) -> bool:
        for dx, dy, radius, blockers, touchables in pairs:
            x, y = spot[0] + dx, spot[1] + dy
            for ox, oy, other in blockers:
                edge = math.hypot(x - ox, y - oy) - radius - other - gap
                if edge <= _KNIFE_EDGE:
                    # (an offset carried from the start may be a bit off: a spot within
                    # a hair of the limit is judged on the group's own bases there)
                    return edge > -_KNIFE_EDGE and exact(spot)
            for ox, oy, other in touchables:
                edge = math.hypot(x - ox, y - oy) - (radius + other - _OVERLAP_EPS)
                if edge < _KNIFE_EDGE:
                    return edge >= -_KNIFE_EDGE and exact(spot)
        return True

    def exact(spot: Point) -> bool:
        return clear_of(bases_at(spot), others, gap, allowed)

    return clear


def _near_spans(
    points: Sequence[Point], group: Sequence[Base], bases: Sequence[Base], gap: float
) -> list[tuple[float, float]]:
    """The stretches of the path (from and to, in inches along it) where the group,
    carried as it stands at the start, comes near enough to one of ``bases`` that a
    spot (a point rounded to 0.1", at most 0.0708" off it) might come within ``gap``
    of it (a negative gap: overlap it). Every spot elsewhere is clear of them."""
    if not bases:
        return []
    start = points[0]
    offsets = [(b.x - start[0], b.y - start[1], b.radius) for b in group]
    spans: list[tuple[float, float]] = []
    walked = 0.0
    legs = itertools.pairwise(points) if len(points) > 1 else ((start, start),)
    for p, q in legs:
        ux, uy = q[0] - p[0], q[1] - p[1]
        length = math.hypot(ux, uy)
        a = ux * ux + uy * uy
        for other in bases:
            for dx, dy, radius in offsets:
                # where |p + offset + t·u - c| <= reach, t in [0, 1], by the quadratic
                reach = radius + other.radius + gap + 0.08
                wx, wy = p[0] + dx - other.x, p[1] + dy - other.y
                c = wx * wx + wy * wy - reach * reach
                if a == 0:
                    if c <= 0:
                        spans.append((walked, walked))  # standing still, near
                    continue
                b = wx * ux + wy * uy
                disc = b * b - a * c
                if disc < 0:
                    continue  # passing wide
                root = math.sqrt(disc)
                t0, t1 = (-b - root) / a, (-b + root) / a
                if t1 < 0 or t0 > 1:
                    continue  # near only before the leg or beyond it
                spans.append((walked + max(t0, 0.0) * length, walked + min(t1, 1.0) * length))
        walked += length
    return spans


def _last_sample(points: Sequence[Point], step: float) -> int:
    """The index of the last of :func:`_samples` (0 for a path of one point)."""
    if len(points) < 2:
        return 0
    return int(sum(math.dist(p, q) for p, q in itertools.pairwise(points)) / step + 1e-9)


def _samples(points: Sequence[Point], step: float, start: int = 0) -> Iterator[Point]:
    """The points every ``step`` inches along the path from its start (as
    :func:`kubik.table.tape.along` would end, by plain interpolation), made as they are
    walked (a move blocked early never makes the rest), from the ``start``-th on (those
    before it known clear: never made)."""
    legs = [(p, q, math.dist(p, q)) for p, q in itertools.pairwise(points)]
    if not legs:
        yield points[0]
        return
    length = sum(d for _, _, d in legs)
    steps = int(length / step + 1e-9)
    last = len(legs) - 1
    leg, walked = 0, 0.0
    p, q, d = legs[0]
    for i in range(start, steps + 1):
        wanted = i * step
        while leg < last and walked + d < wanted:
            walked += d
            leg += 1
            p, q, d = legs[leg]
        t = 0.0 if d == 0 else min(max((wanted - walked) / d, 0.0), 1.0)
        yield (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)


def _near_path(
    points: Sequence[Point], group: Sequence[Base], others: Sequence[Base], gap: float
) -> tuple[Base, ...]:
    """The bases close enough to the path to matter (the rest cannot be touched)."""
    if not group:
        return ()
    start = points[0]
    reach = max(math.dist(b.centre, start) + b.radius for b in group) + gap + 0.1
    legs = [(p, q) for p, q in itertools.pairwise(points) if p != q] or [(start, start)]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    low_x, high_x, low_y, high_y = min(xs), max(xs), min(ys), max(ys)
    found = []
    for other in others:
        radius = other.radius
        margin = reach + radius
        x, y = other.x, other.y
        if x < low_x - margin or x > high_x + margin or y < low_y - margin or y > high_y + margin:
            continue  # outside the path's box: it cannot be near
        centre = (x, y)
        d = min(point_segment_distance(centre, p, q) for p, q in legs)
        if d <= margin:
            found.append(other)
    return tuple(found)


@dataclass(frozen=True, slots=True)
class Engagement:
    """Two units a charge has brought into contact (ids in sorted order), and the rules
    that did it."""

    a: str
    b: str
    rules: tuple[str, ...] = ()

    def involves(self, unit: str) -> bool:
        """Whether ``unit`` is one of the two."""
        return unit in (self.a, self.b)

    def other(self, unit: str) -> str:
        """The unit engaged with ``unit``."""
        return self.b if unit == self.a else self.a


class Engagements:
    """The fights charges have started; mutable state of a battle, in the order made."""

    def __init__(self) -> None:
        self._pairs: list[Engagement] = []

    def engage(self, a: str, b: str, rules: Sequence[str] = ()) -> Engagement:
        """Units ``a`` and ``b`` are now in a fight (a charge reached, or a fight formed
        by the ruleset's rule)."""
        if a == b:
            raise ValueError(f"a unit cannot engage itself ({a})")
        first, second = sorted((a, b))
        found = self.between(first, second)
        if found is not None:
            return found
        made = Engagement(first, second, tuple(rules))
        self._pairs.append(made)
        return made

    def between(self, a: str, b: str) -> Engagement | None:
        """The engagement of ``a`` and ``b``, if they are engaged."""
        first, second = sorted((a, b))
        for pair in self._pairs:
            if pair.a == first and pair.b == second:
                return pair
        return None

    def engaged(self, a: str, b: str) -> bool:
        """Whether the two units are in a fight together."""
        return self.between(a, b) is not None

    def of(self, unit: str) -> tuple[str, ...]:
        """Every unit engaged with ``unit``, in the order the fights started."""
        if not self._pairs:
            return ()
        return tuple(p.other(unit) for p in self._pairs if p.involves(unit))

    def release(self, unit: str, other: str | None = None) -> None:
        """``unit`` leaves its fights (with ``other`` only, when given): it backed off,
        broke away, fled or fell."""
        self._pairs = [
            p
            for p in self._pairs
            if not (p.involves(unit) and (other is None or p.involves(other)))
        ]

    def pairs(self) -> tuple[Engagement, ...]:
        """Every engagement, in the order made."""
        return tuple(self._pairs)

    def __len__(self) -> int:
        return len(self._pairs)


@dataclass(frozen=True, slots=True)
class Violation:
    """Two models that break the contact rule: overlapping, or touching without a fight."""

    a: str
    b: str
    overlap: bool

    @property
    def message(self) -> Message:
        """What is wrong, for people."""
        key = "game.contact.overlap" if self.overlap else "game.contact.touch"
        return msg(key, a=self.a, b=self.b)


def violations(pieces: Iterable[Piece], engagements: Engagements) -> tuple[Violation, ...]:
    """Every pair of models on the table that overlap, or touch though their units are
    not engaged with each other (models of one unit never touch: formations keep a
    gap). Only :attr:`Piece.body` models take up room."""
    bodies = [p for p in pieces if p.body]
    found: list[Violation] = []
    for i, a in enumerate(bodies):
        for b in bodies[i + 1 :]:
            if overlapping(a.base, b.base):
                found.append(Violation(a.id, b.id, True))
            elif touching(a.base, b.base) and not (
                a.unit != b.unit and engagements.engaged(a.unit, b.unit)
            ):
                found.append(Violation(a.id, b.id, False))
    return tuple(found)


__all__ = [
    "GAP",
    "Engagement",
    "Engagements",
    "Violation",
    "clear_of",
    "overlapping",
    "settle",
    "touching",
    "violations",
]
