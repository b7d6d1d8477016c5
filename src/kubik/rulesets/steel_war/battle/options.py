"""What a Steel War player may choose: small frozen options of ids, numbers and enums.

An option says what is done and to whom by id; how people see it is
:meth:`label`, a catalogue message whose names come from the battle
(``name(id)``), never stored in the option. Each says which action type it spends
(SW-CORE-04), so the activation can ask its limits of
:func:`~kubik.rulesets.steel_war.activation.action_verdict`. Options compare by
value, so a saved decision (its JSON form) finds its option again on replay.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from kubik.engine import Message, msg
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.psionics_actions import BlastChoice, PsiAction
from kubik.rulesets.steel_war.reaction import ReactionAction

#: How a label finds a unit's, model's or weapon's name: the battle's :meth:`name`.
Names = Callable[[str], Message]


@dataclass(frozen=True, slots=True)
class Activate:
    """Activate this unit now."""

    squad: str

    def label(self, name: Names) -> Message:
        """How people see it."""
        return msg("steel_war.game.option.activate", squad=name(self.squad))


@dataclass(frozen=True, slots=True)
class Fire:
    """Fire these weapon types (every model of the squad carrying one that may fire) at
    one unit: all of them together, or a chosen part (SW-FIRE-05)."""

    target: str
    weapons: tuple[str, ...]

    @property
    def action(self) -> ActionType:
        """The action type it spends."""
        return ActionType.SHOOT

    def label(self, name: Names) -> Message:
        """How people see it."""
        arms = tuple(msg(f"steel_war.weapon.{w}") for w in self.weapons)
        return msg("steel_war.game.option.fire", target=name(self.target), weapons=arms)


class MoveKind(StrEnum):
    """Where a move heads."""

    ADVANCE = "advance"  # toward the nearest enemy
    COVER = "cover"  # into the nearest cover
    OBJECTIVE = "objective"  # toward an objective
    RETREAT = "retreat"  # back toward the own table edge
    TO_VEHICLE = "to_vehicle"  # toward a friendly vehicle, to get in

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"steel_war.game.move.{self.value}"


class MoveHow(StrEnum):
    """The three moves (SW-MOVE-01, SW-ABSENT-02): a move of the unit's speed, a rolled
    combat move, a march at double speed."""

    MOVE = "move"
    COMBAT = "combat_move"
    MARCH = "march"

    @property
    def action(self) -> ActionType:
        """The action type it is."""
        return ActionType(self.value)

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"steel_war.game.how.{self.value}"


@dataclass(frozen=True, slots=True)
class Move:
    """Move toward (x, y): a move or march ends there, a combat move heads there as far as
    its dice take it. ``tests``: the reaction tests the rules ask first, in order (moving
    while gone to ground, leaving cover when По, SW-REACT-02)."""

    kind: MoveKind
    how: MoveHow
    x: float
    y: float
    inches: float
    tests: tuple[ReactionAction, ...] = ()

    @property
    def action(self) -> ActionType:
        """The action type it spends."""
        return self.how.action

    def label(self, name: Names) -> Message:
        """How people see it."""
        tested = "_tested" if self.tests else ""
        if self.how is MoveHow.COMBAT:
            return msg(
                f"steel_war.game.option.combat_move{tested}",
                kind=self.kind,
                x=self.x,
                y=self.y,
                tests=self.tests,
            )
        return msg(
            f"steel_war.game.option.move{tested}",
            how=self.how,
            kind=self.kind,
            inches=self.inches,
            x=self.x,
            y=self.y,
            tests=self.tests,
        )


@dataclass(frozen=True, slots=True)
class PlacedMove:
    """A move or march to a place a person typed at the action prompt (``16, 5``,
    ``6 ne``), which the movement rules accepted: ``kind`` is how the morale rules read
    where it goes (SW-MOR-01), ``tests`` the reaction tests they ask first (SW-REACT-02)."""

    kind: MoveKind
    how: MoveHow
    x: float
    y: float
    inches: float
    tests: tuple[ReactionAction, ...] = ()

    @property
    def action(self) -> ActionType:
        """The action type it spends."""
        return self.how.action

    def label(self, name: Names) -> Message:
        """How people see it."""
        return msg(
            "steel_war.game.option.placed_move",
            how=self.how,
            inches=self.inches,
            x=self.x,
            y=self.y,
        )


@dataclass(frozen=True, slots=True)
class Charge:
    """Declare «атакую!» against a unit (the whole activation, SW-CC-02); ``tests``: the
    tests taken before the charge's own (getting up to move, SW-FIRE-07)."""

    target: str
    distance: float
    tests: tuple[ReactionAction, ...] = ()

    @property
    def action(self) -> ActionType:
        """The action type it spends."""
        return ActionType.CHARGE

    def label(self, name: Names) -> Message:
        """How people see it."""
        tested = "_tested" if self.tests else ""
        return msg(
            f"steel_war.game.option.charge{tested}",
            target=name(self.target),
            distance=self.distance,
            tests=self.tests,
        )


