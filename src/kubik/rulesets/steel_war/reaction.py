"""The reaction test (тест на реакцию): will the squad do what it was told?

It is the morale test's form — quality die beats leadership + threat — but a
failure costs no morale: the squad just does not do that action, and may not try
it again in this activation nor this turn, not even with an action its commander
passes to it (SW-REACT-01). The actions needing one and their threats are data
(SW-REACT-02). A squad in «Ни шагу назад!» passes every reaction test (SW-NSN-03).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from kubik.data import load_ruleset_data
from kubik.dice import Die
from kubik.engine import Procedure, emit, msg
from kubik.rulesets.steel_war.core import leadership_test


class ReactionAction(StrEnum):
    """Actions and events on the seed's reaction-test list (the charge is SW-CC-02's)."""

    GO_TO_GROUND_OPEN = "go_to_ground_open"  # залечь на открытой местности
    GO_TO_GROUND_OTHER = "go_to_ground_other"  # залечь в лесу, кустарнике, укрытии
    MOVE_WHILE_DOWN = "move_while_down"  # двигаться, не сняв «залегание»
    LEAVE_COVER_SHAKEN = "leave_cover_shaken"  # «По» покидает укрытие
    PANIC_EVENT = "panic_event"  # событие, вызывающее панику

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"steel_war.reaction.{self.value}"


@cache
def reaction_threat(action: ReactionAction) -> int:
    """The threat level of the reaction test for ``action`` (SW-REACT-02).

    >>> reaction_threat(ReactionAction.GO_TO_GROUND_OPEN)
    2
    >>> reaction_threat(ReactionAction.PANIC_EVENT)
    0
    """
    return int(load_ruleset_data("steel_war")["reaction_threats"][action.value])


@dataclass(frozen=True, slots=True)
class ReactionOutcome:
    """Whether the squad carries out the action."""

    passed: bool


def reaction_test(
    quality: Die, leadership: int, threat: int, no_step_back: bool = False
) -> Procedure[ReactionOutcome]:
    """Beat leadership + threat on the quality die; a failure only loses the action."""
    if no_step_back:
        yield emit("steel_war.reaction_test.no_step_back")
        return ReactionOutcome(True)
    target = leadership + threat
    passed, roll = yield from leadership_test(
        quality, leadership, threat, msg("steel_war.reaction_test.roll", target=target), "squad"
    )
    yield emit(
        "steel_war.reaction_test.result",
        die=quality,
        roll=roll,
        leadership=leadership,
        threat=threat,
        target=target,
        passed=passed,
    )
    return ReactionOutcome(passed)


@dataclass(frozen=True, slots=True)
class FailedReactions:
    """Actions a squad failed a reaction test for this turn: it may not retry them.

    >>> f = FailedReactions().add(ReactionAction.LEAVE_COVER_SHAKEN)
    >>> f.may_attempt(ReactionAction.LEAVE_COVER_SHAKEN)
    False
    >>> f.may_attempt(ReactionAction.MOVE_WHILE_DOWN)
    True
    >>> FailedReactions.new_turn().may_attempt(ReactionAction.LEAVE_COVER_SHAKEN)
    True
    """

    failed: frozenset[ReactionAction] = frozenset()

    def add(self, action: ReactionAction) -> FailedReactions:
        """After a failed test: that action is barred for the rest of the turn."""
        return FailedReactions(self.failed | {action})

    def may_attempt(self, action: ReactionAction) -> bool:
        """Whether the action may be tried (again) this turn, by any action of the squad."""
        return action not in self.failed

    @classmethod
    def new_turn(cls) -> FailedReactions:
        """The bar lasts until the turn ends (SW-REACT-01)."""
        return cls()
