"""Play coverage games of one scenario in this process and print the rules each applied.

``python -m tests.game.applied_games SCENARIO J [J ...]`` plays games ``J`` (the
coverage run's game numbers, root seed 1, heuristic bots on every side, as ``kubik
coverage`` plays them) one after the other in one process and prints a JSON list of
each game's sorted applied rules: what :mod:`tests.game.test_applied_across_games`
compares between a fresh process and one that has played other games first.
"""

from __future__ import annotations

import json
import sys

from kubik.bots.registry import bot_for
from kubik.engine.odds import OddsCache
from kubik.game import load_scenario, play_game
from kubik.game.coverage import game_seeds


def applied_in(scenario_id: str, games: list[int]) -> list[list[str]]:
    """The sorted rules each of ``games`` applied, played in this order in this process."""
    scenario = load_scenario(scenario_id)
    seeds = game_seeds(1, max(games) + 1)
    cache = OddsCache()
    found = []
    for game in games:
        seed = seeds[game]
        bots = {side: bot_for("heuristic", seed, side, cache) for side in scenario.side_ids}
        session = play_game(scenario, seed, controllers=bots)
        assert session.finished
        found.append(sorted(session.applied))
    return found


if __name__ == "__main__":
    print(json.dumps(applied_in(sys.argv[1], [int(j) for j in sys.argv[2:]])))
