"""The turn-loop framework: a base class for games played in numbered turns.

A ruleset's game subclasses :class:`TurnLoop` and writes :meth:`TurnLoop.turn`
(one turn as a procedure), :meth:`TurnLoop.ending` (has someone won?) and
:meth:`TurnLoop.summary`. The loop narrates the start, each turn and the end
(messages ``game.*``), stops at the scenario's ``end.turn_limit`` and then asks
:meth:`TurnLoop.winner_at_limit`. A scenario without a turn limit still stops, at
the engine limit :data:`kubik.core.limits.TURNS`, as at a turn limit: no game runs forever.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from kubik.core import limits
from kubik.engine.requests import Call, Message, Procedure, emit, msg
from kubik.game.core import GameResult, SideSummary
from kubik.game.scenario import Scenario
from kubik.text.i18n import name_msg


def side_name(scenario: Scenario, side_id: str) -> Message:
    """A side's name as a message that renders in either language (and in any Russian
    case: the scenario's ``name_ru_cases`` and ``gender_ru`` go with it)."""
    side = scenario.side(side_id)
    return name_msg(side.name, side.name_ru, cases=side.name_ru_cases, gender=side.gender_ru)


def unit_name(scenario: Scenario, unit_id: str) -> Message:
    """A unit's (or an Old West model's) name from its ``[[units]]`` entry: ``name``
    and ``name_ru`` (its id when it has none), with ``name_ru_cases`` and ``gender_ru``."""
    unit = next((u for u in scenario.units if u.id == unit_id), None)
    if unit is None:
        return name_msg(unit_id)
    data = unit.data
    en = str(data.get("name") or unit.id)
    ru = str(data.get("name_ru") or en)
    return name_msg(en, ru, cases=unit.name_ru_cases, gender=unit.gender_ru)


@dataclass(frozen=True, slots=True)
class Ending:
    """A game decided before the turn limit: ``winner`` (None: a draw) and why."""

    winner: str | None
    reason: Message


class TurnLoop(ABC):
    """A game of numbered turns; the state lives on the subclass's attributes."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self.turn_number = 0

    @abstractmethod
    def turn(self, number: int) -> Procedure[None]:
        """Play turn ``number`` (1-based): yields requests, changes the state."""

    @abstractmethod
    def ending(self) -> Ending | None:
        """The ending if the game is decided now (checked after every turn)."""

    def winner_at_limit(self) -> str | None:
        """Who wins when the turn limit is reached (``None``: a draw, the default)."""
        return None

    def summary(self) -> tuple[SideSummary, ...]:
        """Per-side counts for the result (none by default)."""
        return ()

    def play(self) -> Procedure[GameResult]:
        """The whole game: turns until an ending or the turn limit."""
        name = name_msg(self.scenario.name, self.scenario.name_ru)
        yield emit("game.started", scenario=name)
        limit = self.scenario.turn_limit or limits.TURNS
        ending: Ending | None = None
        while ending is None:
            self.turn_number += 1
            yield emit("game.turn", n=self.turn_number)
            yield Call(self.turn, (self.turn_number,))
            ending = self.ending()
            if ending is None and self.turn_number >= limit:
                ending = Ending(self.winner_at_limit(), msg("game.turn_limit", n=limit))
        if ending.winner is None:
            yield emit("game.ended.draw", turns=self.turn_number, reason=ending.reason)
        else:
            winner = side_name(self.scenario, ending.winner)
            yield emit(
                "game.ended.winner", winner=winner, turns=self.turn_number, reason=ending.reason
            )
        return GameResult(ending.winner, self.turn_number, self.summary())


__all__ = ["Ending", "TurnLoop", "side_name", "unit_name"]
