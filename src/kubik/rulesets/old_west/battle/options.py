"""The options of every decision in an Old West battle: small frozen values, no names.

Each option is a frozen dataclass of ids, numbers (inches rounded to 0.1) and enums —
what a save records. People read an option through its label, a catalogue message the
battle builds with the names it registered (``game.name(id)``) and passes to the
decision (:class:`~kubik.game.battle.Menu`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from kubik.engine import Message, msg
from kubik.rulesets.old_west.division import Fight
from kubik.rulesets.old_west.heroics import HeroicAction


class MoveKind(StrEnum):
    """What a move does."""

    STAY = "stay"
    ADVANCE = "advance"
    COVER = "cover"
    BACK = "back"
    CHARGE = "charge"
    LOOT = "loot"  # make for the objective (the bank) to pick up loot
    ESCAPE = "escape"  # carry the loot toward the exit edge
    PLACED = "placed"  # where people at a real table put the model (typed)
    WAIT = "wait"  # a friend of a Yee Haw! Hero moves in his turn, not with him

    @property
    def msgid(self) -> str:
        """Message id of the option's label."""
        return f"old_west.game.option.{self.value}"


@dataclass(frozen=True, slots=True)
class MoveTo:
    """Move ``model`` to (x, y), ``distance`` inches of move; a charge names its target."""

    model: str
    kind: MoveKind
    x: float
    y: float
    distance: float
    target: str = ""

    @property
    def spot(self) -> tuple[float, float]:
        """Where the model's centre ends."""
        return (self.x, self.y)

    def label(self, name: Callable[[str], Message]) -> Message:
        """How the move reads, with the names ``name`` finds for the model and target."""
        return msg(
            self.kind.msgid,
            model=name(self.model),
            x=self.x,
            y=self.y,
            distance=self.distance,
            target=name(self.target) if self.target else name(self.model),
        )


@dataclass(frozen=True, slots=True)
class ShootAt:
    """Shoot ``target`` with ``weapon`` (``distance`` edge to edge, things in the way)."""

    model: str
    target: str
    weapon: str
    distance: float
    in_the_way: int


@dataclass(frozen=True, slots=True)
class HoldFire:
    """The model does not shoot this phase."""

    model: str


@dataclass(frozen=True, slots=True)
class Heroic:
    """Whether a Hero declares a heroic action at the start of a phase (OW-HERO-06)."""

    hero: str
    action: HeroicAction
    declare: bool


@dataclass(frozen=True, slots=True)
class Flight:
    """Head for the Hills: take the test, or flee of one's own will (OW-PLK-04)."""

    flee: bool


@dataclass(frozen=True, slots=True)
class Split:
    """One way to split a brawl into fights (the advantage player's choice, OW-ABSENT-03)."""

    fights: tuple[Fight, ...]


__all__ = ["Flight", "Heroic", "HoldFire", "MoveKind", "MoveTo", "ShootAt", "Split"]
