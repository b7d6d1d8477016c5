"""Benchmark: whole bot-vs-bot games of each built-in demo (the issue's "well under 1 s").

For ``steel_war.demo``, ``old_west.demo`` and ``apocalypse.demo`` a game is played to its end with
virtual dice by default bots (every decision its default: the cost of the rules
and the game layer alone) and by heuristic bots (every decision weighed by the
exact odds of its options' rules, and optimal decisions inside rules; a fresh odds
cache per game, so each game pays for its own odds). Each row is the median CPU time
of the process over several seeds, played one after another in one process; that
sequence is run :data:`REPEATS` times, each in a fresh process, and each seed's least
time kept (the machine is a shared VM whose other work adds time, never removes it;
a fresh process keeps one run's caches from helping the next). A demo that does not
exist yet is skipped with a note on stderr, never faked.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time

from kubik.cli.play import controllers_for
from kubik.core.errors import KubikError
from kubik.engine.odds import OddsCache
from kubik.game import GameSession, Scenario, load_scenario

DEMOS: tuple[str, ...] = ("steel_war.demo", "old_west.demo", "apocalypse.demo", "fantasy.demo")
SEEDS: tuple[int, ...] = (1, 2, 3, 4, 5)
BOTS: tuple[str, ...] = ("default", "heuristic")
#: Fresh processes each playing every seed; each seed's least CPU time is kept.
REPEATS = 3


def play_once(scenario: Scenario, bot: str, seed: int) -> GameSession:
    """One whole game, both sides played by ``bot``."""
    kinds = {side: bot for side in scenario.side_ids}
    controllers = controllers_for(kinds, seed, OddsCache())
    session = GameSession(scenario, seed, controllers=controllers)
    session.advance()
    if not session.finished:
        raise RuntimeError(f"{scenario.id} with {bot} bots, seed {seed}: the game did not end")
    return session


def seed_times(demo: str, bot: str) -> tuple[list[float], list[int]]:
    """CPU seconds and turns of each seed's game, played in turn in this process."""
    scenario = load_scenario(demo)
    times: list[float] = []
    turns: list[int] = []
    for seed in SEEDS:
        begin = time.process_time()
        session = play_once(scenario, bot, seed)
        times.append(time.process_time() - begin)
        turns.append(session.result.turns if session.result else 0)
    return times, turns


def timed_games(scenario: Scenario, bot: str) -> tuple[float, float]:
    """(median seconds per game, median turns per game) over :data:`SEEDS`."""
    code = (
        "import json, sys\n"
        "from bench.bench_game import seed_times\n"
        f"print(json.dumps(seed_times({scenario.id!r}, {bot!r})))\n"
    )
    best: list[float] = [float("inf")] * len(SEEDS)
    turns: list[int] = []
    for _ in range(REPEATS):
        child = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        times, turns = json.loads(child.stdout.splitlines()[-1])
        best = [min(a, b) for a, b in zip(best, times, strict=True)]
    return statistics.median(best), statistics.median(turns)


def run() -> list[dict[str, object]]:
    """Rows ``{"case", "kubik_s"}`` for bench/__main__.py (and the README table)."""
    rows: list[dict[str, object]] = []
    for demo in DEMOS:
        try:
            scenario = load_scenario(demo)
        except KubikError as error:
            sys.stderr.write(f"bench_game: {demo} skipped: {error}\n")
            continue
        for bot in BOTS:
            seconds, turns = timed_games(scenario, bot)
            rows.append(
                {
                    "case": f"{demo}: a whole game, {bot} bot vs {bot} bot "
                    f"(median of {len(SEEDS)} seeds, best of {REPEATS} processes, {turns:g} turns)",
                    "kubik_s": seconds,
                }
            )
    return rows


if __name__ == "__main__":
    for row in run():
        print(f"{row['case']}: {row['kubik_s']:.4f} s")
