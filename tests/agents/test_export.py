"""Saved games as trajectories: every decision of every side, as the side saw it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kubik.agents import trajectories
from kubik.agents.__main__ import main
from kubik.bots import RandomBot
from kubik.engine import ChoiceEntry
from kubik.game import GameRecord, GameSession, GameStore, load_scenario


def _played(seed: int, scenario: str = "apocalypse.demo") -> GameSession:
    loaded = load_scenario(scenario)
    first, second = loaded.side_ids
    session = GameSession(loaded, seed, controllers={first: RandomBot(seed, first), second: "bot"})
    session.advance()
    return session


def test_each_side_gets_its_decisions_as_it_saw_them() -> None:
    session = _played(5)
    record = GameRecord.loads(session.record.dumps())  # as a save file reads back
    found = trajectories(record)
    assert list(found) == list(session.scenario.side_ids)
    decisions = [e for e in session.log if isinstance(e, ChoiceEntry)]
    for side, trajectory in found.items():
        mine = [e for e in decisions if e.side == side]
        assert len(trajectory.steps) == len(mine)
        for step, entry in zip(trajectory.steps, mine, strict=True):
            assert step.action == entry.options.index(entry.answer)
            assert step.mask[step.action] == 1 and step.mask.sum() == len(entry.options)
            assert step.reason == entry.reason.id
            assert (
                step.observation["globals"].shape
                == trajectory.steps[0].observation["globals"].shape
            )
        assert {step.origin for step in trajectory.steps} == (
            {"bot"} if side == session.scenario.side_ids[0] else {"default"}
        )
        winner = session.result.winner if session.result else None
        assert trajectory.reward == (0.0 if winner is None else (1.0 if winner == side else -1.0))


def test_an_unfinished_game_ends_its_trajectories_where_it_stopped() -> None:
    session = _played(6, "old_west.demo")
    cut = session.record.with_answers(session.record.answers[:40])
    found = trajectories(cut)
    assert all(t.reward is None for t in found.values())
    assert 0 < sum(len(t.steps) for t in found.values()) < 40
    arrays = found["law"].arrays()
    assert np.isnan(arrays["reward"])
    assert arrays["planes"].shape[0] == arrays["action"].shape[0] == len(found["law"].steps)


def test_the_command_writes_one_file_per_game_and_side(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store_path = tmp_path / "games.db"
    with GameStore(store_path) as store:
        store.save("duel-1", _played(7, "fantasy.barrow").record)
    out = tmp_path / "data"
    assert main(["export", "--store", str(store_path), "--out", str(out)]) == 0
    files = sorted(p.name for p in out.iterdir())
    assert files == ["duel-1.dwarfs.npz", "duel-1.undead.npz"]
    with np.load(out / "duel-1.dwarfs.npz") as data:
        assert data["action"].ndim == 1 and data["mask"].shape[0] == data["action"].shape[0]
        assert set(data["origin"].tolist()) == {"bot"}
    assert "decisions, reward" in capsys.readouterr().out
    assert main(["export", "nobody", "--store", str(store_path), "--out", str(out)]) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("kubik.agents export:") and "nobody" in error and "\n" not in error
