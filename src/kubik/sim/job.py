"""A simulation job: the cells to play, the seeds, who plays, and what identifies it.

A *cell* is one scenario to play ``runs`` times: the scenario itself, or one variant
of a sweep (a combination of ``--vary`` values and ``--vs`` rosters), checked by the
ruleset like any scenario and carried as its TOML text, so a worker on another
machine rebuilds it exactly and ``kubik play`` can replay it. Game ``j`` of every
cell gets the seed :func:`kubik.game.coverage.game_seeds` derives from the root seed
and ``j`` alone: more runs only add games, the split among workers changes nothing,
and cells differ by their parameters, never by their dice streams (common random
numbers, which sharpens comparisons between cells).

A job's :meth:`SimJob.identity` — scenario texts, labels, root seed, bots and a
fingerprint of kubik's own code — names its store, so rerunning the same command
resumes it, while a changed rule starts afresh instead of mixing two versions.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from kubik.core.errors import InputError, ScenarioError
from kubik.game.coverage import game_seeds
from kubik.game.registry import GameRuleset, get_ruleset
from kubik.game.scenario import Scenario, ScenarioSource, parse_scenario
from kubik.rulesets import registry as ruleset_registry
from kubik.sim.rosters import RosterList, apply_roster, check_lists
from kubik.sim.toml_text import dumps
from kubik.sim.vary import Parameter, apply, check_distinct, grid, value_label

#: Most games a cell plays (a bot game takes a few tenths of a second: about a
#: day of one core; the store keeps every game, so a long job can be resumed).
MAX_RUNS = 100_000


@dataclass(frozen=True, slots=True)
class Cell:
    """One scenario of a job: its index, what makes it a variant, and its TOML."""

    index: int
    label: tuple[tuple[str, str], ...]
    scenario_toml: str
    origin: str

    def label_json(self) -> dict[str, str]:
        """``{"units[steel_1].quality": "recruits", "vs.steel": "rifles"}`` (empty: the
        scenario as written)."""
        return dict(self.label)

    def scenario(self) -> Scenario:
        """The cell's scenario, parsed and checked."""
        return parse_scenario(self.scenario_toml, self.origin, ScenarioSource.FILE)


@dataclass(frozen=True, slots=True)
class GameTask:
    """Game ``game`` of cell ``cell``, played with ``seed``."""

    cell: int
    game: int
    seed: int


