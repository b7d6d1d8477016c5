"""Running a job: the games the store lacks go to a backend; each outcome is stored as it
arrives; the report is made from the store.

``progress(done, total)`` is told once before the first game (with the games already
stored from an earlier, interrupted run) and after each game. An interrupt (Ctrl-C,
or an exception from ``progress``) stops the backend; every game that finished is
stored already, so the same call later plays only the rest.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kubik.engine.requests import Message
from kubik.game.coverage import check_seed
from kubik.game.scenario import Scenario
from kubik.sim.backends import Backend
from kubik.sim.job import SimJob, build_job, check_runs
from kubik.sim.outcome import GameOutcome
from kubik.sim.report import sim_report
from kubik.sim.rosters import load_roster_list
from kubik.sim.store import SimStore, default_store_path
from kubik.sim.vary import parse_parameter
from kubik.text.i18n import render

#: Told once every input is checked, then after each game: (games done, games in all).
Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class SimRun:
    """What one call played: games played now, games found in the store, where, how."""

    played: int
    resumed: int
    seconds: float
    backend: Message
    workers: int
    store: Path | None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready (the ``"run"`` key of the report: it differs from run to run)."""
        return {
            "played": self.played,
            "resumed": self.resumed,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.played / self.seconds, 3) if self.seconds else None,
            "backend": render(self.backend, "en"),
            "workers": self.workers,
            "store": str(self.store) if self.store is not None else None,
        }


@dataclass(frozen=True, slots=True)
class SimResult:
    """A finished job: its report, what this call did, the job and its games."""

    report: dict[str, Any]
    run: SimRun
    job: SimJob
    outcomes: tuple[GameOutcome, ...]

    def to_json(self) -> dict[str, Any]:
        """The report with the ``"run"`` key added."""
        return {**self.report, "run": self.run.to_json()}


def run_job(
    job: SimJob,
    runs: int,
    backend: Backend,
    store: SimStore | None = None,
    progress: Progress | None = None,
) -> SimResult:
    """Play every game of ``job`` that ``store`` lacks (all, without a store) and report
    (:func:`~kubik.sim.report.sim_report`) on games ``0..runs-1`` of every cell."""
    check_runs(runs)
    tasks = job.tasks(runs)
    done = store.done() if store is not None else set()
    missing = [t for t in tasks if (t.cell, t.game) not in done]
    resumed = len(tasks) - len(missing)
    kept: list[GameOutcome] = []
    if progress is not None:
        progress(resumed, len(tasks))
    begin = time.perf_counter()
    played = 0
    games = backend.run(job, missing)
    try:
        for outcome in games:
            if store is not None:
                store.add(outcome)
            else:
                kept.append(outcome)
            played += 1
            if progress is not None:
                progress(resumed + played, len(tasks))
    finally:
        close = getattr(games, "close", None)
        if close is not None:
            close()  # stop the workers at once on an interrupt
    seconds = time.perf_counter() - begin
    outcomes = (
        store.outcomes(runs) if store is not None else sorted(kept, key=lambda o: (o.cell, o.game))
    )
    run = SimRun(
        played,
        resumed,
        seconds,
        backend.describe(),
        backend.workers,
        store.path if store is not None else None,
    )
    return SimResult(sim_report(job, runs, outcomes), run, job, tuple(outcomes))


def simulate_battles(
    scenario: Scenario,
    runs: int,
    seed: int,
    bots: Mapping[str, str],
    backend: Backend,
    *,
    vary: Sequence[str] = (),
    vs: Sequence[str | Path] = (),
    store: Path | str | bool = True,
    fresh: bool = False,
    progress: Progress | None = None,
) -> SimResult:
    """Check every input, build the job, open its store and run it.

    ``vary`` holds ``PATH=V1,V2`` sweep parameters, ``vs`` one or two roster-list files;
    ``store`` is a file, ``True`` for the default file of the job, or ``False`` to
    keep nothing (no resume).
    """
    check_runs(runs)
    check_seed(seed, "--seed")
    parameters = [parse_parameter(spec) for spec in vary]
    rosters = [load_roster_list(path) for path in vs]
    job = build_job(scenario, seed, bots, parameters, rosters)
    opened: SimStore | None = None
    if store is not False:
        path = default_store_path(job) if store is True else Path(store)
        opened = SimStore(path, job, fresh=fresh)
    try:
        return run_job(job, runs, backend, opened, progress)
    finally:
        if opened is not None:
            opened.close()


__all__ = ["Progress", "SimResult", "SimRun", "run_job", "simulate_battles"]
