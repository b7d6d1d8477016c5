"""Where a unit of the board may stand: wholly on the table, out of ground impassable to
it, clear of every other model by the contact rule, never on an obstacle (a fence, a
trough, which moves cross and never end on); and the places that give cover.

Every move the board offers (:mod:`.walks`, :mod:`.making_way`) ends only where these
say a unit may stand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from shapely.geometry import LineString
from shapely.geometry import Point as ShapelyPoint

from kubik.game.battle.board.grid import GRID, on_grid
from kubik.game.battle.board.hooks import BoardHooks, U
from kubik.game.battle.contact import clear_of, touching
from kubik.table import Base, Cover, Point, Table, TableError, TerrainKind

if TYPE_CHECKING:
    from kubik.game.battle.battle import BattleGame

#: How far a base may reach over an obstacle's edge (a fence line, a trough's rim) and
#: still stand beside it, not on it: the grid's rounding (inches).
OBSTACLE_OVERLAP = GRID

#: Most places a table keeps :meth:`Board.on_obstacle` answers for (an engine limit).
_OBSTACLES_KEPT = 50_000


class BoardStanding(BoardHooks[U]):
    """Where it may stand: :meth:`fits`, :meth:`on_ground`, :meth:`on_obstacle`,
    :meth:`blocking` and :meth:`cover_spots`."""

    def __init__(self, game: BattleGame) -> None:
        super().__init__(game)
        #: whether a base (its centre and radius) stands on an obstacle, as measured: it
        #: depends on the table alone, so every battle on it shares what was measured
        self._on_obstacles: dict[tuple[float, float, float], bool] = game.tape.kept(
            "board.on_obstacle", None, dict
        )

    def blocking(self, unit: U, *, also: Iterable[U] = ()) -> list[Base]:
        """The bases a move of ``unit`` must keep clear of: every model on the table but
        its own, those of :meth:`besides` and of ``also`` (a charge's target)."""
        skip = (self.unit_id(unit), *(self.unit_id(u) for u in self.besides(unit)))
        skip += tuple(self.unit_id(u) for u in also)
        return list(self.game.kept(("board.blocking", skip), lambda: self._blocking(skip)))

    def _blocking(self, skip: tuple[str, ...]) -> tuple[Base, ...]:
        found: list[Base] = []
        for other in self.units():  # (a plain loop: asked for every way a menu walks)
            if self.unit_id(other) not in skip:
                found.extend(self.bases_of(other))
        return tuple(found)

    def on_ground(
        self, unit: U, point: Point, *, shape: Callable[[Point], Sequence[Base]] | None = None
    ) -> bool:
        """Whether ``unit`` standing at ``point`` is wholly on the table and out of
        ground impassable to it (a unit of one model: its base, but for a thousandth of
        an inch, so it may stand against a wall; of several, or ``shape`` given — its bases
        were it at a point, when it would stand otherwise than it stands now, e.g. a
        regiment turned to a new facing: each model's)."""
        bases = (shape or self.bases_at(unit))(point)
        if not self._on_table(bases):
            return False
        mover = self.mover_of(unit)
        if shape is not None or len(bases) > 1:  # every model on passable ground
            return self._passable(bases, mover)
        kind = self.game.tape.kind_at(point, mover, self.clearance_of(unit))
        return kind is not TerrainKind.IMPASSABLE

    def _on_table(self, bases: Sequence[Base]) -> bool:
        """Whether every base lies wholly on the table."""
        try:
            for base in bases:
                self.game.table.check_base(base)
        except TableError:
            return False
        return True

    def _passable(self, bases: Sequence[Base], mover: str | None) -> bool:
        """Whether every base stands out of ground impassable to ``mover``, but for a
        thousandth of an inch (so a model may stand against a wall)."""
        tape = self.game.tape
        return all(
            tape.kind_at(b.centre, mover, max(b.radius - 1e-3, 0.0)) is not TerrainKind.IMPASSABLE
            for b in bases
        )

    def bases_fit(self, unit: U, bases: Sequence[Base], *, with_own: Sequence[Base] = ()) -> bool:
        """Whether ``bases`` — where models of ``unit`` would stand, placed by people at a
        real table (a formation they made, a model moved on its own) — lie wholly on the
        table, out of ground impassable to it (each but for a thousandth of an inch) and
        clear of every other unit's model and of ``with_own`` (its models that stay where
        they are: models of one unit keep a gap too), by the contact rule."""
        if not (self._on_table(bases) and self._passable(bases, self.mover_of(unit))):
            return False
        return clear_of(list(bases), [*self.blocking(unit), *with_own])

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


def _on_obstacle(table: Table, base: tuple[float, float, float]) -> bool:
    """:meth:`Board.on_obstacle` for one base: its centre ``x, y`` and radius."""
    x, y, r = base
    centre = ShapelyPoint(x, y)
    return any(
        feature.obstacle and feature.shape.distance(centre) < r - OBSTACLE_OVERLAP
        for feature in table.candidates_in(x - r, y - r, x + r, y + r)
    )


__all__ = ["OBSTACLE_OVERLAP", "BoardStanding"]