@dataclass(frozen=True, slots=True)
class SimJob:
    """Everything a worker needs to play any game of the job, and nothing else."""

    scenario: str
    sides: tuple[str, ...]
    cells: tuple[Cell, ...]
    seed: int
    bots: tuple[tuple[str, str], ...]  # side → bot name
    parameters: tuple[str, ...] = ()  # the swept fields' paths, in order
    vs: tuple[str, ...] = ()  # the sides whose rosters are swept
    #: The ruleset adapters the cells need: workers register them, so a ruleset
    #: registered from code (tests, notebooks) plays in other processes too.
    rulesets: tuple[GameRuleset, ...] = field(default=(), compare=False)

    def identity(self) -> dict[str, Any]:
        """What makes two jobs the same job (the number of runs does not)."""
        return {
            "scenario": self.scenario,
            "cells": [{"label": c.label_json(), "toml": c.scenario_toml} for c in self.cells],
            "seed": self.seed,
            "bots": dict(self.bots),
            "code": code_fingerprint(),
        }

    @property
    def key(self) -> str:
        """A short hash of :meth:`identity`."""
        text = json.dumps(self.identity(), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    @property
    def is_sweep(self) -> bool:
        """Whether the job has more than the scenario as written."""
        return bool(self.parameters or self.vs)

    def tasks(self, runs: int) -> list[GameTask]:
        """Games ``0..runs-1`` of every cell, cell by cell."""
        seeds = game_seeds(self.seed, runs)
        return [GameTask(c.index, j, s) for c in self.cells for j, s in enumerate(seeds)]


#: Parts of kubik that only show, store or schedule games, never decide one: a change to
#: them keeps a store resumable (paths relative to the package, ``/``-separated).
RESULT_FREE: tuple[str, ...] = (
    "__main__.py",
    "api/",
    "cli/",  # the command line, its terminal faces and the demo
    "text/i18n.py",
    "sim/backends.py",
    "sim/exact.py",
    "sim/plot.py",
    "sim/report.py",
    "sim/runner.py",
    "sim/stats.py",
    "sim/store.py",
)


@cache
def code_fingerprint() -> str:
    """A hash of the kubik code and data that decide a game (the rules, their data, the
    game and table layers, the bots, how a worker plays), and of every ruleset installed
    from another package: a store written by other rules is not resumed. Code that only
    shows, stores or schedules games (:data:`RESULT_FREE`) is left out, so improving a
    report keeps a long run resumable.
    """
    digest = hashlib.sha256()
    root = resources.files("kubik")
    stack: list[tuple[Any, str]] = [(root, "")]
    for ruleset in ruleset_registry.ruleset_ids():
        folder = ruleset_registry.folder(ruleset)
        if folder is not None and not folder.is_relative_to(Path(str(root))):
            stack.append((folder, f"<{ruleset}>/"))
    files: list[tuple[str, bytes]] = []
    while stack:
        folder, prefix = stack.pop()
        for item in folder.iterdir():
            path = prefix + item.name
            if item.is_dir():
                if not item.name.startswith((".", "__pycache__")):
                    stack.append((item, path + "/"))
            elif item.name.endswith((".py", ".toml")) and not path.startswith(RESULT_FREE):
                files.append((path, item.read_bytes()))
    for name, data in sorted(files):
        digest.update(name.encode("utf-8"))
        digest.update(hashlib.sha256(data).digest())
    return digest.hexdigest()[:16]


def check_runs(runs: object, name: str = "--runs") -> int:
    """``runs`` if it is a whole number 1..:data:`MAX_RUNS`; else one clear line."""
    if isinstance(runs, bool) or not isinstance(runs, int) or not 1 <= runs <= MAX_RUNS:
        raise InputError(f"{name}: {runs!r}; allowed: 1 to {MAX_RUNS} games per cell")
    return runs


def _variant(
    base: Scenario, data: dict[str, Any], label: tuple[tuple[str, str], ...], index: int
) -> Cell:
    text = dumps(data)
    described = ", ".join(f"{k}={v}" for k, v in label)
    origin = f"{base.origin} [{described}]"
    try:
        parse_scenario(text, origin, ScenarioSource.FILE)
    except ScenarioError as error:
        raise InputError(str(error)) from None
    return Cell(index, label, text, origin)


def build_job(
    scenario: Scenario,
    seed: int,
    bots: Mapping[str, str],
    parameters: Sequence[Parameter] = (),
    rosters: Sequence[RosterList] = (),
) -> SimJob:
    """The job of ``scenario`` (a single cell) or of its sweep: every combination of the
    parameters' values, then of the rosters (first list's slowest), each variant checked
    by the ruleset before any game is played."""
    check_distinct(parameters)
    check_lists(rosters, scenario.side_ids)
    cells: list[Cell] = []
    if not parameters and not rosters:
        cells.append(Cell(0, (), scenario.text, scenario.origin))
    else:
        data = tomllib.loads(scenario.text)
        pairs: list[list[tuple[str, str, Any]]] = [[]]
        for roster_list in rosters:
            pairs = [
                [*chosen, (roster_list.side, r.id, r)]
                for chosen in pairs
                for r in roster_list.rosters
            ]
        for combination in grid(parameters):
            varied = apply(data, combination)
            for chosen in pairs:
                cell_data = varied
                label = [(p.path, value_label(v)) for p, v in combination]
                for side, roster_id, roster in chosen:
                    cell_data = apply_roster(cell_data, side, roster)
                    label.append((f"vs.{side}", roster_id))
                cells.append(_variant(scenario, cell_data, tuple(label), len(cells)))
    return SimJob(
        scenario=scenario.id,
        sides=scenario.side_ids,
        cells=tuple(cells),
        seed=seed,
        bots=tuple((side, bots[side]) for side in scenario.side_ids),
        parameters=tuple(p.path for p in parameters),
        vs=tuple(r.side for r in rosters),
        rulesets=(get_ruleset(scenario.ruleset),),
    )


__all__ = [
    "MAX_RUNS",
    "RESULT_FREE",
    "Cell",
    "GameTask",
    "SimJob",
    "build_job",
    "check_runs",
    "code_fingerprint",
]
