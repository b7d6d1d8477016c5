"""Run every benchmark module (bench/bench_*.py) and print one table.

Each module exposes ``run() -> list[dict]`` with rows ``{"case", "kubik_s",
"icepool_s", "ratio"}`` (ratio = kubik time / icepool time; ≤ 1.0 means kubik is
at least as fast) or, for benches without a reference, ``{"case", "kubik_s"}``;
rows ``{"case", "value", "unit"}`` (rates, speed-ups) go to a second table.
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
    rows = []
    for module in sorted(pkgutil.iter_modules([str(here)]), key=lambda m: m.name):
        if module.name.startswith("bench_"):
            bench = importlib.import_module(f"bench.{module.name}")
            rows.extend(bench.run())
    table = Table(
        title=f"kubik benchmarks — Python {platform.python_version()}, {platform.machine()}"
    )
    for column in ("case", "kubik (s)", "icepool (s)", "ratio"):
        table.add_column(column, justify="left" if column == "case" else "right")
    measures = [row for row in rows if "value" in row]
    for row in rows:
        if "value" in row:
            continue
        icepool = row.get("icepool_s")
        ratio = row.get("ratio")
        table.add_row(
            str(row["case"]),
            f"{row['kubik_s']:.4f}",
            f"{icepool:.4f}" if isinstance(icepool, float) else "—",
            f"{ratio:.2f}" if isinstance(ratio, float) else "—",
        )
    Console().print(table)
    if measures:
        other = Table(title="kubik sim throughput")
        other.add_column("case")
        other.add_column("value", justify="right")
        other.add_column("unit")
        for row in measures:
            value = row["value"]
            other.add_row(
                str(row["case"]),
                f"{value:.3f}" if isinstance(value, float) else str(value),
                str(row["unit"]),
            )
        Console().print(other)
    sys.exit(0)


if __name__ == "__main__":
    main()
