"""How the web table's answers reach the disk without any answer waiting for the disk.

An answer is committed to the store's write-ahead log before the player is answered
(``synchronous=NORMAL``): the commit is a write into the operating system, which keeps it
when the server process crashes or is killed, and costs microseconds. What a commit in
that mode skips is the disk sync (some 4 ms here, on the one worker every game shares).
The syncs happen here instead, on a thread of its own: every :data:`CHECKPOINT_SECONDS`
the log is copied into the database and both are synced (a passive checkpoint, which
never blocks a writer). A power cut can therefore lose the last few seconds of answers;
a crash of the server cannot lose one that was answered.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

#: Seconds between checkpoints (the answers a power cut could lose at most).
CHECKPOINT_SECONDS = 2.0


class Checkpointer:
    """Syncs a store's write-ahead log to the disk in the background (its own connection)."""

    def __init__(self, path: Path, seconds: float = CHECKPOINT_SECONDS) -> None:
        self.path = path
        self.seconds = seconds
        self.done = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="kubik-checkpoint", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None, timeout=5, check_same_thread=False)
        try:
            while not self._stop.wait(self.seconds):
                self._checkpoint(db, "PASSIVE")
            self._checkpoint(db, "TRUNCATE")  # the server stops: everything to the disk
        finally:
            db.close()

    def _checkpoint(self, db: sqlite3.Connection, mode: str) -> None:
        try:
            db.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
        except sqlite3.Error:  # busy or locked: the next tick tries again
            return
        self.done += 1

    def close(self) -> None:
        """Sync what is left and stop."""
        self._stop.set()
        self._thread.join(10)


__all__ = ["CHECKPOINT_SECONDS", "Checkpointer"]
