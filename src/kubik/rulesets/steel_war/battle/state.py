"""The state of a Steel War battle: squads, their models, markers and morale, as enums.

All mutable state lives on the battle object (:class:`~.field.Battlefield`) and is
rebuilt by replaying the answers, so it holds only plain values in insertion order
(lists and dicts, never sets of strings, whose order differs between processes).
What the battle layer sees of a model is its :class:`~kubik.game.battle.Presence`
(:meth:`Squad.presence_of`): an unverified casualty is a DOWN marker on the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache

from kubik.engine.dice import Die, parse_die
from kubik.game.battle import Posture, Presence
from kubik.rulesets.steel_war.core import Quality
from kubik.rulesets.steel_war.damage import TargetKind
from kubik.rulesets.steel_war.fire_ammo import Ammo, FiredThisActivation
from kubik.rulesets.steel_war.fire_weapons import Special, weapon
from kubik.rulesets.steel_war.melee_fighters import Side
from kubik.rulesets.steel_war.morale_levels import MoraleLevel, Motivation
from kubik.rulesets.steel_war.reaction import FailedReactions
from kubik.rulesets.steel_war.suppression import is_suppressed
from kubik.rulesets.steel_war.vehicles import vehicle_profile
from kubik.table import Base
from kubik.table.geometry import Point

from .formation import base_diameter, place
from .spec import SquadSpec


@cache
def _die(name: str) -> Die:
    return parse_die(name)


@cache
def _quality(name: str) -> Quality:
    """The quality level called ``name`` (asked by every measurement of a squad)."""
    return Quality(name)


@cache
def _quality_die(name: str) -> Die:
    """The die of the quality level called ``name`` (asked by every measurement of a squad)."""
    return _quality(name).die


class Status(StrEnum):
    """Where a model is: fighting, one of the ways it is down, or out of the battle."""

    ACTIVE = "active"
    UNVERIFIED = "unverified"  # wounded, fate unknown (SW-DMG-11): a marker on the table
    STABILISED = "stabilised"  # cannot fight or walk (SW-REORG-02)
    MELEE_LOST = "melee_lost"  # lost in a close combat that goes on (SW-CC-08)
    KILLED = "killed"
    PRISONER = "prisoner"
    DESTROYED = "destroyed"  # a man-sized weapon, a robot or a vehicle (SW-DMG-07/10)

    @property
    def presence(self) -> Presence:
        """How the battle layer sees a model in this state."""
        if self is Status.ACTIVE:
            return Presence.IN_PLAY
        if self in (Status.UNVERIFIED, Status.STABILISED, Status.MELEE_LOST):
            return Presence.DOWN
        return Presence.REMOVED


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


class Panic(StrEnum):
    """A squad's panic (SW-PANIC-01): never tested, panicked, or over for the battle."""

    NONE = "none"
    PANICKED = "panicked"
    OVER = "over"  # passed a panic test: panic never arises again (but for psionics)


class Stance(StrEnum):
    """Whether the squad stands in «Ни шагу назад!» (berserk, SW-NSN-03)."""

    NORMAL = "normal"
    BERSERK = "berserk"


class First(StrEnum):
    """Things that happen to a squad for the first time in the battle (panic, threat)."""

    SUPPRESSED = "suppressed"  # first suppression (SW-MOR-06)
    SHOT_AT = "shot_at"  # first time shot at (SW-PANIC-02)
    ENEMY_SEEN = "enemy_seen"  # first enemy in sight (SW-PANIC-02)
    ARMOUR_SEEN = "armour_seen"  # first enemy armour in sight (SW-PANIC-02)


class Turn(StrEnum):
    """A squad's activation this turn."""

    READY = "ready"
    DONE = "done"
    DONE_LOSES_NEXT = "done_loses_next"  # confused after it acted: loses the next (SW-PSI-15)


