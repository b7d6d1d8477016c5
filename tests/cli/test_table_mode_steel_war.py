"""Referee mode on Стальная война, through a pseudo-terminal: a whole first turn of
``steel_war.demo`` played as a referee at a real table would — every roll typed in,
every decision and measurement confirmed or typed, squads put where they stand on the
table (a place, a formation, single models) — then the saved game replayed in words."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ROLL = re.compile(r"Roll ((?:d\d+)(?:, d\d+)*) — ")
PROPOSED = re.compile(r"stand now\? \(proposed: ([\d.]+), ([\d.]+)\)")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
#: What the dice show, in turn (each capped at its die's faces).
FACES = (4, 3, 5, 2, 6, 1, 5, 3)


def test_a_whole_turn_of_the_steel_war_demo_refereed_at_the_table(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "KUBIK_HOME": str(tmp_path), "NO_COLOR": "1", "TERM": "dumb"}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "kubik", "play", "steel_war.demo", "--table", "--save", "crossroads"],
        cwd=str(ROOT),
        env=env,
        encoding="utf-8",
        timeout=120,
        dimensions=(60, 240),
    )
    screen: list[str] = []
    rolled = placed = measured = 0
    stepped = False
    tries: list[str] = []
    answered = 0
    while True:
        found = child.expect_exact(["dice> ", "choice> ", "── Turn 2 "])
        screen.append(child.before + child.after)
        if found == 2:
            break
        text = " ".join(ANSI.sub("", child.before).split())
        answered += 1
        assert answered < 600, "the turn never ended"
        if found == 0:
            dice = ROLL.findall(text)[-1].split(", ") if ROLL.findall(text) else ["d6"]
            values = [min(FACES[(rolled + i) % len(FACES)], int(d[1:])) for i, d in enumerate(dice)]
            rolled += 1
            child.sendline(" ".join(str(v) for v in values))
            continue
        question = text.rsplit("decides:", 1)[-1]  # the last question asked
        if "Not accepted" in question:  # the rules refused what was typed: the next try
            child.sendline(tries.pop(0) if tries else "")
        elif "stand now?" in question and PROPOSED.search(question):
            x, y = PROPOSED.findall(question)[-1]
            # where the squad's centre stands, as measured on the table; now and then put
            # in a line there (or its block, when a line would go too far), else as it stood
            tries = [f"{x}; {y} line", f"{x}; {y} block", f"{x}, {y}"] if placed % 2 else []
            child.sendline(tries.pop(0) if tries else f"{x}, {y}")
            placed += 1
        elif "did single models go elsewhere?" in question:
            tries = []
            if not stepped:  # one man steps half an inch west, then a tenth further
                child.sendline("1 0.5 w")
                tries, stepped = ["1 0.1 w"], True
            else:
                child.sendline("")
        elif "confirm it, or type what you measured" in question:
            measured += 1
            child.sendline("")  # the tape agrees
        else:
            child.sendline("")  # Enter takes the default option
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert child.wait() == 0
    log = ANSI.sub("", "".join(screen))
    flat = " ".join(log.split())
    # what the person rolling needs before rolling: the numbers to beat, the dice, who
    assert "(leadership 2 + threat" in flat
    assert "(quality)" in flat and "(rate of fire)" in flat
    assert "rolled by: Lianra, " in flat and "rolled by: Steel, " in flat
    assert "rolled by: the shooter" not in flat and "rolled by: the target" not in flat
    assert "✍ rolled d6 at the table:" in flat
    # squads placed where they stand at the table, told in words, single models too
    assert placed >= 2 and stepped
    assert "as placed at the table" in flat
    assert "in a line" in flat or "in its block" in flat
    assert "stands at (" in flat
    assert rolled >= 4 and measured >= 1
    replay = pexpect.run(
        f"{sys.executable} -m kubik replay crossroads",
        cwd=str(ROOT),
        env=env,
        encoding="utf-8",
        timeout=120,
    )
    said = " ".join(ANSI.sub("", str(replay)).split())
    assert "as placed at the table" in said
    assert "{'x'" not in said and '{"x"' not in said
