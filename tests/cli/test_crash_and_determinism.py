"""The hardest promises, kept in the suite: a crash loses no confirmed answer, and the
same game is the same bytes in every process.

A saved battle is killed with SIGKILL at several points while it plays; ``kubik load``
then finishes it exactly as the uninterrupted game. The same commands run in separate
processes with different hash seeds print identical bytes.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.processes import kubik_process

SCENARIO, SEED = "steel_war.demo", "5"


def env_for(home: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "KUBIK_HOME": str(home), "PYTHONUNBUFFERED": "1", **extra}


def kubik(home: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    return kubik_process(*args, env=env_for(home, **extra))


def stored_answers(home: Path, name: str) -> int:
    """How many answers of game ``name`` the store holds (read directly, no replay)."""
    with sqlite3.connect(home / "games.sqlite3") as db:
        (count,) = db.execute("SELECT COUNT(*) FROM answers WHERE game = ?", (name,)).fetchone()
    return int(count)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_saved_game_killed_at_random_points_loads_and_finishes_identically(
    tmp_path: Path,
) -> None:
    reference = kubik(tmp_path / "ref", "play", SCENARIO, "--seed", SEED, "--json", "--save", "r")
    assert reference.returncode == 0, reference.stderr
    total = len(json.loads(reference.stdout)["log"])
    answers = stored_answers(tmp_path / "ref", "r")
    partial = 0
    points = sorted(random.Random(10).sample(range(20, 700), 3))  # lines printed before the kill
    for point in points:
        home = tmp_path / f"kill-{point}"
        name = f"crash-{point}"
        child = subprocess.Popen(
            [sys.executable, "-m", "kubik", "play", SCENARIO, "--seed", SEED, "--save", name],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env_for(home),
        )
        assert child.stdout is not None
        for seen, _ in enumerate(child.stdout, start=1):
            if seen >= point:
                break
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=60)
        assert child.returncode == -signal.SIGKILL
        if not (home / "games.sqlite3").exists():  # killed before the save began
            continue
        partial += stored_answers(home, name) < answers
        loaded = kubik(home, "load", name, "--json")
        if f"no saved game '{name}'" in loaded.stderr:  # killed before the save began
            continue
        assert loaded.returncode == 0, loaded.stderr
        assert loaded.stdout == reference.stdout, f"killed after {point} of ~{total} lines"
    assert partial >= 1, "no kill landed in the middle of the game"


def test_the_same_commands_print_the_same_bytes_across_processes_and_hash_seeds(
    tmp_path: Path,
) -> None:
    commands = [
        ("play", "old_west.demo", "--seed", "4", "--json"),
        ("play", "old_west.demo", "--seed", "4", "--lang", "ru"),
        (
            "resolve",
            "steel_war.fire",
            "-i",
            '{"quality": "d8", "weapons": [{"weapon": "lmg"}], "distance": 12}',
            "--seed",
            "3",
            "--json",
        ),
    ]
    root = Path(__file__).resolve().parents[2]
    for args in commands:
        outputs = set()
        for hash_seed in ("0", "4242"):
            env = env_for(tmp_path / hash_seed, PYTHONHASHSEED=hash_seed)
            done = kubik_process(*args, env=env, cwd=root)
            assert done.returncode == 0, (args, done.stderr)
            outputs.add(done.stdout)
        assert len(outputs) == 1, args
