"""Saves and injuries after hits, in shooting and in close combat (RA-CC-16).

The seeds leave both out: armour saves are the Mordheim family's (RA-ABSENT-05: light
armour 6+, heavy 5+, a shield one better) and each unsaved hit takes one from current
Стойкость; at 0 a d6 decides: knocked down, stunned or out of action (RA-ABSENT-06).
A knocked-down warrior who fails his save is out of action at once (RA-CC-17).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from kubik.engine import Procedure, Roll, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import D6
from kubik.rulesets.apocalypse.core import number


class Injury(StrEnum):
    """A warrior's state after his hits (worst last)."""

    STANDING = "standing"
    KNOCKED_DOWN = "knocked_down"
    STUNNED = "stunned"
    OUT_OF_ACTION = "out_of_action"

    @property
    def msgid(self) -> str:
        """Message id of its name."""
        return f"apocalypse.injury.{self.value}"


_ORDER = {i: n for n, i in enumerate(Injury)}


@decides("RA-ABSENT-05")
def save_needed(armour: str, shield: bool) -> int:
    """The d6 roll a save needs (7: none) (RA-ABSENT-05).

    >>> save_needed("light", True), save_needed("none", False), save_needed("none", True)
    (5, 7, 6)
    """
    needed = number("armour", armour)
    if shield:
        needed -= number("armour", "shield_bonus")
    return needed


@dataclass(frozen=True, slots=True)
class Hits:
    """Hits on one warrior: how many, the save he needs, the Стойкость he has left, and
    whether he is knocked down (every unsaved hit then takes him out, RA-CC-17)."""

    hits: int
    save: int
    toughness_left: int
    knocked_down: bool = False


@dataclass(frozen=True, slots=True)
class Harm:
    """Wounds taken and the state he ends in."""

    wounds: int
    injury: Injury


def take_hits(h: Hits) -> Procedure[Harm]:
    """Saves, then wounds, then the injury roll at 0 Стойкость (RA-CC-16, RA-ABSENT-05/06)."""
    unsaved = h.hits
    if h.save <= 6 and h.hits:
        saved: int = yield Roll(
            (D6,) * h.hits,
            msg("apocalypse.injury.saves", hits=h.hits, save=h.save),
            unordered=True,
            reduce=_count_at_least(h.save),
            rules=("RA-ABSENT-05", "RA-CC-16"),
        )
        unsaved -= saved
    if unsaved and h.knocked_down:
        yield emit("apocalypse.injury.finished_off", rules=("RA-CC-17",))
        return Harm(unsaved, Injury.OUT_OF_ACTION)
    wounds = min(unsaved, h.toughness_left)
    over = unsaved - wounds
    injury = Injury.STANDING
    if unsaved and h.toughness_left - wounds <= 0:
        for _ in range(1 + over):
            (value,) = yield Roll(D6, msg("apocalypse.injury.roll"), rules=("RA-ABSENT-06",))
            injury = max(injury, _injury_of(value), key=_ORDER.__getitem__)
            if injury is Injury.OUT_OF_ACTION:
                break
    yield emit(
        "apocalypse.injury.result",
        rules=("RA-ABSENT-06", "RA-CC-05"),
        wounds=wounds,
        injury=injury,
    )
    return Harm(wounds, injury)


def _injury_of(value: int) -> Injury:
    if value <= number("injury", "knocked_down_max"):
        return Injury.KNOCKED_DOWN
    if value <= number("injury", "stunned_max"):
        return Injury.STUNNED
    return Injury.OUT_OF_ACTION


@dataclass(frozen=True, slots=True)
class _CountAtLeast:
    needed: int

    def __call__(self, values: tuple[int, ...]) -> int:
        return sum(1 for v in values if v >= self.needed)


def _count_at_least(needed: int) -> _CountAtLeast:
    return _CountAtLeast(needed)


__all__ = ["Harm", "Hits", "Injury", "save_needed", "take_hits"]
