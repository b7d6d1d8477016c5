"""Coverage of a game does not depend on what the process played before it.

Memos live as long as the process (``functools.cache``, ``Kept``), a table's tape is
shared by every game on it, and verdicts are kept by value: none of them may hide a
rule's decision from a later game. Game 2 of each ruleset's demo scenario, as ``kubik
coverage`` plays it (heuristic bots, whose forecasts fill the memos too), applies the
same rules when played alone in a fresh process as after games 0 and 1.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def applied(scenario: str, *games: int) -> list[list[str]]:
    """The rules each of ``games`` applied, played in that order in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.game.applied_games", scenario, *map(str, games)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found: list[list[str]] = json.loads(done.stdout)
    return found


@pytest.mark.parametrize(
    "scenario", ["steel_war.demo", "old_west.demo", "apocalypse.demo", "fantasy.demo"]
)
def test_a_game_applies_the_same_rules_alone_and_after_others(scenario: str) -> None:
    after_others = applied(scenario, 0, 1, 2)
    alone = applied(scenario, 2)
    assert after_others[2] == alone[0]
    assert alone[0]  # (a game applies rules: the comparison is not of two empty sets)
