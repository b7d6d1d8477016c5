"""What each side of a procedure wants: the objectives the optimal policy maximises.

A rule procedure declares, for each side that decides in it, a :class:`Goal`: a
worth for every outcome (higher is better; the policy maximises its expectation).
Declarations live beside the rules (:func:`declare`), keyed by the procedure
function and computed from its arguments, because a rule often takes the deciding
side as an argument (``wound_with_fame(..., side)``). A wrapper procedure that runs
another one with its sides renamed (a battle's posses for a rule's "a" and "b")
registers how to see through it (:func:`~kubik.engine.wrappers.declare_wrapper`).

People can pass their own goal for a side as a short text (:func:`parse_goal`):
``wounded`` (maximise a field: a number or a yes/no), ``-wounds`` (minimise it),
``winner=a`` (maximise the chance that a field has that value).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Hit:
...     wounded: bool
...     wounds: tuple[int, ...] = ()
>>> parse_goal("wounded").worth(Hit(True)), parse_goal("-wounds").worth(Hit(True, (1, 2)))
(1, -3)
>>> parse_goal("wounded=false").worth(Hit(False))
1
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any, TypeAlias

from kubik.core.errors import InputError
from kubik.engine.registry import load_goals
from kubik.engine.requests import Message, msg
from kubik.engine.wrappers import Unwrap, declare_wrapper, unwrapper

#: What an outcome is worth to a side (booleans count 1 and 0).
Worth: TypeAlias = int | Fraction | bool


@dataclass(frozen=True, slots=True)
class Goal:
    """One side's objective: ``worth(outcome)``, maximised in expectation.

    ``worth`` must be hashable and compare by value (a frozen dataclass such as
    :class:`FieldIs`, not a lambda), so that equal goals share memoised answers.
    ``text`` says what it is, for people.
    """

    worth: Callable[[Any], Worth]
    text: Message


#: Side → its goal.
Objectives: TypeAlias = Mapping[str, Goal]


def _field(outcome: Any, name: str) -> Any:
    if dataclasses.is_dataclass(outcome) and not isinstance(outcome, type):
        if name in {f.name for f in dataclasses.fields(outcome)}:
            return getattr(outcome, name)
    elif isinstance(outcome, Mapping) and name in outcome:
        return outcome[name]
    elif name == "value":
        return outcome
    raise InputError(f"objective: the outcome {outcome!r} has no field '{name}'")


def _number(value: Any, name: str) -> Worth:
    if isinstance(value, bool | int | Fraction):
        return value
    if isinstance(value, tuple | list):
        return sum((_number(v, name) for v in value), 0)
    raise InputError(f"objective: field '{name}' is not a number or yes/no ({value!r})")


def _text(value: Any) -> str:
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@dataclass(frozen=True, slots=True)
class FieldValue:
    """Worth: a field's number (a yes/no counts 1/0; a tuple of numbers, its sum), signed."""

    name: str
    sign: int = 1

    def __call__(self, outcome: Any) -> Worth:
        return self.sign * _number(_field(outcome, self.name), self.name)


@dataclass(frozen=True, slots=True)
class FieldIs:
    """Worth: 1 when a field has the value (compared as text: enums by value), else 0."""

    name: str
    value: str

    def __call__(self, outcome: Any) -> Worth:
        return int(_text(_field(outcome, self.name)) == self.value)


@dataclass(frozen=True, slots=True)
class Weighted:
    """Worth: a weighted sum of other worths (bot tastes from data)."""

    parts: tuple[tuple[Callable[[Any], Worth], Fraction], ...]

    def __call__(self, outcome: Any) -> Worth:
        return sum((Fraction(part(outcome)) * weight for part, weight in self.parts), Fraction(0))


def goal(worth: Callable[[Any], Worth], message_id: str, /, **params: Any) -> Goal:
    """Shorthand: ``goal(FieldIs("winner", "a"), "old_west.goal.wins_fight")``."""
    return Goal(worth, msg(message_id, **params))