@dataclass(frozen=True, slots=True)
class Inspire:
    """The officer tries to inspire one of his squads (SW-MOR-08..10)."""

    target: str

    @property
    def action(self) -> ActionType:
        """The action type it spends."""
        return ActionType.INSPIRE

    def label(self, name: Names) -> Message:
        """How people see it."""
        return msg("steel_war.game.option.inspire", target=name(self.target))


@dataclass(frozen=True, slots=True)
class PassAction:
    """The commander goes on the radio («выход на связь», SW-ABSENT-04) to pass one of
    his actions to one of his squads (SW-ABSENT-01)."""

    target: str

    @property
    def action(self) -> ActionType:
        """The action type it spends."""
        return ActionType.PASS_ACTION

    def label(self, name: Names) -> Message:
        """How people see it."""
        return msg("steel_war.game.option.pass_action", target=name(self.target))


@dataclass(frozen=True, slots=True)
class Psi:
    """The squad's psionic uses a psi action on a unit (one action, SW-PSI-05);
    ``choice`` is the psionic's pick for a psi blast (SW-PSI-16)."""

    act: PsiAction
    target: str
    distance: float
    choice: BlastChoice | None = None

    @property
    def action(self) -> ActionType:
        """The action type it spends."""
        return ActionType.PSI

    def label(self, name: Names) -> Message:
        """How people see it."""
        if self.choice is not None:
            return msg(
                "steel_war.game.option.psi_blast",
                act=self.act,
                target=name(self.target),
                distance=self.distance,
                choice=self.choice,
            )
        return msg(
            "steel_war.game.option.psi",
            act=self.act,
            target=name(self.target),
            distance=self.distance,
        )


@dataclass(frozen=True, slots=True)
class Observe:
    """«Наблюдение» at a hiding enemy unit (SW-ABSENT-03); ``psi``: the psionic first
    uses psi-detection to observe with his psi die (SW-PSI-11)."""

    target: str
    psi: bool = False

    @property
    def action(self) -> ActionType:
        """The action type it spends."""
        return ActionType.OBSERVE

    def label(self, name: Names) -> Message:
        """How people see it."""
        key = "steel_war.game.option.observe_psi" if self.psi else "steel_war.game.option.observe"
        return msg(key, target=name(self.target))


class Kind(StrEnum):
    """Actions that need no target."""

    GO_TO_GROUND = "go_to_ground"
    GET_UP = "get_up"
    UNSUPPRESS = "unsuppress"
    REORGANISE = "reorganise"
    NO_STEP_BACK = "no_step_back"
    END = "end"

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"steel_war.game.act.{self.value}"


_ACTION = {
    Kind.GO_TO_GROUND: ActionType.GO_TO_GROUND,
    Kind.GET_UP: ActionType.GET_UP,
    Kind.UNSUPPRESS: ActionType.UNSUPPRESS,
    Kind.REORGANISE: ActionType.REORGANISE,
}


