"""Running a rule procedure that names its two sides "a" and "b" for the posses.

Most rule procedures take the side id of the player who rolls and decides as a
parameter, so the game calls them directly. A few name the two sides of a contest by
role, because the rule is about both: a fight (:mod:`kubik.rulesets.old_west.combat`,
:mod:`~kubik.rulesets.old_west.fight`), the advantage roll, the order of heroic actions
and of fights. :func:`as_sides` runs such a procedure and rewrites every request it
yields (and, recursively, every sub-procedure it calls): a ``Choose`` goes to the
scenario side, a ``Roll`` names it as the roller, and a
:class:`~kubik.rulesets.old_west.core.Side` in a message renders as the posse's name.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Hashable
from dataclasses import dataclass, replace
from typing import Any

from kubik.engine import Call, Choose, Emit, Message, Procedure, Roll
from kubik.engine.objectives import declare_wrapper
from kubik.rulesets.old_west.core import Side


@dataclass(frozen=True, slots=True)
class Labels:
    """Rule side ("a" / "b") -> scenario side id, and the posses' names for messages."""

    roles: tuple[tuple[str, str], ...]
    names: tuple[tuple[Side, Message], ...]

    def side(self, role: str) -> str:
        """The scenario side playing ``role`` (a side id is kept as it is)."""
        return dict(self.roles).get(role, role)

    def message(self, message: Message) -> Message:
        """The message with every rule Side replaced by the posse's name."""
        names = dict(self.names)
        if not any(isinstance(v, Side) for _, v in message.params):
            return message
        params = tuple((k, names[v] if isinstance(v, Side) else v) for k, v in message.params)
        return Message(message.id, params)

    def request(self, request: Any) -> Any:
        """The request as the game should ask it (its rule IDs, labels and forecasts kept)."""
        if isinstance(request, Choose):
            return replace(
                request, side=self.side(request.side), reason=self.message(request.reason)
            )
        if isinstance(request, Roll):
            return replace(
                request, reason=self.message(request.reason), roller=self.side(request.roller)
            )
        if isinstance(request, Call):
            return Call(
                as_sides, (self, request.procedure, request.args), request.times, request.reduce
            )
        if isinstance(request, Emit):
            return replace(request, event=self.message(request.event))
        return request


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
        answer = yield labels.request(request)


def _unwrap(
    labels: Labels, procedure: Callable[..., Generator[Any, Any, Any]], args: tuple[Hashable, ...]
) -> tuple[Callable[..., Generator[Any, Any, Any]], tuple[Hashable, ...], dict[str, str]]:
    return procedure, args, dict(labels.roles)


# The optimal policy sees the rule inside, with its sides named as the posses.
declare_wrapper(as_sides, _unwrap)

__all__ = ["Labels", "as_sides"]
