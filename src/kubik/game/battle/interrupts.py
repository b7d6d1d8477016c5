"""Out-of-turn interrupts: the other side acts in the middle of this side's act.

Some rules let a player act out of turn — free fire at a charge that falls short,
a reaction when shot at, standing and shooting at chargers, overwatch when an
enemy moves into view, an ambush. A battle announces each moment such a rule may
care about as a :class:`Moment` (:meth:`Interrupts.fire`); the ruleset registers,
once, a handler per rule (:meth:`Interrupts.on`), which asks the rule whether it
applies (a :class:`~kubik.engine.Verdict`), offers the reacting side its choice
(a :class:`~kubik.game.battle.menu.Menu`, so the decision goes to that side's bot
or player) and applies the outcome. Handlers run in the order registered.

>>> from kubik.engine import Procedure, emit
>>> def free_fire(moment: Moment) -> Procedure[None]:
...     yield emit("x.free_fire", unit=moment.unit, by=moment.target)
>>> interrupts = Interrupts()
>>> interrupts.on(Trigger.CHARGE_SHORT, "free_fire", free_fire)
>>> [type(r).__name__ for r in interrupts.fire(Moment(Trigger.CHARGE_SHORT, "a", "u1", "u2"))]
['Emit']
>>> list(interrupts.fire(Moment(Trigger.MOVED, "a", "u1")))
[]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from kubik.engine import Procedure
from kubik.table import Point


class Trigger(StrEnum):
    """A moment another player may react to (each ruleset reacts to some of them)."""

    MOVED = "moved"  # a unit finished a move (overwatch, ambush, first sight)
    CHARGE_DECLARED = "charge_declared"  # stand and shoot, flee as a reaction
    CHARGE_SHORT = "charge_short"  # a charge fell short (free fire)
    SHOT_AT = "shot_at"  # a unit was fired at (reaction tests, diving for cover)
    ACTIVATION_ENDED = "activation_ended"
    PHASE_STARTED = "phase_started"
    TURN_ENDED = "turn_ended"


@dataclass(frozen=True, slots=True)
class Moment:
    """What just happened: ``unit`` of ``side`` did it (to ``target``, at ``at``);
    ``facts`` carries anything else the rules need, as plain values."""

    trigger: Trigger
    side: str
    unit: str
    target: str | None = None
    at: Point | None = None
    facts: tuple[tuple[str, Any], ...] = ()

    def fact(self, name: str, default: Any = None) -> Any:
        """One of the ``facts`` (``default`` when absent)."""
        return dict(self.facts).get(name, default)


#: A ruleset's reaction to a moment: a procedure (it may roll, ask and emit).
Handler = Callable[[Moment], Procedure[None]]


class Interrupts:
    """The handlers of one battle, per trigger, in the order registered."""

    def __init__(self) -> None:
        self._handlers: list[tuple[Trigger, str, Handler]] = []

    def on(self, trigger: Trigger, name: str, handler: Handler) -> None:
        """Run ``handler`` at every ``trigger`` (``name`` says which rule it is)."""
        if any(t is trigger and n == name for t, n, _ in self._handlers):
            raise ValueError(f"an interrupt {name!r} is registered for {trigger} already")
        self._handlers.append((trigger, name, handler))

    def names(self, trigger: Trigger) -> tuple[str, ...]:
        """The handlers registered for ``trigger``, in order."""
        return tuple(n for t, n, _ in self._handlers if t is trigger)

    def fire(self, moment: Moment) -> Procedure[None]:
        """Let every handler of the moment's trigger react, one after the other."""
        for trigger, _, handler in self._handlers:
            if trigger is moment.trigger:
                yield from handler(moment)


__all__ = ["Handler", "Interrupts", "Moment", "Trigger"]
