"""Running a rule procedure for the posses: its side labels become the scenario's sides.

The rule procedures name who decides and who rolls by role: "a"/"b" (the two sides
of a fight or of the advantage roll), "shooter", "striker", "leader", "model",
"hero". A game must ask the posse that plays the role, so :func:`as_sides` runs the
procedure and rewrites every request it yields (and, recursively, every
sub-procedure it calls): a ``Choose`` goes to the scenario side, a ``Roll`` names it
as the roller, and a :class:`~kubik.rulesets.old_west.core.Side` in a message
renders as the posse's name. It also counts the Fame each posse spends through the
procedure's Fame decisions (the rule outcomes do not all report it).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Hashable
from dataclasses import dataclass, field
from typing import Any

from kubik.engine import Call, Choose, Emit, Message, Procedure, Roll
from kubik.rulesets.old_west.core import Side

#: Fame decisions of the rule modules: the answer is the number of points spent.
FAME_REASONS = frozenset(
    {
        "old_west.fame.spend_wound",
        "old_west.fame.spend_fight",
        "old_west.fame.spend_hit",
        "old_west.fame.spend_jump",
        "old_west.fame.spend_pluck",
    }
)


@dataclass(slots=True)
class FameLedger:
    """Fame points spent per scenario side since the last :meth:`take`."""

    spent: dict[str, int] = field(default_factory=dict)

    def add(self, side: str, points: int) -> None:
        """Record ``points`` spent by ``side``."""
        self.spent[side] = self.spent.get(side, 0) + points

    def take(self, side: str) -> int:
        """Points ``side`` spent since the last take (then forgotten)."""
        return self.spent.pop(side, 0)


@dataclass(frozen=True, slots=True)
class Labels:
    """Role or rule side -> scenario side id, and the posses' names for messages."""

    roles: tuple[tuple[str, str], ...]
    names: tuple[tuple[Side, Message], ...]
    ledger: FameLedger = field(compare=False, hash=False)

    def side(self, role: str) -> str:
        """The scenario side playing ``role`` (unknown roles are kept)."""
        return dict(self.roles).get(role, role)

    def message(self, message: Message) -> Message:
        """The message with every rule Side replaced by the posse's name."""
        names = dict(self.names)
        if not any(isinstance(v, Side) for _, v in message.params):
            return message
        params = tuple((k, names[v] if isinstance(v, Side) else v) for k, v in message.params)
        return Message(message.id, params)

    def request(self, request: Any) -> Any:
        """The request as the game should ask it."""
        if isinstance(request, Choose):
            return Choose(
                request.options,
                self.side(request.side),
                self.message(request.reason),
                default=request.default,
                forecasts=request.forecasts,
            )
        if isinstance(request, Roll):
            return Roll(
                request.dice,
                self.message(request.reason),
                unordered=request.unordered,
                reduce=request.reduce,
                roller=self.side(request.roller),
            )
        if isinstance(request, Call):
            return Call(
                as_sides, (self, request.procedure, request.args), request.times, request.reduce
            )
        if isinstance(request, Emit):
            return Emit(self.message(request.event))
        return request

    def with_roles(self, **roles: str) -> Labels:
        """The same labels with more roles mapped (``shooter="law"``)."""
        return Labels((*self.roles, *roles.items()), self.names, self.ledger)


def as_sides(
    labels: Labels, procedure: Callable[..., Generator[Any, Any, Any]], args: tuple[Hashable, ...]
) -> Procedure[Any]:
    """Run ``procedure(*args)`` with its requests relabelled for the scenario's sides."""
    inner = procedure(*args)
    answer: Any = None
    while True:
        try:
            request = inner.send(answer)
        except StopIteration as stop:
            return stop.value
        asked = labels.request(request)
        answer = yield asked
        if (
            isinstance(asked, Choose)
            and asked.reason.id in FAME_REASONS
            and isinstance(answer, int)
            and answer > 0
        ):
            labels.ledger.add(asked.side, answer)


__all__ = ["FAME_REASONS", "FameLedger", "Labels", "as_sides"]
