"""The board: the units on the table, as every ruleset's battle asks about them.

A ruleset keeps its own units (squads, warriors, regiments, single figures) and tells
the board a few things about each by filling the hooks of :class:`Board`: which units
there are, a unit's id and side, the bases of its models that take up room, and whether
it is still in the battle. The board answers the rest once, for every ruleset:

* who is who: :meth:`Board.enemies`, :meth:`Board.friends`, :meth:`Board.engaged`;
* how far: :meth:`Board.gap` (edge to edge, the nearest two bases, on the battle's one
  tape) and :meth:`Board.nearest`;
* what it sees: :meth:`Board.sees` and :meth:`Board.covers` (from the unit's eyes —
  every model, unless the ruleset says who looks, e.g. a squad's commander);
* where it may go: :meth:`Board.walk` (a walked way round terrain, as far as the
  movement rule's allowance goes, ended where the contact rule lets it end),
  :meth:`Board.charge_way` and :meth:`Board.contact_spots` (into base contact with a
  target), :meth:`Board.back_away` (a straight step away from threats),
  :meth:`Board.make_way` (out of contact anyway, the models in the way shuffling
  aside), :meth:`Board.cover_spots` (places that give cover), :meth:`Board.fits`
  (whether a unit may stand at a place) and :meth:`Board.on_obstacle` (whether it
  would stand on a fence or in a trough, which moves cross and never end on).

The board decides no rule: how far a unit may go, what a difficult way costs and
whether a place is allowed are the ruleset's movement rule's, passed in as numbers or
as the rule's own functions (``pace``, ``allowed``). What it measures is geometry and
the contact rule of the battle layer (:func:`~kubik.game.battle.settle`).

While a menu is measured (:meth:`~kubik.game.battle.BattleGame.still`) the board keeps
every answer it gives for the menu, and its measurements of where units stand
(:meth:`Board.gap`, :meth:`Board.sees`) for as long as those units stand where they
stood (:meth:`~kubik.game.battle.BattleGame.lasting`).
"""

from __future__ import annotations

import itertools
import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from shapely.geometry import LineString
from shapely.geometry import Point as ShapelyPoint

from kubik.game.battle.contact import GAP, clear_of, settle, touching
from kubik.table import Base, Cover, Point, Table, TableError, TerrainKind
from kubik.table.geometry import point_segment_distance
from kubik.table.tape import Tape, along

if TYPE_CHECKING:
    from kubik.game.battle.battle import BattleGame

U = TypeVar("U")
#: What a board's memo answers for a question not asked yet (an answer may be None).
_MISSING: Any = object()
#: The grid every place a board offers lies on (inches): a spot typed or moved to.
GRID = 0.1
#: The directions round a target a charger's contact spots are tried in, in steps of
#: 15 degrees from the side facing him (the side facing him first, then round it).
CONTACT_STEPS: tuple[int, ...] = (0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6, 8, -8, 10, -10, 12)
#: The nudges (inches) onto the grid round an ideal contact place, in the order tried.
_NUDGES = (0.0, 0.1, -0.1)
#: Inches of measuring slack (rounding to the grid, placing by hand): a way that costs
#: this much more than its allowance still fits it.
SLACK = 0.05
#: How far a base may reach over an obstacle's edge (a fence line, a trough's rim) and
#: still stand beside it, not on it: the grid's rounding (inches).
OBSTACLE_OVERLAP = GRID


def on_grid(point: Sequence[float]) -> Point:
    """``point`` on the board's 0.1-inch grid.

    >>> on_grid((1.04, 2.96))
    (1.0, 3.0)
    """
    return (round(float(point[0]), 1), round(float(point[1]), 1))


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


@dataclass(frozen=True, slots=True)
class MadeWay(Generic[U]):
    """Where a unit that could not step back ends out of contact anyway (``spot``, on the
    grid), and the place each model in its way shuffles aside to (``shuffles``: the
    unit and where its centre goes), in the order they move."""

    spot: Point
    shuffles: tuple[tuple[U, Point], ...] = ()


