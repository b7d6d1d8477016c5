"""Benchmark: the slowest question of every procedure under every policy.

The promise is that every question inside a procedure's documented input ranges
answers exactly within :data:`LIMIT` (CPU time, one core). For each procedure and
each of its policies a fresh process asks ``api.odds`` every corner question
:mod:`bench.worst_cases` generates from the input schema (memo emptied before each,
a question stopped after :data:`CAP` seconds of CPU, the search after :data:`BUDGET`),
and the slowest is timed
again in :data:`TIMINGS` processes of its own, the least kept (a shared machine only ever
adds time): cold, as a person asking it meets it (the answer cache of ``kubik odds``
is off). A question refused as too large for exact work
(``kubik.core.limits.ODDS_STEPS``) is timed too, to its refusal: that is its answer.
Rows carry ``ratio`` = time / :data:`LIMIT` with the
target 1, so the table marks a procedure over the limit MISSED.

``python -m bench worst`` runs only this; ``python -m bench.bench_worst --markdown
[steel_war ...]`` prints the README's table (of the procedures named so);
``python -m bench.bench_worst --corners NAME`` times each corner where extremes meet
(:func:`bench.worst_cases.combined_inputs`) under every policy, one line each.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from typing import Any, NamedTuple

#: Seconds of CPU a question may take (the issue's promise).
LIMIT = 1.0
#: Seconds of CPU after which a question is stopped and reported as over the cap.
CAP = 5.0
#: Seconds of CPU the search for one procedure's slowest question may spend (the
#: corners come largest first; the rest are skipped once this is spent).
BUDGET = 20.0
#: Fresh processes the slowest question is timed in; the least time is reported.
TIMINGS = 3


class _TooLong(Exception):
    pass


class Refused(Exception):
    """The rules refused the question (a range a rule of the procedure narrows)."""


def _on_alarm(signum: int, frame: Any) -> None:
    raise _TooLong


class Asked(NamedTuple):
    """How long a question took, and whether it was refused as too large for exact work."""

    seconds: float
    too_large: bool = False


def _ask(name: str, policy: str, question: dict[str, Any]) -> Asked:
    """CPU seconds ``api.odds`` takes for ``question``, from an empty memo (CAP + 1
    when stopped; :class:`Refused` for a question the rules refuse, which is no question)."""
    from kubik import api
    from kubik.core.errors import InputError, TooLargeError

    api.clear_cache()
    signal.signal(signal.SIGPROF, _on_alarm)
    start = time.process_time()
    signal.setitimer(signal.ITIMER_PROF, CAP)
    try:
        api.odds(name, question, policy=policy)
    except _TooLong:
        return Asked(CAP + 1)
    except TooLargeError:
        return Asked(time.process_time() - start, too_large=True)
    except InputError as error:
        raise Refused(str(error)) from None
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    return Asked(time.process_time() - start)


def _slowest(name: str, policy: str) -> tuple[Asked, dict[str, Any] | None]:
    """The slowest corner question of a procedure under a policy, in this process."""
    from bench.worst_cases import combined_inputs, extreme_inputs
    from kubik.engine.registry import get

    worst: tuple[Asked, dict[str, Any] | None] = (Asked(0.0), None)
    spent = 0.0
    model = get(name).input_model
    for question in combined_inputs(name, model) + extreme_inputs(model):
        found = _asked_within_the_rules(name, policy, question, model)
        if found is None:
            continue
        asked, question = found
        spent += asked.seconds
        if asked.seconds > worst[0].seconds:
            worst = (asked, question)
        if asked.seconds > CAP or spent > BUDGET:
            break
    return worst


def _asked_within_the_rules(
    name: str, policy: str, question: dict[str, Any], model: Any
) -> tuple[Asked, dict[str, Any]] | None:
    """The question's time, after moving the field a rule refuses (named before its
    error's colon) towards its minimum until the rules take it (``None`` if they never do)."""
    from bench.worst_cases import smaller_field

    for _ in range(12):
        try:
            return _ask(name, policy, question), question
        except Refused as refusal:
            field = str(refusal).split(":", 1)[0].strip()
            moved = smaller_field(model, question, field)
            if moved is None:
                return None
            question = moved
    return None


def corners(name: str) -> list[dict[str, Any]]:
    """Each combined corner of procedure ``name`` under each policy, timed in a fresh
    process (stopped after :data:`CAP`): where the one-field-at-a-time corners do not go."""
    from bench.worst_cases import combined_inputs
    from kubik import api
    from kubik.engine.registry import get

    rows = []
    for question in combined_inputs(name, get(name).input_model):
        for policy in api.policies(name):
            timed = _timed(name, policy, question)
            seconds = timed["seconds"]
            rows.append({"policy": policy, **timed, "question": question})
            shown = f"> {CAP:g} s" if seconds > CAP else f"{seconds:.3f} s"
            if timed["too_large"]:
                shown += ", refused as too large"
            print(f"{policy}: {shown}  {_summary(question)}", flush=True)
    return rows


