"""The report of a search for a cost (``kubik sim --solve``), for people: every value
probed, its win rate and verdict against the target, and the answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from kubik.api.words import say
from kubik.cli.sim.figures import decimal_text, interval_text, percent_text

#: A probe's verdict against the target, for people.
_VERDICTS = {"below": "sim.solve.below", "above": "sim.solve.above", "at": "sim.solve.at"}


def _value_text(value: object) -> str:
    """A searched value as written: whole numbers bare, decimals as short as they are exact,
    a choice as given (``None``: a choice has no step)."""
    return "" if value is None else str(value)


def print_solve(
    console: Console, result: Mapping[str, Any], lang: str, names: Mapping[str, str]
) -> None:
    """The human report of a search for a cost (``--solve``)."""
    found = result["solve"]
    bots = ", ".join(
        f"{names.get(side, side)}: {say(f'console.controller.{kind}', lang)}"
        for side, kind in result["bots"].items()
    )
    console.print(
        say(
            "sim.solve.header",
            lang,
            scenario=result["scenario"],
            path=escape(found["path"]),
            side=names.get(found["side"], found["side"]),
            target=decimal_text(f"{found['target']:g}", lang),
            precision=decimal_text(f"{found['precision']:g}", lang),
            seed=result["seed"],
            bots=bots,
        )
    )
    searched = found["values"]
    step = decimal_text(_value_text(searched["step"]), lang)
    if searched["kind"] == "choice":
        over = say("sim.solve.over.choice", lang)
    elif searched["step"] == 1:
        over = say("sim.solve.over.whole", lang)
    else:
        over = say("sim.solve.over.step", lang, step=step)
    console.print(
        say(
            "sim.solve.design",
            lang,
            over=over,
            block=found["block"],
            z=decimal_text(f"{found['decision_z']:.2f}", lang),
            precision=decimal_text(f"{found['precision']:g}", lang),
        ),
        style="dim",
    )
    table = Table(title_justify="left")
    table.add_column(say("sim.column.value", lang), justify="right")
    table.add_column(say("sim.column.games", lang), justify="right")
    table.add_column(say("sim.column.rate", lang), justify="right")
    table.add_column(say("sim.column.interval", lang), justify="right")
    table.add_column(say("sim.column.verdict", lang))
    for probe in found["probes"]:
        table.add_row(
            decimal_text(_value_text(probe["value"]), lang),
            str(probe["games"]),
            percent_text(probe["p"], lang),
            interval_text(probe["interval"], lang),
            say(_VERDICTS[probe["verdict"]], lang),
        )
    console.print(table)
    by_value = {p["value"]: p for p in found["probes"]}
    answer = found["answer"]
    if "value" in answer:
        probe = by_value[answer["value"]]
        line = say(
            "sim.solve.value",
            lang,
            path=found["path"],
            value=decimal_text(_value_text(answer["value"]), lang),
            p=percent_text(probe["p"], lang),
            interval=interval_text(probe["interval"], lang),
        )
    else:
        low, high = (by_value[v] for v in answer["between"])
        if searched["kind"] == "choice":
            key = "sim.solve.between.choice"
        elif searched["step"] == 1:
            key = "sim.solve.between"
        else:
            key = "sim.solve.between.step"
        line = say(
            key,
            lang,
            low=decimal_text(_value_text(low["value"]), lang),
            p_low=percent_text(low["p"], lang),
            i_low=interval_text(low["interval"], lang),
            high=decimal_text(_value_text(high["value"]), lang),
            p_high=percent_text(high["p"], lang),
            i_high=interval_text(high["interval"], lang),
            step=step,
        )
    console.print(Text(line, style="bold"))
    console.print(say("sim.solve.games", lang, games=found["games"]), style="dim")


__all__ = ["print_solve"]