@dataclass(frozen=True, slots=True)
class Act:
    """An action without a target: go to ground, get up, unsuppress, reorganise,
    «Ни шагу назад!» (costs no action) or end the activation."""

    kind: Kind

    @property
    def action(self) -> ActionType | None:
        """The action type it spends (None: costs no action)."""
        return _ACTION.get(self.kind)

    def label(self, name: Names) -> Message:
        """How people see it."""
        return msg(self.kind.msgid)


@dataclass(frozen=True, slots=True)
class Embark:
    """The squad climbs into a friendly vehicle (one action, SW-MOVE-04)."""

    vehicle: str
    farthest: float  # inches from the vehicle to the farthest man

    @property
    def action(self) -> ActionType:
        """The action type it spends."""
        return ActionType.EMBARK

    def label(self, name: Names) -> Message:
        """How people see it."""
        return msg("steel_war.game.option.embark", vehicle=name(self.vehicle), inches=self.farthest)


@dataclass(frozen=True, slots=True)
class Disembark:
    """A squad gets off its vehicle, its block standing around (x, y) (one action of the
    squad, or of the vehicle, SW-MOVE-04)."""

    squad: str
    x: float
    y: float

    @property
    def action(self) -> ActionType:
        """The action type it spends."""
        return ActionType.DISEMBARK

    def label(self, name: Names) -> Message:
        """How people see it."""
        return msg("steel_war.game.option.disembark", squad=name(self.squad), x=self.x, y=self.y)


@dataclass(frozen=True, slots=True)
class Unload:
    """The crew unhitches a towed gun from a vehicle and brings it into action (the whole
    activation, SW-MOVE-05)."""

    vehicle: str
    cargo: str

    @property
    def action(self) -> ActionType:
        """The action type it spends."""
        return ActionType.UNLOAD

    def label(self, name: Names) -> Message:
        """How people see it."""
        return msg(
            "steel_war.game.option.unload",
            vehicle=name(self.vehicle),
            cargo=msg(f"steel_war.weapon.{self.cargo}"),
        )


@dataclass(frozen=True, slots=True)
class Spot:
    """Where a unit's centre stands (a move's end, as offered or typed at the table);
    ``formation``: the formation people put it in there (``""``: as it stood), ``typed``:
    people typed it."""

    x: float
    y: float
    formation: str = ""
    typed: bool = False

    def label(self, name: Names) -> Message:
        """How people see it."""
        if not self.typed:
            return msg("steel_war.game.option.spot", x=self.x, y=self.y)
        if self.formation:
            return msg(
                "steel_war.game.option.spot_formed",
                x=self.x,
                y=self.y,
                formation=msg(f"steel_war.game.formation.{self.formation}"),
            )
        return msg("steel_war.game.option.spot_typed", x=self.x, y=self.y)


@dataclass(frozen=True, slots=True)
class ModelSpot:
    """One model of a squad placed on its own at a real table (its centre)."""

    model: str
    x: float
    y: float

    def label(self, name: Names) -> Message:
        """How people see it."""
        return msg("steel_war.game.option.model_spot", model=name(self.model), x=self.x, y=self.y)


@dataclass(frozen=True, slots=True)
class Placed:
    """Every model of the squad stands where the players put it."""

    def label(self, name: Names) -> Message:
        """How people see it."""
        return msg("steel_war.game.option.placed")


Option = (
    Fire
    | Move
    | PlacedMove
    | Charge
    | Inspire
    | PassAction
    | Psi
    | Observe
    | Act
    | Embark
    | Disembark
    | Unload
)

__all__ = [
    "Act",
    "Activate",
    "Charge",
    "Disembark",
    "Embark",
    "Fire",
    "Inspire",
    "Kind",
    "ModelSpot",
    "Move",
    "MoveHow",
    "MoveKind",
    "Names",
    "Observe",
    "Option",
    "PassAction",
    "Placed",
    "PlacedMove",
    "Psi",
    "Spot",
    "Unload",
]
