"""Benchmark: the agents environment, one row per built-in scenario.

For each scenario, whole games are played in the PettingZoo environment by random
legal actions (both sides agents, every observation made, as a learner would ask
for it), and the environment steps (decisions answered, dice and events in between
included) are counted per CPU second of this one process: steps per second per core.
Also measured at the middle of such a game: a snapshot (the save so far) and a
restore (the game replayed from it) of the environment, and a clone of the chance
view's state (its history) and its first question (the replay). The largest menu
met is shown beside the ruleset's action space (:mod:`kubik.agents.spaces`).

``python -m bench.bench_agents`` prints the table (as ``docs/agents.md`` shows it);
``python -m bench agents`` adds its rates to the others.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass

from kubik.agents import chance_game, env
from kubik.agents.chance import ChanceState
from kubik.agents.environment import KubikEnv, random_policy
from kubik.game import ScenarioSource, list_scenarios

#: Games played per scenario for the rate (at least), and the CPU seconds aimed at.
GAMES = 2
SECONDS = 3.0


@dataclass(frozen=True, slots=True)
class Measured:
    """One scenario's figures."""

    scenario: str
    steps_per_second: float
    steps_per_game: float
    largest_menu: int
    action_space: int
    snapshot_us: float
    restore_ms: float
    clone_us: float
    replay_ms: float


def _play(game: KubikEnv, seed: int) -> tuple[int, int]:
    """One whole game by random legal actions: (steps, largest menu)."""
    act = random_policy(seed)
    game.reset(seed=seed)
    steps = largest = 0
    for _ in game.agent_iter():
        observation, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        largest = max(largest, int(observation["action_mask"].sum()))
        game.step(act(observation["action_mask"]))
        steps += 1
    return steps, largest


def _middle(game: KubikEnv, seed: int, steps: int) -> tuple[float, float]:
    """Snapshot (µs) and restore (ms) halfway through game ``seed``."""
    act = random_policy(seed)
    game.reset(seed=seed)
    for _ in range(steps // 2):
        observation, *_ = game.last()
        game.step(act(observation["action_mask"]))
    start = time.process_time()
    for _ in range(100):
        snapshot = game.snapshot()
    snapshot_us = (time.process_time() - start) / 100 * 1e6
    restores = []
    for _ in range(3):
        start = time.process_time()
        game.restore(snapshot)
        restores.append(time.process_time() - start)
    return snapshot_us, min(restores) * 1e3


def _chance_middle(scenario: str, seed: int) -> tuple[float, float]:
    """The chance view: a clone (µs) and its replay (ms) halfway through a random game."""
    state = chance_game(scenario).new_initial_state()
    act = random_policy(seed)
    rng = random.Random(seed)
    history: list[int] = []
    while not state.is_terminal():
        if state.is_chance_node():
            action = state.sample_chance(rng)
        else:
            mask = state.observation(state.current_player())["action_mask"]
            action = act(mask)
        state.apply_action(action)
        history.append(action)
    middle = ChanceState(state.game, history[: len(history) // 2])
    middle.current_player()
    start = time.process_time()
    for _ in range(100):
        twin = middle.clone()
    clone_us = (time.process_time() - start) / 100 * 1e6
    replays = []
    for _ in range(3):
        twin = middle.clone()
        start = time.process_time()
        twin.current_player()
        replays.append(time.process_time() - start)
    return clone_us, min(replays) * 1e3


def measure(scenario: str) -> Measured:
    """Every figure of one scenario."""
    game = env(scenario, seed=1)
    _play(game, 0)  # warm: the scenario's first game pays for its imports and tables
    steps = largest = games = 0
    spent = 0.0
    while games < GAMES or spent < SECONDS:
        start = time.process_time()
        played, menu = _play(game, 1 + games)
        spent += time.process_time() - start
        steps += played
        largest = max(largest, menu)
        games += 1
    snapshot_us, restore_ms = _middle(game, 1, steps // games)
    clone_us, replay_ms = _chance_middle(scenario, 1)
    return Measured(
        scenario,
        steps / spent,
        steps / games,
        largest,
        game.max_actions,
        snapshot_us,
        restore_ms,
        clone_us,
        replay_ms,
    )


def scenarios() -> list[str]:
    """Every built-in scenario."""
    return sorted(i.id for i in list_scenarios() if i.source is ScenarioSource.BUILT_IN)


def run() -> list[dict[str, object]]:
    """Rows for ``python -m bench``: steps per second per core of each scenario."""
    rows: list[dict[str, object]] = []
    for scenario in scenarios():
        found = measure(scenario)
        rows.append(
            {"case": f"agents {scenario}", "value": found.steps_per_second, "unit": "steps/s"}
        )
    return rows


def main() -> None:
    """Print the table (Markdown, as docs/agents.md shows it)."""
    print(
        "| scenario | steps/s per core | steps a game | largest menu / space "
        "| snapshot | restore | chance clone | chance replay |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    rates = []
    for scenario in scenarios():
        m = measure(scenario)
        rates.append(m.steps_per_second)
        print(
            f"| {m.scenario} | {m.steps_per_second:.0f} | {m.steps_per_game:.0f} "
            f"| {m.largest_menu} / {m.action_space} | {m.snapshot_us:.0f} µs "
            f"| {m.restore_ms:.0f} ms | {m.clone_us:.1f} µs | {m.replay_ms:.0f} ms |",
            flush=True,
        )
    print(f"\nmedian: {statistics.median(rates):.0f} steps/s per core")


if __name__ == "__main__":
    main()
