"""Benchmark: how long the ``kubik`` command takes to start, as a person meets it.

Each case is a whole process (``python -m kubik ...``, as the ``kubik`` script runs
it), timed as its CPU (user + system, as ``/usr/bin/time`` reports it), best of
several runs: ``--version``, the help, a Tab press (shell completion of a scenario's
name) and ``kubik scenarios`` (asked once before, so its list is kept; and the first
time, with nothing kept). The targets are absolute: 0.15 s of CPU for the first three,
0.5 s for the list of scenarios.
"""

from __future__ import annotations

import compileall
import os
import sys
import tempfile
from pathlib import Path

import kubik
from bench.bench_process import cpu

#: Each case: its name, the command line, extra environment, the most CPU seconds it may take.
CASES: tuple[tuple[str, list[str], dict[str, str], float], ...] = (
    ("kubik --version", ["--version"], {}, 0.15),
    ("kubik -h", ["-h"], {}, 0.15),
    (
        "a Tab press: kubik play old_<Tab>",
        [],
        {"_KUBIK_COMPLETE": "complete_bash", "COMP_WORDS": "kubik play old_", "COMP_CWORD": "2"},
        0.15,
    ),
    ("kubik scenarios (listed before)", ["scenarios"], {}, 0.5),
    ("kubik scenarios (the first time)", ["scenarios"], {"KUBIK_ANSWER_CACHE": "off"}, 0.5),
)


def run() -> list[dict[str, object]]:
    """Rows: each case's best CPU time against its target."""
    compileall.compile_dir(Path(kubik.__file__).parent, quiet=1)  # as installed: bytecode
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "KUBIK_HOME": home, "COLUMNS": "100"}
        env.pop("KUBIK_LANG", None)
        for name, args, extra, target in CASES:
            command = [sys.executable, "-m", "kubik", *args]
            spent, out = cpu(command, {**env, **extra})
            assert out, f"{name}: printed nothing"
            rows.append({"case": f"start-up: {name}", "kubik_s": spent, "limit_s": target})
    return rows


if __name__ == "__main__":
    for line in run():
        print(line)
