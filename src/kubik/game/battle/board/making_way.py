"""How a unit of the board gets out of contact: a straight step away from threats, and,
when there is no room for it, making way, the models in its way shuffling aside to clear
places nearby.

Kept apart from :mod:`.walks`: these moves are the board's answer to a fight a unit
leaves (backing away, breaking off), not a walk toward a goal.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Generic

from kubik.game.battle.board.grid import SLACK, on_grid
from kubik.game.battle.board.hooks import U
from kubik.game.battle.board.walks import BoardWalks
from kubik.game.battle.contact import GAP, clear_of, touching
from kubik.table import Base, Point
from kubik.table.geometry import point_segment_distance


def away_from(origin: Point, threats: Sequence[Point], distance: float, turn: float = 0.0) -> Point:
    """The point ``distance`` inches from ``origin`` straight away from the middle of
    ``threats``, turned by ``turn`` degrees.

    >>> on_grid(away_from((0.0, 0.0), [(1.0, 0.0)], 2.0))
    (-2.0, 0.0)
    """
    mx = sum(p[0] for p in threats) / len(threats)
    my = sum(p[1] for p in threats) / len(threats)
    heading = math.atan2(origin[1] - my, origin[0] - mx) + math.radians(turn)
    return (origin[0] + math.cos(heading) * distance, origin[1] + math.sin(heading) * distance)


@dataclass(frozen=True, slots=True)
class MadeWay(Generic[U]):
    """Where a unit that could not step back ends out of contact anyway (``spot``, on the
    grid), and the place each model in its way shuffles aside to (``shuffles``: the
    unit and where its centre goes), in the order they move."""

    spot: Point
    shuffles: tuple[tuple[U, Point], ...] = ()


class BoardMakingWay(BoardWalks[U]):
    """Out of contact: :meth:`back_away`, :meth:`make_way`, :meth:`room_at` and
    :meth:`clear_spot`."""

    def back_away(
        self,
        unit: U,
        threats: Sequence[U],
        inches: float,
        *,
        turns: Sequence[float] = (0.0,),
        allowed: Callable[[Point, Point], bool] | None = None,
    ) -> Point | None:
        """Where ``unit`` stands after stepping ``inches`` straight away from ``threats``
        (turned aside by each of ``turns``, degrees, in order, when straight away is no
        good): the first place on the grid that takes it farther from every threat, fits
        (:meth:`fits`, ignoring the threats it leaves) and, when given,
        ``allowed(start, spot)`` (the ruleset's rule on the step) accepts. ``None``: no
        room."""
        here = self.centre_of(unit)
        centres = [self.centre_of(t) for t in threats]
        if not centres:
            return None
        skip = (*threats,)
        for turn in turns:
            spot = on_grid(away_from(here, centres, inches + SLACK, turn))
            if any(math.dist(spot, t) <= math.dist(here, t) for t in centres):
                continue
            if not self.on_ground(unit, spot):
                continue
            if not math.isfinite(self.pace(unit)((here, spot))):
                continue
            if allowed is not None and not allowed(here, spot):
                continue
            others = self.blocking(unit, also=skip)
            if clear_of(list(self.bases_at(unit)(spot)), others):
                return spot
        return None

    def clear_spot(
        self,
        unit: U,
        near: Point,
        *,
        radii: Sequence[float] = (0.5, 1.0, 1.5, 2.0),
        taken: Sequence[Base] = (),
        moving: Iterable[U] = (),
        stands: Callable[[Point], bool] | None = None,
    ) -> Point | None:
        """The nearest place on the grid to ``near`` (rings of ``radii``, twelve places
        each) where ``unit`` fits clear of every model and of ``taken`` without crossing
        an obstacle: where a model shuffles aside to make room. The models of ``moving``
        are on their way elsewhere (``taken`` holds where they go): they do not block.
        ``stands``: the ruleset's word on where the unit may stand."""
        tape = self.game.tape
        blocking = self.blocking(unit, also=moving)
        for radius in radii:
            for k in range(12):
                angle = math.radians(30 * k)
                spot = on_grid(
                    (near[0] + radius * math.cos(angle), near[1] + radius * math.sin(angle))
                )
                if not self.on_ground(unit, spot) or tape.crossed((self.centre_of(unit), spot)):
                    continue
                if stands is not None and not stands(spot):
                    continue
                if clear_of(list(self.bases_at(unit)(spot)), [*blocking, *taken]):
                    return spot
        return None

    def make_way(
        self,
        unit: U,
        threats: Sequence[U],
        *,
        start: float,
        limit: float,
        directions: int = 16,
        step: float = 0.5,
        may_shuffle: Callable[[U], bool] | None = None,
        stands: Callable[[U, Point], bool] | None = None,
        threats_shuffle: bool = False,
    ) -> MadeWay[U] | None:
        """Where ``unit``, with no room to step back from ``threats``, ends out of contact
        with them anyway, the models in its way shuffling aside: the first place, ring by
        ring (``start`` inches from where it stands, then every ``step`` inches up to
        ``limit``) and ``directions`` ways round each (straight away from the threats'
        middle first, then ever more aside), that it reaches without crossing an obstacle
        or impassable ground, touching no threat and no model that may not shuffle
        (``may_shuffle``; default: a friend not in a fight), and where every model it
        would touch finds a clear place nearby (:meth:`clear_spot`); ``stands(unit,
        place)``: the ruleset's word on where a unit may stand (never on a fence);
        ``threats_shuffle``: the threats too may step aside, if ``may_shuffle`` lets them
        (a last resort). ``None``: there is no such place (it stays where it is)."""
        here = self.centre_of(unit)
        centres = [self.centre_of(t) for t in threats]
        if not centres:
            return None
        if may_shuffle is None:
            may_shuffle = self._friend_at_rest(unit)
        turns = sorted(
            (360.0 * k / directions for k in range(directions)),
            key=lambda a: (min(a, 360.0 - a), a),
        )
        radius = start
        while radius <= limit + 1e-9:
            for turn in turns:
                spot = on_grid(away_from(here, centres, radius + SLACK, turn))
                shuffles = self.room_at(
                    unit,
                    spot,
                    threats,
                    may_shuffle=may_shuffle,
                    stands=stands,
                    threats_shuffle=threats_shuffle,
                )
                if shuffles is not None:
                    return MadeWay(spot, shuffles)
            radius += step
        return None

    def room_at(
        self,
        unit: U,
        spot: Point,
        threats: Sequence[U],
        *,
        may_shuffle: Callable[[U], bool] | None = None,
        stands: Callable[[U, Point], bool] | None = None,
        threats_shuffle: bool = False,
    ) -> tuple[tuple[U, Point], ...] | None:
        """The shuffles that make room for ``unit`` at ``spot``, where it gets from where it
        stands without crossing an obstacle, touching none of ``threats`` and passing
        through none: each model it would touch there or pass through on its way (each must
        be one ``may_shuffle`` lets move; default a friend not in a fight) and the clear
        place nearby it shuffles to (``None``: no room there); ``threats_shuffle``: the
        threats too step aside (when ``may_shuffle`` lets them), clear of it."""
        here = self.centre_of(unit)
        if may_shuffle is None:
            may_shuffle = self._friend_at_rest(unit)
        if not self.on_ground(unit, spot) or self.game.tape.crossed((here, spot)):
            return None  # off the table, in impassable ground, or over an obstacle
        if stands is not None and not stands(unit, spot):
            return None
        if not math.isfinite(self.pace(unit)((here, spot))):
            return None
        bases = list(self.bases_at(unit)(spot))
        moving = list(zip(self.bases_of(unit), bases, strict=False))
        own = self.unit_id(unit)
        threat_ids = {self.unit_id(t) for t in threats}
        in_way: list[U] = []
        for other in self.units():
            if self.unit_id(other) == own or not self.in_battle(other):
                continue
            theirs = self.bases_of(other)
            there = any(touching(a, b) for a in bases for b in theirs)
            through = any(
                point_segment_distance(b.centre, start.centre, end.centre)
                < start.radius + b.radius - GAP
                for start, end in moving
                for b in theirs
            )
            if not (there or through):
                continue
            threat = self.unit_id(other) in threat_ids
            if (threat and not threats_shuffle) or not may_shuffle(other):
                return None
            in_way.append(other)
        moves: list[tuple[U, Point]] = []
        taken = list(bases)
        for other in in_way:
            aside = self.clear_spot(
                other,
                self.centre_of(other),
                taken=taken,
                moving=(unit, *in_way),
                stands=None if stands is None else partial(stands, other),
            )
            if aside is None:
                return None
            moves.append((other, aside))
            taken.extend(self.bases_at(other)(aside))
        return tuple(moves)

    def _friend_at_rest(self, unit: U) -> Callable[[U], bool]:
        """Whether a model is a friend of ``unit`` not in a fight (who shuffles aside
        unless the ruleset says otherwise)."""
        side = self.side_of(unit)
        return lambda other: self.side_of(other) == side and not self.is_engaged(other)


__all__ = ["MadeWay", "away_from"]