def parse_goal(text: str) -> Goal:
    """A goal from a short text: ``FIELD`` (maximise), ``-FIELD`` (minimise), ``FIELD=VALUE``."""
    spec = text.strip()
    if not spec or spec in {"-", "="}:
        raise InputError("objective: empty; write FIELD, -FIELD or FIELD=VALUE")
    if "=" in spec:
        name, value = (part.strip() for part in spec.split("=", 1))
        if not name or not value:
            raise InputError(f"objective: '{text}' is not FIELD=VALUE")
        return goal(FieldIs(name, value), "kubik.goal.field_is", field=name, value=value)
    if spec.startswith("-"):
        name = spec[1:].strip()
        return goal(FieldValue(name, -1), "kubik.goal.field_low", field=name)
    return goal(FieldValue(spec), "kubik.goal.field_high", field=spec)


#: A procedure's declaration: its arguments → each deciding side's goal.
ObjectiveRule: TypeAlias = Callable[..., Objectives]

_DECLARED: dict[Callable[..., Any], ObjectiveRule] = {}


def declare(procedure: Callable[..., Any], rule: ObjectiveRule) -> None:
    """Declare each deciding side's default goal for ``procedure``; ``rule`` takes its args."""
    _DECLARED[procedure] = rule


def _load_declarations(procedure: Callable[..., Any]) -> None:
    """Import the goals declared for the rules of ``procedure``'s ruleset (its
    ``objectives`` module): a ruleset loads them only when the optimal policy asks."""
    module = getattr(procedure, "__module__", None)
    if isinstance(module, str):
        load_goals(module)


def objectives_for(
    procedure: Callable[..., Any] | None, args: tuple[Any, ...]
) -> Objectives | None:
    """The declared goals of ``procedure(*args)`` by side, or ``None`` if it declares none."""
    if procedure is None:
        return None
    rule = _DECLARED.get(procedure)
    unwrap = unwrapper(procedure)
    if rule is None and unwrap is None:
        _load_declarations(procedure)
        rule = _DECLARED.get(procedure)
    if rule is not None:
        return rule(*args)
    if unwrap is None:
        return None
    inner, inner_args, sides = unwrap(*args)
    found = objectives_for(inner, inner_args)
    if found is None:
        return None
    return {sides.get(side, side): g for side, g in found.items()}


def override(declared: Objectives | None, given: Mapping[str, str | Goal]) -> dict[str, Goal]:
    """The declared goals with the sides in ``given`` replaced (texts are parsed)."""
    out = dict(declared or {})
    for side, spec in given.items():
        out[side] = spec if isinstance(spec, Goal) else parse_goal(spec)
    return out


#: Message id of a decision's question → what matters in its situation (for explain).
_SUMMARIES: dict[str, Callable[[Message], Message]] = {}


def summarise(message_id: str, summary: Callable[[Message], Message]) -> None:
    """Declare how the situation of decisions asked with ``message_id`` reads in short
    (:mod:`kubik.engine.explain` shows the optimal policy by these situations)."""
    _SUMMARIES[message_id] = summary


def situation(reason: Message) -> Message:
    """A decision's situation: its ruleset's summary, else the question itself."""
    summary = _SUMMARIES.get(reason.id)
    return summary(reason) if summary is not None else reason


def goal_key(objectives: Objectives) -> Hashable:
    """A hashable identity of a set of goals (sides and worths; texts do not matter)."""
    return tuple(sorted((side, g.worth) for side, g in objectives.items()))


__all__ = [
    "FieldIs",
    "FieldValue",
    "Goal",
    "ObjectiveRule",
    "Objectives",
    "Unwrap",
    "Weighted",
    "Worth",
    "declare",
    "declare_wrapper",
    "goal",
    "goal_key",
    "objectives_for",
    "override",
    "parse_goal",
    "situation",
    "summarise",
]