@dataclass(slots=True)
class Model:
    """One figure: where it stands, what it carries (``""``: an unarmed vehicle), what
    it is, its state.

    ``kind`` is what the armour rules see (a man, a bronescaf, a robot, a man-sized
    weapon …); ``None`` for a vehicle's hull (its armour is its profile's).
    """

    id: str
    x: float
    y: float
    weapon: str
    kind: TargetKind | None = TargetKind.MAN
    status: Status = Status.ACTIVE
    ammo: Ammo | None = None
    diameter: float = 1.0
    _base: Base | None = field(default=None, repr=False, compare=False)

    @property
    def point(self) -> Point:
        """The centre of its base."""
        return (self.x, self.y)

    def base(self) -> Base:
        """Its base on the table (kept until the model moves)."""
        kept = self._base
        if kept is None or kept.x != self.x or kept.y != self.y or kept.diameter != self.diameter:
            kept = Base(self.x, self.y, self.diameter, self.id)
            self._base = kept
        return kept

    @property
    def is_man(self) -> bool:
        """A man (on foot, riding or in a suit), not a weapon, a robot or a hull."""
        return self.kind in _MEN


#: The kinds of model that are men (on foot, riding or in a suit): :attr:`Model.is_man`.
_MEN = (
    TargetKind.MAN,
    TargetKind.FULL_INFANTRY_ARMOUR,
    TargetKind.CAVALRY,
    TargetKind.BRONESCAF,
)


