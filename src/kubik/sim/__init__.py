"""Monte Carlo battles and sweeps: ``kubik sim`` (a balance lab for rule designers).

One concept per module:

* :mod:`.job` — a job: its cells (the scenario, or each variant of a sweep), the
  game seeds (:func:`kubik.game.coverage.game_seeds`), the bots, its identity;
* :mod:`.vary`, :mod:`.rosters`, :mod:`.toml_text` — sweep parameters addressing
  scenario fields, roster lists for ``--vs``, and writing a variant back as TOML;
* :mod:`.outcome` — one game's outcome and the per-process worker that plays games;
* :mod:`.backends` — this process, local processes, or Ray tasks;
* :mod:`.store` — SQLite as each game finishes (resume), CSV and Parquet exports;
* :mod:`.stats`, :mod:`.report` — rates and means with 95% intervals, the report;
* :mod:`.runner` — runs a job through a backend into a store;
* :mod:`.exact` — one procedure simulated and checked against its exact odds;
* :mod:`.plot` — the PNG (matplotlib, imported only when a plot is asked for).
"""

from kubik.sim.backends import (
    Backend,
    InProcess,
    LocalProcesses,
    RayBackend,
    default_workers,
    make_backend,
)
from kubik.sim.job import MAX_RUNS, Cell, GameTask, SimJob, build_job, check_runs
from kubik.sim.outcome import GameOutcome, SimError
from kubik.sim.runner import Progress, SimResult, SimRun, run_job, simulate_battles
from kubik.sim.store import SimStore, default_store_path

__all__ = [
    "MAX_RUNS",
    "Backend",
    "Cell",
    "GameOutcome",
    "GameTask",
    "InProcess",
    "LocalProcesses",
    "Progress",
    "RayBackend",
    "SimError",
    "SimJob",
    "SimResult",
    "SimRun",
    "SimStore",
    "build_job",
    "check_runs",
    "default_store_path",
    "default_workers",
    "make_backend",
    "run_job",
    "simulate_battles",
]
