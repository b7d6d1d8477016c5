"""Saved games in SQLite (WAL): each confirmed answer is written as it happens.

A game is a header row (the record without its answers: scenario text, seed,
controllers ...) and one row per answer. :meth:`GameStore.attach` keeps a playing
session's save current: every answer is committed the moment it is confirmed and
an undo deletes the dropped rows, so a crash loses nothing that was confirmed.

Another process may hold the store locked (a second kubik writing its own game):
a write waits for it up to :data:`~kubik.core.limits.STORE_LOCK_WAIT_MS` and then gives
up with a :class:`StoreLockedError`. A playing session never loses an answer to a
lock: :class:`SaveKeeper` keeps the answers it could not write and writes them with
the next one (the prompt says so in one line). A save whose header or an answer row
is corrupt is named with the row (``kubik saves`` lists the others and marks it).
"""

from __future__ import annotations

import builtins
import json
import re
import sqlite3
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType
from typing import Any

from kubik.core import limits
from kubik.core.errors import KubikError
from kubik.engine.log import Answer
from kubik.engine.requests import Message, msg
from kubik.game.errors import RecordError, StoreError
from kubik.game.paths import ensure_dir, store_path
from kubik.game.record import GameRecord, answer_to_json
from kubik.game.session import HUMAN, GameSession

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
CREATE TABLE IF NOT EXISTS progress (
    game TEXT PRIMARY KEY REFERENCES games(name) ON DELETE CASCADE,
    answers INTEGER NOT NULL,
    turn INTEGER,
    finished INTEGER NOT NULL
);
"""

#: How long a keeper that could not write waits before it tries again (seconds).
RETRY_AFTER = 1.0


class StoreLockedError(StoreError):
    """The save store stayed locked by another process for the whole wait."""


def check_name(name: str) -> str:
    """A saved game's name: 1-64 letters, digits, '_', '-', '.', starting with a letter or digit.

    >>> check_name("duel-1")
    'duel-1'
    """
    if not isinstance(name, str) or not _NAME.match(name):
        raise StoreError(msg("game.store.bad_name", name=repr(name)))
    return name


@dataclass(frozen=True, slots=True)
class SavedGame:
    """One line of the list of saved games; ``error`` says why a save cannot be loaded
    (``problem``: the same as a catalogue message, to say it in either language)."""

    name: str
    scenario: str
    seed: int
    answers: int
    updated: str
    mode: str = "bots"  # bots | people | table
    turn: int | None = None
    finished: bool | None = None
    error: str | None = None
    problem: Message | str | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "name": self.name,
            "scenario": self.scenario,
            "seed": self.seed,
            "answers": self.answers,
            "updated": self.updated,
            "mode": self.mode,
            "turn": self.turn,
            "finished": self.finished,
            "error": self.error,
        }


def _is_lock(error: sqlite3.Error) -> bool:
    text = str(error).lower()
    return "locked" in text or "busy" in text


def _mode(header: dict[str, Any]) -> str:
    if header.get("dice") == "typed":
        return "table"
    controllers = header.get("controllers")
    if isinstance(controllers, dict) and HUMAN in controllers.values():
        return "people"
    return "bots"


class GameStore:
    """The saved games of one SQLite file (default: ``<data dir>/games.sqlite3``)."""

    def __init__(
        self,
        path: Path | str | None = None,
        *,
        lock_wait_ms: int | None = None,
        read_only: bool = False,
        process_safe: bool = False,
    ) -> None:
        """``process_safe``: a commit is written to the WAL file but not synced to the disk
        (it survives the process crashing, not the machine losing power); the WAL is then
        synced only when it is checkpointed, which the owner does on a thread of its own
        (automatic checkpoints are off, so no commit ever waits for one)."""
        self.path = Path(path) if path is not None else store_path()
        self.lock_wait_ms = limits.STORE_LOCK_WAIT_MS if lock_wait_ms is None else lock_wait_ms
        self.read_only = read_only
        if read_only:
            self._db = self._open_read_only()
            return
        ensure_dir(self.path.parent, "game.store.where")
        self._db = sqlite3.connect(
            self.path, isolation_level=None, timeout=self.lock_wait_ms / 1000
        )
        try:
            with self._guard():
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute(f"PRAGMA synchronous={'NORMAL' if process_safe else 'FULL'}")
                if process_safe:
                    self._db.execute("PRAGMA wal_autocheckpoint=0")
                self._db.execute("PRAGMA foreign_keys=ON")
                self._db.executescript(_SCHEMA)
        except KubikError:
            self._db.close()
            raise

    def _open_read_only(self) -> sqlite3.Connection:
        """The store opened only to read (a read-only file or directory still lists and
        replays its games); a store that does not exist yet reads as empty."""
        timeout = self.lock_wait_ms / 1000
        if not self.path.is_file():
            db = sqlite3.connect(":memory:", isolation_level=None)
            db.executescript(_SCHEMA)
            return db
        uri = self.path.resolve().as_uri()
        # A WAL store in a directory that cannot be written has no shared-memory file to
        # read through; ``immutable`` reads the file as it is (nobody can change it there).
        for query in ("?mode=ro", "?mode=ro&immutable=1"):
            db = sqlite3.connect(uri + query, uri=True, isolation_level=None, timeout=timeout)
            try:
                db.execute("SELECT COUNT(*) FROM games").fetchone()
            except sqlite3.Error as error:
                db.close()
                failure = error
                continue
            return db
        where = str(self.path)
        raise StoreError(msg("game.store.broken", where=where, error=str(failure))) from None

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

    @contextmanager
    def _guard(self, name: str | None = None) -> Iterator[None]:
        """SQLite errors as one line: a lock held too long, or a store that is damaged."""
        try:
            yield
        except sqlite3.Error as error:
            seconds = round(self.lock_wait_ms / 1000, 1)
            if _is_lock(error):
                raise StoreLockedError(
                    msg("game.store.locked", path=str(self.path), seconds=seconds)
                ) from None
            where = f"'{name}'" if name else str(self.path)
            raise StoreError(msg("game.store.broken", where=where, error=str(error))) from None

    @contextmanager
    def _write(self, name: str | None = None) -> Iterator[None]:
        """One write transaction (taken at once, so a lock is met before any change)."""
        with self._guard(name), self._db:
            self._db.execute("BEGIN IMMEDIATE")
            yield

    def _touch(self, name: str) -> None:
        self._db.execute(
            "UPDATE games SET updated = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE name = ?",
            (name,),
        )

    def names(self) -> builtins.list[str]:
        """The names of the saved games, in order."""
        with self._guard():
            rows = self._db.execute("SELECT name FROM games ORDER BY name").fetchall()
        return [str(row[0]) for row in rows]

    def exists(self, name: str) -> bool:
        """Whether a game called ``name`` is saved."""
        with self._guard(name):
            row = self._db.execute("SELECT 1 FROM games WHERE name = ?", (name,)).fetchone()
        return row is not None

    def _require(self, name: str) -> None:
        check_name(name)
        if not self.exists(name):
            names = self.names()
            raise StoreError(
                msg("game.store.no_game", name=name, names=", ".join(names), n=len(names))
            )

    def save(self, name: str, record: GameRecord) -> None:
        """Save ``record`` as ``name``, replacing a game of that name."""
        check_name(name)
        header = json.dumps(record.header_json(), ensure_ascii=False, sort_keys=True)
        with self._write(name):
            self._db.execute("DELETE FROM answers WHERE game = ?", (name,))
            self._db.execute("DELETE FROM progress WHERE game = ?", (name,))
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

    def write_answers(self, name: str, start: int, answers: Mapping[int, Answer]) -> None:
        """Drop the answers of game ``name`` from number ``start`` on and write ``answers``
        (number → answer), in one committed transaction."""
        self._require(name)
        with self._write(name):
            self._db.execute("DELETE FROM answers WHERE game = ? AND idx >= ?", (name, start))
            self._db.executemany(
                "INSERT INTO answers (game, idx, answer) VALUES (?, ?, ?)",
                [(name, i, _answer_text(a)) for i, a in sorted(answers.items())],
            )
            self._touch(name)

    def append(self, name: str, index: int, answer: Answer) -> None:
        """Write answer number ``index`` of game ``name`` (committed at once)."""
        self.write_answers(name, index, {index: answer})

    def truncate(self, name: str, length: int) -> None:
        """Keep only the first ``length`` answers of game ``name`` (an undo)."""
        self.write_answers(name, length, {})

    def _header(self, name: str, text: Any) -> dict[str, Any]:
        try:
            data = json.loads(text)
        except (TypeError, ValueError, RecursionError):
            raise RecordError(msg("game.store.bad_header", name=name)) from None
        if not isinstance(data, dict):
            raise RecordError(msg("game.store.bad_header", name=name))
        return data

    def load(self, name: str) -> GameRecord:
        """The saved game ``name`` (migrated to the current format); a corrupt header or
        answer row is a :class:`RecordError` naming the save and the row."""
        self._require(name)
        with self._guard(name):
            (header,) = self._db.execute(
                "SELECT header FROM games WHERE name = ?", (name,)
            ).fetchone()
            (count,) = self._db.execute(
                "SELECT COUNT(*) FROM answers WHERE game = ?", (name,)
            ).fetchone()
            if count > limits.SAVE_ANSWERS:
                raise RecordError(
                    msg("game.store.too_many", name=name, n=count, limit=limits.SAVE_ANSWERS)
                )
            rows = self._db.execute(
                "SELECT idx, answer FROM answers WHERE game = ? ORDER BY idx", (name,)
            ).fetchall()
        data = self._header(name, header)
        answers: builtins.list[Any] = []
        for expected, (idx, text) in enumerate(rows):
            if idx != expected:
                raise RecordError(msg("game.store.missing_answer", name=name, index=expected))
            try:
                answers.append(json.loads(text))
            except (TypeError, ValueError, RecursionError):
                raise RecordError(msg("game.store.bad_answer", name=name, index=expected)) from None
        data["answers"] = answers
        try:
            return GameRecord.from_json(data)
        except RecordError as error:
            inner = error.said()
            raise RecordError(msg("game.store.in_save", name=name, error=inner)) from None

    def list(self, *, progress: bool = False) -> builtins.list[SavedGame]:
        """Every saved game, by name; a save that cannot be read is listed with its error.

        With ``progress`` each game's turn and whether it is finished are filled in
        (from what :meth:`note_progress` recorded, or by replaying the save once).
        """
        with self._guard():
            rows = self._db.execute(
                "SELECT g.name, g.header, g.updated, "
                "(SELECT COUNT(*) FROM answers a WHERE a.game = g.name), "
                "p.answers, p.turn, p.finished "
                "FROM games g LEFT JOIN progress p ON p.game = g.name ORDER BY g.name"
            ).fetchall()
        out: builtins.list[SavedGame] = []
        for name, header, updated, count, done, turn, finished in rows:
            try:
                data = self._header(str(name), header)
                game = SavedGame(
                    str(name),
                    str(data.get("scenario", "?")),
                    int(data.get("seed", 0)),
                    int(count),
                    str(updated),
                    _mode(data),
                )
            except (RecordError, TypeError, ValueError) as error:
                said = error.said() if isinstance(error, KubikError) else str(error)
                broken = SavedGame(str(name), "?", 0, int(count), str(updated), mode="")
                out.append(replace(broken, error=str(error), problem=said))
                continue
            if progress:
                game = self._with_progress(game, done, turn, finished)
            out.append(game)
        return out

    def _with_progress(self, game: SavedGame, done: Any, turn: Any, finished: Any) -> SavedGame:
        try:
            record = self.load(game.name)  # every row is read: a corrupt one is named
            if done == game.answers:
                return replace(game, turn=turn, finished=bool(finished))
            session = GameSession.from_record(record)
        except KubikError as error:
            return replace(game, error=str(error), problem=error.said())
        with suppress(StoreError):  # locked or read-only: the list is right, just not kept
            self.note_progress(game.name, session)
        return replace(game, turn=session.turn, finished=session.finished)

    def note_progress(self, name: str, session: GameSession) -> None:
        """Remember how far ``session`` (the game saved as ``name``) has come."""
        with self._write(name):
            self._db.execute(
                "INSERT INTO progress (game, answers, turn, finished) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(game) DO UPDATE SET answers = excluded.answers, "
                "turn = excluded.turn, finished = excluded.finished",
                (name, len(session.answers), session.turn, int(session.finished)),
            )

    def delete(self, name: str) -> None:
        """Delete the saved game ``name``."""
        self._require(name)
        with self._write(name):
            self._db.execute("DELETE FROM answers WHERE game = ?", (name,))
            self._db.execute("DELETE FROM progress WHERE game = ?", (name,))
            self._db.execute("DELETE FROM games WHERE name = ?", (name,))

    def rename(self, old: str, new: str) -> None:
        """Call the saved game ``old`` ``new`` (an error if ``new`` is taken)."""
        self._require(old)
        check_name(new)
        if self.exists(new):
            raise StoreError(msg("game.store.name_taken", name=new))
        with self._write(old):
            self._db.execute(
                "INSERT INTO games (name, header, created, updated) "
                "SELECT ?, header, created, updated FROM games WHERE name = ?",
                (new, old),
            )
            self._db.execute("UPDATE answers SET game = ? WHERE game = ?", (new, old))
            self._db.execute("UPDATE progress SET game = ? WHERE game = ?", (new, old))
            self._db.execute("DELETE FROM games WHERE name = ?", (old,))

    def attach(self, name: str, session: GameSession) -> SaveKeeper:
        """Save ``session`` as ``name`` now and write each later answer as it is confirmed."""
        self.save(name, session.record)
        keeper = SaveKeeper(self, name)
        session.subscribe(keeper)
        return keeper


class SaveKeeper:
    """Keeps one saved game in step with a session (a :class:`SessionListener`).

    An answer that cannot be written (the store is locked by another process) is
    kept here and written with the next one; :attr:`problem` says why, until a write
    succeeds again. The session itself never sees the failure: no answer is lost.
    """

    def __init__(self, store: GameStore, name: str) -> None:
        self.store = store
        self.name = name
        self.pending: dict[int, Answer] = {}
        self.cut: int | None = None
        self.problem: StoreError | None = None
        self._retry_at = 0.0

    def answered(self, index: int, answer: Answer) -> None:
        self.pending = {i: a for i, a in self.pending.items() if i < index}
        self.pending[index] = answer
        self.flush(force=False)

    def truncated(self, length: int) -> None:
        self.pending = {i: a for i, a in self.pending.items() if i < length}
        self.cut = length if self.cut is None else min(self.cut, length)
        self.flush(force=False)

    @property
    def unsaved(self) -> int:
        """How many answers are waiting to be written."""
        return len(self.pending)

    def flush(self, *, force: bool = True) -> bool:
        """Write what is waiting; False (and :attr:`problem` set) if the store refused.

        After a failure the next tries wait :data:`RETRY_AFTER` seconds between them
        unless ``force``, so a long lock does not slow every answer by the lock wait.
        """
        if not self.pending and self.cut is None:
            return True
        if not force and self.problem is not None and time.monotonic() < self._retry_at:
            return False
        start = min([*self.pending, *([self.cut] if self.cut is not None else [])])
        try:
            self.store.write_answers(self.name, start, self.pending)
        except StoreError as error:
            self.problem = error
            self._retry_at = time.monotonic() + RETRY_AFTER
            return False
        self.pending = {}
        self.cut = None
        self.problem = None
        return True


def _answer_text(answer: Answer) -> str:
    return json.dumps(answer_to_json(answer), ensure_ascii=False, sort_keys=True)


__all__ = ["GameStore", "SaveKeeper", "SavedGame", "StoreLockedError", "check_name"]
