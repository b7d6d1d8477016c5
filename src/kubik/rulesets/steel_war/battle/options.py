"""What a Steel War player may choose: frozen options of plain JSON-able fields.

Each option has a ``label`` (a message in English and Russian) and says which
action type it spends (SW-CORE-04), so the activation can check its limits with
:func:`~kubik.rulesets.steel_war.activation.action_verdict`. Options compare by value,
so a saved decision (its JSON form) finds its option again on replay.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from kubik.engine import Message, msg
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.fire import Cover
from kubik.rulesets.steel_war.psionics_actions import BlastChoice, PsiAction


def _name(en: str, ru: str) -> Message:
    return msg("game.name", en=en, ru=ru)


@dataclass(frozen=True, slots=True)
class Activate:
    """Activate this squad now."""

    squad: str
    name: str
    name_ru: str

    @property
    def label(self) -> Message:
        """How people see it."""
        return msg("steel_war.game.option.activate", squad=_name(self.name, self.name_ru))


@dataclass(frozen=True, slots=True)
class Fire:
    """Fire every weapon that reaches and has not fired this activation at one squad."""

    target: str
    name: str
    name_ru: str
    distance: float
    cover: Cover

    @property
    def action(self) -> ActionType:
        """The action type it spends."""
        return ActionType.SHOOT

    @property
    def label(self) -> Message:
        """How people see it."""
        return msg(
            "steel_war.game.option.fire",
            target=_name(self.name, self.name_ru),
            distance=self.distance,
            cover=self.cover,
        )


class MoveKind(StrEnum):
    """Where a move heads."""

    ADVANCE = "advance"  # toward the nearest enemy
    COVER = "cover"  # into the nearest cover
    OBJECTIVE = "objective"  # toward an objective
    RETREAT = "retreat"  # back toward the own table edge

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"steel_war.game.move.{self.value}"


@dataclass(frozen=True, slots=True)
class Move:
    """Move (or march, at double speed) toward a point; ``test`` names the reaction test
    the move needs first (getting up without an action, leaving cover when По)."""

    kind: MoveKind
    x: float
    y: float
    inches: float
    march: bool = False
    test: str = ""

    @property
    def action(self) -> ActionType:
        """The action type it spends."""
        return ActionType.MARCH if self.march else ActionType.MOVE

    @property
    def label(self) -> Message:
        """How people see it."""
        key = "steel_war.game.option.march" if self.march else "steel_war.game.option.move"
        return msg(key, kind=self.kind, inches=self.inches, x=self.x, y=self.y)


@dataclass(frozen=True, slots=True)
class Charge:
    """Declare «атакую!» against a squad (the whole activation, SW-CC-02)."""

    target: str
    name: str
    name_ru: str
    distance: float

    @property
    def action(self) -> ActionType:
        """The action type it spends."""
        return ActionType.CHARGE

    @property
    def label(self) -> Message:
        """How people see it."""
        return msg(
            "steel_war.game.option.charge",
            target=_name(self.name, self.name_ru),
            distance=self.distance,
        )


@dataclass(frozen=True, slots=True)
class Inspire:
    """The officer tries to inspire one of his squads (SW-MOR-08..10)."""

    target: str
    name: str
    name_ru: str

    @property
    def action(self) -> ActionType:
        """The action type it spends."""
        return ActionType.INSPIRE

    @property
    def label(self) -> Message:
        """How people see it."""
        return msg("steel_war.game.option.inspire", target=_name(self.name, self.name_ru))


@dataclass(frozen=True, slots=True)
class Psi:
    """The squad's psionic uses a psi action on a squad (one action, SW-PSI-05);
    ``choice`` is the psionic's pick for a psi blast (SW-PSI-16)."""

    act: PsiAction
    target: str
    name: str
    name_ru: str
    distance: float
    choice: BlastChoice | None = None

    @property
    def action(self) -> ActionType:
        """The action type it spends."""
        return ActionType.PSI

    @property
    def label(self) -> Message:
        """How people see it."""
        target = _name(self.name, self.name_ru)
        if self.choice is not None:
            return msg(
                "steel_war.game.option.psi_blast",
                act=self.act,
                target=target,
                distance=self.distance,
                choice=self.choice,
            )
        return msg("steel_war.game.option.psi", act=self.act, target=target, distance=self.distance)


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

    @property
    def label(self) -> Message:
        """How people see it."""
        return msg(self.kind.msgid)


@dataclass(frozen=True, slots=True)
class Embark:
    """The squad climbs into a friendly vehicle (one action, SW-MOVE-04)."""

    vehicle: str
    name: str
    name_ru: str
    farthest: float  # inches from the vehicle to the farthest man

    @property
    def action(self) -> ActionType:
        """The action type it spends."""
        return ActionType.EMBARK

    @property
    def label(self) -> Message:
        """How people see it."""
        return msg(
            "steel_war.game.option.embark",
            vehicle=_name(self.name, self.name_ru),
            inches=self.farthest,
        )


@dataclass(frozen=True, slots=True)
class Disembark:
    """A squad gets off its vehicle, its block standing around (x, y) (one action of the
    squad or of the vehicle, SW-MOVE-04)."""

    squad: str
    name: str
    name_ru: str
    x: float
    y: float

    @property
    def action(self) -> ActionType:
        """The action type it spends."""
        return ActionType.DISEMBARK

    @property
    def label(self) -> Message:
        """How people see it."""
        return msg(
            "steel_war.game.option.disembark",
            squad=_name(self.name, self.name_ru),
            x=self.x,
            y=self.y,
        )


Option = Fire | Move | Charge | Inspire | Psi | Act | Embark | Disembark

__all__ = [
    "Act",
    "Activate",
    "Charge",
    "Disembark",
    "Embark",
    "Fire",
    "Inspire",
    "Kind",
    "Move",
    "MoveKind",
    "Option",
    "Psi",
]
