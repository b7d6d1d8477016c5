"""Benchmark: a whole ``kubik odds`` process against a Python process running icepool.

What a person waits for at the command line: the interpreter starting, the imports,
the question answered, the answer printed. kubik is timed twice: a question asked
for the first time (``kubik odds`` read without typer, pydantic, the ruleset, the
answer looked for in an empty cache of answers and kept there: each run has a cache
of its own) and the same question asked again (answered from the cache of answers,
:mod:`kubik.cli.answers`, before anything heavy is imported). The icepool process
(``bench/icepool_process.py``) imports only icepool and answers the same question
the best way icepool can; the answers are checked equal. Times are the children's
CPU time (user + system), best of several runs, the two timed in alternation.

A person at the command line asks in words and reads text (no ``--json``): that first
question is a row too, the same question typed as ``FIELD=VALUE`` words, its answer
printed for people (the procedure's ruleset's messages read, Rich laying out the lines).

A further row is the floor under any such process of kubik: Python importing what the
answer needs (json, dataclasses, fractions, typing) and pydantic, defining one frozen
input model and validating one input with it, nothing of kubik. Every kubik question
validates its input with its procedure's pydantic model, so no first question can cost
less than this row (against the icepool process of the fire question).

Both packages run from their bytecode, as installed packages do (pip compiles
icepool's on install): kubik's package is compiled first, for a checkout run with
``PYTHONDONTWRITEBYTECODE`` would otherwise compile every module it imports, every time.
"""

from __future__ import annotations

import compileall
import json
import os
import resource
import subprocess
import sys
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any

import kubik
from bench.bench_fire import case as fire_case
from bench.bench_old_west import fight_case
from bench.timing import row
from kubik.engine.registry import get
from kubik.rulesets.old_west.core import number
from kubik.rulesets.steel_war.damage import potential_casualties
from kubik.rulesets.steel_war.procedures.fire import _plan

REPEATS = 7
#: The target: the whole kubik process at most three times the icepool process (the
#: floor of Python with pydantic alone is about twice it; pydantic stays).
TARGET = 3.0
HERE = Path(__file__).resolve().parent


