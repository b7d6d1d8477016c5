"""Run every benchmark module (bench/bench_*.py) and print one table.

Each module exposes ``run() -> list[dict]`` with rows ``{"case", "kubik_s",
"icepool_s", "ratio", "target"}`` (ratio = kubik time / icepool time, both measured
in the same run; ``target``: the largest ratio the project aims for) or, for benches
without a reference, ``{"case", "kubik_s"}`` (with ``limit_s``: the most seconds the
case may take); rows ``{"case", "value", "unit"}``
(rates, speed-ups; ``at_least``: the least value the project aims for) go to a second
table. ``python -m bench fire`` runs only the
modules whose name contains ``fire``.
"""

from __future__ import annotations

import importlib
import pkgutil
import platform
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table


def main() -> None:
    """Discover, run and report."""
    here = Path(__file__).parent
    wanted = sys.argv[1:]
    rows = []
    for module in sorted(pkgutil.iter_modules([str(here)]), key=lambda m: m.name):
        if not module.name.startswith("bench_"):
            continue
        if wanted and not any(word in module.name for word in wanted):
            continue
        bench = importlib.import_module(f"bench.{module.name}")
        rows.extend(bench.run())
    table = Table(
        title=f"kubik benchmarks — Python {platform.python_version()}, {platform.machine()}"
    )
    for column in ("case", "kubik (ms)", "icepool (ms)", "ratio", "target", ""):
        table.add_column(column, justify="left" if column == "case" else "right")
    missed = 0
    measures = [row for row in rows if "value" in row]
    for row in rows:
        if "value" in row:
            continue
        icepool = row.get("icepool_s")
        ratio = row.get("ratio")
        target = row.get("target")
        limit = row.get("limit_s")
        met = ""
        if isinstance(ratio, float) and isinstance(target, float):
            met = "ok" if ratio <= target else "MISSED"
            missed += met == "MISSED"
        if isinstance(limit, float):  # an absolute target: at most this many seconds
            met = "ok" if float(str(row["kubik_s"])) <= limit else "MISSED"
            missed += met == "MISSED"
            target = None
        table.add_row(
            str(row["case"]),
            f"{1000 * row['kubik_s']:.2f}",
            f"{1000 * icepool:.2f}" if isinstance(icepool, float) else "—",
            f"{ratio:.2f}" if isinstance(ratio, float) else "—",
            f"≤ {target:g}"
            if isinstance(target, float)
            else (f"≤ {1000 * limit:g} ms" if isinstance(limit, float) else "—"),
            met,
        )
    Console(width=max(Console().width, 150)).print(table)
    if missed:
        Console().print(f"{missed} ratio(s) above their target", style="yellow")
    if measures:
        other = Table(title="kubik sim throughput")
        other.add_column("case")
        other.add_column("value", justify="right")
        other.add_column("unit")
        other.add_column("target", justify="right")
        other.add_column("")
        below = 0
        for row in measures:
            value = row["value"]
            least = row.get("at_least")
            met = ""
            if isinstance(least, float) and isinstance(value, float):
                met = "ok" if value >= least else "MISSED"
                below += met == "MISSED"
            other.add_row(
                str(row["case"]),
                f"{value:.3f}" if isinstance(value, float) else str(value),
                str(row["unit"]),
                f"≥ {least:g}" if isinstance(least, float) else "",
                met,
            )
        Console(width=max(Console().width, 150)).print(other)
        if below:
            Console().print(f"{below} rate(s) below their target", style="yellow")
    sys.exit(0)


if __name__ == "__main__":
    main()
