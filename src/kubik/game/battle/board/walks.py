"""Where a unit of the board may go: a walked way round terrain, as far as the movement
rule's allowance goes, ended where the contact rule lets it end; and a charge's way into
base contact with its target.

The board decides no rule: how far a unit may go and what a difficult way costs are the
ruleset's movement rule's, passed in as numbers or as its own functions (:data:`Pace`,
:data:`Reach`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kubik.game.battle.board.contact_places import BoardContactPlaces
from kubik.game.battle.board.grid import GRID, SLACK, on_grid
from kubik.game.battle.board.hooks import U
from kubik.game.battle.contact import clear_of, settle
from kubik.table import Base, Point, TableError
from kubik.table.tape import along


def length_along(points: Sequence[Point], spot: Point) -> float:
    """Inches from the start of ``points`` to the place on it nearest ``spot``.

    >>> length_along([(0.0, 0.0), (4.0, 0.0), (4.0, 3.0)], (4.0, 1.0))
    5.0
    """
    if len(points) == 2:  # a straight way (the same sums as the loop below)
        p, q = points
        seg = math.dist(p, q)
        if seg == 0:
            return 0.0
        t = ((spot[0] - p[0]) * (q[0] - p[0]) + (spot[1] - p[1]) * (q[1] - p[1])) / seg**2
        return seg * min(max(t, 0.0), 1.0)
    walked = 0.0
    best = (math.inf, 0.0)
    for p, q in itertools.pairwise(points):
        seg = math.dist(p, q)
        if seg == 0:
            continue
        t = ((spot[0] - p[0]) * (q[0] - p[0]) + (spot[1] - p[1]) * (q[1] - p[1])) / seg**2
        t = min(max(t, 0.0), 1.0)
        foot = (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)
        gap = math.dist(foot, spot)
        if gap < best[0] - 1e-9:
            best = (gap, walked + seg * t)
        walked += seg
    return best[1]


@dataclass(frozen=True, slots=True)
class Walk:
    """A move a unit can make: the way round terrain it follows (``way``, to its goal),
    the part of it its allowance covers (``path``), where the contact rule lets it end
    (``end``, on the grid) and how far along the path that is (``walked``, inches) and
    what the whole way would cost (``cost``, as the ruleset's pace prices it)."""

    way: tuple[Point, ...]
    path: tuple[Point, ...]
    end: Point
    walked: float
    cost: float

    @property
    def moved(self) -> bool:
        """Whether the unit gets anywhere (more than the grid's rounding)."""
        return self.walked > SLACK


#: How a ruleset's movement rule prices a way: the way's points → inches of allowance it
#: costs (infinite: it may not be taken). The board's default prices it by the table's
#: terrain kinds for the unit's mover type (difficult ground twice, very difficult thrice).
Pace = Callable[[Sequence[Point]], float]
#: How far along a way (its points) a unit gets with an allowance, as its movement rule
#: says: inches along the way.
Reach = Callable[[Sequence[Point], float], float]


class BoardWalks(BoardContactPlaces[U]):
    """Where it may go: :meth:`walk`, :meth:`charge_way`, :meth:`way`, and the board's
    default :meth:`pace` and :meth:`reach`."""

    #: How finely a way round impassable ground samples the features' edges (inches).
    detour_step: float = 2.0

    def way(self, unit: U, goal: Point, *, limit: float = math.inf) -> tuple[Point, ...] | None:
        """The way ``unit`` takes to ``goal``: straight where the terrain lets it through,
        else the cheapest way round impassable ground (``None``: there is none — or none
        the search found within ``limit``, when given)."""
        found = self.game.tape.way(
            self.centre_of(unit),
            goal,
            self.mover_of(unit),
            self.clearance_of(unit),
            detour_step=self.detour_step,
            limit=limit,
        )
        return None if found is None else found.points

    def pace(self, unit: U) -> Pace:
        """The board's default price of a way for ``unit``: the table's terrain kinds for
        its mover type (difficult ground twice, very difficult thrice, impassable never)."""
        tape, mover, clearance = self.game.tape, self.mover_of(unit), self.clearance_of(unit)
        return lambda points: tape.cost(tuple(points), mover, clearance)

    def reach(self, unit: U) -> Reach:
        """The board's default reach: how far along a way ``unit`` gets with an allowance,
        priced as :meth:`pace` prices it."""
        tape, mover, clearance = self.game.tape, self.mover_of(unit), self.clearance_of(unit)

        def reach(points: Sequence[Point], allowance: float) -> float:
            try:
                return tape.reach(tuple(points), allowance, mover, clearance).distance
            except TableError:
                return 0.0

        return reach

    def walk(
        self,
        unit: U,
        goal: Point,
        allowance: float,
        *,
        target: U | None = None,
        short: float = 0.0,
        reach: Reach | None = None,
        pace: Pace | None = None,
        way: Sequence[Point] | None = None,
        within: bool = False,
        stands: Callable[[Point], bool] | None = None,
        shape: Callable[[Point], Sequence[Base]] | None = None,
        over: bool = False,
    ) -> Walk | None:
        """Where ``unit`` gets walking toward ``goal`` with ``allowance`` inches: along
        :meth:`way` (or ``way`` given), stopping ``short`` inches before its end, as far
        as ``reach`` (the ruleset's movement rule; default :meth:`reach`) lets the
        allowance go, and then where the contact rule lets it end — never through a
        model, never touching one but ``target`` (a charge's, touched never overlapped).
        ``within``: the end, on the grid, never costs more than the allowance (rounded
        inside the limit, never past it); ``stands(place)``: the ruleset's word on where
        the unit may end (never on a fence: :meth:`on_obstacle`) — else the walk ends at
        the last place before it, along its path, where it may. ``shape``: the unit's
        bases were it at a point, when it walks otherwise than it stands (a regiment that
        wheeled to a new facing first); ``over``: it passes over the models on its way (a
        flyer), so only where the allowance ends counts.
        ``None`` when no way leads there or no place of it is clear."""
        points = tuple(way) if way is not None else self.way(unit, goal)
        if points is None:
            return None
        if len(points) < 2:
            points = (points[0], points[0])
        whole: tuple[Point, ...] = points
        if reach is None:  # the board's own reach: the path depends on the table alone
            key = (whole, short, allowance, self.mover_of(unit), self.clearance_of(unit))
            points, path = self.game.tape.kept(
                "board.walk", key, lambda: self._walked(unit, whole, short, allowance, None)
            )
        else:
            points, path = self._walked(unit, whole, short, allowance, reach)
        placed = shape or self.bases_at(unit)
        if shape is None and not over:  # (the board's own memo of the contact rule)
            end = self.settle(unit, path, target=target)
        else:
            touchable = list(self.bases_of(target)) if target is not None else []
            others = self.blocking(unit, also=(target,) if target is not None else ())
            end = settle(path[-1:] if over else path, placed, others, may_touch=touchable)
        if end is None:
            return None
        priced = pace or self.pace(unit)
        try:
            cost = priced(points)
        except TableError:  # a way leaving the table (a goal at its very edge) is no way
            cost = math.inf
        if within or stands is not None:
            limit = allowance if within else None
            # on open ground a way costs its length: a place needs no pricing of its own
            level = abs(cost - sum(math.dist(p, q) for p, q in itertools.pairwise(points))) < 1e-9
            others = self.blocking(unit, also=(target,) if target is not None else ())
            end = self._standing_end(
                unit, points, path, end, others, priced, limit, stands, level=level, shape=placed
            )
            if end is None:
                return None
        return Walk(points, path, end, round(length_along(path, end), 1), cost)

    def _walked(
        self,
        unit: U,
        points: tuple[Point, ...],
        short: float,
        allowance: float,
        reach: Reach | None,
    ) -> tuple[tuple[Point, ...], tuple[Point, ...]]:
        """:meth:`walk`'s way cut ``short`` of its end and the path its allowance covers."""
        if short > 0:
            length = sum(math.dist(p, q) for p, q in itertools.pairwise(points))
            points = along(points, max(length - short, 0.0))
        walked_to = (reach or self.reach(unit))(points, allowance)
        return points, along(points, walked_to)

    def _standing_end(
        self,
        unit: U,
        points: Sequence[Point],
        path: Sequence[Point],
        end: Point,
        others: Sequence[Base],
        pace: Pace,
        limit: float | None,
        stands: Callable[[Point], bool] | None,
        *,
        level: bool = False,
        shape: Callable[[Point], Sequence[Base]] | None = None,
    ) -> Point | None:
        """``end``, or the last place on the grid before it along ``path`` that costs no
        more than ``limit`` (from the way's start, ``points``; ``level``: it is open
        ground all the way, costing its length) and where ``stands`` lets the unit end;
        clear of every model (``others``), its bases placed by ``shape`` (default
        :meth:`bases_at`). ``None``: no such place."""
        straight = len(points) == 2 and level
        near_end: list[float] = []  # where the path's last stretch begins, once asked

        def inside(spot: Point) -> bool:
            if limit is None:
                return True
            if straight:  # a straight way over open ground costs its length
                return math.dist(points[0], spot) <= limit + 1e-9
            # the path costs no more than the allowance: only a place the grid rounded
            # past its last stretch may cost more
            if not near_end:
                near_end.append(
                    sum(math.dist(p, q) for p, q in itertools.pairwise(path)) - 2 * GRID
                )
            if length_along(path, spot) <= near_end[0]:
                return True
            cost = pace((*along(points, length_along(points, spot))[:-1], spot))
            return cost <= limit + 1e-9

        if (stands is None or stands(end)) and inside(end):
            return end
        walked = length_along(path, end)
        bases_at = shape or self.bases_at(unit)
        # the grid's other places round where the walk ends (rounded the other way), then
        # one grid step at a time back along the path
        exact = _point_along(path, walked)
        corners = sorted(
            {
                (math.floor(exact[0] * 10) / 10 + dx, math.floor(exact[1] * 10) / 10 + dy)
                for dx in (0.0, GRID)
                for dy in (0.0, GRID)
            }
            - {end},
            key=lambda c: (math.dist(c, exact), c),
        )
        steps = (
            on_grid(_point_along(path, max(walked - k * GRID, 0.0)))
            for k in range(1, int(walked / GRID) + 2)
        )
        for spot in itertools.chain((on_grid(c) for c in corners), steps):
            if not clear_of(list(bases_at(spot)), others):
                continue
            if (stands is None or stands(spot)) and inside(spot):
                return spot
        return None

    def settled(
        self,
        unit: U,
        points: Sequence[Point],
        *,
        target: U | None = None,
        stands: Callable[[Point], bool] | None = None,
    ) -> Point | None:
        """Where a move of ``unit`` along ``points`` ends by the contact rule: at its end,
        or at the last clear place on the grid before it would touch a model (never
        through one; ``target``, a charge's, may be touched, never overlapped) — and,
        with ``stands`` (the ruleset's word on where the unit may end), at the last place
        before that where it may. ``None`` when no place of it is clear."""
        touchable = list(self.bases_of(target)) if target is not None else []
        others = self.blocking(unit, also=(target,) if target is not None else ())
        end = settle(points, self.bases_at(unit), others, may_touch=touchable)
        if end is None or stands is None or len(points) < 2:
            return end
        path = along(points, length_along(points, end))
        return self._standing_end(unit, points, path, end, others, self.pace(unit), None, stands)

    def charge_way(
        self,
        unit: U,
        target: U,
        allowance: float,
        *,
        pace: Pace | None = None,
        cliff: float | None = None,
        allowed: Callable[[Point], bool] | None = None,
        slack: float = SLACK,
        approach: bool = False,
    ) -> Walk | None:
        """The cheapest way ``unit`` can walk into base contact with ``target`` within
        ``allowance`` (priced by ``pace``, the ruleset's movement rule; default
        :meth:`pace`), give or take ``slack`` inches: a way round terrain and models that
        ends touching ``target`` and no other model. ``allowed(spot)``: the ruleset's own
        word on a place (its movement rule); ``None`` when no such way exists — a charge
        that could not reach.

        ``approach``: the way round terrain is found once, toward the target, and bent to
        each place in contact at the last of its corners the place can be walked to
        straight (a place none of them sees gets a way of its own, sought only as far as
        the allowance). The same way wherever the last leg runs straight to the target,
        and one search instead of one per place: a ruleset that asks for every enemy in
        reach at every move says so."""
        here = self.centre_of(unit)
        priced = pace or self.pace(unit)
        around = 2 * (self.clearance_of(unit) + self.clearance_of(target)) + 1.0
        floor = math.inf  # a straight way over open ground that was too long: no farther
        toward = None
        if approach:  # (past the last place round the target that could still reach: none)
            toward = self.way(unit, self.centre_of(target), limit=allowance + slack + 2 * around)
            if toward is None:
                return None
        prefix: list[float] = []  # the price of the way toward the target up to each corner
        if toward is not None and pace is None:
            prefix = [0.0]
            for leg in itertools.pairwise(toward):
                prefix.append(prefix[-1] + priced(leg))
        touchable = list(self.bases_of(target))
        others = self.blocking(unit, also=(target,))  # (what :meth:`fits` asks, once)
        placed = self.bases_at(unit)
        for spot in self.contact_spots(unit, target, cliff=cliff):
            straight = math.dist(here, spot)
            if straight > allowance + slack or straight >= floor:
                continue  # a way is never shorter than the straight line
            if not self.on_ground(unit, spot):
                continue
            if not clear_of(list(placed(spot)), others, may_touch=touchable):
                continue
            if allowed is not None and not allowed(spot):
                continue
            points, cost = None, math.inf
            if toward is not None:  # bent at the last of its corners the place is seen from
                for keep in range(len(toward) - 1, 0, -1):
                    last = priced((toward[keep - 1], spot))
                    if math.isfinite(last):
                        points = (*toward[:keep], spot)
                        # the board's own price adds up leg by leg: only the last is new
                        cost = prefix[keep - 1] + last if prefix else priced(points)
                        break
            if points is None:  # (approaching, a way of its own only where it could reach)
                points = self.way(unit, spot, limit=allowance + slack if approach else math.inf)
                if points is None:
                    continue
                cost = priced(points)
            if cost > allowance + slack:
                if cost > allowance + slack + around:
                    break  # every other place round it is as far, give or take its width
                if len(points) == 2 and abs(cost - straight) < 1e-9:
                    floor = min(floor, straight)
                continue
            end = settle(points, placed, others, may_touch=touchable)
            if end == spot:
                if prefix:
                    cost = priced(points)  # (the walk's own price, summed as one way)
                return Walk(points, points, spot, round(length_along(points, spot), 1), cost)
        return None


def _point_along(points: Sequence[Point], length: float) -> Point:
    """The place ``length`` inches along ``points`` (their end, past it)."""
    if length <= 0:
        return (float(points[0][0]), float(points[0][1]))
    if len(points) == 2:  # a straight way: measured along it without a shape
        (px, py), (qx, qy) = points
        seg = math.dist((px, py), (qx, qy))
        if seg == 0 or length >= seg:
            return (float(qx), float(qy))
        t = length / seg
        return (px + (qx - px) * t, py + (qy - py) * t)
    return along(points, length)[-1]


__all__ = ["Pace", "Reach", "Walk", "length_along"]
