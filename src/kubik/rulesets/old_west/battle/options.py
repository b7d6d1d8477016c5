"""The options of every decision in an Old West battle: plain, hashable, labelled.

Each option is a frozen dataclass of JSON-able fields (ids, names, inches rounded
to 0.1, enums with string values) with a ``label`` message that shows it to a
person in English and Russian. Saves match decisions by the options' JSON form.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from kubik.engine import Message, msg
from kubik.rulesets.old_west.heroics import HeroicAction


def name(en: str, ru: str) -> Message:
    """A name in both languages."""
    return msg("game.name", en=en, ru=ru)


class MoveKind(StrEnum):
    """What a move does."""

    STAY = "stay"
    ADVANCE = "advance"
    COVER = "cover"
    BACK = "back"
    CHARGE = "charge"
    LOOT = "loot"  # make for the objective (the bank) to pick up loot
    ESCAPE = "escape"  # carry the loot toward the exit edge

    @property
    def msgid(self) -> str:
        """Message id of the option's label."""
        return _MOVE_LABELS[self]


_MOVE_LABELS = {
    MoveKind.STAY: "old_west.game.option.stay",
    MoveKind.ADVANCE: "old_west.game.option.advance",
    MoveKind.COVER: "old_west.game.option.cover",
    MoveKind.BACK: "old_west.game.option.back",
    MoveKind.CHARGE: "old_west.game.option.charge",
    MoveKind.LOOT: "old_west.game.option.loot",
    MoveKind.ESCAPE: "old_west.game.option.escape",
}


@dataclass(frozen=True, slots=True)
class MoveTo:
    """Move a model to (x, y) (``distance``: inches walked); a charge names its target."""

    model: str
    kind: MoveKind
    x: float
    y: float
    distance: float
    who: str
    who_ru: str
    target: str = ""
    target_name: str = ""
    target_name_ru: str = ""

    @property
    def label(self) -> Message:
        """How the option reads."""
        return msg(
            self.kind.msgid,
            model=name(self.who, self.who_ru),
            x=self.x,
            y=self.y,
            distance=self.distance,
            target=name(self.target_name, self.target_name_ru),
        )


@dataclass(frozen=True, slots=True)
class ShootAt:
    """Shoot ``target`` with ``weapon`` (distance edge to edge, things in the way)."""

    model: str
    target: str
    weapon: str
    distance: float
    in_the_way: int
    who: str
    who_ru: str
    target_name: str
    target_name_ru: str
    weapon_name: str
    weapon_name_ru: str

    @property
    def label(self) -> Message:
        """How the option reads."""
        return msg(
            "old_west.game.option.shoot",
            model=name(self.who, self.who_ru),
            target=name(self.target_name, self.target_name_ru),
            weapon=name(self.weapon_name, self.weapon_name_ru),
            distance=self.distance,
            in_the_way=self.in_the_way,
        )


@dataclass(frozen=True, slots=True)
class HoldFire:
    """The model does not shoot this phase."""

    model: str
    who: str
    who_ru: str

    @property
    def label(self) -> Message:
        """How the option reads."""
        return msg("old_west.game.option.hold_fire", model=name(self.who, self.who_ru))


@dataclass(frozen=True, slots=True)
class Heroic:
    """Whether a Hero declares a heroic action at the start of a phase (OW-HERO-06)."""

    hero: str
    action: HeroicAction
    declare: bool
    who: str
    who_ru: str

    @property
    def label(self) -> Message:
        """How the option reads."""
        if self.declare:
            return msg(
                "old_west.game.option.heroic_declare",
                model=name(self.who, self.who_ru),
                action=self.action,
            )
        return msg(
            "old_west.game.option.heroic_decline",
            model=name(self.who, self.who_ru),
            action=self.action,
        )


@dataclass(frozen=True, slots=True)
class Flight:
    """Head for the Hills: take the test, or flee of one's own will (OW-PLK-04)."""

    flee: bool

    @property
    def label(self) -> Message:
        """How the option reads."""
        return msg("old_west.game.option.flee" if self.flee else "old_west.game.option.stand")


__all__ = ["Flight", "Heroic", "HoldFire", "MoveKind", "MoveTo", "ShootAt", "name"]
