"""The record of a resolution: rolls, decisions and events, in the order they happened.

The log is structured (message ids and parameters, never text): it is rendered per
language for people, and the answers in it are the undo record and the replay
fixture.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from enum import Enum
from typing import TypeAlias

from kubik.engine.dice import Die
from kubik.engine.requests import Message


class DiceOrigin(Enum):
    """Where a die value came from."""

    VIRTUAL = "virtual"  # rolled by the program's seeded generator
    TYPED = "typed"  # rolled at the table and typed in by a person


class ChoiceOrigin(Enum):
    """Who made a decision."""

    DEFAULT = "default"  # the request's default (a policy or an impatient player)
    BOT = "bot"
    HUMAN = "human"
    POLICY = "policy"


@dataclass(frozen=True, slots=True)
class RollEntry:
    """Dice rolled for a reason; ``values`` in the order of ``dice``."""

    dice: tuple[Die, ...]
    values: tuple[int, ...]
    reason: Message
    origin: DiceOrigin
    roller: str = ""
    depth: int = 0
    rules: tuple[str, ...] = ()  # catalogue rule IDs the roll applies


@dataclass(frozen=True, slots=True)
class ChoiceEntry:
    """A decision taken by ``side``."""

    side: str
    reason: Message
    options: tuple[Hashable, ...]
    answer: Hashable
    origin: ChoiceOrigin
    depth: int = 0
    rules: tuple[str, ...] = ()  # catalogue rule IDs the decision applies
    label: Message | None = None  # how the chosen option is shown to people
    typed: str | None = None  # what a person typed instead of picking an option


@dataclass(frozen=True, slots=True)
class EventEntry:
    """Something that happened (an ``Emit``)."""

    event: Message
    depth: int = 0
    rules: tuple[str, ...] = ()  # catalogue rule IDs whose consequence this is


LogEntry: TypeAlias = RollEntry | ChoiceEntry | EventEntry


@dataclass(frozen=True, slots=True)
class RollAnswer:
    """The answer to one Roll, as stored in a save."""

    values: tuple[int, ...]
    origin: DiceOrigin = DiceOrigin.VIRTUAL


@dataclass(frozen=True, slots=True)
class Typed:
    """A decision a person answered by typing (a position, a measured distance): the
    text as typed, which the game reads again on replay."""

    text: str


@dataclass(frozen=True, slots=True)
class ChoiceAnswer:
    """The answer to one Choose, as stored in a save."""

    value: Hashable
    origin: ChoiceOrigin = ChoiceOrigin.DEFAULT


Answer: TypeAlias = RollAnswer | ChoiceAnswer
