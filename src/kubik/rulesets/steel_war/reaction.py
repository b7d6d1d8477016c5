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
from typing import TYPE_CHECKING, TypeAlias

from kubik.core.errors import InputError
from kubik.engine import Procedure, Verdict, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import Die
from kubik.engine.requests import RuleIds
from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war.core import leadership_test

if TYPE_CHECKING:
    from kubik.rulesets.steel_war.morale_levels import MoraleLevel


class ReactionAction(StrEnum):
    """Actions and events on the seed's reaction-test list (SW-REACT-02).

    The charge's test is on the list too («Попытка вступить в ближний бой»); its
    threat depends on the squad's morale level and is SW-CC-02's enhanced test.
    """

    GO_TO_GROUND_OPEN = "go_to_ground_open"  # залечь на открытой местности
    GO_TO_GROUND_OTHER = "go_to_ground_other"  # залечь в лесу, кустарнике, укрытии
    MOVE_WHILE_DOWN = "move_while_down"  # двигаться, не сняв «залегание»
    LEAVE_COVER_SHAKEN = "leave_cover_shaken"  # «По» покидает укрытие
    CHARGE = "charge"  # вступить в ближний бой (усиленный тест, SW-CC-02)
    PANIC_EVENT = "panic_event"  # событие, вызывающее панику

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"steel_war.reaction.{self.value}"


#: The reaction tests a :class:`~kubik.engine.Verdict` asks for before an act, in the
#: order they are taken (moving out of cover while gone to ground as По needs two).
Tests: TypeAlias = tuple[ReactionAction, ...]


@decides("SW-REACT-02")
@cache  # the data is read once per process, as every rule module does
def reaction_threat(action: ReactionAction, level: MoraleLevel | None = None) -> int:
    """The threat level of the reaction test for ``action`` (SW-REACT-02).

    The charge's threat is by the squad's morale ``level``: Ст +1, По +3 (SW-CC-02);
    Ра and Бе never charge.

    >>> reaction_threat(ReactionAction.GO_TO_GROUND_OPEN)
    2
    >>> reaction_threat(ReactionAction.PANIC_EVENT)
    0
    """
    data = load_ruleset_data("steel_war")
    if action is not ReactionAction.CHARGE:
        return int(data["reaction_threats"][action.value])
    table = data["charge_test"]
    if level is None or level.value in table["never_charge"]:
        never = ", ".join(table["never_charge"])
        raise InputError(
            f"level: a charge's threat needs a morale level that charges (not {never})"
        )
    return int(table[level.value])


#: The rules each reaction test applies, besides the reaction test itself.
_TEST_RULES: dict[ReactionAction, tuple[str, ...]] = {
    ReactionAction.GO_TO_GROUND_OPEN: ("SW-FIRE-07",),
    ReactionAction.GO_TO_GROUND_OTHER: ("SW-FIRE-07",),
    ReactionAction.MOVE_WHILE_DOWN: ("SW-FIRE-07",),
    ReactionAction.LEAVE_COVER_SHAKEN: ("SW-MOR-01",),
    ReactionAction.CHARGE: ("SW-CC-02",),
    ReactionAction.PANIC_EVENT: ("SW-PANIC-01",),
}


@cache
def reaction_rules(action: ReactionAction) -> RuleIds:
    """The catalogue rules a reaction test for ``action`` applies (for the log).

    >>> reaction_rules(ReactionAction.MOVE_WHILE_DOWN)
    ('SW-REACT-01', 'SW-REACT-02', 'SW-FIRE-07')
    """
    return ("SW-REACT-01", "SW-REACT-02", *_TEST_RULES[action])


def reaction_verdict(
    action: ReactionAction, failed: FailedReactions, *, no_step_back: bool = False
) -> Verdict:
    """An act that needs the reaction test for ``action``: allowed after it, or not at all
    when the squad failed that test earlier this turn (SW-REACT-01). A squad in «Ни шагу
    назад!» passes every reaction test, so nothing stands in its way (SW-NSN-03).

    >>> reaction_verdict(ReactionAction.MOVE_WHILE_DOWN, FailedReactions()).test
    (<ReactionAction.MOVE_WHILE_DOWN: 'move_while_down'>,)
    >>> barred = FailedReactions().add(ReactionAction.MOVE_WHILE_DOWN)
    >>> reaction_verdict(ReactionAction.MOVE_WHILE_DOWN, barred).allowed
    False
    """
    rules = reaction_rules(action)
    if no_step_back:
        return Verdict.allow("SW-NSN-03")
    if not failed.may_attempt(action):
        return Verdict.forbid(msg("steel_war.permission.reaction_failed", test=action), *rules)
    return Verdict.need((action,), msg("steel_war.permission.reaction_test", test=action), *rules)


@dataclass(frozen=True, slots=True)
class ReactionOutcome:
    """Whether the squad carries out the action."""

    passed: bool


def reaction_test(
    quality: Die,
    leadership: int,
    threat: int,
    no_step_back: bool = False,
    rules: RuleIds = ("SW-REACT-01", "SW-REACT-02"),
) -> Procedure[ReactionOutcome]:
    """Beat leadership + threat on the quality die; a failure only loses the action.

    ``rules``: the rules of the act being tested (:func:`reaction_rules`), for the log.
    """
    if no_step_back:
        yield emit("steel_war.reaction_test.no_step_back", rules=("SW-NSN-03", *rules))
        return ReactionOutcome(True)
    target = leadership + threat
    passed, roll = yield from leadership_test(
        quality,
        leadership,
        threat,
        msg("steel_war.reaction_test.roll", target=target),
        "squad",
        rules=rules,
    )
    yield emit(
        "steel_war.reaction_test.result",
        rules=rules,
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
