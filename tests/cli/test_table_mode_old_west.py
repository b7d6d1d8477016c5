"""Refereeing a real Old West table through a pseudo-terminal (issue 30): a whole turn of
``old_west.demo`` where people type only what they rolled, decided and measured — a move
they made by hand, a distance they measured — and a sealed Fame bid typed out of sight."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ROLL = re.compile(r"Roll ((?:d\d+)(?:, d\d+)*) — ")
MEASURED = re.compile(r'distance from [^:]+: measured ([0-9.]+)" — confirm it')
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

DUEL_OF_HEROES = """\
[scenario]
id = "old_west.duel"
name = "Duel"
ruleset = "old_west"

[table]
width = 24
height = 24

[[sides]]
id = "law"
name = "Law"
name_ru = "Закон"

[[sides]]
id = "gang"
name = "Gang"
name_ru = "Банда"

[options]
heroic_actions = false

[[units]]
id = "wyatt"
side = "law"
name = "Wyatt"
profile = "marshal"
position = [10, 12]
base_mm = 25.4

[[units]]
id = "ike"
side = "gang"
name = "Ike"
profile = "outlaw_boss"
position = [11, 12]
base_mm = 25.4

[end]
turn_limit = 4
"""


def _spawn(pexpect: object, tmp_path: Path, *args: str) -> object:
    env = {**os.environ, "KUBIK_HOME": str(tmp_path / "home"), "NO_COLOR": "1", "TERM": "dumb"}
    return pexpect.spawn(  # type: ignore[attr-defined]
        sys.executable,
        ["-m", "kubik", "play", *args, "--table"],
        cwd=str(ROOT),
        env=env,
        encoding="utf-8",
        timeout=120,
        dimensions=(60, 200),
    )


def test_an_old_west_turn_at_the_table_takes_only_what_people_rolled_decided_and_measured(
    tmp_path: Path,
) -> None:
    pexpect = pytest.importorskip("pexpect")
    child = _spawn(pexpect, tmp_path, "old_west.demo")
    screen: list[str] = []
    dice = ["d6"]
    moved = measured = False
    while True:
        found = child.expect_exact(["dice> ", "choice> ", "── Turn 2 "])
        screen.append(child.before + child.after)
        if found == 2:
            break
        text = " ".join(ANSI.sub("", child.before).split())  # (long lines wrap)
        question = text.rsplit(" decides: ", 1)[-1]
        if found == 0:
            asked = ROLL.findall(text)
            if asked:
                dice = asked[-1].split(", ")
            child.sendline(" ".join("3" for _ in dice))  # a 3 fits every die
        elif not moved and question.startswith("where does Marshal Wyatt move?"):
            child.sendline("7 s")  # 7" is more than his move: refused, asked again
            child.expect_exact("choice> ")
            screen.append(child.before + child.after)
            child.sendline("4 s")  # as he was moved on the table: 4" south
            moved = True
        elif not measured and MEASURED.match(question):
            tape = float(MEASURED.findall(question)[0])
            child.sendline(f'{tape + 0.5:.1f}"')  # what the players' tape said
            measured = True
        else:
            child.sendline("")  # Enter takes the default option
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert child.wait() == 0
    log = ANSI.sub("", "".join(screen))
    assert moved and measured
    assert "Not accepted:" in log and 'that is 7.0" of move; the model has 6.0"' in log
    assert 'Marshal Wyatt moves 4.0" to (18.0, 29.0)' in " ".join(log.split())
    assert "as measured at the table (the program measured" in " ".join(log.split())
    # every roll says what it needs before it is rolled: a target, or whose roll against
    # whose (advantage: the higher d6)
    flat = " ".join(log.split())
    reasons = re.findall(r"Roll d6(?:, d6)* — (.*?) rolled by:", flat)
    assert len(reasons) >= 3
    for reason in reasons:
        assert re.search(r"\d\+|\d or more|1–\d|advantage", reason), reason


def test_OW_HERO_03_the_sealed_bid_is_typed_out_of_sight(tmp_path: Path) -> None:
    """Both Heroes may put Fame on the fight's die: each bid is written secretly. At a shared
    terminal the first bidder's answer is not echoed, so the second bidder never sees it."""
    pexpect = pytest.importorskip("pexpect")
    path = tmp_path / "duel.toml"
    path.write_text(DUEL_OF_HEROES, encoding="utf-8")
    child = _spawn(pexpect, tmp_path, str(path))
    for values in ("6", "1", "4 2", "4 1"):  # advantage, then the fight's dice
        child.expect_exact("dice> ")
        child.sendline(values)
    child.expect_exact("choice> ")
    asked = ANSI.sub("", child.before)
    assert "Law decides" in asked and "not shown" in asked
    child.sendline("2")  # the law bids 1 Fame (option 2), out of sight
    child.expect_exact("choice> ")
    between = ANSI.sub("", child.before)
    assert "Gang decides" in between
    assert not between.lstrip(" \r\n").startswith("2")  # nothing echoed the law's bid
    assert "chooses spend 1 Fame" not in between
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert child.wait() == 0
