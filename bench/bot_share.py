"""How much of a heuristic game is the bot's own thinking: the most any bot could save.

``python -m bench.bot_share`` plays :data:`GAMES` heuristic games of every built-in
scenario (one sim worker per scenario, in a fresh process, as ``kubik sim`` plays them)
and times, in CPU time, every decision the bots take: solving inside rules, and weighing
options by their forecasts (the exact odds, and the measuring a lazy forecast does when
the bot first reads it). The rest — menus built from the rules' verdicts, moves, dice,
the log — is the game's, and any bot pays it. A bot that thought for nothing would play
``total / (total − bot)`` times as fast: the ceiling printed. ``python -m bench.bot_share
SCENARIO ...`` measures only those scenarios.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from bench.bench_games import built_in

GAMES = int(os.environ.get("KUBIK_BENCH_SHARE_GAMES", "8"))

_CHILD = """\
import json, sys, time
from kubik.bots.heuristic import HeuristicBot
from kubik.game import load_scenario
from kubik.sim.job import build_job
from kubik.sim.outcome import play_batch
spent = [0.0]
depth = [0]
def timed(method):
    def wrapper(self, *args):
        depth[0] += 1
        begin = time.process_time()
        try:
            return method(self, *args)
        finally:
            depth[0] -= 1
            if not depth[0]:  # (a decision by forecasts inside choose_at: counted once)
                spent[0] += time.process_time() - begin
    return wrapper
HeuristicBot.choose_at = timed(HeuristicBot.choose_at)
HeuristicBot.__call__ = timed(HeuristicBot.__call__)
scenario = load_scenario(sys.argv[1])
job = build_job(scenario, 1, dict.fromkeys(scenario.side_ids, "heuristic"), [], [], [])
begin = time.process_time()
list(play_batch(job, job.tasks(int(sys.argv[2]))))
print(json.dumps({"total": time.process_time() - begin, "bot": spent[0]}))
"""


def share(scenario: str, games: int = GAMES) -> dict[str, float]:
    """CPU seconds of ``games`` heuristic games and of their bots' decisions."""
    child = subprocess.run(
        [sys.executable, "-c", _CHILD, scenario, str(games)],
        capture_output=True,
        text=True,
        check=True,
    )
    found: dict[str, float] = json.loads(child.stdout.splitlines()[-1])
    return found


def main(scenarios: list[str]) -> None:
    """Print the Markdown table, a row as each scenario finishes."""
    load = os.getloadavg()[0]
    print("| scenario | games (CPU s) | the bots' decisions (CPU s) | share | ceiling |")
    print("|---|---:|---:|---:|---:|")
    for scenario in scenarios or built_in():
        times = share(scenario)
        total, bot = times["total"], times["bot"]
        print(
            f"| `{scenario}` | {total:.2f} | {bot:.2f} | {bot / total:.0%} | "
            f"{total / (total - bot):.2f}× |",
            flush=True,
        )
    print(
        f"\n{GAMES} heuristic games per scenario, root seed 1; load average {load:.2f} before, "
        f"{os.getloadavg()[0]:.2f} after, on {os.cpu_count() or 1} cores."
    )


if __name__ == "__main__":
    main(sys.argv[1:])