def _summary(question: dict[str, Any]) -> str:
    """A combined corner in a few words: what it changes between corners."""
    words = [f"round {question.get('round')}", f"challenge {question.get('challenge')}"]
    for side in ("a", "b"):
        reg = question.get(side)
        if isinstance(reg, dict):
            hero = reg.get("character")
            words.append(
                f"{side}: {reg.get('models')} × W{reg.get('troops', {}).get('wounds')}"
                + (f", character W{hero.get('wounds')}" if isinstance(hero, dict) else "")
                + (f", charging, impact {reg.get('impact_hits')}" if reg.get("charging") else "")
            )
    return "; ".join(words)


def _timed(name: str, policy: str, question: dict[str, Any]) -> dict[str, Any]:
    """The question timed in :data:`TIMINGS` fresh processes: the least time."""
    runs = [_child("--time", name, policy, json.dumps(question)) for _ in range(TIMINGS)]
    return min(runs, key=lambda run: float(run["seconds"]))


def _child(*args: str) -> Any:
    """Run this module in a fresh process and read its one line of JSON."""
    env = {**os.environ, "KUBIK_ANSWER_CACHE": "off"}
    done = subprocess.run(
        [sys.executable, "-m", "bench.bench_worst", *args],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure(names: list[str] | None = None) -> list[dict[str, Any]]:
    """Every procedure's slowest question under every policy, timed cold (only the
    procedures whose names start with one of ``names``, when given)."""
    from kubik import api
    from kubik.engine.registry import all_specs

    rows = []
    for spec in all_specs():
        if names and not any(spec.name.startswith(n) for n in names):
            continue
        for policy in api.policies(spec.name):
            found = _child("--find", spec.name, policy)
            question = found["question"]
            if question is not None and found["seconds"] <= CAP:
                found = _timed(spec.name, policy, question)
            seconds, too_large = found["seconds"], found["too_large"]
            rows.append(
                {
                    "procedure": spec.name,
                    "policy": policy,
                    "seconds": seconds,
                    "too_large": too_large,
                    "question": question,
                }
            )
            refused = ", refused as too large" if too_large else ""
            print(f"{spec.name} {policy}: {seconds:.3f} s{refused}", file=sys.stderr, flush=True)
    return rows


def run() -> list[dict[str, object]]:
    """Rows for ``python -m bench``: the slowest question per procedure and policy."""
    rows = []
    for found in measure():
        seconds = float(found["seconds"])
        rows.append(
            {
                "case": f"worst {found['procedure']} ({found['policy']})",
                "kubik_s": seconds,
                "ratio": seconds / LIMIT,
                "target": 1.0,
            }
        )
    return rows


def markdown(rows: list[dict[str, Any]]) -> str:
    """The README's table: each procedure's slowest question and its time per policy."""
    policies = sorted({r["policy"] for r in rows}, key=["default", "just_enough", "optimal"].index)
    by_name: dict[str, dict[str, Any]] = {}
    for r in rows:
        by_name.setdefault(r["procedure"], {})[r["policy"]] = r
    lines = [
        "| procedure | " + " | ".join(policies) + " | slowest question |",
        "|---|" + "---:|" * len(policies) + "---|",
    ]
    for name, found in by_name.items():
        cells = []
        for policy in policies:
            r = found.get(policy)
            if r is None:
                cells.append("—")
            elif r["seconds"] > CAP:
                cells.append(f"> {CAP:g} s")
            else:
                refused = " (refused)" if r.get("too_large") else ""
                cells.append(f"{1000 * r['seconds']:.0f} ms{refused}")
        slowest = max(found.values(), key=lambda r: r["seconds"])["question"]
        text = json.dumps(slowest, separators=(",", ":"))
        cells.append(f"`{text[:90]}{'…' if len(text) > 90 else ''}`")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    """``--find NAME POLICY`` / ``--time NAME POLICY JSON`` (one line of JSON each, for
    :func:`measure`), ``--markdown`` (the README's table), ``--corners NAME``."""
    if argv[:1] == ["--find"]:
        asked, question = _slowest(argv[1], argv[2])
        print(json.dumps({**asked._asdict(), "question": question}))
    elif argv[:1] == ["--time"]:
        print(json.dumps(_ask(argv[1], argv[2], json.loads(argv[3]))._asdict()))
    elif argv[:1] == ["--markdown"]:
        print(markdown(measure(argv[1:])))
    elif argv[:1] == ["--corners"] and len(argv) == 2:
        corners(argv[1])
    else:
        raise SystemExit(
            "usage: python -m bench.bench_worst --markdown [NAME_PREFIX ...] | --corners NAME"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
