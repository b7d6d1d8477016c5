"""The toy's battle code: it runs the rule procedure with ``Call``, with ``yield
from`` and through a declared wrapper that renames sides (as Old West's battle does),
and narrates a rule of its own (which no rule module decided)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kubik.engine import Call, Procedure, Roll, emit, msg
from kubik.engine.dice import D6
from kubik.engine.wrappers import declare_wrapper
from tests.engine.applied_toy.rules import hit, may_shoot


def by_call() -> Procedure[bool]:
    """Shoot through ``Call``."""
    return bool((yield Call(hit, ())))


def by_yield_from() -> Procedure[bool]:
    """Shoot through ``yield from``, one generator deeper."""
    return (yield from _aim())


def _aim() -> Procedure[bool]:
    return (yield from hit())


def narrating() -> Procedure[None]:
    """Battle code naming rules itself: a roll and an event no rule module asked."""
    yield Roll(D6, msg("toy.scatter"), rules="AT-SCATTER-01")
    yield emit("toy.narrated", rules="AT-NARRATED-01")
    if may_shoot(True).allowed:
        yield emit("toy.shoots")


def relabelled(procedure: Callable[..., Procedure[Any]], args: tuple[Any, ...]) -> Procedure[Any]:
    """Run ``procedure(*args)`` by hand, passing its requests on (as a wrapper that renames
    sides does): neither a ``Call`` of the rule nor ``yield from`` it."""
    send = procedure(*args).send
    try:
        request = send(None)
        while True:
            request = send((yield request))
    except StopIteration as stop:
        return stop.value


declare_wrapper(relabelled, lambda procedure, args: (procedure, args, {}))


def by_wrapper() -> Procedure[bool]:
    """Shoot through the wrapper."""
    return bool((yield Call(relabelled, (hit, ()))))