def cpu_once(command: list[str], env: dict[str, str]) -> tuple[float, str]:
    """(CPU seconds of one run of the child, its stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.stdout


def first_and_reference(
    command: list[str], reference: list[str], env: dict[str, str]
) -> tuple[float, str, float, str]:
    """Best CPU seconds and stdout of a first-time kubik question (an empty cache of
    answers each run) and of the reference process, timed in alternation."""
    best_k = best_r = float("inf")
    out_k = out_r = ""
    for _ in range(REPEATS):
        with tempfile.TemporaryDirectory() as home:
            spent, out_k = cpu_once(command, {**env, "KUBIK_HOME": home})
        best_k = min(best_k, spent)
        spent, out_r = cpu_once(reference, env)
        best_r = min(best_r, spent)
    return best_k, out_k, best_r, out_r


def cpu(command: list[str], env: dict[str, str]) -> tuple[float, str]:
    """(best CPU seconds of the child, its stdout)."""
    best, out = float("inf"), ""
    for _ in range(REPEATS):
        spent, out = cpu_once(command, env)
        best = min(best, spent)
    return best, out


def kubik_command(name: str, data: dict[str, Any]) -> list[str]:
    return [sys.executable, "-m", "kubik", "odds", name, "--input", json.dumps(data), "--json"]


def words_command(name: str, words: list[str]) -> list[str]:
    """The question as a person types it: in words, answered in text."""
    return [sys.executable, "-m", "kubik", "odds", name, *words]


#: Each question in words (the same input as its ``--input`` JSON).
WORDS = {
    "steel_war.fire": [
        "quality=d10",
        "weapons=assault_rifle*5,lmg*2,hmg*2,grenade_launcher,uragan",
        "distance=18",
        "armour=d4",
        "target_models=10",
    ],
    "old_west.fight": [
        "a.1.fight=4",
        "a.1.attacks=3",
        "a.2.fight=4",
        "a.2.attacks=3",
        "a.3.fight=4",
        "a.3.attacks=3",
        "a.4.fight=4",
        "a.4.attacks=3",
        "a.5.fight=4",
        "a.5.attacks=3",
        "a.6.fight=4",
        "a.6.attacks=3",
        "b.1.fight=4",
        "b.1.attacks=3",
    ],
}


def fire_question() -> tuple[list[str], list[str], Any]:
    data = fire_case(8)
    group, target = _plan(get("steel_war.fire").input_model.model_validate(data))
    hits = min(potential_casualties(group.pool, target.range_die), target.models)
    icepool_args = [
        "fire",
        ",".join(str(d.faces) for d in group.pool),
        str(target.range_die.faces),
        str(hits),
        str(group.power.faces),
        str(target.armour.faces),
    ]

    def kubik_rows(out: dict[str, Any]) -> dict[str, Fraction]:
        rows = {}
        for o in out["outcomes"]:
            x = o["outcome"]
            rows[f"{x['effect']},{x['hits']},{x['wounded']},{x['killed']}"] = Fraction(
                o["probability"]
            )
        return rows

    return kubik_command("steel_war.fire", data), icepool_args, kubik_rows


def fight_question() -> tuple[list[str], list[str], Any]:
    data = fight_case(18)  # six models of 3 Attacks around one Hero of 3
    low = number("close_combat", "roll_off_low_max")
    icepool_args = ["fight", "18", "3", "4", "4", str(low)]

    def kubik_rows(out: dict[str, Any]) -> dict[str, Fraction]:
        return {o["outcome"]["winner"]: Fraction(o["probability"]) for o in out["outcomes"]}

    return kubik_command("old_west.fight", data), icepool_args, kubik_rows


#: The floor: what any first kubik question does besides kubik's own work.
FLOOR = """
import dataclasses, fractions, json, typing
from pydantic import BaseModel, ConfigDict
class Input(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
    dice: int
print(json.dumps(Input.model_validate({"dice": 8}).model_dump()))
"""


def run() -> list[dict[str, object]]:
    """Rows: each question asked of a fresh kubik process, again (cached), and of icepool."""
    rows: list[dict[str, object]] = []
    compileall.compile_dir(Path(kubik.__file__).parent, quiet=1)  # as installed: bytecode
    for label, question in (
        ("steel_war.fire, 8 dice", fire_question),
        ("old_west.fight, 18 dice against 3", fight_question),
    ):
        command, icepool_args, kubik_rows = question()
        reference = [sys.executable, str(HERE / "icepool_process.py"), *icepool_args]
        env = {**os.environ, "KUBIK_ANSWER_CACHE": "on"}
        env.pop("KUBIK_DATA_DIR", None)
        cold, out, icepool_s, answer = first_and_reference(command, reference, env)
        expected = {k: Fraction(v) for k, v in json.loads(answer).items()}
        assert kubik_rows(json.loads(out)) == expected, f"{label}: kubik and icepool disagree"
        with tempfile.TemporaryDirectory() as home:
            env["KUBIK_HOME"] = home
            subprocess.run(command, capture_output=True, env=env, check=True)  # asked once
            cached, again = cpu(command, env)
            assert again == out, f"{label}: the cached answer differs"
        rows.append(row(f"whole process, first time: {label}", cold, icepool_s, TARGET))
        name = label.partition(",")[0]
        text, said, text_icepool, _ = first_and_reference(
            words_command(name, WORDS[name]), reference, env
        )
        assert said.startswith(f"{name} — "), f"{label}: no answer in text"
        rows.append(
            row(
                f"whole process, first time, in words and text: {label}", text, text_icepool, TARGET
            )
        )
        rows.append(row(f"whole process, asked again: {label}", cached, icepool_s, TARGET))
        if label.startswith("steel_war.fire"):
            floor_env = {**env, "PYDANTIC_DISABLE_PLUGINS": "__all__"}
            floor, _, floor_icepool, _ = first_and_reference(
                [sys.executable, "-c", FLOOR], reference, floor_env
            )
            rows.append(row("floor: Python + pydantic, one model", floor, floor_icepool, TARGET))
    return rows


if __name__ == "__main__":
    for line in run():
        print(line)
