"""Where a unit of the board may end a move by the contact rule: never through a model,
never touching one but a charge's target; and the places in base contact with a target
(a charger's contact spots).

The contact rule itself is the battle layer's (:func:`~kubik.game.battle.settle`); this
asks it only of the models near a way, and keeps its answers while they stand.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable, Sequence

from kubik.game.battle.board.grid import GRID, on_grid
from kubik.game.battle.board.hooks import U
from kubik.game.battle.board.standing import BoardStanding
from kubik.game.battle.contact import GAP, clear_of, settle
from kubik.table import Base, Point
from kubik.table.tape import Tape

#: The directions round a target a charger's contact spots are tried in, in steps of
#: 15 degrees from the side facing him (the side facing him first, then round it).
CONTACT_STEPS: tuple[int, ...] = (0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6, 8, -8, 10, -10, 12)
#: The nudges (inches) onto the grid round an ideal contact place, in the order tried.
_NUDGES = (0.0, 0.1, -0.1)

#: How finely the reach of :meth:`Board.settle`'s gathering of near models goes (inches):
#: a walk up to a whole number of these long uses one gathering per menu.
_REACH_STEP = 6.0
#: More than the contact rule's reach beyond a moving unit's own (its gap and the
#: rounding of a spot to 0.1"), so no base it may meet is left out of :func:`_beside`.
_BESIDE_SLACK = GAP + 0.5


class BoardContactPlaces(BoardStanding[U]):
    """Where a move ends by the contact rule: :meth:`settle`, :meth:`contact_spots`,
    :meth:`contact_near` and the models near a walk (:meth:`nearby`)."""

    def contact_near(
        self,
        unit: U,
        target: U,
        ideal: Point,
        *,
        shape: Callable[[Point], Sequence[Base]] | None = None,
        within: float = 0.2,
    ) -> Point | None:
        """The place on the grid nearest ``ideal`` (at most ``within`` inches from it on
        either axis) where ``unit``'s bases (``shape``: were it at a point; default
        :meth:`bases_at`) touch ``target``'s without overlapping any: where a unit the
        ruleset's own geometry puts at ``ideal`` (a regiment's front aligned to the face
        it charges) stands in base contact. ``None``: no such place near it."""
        theirs = list(self.bases_of(target))
        placed = shape or self.bases_at(unit)
        base = on_grid(ideal)
        steps = round(within / GRID)
        spots = sorted(
            (
                (round(base[0] + i * GRID, 1), round(base[1] + j * GRID, 1))
                for i in range(-steps, steps + 1)
                for j in range(-steps, steps + 1)
            ),
            key=lambda p: (math.dist(p, ideal), p),
        )
        for spot in spots:
            mine = list(placed(spot))
            if clear_of(mine, (), may_touch=theirs) and not clear_of(mine, theirs):
                return spot
        return None

    def settle(
        self,
        unit: U,
        path: Sequence[Point],
        *,
        target: U | None = None,
        key: Hashable | None = None,
        within: float | None = None,
    ) -> Point | None:
        """Where ``unit`` walking ``path`` may end by the contact rule
        (:func:`~kubik.game.battle.settle`): never through a model, never touching one
        but ``target`` (a charge's: touched, never overlapped); ``None`` when no place of
        the path is clear.

        The rule meets only the models beside the way, so only those are asked: while a
        menu is measured the models near where the unit stands are gathered once, and
        each answer is kept while the unit and the models beside that way stand where
        they stood (models elsewhere may move). ``key`` names ``path`` for that memo when
        the caller has a cheaper name for it than its points (a move's course);
        ``within``: how long any walk of the unit this menu may be, when the caller knows
        (one gathering of :meth:`nearby` for them all)."""
        if not path:
            return None
        game = self.game
        start = (float(path[0][0]), float(path[0][1]))
        length = sum(math.dist(p, q) for p, q in itertools.pairwise(path))
        width = self.clearance_of(unit)
        if target is not None:
            touchable = list(self.bases_of(target))
            others = self.blocking(unit, also=(target,))
            return settle(path, self._bases_at(unit), others, may_touch=touchable)
        if within is not None and length <= within and start == self.centre_of(unit):
            near = self.nearby(unit, within)
        else:
            near = self._near(unit, start, _REACH_STEP * (math.floor(length / _REACH_STEP) + 1))
        if not game.measuring:
            return settle(path, self._bases_at(unit), near, may_touch=[])
        beside = _beside(path, near, width)
        if not beside:  # no base near the way: the contact rule lets it end at its end
            last = path[-1]
            return (round(last[0], 1), round(last[1], 1))
        named = tuple(path) if key is None else key
        return game.lasting(  # (the rule is asked of those beside alone: it meets no other)
            (
                "board.settle",
                self.shape(unit),
                tuple([(b.x, b.y, b.radius) for b in beside]),
                named,
            ),
            lambda: settle(path, self._bases_at(unit), beside, may_touch=[]),
        )

    def nearby(self, unit: U, length: float) -> tuple[Base, ...]:
        """The bases of :meth:`blocking` a walk of ``unit`` from where it stands, at most
        ``length`` inches long, may meet (a generous margin: none is lost), in their
        order; gathered once per menu."""
        return self._near(unit, self.centre_of(unit), length)

    def nearby_shape(self, unit: U, length: float) -> int:
        """Where the bases of :meth:`nearby` stand, as a small number (once per menu): a
        measurement of walks from where ``unit`` stands that reads only these holds
        while they stand where they stood, wherever models farther off move."""
        game = self.game
        return game.kept(
            ("board.nearby_shape", self.unit_id(unit), length),
            lambda: game.shape_id(
                ("near", tuple([(b.x, b.y, b.radius) for b in self.nearby(unit, length)]))
            ),
        )

    def _near(self, unit: U, start: Point, length: float) -> tuple[Base, ...]:
        """The bases of :meth:`blocking` a walk of ``unit`` from ``start`` at most
        ``length`` inches long may meet (a generous margin: none is lost), in their
        order; gathered once per menu."""
        return self.game.kept(
            ("board.near", self.unit_id(unit), start, length),
            lambda: self._near_from(unit, start, length),
        )

    def _near_from(self, unit: U, start: Point, length: float) -> tuple[Base, ...]:
        centre = self.centre_of(unit)
        reach = self.clearance_of(unit) + GAP + 0.1 + length + 0.01 + math.dist(centre, start)
        dist = math.dist
        return tuple(b for b in self.blocking(unit) if dist((b.x, b.y), centre) <= reach + b.radius)

    def contact_spots(self, unit: U, target: U, *, cliff: float | None = None) -> tuple[Point, ...]:
        """Places on the grid where ``unit``'s model nearest ``target`` touches
        ``target``'s nearest model (never overlapping it), the side facing ``unit``
        first, then round the target; with ``cliff`` (inches), only places whose ground
        lies within that height of the target's (across a cliff face models do not
        touch). For a unit of several models, the places its centre would stand.
        They depend on the table and the two units' bases alone, so each set is kept
        with the table."""
        mine, theirs = self.bases_of(unit), self.bases_of(target)
        if not mine or not theirs:
            return ()
        lead = min(mine, key=lambda b: min(math.dist(b.centre, t.centre) for t in theirs))
        aim = min(theirs, key=lambda t: math.dist(lead.centre, t.centre))
        centre = self.centre_of(unit)
        offset = (centre[0] - lead.x, centre[1] - lead.y)
        key = (lead.x, lead.y, lead.diameter, aim.x, aim.y, aim.diameter, offset, cliff)
        return self.game.tape.kept(
            "board.contact_spots",
            key,
            lambda: _contact_spots(self.game.tape, lead, aim, offset, cliff),
        )


def _beside(path: Sequence[Point], near: Sequence[Base], width: float) -> list[Base]:
    """The bases of ``near`` that stand beside ``path``, in their order (those within the
    unit's ``width`` and their own radius, and a margin, of the path's box): the contact
    rule meets no other base on the way, so its answer holds while these stand where
    they stood."""
    xs = [p[0] for p in path]
    ys = [p[1] for p in path]
    low_x, high_x, low_y, high_y = min(xs), max(xs), min(ys), max(ys)
    reach = width + _BESIDE_SLACK
    return [
        b
        for b in near
        if low_x - reach - b.radius <= b.x <= high_x + reach + b.radius
        and low_y - reach - b.radius <= b.y <= high_y + reach + b.radius
    ]


def _contact_spots(
    tape: Tape, lead: Base, aim: Base, offset: tuple[float, float], cliff: float | None
) -> tuple[Point, ...]:
    """:meth:`Board.contact_spots` measured: the places of the mover's centre (its lead
    model ``offset`` from it) on the grid where the lead model touches ``aim``."""
    reach = aim.radius + lead.radius
    heading = math.atan2(lead.y - aim.y, lead.x - aim.x)
    height = tape.elevation(aim.centre) if cliff is not None else 0.0
    found: list[Point] = []
    ax, ay = aim.centre
    ox, oy = offset
    dist = math.dist
    for step in CONTACT_STEPS:
        angle = heading + math.radians(step * 15)
        ideal = (ax + reach * math.cos(angle) + ox, ay + reach * math.sin(angle) + oy)
        # the grid points round the ideal place of the centre, each coordinate rounded once
        xs = [round(ideal[0] + d, 1) for d in _NUDGES]
        ys = [round(ideal[1] + d, 1) for d in _NUDGES]
        best: Point | None = None
        best_off = 0.0
        for x in xs:
            for y in ys:
                gap = dist((x - ox, y - oy), (ax, ay)) - reach
                if -1e-6 <= gap <= GAP - 1e-9:
                    off = dist((x, y), ideal)
                    if best is None or off < best_off:
                        best, best_off = (x, y), off
        if best is None or best in found:
            continue
        if cliff is not None and abs(tape.elevation((best[0] - ox, best[1] - oy)) - height) > cliff:
            continue
        found.append(best)
    return tuple(found)


__all__ = ["CONTACT_STEPS", "BoardContactPlaces"]
