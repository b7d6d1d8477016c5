"""Run every benchmark module (bench/bench_*.py) and print one table.

Each module exposes ``run() -> list[dict]`` with rows ``{"case", "kubik_s",
"icepool_s", "ratio"}`` (ratio = kubik time / icepool time; ≤ 1.0 means kubik is
at least as fast) or, for benches without a reference, ``{"case", "kubik_s"}``.
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
    for row in rows:
        icepool = row.get("icepool_s")
        ratio = row.get("ratio")
        table.add_row(
            str(row["case"]),
            f"{row['kubik_s']:.4f}",
            f"{icepool:.4f}" if isinstance(icepool, float) else "—",
            f"{ratio:.2f}" if isinstance(ratio, float) else "—",
        )
    Console().print(table)
    sys.exit(0)


if __name__ == "__main__":
    main()
