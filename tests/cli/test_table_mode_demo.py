"""Referee mode on a real battle, through a pseudo-terminal: a whole first turn of
``old_west.demo`` with every roll typed in and every decision taken at the prompt."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ROLL = re.compile(r"Roll ((?:d\d+)(?:, d\d+)*) — ")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def test_a_whole_turn_of_the_old_west_demo_refereed_at_the_table(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "KUBIK_HOME": str(tmp_path), "NO_COLOR": "1", "TERM": "dumb"}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "kubik", "play", "old_west.demo", "--table", "--save", "friday"],
        cwd=str(ROOT),
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(60, 200),
    )
    screen: list[str] = []
    rolls = decisions = 0
    rejected = detailed = False
    dice = ["d6"]
    while True:
        found = child.expect_exact(["dice> ", "choice> ", "── Turn 2 "])
        screen.append(child.before + child.after)
        if found == 2:
            break
        text = ANSI.sub("", child.before)
        if found == 0:
            asked = ROLL.findall(text)
            if asked:  # a new roll: its dice are named in the question
                dice = asked[-1].split(", ")
                rolls += 1
            if not rejected:  # one impossible value first: refused, asked again, nothing lost
                child.sendline(" ".join("0" for _ in dice))
                rejected = True
                continue
            child.sendline(" ".join("3" for _ in dice))  # a 3 fits every die from d3 up
        elif not detailed:  # the first decision: its first option in full, then on
            child.sendline("? 1")
            detailed = True
        else:
            decisions += 1
            child.sendline("")  # Enter takes the default option
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert child.wait() == 0  # the exit itself: close() would kill a child still exiting
    log = ANSI.sub("", "".join(screen))
    assert "— advantage (преимущество" in log and "rolled by: the Marshal's posse" in log
    assert "Not accepted:" in log and "cannot show 0" in log
    assert "✍ rolled d6 at the table: 3" in log  # typed dice are marked in the log
    assert "Movement phase (фаза Движения)" in log and "Shooting phase" in log
    assert "1. " in log and ("expected worth" in log or "No odds" in log)  # `? 1`
    assert rolls >= 2 and decisions >= 5
