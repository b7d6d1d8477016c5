"""The report of one procedure simulated (``kubik sim PROC --input``), for people: each
outcome's estimate beside its exact odds, and whether they agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from kubik.api.words import outcome_text, say
from kubik.cli.sim.figures import interval_text, percent_text


def print_procedure(console: Console, result: Mapping[str, Any], lang: str) -> None:
    """The human report of one procedure's simulation beside its exact odds."""
    check = result["exact_check"]
    title = say(
        "sim.procedure",
        lang,
        procedure=result["procedure"],
        runs=result["runs"],
        seed=result["seed"],
    )
    table = Table(title=title, title_justify="left")
    table.add_column(say("sim.column.outcome", lang))
    table.add_column(say("sim.column.runs", lang), justify="right")
    table.add_column(say("sim.column.estimate", lang), justify="right")
    table.add_column(say("sim.column.exact", lang), justify="right")
    table.add_column("", justify="center")
    for row in result["outcomes"]:
        table.add_row(
            escape(outcome_text(row["outcome"], lang)),
            str(row["count"]),
            f"{percent_text(row['p'], lang)} {interval_text(row['interval'], lang)}",
            f"{row['exact']} ({percent_text(row['exact_p'], lang)})",
            "✓" if row["inside"] else "✗",
        )
    console.print(table)
    verdict = "sim.exact.agrees" if check["agrees"] else "sim.exact.disagrees"
    console.print(
        Text(
            say(
                verdict,
                lang,
                chi2=f"{check['chi2']:.2f}",
                dof=check["dof"],
                p=f"{check['p_value']:.3f}",
                inside=check["inside"],
                outcomes=check["outcomes"],
                gap=percent_text(check["max_gap"], lang),
            ),
            style="bold green" if check["agrees"] else "bold red",
        )
    )


__all__ = ["print_procedure"]
