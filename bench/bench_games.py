"""Benchmark: games per second per core of every built-in scenario, in CPU time.

What ``kubik sim`` does on one core: each scenario's :data:`GAMES` games (seeds derived
from seed 1, as ``kubik sim SCENARIO --seed 1`` has them) are played one after another by
one sim worker (``play_batch``), which keeps its odds memo from game to game, in a fresh
process (no other scenario's memo helps it). The rate is games over the CPU time (user +
system) of those games, the worker's first, cold game included; the process's start-up
(Python, imports, the scenario read) is timed apart, since a long sweep pays it once. Each
scenario runs :data:`REPEATS` times, each in a fresh process, and the best is kept: other
work on a shared machine only adds time.

The target: no built-in scenario below 2 games per second per core with heuristic bots.
``KUBIK_BENCH_GAMES_BOTS=heuristic,fast`` times other bots as well (rows without a target);
``python -m bench.bench_games`` prints the Markdown table of docs/balance-lab.md.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Any

from kubik.game import list_scenarios

#: Games per scenario and process.
GAMES = int(os.environ.get("KUBIK_BENCH_GAMES", "20"))
#: Fresh processes per scenario; the best rate is kept.
REPEATS = int(os.environ.get("KUBIK_BENCH_GAMES_REPEATS", "3"))
#: Bots timed, both sides alike; the target is the heuristic bot's.
BOTS: tuple[str, ...] = tuple(
    os.environ.get("KUBIK_BENCH_GAMES_BOTS", "heuristic").replace(" ", "").split(",")
)
#: No scenario below this many heuristic games per second per core.
TARGET = 2.0
SEED = 1

_CHILD = """\
import json, sys, time
start = time.process_time()
from kubik.game import load_scenario
from kubik.sim.job import build_job
from kubik.sim.outcome import play_batch, worker_for
scenario = load_scenario(sys.argv[1])
bots = dict.fromkeys(scenario.side_ids, sys.argv[2])
job = build_job(scenario, int(sys.argv[3]), bots, [], [], [])
worker = worker_for(job)
tasks = job.tasks(int(sys.argv[4]))
ready = time.process_time()
played = list(play_batch(job, tasks))
seconds = time.process_time() - ready
games = [[o.winner, o.turns] for o in played]
print(json.dumps({"start_up": ready - start, "games": seconds, "outcomes": games}))
"""


def built_in() -> list[str]:
    """Every built-in scenario's id, as ``kubik scenarios`` lists them."""
    return [info.id for info in list_scenarios() if info.source.value == "built-in"]


def play_apart(scenario: str, bot: str, games: int) -> dict[str, Any]:
    """``games`` games of ``scenario`` by one sim worker in a fresh process: its start-up's
    and its games' CPU seconds, and each game's ``[winner, turns]``."""
    child = subprocess.run(
        [sys.executable, "-c", _CHILD, scenario, bot, str(SEED), str(games)],
        capture_output=True,
        text=True,
        check=True,
    )
    found: dict[str, Any] = json.loads(child.stdout.splitlines()[-1])
    return found


def measure(
    scenario: str, bot: str, games: int = GAMES, repeats: int = REPEATS
) -> dict[str, float]:
    """The best of ``repeats`` fresh processes: games per CPU second and the start-up's seconds."""
    best_games = best_start = float("inf")
    for _ in range(repeats):
        times = play_apart(scenario, bot, games)
        best_games = min(best_games, float(times["games"]))
        best_start = min(best_start, float(times["start_up"]))
    return {"rate": games / best_games, "start_up": best_start}


def _load() -> float:
    try:
        return os.getloadavg()[0]
    except OSError:  # not available on this platform
        return float("nan")


def measure_all() -> tuple[dict[tuple[str, str], dict[str, float]], float, float]:
    """Every (scenario, bot) measured, with the load average before and after."""
    before = _load()
    found = {(s, bot): measure(s, bot) for s in built_in() for bot in BOTS}
    return found, before, _load()


def run() -> list[dict[str, object]]:
    """Rows ``{"case", "value", "unit"}`` for bench/__main__.py (``at_least``: the target)."""
    found, before, after = measure_all()
    rows: list[dict[str, object]] = []
    for (scenario, bot), times in found.items():
        row: dict[str, object] = {
            "case": f"{scenario}: {bot} bots, {GAMES} games in one process "
            f"(start-up {times['start_up']:.2f} s apart), best of {REPEATS}",
            "value": times["rate"],
            "unit": "games/s per core (CPU)",
        }
        if bot == "heuristic":
            row["at_least"] = TARGET
        rows.append(row)
    rows.append(
        {
            "case": f"load average (1 min) before / after, {os.cpu_count() or 1} cores",
            "value": f"{before:.2f} / {after:.2f}",
            "unit": "",
        }
    )
    return rows


def markdown() -> str:
    """The table of docs/benchmarks.md: a row per scenario, a column per bot."""
    begin = time.perf_counter()
    found, before, after = measure_all()
    head = "| scenario | " + " | ".join(f"{bot} (games/s/core)" for bot in BOTS) + " |"
    lines = [head, "|---|" + "---:|" * len(BOTS)]
    for scenario in built_in():
        cells = []
        for bot in BOTS:
            rate = found[scenario, bot]["rate"]
            low = bot == "heuristic" and rate < TARGET
            cells.append(f"**{rate:.2f}** (below {TARGET:g})" if low else f"{rate:.2f}")
        lines.append(f"| `{scenario}` | " + " | ".join(cells) + " |")
    start_up = [times["start_up"] for times in found.values()]
    lines.append("")
    lines.append(
        f"{GAMES} games per scenario and bot, best of {REPEATS} fresh processes; start-up "
        f"(not counted) {min(start_up):.2f}–{max(start_up):.2f} s of CPU; load average "
        f"{before:.2f} before, {after:.2f} after, on {os.cpu_count() or 1} cores; "
        f"{time.perf_counter() - begin:.0f} s in all."
    )
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown())
