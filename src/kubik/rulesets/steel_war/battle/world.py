"""The battlefield with its squads: the questions every action asks about the table.

:class:`World` holds the table, the squads (in scenario order) and the sides'
settings, and answers "who is the nearest enemy", "can this squad see that one",
"how far apart are they" — measured with :mod:`kubik.table` through :mod:`.field`.
"""

from __future__ import annotations

from dataclasses import dataclass

from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.fire import Cover, max_zone, range_zone
from kubik.rulesets.steel_war.movement import MoverType
from kubik.rulesets.steel_war.situation import UnitSituation
from kubik.table import Cover as TableCover
from kubik.table import Table

from . import field
from .measure import Measure
from .profiles import vehicle_profile
from .spec import ObjectiveSpec
from .state import Squad, Status


@dataclass(frozen=True, slots=True)
class Sight:
    """What one squad measures of another: distance (0.1"), sight, cover and who is in it."""

    distance: float
    visible: bool
    cover: Cover
    in_cover: tuple[bool, ...]  # per active model of the target


class World:
    """Table, squads and sides; measurements are recomputed on demand (positions change)."""

    def __init__(
        self,
        table: Table,
        squads: list[Squad],
        sides: tuple[str, ...],
        objectives: tuple[ObjectiveSpec, ...] = (),
    ) -> None:
        self.table = table
        self.squads = squads
        self.sides = sides
        self.objectives = objectives
        self.measure = Measure(table)
        # memoised measurements, keyed by where the models stand (positions change)
        self._memo: dict[tuple[object, ...], object] = {}

    def squad(self, squad_id: str) -> Squad:
        """The squad called ``squad_id``."""
        return next(s for s in self.squads if s.id == squad_id)

    def of_side(self, side: str) -> list[Squad]:
        """The side's squads still in the battle, in scenario order."""
        return [s for s in self.squads if s.side == side and s.present]

    def enemies(self, squad: Squad) -> list[Squad]:
        """Enemy units on the table (not riding inside a vehicle)."""
        return [s for s in self.squads if s.side != squad.side and s.on_table]

    def friends(self, squad: Squad) -> list[Squad]:
        """Other friendly units on the table (not riding inside a vehicle)."""
        return [s for s in self.squads if s.side == squad.side and s.on_table and s is not squad]

    def passengers(self, vehicle: Squad) -> list[Squad]:
        """The squads riding in ``vehicle``."""
        return [s for s in self.squads if s.aboard == vehicle.id and s.present]

    @staticmethod
    def _where(squad: Squad) -> tuple[tuple[float, float], ...]:
        return tuple(m.point for m in squad.active())

    def distance(self, a: Squad, b: Squad) -> float:
        """Edge distance between the squads' closest fighting models, to 0.1 inch."""
        key = ("distance", self._where(a), self._where(b))
        if key not in self._memo:
            self._memo[key] = field.inches(self.measure.closest(key[1], key[2]))
        found = self._memo[key]
        assert isinstance(found, float)
        return found

    def sees(self, viewer: Squad, target: Squad) -> bool:
        """Whether the viewer's commander sees any fighting model of the target."""
        key = ("sees", viewer.anchor().centre, self._where(target))
        if key not in self._memo:
            self._memo[key] = self.measure.sees(viewer.anchor().centre, self._where(target))
        return bool(self._memo[key])

    def sight(self, shooter: Squad, target: Squad) -> Sight:
        """Distance, line of sight and cover of ``target`` as ``shooter`` measures it.

        Cover is measured only for a target the shooter sees within zone 5 (nothing
        else can be fired at, SW-FIRE-06); otherwise it reads as none.
        """
        key = ("sight", shooter.anchor().centre, self._where(shooter), self._where(target))
        if key not in self._memo:
            distance = self.distance(shooter, target)
            visible = self.sees(shooter, target)
            if visible and range_zone(shooter.die, distance) <= max_zone():
                cover, in_cover = self.measure.target_cover(
                    shooter.anchor().centre, self._where(target)
                )
            else:
                cover, in_cover = Cover.NONE, (False,) * len(target.active())
            self._memo[key] = Sight(distance, visible, cover, in_cover)
        found = self._memo[key]
        assert isinstance(found, Sight)
        return found

    def nearest_enemy(self, squad: Squad) -> tuple[Squad, float] | None:
        """The closest enemy squad and its distance (None when no enemy is left)."""
        found = [(self.distance(squad, e), i, e) for i, e in enumerate(self.enemies(squad))]
        if not found:
            return None
        d, _, enemy = min(found, key=lambda t: (t[0], t[1]))
        return enemy, d

    def nearest_friend(self, squad: Squad) -> float | None:
        """Inches to the closest other friendly squad (None when there is none)."""
        found = [self.distance(squad, f) for f in self.friends(squad)]
        return min(found) if found else None

    def in_cover(self, squad: Squad) -> bool:
        """Whether at least half its fighting models stand in a feature giving cover."""
        models = squad.active()
        if not models:
            return False
        covered = sum(1 for m in models if self.measure.standing(m.point) is not TableCover.NONE)
        return 2 * covered >= len(models)

    def in_water(self, squad: Squad) -> bool:
        """Whether its commander stands in water (no going to ground, SW-FIRE-07)."""
        return self.measure.in_water(squad.anchor().centre)

    def situation(
        self, squad: Squad, done: tuple[ActionType, ...] = (), *, passed: bool = False
    ) -> UnitSituation:
        """The plain facts the rules' questions of legality take about ``squad`` now."""
        return UnitSituation(
            kind=self.kind(squad),
            level=squad.level,
            markers=squad.markers,
            prone=squad.prone,
            in_cover=self.in_cover(squad),
            in_water=self.in_water(squad),
            panicked=squad.panicked,
            berserk=squad.berserk,
            done=done,
            failed=squad.failed,
            marched=squad.marched,
            immobilised=squad.immobilised,
            aboard=squad.aboard is not None,
            in_melee=squad.melee_with is not None,
            officer=squad.spec.officer,
            psi=squad.psi,
            passed=passed,
        )

    @staticmethod
    def kind(squad: Squad) -> MoverType:
        """What the squad is for the rules: infantry, or its vehicle's row of the terrain table."""
        return vehicle_profile(squad.spec.vehicle).mover if squad.is_vehicle else MoverType.INFANTRY

    def update_left_behind(self, squad: Squad) -> None:
        """Wounded left behind: an unverified casualty closer to an enemy than to his squad
        (SW-MOR-06, last row)."""
        wounded = squad.with_status(Status.UNVERIFIED)
        living = squad.bases()
        enemies = [b for e in self.enemies(squad) for b in e.bases()]
        if not wounded or not enemies or not living:
            squad.wounded_left_behind = False
            return
        squad.wounded_left_behind = any(
            field.closest([w.base()], enemies) < field.closest([w.base()], living) for w in wounded
        )

    def controller(self, objective: ObjectiveSpec) -> str | None:
        """The side holding an objective: effective models within reach, no enemy within it."""
        reach = float(field.game_data()["game_objectives"]["control_inches"])
        holders: list[str] = []
        for squad in self.squads:
            if not squad.effective or not squad.on_table:
                continue
            near = any(
                ((m.x - objective.x) ** 2 + (m.y - objective.y) ** 2) ** 0.5
                - field.base_diameter() / 2
                <= reach
                for m in squad.active()
            )
            if near and squad.side not in holders:
                holders.append(squad.side)
        return holders[0] if len(holders) == 1 else None


__all__ = ["Sight", "World"]
