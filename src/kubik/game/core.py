"""A whole game as one procedure: the :class:`Game` protocol and its :class:`GameResult`.

A ruleset's game object yields the engine's requests (Roll, Choose, Call, Emit)
from :meth:`Game.play` and returns a :class:`GameResult`. Its mutable state lives
on the object and is rebuilt by replaying the recorded answers, so a save is just
the scenario, the seed and the answers.

>>> result = GameResult("steel", 4, (SideSummary("steel", (("units_left", 2),)),))
>>> result.side("steel").count("units_left"), result.side("steel").count("killed")
(2, 0)
>>> GameResult(None, 6).is_draw
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from kubik.engine.requests import Procedure


@dataclass(frozen=True, slots=True)
class SideSummary:
    """What a side ended the game with: named counts (units left, models killed ...)."""

    side: str
    counts: tuple[tuple[str, int], ...] = ()

    def count(self, name: str) -> int:
        """The count called ``name`` (0 when the ruleset did not report it)."""
        return dict(self.counts).get(name, 0)

    def as_dict(self) -> dict[str, int]:
        """The counts as a JSON-ready dict."""
        return dict(self.counts)


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended: the winning side's id (``None`` for a draw) and the turns played."""

    winner: str | None
    turns: int
    summary: tuple[SideSummary, ...] = ()

    @property
    def is_draw(self) -> bool:
        """Whether nobody won."""
        return self.winner is None

    def side(self, side: str) -> SideSummary:
        """The summary of ``side`` (empty when the ruleset reported none)."""
        for item in self.summary:
            if item.side == side:
                return item
        return SideSummary(side)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready: ``{"winner", "turns", "summary": {side: {name: n}}}``."""
        return {
            "winner": self.winner,
            "turns": self.turns,
            "summary": {s.side: s.as_dict() for s in self.summary},
        }


@runtime_checkable
class Game(Protocol):
    """One game in progress: a ruleset builds it from a scenario; the session plays it.

    ``play()`` must be deterministic given the answers it receives (no clocks, no
    global random state): that is what makes replay, undo and saves exact.
    """

    def play(self) -> Procedure[GameResult]:
        """The whole game: yields requests, returns how it ended."""
        ...


__all__ = ["Game", "GameResult", "SideSummary"]
