"""Benchmark: ``kubik sim`` throughput — games per second per core, and 1 → 2 workers.

For every built-in scenario, :data:`GAMES` heuristic-bot games are played in this
process (``--workers 1``): games per second on one core. Then the same
:data:`SCALING_GAMES` games of :data:`SCALING_SCENARIO` are played by a pool of 1
worker process and by a pool of 2 (``--workers 2``), each timed from the pool's start
to the last game (process start-up, imports and cold caches included, for both), and
the speed-up is the ratio of the two rates. The target is ≥ 1.8× on 2 cores.

Other programs on the machine take cores from the workers, so the load average is
measured before and after and printed with the results: scaling measured under load
says little about kubik. Nothing here is skipped or faked; a scenario that cannot
be loaded is reported on stderr.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from kubik.core.errors import KubikError
from kubik.game import Scenario, list_scenarios, load_scenario
from kubik.sim import InProcess, LocalProcesses, simulate_battles
from kubik.sim.backends import Backend

#: Games per built-in scenario for the per-core rate.
GAMES = int(os.environ.get("KUBIK_BENCH_SIM_GAMES", "12"))
#: Games of the scaling measurement (each pool plays all of them).
SCALING_GAMES = int(os.environ.get("KUBIK_BENCH_SIM_SCALING_GAMES", "96"))
SCALING_SCENARIO = "steel_war.demo"
SEED = 1


def _load() -> float:
    try:
        return os.getloadavg()[0]
    except OSError:  # not available on this platform
        return float("nan")


def games_per_second(scenario: Scenario, games: int, backend: Backend) -> float:
    """Games per second of ``games`` heuristic-bot games on ``backend`` (nothing stored)."""
    bots = dict.fromkeys(scenario.side_ids, "heuristic")
    begin = time.perf_counter()
    result = simulate_battles(scenario, games, SEED, bots, backend, store=False)
    seconds = time.perf_counter() - begin
    assert result.run.played == games
    return games / seconds


def run() -> list[dict[str, Any]]:
    """Rows ``{"case", "value", "unit"}`` for bench/__main__.py (and the README)."""
    out: list[dict[str, Any]] = []
    load_before = _load()
    built_in = [info.id for info in list_scenarios() if info.source.value == "built-in"]
    for scenario_id in built_in:
        try:
            scenario = load_scenario(scenario_id)
        except KubikError as error:
            sys.stderr.write(f"bench_sim: {scenario_id} skipped: {error}\n")
            continue
        rate = games_per_second(scenario, GAMES, InProcess())
        out.append(
            {
                "case": f"kubik sim {scenario_id}: heuristic bots, 1 process ({GAMES} games)",
                "value": rate,
                "unit": "games/s per core",
            }
        )
    scenario = load_scenario(SCALING_SCENARIO)
    one = games_per_second(scenario, SCALING_GAMES, LocalProcesses(1))
    two = games_per_second(scenario, SCALING_GAMES, LocalProcesses(2))
    load_after = _load()
    cores = os.cpu_count() or 1
    where = f"{SCALING_SCENARIO}, {SCALING_GAMES} games, start-up included"
    out.extend(
        [
            {"case": f"1 worker process ({where})", "value": one, "unit": "games/s"},
            {"case": f"2 worker processes ({where})", "value": two, "unit": "games/s"},
            {
                "case": "speed-up of 2 workers over 1 (target ≥ 1.8)",
                "value": two / one,
                "unit": "×",
            },
            {
                "case": f"load average (1 min) before / after, {cores} cores",
                "value": f"{load_before:.2f} / {load_after:.2f}",
                "unit": "",
            },
        ]
    )
    return out


if __name__ == "__main__":
    for row in run():
        value = row["value"]
        shown = f"{value:.3f}" if isinstance(value, float) else str(value)
        print(f"{row['case']}: {shown} {row['unit']}")
