"""Saved games as data: each side's (observation, action mask, action) at every decision.

A kubik save is event-sourced — the scenario, the seed and every answer — so a game
people played (or bots, or an agent) can be replayed decision by decision and seen
as each side saw it then, in the very arrays the environment gives an agent
(:class:`~kubik.agents.encoding.Encoder`). That is what imitation learning and
offline reinforcement learning read, as Jervis reads FUMBBL's replays of Blood Bowl.

Every recorded answer is given again (dice as recorded, decisions as recorded); the
observation is made before each decision of a side. A decision a person answered by
typing (at a real table) whose value is no option has action ``-1``. ``origin`` says
who took each decision (``human``, ``bot``, ``default``, ``policy``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from kubik.agents.encoding import Encoder, fresh_battle
from kubik.agents.spaces import max_actions_for
from kubik.engine import ChoiceAnswer, Choose, Roll, RollAnswer
from kubik.engine.log import Typed
from kubik.game import (
    HUMAN,
    DiceMode,
    GameRecord,
    GameSession,
    GameStore,
    RecordError,
    ScenarioSource,
    parse_scenario,
)
from kubik.game.battle import BattleGame


@dataclass(frozen=True, slots=True)
class Step:
    """One decision of one side: what it saw, what it could do and what it did."""

    observation: dict[str, NDArray[np.float32]]
    mask: NDArray[np.int8]
    action: int
    origin: str
    reason: str


@dataclass(slots=True)
class Trajectory:
    """A side's decisions in one game, and how the game ended for it.

    ``reward``: +1 a win, -1 a loss, 0 a draw, ``None`` while the game is unfinished.
    """

    scenario: str
    seed: int
    side: str
    steps: list[Step] = field(default_factory=list)
    reward: float | None = None

    def arrays(self) -> dict[str, NDArray[Any]]:
        """The steps stacked: each observation array with a leading time axis, then
        ``mask``, ``action``, ``origin`` and ``reward`` (NaN when unfinished)."""
        out: dict[str, NDArray[Any]] = {}
        names = self.steps[0].observation if self.steps else {}
        for name in names:
            out[name] = np.stack([step.observation[name] for step in self.steps])
        out["mask"] = np.stack([step.mask for step in self.steps]) if self.steps else np.zeros(0)
        out["action"] = np.array([step.action for step in self.steps], dtype=np.int64)
        out["origin"] = np.array([step.origin for step in self.steps], dtype=np.str_)
        out["reward"] = np.array(np.nan if self.reward is None else self.reward)
        return out

    def save(self, path: Path | str) -> Path:
        """Write :meth:`arrays` to a compressed ``.npz`` file; returns its path."""
        target = Path(path)
        write: Callable[..., None] = np.savez_compressed  # (names of arrays as keywords)
        write(target, **self.arrays())
        return target if target.suffix == ".npz" else target.with_name(target.name + ".npz")


def trajectories(
    record: GameRecord, *, max_actions: int | None = None, forecasts: bool = False
) -> dict[str, Trajectory]:
    """Every side's trajectory in the saved game ``record`` (in the scenario's order of
    sides). Raises :class:`~kubik.game.RecordError` when the record does not replay."""
    scenario = parse_scenario(record.scenario_toml, record.scenario, ScenarioSource.RECORD)
    options = dict(record.options)
    size = max_actions or max_actions_for(scenario.ruleset)
    encoder = Encoder(scenario, fresh_battle(scenario, options), size, forecasts=forecasts)
    session = GameSession(
        scenario,
        record.seed,
        controllers=dict.fromkeys(scenario.side_ids, HUMAN),
        dice=DiceMode.TYPED,
        lang=record.lang,
        options=options,
    )
    found = {side: Trajectory(scenario.id, record.seed, side) for side in scenario.side_ids}
    answers = record.answers
    session.advance()
    while session.pending is not None:
        index = len(session.answers)
        if index >= len(answers):
            break  # an unfinished game: its trajectories end here
        recorded = answers[index]
        pending = session.pending
        if isinstance(pending, Roll):
            if not isinstance(recorded, RollAnswer):
                raise RecordError(f"answer {index}: a decision where the game rolls dice")
            session.roll(recorded.values)
            continue
        if not isinstance(recorded, ChoiceAnswer):
            raise RecordError(f"answer {index}: dice where side '{pending.side}' decides")
        battle = session.state
        assert isinstance(pending, Choose) and isinstance(battle, BattleGame)
        observation = encoder.observe(battle, pending.side, pending)
        mask = encoder.mask(pending)
        if isinstance(recorded.value, Typed):
            session.type_answer(recorded.value.text)
        else:
            session.answer(recorded.value)
        given = session.answers[index]
        assert isinstance(given, ChoiceAnswer)
        action = pending.options.index(given.value) if given.value in pending.options else -1
        found[pending.side].steps.append(
            Step(observation, mask, action, recorded.origin.value, pending.reason.id)
        )
    if session.result is not None:
        winner = session.result.winner
        for side, trajectory in found.items():
            trajectory.reward = 0.0 if winner is None else (1.0 if side == winner else -1.0)
    return found


def saved_trajectories(
    store: GameStore, names: Iterable[str] = (), *, max_actions: int | None = None
) -> Iterator[tuple[str, dict[str, Trajectory]]]:
    """Each saved game of ``store`` (those called ``names``, or all) with its sides'
    trajectories, in the store's order of names."""
    for name in list(names) or store.names():
        yield name, trajectories(store.load(name), max_actions=max_actions)


__all__ = ["Step", "Trajectory", "saved_trajectories", "trajectories"]
