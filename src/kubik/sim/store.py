"""Simulation results in SQLite, written as each game finishes; CSV and Parquet exports.

One file holds one job (:class:`~kubik.sim.job.SimJob`): its identity (scenario
texts, labels, root seed, bots, kubik's code fingerprint), its cells, and a row per
game played. Rerunning the same job with the same file plays only the games it lacks,
so a sweep interrupted at any point resumes where it stopped; asking for more runs
adds games; asking for fewer reports the first ones. A file of another job is
refused (one line saying what differs), never mixed.

By default the file is ``<data dir>/sims/<scenario>-<key>.sqlite3`` (``KUBIK_HOME``
moves the data dir), so the same command finds it again.

Exports hold one row per game: the cell's swept values, the game, its seed, the
winner and turns, every side's summary counts (``<side>.<count>``) and, for battles
on the shared battle layer, every unit's ``unit.<id>.kills|lost|fled``. Parquet needs
``pyarrow`` (``pip install 'kubik[parquet]'``).
"""

from __future__ import annotations

import csv
import json
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from kubik.core.errors import InputError
from kubik.game.paths import data_dir
from kubik.sim.job import SimJob
from kubik.sim.outcome import GameOutcome, SimError

#: Version of the file's layout; a file of another version is refused.
STORE_FORMAT = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS cells (
    cell INTEGER PRIMARY KEY, label TEXT NOT NULL, scenario_toml TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    cell INTEGER NOT NULL, game INTEGER NOT NULL, seed INTEGER NOT NULL,
    winner TEXT, turns INTEGER NOT NULL, sides TEXT NOT NULL, units TEXT,
    PRIMARY KEY (cell, game)
);
"""


def default_store_path(job: SimJob) -> Path:
    """Where the results of ``job`` go unless told otherwise."""
    return data_dir() / "sims" / f"{job.scenario}-{job.key}.sqlite3"


class SimStore:
    """The SQLite file of one job's games (WAL; every game committed as it arrives)."""

    def __init__(self, path: Path | str, job: SimJob, *, fresh: bool = False) -> None:
        self.path = Path(path)
        self.job = job
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            reason = error.strerror or str(error)
            raise InputError(
                f"--store: the directory of '{self.path}' cannot be made ({reason})"
            ) from None
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
        except sqlite3.Error as error:
            raise InputError(
                f"--store: '{self.path}' is not a usable SQLite file ({error})"
            ) from None
        if fresh:
            self._db.executescript("DELETE FROM games; DELETE FROM cells; DELETE FROM meta;")
        self._claim()

    def _meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def _claim(self) -> None:
        """Make the file this job's, or refuse if it holds another job's games."""
        identity = json.dumps(self.job.identity(), sort_keys=True, ensure_ascii=False)
        stored_format = self._meta("format")
        if stored_format is None:
            with self._db:
                self._db.execute("BEGIN")
                self._db.execute("INSERT INTO meta VALUES ('format', ?)", (str(STORE_FORMAT),))
                self._db.execute("INSERT INTO meta VALUES ('job', ?)", (identity,))
                self._db.executemany(
                    "INSERT INTO cells VALUES (?, ?, ?)",
                    [
                        (c.index, json.dumps(c.label_json(), ensure_ascii=False), c.scenario_toml)
                        for c in self.job.cells
                    ],
                )
            return
        if stored_format != str(STORE_FORMAT):
            raise SimError(
                f"{self.path}: a simulation store of format {stored_format}; this kubik "
                f"reads format {STORE_FORMAT} (use another --store, or --fresh)"
            )
        stored = json.loads(self._meta("job") or "{}")
        mine = json.loads(identity)
        if stored != mine:
            differs = [key for key in mine if stored.get(key) != mine[key]]
            what = ", ".join(differs) or "the job"
            raise SimError(
                f"{self.path}: holds another simulation (its {what} differ); "
                "use another --store, or --fresh to start this one there"
            )

    def done(self) -> set[tuple[int, int]]:
        """(cell, game) of every game stored."""
        return {(int(c), int(g)) for c, g in self._db.execute("SELECT cell, game FROM games")}

    def add(self, outcome: GameOutcome) -> None:
        """Store one game (committed at once, so an interrupt loses nothing stored)."""
        self._db.execute(
            "INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                outcome.cell,
                outcome.game,
                outcome.seed,
                outcome.winner,
                outcome.turns,
                outcome.sides_json(),
                outcome.units_json(),
            ),
        )

    def outcomes(self, runs: int) -> list[GameOutcome]:
        """Games ``0..runs-1`` of every cell, by cell then game."""
        rows = self._db.execute(
            "SELECT cell, game, seed, winner, turns, sides, units FROM games "
            "WHERE game < ? ORDER BY cell, game",
            (runs,),
        )
        return [GameOutcome.from_row(*row) for row in rows]

    def close(self) -> None:
        """Close the file."""
        self._db.close()


def rows(job: SimJob, outcomes: Iterable[GameOutcome]) -> list[dict[str, Any]]:
    """One flat dict per game (the columns of the exports), by cell then game."""
    out: list[dict[str, Any]] = []
    for outcome in sorted(outcomes, key=lambda o: (o.cell, o.game)):
        row: dict[str, Any] = {"cell": outcome.cell}
        row.update(job.cells[outcome.cell].label_json())
        row.update(
            {
                "game": outcome.game,
                "seed": outcome.seed,
                "winner": outcome.winner or "",
                "turns": outcome.turns,
            }
        )
        for summary in outcome.sides:
            for name, value in summary.counts:
                row[f"{summary.side}.{name}"] = value
        for unit in outcome.units or ():
            row[f"unit.{unit.unit}.kills"] = unit.kills
            row[f"unit.{unit.unit}.lost"] = unit.lost
            row[f"unit.{unit.unit}.fled"] = unit.fled
        out.append(row)
    return out


def _columns(table: Sequence[dict[str, Any]]) -> list[str]:
    return list(dict.fromkeys(key for row in table for key in row))


def export_csv(path: Path | str, table: Sequence[dict[str, Any]]) -> None:
    """Write the rows as CSV (a header of every column; empty where a game has none)."""
    try:
        with open(path, "w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=_columns(table), restval="")
            writer.writeheader()
            writer.writerows(table)
    except OSError as error:
        raise InputError(f"--csv: cannot write '{path}' ({error.strerror})") from None


def export_parquet(path: Path | str, table: Sequence[dict[str, Any]]) -> None:
    """Write the rows as Parquet (needs pyarrow; one line saying so when it is missing)."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError(
            "--parquet: needs pyarrow; install it with: pip install 'kubik[parquet]'"
        ) from None
    columns = _columns(table)
    data = {name: [row.get(name) for row in table] for name in columns}
    try:
        pq.write_table(pa.table(data), str(path))
    except OSError as error:
        raise InputError(f"--parquet: cannot write '{path}' ({error})") from None


__all__ = [
    "STORE_FORMAT",
    "SimStore",
    "default_store_path",
    "export_csv",
    "export_parquet",
    "rows",
]
