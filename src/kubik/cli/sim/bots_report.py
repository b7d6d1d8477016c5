"""The report of one job played under several bots (``kubik sim --bots``), for people:
every conclusion side by side, and the ones that flip with the bot.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from kubik.api.words import say
from kubik.cli.sim.figures import interval_text, percent_text, points_text

#: A conclusion under one bot, and what the bots' conclusions say together, for people.
_CONCLUSIONS = {
    "up": "sim.bots.up",
    "down": "sim.bots.down",
    "above": "sim.bots.above",
    "below": "sim.bots.below",
    "unclear": "sim.bots.unclear",
}

_FLAGS = {
    "flips": "sim.bots.flips",
    "depends": "sim.bots.depends",
    "holds": "sim.bots.holds",
    "unclear": "sim.bots.unclear",
}


def print_bots(
    console: Console, result: Mapping[str, Any], lang: str, names: Mapping[str, str]
) -> None:
    """The human report of one job under several bots: every conclusion side by side."""
    console.print(
        say(
            "sim.bots.header",
            lang,
            scenario=result["scenario"],
            runs=result["runs"],
            seed=result["seed"],
            bots=", ".join(say(f"console.controller.{b}", lang) for b in result["bots"]),
        )
    )
    rows = result["conclusions"]
    table = Table(title_justify="left")
    keys = list(rows[0]["label"]) if rows else []
    for key in keys:
        table.add_column(escape(key), style="bold")
    table.add_column(say("sim.column.side", lang))
    for bot in result["bots"]:
        table.add_column(say(f"console.controller.{bot}", lang), justify="right")
    table.add_column(say("sim.column.flag", lang))
    for row in rows:
        cells = []
        for bot in result["bots"]:
            answer = row["bots"][bot]
            if "difference" in answer:
                figure = points_text(answer, lang)
            else:
                figure = (
                    f"{percent_text(answer['p'], lang)} {interval_text(answer['interval'], lang)}"
                )
            cells.append(f"{figure} {say(_CONCLUSIONS[answer['conclusion']], lang)}")
        style = "bold red" if row["flag"] == "flips" else None
        table.add_row(
            *(escape(row["label"][k]) for k in keys),
            names.get(row["side"], row["side"]),
            *cells,
            Text(say(_FLAGS[row["flag"]], lang), style=style or ""),
        )
    console.print(table)
    flips = sum(row["flag"] == "flips" for row in rows)
    console.print(say("sim.bots.flips_count", lang, n=flips), style="bold red" if flips else "")


__all__ = ["print_bots"]
