"""Benchmark: a whole ``kubik odds`` process against a Python process running icepool.

What a person waits for at the command line: the interpreter starting, the imports,
the question answered, the answer printed. kubik is timed twice: a question asked
for the first time (the full command: typer, pydantic, the ruleset; the answer
cache off) and the same question asked again (answered from the cache of answers,
:mod:`kubik.answers`, before anything heavy is imported). The icepool process
(``bench/icepool_process.py``) imports only icepool and answers the same question
the best way icepool can; the answers are checked equal. Times are the children's
CPU time (user + system), best of several runs.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any

from bench.bench_fire import case as fire_case
from bench.bench_old_west import fight_case
from bench.timing import row
from kubik.engine.registry import get
from kubik.rulesets.old_west.core import number
from kubik.rulesets.steel_war.damage import potential_casualties
from kubik.rulesets.steel_war.procedures.fire import _plan

REPEATS = 7
#: The issue's target: the whole kubik process at most twice the icepool process.
TARGET = 2.0
HERE = Path(__file__).resolve().parent


def cpu(command: list[str], env: dict[str, str]) -> tuple[float, str]:
    """(best CPU seconds of the child, its stdout)."""
    best, out = float("inf"), ""
    for _ in range(REPEATS):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        spent = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best, out = min(best, spent), done.stdout
    return best, out


def kubik_command(name: str, data: dict[str, Any]) -> list[str]:
    return [sys.executable, "-m", "kubik", "odds", name, "--input", json.dumps(data), "--json"]


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
    data = fight_case(10)
    low = number("close_combat", "roll_off_low_max")
    icepool_args = ["fight", "10", "10", "4", "4", str(low)]

    def kubik_rows(out: dict[str, Any]) -> dict[str, Fraction]:
        return {o["outcome"]["winner"]: Fraction(o["probability"]) for o in out["outcomes"]}

    return kubik_command("old_west.fight", data), icepool_args, kubik_rows


def run() -> list[dict[str, object]]:
    """Rows: each question asked of a fresh kubik process, again (cached), and of icepool."""
    rows: list[dict[str, object]] = []
    for label, question in (
        ("steel_war.fire, 8 dice", fire_question),
        ("old_west.fight, 10 dice a side", fight_question),
    ):
        command, icepool_args, kubik_rows = question()
        with tempfile.TemporaryDirectory() as home:
            env = {**os.environ, "KUBIK_HOME": home, "KUBIK_ANSWER_CACHE": "off"}
            cold, out = cpu(command, env)
            icepool_s, reference = cpu(
                [sys.executable, str(HERE / "icepool_process.py"), *icepool_args], env
            )
            expected = {k: Fraction(v) for k, v in json.loads(reference).items()}
            assert kubik_rows(json.loads(out)) == expected, f"{label}: kubik and icepool disagree"
            env["KUBIK_ANSWER_CACHE"] = "on"
            subprocess.run(command, capture_output=True, env=env, check=True)  # asked once
            cached, again = cpu(command, env)
            assert again == out, f"{label}: the cached answer differs"
        rows.append(row(f"whole process, first time: {label}", cold, icepool_s, TARGET))
        rows.append(row(f"whole process, asked again: {label}", cached, icepool_s, TARGET))
    return rows


if __name__ == "__main__":
    for line in run():
        print(line)
