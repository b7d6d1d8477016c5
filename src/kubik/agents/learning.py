"""A proof that the environment can be learned from: a tiny policy gradient in numpy.

:class:`LinearPolicy` scores each option of a decision by a linear function of its
row in the observation's ``actions`` array (what kind of option it is, where it
goes, whom it names, its numbers) and picks by the softmax of the scores over the
legal options. :func:`train` improves it by REINFORCE — after each game, every
decision's log-probability is pushed up or down by how the game ended (minus a
running baseline) — playing one side against kubik's random bot on a small battle
(:func:`cut_down`: the first models of each side of a built-in scenario). Nothing
here needs a GPU or anything but numpy; ``tests/agents/test_learning.py`` trains it
with a fixed seed and checks that it beats the random bot in most games.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from kubik.agents.environment import KubikEnv
from kubik.game import GameInputError, Scenario, ScenarioSource, load_scenario, parse_scenario
from kubik.sim.toml_text import dumps


def cut_down(
    scenario_id: str, units: Mapping[str, int] | int, *, turn_limit: int | None = None
) -> Scenario:
    """A smaller battle of a built-in scenario: the first ``units`` units of each side
    (a number for every side, or one per side id), and ``turn_limit`` when given.
    Game options that name a unit left out (Fame of a model who is not there) are
    dropped with it."""
    source = load_scenario(scenario_id)
    data: dict[str, Any] = tomllib.loads(source.text)
    keep: dict[str, int] = (
        dict.fromkeys(source.side_ids, units) if isinstance(units, int) else dict(units)
    )
    kept: list[dict[str, Any]] = []
    for unit in data.get("units", []):
        side = unit.get("side")
        if sum(1 for k in kept if k.get("side") == side) < keep.get(side, 0):
            kept.append(unit)
    dropped = {u.get("id") for u in data.get("units", [])} - {u.get("id") for u in kept}
    data["units"] = kept
    options = data.get("options", {})
    for key, value in list(options.items()):
        if isinstance(value, dict):
            options[key] = {k: v for k, v in value.items() if k not in dropped and v not in dropped}
    if turn_limit is not None:
        data.setdefault("end", {})["turn_limit"] = turn_limit
    data["scenario"]["id"] = f"{scenario_id}_cut"
    return parse_scenario(dumps(data), f"{scenario_id} (cut down)", ScenarioSource.FILE)


@dataclass(slots=True)
class LinearPolicy:
    """A softmax over a decision's legal options of ``weights`` · (the option's row)."""

    weights: NDArray[np.float64]
    rng: np.random.Generator = field(repr=False)

    @classmethod
    def fresh(cls, features: int, seed: int) -> LinearPolicy:
        """All weights zero (every option alike), drawing from a generator seeded ``seed``."""
        return cls(np.zeros(features), np.random.default_rng(seed))

    def probabilities(
        self, actions: NDArray[np.float32], mask: NDArray[np.int8]
    ) -> NDArray[np.float64]:
        """Each action's probability (zero where the mask is)."""
        legal = mask.astype(bool)
        scores = actions.astype(np.float64) @ self.weights
        scores = np.where(legal, scores, -np.inf)
        scores -= scores[legal].max()
        odds = np.where(legal, np.exp(scores), 0.0)
        result: NDArray[np.float64] = odds / odds.sum()
        return result

    def act(self, observation: Mapping[str, Any], *, greedy: bool = False) -> int:
        """An action for an observation of the environment: drawn, or the likeliest."""
        chances = self.probabilities(
            observation["observation"]["actions"], observation["action_mask"]
        )
        if greedy:
            return int(np.argmax(chances))
        return int(self.rng.choice(len(chances), p=chances))

    def score_gradient(
        self, actions: NDArray[np.float32], mask: NDArray[np.int8], chosen: int
    ) -> NDArray[np.float64]:
        """The gradient of log π(chosen) in the weights: its row minus the expected row."""
        chances = self.probabilities(actions, mask)
        rows = actions.astype(np.float64)
        gradient: NDArray[np.float64] = rows[chosen] - chances @ rows
        return gradient


@dataclass(frozen=True, slots=True)
class Record:
    """How games went: wins, draws and losses of the learning side."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        """How many games."""
        return self.wins + self.draws + self.losses

    def add(self, outcome: float) -> Record:
        """This record and one more game ending with ``outcome`` (+1, 0, -1) for the side."""
        if outcome > 0:
            return Record(self.wins + 1, self.draws, self.losses)
        if outcome < 0:
            return Record(self.wins, self.draws, self.losses + 1)
        return Record(self.wins, self.draws + 1, self.losses)


@dataclass(frozen=True, slots=True)
class Game:
    """One game of the learning side: how it ended (+1, 0, -1), the rewards it was
    given in all, and the score gradient of every decision it took."""

    outcome: float
    reward: float
    gradients: list[NDArray[np.float64]]


def play_one(env: KubikEnv, policy: LinearPolicy, seed: int, *, greedy: bool = False) -> Game:
    """One game (``seed``) of the environment's single agent, played by ``policy``."""
    if len(env.possible_agents) != 1:
        raise GameInputError("play_one: the environment must have one agent (bots the others)")
    env.reset(seed=seed)
    (agent,) = env.possible_agents
    gradients: list[NDArray[np.float64]] = []
    total = 0.0
    for _ in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        total += reward
        if terminated or truncated:
            env.step(None)
            continue
        action = policy.act(observation, greedy=greedy)
        if not greedy:
            actions = observation["observation"]["actions"]
            gradients.append(policy.score_gradient(actions, observation["action_mask"], action))
        env.step(action)
    result = env.session.result if env.session is not None else None
    outcome = 0.0
    if result is not None and result.winner is not None:
        outcome = 1.0 if result.winner == agent else -1.0
    return Game(outcome, total, gradients)


def train(
    env: KubikEnv, episodes: int, *, seed: int = 0, rate: float = 0.05, first_game: int = 0
) -> tuple[LinearPolicy, Record]:
    """REINFORCE with a running baseline: ``episodes`` games (seeds ``first_game`` on)
    of the environment's single agent; returns the policy and the training record."""
    features = env.encoder.layout.shapes["actions"][1]
    policy = LinearPolicy.fresh(features, seed)
    baseline = 0.0
    record = Record()
    for episode in range(episodes):
        game = play_one(env, policy, first_game + episode)
        record = record.add(game.outcome)
        advantage = game.reward - baseline
        baseline += 0.1 * (game.reward - baseline)
        if game.gradients:
            step = np.sum(game.gradients, axis=0) / np.sqrt(len(game.gradients))
            policy.weights += rate * advantage * step
    return policy, record


def evaluate(
    env: KubikEnv, policy: LinearPolicy, games: int, *, first_game: int, greedy: bool = False
) -> Record:
    """The policy's record over ``games`` games (seeds ``first_game`` on), not learning."""
    record = Record()
    for game in range(games):
        played = play_one(env, policy, first_game + game, greedy=greedy)
        record = record.add(played.outcome)
    return record


__all__ = ["Game", "LinearPolicy", "Record", "cut_down", "evaluate", "play_one", "train"]
