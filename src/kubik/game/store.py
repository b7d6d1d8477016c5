"""Saved games in SQLite (WAL): each confirmed answer is written as it happens.

A game is a header row (the record without its answers: scenario text, seed,
controllers ...) and one row per answer. :meth:`GameStore.attach` keeps a playing
session's save current: every answer is committed the moment it is confirmed and
an undo deletes the dropped rows, so a crash loses nothing that was confirmed.
"""

from __future__ import annotations

import builtins
import json
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from kubik.engine.log import Answer
from kubik.engine.requests import msg
from kubik.game.errors import RecordError, StoreError
from kubik.game.paths import store_path
from kubik.game.record import GameRecord, answer_to_json
from kubik.game.session import GameSession

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    name TEXT PRIMARY KEY,
    header TEXT NOT NULL,
    created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    updated TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE TABLE IF NOT EXISTS answers (
    game TEXT NOT NULL REFERENCES games(name) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    answer TEXT NOT NULL,
    PRIMARY KEY (game, idx)
);
"""


def check_name(name: str) -> str:
    """A saved game's name: 1-64 letters, digits, '_', '-', '.', starting with a letter or digit.

    >>> check_name("duel-1")
    'duel-1'
    """
    if not isinstance(name, str) or not _NAME.match(name):
        raise StoreError(msg("game.error.save_name", name=str(name)))
    return name


@dataclass(frozen=True, slots=True)
class SavedGame:
    """One line of the list of saved games."""

    name: str
    scenario: str
    seed: int
    answers: int
    updated: str

    def to_json(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "name": self.name,
            "scenario": self.scenario,
            "seed": self.seed,
            "answers": self.answers,
            "updated": self.updated,
        }


class _Appender:
    """Keeps one saved game in step with a session (a :class:`SessionListener`)."""

    def __init__(self, store: GameStore, name: str) -> None:
        self.store = store
        self.name = name

    def answered(self, index: int, answer: Answer) -> None:
        self.store.append(self.name, index, answer)

    def truncated(self, length: int) -> None:
        self.store.truncate(self.name, length)


class GameStore:
    """The saved games of one SQLite file (default: ``<data dir>/games.sqlite3``)."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else store_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        """Close the database (everything confirmed is already on disk)."""
        self._db.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def _touch(self, name: str) -> None:
        self._db.execute(
            "UPDATE games SET updated = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE name = ?",
            (name,),
        )

    def _require(self, name: str) -> None:
        check_name(name)
        row = self._db.execute("SELECT 1 FROM games WHERE name = ?", (name,)).fetchone()
        if row is None:
            names = [g.name for g in self.list()]
            saved = ", ".join(names)
            raise StoreError(msg("game.error.no_save", name=name, saved=saved, n=len(names)))

    def save(self, name: str, record: GameRecord) -> None:
        """Save ``record`` as ``name``, replacing a game of that name."""
        check_name(name)
        header = json.dumps(record.header_json(), ensure_ascii=False, sort_keys=True)
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM answers WHERE game = ?", (name,))
            self._db.execute(
                "INSERT INTO games (name, header) VALUES (?, ?) "
                "ON CONFLICT(name) DO UPDATE SET header = excluded.header",
                (name, header),
            )
            self._db.executemany(
                "INSERT INTO answers (game, idx, answer) VALUES (?, ?, ?)",
                [(name, i, _answer_text(a)) for i, a in enumerate(record.answers)],
            )
            self._touch(name)

    def append(self, name: str, index: int, answer: Answer) -> None:
        """Write answer number ``index`` of game ``name`` (committed at once)."""
        self._require(name)
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM answers WHERE game = ? AND idx >= ?", (name, index))
            self._db.execute(
                "INSERT INTO answers (game, idx, answer) VALUES (?, ?, ?)",
                (name, index, _answer_text(answer)),
            )
            self._touch(name)

    def truncate(self, name: str, length: int) -> None:
        """Keep only the first ``length`` answers of game ``name`` (an undo)."""
        self._require(name)
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM answers WHERE game = ? AND idx >= ?", (name, length))
            self._touch(name)

    def load(self, name: str) -> GameRecord:
        """The saved game ``name`` (migrated to the current format)."""
        self._require(name)
        (header,) = self._db.execute("SELECT header FROM games WHERE name = ?", (name,)).fetchone()
        rows = self._db.execute(
            "SELECT idx, answer FROM answers WHERE game = ? ORDER BY idx", (name,)
        ).fetchall()
        for expected, (idx, _) in enumerate(rows):
            if idx != expected:
                raise RecordError(f"{name}: answers[{expected}] is missing from the store")
        data = json.loads(header)
        data["answers"] = [json.loads(text) for _, text in rows]
        try:
            return GameRecord.from_json(data)
        except RecordError as error:
            raise RecordError(f"{name}: {error}") from None

    def list(self) -> builtins.list[SavedGame]:
        """Every saved game, by name."""
        rows = self._db.execute(
            "SELECT g.name, g.header, g.updated, "
            "(SELECT COUNT(*) FROM answers a WHERE a.game = g.name) "
            "FROM games g ORDER BY g.name"
        ).fetchall()
        out: builtins.list[SavedGame] = []
        for name, header, updated, count in rows:
            data = json.loads(header)
            out.append(
                SavedGame(name, str(data.get("scenario")), int(data.get("seed", 0)), count, updated)
            )
        return out

    def delete(self, name: str) -> None:
        """Delete the saved game ``name``."""
        self._require(name)
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM answers WHERE game = ?", (name,))
            self._db.execute("DELETE FROM games WHERE name = ?", (name,))

    def attach(self, name: str, session: GameSession) -> None:
        """Save ``session`` as ``name`` now and write each later answer as it is confirmed."""
        self.save(name, session.record)
        session.subscribe(_Appender(self, name))


def _answer_text(answer: Answer) -> str:
    return json.dumps(answer_to_json(answer), ensure_ascii=False, sort_keys=True)


__all__ = ["GameStore", "SavedGame", "check_name"]