@dataclass(slots=True)
class Squad:
    """An отделение (or a vehicle) and everything the battle tracks about it."""

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
    posture: Posture = Posture.STANDING
    panic: Panic = Panic.NONE
    stance: Stance = Stance.NORMAL
    gone: Gone | None = None
    turn: Turn = Turn.READY
    firsts: list[First] = field(default_factory=list)
    melee_role: Side | None = None  # attacker or defender of the melee it is locked in
    shot_by: list[str] = field(default_factory=list)
    failed: FailedReactions = field(default_factory=FailedReactions)
    fired: FiredThisActivation = field(default_factory=FiredThisActivation)
    marched: bool = False
    aboard: str | None = None  # the vehicle it rides in (SW-MOVE-04)
    vehicle_hits: int = 0  # wounding hits a vehicle has taken (immobilised at the first)
    cargo: list[str] = field(default_factory=list)  # towed guns still hitched (SW-MOVE-05)
    spotted_by: list[str] = field(default_factory=list)  # sides that spotted it this turn
    revealed: bool = False  # fired or charged this turn: it does not hide (SW-ABSENT-03)
    averting: bool = False  # its psionic averts the enemy's eyes this turn (SW-PSI-12)
    detecting: bool = False  # its psionic's psi-detection this activation (SW-PSI-11)
    #: its fighting models while nothing on the board changes (a menu being measured,
    #: :meth:`hold`): asked hundreds of times a menu, looked for once
    _held: list[Model] | None = field(default=None, repr=False, compare=False)
    #: their bases while it holds them (nothing moves then: made once, on first asking)
    _held_bases: list[Base] | None = field(default=None, repr=False, compare=False)
    #: its anchor's base while it holds them (looked for once: every sight asks it)
    _held_anchor: Base | None = field(default=None, repr=False, compare=False)
    #: the unit id from the scenario (its spec's, read as a plain slot: asked everywhere)
    id: str = field(init=False, repr=False, compare=False)
    #: the side it fights for (its spec's)
    side: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.id = self.spec.id
        self.side = self.spec.side

    @property
    def quality(self) -> Quality:
        """Troop quality (SW-CORE-02)."""
        return _quality(self.spec.quality)

    @property
    def die(self) -> Die:
        """The quality die."""
        return _quality_die(self.spec.quality)

    @property
    def is_vehicle(self) -> bool:
        """A vehicle (one model: the machine), not a squad (its spec's ``is_vehicle``, read
        here in one step: asked everywhere)."""
        return bool(self.spec.vehicle)

    @property
    def immobilised(self) -> bool:
        """A vehicle that took a wounding hit, or a squad with an immobilised robot, cannot
        move (SW-DMG-10; the robots' rule for vehicles, SW-ABSENT-05 default)."""
        if self.is_vehicle:
            return self.vehicle_hits > 0
        return any(m.kind is TargetKind.DAMAGED_ROBOT for m in self.active())

    @property
    def present(self) -> bool:
        """In the battle with at least one model fighting."""
        held = self._held
        if held is not None:
            return self.gone is None and bool(held)
        return self.gone is None and any(m.status is Status.ACTIVE for m in self.models)

    @property
    def on_table(self) -> bool:
        """Present and not riding inside a vehicle: it can be seen, shot and charged."""
        return self.aboard is None and self.present

    @property
    def effective(self) -> bool:
        """Counts for victory: present and not fleeing."""
        return self.present and self.level is not MoraleLevel.FLEEING

    @property
    def suppressed(self) -> bool:
        """Carries a suppression marker (SW-SUP-01)."""
        return is_suppressed(self.markers)

    @property
    def prone(self) -> bool:
        """Gone to ground (SW-FIRE-07)."""
        return self.posture is Posture.PRONE

    @property
    def panicked(self) -> bool:
        """Panicked now (SW-PANIC-01)."""
        return self.panic is Panic.PANICKED

    @property
    def panic_over(self) -> bool:
        """Passed a panic test: panic never arises again but for psionics (SW-PANIC-01)."""
        return self.panic is Panic.OVER

    @property
    def berserk(self) -> bool:
        """In «Ни шагу назад!» (SW-NSN-03)."""
        return self.stance is Stance.BERSERK

    @property
    def activated(self) -> bool:
        """Has had (or lost) its activation this turn."""
        return self.turn is not Turn.READY

    def first(self, what: First) -> bool:
        """Marks ``what`` as happened; whether this is the first time."""
        if what in self.firsts:
            return False
        self.firsts.append(what)
        return True

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
        """Models still fighting (men, man-sized weapons, robots, a vehicle's hull)."""
        held = self._held
        if held is not None:
            return list(held)
        return [m for m in self.models if m.status is Status.ACTIVE]

    @property
    def holding(self) -> bool:
        """Whether it holds who of it is fighting (:meth:`hold`)."""
        return self._held is not None

    def hold(self, still: bool) -> None:
        """``still``: no model of the squad falls or gets up until :meth:`hold` is called
        with ``False`` (a menu being measured), so who is fighting is looked for once."""
        self._held = None
        self._held_bases = None
        self._held_anchor = None
        if still:
            self._held = self.active()

    def men(self) -> list[Model]:
        """Men still fighting (not weapons, robots or hulls)."""
        return [m for m in self.active() if m.kind in _MEN]  # (``is_man``, inline)

    def with_status(self, status: Status) -> list[Model]:
        """Models in ``status``."""
        return [m for m in self.models if m.status is status]

    def bases(self) -> list[Base]:
        """The bases of the models still fighting."""
        held = self._held
        if held is None:
            return [m.base() for m in self.active()]
        found = self._held_bases
        if found is None:
            found = self._held_bases = [m.base() for m in held]
        return list(found)

    def model(self, model_id: str) -> Model:
        """The model called ``model_id``."""
        for model in self.models:  # (a plain loop: asked for the commander at every sight)
            if model.id == model_id:
                return model
        raise StopIteration(model_id)  # (as ``next`` of no such model raises)

    def anchor(self) -> Base:
        """Where the squad sees and is commanded from: its commander, else its first model."""
        found = self._held_anchor
        if found is not None:
            return found
        boss = self.model(self.commander)
        if boss.status is Status.ACTIVE:
            found = boss.base()
        else:
            living = self.active()
            found = (living[0] if living else boss).base()
        if self._held is not None:  # (nothing moves or falls while it holds them)
            self._held_anchor = found
        return found

    def lost(self) -> int:
        """Men no longer fighting (killed, prisoners, stabilised, unverified)."""
        return sum(1 for m in self.models if m.status is not Status.ACTIVE and m.is_man)

    def presence_of(self, model: Model) -> Presence:
        """How the battle layer sees ``model``: riding inside a vehicle, run off the
        table with its squad, or by its own state."""
        if model.status is Status.ACTIVE:
            if self.gone in (Gone.ROUTED, Gone.SCATTERED):
                return Presence.FLED
            if self.gone is not None:
                return Presence.REMOVED
            if self.aboard is not None:
                return Presence.ABOARD
            return Presence.IN_PLAY
        if self.gone is not None and model.status.presence is Presence.DOWN:
            return Presence.REMOVED  # markers leave with a squad that left the battle
        return model.status.presence

    def place_models(self, centre: Point) -> None:
        """The squad stands in its block around ``centre``; markers stay where they fell."""
        living = self.active()
        if self.is_vehicle:
            for model in living:
                model.x, model.y = centre
        else:
            for model, point in zip(living, place(centre, len(living)), strict=True):
                model.x, model.y = point
        self.centre = centre

    def stand_at(self, centre: Point, places: Mapping[str, Point]) -> None:
        """The squad's models stand where people put them at a real table (model id →
        where its centre stands: a formation they made); ``centre``: the point the
        squad moves by from now on."""
        for model in self.models:
            if model.id in places:
                model.x, model.y = places[model.id]
        self.centre = centre

    def shift(self, centre: Point) -> None:
        """The squad moves as it stands (every living model by the same offset) to
        ``centre``: a move keeps its formation and gaps (coherency, SW-ABSENT-09)."""
        dx, dy = centre[0] - self.centre[0], centre[1] - self.centre[1]
        for model in self.active():
            model.x, model.y = round(model.x + dx, 3), round(model.y + dy, 3)
        self.centre = centre

    def new_activation(self) -> None:
        """Every weapon may fire again (SW-FIRE-05); a march, a psi-detection end."""
        self.fired = FiredThisActivation()
        self.marched = False
        self.detecting = False

    def new_turn(self) -> None:
        """Turn-long states end: failed reactions, who shot at it, spotting, averted eyes,
        being revealed; the activation (lost again after a confusion suffered once it had
        acted, SW-PSI-15)."""
        self.turn = Turn.DONE if self.turn is Turn.DONE_LOSES_NEXT else Turn.READY
        self.failed = FailedReactions.new_turn()
        self.shot_by = []
        self.spotted_by = []
        self.revealed = False
        self.averting = False


