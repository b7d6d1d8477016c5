"""The toy's battle code: it runs the rule procedure with ``Call`` and with
``yield from``, and narrates a rule of its own (which no rule module decided)."""

from __future__ import annotations

from kubik.dice import D6
from kubik.engine import Call, Procedure, Roll, emit, msg
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
