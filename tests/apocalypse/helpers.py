"""Test helpers for Дороги Апокалипсиса: resolve a rule with typed dice."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from kubik.engine import Choose, TableSession
from kubik.engine.log import ChoiceOrigin, EventEntry, LogEntry


class Scripted:
    """Answers decisions from a list (then the default)."""

    origin = ChoiceOrigin.HUMAN

    def __init__(self, answers: list[Hashable] | None = None) -> None:
        self.answers = list(answers or [])

    def choose(self, request: Choose) -> Hashable:
        return self.answers.pop(0) if self.answers else request.default


def resolve(
    procedure: Callable[..., Any],
    args: tuple[Any, ...],
    dice: list[int],
    answers: list[Hashable] | None = None,
) -> tuple[Any, tuple[LogEntry, ...]]:
    """The outcome and log of ``procedure(*args)`` with exactly these dice."""
    session = TableSession(procedure, args, chooser=Scripted(answers))
    session.supply(dice)
    assert session.result is not None, f"still waiting for {session.pending}"
    return session.result.outcome, tuple(session.result.log)


def events(log: tuple[LogEntry, ...]) -> list[str]:
    """The message ids of the log's events."""
    return [e.event.id for e in log if isinstance(e, EventEntry)]


def terrain(feature_id: str, points: list[list[float]], **fields: object) -> str:
    """A scenario's ``[[terrain]]`` entry: ``points`` and any other fields."""
    lines = ["[[terrain]]", f'id = "{feature_id}"']
    for key, value in fields.items():
        shown = str(value).lower() if isinstance(value, bool) else value
        lines.append(f'{key} = "{shown}"' if isinstance(value, str) else f"{key} = {shown}")
    lines.append(f"points = {points}")
    return "\n".join(lines) + "\n"
