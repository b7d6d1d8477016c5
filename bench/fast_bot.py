"""The fast bot against the heuristic bot: win rates on the same seeds, and speed.

``python -m bench.fast_bot`` plays :data:`GAMES` games of every built-in scenario with
heuristic bots on both sides and the same games (the same seeds, as ``kubik sim
SCENARIO --seed 1`` has them) with fast bots, each bot in a fresh process (as
``bench_games`` does: one sim worker, its memo kept from game to game), and prints a
Markdown table: the first side's win rate under each bot with its 95% Wilson interval,
the paired difference (fast − heuristic, game by game) with its 95% interval, how many
games ended alike, and the fast bot's speed over the heuristic bot's in CPU time. The
target: within 5 points of the heuristic bot's win rate in every scenario, at 10× its
speed. ``KUBIK_BENCH_FAST_GAMES`` sets the games; ``python -m bench.fast_bot SCENARIO ...``
plays only those scenarios.
"""

from __future__ import annotations

import os
import sys
import time

from bench.bench_games import built_in, play_apart
from kubik.sim.stats import interval_of_rate, paired_difference

GAMES = int(os.environ.get("KUBIK_BENCH_FAST_GAMES", "200"))


def _pct(low: float, high: float) -> str:
    return f"[{100 * low:.1f}, {100 * high:.1f}]"


def row(scenario: str, games: int = GAMES) -> str:
    """One scenario's Markdown row."""
    from kubik.game import load_scenario

    first = load_scenario(scenario).side_ids[0]
    heuristic = play_apart(scenario, "heuristic", games)
    fast = play_apart(scenario, "fast", games)
    won_h = [float(winner == first) for winner, _ in heuristic["outcomes"]]
    won_f = [float(winner == first) for winner, _ in fast["outcomes"]]
    alike = sum(a == b for a, b in zip(heuristic["outcomes"], fast["outcomes"], strict=True))
    paired = paired_difference(won_f, won_h)
    low, high = paired["interval"]
    speed = heuristic["games"] / fast["games"]
    return (
        f"| `{scenario}` ({first}) | {100 * sum(won_h) / games:.1f}% "
        f"{_pct(*interval_of_rate(int(sum(won_h)), games))} | {100 * sum(won_f) / games:.1f}% "
        f"{_pct(*interval_of_rate(int(sum(won_f)), games))} | "
        f"{100 * paired['difference']:+.1f} [{100 * low:+.1f}, {100 * high:+.1f}] | "
        f"{alike} of {games} | {games / heuristic['games']:.2f} | {games / fast['games']:.2f} | "
        f"{speed:.2f}× |"
    )


def main(scenarios: list[str]) -> None:
    """Print the table, a row as each scenario finishes."""
    begin = time.perf_counter()
    load = os.getloadavg()[0]
    print(
        "| scenario (side) | heuristic: wins [95%] | fast: wins [95%] | "
        "fast − heuristic, paired [95%] | games alike | heuristic games/s | "
        "fast games/s | speed |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for scenario in scenarios or built_in():
        print(row(scenario), flush=True)
    print(
        f"\n{GAMES} games per scenario and bot, root seed 1; CPU time of the games in a fresh "
        f"process per scenario and bot; load average {load:.2f} before, "
        f"{os.getloadavg()[0]:.2f} after, on {os.cpu_count() or 1} cores; "
        f"{time.perf_counter() - begin:.0f} s in all."
    )


if __name__ == "__main__":
    main(sys.argv[1:])
