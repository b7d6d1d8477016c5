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
from dataclasses import dataclass, field, fields
from typing import Any

from kubik.core.keeping import Kept
from kubik.engine import Call, Choose, Emit, Message, Procedure, Roll
from kubik.engine.wrappers import declare_wrapper
from kubik.rulesets.old_west.core import Side

#: Most relabelled requests a battle's labels keep (an engine limit, not a rule).
REQUESTS_KEPT = 1024


@dataclass(frozen=True, slots=True)
class Labels:
    """Rule side ("a" / "b") -> scenario side id, and the posses' names for messages."""

    roles: tuple[tuple[str, str], ...]
    names: tuple[tuple[Side, Message], ...]
    # the two tables as dicts, made once (every request of a fight is relabelled)
    _roles: dict[str, str] = field(init=False, repr=False, compare=False)
    _names: dict[Side, Message] = field(init=False, repr=False, compare=False)
    _hash: int = field(init=False, repr=False, compare=False)
    # requests already relabelled, by the identity of the rule's own (kept) request
    _made: Kept[int, tuple[Any, Any]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_roles", dict(self.roles))
        object.__setattr__(self, "_names", dict(self.names))
        object.__setattr__(self, "_hash", hash((self.roles, self.names)))
        object.__setattr__(self, "_made", Kept(REQUESTS_KEPT))

    def __hash__(self) -> int:
        # every sub-procedure call of a fight carries the labels, and the odds keep
        # calls by their arguments: the posses' names are hashed once
        return self._hash

    def side(self, role: str) -> str:
        """The scenario side playing ``role`` (a side id is kept as it is)."""
        return self._roles.get(role, role)

    def message(self, message: Message) -> Message:
        """The message with every rule Side replaced by the posse's name (the message
        itself when it names no Side)."""
        params = message.params
        for _, value in params:
            if isinstance(value, Side):
                break
        else:
            return message
        names = self._names
        return Message(
            message.id, tuple((k, names[v] if isinstance(v, Side) else v) for k, v in params)
        )

    def request(self, request: Any) -> Any:
        """The request as the game should ask it (its rule IDs, labels and forecasts kept;
        the request itself when nothing in it changes). The rules build most of their
        requests once and ask them again and again (a fight's dice, while its odds are
        worked out), so each is relabelled once, known by its identity."""
        known = self._made.get(id(request))
        if known is not None and known[0] is request:
            return known[1]
        made = self._relabelled(request)
        self._made.keep(id(request), (request, made))
        return made

    def _relabelled(self, request: Any) -> Any:
        if isinstance(request, Roll):
            reason = self.message(request.reason)
            roller = self._roles.get(request.roller, request.roller)
            if reason is request.reason and roller == request.roller:
                return request
            return _with(request, reason=reason, roller=roller)
        if isinstance(request, Call):
            return Call(
                as_sides,
                (self, request.procedure, request.args),
                request.times,
                request.reduce,
                request.inline,
                request.tail,
                request.then,  # a tail call's promise holds through the relabelling
            )
        if isinstance(request, Emit):
            event = self.message(request.event)
            return request if event is request.event else _with(request, event=event)
        if isinstance(request, Choose):
            side = self._roles.get(request.side, request.side)
            reason = self.message(request.reason)
            if reason is request.reason and side == request.side:
                return request
            return _with(request, side=side, reason=reason)
        return request


#: The field names of each kind of request, read once.
_FIELDS: dict[type, tuple[str, ...]] = {}


def _with(request: Any, **changes: Any) -> Any:
    """``dataclasses.replace(request, **changes)`` for a request the engine checked when it
    was made: only a side's id and the names in its messages change, which none of its
    checks reads, so its fields are copied as they are (a fight's every roll and decision
    passes here, over and over while the odds of a fight are worked out)."""
    kind = type(request)
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(f.name for f in fields(kind))
    made = object.__new__(kind)
    for name in names:
        object.__setattr__(made, name, changes[name] if name in changes else getattr(request, name))
    return made


def as_sides(
    labels: Labels, procedure: Callable[..., Generator[Any, Any, Any]], args: tuple[Hashable, ...]
) -> Procedure[Any]:
    """Run ``procedure(*args)`` with its requests relabelled for the scenario's sides."""
    send = procedure(*args).send
    relabel = labels.request
    try:
        request = send(None)
        while True:
            request = send((yield relabel(request)))
    except StopIteration as stop:
        return stop.value


def _unwrap(
    labels: Labels, procedure: Callable[..., Generator[Any, Any, Any]], args: tuple[Hashable, ...]
) -> tuple[Callable[..., Generator[Any, Any, Any]], tuple[Hashable, ...], dict[str, str]]:
    return procedure, args, dict(labels.roles)


# The optimal policy sees the rule inside, with its sides named as the posses.
declare_wrapper(as_sides, _unwrap)

__all__ = ["Labels", "as_sides"]
