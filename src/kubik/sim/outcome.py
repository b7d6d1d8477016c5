"""What one simulated game leaves behind, and how a worker plays it.

A :class:`GameOutcome` is small and plain (it crosses process and machine
boundaries and goes into SQLite): the winner, the turns, each side's summary counts
and — for battles on the shared battle layer — every unit's result
(:meth:`kubik.game.battle.BattleGame.unit_results`). A ruleset whose battle is not a
:class:`~kubik.game.battle.BattleGame` yet reports per-side counts only
(``units`` is ``None``).

A worker process keeps one :class:`Worker` per job: the scenarios parsed, the rulesets
registered and the odds the heuristic bots have computed stay for every game it
plays, so the start-up is paid once per process, not once per game. While it plays,
Python's cycle collector runs less often (:func:`kubik.core.collector.fewer_collections`).
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from kubik.bots.registry import bot_for
from kubik.core.collector import fewer_collections
from kubik.core.errors import KubikError
from kubik.engine.odds import OddsCache
from kubik.game.battle import BattleGame, UnitResult
from kubik.game.battle.bars import set_bars
from kubik.game.core import SideSummary
from kubik.game.registry import register_ruleset
from kubik.game.scenario import Scenario
from kubik.game.session import Controller, play_game
from kubik.rulesets.data import use_data_changes
from kubik.sim.job import GameTask, SimJob

#: Entries the bots' shared odds memo may hold before it is emptied (the memo is a
#: pure cache, so emptying it changes no game, only memory).
CACHE_LIMIT = 400_000


class SimError(KubikError, ValueError):
    """A simulation that cannot go on: names what is wrong in one line."""


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One game of a job: which cell and game, its seed, and how it ended."""

    cell: int
    game: int
    seed: int
    winner: str | None
    turns: int
    sides: tuple[SideSummary, ...] = ()
    units: tuple[UnitResult, ...] | None = None

    def side_counts(self, side: str) -> dict[str, int]:
        """The named counts ``side`` ended with (the ruleset's summary)."""
        for summary in self.sides:
            if summary.side == side:
                return summary.as_dict()
        return {}

    def sides_json(self) -> str:
        """The summaries as JSON text, for the store."""
        return json.dumps({s.side: s.as_dict() for s in self.sides}, sort_keys=False)

    def units_json(self) -> str | None:
        """The unit results as JSON text, for the store (``None`` when there are none)."""
        if self.units is None:
            return None
        return json.dumps([u.to_json() for u in self.units])

    @classmethod
    def from_row(
        cls,
        cell: int,
        game: int,
        seed: int,
        winner: str | None,
        turns: int,
        sides: str,
        units: str | None,
    ) -> GameOutcome:
        """Rebuild an outcome from a store row."""
        summaries = tuple(
            SideSummary(side, tuple((k, int(v)) for k, v in counts.items()))
            for side, counts in json.loads(sides).items()
        )
        unit_results = (
            None
            if units is None
            else tuple(UnitResult(**_unit_fields(u)) for u in json.loads(units))
        )
        return cls(cell, game, seed, winner, turns, summaries, unit_results)


def _unit_fields(data: dict[str, Any]) -> dict[str, Any]:
    return {k: data[k] for k in ("unit", "side", "models", "lost", "fled", "kills")}


class Worker:
    """Plays the games of one job in one process, keeping what can be kept."""

    def __init__(self, job: SimJob) -> None:
        self.job = job
        for ruleset in job.rulesets:
            register_ruleset(ruleset, replace=True)
        self._scenarios: dict[int, Scenario] = {}
        self._cache = OddsCache()
        self._bots = dict(job.bots)
        # the data changes and the bar in force in this process: none, whatever an
        # earlier job of this process left
        use_data_changes({})
        set_bars({})
        self._numbers = ""  # (a cell's TOML)
        self._bar = ""  # (SIDE:RULE)

    def use_cell(self, data_toml: str, bar: str) -> None:
        """Play with a cell's changed rulebook numbers (``""``: the packaged ones) and its
        bar (``""``: none); the odds memo is emptied with every change of numbers, as the
        rules' own memos are."""
        if data_toml != self._numbers:
            changes = tomllib.loads(data_toml) if data_toml else {}
            use_data_changes(changes)
            self._cache.clear()
            self._numbers = data_toml
        if bar != self._bar:
            side, _, rule = bar.partition(":")
            set_bars({side: (rule,)} if bar else {})
            self._bar = bar

    def scenario(self, cell: int) -> Scenario:
        """The scenario of ``cell``, parsed once."""
        if cell not in self._scenarios:
            self._scenarios[cell] = self.job.cells[cell].scenario()
        return self._scenarios[cell]

    def play(self, task: GameTask) -> GameOutcome:
        """Play one game to its end, bots on every side."""
        cell = self.job.cells[task.cell]
        self.use_cell(cell.data_toml, cell.bar)
        scenario = self.scenario(task.cell)
        if len(self._cache) > CACHE_LIMIT:
            self._cache.clear()
        controllers: dict[str, Controller] = {
            side: bot_for(self._bots[side], task.seed, side, self._cache)
            for side in scenario.side_ids
        }
        session = play_game(scenario, task.seed, controllers=controllers)
        result = session.result
        if result is None:
            raise SimError(
                f"{self.job.cells[task.cell].origin}: the game of seed {task.seed} waits for a "
                "person; kubik sim plays bots on every side"
            )
        state = session.state
        units = state.unit_results() if isinstance(state, BattleGame) else None
        return GameOutcome(
            task.cell, task.game, task.seed, result.winner, result.turns, result.summary, units
        )


_WORKERS: dict[str, Worker] = {}


def worker_for(job: SimJob) -> Worker:
    """This process's worker for ``job`` (made on first use, then kept)."""
    key = job.key
    if key not in _WORKERS:
        _WORKERS.clear()  # one job at a time per process: let the last one's memory go
        _WORKERS[key] = Worker(job)
    return _WORKERS[key]


def play_batch(
    job: SimJob, batch: Iterable[GameTask], restore: bool = True
) -> Iterator[GameOutcome]:
    """Play a batch of games in this process, yielding each outcome as it finishes.

    ``restore``: put the rulebook's own numbers back (and lift any bar) when the batch
    ends — in a process that does more than play this job's games. A worker process
    of the job keeps its cell's numbers to the next batch (most often of the same cell,
    whose memos it then keeps): every game sets its own cell's numbers first.
    """
    worker = worker_for(job)
    try:
        for task in batch:
            with fewer_collections():
                outcome = worker.play(task)
            yield outcome
    finally:
        if restore:
            worker.use_cell("", "")  # no cell's numbers or bar outlive its games


__all__ = [
    "CACHE_LIMIT",
    "GameOutcome",
    "SimError",
    "Worker",
    "play_batch",
    "worker_for",
]
