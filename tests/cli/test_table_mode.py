"""Referee mode (``kubik play --table``): typed dice, decisions with odds, undo, quit.

The in-process tests feed stdin as lines; the last one drives the real command
through a pseudo-terminal with pexpect, as a person at a table would.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

from tests.bots.cli_harness import Kubik, kubik, toy_home
from tests.bots.forecast_toy import FORECAST_SCENARIO

__all__ = ["kubik", "toy_home"]  # fixtures, used by name below

ROOT = Path(__file__).resolve().parents[2]
TABLE = ("play", "toy_forecast.demo", "--table", "--side", "lianra=heuristic")

# Steel's turn 1: options 2 and 3 in full, a bad option, volley, a bad die, a 5 that is
# undone, 2 and 6;
# Lianra (heuristic bot) volleys: 1 and 1 typed in (both miss: strain); then quit.
SCRIPT = "? 2\n? 3\n7\n3\n9\n5\nundo\n2\n6\n1\n1\nquit\n"


def test_a_whole_turn_at_the_table(kubik: Kubik) -> None:
    done = kubik(*TABLE, stdin=SCRIPT)
    assert done.code == 0, done.err
    out = done.out
    # the decision: one line per option, with the one labelled figure that sums it up
    assert "Steel decides" in out
    assert "1. hold  (default)" in out
    assert "2. aim — outcome: yes 50%" in out and "3. volley — hits ≥ 1: 75%" in out
    # `? N`: an option's odds as sentences, field by field, and what it is worth
    assert "hits: none 25% — at least 1: 75%, at least 2: 25%; on average 1" in out
    assert "strain: yes 25%, no 75%" in out and "yes 50%, no 50%" in out
    worth = "expected worth to the side deciding (what its bot weighs)"
    assert f"{worth}: 0.50" in out and f"{worth}: 0.75" in out
    assert "'7' is not an option; type a number 1–3" in out
    # the roll: the die, the reason and who rolls it; a bad value is rejected, asked again
    assert "Roll d6 — toy.shot" in out and "rolled by: the shooter" in out
    flat = " ".join(out.split())  # long lines wrap at the terminal's width
    assert "Not accepted: die 1 (a d6;" in flat and "cannot show 9; it shows 1..6" in flat
    # undo goes back to before the last roll: the 5 is gone, the same roll asked again
    assert "Undone: 1 answer dropped" in out
    assert "✍ rolled d6 at the table: 5" in out  # it was shown once ...
    after_undo = out[out.index("Undone") :]
    assert "at the table: 5" not in after_undo  # ... and never played on
    assert "✍ rolled d6 at the table: 2 — toy.shot" in after_undo
    assert "✍ rolled d6 at the table: 6 — toy.shot" in after_undo
    assert "Lianra chooses volley" in after_undo  # the bot side plays by itself
    assert "toy.strain(unit=l1)" in after_undo
    assert "Turn 2" in after_undo  # the whole turn is done
    assert "The game was not saved" in out and "--save NAME" in out


def test_a_table_game_saved_as_it_goes_continues_with_load(kubik: Kubik) -> None:
    first = kubik(*TABLE, "--save", "table-1", stdin="3\n2\n6\nquit\n")
    assert first.code == 0, first.err
    assert "The game is saved as 'table-1'. Continue it with: kubik load table-1" in first.out
    resumed = kubik("load", "table-1", stdin="1\n1\nlog\nquit\n")
    assert resumed.code == 0, resumed.err
    assert "Continuing 'table-1' after 4 answers" in resumed.out
    assert "Recent log" in resumed.out
    later = kubik("replay", "table-1", "--json")
    log = json.loads(later.out)["log"]
    rolls = [(e["values"], e["origin"]) for e in log if e["type"] == "roll"]
    assert rolls == [([2], "typed"), ([6], "typed"), ([1], "typed"), ([1], "typed")]
    choices = [(e["side"], e["answer"], e["origin"]) for e in log if e["type"] == "choice"]
    assert choices[:2] == [
        ("steel", {"id": "volley"}, "human"),
        ("lianra", {"id": "volley"}, "bot"),
    ]


def test_table_mode_makes_every_side_human_by_default(kubik: Kubik) -> None:
    done = kubik("play", "toy_forecast.demo", "--table", stdin="\n4\nsave\nhelp\n1\nquit\n")
    assert done.code == 0, done.err
    assert "Steel: a person · Lianra: a person" in done.out
    assert "Lianra decides" in done.out  # after Steel's default (Enter) and its aim
    assert "Not saved yet: type save NAME" in done.out
    assert "Commands: ? N — option N in full" in done.out and "undo — back to" in done.out


def test_the_end_of_input_stops_with_exit_1_and_says_how_to_continue(kubik: Kubik) -> None:
    done = kubik(*TABLE, "--save", "cut", stdin="3\n")
    assert done.code == 1
    assert "kubik load cut" in done.out


def test_referee_mode_speaks_russian(kubik: Kubik) -> None:
    done = kubik(*TABLE, "--lang", "ru", stdin="3\nx\n4\nquit\n")
    assert done.code == 0, done.err
    assert "Сталь решает" in done.out and "≥ 1: 75%" in done.out
    assert "Бросьте к6" in done.out and "бросает: стрелок" in done.out
    assert "Не принято:" in done.out
    assert "бросок к6 за столом: 4" in done.out
    assert "Партия не сохранена" in done.out


def test_a_terminal_session_through_a_pseudo_terminal(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    scenario = tmp_path / "forecast_duel.toml"
    scenario.write_text(FORECAST_SCENARIO, encoding="utf-8")
    env = {
        **os.environ,
        "KUBIK_HOME": str(tmp_path / "home"),
        "NO_COLOR": "1",
        "TERM": "dumb",
        "PYTHONPATH": str(ROOT),
    }
    child = pexpect.spawn(
        sys.executable,
        ["-m", "tests.bots.toy_cli", "play", str(scenario), "--table", "--save", "pty"],
        cwd=str(ROOT),
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(50, 120),
    )
    screen: list[str] = []

    def expect(text: str) -> None:
        child.expect_exact(text)
        screen.append(child.before + child.after)

    expect("Steel decides")
    expect("volley — hits ≥ 1: 75%")
    expect("choice> ")
    child.sendline("3")
    expect("Roll d6 — toy.shot")
    expect("dice> ")
    child.sendline("8")
    expect("cannot show 8")
    expect("dice> ")
    child.sendline("4")
    expect("✍ rolled d6 at the table: 4")
    expect("dice> ")
    child.sendline("undo")
    expect("Undone")
    expect("dice> ")
    child.sendline("3")
    expect("dice> ")
    child.sendline("5")
    expect("Lianra decides")
    expect("choice> ")
    child.sendline("2")
    expect("dice> ")
    child.sendline("6")
    expect("Turn 2")
    expect("choice> ")
    child.sendline("quit")
    expect("kubik load pty")
    child.expect(pexpect.EOF)
    assert child.wait() == 0  # the exit itself: close() would kill a child still exiting
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", "".join(screen))
    assert "Roll d6 — toy.shot" in text and "rolled by: the shooter" in text
    assert "✍ rolled d6 at the table: 3 — toy.shot" in text
    assert "✍ rolled d6 at the table: 5 — toy.shot" in text
    assert "Lianra chooses aim" in text


def test_table_mode_with_json_keeps_stdout_for_the_json(kubik: Kubik) -> None:
    done = kubik(*TABLE, "--json", stdin="3\n2\n6\nquit\n")
    assert done.code == 0
    data = json.loads(done.out)  # prompts and narration went to stderr
    assert data["finished"] is False and data["winner"] is None
    assert [e["values"] for e in data["log"] if e["type"] == "roll"] == [[2], [6]]
    assert "Roll d6" in done.err and "volley — hits ≥ 1: 75%" in done.err


def test_a_human_game_saved_midway_is_finished_by_a_bot_on_load(kubik: Kubik) -> None:
    """Steel's person volleys once and quits; on load a heuristic bot plays Steel on.

    The heuristic bot volleys too (3/4 > 1/2 > 0), and virtual dice are counter-based,
    so the finished game is the all-bot game with the same seed, but for who chose.
    """
    started = kubik(
        "play",
        "toy_forecast.demo",
        "--seed",
        "1",
        "--side",
        "steel=human",
        "--save",
        "h",
        stdin="3\nquit\n",
    )
    assert started.code == 0 and "kubik load h" in started.out
    finished = json.loads(kubik("load", "h", "--side", "steel=heuristic", "--json").out)
    bots_only = json.loads(kubik("play", "toy_forecast.demo", "--seed", "1", "--json").out)
    assert finished["finished"] is True
    origins = [e["origin"] for e in finished["log"] if e["type"] == "choice"]
    assert origins[0] == "human" and set(origins[1:]) == {"bot"}

    def strip(log: list[dict[str, object]]) -> list[dict[str, object]]:
        return [{k: v for k, v in e.items() if k != "origin"} for e in log]

    assert strip(finished["log"]) == strip(bots_only["log"])
    assert (finished["winner"], finished["turns"]) == (bots_only["winner"], bots_only["turns"])


def test_referee_mode_shows_how_lucky_the_last_action_was(kubik: Kubik) -> None:
    """Steel volleys: 2 and 6, one hit of two at 4+. Exactly one hit has 1/2, at least
    one 3/4, and its percentile is P(0 hits) + P(1 hit)/2 = 1/4 + 1/4 = 50. With
    ``luck on`` it is shown after every resolved action (Lianra's volley: 0 hits)."""
    done = kubik(*TABLE, stdin="3\n2\n6\nluck\nluck on\n1\n1\nquit\n")
    assert done.code == 0, done.err
    out = done.out
    assert "How lucky was the last action (exactly this outcome: 50.0%):" in out
    assert "hits = 1: 50.0% to get it, 75.0% to do at least as well; percentile 50" in out
    assert "hits = 0: 25.0% to get it, 100.0% to do at least as well; percentile 12" in out
