"""A place typed at a move prompt, in any game (not only at a real table): a person
playing a side types ``4 n`` or ``16, 5`` and the unit goes there when its ruleset's
movement rule allows it; a refused place says why in one line, in the player's language;
a save keeps what was typed, and its replay plays it again."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.cli.processes import kubik_process

#: (scenario, the side a person plays, the answers before the first move prompt, a place
#: too far, a place the rules allow, what the log then says the unit did)
CASES = [
    ("old_west.demo", "law", "\n\n", "30 n", "1 n", 'Doc moves 1.0" to (12.0, 34.0)'),
    (
        "steel_war.demo",
        "steel",
        "\n\n\n2\n",
        "30 n",
        "4 n",
        'move north through easy terrain («легкопроходимая местность»), 4.0" to (32.0, 8.0)',
    ),
    ("fantasy.demo", "empire", "", "20 n", "4 n", 'Halberdiers move 4.0"'),
    ("apocalypse.demo", "scavengers", "\n" * 6, "40 n", "2 n", "Crowbar moves 2.0 paces"),
]
#: The typed answer as the log tells it (the same line in the game and in its replay).
TYPED = re.compile(r"types? «[^»]+»: [^—]+—")


@pytest.mark.parametrize(
    ("scenario", "side", "before", "far", "near", "done"), CASES, ids=[c[0] for c in CASES]
)
def test_a_place_typed_at_the_move_prompt_moves_the_unit_there(
    tmp_path: Path, scenario: str, side: str, before: str, far: str, near: str, done: str
) -> None:
    env = {"KUBIK_HOME": str(tmp_path)}
    if scenario == "old_west.demo":  # Marshal Wyatt, two deputies by option; then Doc
        before += "\n\n\n"
    played = kubik_process(
        "play", scenario, "--seed", "4", "--side", f"{side}=human", "--save", "typed",
        stdin=f"{before}{far}\n{near}\nquit\n", env=env,
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    out = " ".join(played.stdout.split())
    assert "or type where it goes: a place (x, y: 16, 5)" in out  # the prompt says so
    refusals = [line for line in played.stdout.splitlines() if "Not accepted:" in line]
    assert len(refusals) == 1 and "Traceback" not in played.stderr  # the far place: one line
    assert f"«{near}»" in out and done in out
    replayed = kubik_process("replay", "typed", env=env)
    assert replayed.returncode == 0, replayed.stderr
    again = " ".join(replayed.stdout.split())
    typed = TYPED.findall(out)
    assert len(typed) == 1 and typed == TYPED.findall(again)  # the save replays it
    assert done in again


def test_a_refused_place_is_told_in_russian(tmp_path: Path) -> None:
    played = kubik_process(
        "play", "apocalypse.demo", "--seed", "4", "--side", "scavengers=human", "--lang", "ru",
        stdin="\n" * 6 + "40 с\n2 с\nquit\n", env={"KUBIK_HOME": str(tmp_path)},
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    out = " ".join(played.stdout.split())
    assert "или введите, куда идти" in out
    assert "Не принято: (14,0; 43,0): подставка там не помещается" in out
    assert "Мусорщики вводят «2 с»: идёт в точку (14,0; 5,0): 2,0 шага" in out