def model_kind(spec: SquadSpec, weapon_id: str) -> TargetKind | None:
    """What a model of ``spec`` carrying ``weapon_id`` is for the armour rules (SW-DMG-04):
    a man-sized weapon is a model of its own (SW-DMG-07); otherwise the squad's kind."""
    if spec.is_vehicle:
        return None
    w = weapon(weapon_id)
    if w.has(Special.MAN_SIZED) or w.has(Special.TOWED):
        return TargetKind.MAN_SIZED_WEAPON
    if spec.kind == "robot":
        return TargetKind.ROBOT
    if spec.kind == "bronescaf":
        return TargetKind.BRONESCAF
    if spec.kind == "cavalry":
        return TargetKind.CAVALRY
    return TargetKind.FULL_INFANTRY_ARMOUR if spec.armour == "d6" else TargetKind.MAN


def build_squad(spec: SquadSpec, level: MoraleLevel, motivation: Motivation, edge: str) -> Squad:
    """A squad in its starting block: one model per weapon carried, the first commands."""
    weapons = [w.weapon for w in spec.weapons for _ in range(w.count)] or [""]
    centre = (float(spec.position[0]), float(spec.position[1]))
    diameter = vehicle_profile(spec.vehicle).base_inches if spec.is_vehicle else base_diameter()
    models = [
        Model(
            f"{spec.id}.{i + 1}",
            0.0,
            0.0,
            weapon_id,
            model_kind(spec, weapon_id),
            ammo=Ammo.full(weapon_id) if weapon_id else None,
            diameter=diameter,
        )
        for i, weapon_id in enumerate(weapons)
    ]
    squad = Squad(
        spec=spec,
        models=models,
        centre=centre,
        leadership=spec.leadership,
        level=level,
        start_level=level,
        motivation=motivation,
        edge=edge,
        commander=models[0].id,
        cargo=list(spec.cargo),
    )
    squad.place_models(centre)
    return squad


__all__ = [
    "First",
    "Gone",
    "Model",
    "Panic",
    "Squad",
    "Stance",
    "Status",
    "Turn",
    "build_squad",
    "model_kind",
]
