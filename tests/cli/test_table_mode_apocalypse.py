"""Referee mode on Дороги Апокалипсиса, through a pseudo-terminal: people at a real table
move a warrior by hand and type where he ended — a distance and a compass bearing — and
the movement rule checks it (RA-ABSENT-08): too far for a run is refused with the reason,
a walk is taken and narrated as the move it was."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
ROLL = re.compile(r"Roll ((?:d\d+)(?:, d\d+)*) — ")


def test_a_move_typed_at_the_table_is_checked_by_the_movement_rule(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "KUBIK_HOME": str(tmp_path), "NO_COLOR": "1", "TERM": "dumb"}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "kubik", "play", "apocalypse.demo", "--table", "--side", "raiders=heuristic"],
        cwd=str(ROOT),
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(60, 200),
    )
    screen: list[str] = []
    typed: list[str] = []
    while True:
        found = child.expect_exact(["dice> ", "choice> ", "── Turn 2 "])
        text = ANSI.sub("", child.before)
        screen.append(text)
        if found == 2 or "Grif the boss moves 3" in text:
            break
        if found == 0:
            asked = ROLL.findall(text)
            dice = asked[-1].split(", ") if asked else ["d6"]
            child.sendline(" ".join("3" for _ in dice))
            continue
        if "Grif the boss: how does he move?" in text and not typed:
            typed.append("9 n")
            child.sendline("9 n")  # north over the rubble: more than his run of 8
        elif "Not accepted" in text and len(typed) == 1:  # asked again: the walk
            typed.append("3 n")
            child.sendline("3 n")  # three paces north: a walk
        else:
            child.sendline("")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert child.wait() == 0
    log = " ".join(" ".join(screen).split())  # long lines wrap at the terminal's width
    assert typed == ["9 n", "3 n"]
    assert "a distance and a direction (6 ne, 4.5 @135)" in log  # the table's grammar
    assert "Not accepted: 9.0 paces: farther than his run (8.0 paces)" in log
    assert "type «3 n»: moves to (12.0, 5.0): 3.0 paces" in log
    assert "Grif the boss moves 3.0 paces" in log
