"""The report of a scenario's simulation or sweep, for people: win and draw rates, turns,
losses, counts, units; a sweep's cells, paired against its baseline, and heatmaps.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from kubik.api.words import count_label, say
from kubik.cli.sim.figures import decimal_text, interval_text, mean_text, percent_text, points_text
from kubik.engine.requests import Message
from kubik.text.i18n import render


def _rates_table(report: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> Table:
    table = Table(title=say("sim.results", lang), title_justify="left")
    table.add_column(say("sim.column.outcome", lang))
    table.add_column(say("sim.column.games", lang), justify="right")
    table.add_column(say("sim.column.rate", lang), justify="right")
    table.add_column(say("sim.column.interval", lang), justify="right")
    n = sum(report["wins"].values()) + report["draws"]
    for side, wins in report["wins"].items():
        label = say("sim.wins", lang, side=names.get(side, side))
        table.add_row(
            label,
            str(wins),
            percent_text(wins / n if n else 0, lang),
            interval_text(report["win_rate"][side], lang),
        )
    table.add_row(
        say("sim.draws", lang),
        str(report["draws"]),
        percent_text(report["draws"] / n if n else 0, lang),
        interval_text(report["draw_rate"], lang),
    )
    return table


def _turns_line(report: Mapping[str, Any], lang: str) -> str:
    turns = report["turns"]
    return say(
        "sim.turns",
        lang,
        mean=f"{turns['mean']:.2f}",
        interval=interval_text(turns["interval"], lang, percent=False),
        median=f"{turns['median']:g}",
        low=turns["min"],
        high=turns["max"],
    )


def _losses_table(report: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> Table | None:
    losses = report.get("losses") or {}
    if not losses:
        return None
    table = Table(title=say("sim.losses", lang), title_justify="left")
    table.add_column(say("sim.column.side", lang))
    table.add_column(say("sim.column.mean", lang), justify="right")
    table.add_column(say("sim.column.median", lang), justify="right")
    table.add_column(say("sim.column.range", lang), justify="right")
    table.add_column(say("sim.column.percentiles", lang), justify="right")
    table.add_column(say("sim.column.counts", lang))
    for side, stat in losses.items():
        counts = " ".join(f"{v}:{c}" for v, c in stat["counts"].items())
        shares = stat.get("percentiles") or {}
        table.add_row(
            names.get(side, side),
            mean_text(stat, lang),
            f"{stat['median']:g}",
            f"{stat['min']}–{stat['max']}",
            " / ".join(decimal_text(f"{shares[k]:g}", lang) for k in ("p10", "p50", "p90"))
            if shares
            else "—",
            counts,
        )
    return table


def _counts_table(report: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> Table | None:
    counts: Mapping[str, Mapping[str, Any]] = report.get("counts") or {}
    every = list(dict.fromkeys(name for side in counts.values() for name in side))
    if not every:
        return None
    table = Table(title=say("sim.counts", lang), title_justify="left")
    table.add_column(say("sim.column.count", lang))
    for side in counts:
        table.add_column(names.get(side, side), justify="right")
    for name in every:
        table.add_row(
            count_label(name, lang),
            *(
                mean_text(counts[side][name], lang) if name in counts[side] else "—"
                for side in counts
            ),
        )
    return table


def _units_table(report: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> Table | Text:
    units = report.get("units")
    if not units:
        return Text(say("sim.units.summary_only", lang), style="dim")
    table = Table(title=say("sim.units", lang), title_justify="left")
    for key, justify in (
        ("unit", "left"),
        ("side", "left"),
        ("models", "right"),
        ("kills", "right"),
        ("lost", "right"),
        ("routed", "right"),
        ("wiped_out", "right"),
    ):
        table.add_column(say(f"sim.column.{key}", lang), justify=justify)  # type: ignore[arg-type]
    for unit_id, unit in units.items():
        table.add_row(
            escape(unit_id),
            names.get(unit["side"], unit["side"]),
            str(unit["models"]),
            mean_text(unit["kills"], lang),
            mean_text(unit["lost"], lang),
            _rate_text(unit["routed"], lang),
            _rate_text(unit["wiped_out"], lang),
        )
    return table


def _rate_text(rate: Mapping[str, Any], lang: str) -> str:
    return f"{percent_text(rate['p'], lang)} {interval_text(rate['interval'], lang)}"


def _cell_text(cell: Mapping[str, Any], side: str, lang: str) -> str:
    p = cell["p"][side] if side != "draw" else cell["p"]["draw"]
    interval = cell["win_rate"][side] if side != "draw" else cell["draw_rate"]
    return f"{percent_text(p, lang)} {interval_text(interval, lang)}"


def _sweep_table(report: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> Table:
    table = Table(title=say("sim.sweep", lang, runs=report["runs"]), title_justify="left")
    keys = list(report["cells"][0]["label"]) if report["cells"] else []
    for key in keys:
        title = names.get(key[3:], key[3:]) if key.startswith("vs.") else escape(key)
        table.add_column(title, style="bold")
    for side in report["wins"]:
        table.add_column(say("sim.wins", lang, side=names.get(side, side)), justify="right")
    table.add_column(say("sim.draws", lang), justify="right")
    table.add_column(say("sim.column.turns", lang), justify="right")
    for cell in report["cells"]:
        table.add_row(
            *(escape(cell["label"][k]) for k in keys),
            *(_cell_text(cell, side, lang) for side in report["wins"]),
            _cell_text(cell, "draw", lang),
            decimal_text(f"{cell['turns']['mean']:.1f}", lang)
            if cell["turns"]["mean"] is not None
            else "—",
        )
    return table


def _paired_table(report: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> Table:
    base = report["sweep"]["baseline"]
    label = ", ".join(f"{k}={v}" for k, v in base["label"].items()) or say(
        "sim.paired.as_written", lang
    )
    table = Table(
        title=say("sim.paired", lang, cell=base["cell"], label=escape(label)),
        title_justify="left",
    )
    keys = list(report["cells"][0]["label"]) if report["cells"] else []
    for key in keys:
        title = names.get(key[3:], key[3:]) if key.startswith("vs.") else escape(key)
        table.add_column(title, style="bold")
    for side in report["wins"]:
        table.add_column(
            say("sim.column.paired_wins", lang, side=names.get(side, side)), justify="right"
        )
    table.add_column(say("sim.column.paired_turns", lang), justify="right")
    for cell in report["cells"]:
        paired = cell["paired"]
        if paired is None:
            continue
        table.add_row(
            *(escape(cell["label"][k]) for k in keys),
            *(points_text(paired["win_rate"][side], lang) for side in report["wins"]),
            points_text(paired["turns"], lang, scale=1.0, digits=2),
        )
    return table


def _heatmap_tables(report: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> list[Table]:
    vs: Mapping[str, list[str]] = report["sweep"]["vs"]
    if not vs:
        return []
    row_side = next(iter(vs))
    col_side = next((s for s in vs if s != row_side), None)
    cols = vs[col_side] if col_side else [say("sim.plot.as_written", lang)]
    groups: dict[str, dict[tuple[str, str], Mapping[str, Any]]] = {}
    for cell in report["cells"]:
        label = cell["label"]
        rest = escape(", ".join(f"{k}={v}" for k, v in label.items() if not k.startswith("vs.")))
        col = label[f"vs.{col_side}"] if col_side else cols[0]
        groups.setdefault(rest, {})[(label[f"vs.{row_side}"], col)] = cell
    tables = []
    for rest, cells in groups.items():
        title = say("sim.heatmap", lang, side=names.get(row_side, row_side))
        table = Table(title=f"{title}{': ' + rest if rest else ''}", title_justify="left")
        table.add_column(
            f"{names.get(row_side, row_side)} \\ {names.get(col_side or '', col_side or '')}"
        )
        for col in cols:
            table.add_column(escape(col), justify="right")
        for row in vs[row_side]:
            table.add_row(
                escape(row), *(_cell_text(cells[(row, col)], row_side, lang) for col in cols)
            )
        tables.append(table)
    return tables


def print_sim(
    console: Console,
    result: Mapping[str, Any],
    lang: str,
    names: Mapping[str, str],
    backend_message: Message | None = None,
) -> None:
    """The human report of a scenario's simulation or sweep."""
    run = result["run"]
    backend = render(backend_message, lang) if backend_message is not None else run["backend"]
    bots = ", ".join(
        f"{names.get(side, side)}: {say(f'console.controller.{kind}', lang)}"
        for side, kind in result["bots"].items()
    )
    header = "sim.header.sweep" if "cells" in result else "sim.header"
    console.print(
        say(
            header,
            lang,
            scenario=result["scenario"],
            runs=result["runs"],
            cells=len(result.get("cells", ())),
            seed=result["seed"],
            bots=bots,
        )
    )
    rate = run["games_per_second"]
    console.print(
        say(
            "sim.played",
            lang,
            played=run["played"],
            seconds=decimal_text(f"{run['seconds']:.1f}", lang),
            backend=backend,
            rate=decimal_text(f"{rate:.2f}", lang) if rate else "—",
        ),
        style="dim",
    )
    if run["resumed"]:
        console.print(say("sim.resumed", lang, resumed=run["resumed"]), style="dim")
    if run["store"]:
        console.print(say("sim.stored", lang, path=escape(run["store"])), style="dim")
    console.print()
    if "cells" in result:
        console.print(_rates_table(result, lang, names))
        console.print(Text(say("sim.pooled", lang, games=result["games"]), style="dim"))
        console.print()
        console.print(_sweep_table(result, lang, names))
        if len(result["cells"]) > 1:
            console.print()
            console.print(_paired_table(result, lang, names))
        for table in _heatmap_tables(result, lang, names):
            console.print()
            console.print(table)
        return
    console.print(_rates_table(result, lang, names))
    console.print(_turns_line(result, lang))
    shares = result["turns"].get("percentiles")
    if shares:
        console.print(
            say(
                "sim.turns.percentiles",
                lang,
                **{k: decimal_text(f"{v:g}", lang) for k, v in shares.items()},
            )
        )
    for part in (_losses_table(result, lang, names), _counts_table(result, lang, names)):
        if part is not None:
            console.print()
            console.print(part)
    console.print()
    console.print(_units_table(result, lang, names))
    if result.get("units"):
        console.print(Text(say("sim.units.legend", lang), style="dim"))


__all__ = ["print_sim"]