#: Most places a table keeps :meth:`Board.on_obstacle` answers for (an engine limit).
_OBSTACLES_KEPT = 50_000


#: How a ruleset's movement rule prices a way: the way's points → inches of allowance it
#: costs (infinite: it may not be taken). The board's default prices it by the table's
#: terrain kinds for the unit's mover type (difficult ground twice, very difficult thrice).
Pace = Callable[[Sequence[Point]], float]
#: How far along a way (its points) a unit gets with an allowance, as its movement rule
#: says: inches along the way.
Reach = Callable[[Sequence[Point], float], float]


class Board(ABC, Generic[U]):
    """The units of one battle on its table; a ruleset subclasses it and fills the hooks.

    Hooks a ruleset fills
        :meth:`units`      every unit, in a fixed order (the scenario's)
        :meth:`unit_id`    a unit's id (what engagements and the contact rule name)
        :meth:`side_of`    the side a unit fights for
        :meth:`bases_of`   the bases of its models taking up room on the table now
        :meth:`in_battle`  whether it is still in the battle (on the table, fighting)

    Optional hooks (with defaults)
        :meth:`eyes_of`     the bases a unit looks from (every model of it)
        :meth:`mover_of`    the table's mover type for a unit (its row of a terrain
                            table; ``None``: every feature counts as for anyone)
        :meth:`clearance_of` how far the unit reaches from its centre (how wide a way
                            it needs round impassable ground; its one base's radius)
        :meth:`centre_of`   the point a unit moves by (its one model's centre)
        :meth:`bases_at`    its bases were its centre at a point (it moves as it stands)
        :meth:`besides`     units that move with it and never block it (riders aboard)
    """

    #: How finely a way round impassable ground samples the features' edges (inches).
    detour_step: float = 2.0

    def __init__(self, game: BattleGame) -> None:
        self.game = game
        #: whether a base (its centre and radius) stands on an obstacle, as measured: it
        #: depends on the table alone, so every battle on it shares what was measured
        self._on_obstacles: dict[tuple[float, float, float], bool] = game.tape.kept(
            "board.on_obstacle", None, dict
        )

    # -- hooks a ruleset fills -------------------------------------------------------

    @abstractmethod
    def units(self) -> Sequence[U]:
        """Every unit of the battle, in a fixed order."""

    @abstractmethod
    def unit_id(self, unit: U) -> str:
        """The unit's id."""

    @abstractmethod
    def side_of(self, unit: U) -> str:
        """The side ``unit`` fights for."""

    @abstractmethod
    def bases_of(self, unit: U) -> Sequence[Base]:
        """The bases of ``unit``'s models that take up room on the table now."""

    @abstractmethod
    def in_battle(self, unit: U) -> bool:
        """Whether ``unit`` is still in the battle (on the table and fighting)."""

    def eyes_of(self, unit: U) -> Sequence[Base]:
        """The bases ``unit`` looks from (default: every model of it)."""
        return self.bases_of(unit)

    def mover_of(self, unit: U) -> str | None:
        """The table's mover type for ``unit`` (default: none, every feature as written)."""
        return None

    def clearance_of(self, unit: U) -> float:
        """How far ``unit`` reaches from :meth:`centre_of`, bases included (default: its
        first base's radius, less a thousandth so a base may stand against a wall)."""
        bases = self.bases_of(unit)
        return bases[0].radius - 1e-3 if bases else 0.5

    def centre_of(self, unit: U) -> Point:
        """The point ``unit`` moves by (default: its first model's centre)."""
        return self.bases_of(unit)[0].centre

    def bases_at(self, unit: U) -> Callable[[Point], Sequence[Base]]:
        """``unit``'s bases were its :meth:`centre_of` at a point (default: every base
        keeps its offset from it: the unit moves as it stands)."""
        cx, cy = self.centre_of(unit)
        shape = [(b.x - cx, b.y - cy, b.diameter, b.id) for b in self.bases_of(unit)]
        if len(shape) == 1:
            only = self.bases_of(unit)[0]
            return lambda point: [only.moved_to(point)]
        return lambda point: [Base(point[0] + dx, point[1] + dy, d, i) for dx, dy, d, i in shape]

    def besides(self, unit: U) -> Sequence[U]:
        """Units that go where ``unit`` goes and never block its moves (default: none)."""
        return ()

    # -- who is who --------------------------------------------------------------------

    def unit(self, unit_id: str) -> U:
        """The unit called ``unit_id``."""
        for unit in self.units():
            if self.unit_id(unit) == unit_id:
                return unit
        raise KeyError(unit_id)

    def enemies(self, unit: U) -> list[U]:
        """The units of every other side still in the battle, in order."""
        side = self.side_of(unit)
        return [u for u in self.units() if self.side_of(u) != side and self.in_battle(u)]

    def friends(self, unit: U) -> list[U]:
        """The other units of ``unit``'s side still in the battle, in order."""
        side, own = self.side_of(unit), self.unit_id(unit)
        return [
            u
            for u in self.units()
            if self.side_of(u) == side and self.unit_id(u) != own and self.in_battle(u)
        ]

    def engaged(self, unit: U) -> list[U]:
        """The units ``unit`` is in a fight with (a charge brought them into contact and
        nothing has parted them), still in the battle, in the order the fights began."""
        found = self.game.contacts.of(self.unit_id(unit))
        if not found:
            return []
        return [u for u in (self.unit(i) for i in found) if self.in_battle(u)]

    def is_engaged(self, unit: U) -> bool:
        """Whether ``unit`` is in a fight with a unit still in the battle."""
        return bool(self.engaged(unit))

    # -- how far -------------------------------------------------------------------------

    def gap(self, a: U, b: U) -> float:
        """Inches between the nearest models of ``a`` and ``b``, edge to edge (unrounded;
        0 when they touch). Kept while both stand where they stood."""
        game = self.game
        if not game.measuring:
            return self.gap_from(self.bases_of(a), b)
        return game.lasting(
            ("board.gap", self.shape(a), self.shape(b)),
            lambda: self.gap_from(self.bases_of(a), b),
        )

    def gap_from(self, bases: Sequence[Base], b: U) -> float:
        """Inches from ``bases`` (where a unit would stand) to ``b``'s nearest model."""
        theirs = self.bases_of(b)
        if not bases or not theirs:
            return math.inf
        return Tape.closest(bases, theirs)

    def nearest(self, unit: U, among: Iterable[U] | None = None) -> U | None:
        """The unit of ``among`` (default: its enemies) nearest ``unit`` by :meth:`gap`;
        between equally near ones, the first in order."""
        candidates = list(self.enemies(unit) if among is None else among)
        if not candidates:
            return None
        return min(candidates, key=lambda other: self.gap(unit, other))

    def within(self, unit: U, inches: float, among: Iterable[U] | None = None) -> list[U]:
        """The units of ``among`` (default: its enemies) within ``inches`` of ``unit``."""
        candidates = self.enemies(unit) if among is None else among
        return [other for other in candidates if self.gap(unit, other) <= inches + 1e-9]

    def nearest_gap(self, unit: U, point: Point, among: Iterable[U] | None = None) -> float:
        """Inches from ``unit`` standing at ``point`` to the nearest unit of ``among``
        (default: its enemies), edge to edge (unrounded; infinite when there is none):
        how near a move would take it (a control zone, a charge's reach)."""
        candidates = self.enemies(unit) if among is None else among
        bases_of = self.bases_of
        theirs = [b for other in candidates for b in bases_of(other)]
        if not theirs:
            return math.inf
        return Tape.closest(self.bases_at(unit)(point), theirs)

    # -- what it sees ----------------------------------------------------------------------

    def sees(self, viewer: U, target: U) -> bool:
        """Whether any of ``viewer``'s eyes sees any model of ``target`` (the table's line
        of sight). Kept while both stand where they stood."""
        game = self.game
        if not game.measuring:
            return self._sees(viewer, target)
        return game.lasting(
            ("board.sees", self.shape(viewer), self.shape(target)),
            lambda: self._sees(viewer, target),
        )

    def _sees(self, viewer: U, target: U) -> bool:
        sees = self.game.tape.sees
        theirs = self.bases_of(target)
        return any(sees(eye, b) for eye in self.eyes_of(viewer) for b in theirs)

    def covers(self, viewer: U, target: U) -> tuple[Cover, ...]:
        """The cover each model of ``target`` has against ``viewer`` (from the eye nearest
        it), in the order of :meth:`bases_of`. How a unit's cover follows from its models'
        is the ruleset's rule."""
        eyes = self.eyes_of(viewer)
        if not eyes:
            return tuple(Cover.NONE for _ in self.bases_of(target))
        cover = self.game.tape.cover
        out = []
        for b in self.bases_of(target):
            eye = min(eyes, key=lambda e: math.dist(e.centre, b.centre))
            out.append(cover(eye, b))
        return tuple(out)

    def cover(self, viewer: U, target: U) -> Cover:
        """The best cover any model of ``target`` has against ``viewer`` (for units of one
        model, simply its cover)."""
        return Cover.best(self.covers(viewer, target))

    def sees_from(self, bases: Sequence[Base], target: U) -> bool:
        """Whether models standing at ``bases`` (where a unit would stand) would see any
        model of ``target``: sight from a place a move is weighed at."""
        sees = self.game.tape.sees
        theirs = self.bases_of(target)
        if len(bases) == 1 and len(theirs) == 1:  # (one model each: one line of sight)
            return sees(bases[0], theirs[0])
        return any(sees(eye, b) for eye in bases for b in theirs)

    def cover_at(self, bases: Sequence[Base], viewer: U) -> Cover:
        """The best cover models standing at ``bases`` (where a unit would stand) would
        have against ``viewer`` (from the eye nearest each): cover at a place a move is
        weighed at."""
        eyes = self.eyes_of(viewer)
        if not eyes:
            return Cover.NONE
        cover = self.game.tape.cover
        if len(eyes) == 1 and len(bases) == 1:  # (one model each: one line of fire)
            return cover(eyes[0], bases[0])
        return Cover.best(
            tuple(cover(min(eyes, key=lambda e: math.dist(e.centre, b.centre)), b) for b in bases)
        )

    # -- where it stands, as a key ------------------------------------------------------------

    def shape(self, unit: U) -> int:
        """Where ``unit``'s models stand, as a small number
        (:meth:`~kubik.game.battle.BattleGame.shape_id`): a measurement kept under it holds
        until one of them moves or falls. Made once per menu."""
        game = self.game
        key = ("board.shape", self.unit_id(unit))
        found: int | None = game.kept_now(key)
        if found is None:
            found = game.kept(
                key,
                lambda: game.shape_id(
                    (self.unit_id(unit), tuple((b.x, b.y, b.diameter) for b in self.bases_of(unit)))
                ),
            )
        return found

    # -- where it may stand ------------------------------------------------------------------

    def blocking(self, unit: U, *, also: Iterable[U] = ()) -> list[Base]:
        """The bases a move of ``unit`` must keep clear of: every model on the table but
        its own, those of :meth:`besides` and of ``also`` (a charge's target)."""
        skip = {self.unit_id(unit), *(self.unit_id(u) for u in self.besides(unit))}
        skip.update(self.unit_id(u) for u in also)
        return [p.base for p in self.game.bodies(besides=tuple(skip))]

    def on_ground(self, unit: U, point: Point) -> bool:
        """Whether ``unit`` standing at ``point`` is wholly on the table and out of
        ground impassable to it."""
        table, tape = self.game.table, self.game.tape
        try:
            for base in self.bases_at(unit)(point):
                table.check_base(base)
        except TableError:
            return False
        kind = tape.kind_at(point, self.mover_of(unit), self.clearance_of(unit))
        return kind is not TerrainKind.IMPASSABLE

    def fits(self, unit: U, point: Point, *, touch: U | None = None) -> bool:
        """Whether ``unit`` may stand at ``point``: on passable ground, touching no other
        model (the contact rule) — ``touch``, a charge's target, may be touched, never
        overlapped."""
        if not self.on_ground(unit, point):
            return False
        allowed = list(self.bases_of(touch)) if touch is not None else []
        others = self.blocking(unit, also=(touch,) if touch is not None else ())
        return clear_of(list(self.bases_at(unit)(point)), others, may_touch=allowed)

    def touching(self, unit: U, other: U) -> bool:
        """Whether any model of ``unit`` is in base contact with one of ``other``."""
        theirs = self.bases_of(other)
        return any(touching(a, b) for a in self.bases_of(unit) for b in theirs)

    def on_obstacle(self, unit: U, point: Point) -> bool:
        """Whether ``unit`` standing at ``point`` would stand on an obstacle (a fence, a
        wall, a trough): a base reaching more than :data:`OBSTACLE_OVERLAP` over its edge.
        Moves cross obstacles and end beside them, never on them. Kept with the table."""
        known = self._on_obstacles
        for base in self.bases_at(unit)(point):
            key = (base.x, base.y, base.radius)
            found = known.get(key)
            if found is None:
                if len(known) >= _OBSTACLES_KEPT:
                    known.clear()
                found = known[key] = _on_obstacle(self.game.table, key)
            if found:
                return True
        return False

    def obstacle_span(
        self, unit: U, points: Sequence[Point], feature_id: str
    ) -> tuple[float, float] | None:
        """Where along ``points`` (inches from their start) ``unit``'s base would first
        touch obstacle ``feature_id``, and where, crossing it, it leaves it again; ``None``
        when the way never meets it. A model that fails to cross stops at the first, beside
        it; one that clears it lands at the second, beside it on the far side."""
        reach = max((b.radius for b in self.bases_of(unit)), default=0.5)
        line = LineString([(float(x), float(y)) for x, y in points])
        zone = self.game.table.feature(feature_id).shape.buffer(reach)
        met = line.intersection(zone)
        if met.is_empty:
            return None
        ends = [
            line.project(ShapelyPoint(c)) for g in getattr(met, "geoms", [met]) for c in g.coords
        ]
        return (min(ends), max(ends))

    # -- where it may go ---------------------------------------------------------------------

    def way(self, unit: U, goal: Point) -> tuple[Point, ...] | None:
        """The way ``unit`` takes to ``goal``: straight where the terrain lets it through,
        else the cheapest way round impassable ground (``None``: there is none)."""
        found = self.game.tape.way(
            self.centre_of(unit),
            goal,
            self.mover_of(unit),
            self.clearance_of(unit),
            detour_step=self.detour_step,
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
    ) -> Walk | None:
        """Where ``unit`` gets walking toward ``goal`` with ``allowance`` inches: along
        :meth:`way` (or ``way`` given), stopping ``short`` inches before its end, as far
        as ``reach`` (the ruleset's movement rule; default :meth:`reach`) lets the
        allowance go, and then where the contact rule lets it end — never through a
        model, never touching one but ``target`` (a charge's, touched never overlapped).
        ``within``: the end, on the grid, never costs more than the allowance (rounded
        inside the limit, never past it); ``stands(place)``: the ruleset's word on where
        the unit may end (never on a fence: :meth:`on_obstacle`) — else the walk ends at
        the last place before it, along its path, where it may. ``None`` when no way
        leads there or no place of it is clear."""
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
        touchable = list(self.bases_of(target)) if target is not None else []
        others = self.blocking(unit, also=(target,) if target is not None else ())
        end = settle(path, self.bases_at(unit), others, may_touch=touchable)
        if end is None:
            return None
        priced = pace or self.pace(unit)
        cost = priced(points)
        if within or stands is not None:
            limit = allowance if within else None
            # on open ground a way costs its length: a place needs no pricing of its own
            level = abs(cost - sum(math.dist(p, q) for p, q in itertools.pairwise(points))) < 1e-9
            end = self._standing_end(
                unit, points, path, end, others, priced, limit, stands, level=level
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
    ) -> Point | None:
        """``end``, or the last place on the grid before it along ``path`` that costs no
        more than ``limit`` (from the way's start, ``points``; ``level``: it is open
        ground all the way, costing its length) and where ``stands`` lets the unit end;
        clear of every model (``others``). ``None``: no such place."""
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
        bases_at = self.bases_at(unit)
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
    ) -> Walk | None:
        """The cheapest way ``unit`` can walk into base contact with ``target`` within
        ``allowance`` (priced by ``pace``, the ruleset's movement rule; default
        :meth:`pace`), give or take ``slack`` inches: a way round terrain and models that
        ends touching ``target`` and no other model. ``allowed(spot)``: the ruleset's own
        word on a place (its movement rule); ``None`` when no such way exists — a charge
        that could not reach."""
        here = self.centre_of(unit)
        priced = pace or self.pace(unit)
        around = 2 * (self.clearance_of(unit) + self.clearance_of(target)) + 1.0
        floor = math.inf  # a straight way over open ground that was too long: no farther
        for spot in self.contact_spots(unit, target, cliff=cliff):
            straight = math.dist(here, spot)
            if straight > allowance + slack or straight >= floor:
                continue  # a way is never shorter than the straight line
            if not self.fits(unit, spot, touch=target):
                continue
            if allowed is not None and not allowed(spot):
                continue
            points = self.way(unit, spot)
            if points is None:
                continue
            cost = priced(points)
            if cost > allowance + slack:
                if cost > allowance + slack + around:
                    break  # every other place round it is as far, give or take its width
                if len(points) == 2 and abs(cost - straight) < 1e-9:
                    floor = min(floor, straight)
                continue
            touchable = list(self.bases_of(target))
            end = settle(
                points,
                self.bases_at(unit),
                self.blocking(unit, also=(target,)),
                may_touch=touchable,
            )
            if end == spot:
                return Walk(points, points, spot, round(length_along(points, spot), 1), cost)
        return None

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

    def cover_spots(self, unit: U, gap: float) -> tuple[Point, ...]:
        """Places where ``unit`` would take cover: one inside each area of cover it may
        enter and stand in (a barrel pile, a porch; not an obstacle such as a trough,
        which models cross and never stand in) and, round every feature that gives cover, a place
        every 2 inches just outside it (``gap`` inches off its edge: behind a wall or a
        fence). They depend on the table and the unit's mover type and shape alone, so
        each set is kept with the table."""
        centre = self.centre_of(unit)
        shape = tuple((b.x - centre[0], b.y - centre[1], b.diameter) for b in self.bases_of(unit))
        mover, clearance = self.mover_of(unit), self.clearance_of(unit)
        return self.game.tape.kept(
            "board.cover_spots",
            (mover, clearance, gap, shape),
            lambda: self._cover_spots(unit, mover, clearance, gap),
        )

    def _cover_spots(
        self, unit: U, mover: str | None, clearance: float, gap: float
    ) -> tuple[Point, ...]:
        table, tape = self.game.table, self.game.tape
        spots: list[Point] = []
        for feature in table.features:
            if feature.cover is Cover.NONE:
                continue
            enterable = feature.kind_for(mover) is not TerrainKind.IMPASSABLE
            if feature.is_area and enterable and not feature.obstacle:
                inside = feature.shape.representative_point()
                spot = on_grid((float(inside.x), float(inside.y)))
                if self.on_ground(unit, spot):
                    spots.append(spot)
            spots.extend(tape.around(feature.id, clearance, gap, mover))
        return tuple(dict.fromkeys(spots))


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


def _on_obstacle(table: Table, base: tuple[float, float, float]) -> bool:
    """:meth:`Board.on_obstacle` for one base: its centre ``x, y`` and radius."""
    x, y, r = base
    centre = ShapelyPoint(x, y)
    return any(
        feature.obstacle and feature.shape.distance(centre) < r - OBSTACLE_OVERLAP
        for feature in table.candidates_in(x - r, y - r, x + r, y + r)
    )


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


__all__ = [
    "CONTACT_STEPS",
    "GRID",
    "OBSTACLE_OVERLAP",
    "SLACK",
    "Board",
    "MadeWay",
    "Pace",
    "Reach",
    "Walk",
    "away_from",
    "length_along",
    "on_grid",
]
