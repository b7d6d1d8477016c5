"""The battlefield with its squads: state on the battle object, questions asked of the board.

:class:`Battlefield` is the Steel War battle on the shared layer
(:class:`~kubik.game.battle.BattleGame`) without its turn structure: it holds the
squads, the sides and the objectives, shows every model to the layer as a
:class:`~kubik.game.battle.Piece`, and answers what every action asks about the table
— distances, sight, cover, who hides — through the layer's board (:attr:`board`, its
hooks :class:`~.board.SquadBoard`), turned into the plain facts the rules take
(:meth:`situation`). :class:`~.game.SteelWarGame` adds the turns.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any

from kubik.core.keeping import Kept
from kubik.engine import Message, msg
from kubik.engine.applied import deciding, deciding_cache, replayed
from kubik.game import Scenario
from kubik.game.battle import BattleGame, Piece, Posture
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.damage import TargetKind
from kubik.rulesets.steel_war.defaults import control_inches
from kubik.rulesets.steel_war.fire import Cover, max_zone, range_zone, reach_inches, squad_cover
from kubik.rulesets.steel_war.fire_weapons import weapon
from kubik.rulesets.steel_war.movement import Terrain, TerrainClass, base_speed, terrain_class
from kubik.rulesets.steel_war.movers import MoverType
from kubik.rulesets.steel_war.observation import is_hidden
from kubik.rulesets.steel_war.situation import UnitSituation
from kubik.rulesets.steel_war.vehicles import vehicle_profile
from kubik.table import Cover as TableCover
from kubik.table.geometry import Point

from .board import SquadBoard
from .setup import SideStart, check, side_start, squads_of
from .spec import ObjectiveSpec
from .state import Squad, Status
from .terrain import read_terrain

#: :func:`~kubik.rulesets.steel_war.movement.base_speed`, read once per kind of unit (its
#: numbers are the ruleset's data, loaded once).
_base_speed = deciding_cache(None)(base_speed)

_COVER = {TableCover.NONE: Cover.NONE, TableCover.LIGHT: Cover.LIGHT, TableCover.HARD: Cover.HARD}


#: The roles Steel War's rules name the squad a rule is about by (who rolls).
_OWN_ROLES = ("squad", "target", "owner", "mover", "attacker", "observer", "psionic", "officer")


@dataclass(frozen=True, slots=True)
class Sight:
    """What one squad measures of another: distance (0.1"), sight, cover, who of the
    target stands in cover (where they stand alone decide it: whether the target hides
    is :meth:`Battlefield.hidden`'s, asked where it matters)."""

    distance: float
    visible: bool
    cover: Cover
    in_cover: tuple[bool, ...]  # per fighting model of the target


class Battlefield(BattleGame):
    """Squads, sides and objectives on the table; measurements through :attr:`tape`."""

    def __init__(self, scenario: Scenario, options: Mapping[str, Any]) -> None:
        super().__init__(scenario, options)
        checked = check(scenario, options)
        self.squads: list[Squad] = squads_of(scenario, checked)
        self.sides: tuple[str, ...] = scenario.side_ids
        self.objectives: tuple[ObjectiveSpec, ...] = checked.end.objectives
        self.at_table: bool = checked.options.table
        #: attackers the last free fire at a charge put down (the interrupt's answer)
        self.free_fire_casualties: int = 0
        self.starts: dict[str, SideStart] = {
            side: side_start(checked.options, side) for side in self.sides
        }
        for squad in self.squads:
            en, ru = squad.spec.display_name
            self.set_name(squad.id, en, ru)
            for n, model in enumerate(squad.models, start=1):
                self.set_name(model.id, f"{en}, #{n}", f"{ru}, №{n}")
        for objective in self.objectives:
            self.set_name(objective.id, objective.name or objective.id, objective.name_ru)
        self.terrain_types: dict[str, Terrain] = {
            str(entry["id"]): Terrain(entry["terrain"])
            for entry in scenario.terrain
            if "terrain" in entry
        }
        #: the seed's terrain types, as a key (tables are shared between scenarios)
        self._terrain_key = tuple(self.terrain_types.items())
        #: the squads on the layer's board: who is who, gaps, sight, walks
        self.board = SquadBoard(self, self.squads, self.kind)

    @classmethod
    def prepare_terrain(cls, index: int, entry: Mapping[str, Any]) -> Mapping[str, Any]:
        """The seed's terrain table classes every feature per kind of unit (SW-MOVE-03)."""
        return read_terrain(index, entry)

    # -- the layer's view ---------------------------------------------------------

    def pieces(self) -> tuple[Piece, ...]:
        """Every model of the battle, in scenario order."""
        out = []
        for squad in self.squads:
            for model in squad.models:
                posture = squad.posture if model.status is Status.ACTIVE else Posture.STANDING
                out.append(
                    Piece(
                        model.id,
                        squad.id,
                        squad.side,
                        model.base(),
                        squad.presence_of(model),
                        posture,
                    )
                )
        return tuple(out)

    def view(self, side: str | None) -> dict[str, Any]:
        """Every model on the table and each squad's markers, all open at a real table:
        suppression markers, morale level, panic, «Ни шагу назад!», gone to ground."""
        shown = super().view(side)
        shown["units"] = [
            {
                "id": squad.id,
                "side": squad.side,
                "suppression": squad.markers,
                "morale": squad.level.value,
                "panic": squad.panic.value,
                "stance": squad.stance.value,
                "prone": squad.prone,
            }
            for squad in self.squads
            if squad.on_table
        ]
        return shown

    def reaches(self, unit: str) -> list[tuple[Message | None, float]]:
        """Each weapon the squad's models carry, as far as it fires for the squad's
        quality (SW-FIRE-06, SW-FIRE-11: :func:`~kubik.rulesets.steel_war.fire.reach_inches`)."""
        squad = next((s for s in self.squads if s.id == unit), None)
        if squad is None:
            return []
        carried = dict.fromkeys(m.weapon for m in squad.active() if m.weapon)
        found = [(weapon(w), float(reach_inches(weapon(w), squad.die))) for w in carried]
        named = [(msg("game.name", en=w.id.replace("_", " "), ru=w.name_ru), r) for w, r in found]
        return sorted(named, key=lambda wr: -wr[1])

    # -- who is where -------------------------------------------------------------

    def rolling(self, squad: Squad, **others: Squad) -> AbstractContextManager[None]:
        """The roles of a rule applied to ``squad``, by name, for people rolling at a
        table (:meth:`~kubik.game.battle.BattleGame.cast`): the squad in every role a rule
        about one squad gives it (the squad, the target, the mover …), ``others`` in
        theirs (``shooter=…``)."""
        name = self.name(squad.id)
        roles = dict.fromkeys(_OWN_ROLES, name)
        roles.update({role: self.name(other.id) for role, other in others.items()})
        return self.cast(**roles)

    def squad(self, squad_id: str) -> Squad:
        """The squad called ``squad_id``."""
        return next(s for s in self.squads if s.id == squad_id)

    def of_side(self, side: str) -> list[Squad]:
        """The side's units still in the battle, in scenario order."""
        return [s for s in self.squads if s.side == side and s.present]

    def enemies(self, squad: Squad) -> list[Squad]:
        """Enemy units on the table (not riding inside a vehicle)."""
        return self.board.enemies(squad)

    def friends(self, squad: Squad) -> list[Squad]:
        """Other friendly units on the table (not riding inside a vehicle)."""
        return self.board.friends(squad)

    def passengers(self, vehicle: Squad) -> list[Squad]:
        """The squads riding in ``vehicle``."""
        return list(self.board.besides(vehicle))

    def kind(self, squad: Squad) -> MoverType:
        """What the unit is for the rules: its row of the terrain table (SW-MOVE-03). A
        squad that lost its horses or suits in part moves as infantry."""
        memo = self._still
        if memo is None:
            return self._kind(squad)
        key = ("kind", squad.id)
        found: MoverType | None = memo.get(key)  # (asked a dozen times a menu)
        if found is None:  # (its models' kinds alone decide it: kept while they stand)
            found = memo[key] = self.lasting(
                ("kind", self.board.shape(squad)), lambda: self._kind(squad)
            )
        return found

    # -- where things stand, for measurements kept the whole battle ----------------

    def shape(self, squad: Squad) -> int:
        """Where the squad's fighting models stand and what they are, as a number
        (:meth:`~kubik.game.battle.BattleGame.shape_id`): a measurement of the squad
        kept under it holds until one of its models moves, falls or changes."""
        return self.board.shape(squad)

    def whole_board(self) -> int:
        """Where every model on the table stands, as a number (see :meth:`shape`)."""
        return self.kept(  # (every move planned asks it: kept for the menu)
            "whole_board", lambda: self.shape_id(tuple([self.board.shape(s) for s in self.squads]))
        )

    def enemy_board(self, squad: Squad) -> int:
        """Where every enemy unit on the table stands, as a number (see :meth:`shape`): a
        measurement of the squad against the enemy alone holds while its friends move."""
        memo = self._still
        if memo is None:
            return self._enemy_board(squad)
        key = ("enemy_board", squad.side)
        found: int | None = memo.get(key)  # (asked a dozen times a menu)
        if found is None:
            found = memo[key] = self._enemy_board(squad)
        return found

    def _enemy_board(self, squad: Squad) -> int:
        return self.shape_id(
            ("enemies", tuple(self.board.shape(e) for e in self.board.enemies(squad)))
        )

    @contextmanager
    def unchanged(self) -> Iterator[None]:
        """:meth:`~kubik.game.battle.BattleGame.still`, and every squad holds who of it is
        fighting (:meth:`~.state.Squad.hold`): a menu is measured, nothing is taken."""
        if self.measuring:
            yield  # an outer stretch holds them already (its memo is set with them)
            return
        with self.still():
            for squad in self.squads:
                squad.hold(True)
            try:
                yield
            finally:
                for squad in self.squads:
                    squad.hold(False)

    #: :meth:`~kubik.game.battle.BattleGame.lasting` with its key made only while a
    #: menu is measured (elsewhere the measurement is simply made): the layer's
    #: :meth:`~kubik.game.battle.BattleGame.lasting_by`, under the name the menus use
    lasting_of = BattleGame.lasting_by

    def _kind(self, squad: Squad) -> MoverType:
        if squad.is_vehicle:
            return vehicle_profile(squad.spec.vehicle).mover
        kinds = {m.kind for m in squad.active() if m.kind is not TargetKind.MAN_SIZED_WEAPON}
        if kinds and kinds <= {TargetKind.ROBOT, TargetKind.DAMAGED_ROBOT}:
            return MoverType.ROBOT
        if kinds == {TargetKind.CAVALRY}:
            return MoverType.CAVALRY
        if kinds == {TargetKind.BRONESCAF}:
            return MoverType.ARMOURED_SUIT
        return MoverType.INFANTRY

    def speed(self, squad: Squad) -> int:
        """Inches a move takes the unit on easy ground (SW-ABSENT-02; a vehicle's profile)."""
        if squad.is_vehicle:
            return vehicle_profile(squad.spec.vehicle).speed
        return _base_speed(self.kind(squad))

    # -- measuring ----------------------------------------------------------------

    def terrain_at(self, point: Point, mover: MoverType) -> Terrain:
        """What the ground at ``point`` is in the seed's terms (the hardest for ``mover``
        of the typed features there; open ground elsewhere, SW-MOVE-03)."""
        return replayed(  # (the tape is the table's, kept for every game on it)
            self.tape.kept(
                "steel_war.terrain_at",
                (point, mover, self._terrain_key),
                lambda: deciding(lambda: self._terrain_at(point, mover)),
            )
        )

    def _terrain_at(self, point: Point, mover: MoverType) -> Terrain:
        found = [
            self.terrain_types[f.id]
            for f in self.table.features_at(point)
            if f.id in self.terrain_types
        ]
        order = list(TerrainClass)
        return max(
            found,
            key=lambda t: order.index(terrain_class(mover, t)),
            default=Terrain.OPEN,
        )

    def distance(self, a: Squad, b: Squad) -> float:
        """Edge distance between the closest fighting models of two units, to 0.1 inch
        (the board's :meth:`~kubik.game.battle.Board.gap`)."""
        return self.board.gap(a, b)

    def sees(self, viewer: Squad, target: Squad) -> bool:
        """Whether the viewer's commander sees any fighting model of the target."""
        return self.board.sees(viewer, target)

    def in_cover(self, squad: Squad) -> bool:
        """Whether at least half its fighting models stand in a feature giving cover."""
        memo = self._still
        if memo is None:
            return self._in_cover(squad)
        key = ("in_cover", squad.id)
        found: bool | None = memo.get(key)  # (asked a dozen times a menu)
        if found is None:
            found = memo[key] = self.lasting(
                ("in_cover", self.board.shape(squad)), lambda: self._in_cover(squad)
            )
        return found

    def _in_cover(self, squad: Squad) -> bool:
        models = squad.active()
        if not models:
            return False
        covered = sum(1 for m in models if self.tape.standing(m.point) is not TableCover.NONE)
        return 2 * covered >= len(models)

    def in_water(self, squad: Squad) -> bool:
        """Whether its commander stands in water (no going to ground, SW-FIRE-07)."""
        return self.tape.in_water(squad.anchor().centre)

    def hidden(self, squad: Squad) -> bool:
        """Whether the squad hides from enemy fire until spotted (SW-ABSENT-03 default)."""
        if squad.is_vehicle:
            return False
        return is_hidden(
            in_cover=self.in_cover(squad), gone_to_ground=squad.prone, revealed=squad.revealed
        )

    def sight(self, shooter: Squad, target: Squad) -> Sight:
        """Distance, line of sight and cover of ``target`` as ``shooter`` measures it.

        Cover is measured only for a target the shooter sees within zone 5 (nothing else
        can be fired at, SW-FIRE-06); otherwise it reads as none."""
        memo = self._still
        if memo is None:
            return self._measure_sight(shooter, target)
        key = ("sight", shooter.id, target.id)
        found: Sight | None = memo.get(key)  # (asked by every offer at the target)
        if found is None:
            shape = self.board.shape
            found = memo[key] = self.lasting(  # (one immutable answer, kept while both stand)
                ("sight", shape(shooter), shape(target), shooter.die),
                lambda: self._measure_sight(shooter, target),
            )
        return found

    def _measure_sight(self, shooter: Squad, target: Squad) -> Sight:
        """:meth:`sight` measured: it depends on where the two squads stand alone."""
        distance = self.board.gap(shooter, target)
        visible = self.board.sees(shooter, target)
        living = target.bases()  # (kept while a menu is measured)
        if visible and range_zone(shooter.die, distance) <= max_zone():
            covers = self.board.covers(shooter, target)
            light = sum(1 for c in covers if c is TableCover.LIGHT)
            hard = sum(1 for c in covers if c is TableCover.HARD)
            cover = squad_cover(light, hard, len(covers))
            in_cover = tuple(c is not TableCover.NONE for c in covers)
        else:
            cover, in_cover = Cover.NONE, (False,) * len(living)
        return Sight(distance, visible, cover, in_cover)

    def nearest_enemy(self, squad: Squad) -> tuple[Squad, float] | None:
        """The closest enemy unit and its distance (None when no enemy is left)."""
        board = self.board
        enemy = board.nearest(squad)
        return None if enemy is None else (enemy, board.gap(squad, enemy))

    def nearest_friend(self, squad: Squad) -> float | None:
        """Inches to the closest other friendly unit (None when there is none)."""
        found = [self.board.gap(squad, f) for f in self.board.friends(squad)]
        return min(found) if found else None

    def left_behind(self, squad: Squad) -> bool:
        """Wounded left behind: an unverified casualty closer to an enemy than to his squad
        (SW-MOR-06, last row)."""
        return self.kept(("left_behind", squad.id), lambda: self._left_behind(squad))

    def _left_behind(self, squad: Squad) -> bool:
        wounded = squad.with_status(Status.UNVERIFIED)
        board = self.board
        enemies = [e for e in board.enemies(squad) if board.bases_of(e)]
        if not wounded or not enemies or not squad.bases():
            return False
        gap = board.gap_from
        return any(
            min(gap([w.base()], e) for e in enemies) < gap([w.base()], squad) for w in wounded
        )

    def controller(self, objective: ObjectiveSpec) -> str | None:
        """The side holding an objective: effective models within reach, no enemy within it."""
        return self.kept(
            ("controller", objective.id),
            lambda: self.lasting_of(
                lambda: (
                    "controller",
                    self.whole_board(),
                    objective.id,
                    tuple(s.effective for s in self.squads),
                ),
                lambda: self._controller(objective),
            ),
        )

    def _controller(self, objective: ObjectiveSpec) -> str | None:
        reach = control_inches()
        spot = (objective.x, objective.y)
        dist = math.dist  # (each model's centre read from its fields)
        holders: list[str] = []
        for squad in self.squads:
            if not squad.effective or not squad.on_table:
                continue
            near = any(dist((m.x, m.y), spot) - m.diameter / 2 <= reach for m in squad.active())
            if near and squad.side not in holders:
                holders.append(squad.side)
        return holders[0] if len(holders) == 1 else None

    def situation(
        self, squad: Squad, done: tuple[ActionType, ...] = (), *, passed: bool = False
    ) -> UnitSituation:
        """The plain facts the rules' questions of legality take about ``squad`` now."""
        memo = self._still
        if memo is None:
            return self._situation(squad, done, passed)
        key = ("situation", squad.id, done, passed)
        found: UnitSituation | None = memo.get(key)  # (asked a dozen times a menu)
        if found is None:
            found = memo[key] = self._situation(squad, done, passed)
        return found

    def _situation(self, squad: Squad, done: tuple[ActionType, ...], passed: bool) -> UnitSituation:
        return _one_of(
            UnitSituation(
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
                in_melee=bool(self.contacts.of(squad.id)),
                officer=squad.spec.officer,
                psi=squad.psi,
                passed=passed,
            )
        )


#: Situations met in this process, each kept as one object (bounded).
_SITUATIONS: Kept[UnitSituation, UnitSituation] = Kept(4096)


def _one_of(situation: UnitSituation) -> UnitSituation:
    """The situation met before that equals ``situation`` (itself the first time): the
    rules' remembered answers are keyed by situations, and a key that is the very object
    kept is found without comparing its every field."""
    found = _SITUATIONS.get(situation)
    if found is None:
        found = _SITUATIONS.keep(situation, situation)
    return found


__all__ = ["Battlefield", "Sight"]
