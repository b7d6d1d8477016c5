"""Replaying a saved game: the narrated log, step by step (``kubik replay NAME``).

The game is rebuilt from its record alone (the embedded scenario, the seed and
the answers), so a replay shows exactly the game that was played.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from kubik.engine.log import LogEntry
from kubik.game.core import GameResult
from kubik.game.narrate import entry_json, narrate
from kubik.game.record import GameRecord
from kubik.game.session import GameSession


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One entry of the replayed log: its position, the entry and its narrated text."""

    index: int
    entry: LogEntry
    text: str

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        """The step as JSON (the entry's structure and text; decisions name sides by id)."""
        return {"index": self.index, **entry_json(self.entry, lang)}


def rebuild(record: GameRecord) -> GameSession:
    """The session of a saved game, at the point where the save ends."""
    return GameSession.from_record(record)


def replay(record: GameRecord, lang: str | None = None) -> Iterator[ReplayStep]:
    """The saved game's log, one narrated entry at a time (indented by depth)."""
    session = rebuild(record)
    language = lang or record.lang
    for index, entry in enumerate(session.log):
        yield ReplayStep(index, entry, narrate(entry, language, session.side_names))


def replay_result(record: GameRecord) -> GameResult | None:
    """How the saved game ended (``None`` if it is unfinished)."""
    return rebuild(record).result


__all__ = ["ReplayStep", "rebuild", "replay", "replay_result"]
