"""The state of a Steel War battle: squads, their models, markers and morale.

All mutable state of a game lives here and is rebuilt by replaying the answers, so
it holds only plain values in insertion order (lists and dicts, never sets of
strings, whose order differs between processes).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache

from kubik.dice import Die, parse_die
from kubik.engine import Message, msg
from kubik.rulesets.steel_war.core import Quality
from kubik.rulesets.steel_war.fire_ammo import Ammo, FiredThisActivation
from kubik.rulesets.steel_war.morale_levels import MoraleLevel, Motivation
from kubik.rulesets.steel_war.reaction import FailedReactions
from kubik.rulesets.steel_war.suppression import is_suppressed
from kubik.table import Base
from kubik.table.geometry import Point

from .field import base_diameter, place
from .profiles import vehicle_profile
from .spec import SquadSpec


@cache
def _die(name: str) -> Die:
    return parse_die(name)


class Status(StrEnum):
    """Where a model is: fighting, an unverified casualty, or out of the battle."""

    ACTIVE = "active"
    UNVERIFIED = "unverified"  # wounded, fate unknown (SW-DMG-11)
    STABILISED = "stabilised"  # cannot fight or walk (SW-REORG-02)
    MELEE_LOST = "melee_lost"  # lost in a close combat that goes on (SW-CC-08)
    KILLED = "killed"
    PRISONER = "prisoner"


class Gone(StrEnum):
    """Why a squad left the battle."""

    DESTROYED = "destroyed"
    ROUTED = "routed"  # left the table by its own edge
    SURRENDERED = "surrendered"
    SCATTERED = "scattered"  # a failed «Ни шагу назад!»

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"steel_war.game.gone.{self.value}"


@dataclass(slots=True)
class Model:
    """One figure: where it stands, its weapon, its state."""

    id: str
    x: float
    y: float
    weapon: str
    status: Status = Status.ACTIVE
    ammo: Ammo | None = None

    @property
    def point(self) -> Point:
        """The centre of its base."""
        return (self.x, self.y)

    def base(self) -> Base:
        """Its base on the table."""
        return Base(self.x, self.y, base_diameter(), self.id)


@dataclass(slots=True)
class Squad:
    """An отделение and everything the battle tracks about it."""

    spec: SquadSpec
    models: list[Model]
    centre: Point
    leadership: int
    level: MoraleLevel
    start_level: MoraleLevel
    motivation: Motivation
    edge: str
    commander: str
    markers: int = 0
    prone: bool = False
    panicked: bool = False
    panic_over: bool = False
    berserk: bool = False
    gone: Gone | None = None
    activated: bool = False
    ever_suppressed: bool = False
    ever_shot_at: bool = False
    enemy_seen: bool = False
    wounded_left_behind: bool = False
    melee_with: str | None = None
    attacking: bool = False  # it charged into the melee it is in
    shot_by: list[str] = field(default_factory=list)
    failed: FailedReactions = field(default_factory=FailedReactions)
    fired: FiredThisActivation = field(default_factory=FiredThisActivation)
    marched: bool = False
    aboard: str | None = None  # the vehicle it rides in (SW-MOVE-04)
    vehicle_hits: int = 0  # wounding hits a vehicle has taken (immobilised at the first)
    confused: bool = False  # psi confusion after it activated: loses the next (SW-PSI-15)

    @property
    def id(self) -> str:
        """The unit id from the scenario."""
        return self.spec.id

    @property
    def side(self) -> str:
        """The side it fights for."""
        return self.spec.side

    @property
    def name(self) -> Message:
        """Its name in both languages."""
        en, ru = self.spec.display_name
        return msg("game.name", en=en, ru=ru)

    @property
    def quality(self) -> Quality:
        """Troop quality (SW-CORE-02)."""
        return Quality(self.spec.quality)

    @property
    def die(self) -> Die:
        """The quality die."""
        return self.quality.die

    @property
    def armour(self) -> Die:
        """The armour die of its men, or of the vehicle (its profile)."""
        if self.spec.is_vehicle:
            return vehicle_profile(self.spec.vehicle).armour
        return _die(self.spec.armour)

    @property
    def is_vehicle(self) -> bool:
        """A vehicle (one model: the machine), not a squad of men."""
        return self.spec.is_vehicle

    @property
    def immobilised(self) -> bool:
        """A vehicle that took a wounding hit cannot move (SW-ABSENT-05 default)."""
        return self.vehicle_hits > 0

    @property
    def on_table(self) -> bool:
        """Present and not riding inside a vehicle: it can be seen, shot and charged."""
        return self.aboard is None and self.present

    @property
    def psi(self) -> Die | None:
        """The psi die of its psionic (SW-PSI-02), None without one or once he is down."""
        if self.spec.psionic is None or self.psionic() is None:
            return None
        return _die(self.spec.psionic.psi)

    def psionic(self) -> Model | None:
        """The psionic: the squad's first model, while he is still fighting."""
        if self.spec.psionic is None:
            return None
        first = self.models[0]
        return first if first.status is Status.ACTIVE else None

    def active(self) -> list[Model]:
        """Models still fighting."""
        return [m for m in self.models if m.status is Status.ACTIVE]

    def with_status(self, status: Status) -> list[Model]:
        """Models in ``status``."""
        return [m for m in self.models if m.status is status]

    def bases(self) -> list[Base]:
        """The bases of the models still fighting."""
        return [m.base() for m in self.active()]

    def model(self, model_id: str) -> Model:
        """The model called ``model_id``."""
        return next(m for m in self.models if m.id == model_id)

    def anchor(self) -> Base:
        """Where the squad sees and is commanded from: its commander, else its first man."""
        boss = self.model(self.commander)
        if boss.status is Status.ACTIVE:
            return boss.base()
        living = self.active()
        return (living[0] if living else boss).base()

    @property
    def present(self) -> bool:
        """On the table with at least one man fighting."""
        return self.gone is None and bool(self.active())

    @property
    def effective(self) -> bool:
        """Counts for victory: present and not fleeing."""
        return self.present and self.level is not MoraleLevel.FLEEING

    @property
    def suppressed(self) -> bool:
        """Carries a suppression marker (SW-SUP-01)."""
        return is_suppressed(self.markers)

    def lost(self) -> int:
        """Men no longer fighting (killed, prisoners, stabilised, unverified)."""
        return sum(1 for m in self.models if m.status is not Status.ACTIVE)

    def move_to(self, centre: Point) -> None:
        """The squad re-forms around ``centre``; unverified casualties stay where they fell."""
        living = self.active()
        for model, point in zip(living, place(centre, len(living)), strict=True):
            model.x, model.y = point
        self.centre = centre

    def new_activation(self) -> None:
        """Every weapon may fire again (SW-FIRE-05)."""
        self.fired = FiredThisActivation()
        self.marched = False

    def new_turn(self) -> None:
        """Turn-long bars end: failed reactions, who shot at it, activation (lost again
        after a psi confusion suffered once it had activated, SW-PSI-15)."""
        self.activated = self.confused
        self.confused = False
        self.failed = FailedReactions.new_turn()
        self.shot_by = []


def build_squad(spec: SquadSpec, level: MoraleLevel, motivation: Motivation, edge: str) -> Squad:
    """A squad in its starting block: one model per weapon carried, the first commands."""
    weapons = [w.weapon for w in spec.weapons for _ in range(w.count)]
    centre = (float(spec.position[0]), float(spec.position[1]))
    models = [
        Model(f"{spec.id}.{i + 1}", x, y, weapon, ammo=Ammo.full(weapon))
        for i, (weapon, (x, y)) in enumerate(zip(weapons, place(centre, len(weapons)), strict=True))
    ]
    return Squad(
        spec=spec,
        models=models,
        centre=centre,
        leadership=spec.leadership,
        level=level,
        start_level=level,
        motivation=motivation,
        edge=edge,
        commander=models[0].id,
    )


__all__ = ["Gone", "Model", "Squad", "Status", "build_squad"]
