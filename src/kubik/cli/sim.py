"""``kubik sim``: Monte Carlo battles and sweeps, or one procedure checked against its odds.

``kubik sim SCENARIO --runs N`` plays N bot-against-bot games (:mod:`kubik.sim`) on
local processes (``--workers``, every core by default) or Ray (``--ray``), with a
progress bar showing the rate and the time left, and reports win and draw rates
with 95% intervals, the turns, the losses, and per-unit kills, losses and routs.
``--vary`` and ``--vs`` make a sweep; ``--plot`` draws it; ``--csv`` and
``--parquet`` export every game. Games are stored in SQLite as they finish, so the
same command after an interrupt plays only the rest.

``kubik sim PROC --input JSON --runs N`` simulates one procedure and checks the
estimate against its exact distribution.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from kubik import api
from kubik.api.words import count_label, outcome_text, say
from kubik.bots.registry import BOT_NAMES
from kubik.cli.console.inputs import read_input
from kubik.cli.console.parse import Lang, parse_side_options
from kubik.cli.outputs import PLOT_FORMATS, check_writable
from kubik.cli.play import find_scenario
from kubik.core.errors import InputError
from kubik.engine import registry
from kubik.engine.requests import Message
from kubik.game.coverage import DEFAULT_SEED
from kubik.sim.job import MAX_RUNS
from kubik.sim.runner import Progress as ProgressCallback
from kubik.sim.runner import SimResult
from kubik.sim.store import export_csv, export_parquet, rows
from kubik.text.i18n import render


class RateColumn(ProgressColumn):
    """Games per second, in the report's language."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        if speed is None:
            return Text("", style="progress.data.speed")
        return Text(
            say("sim.progress.rate", self.lang, rate=_decimal(f"{speed:.1f}", self.lang)),
            style="progress.data.speed",
        )


@contextmanager
def _progress_bar(enabled: bool, lang: str, title: str) -> Iterator[ProgressCallback | None]:
    """A Rich progress bar on stderr (rate, elapsed, time left), started once the inputs
    are checked, so bad input leaves nothing but its error line."""
    if not enabled:
        yield None
        return
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(lang),
        TimeElapsedColumn(),
        TextColumn("·"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = bar.add_task(title, total=None)
    started: list[int] = []

    def advance(done: int, total: int) -> None:
        if not started:
            started.append(done)  # games found in the store do not count toward the rate
            bar.update(task, total=total - done, completed=0)
            bar.start()
        bar.update(task, completed=done - started[0])

    try:
        yield advance
    finally:
        if started:
            bar.stop()


def _pct(p: float) -> str:
    return f"{p:.1%}"


def _interval(pair: Sequence[float] | None, percent: bool = True) -> str:
    if pair is None:
        return "—"
    low, high = pair
    return f"[{low:.1%}, {high:.1%}]" if percent else f"[{low:.2f}, {high:.2f}]"


def _mean(stat: Mapping[str, Any]) -> str:
    if stat.get("mean") is None:
        return "—"
    return f"{stat['mean']:.2f} {_interval(stat['interval'], percent=False)}"


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
            label, str(wins), _pct(wins / n if n else 0), _interval(report["win_rate"][side])
        )
    table.add_row(
        say("sim.draws", lang),
        str(report["draws"]),
        _pct(report["draws"] / n if n else 0),
        _interval(report["draw_rate"]),
    )
    return table


def _turns_line(report: Mapping[str, Any], lang: str) -> str:
    turns = report["turns"]
    return say(
        "sim.turns",
        lang,
        mean=f"{turns['mean']:.2f}",
        interval=_interval(turns["interval"], percent=False),
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
            _mean(stat),
            f"{stat['median']:g}",
            f"{stat['min']}–{stat['max']}",
            " / ".join(_decimal(f"{shares[k]:g}", lang) for k in ("p10", "p50", "p90"))
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
            *(_mean(counts[side][name]) if name in counts[side] else "—" for side in counts),
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
            _mean(unit["kills"]),
            _mean(unit["lost"]),
            f"{_pct(unit['routed']['p'])} {_interval(unit['routed']['interval'])}",
            f"{_pct(unit['wiped_out']['p'])} {_interval(unit['wiped_out']['interval'])}",
        )
    return table


def _cell_text(cell: Mapping[str, Any], side: str) -> str:
    p = cell["p"][side] if side != "draw" else cell["p"]["draw"]
    interval = cell["win_rate"][side] if side != "draw" else cell["draw_rate"]
    return f"{_pct(p)} {_interval(interval)}"


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
            *(_cell_text(cell, side) for side in report["wins"]),
            _cell_text(cell, "draw"),
            f"{cell['turns']['mean']:.1f}" if cell["turns"]["mean"] is not None else "—",
        )
    return table


def _decimal(text: str, lang: str) -> str:
    """A number as the language writes it (a decimal comma in Russian)."""
    return text.replace(".", ",") if lang == "ru" else text


def _points(pair: Mapping[str, Any], lang: str, scale: float = 100.0, digits: int = 1) -> str:
    """A paired difference with its interval: ``+3.2 [−0.5, +6.9]`` (points of a rate)."""
    if pair.get("difference") is None:
        return "—"
    low, high = pair["interval"]
    shown = (
        f"{pair['difference'] * scale:+.{digits}f} "
        f"[{low * scale:+.{digits}f}, {high * scale:+.{digits}f}]"
    )
    return _decimal(shown, lang)


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
            *(_points(paired["win_rate"][side], lang) for side in report["wins"]),
            _points(paired["turns"], lang, scale=1.0, digits=2),
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
            table.add_row(escape(row), *(_cell_text(cells[(row, col)], row_side) for col in cols))
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
            seconds=_decimal(f"{run['seconds']:.1f}", lang),
            backend=backend,
            rate=_decimal(f"{rate:.2f}", lang) if rate else "—",
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
                **{k: _decimal(f"{v:g}", lang) for k, v in shares.items()},
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
                figure = _points(answer, lang)
            else:
                figure = f"{_pct(answer['p'])} {_interval(answer['interval'])}"
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
            target=_decimal(f"{found['target']:g}", lang),
            precision=_decimal(f"{found['precision']:g}", lang),
            seed=result["seed"],
            bots=bots,
        )
    )
    searched = found["values"]
    step = _decimal(_value_text(searched["step"]), lang)
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
            z=_decimal(f"{found['decision_z']:.2f}", lang),
            precision=_decimal(f"{found['precision']:g}", lang),
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
            _decimal(_value_text(probe["value"]), lang),
            str(probe["games"]),
            _pct(probe["p"]),
            _interval(probe["interval"]),
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
            value=_decimal(_value_text(answer["value"]), lang),
            p=_pct(probe["p"]),
            interval=_interval(probe["interval"]),
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
            low=_decimal(_value_text(low["value"]), lang),
            p_low=_pct(low["p"]),
            i_low=_interval(low["interval"]),
            high=_decimal(_value_text(high["value"]), lang),
            p_high=_pct(high["p"]),
            i_high=_interval(high["interval"]),
            step=step,
        )
    console.print(Text(line, style="bold"))
    console.print(say("sim.solve.games", lang, games=found["games"]), style="dim")


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
            f"{_pct(row['p'])} {_interval(row['interval'])}",
            f"{row['exact']} ({_pct(row['exact_p'])})",
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
                gap=_pct(check["max_gap"]),
            ),
            style="bold green" if check["agrees"] else "bold red",
        )
    )


def _side_bots(given: Sequence[str], sides: Sequence[str]) -> dict[str, str]:
    kinds = parse_side_options(given, sides)
    bots = ", ".join(BOT_NAMES)
    for side, kind in kinds.items():
        if kind not in BOT_NAMES:
            raise InputError(f"--side {side}={kind}: kubik sim plays bots only; bots: {bots}")
    return kinds


def _emit_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def _refuse_given(options: dict[str, Any], why: str) -> None:
    """One line naming the first option given that this kind of run does not take."""
    given = [option for option, value in options.items() if value]
    if given:
        raise InputError(f"--{given[0].replace('_', '-')}: {why}")


def _procedure(
    name: str,
    input_text: str,
    runs: int,
    seed: int,
    policy: str | None,
    as_json: bool,
    lang: str,
    **unused: Any,
) -> None:
    _refuse_given(
        unused,
        "a procedure is simulated in this process and has no sides, sweeps, store or plot; "
        "drop it (or give a scenario)",
    )
    result = api.sim_procedure(name, read_input(input_text), runs, seed, policy or "default")
    if as_json:
        _emit_json(result)
    else:
        print_procedure(Console(highlight=False, soft_wrap=False), result, lang)


def sim_command(
    target: Annotated[
        str,
        typer.Argument(
            help="A scenario id or .toml path; or a procedure (with --input).",
            metavar="SCENARIO",
            show_default=False,
        ),
    ],
    runs: Annotated[
        int | None,
        typer.Option("--runs", help=f"Games per cell, 1 to {MAX_RUNS} (not with --solve)."),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", help="Root seed; each game's seed derives from it.")
    ] = DEFAULT_SEED,
    workers: Annotated[
        int | None, typer.Option("--workers", help="Local processes (default: every core).")
    ] = None,
    ray: Annotated[
        str | None, typer.Option("--ray", help="Run on Ray: a cluster ADDRESS, or local.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Draw the report into a PNG (or .svg, .pdf).")
    ] = None,
    vary: Annotated[
        list[str] | None,
        typer.Option("--vary", help="Sweep a field: 'units[ID].FIELD=V1,V2,...' (repeatable)."),
    ] = None,
    vs: Annotated[
        list[Path] | None,
        typer.Option("--vs", help="A roster list (TOML) for one side; give one or two."),
    ] = None,
    bot: Annotated[
        str, typer.Option("--bot", help=f"Bot of every side: {'|'.join(BOT_NAMES)}.")
    ] = "heuristic",
    side: Annotated[
        list[str] | None, typer.Option("--side", help="Another bot for one side: SIDE=BOT.")
    ] = None,
    store: Annotated[
        Path | None, typer.Option("--store", help="SQLite file of the results (default: per job).")
    ] = None,
    no_store: Annotated[
        bool, typer.Option("--no-store", help="Keep no results (no resume).")
    ] = False,
    fresh: Annotated[
        bool, typer.Option("--fresh", help="Forget stored games; play all again.")
    ] = False,
    baseline: Annotated[
        int,
        typer.Option("--baseline", help="The cell a sweep's cells are compared with (paired)."),
    ] = 0,
    csv: Annotated[Path | None, typer.Option("--csv", help="Export every game as CSV.")] = None,
    parquet: Annotated[
        Path | None, typer.Option("--parquet", help="Export every game as Parquet (pyarrow).")
    ] = None,
    input_text: Annotated[
        str | None, typer.Option("--input", "-i", help="A procedure's input: JSON or @FILE.")
    ] = None,
    policy: Annotated[
        str | None, typer.Option("--policy", help="A procedure's decision policy.")
    ] = None,
    solve: Annotated[
        str | None,
        typer.Option("--solve", help="Find the value of PATH=LOW..HIGH that wins --target."),
    ] = None,
    share: Annotated[
        float, typer.Option("--target", help="With --solve: the share of wins sought.")
    ] = 0.5,
    precision: Annotated[
        float, typer.Option("--precision", help="With --solve: ± on the win rate to stop at.")
    ] = 0.02,
    solve_side: Annotated[
        str | None,
        typer.Option("--solve-side", help="With --solve: whose wins (default: first side)."),
    ] = None,
    bar: Annotated[
        list[str] | None,
        typer.Option("--bar", help="A cell with SIDE refused RULE's options: SIDE:RULE."),
    ] = None,
    several_bots: Annotated[
        str | None,
        typer.Option("--bots", help="Play the job once per bot: heuristic,random,..."),
    ] = None,
    lang: Annotated[Lang, typer.Option("--lang", help="Language of text: en or ru.")] = Lang.en,
) -> None:
    """Monte Carlo battles and sweeps: win rates with 95% intervals, turns, losses, units."""
    if solve is not None:
        _solve(
            target_name=target,
            spec=solve,
            wanted=share,
            within=precision,
            side_name=solve_side,
            seed=seed,
            bot=bot,
            side=side,
            workers=workers,
            ray=ray,
            as_json=as_json,
            lang=lang.value,
            runs=runs,
            vary=vary,
            vs=vs,
            bar=bar,
            bots=several_bots,
            plot=plot,
            store=store,
            csv=csv,
            parquet=parquet,
            input_text=input_text,
        )
        return
    if runs is None:
        raise InputError(f"--runs: how many games per cell? 1 to {MAX_RUNS}")
    if input_text is not None:
        _procedure(
            target,
            input_text,
            runs,
            seed,
            policy,
            as_json,
            lang.value,
            workers=workers,
            ray=ray,
            plot=plot,
            vary=vary,
            vs=vs,
            bar=bar,
            bots=several_bots,
            side=side,
            store=store,
            no_store=no_store,
            fresh=fresh,
            csv=csv,
            parquet=parquet,
        )
        return
    if policy is not None:
        raise InputError("--policy: only for a procedure (with --input)")
    if target not in {s.name for s in registry.all_specs()}:
        scenario = find_scenario(target)
    else:
        raise InputError(f"SCENARIO: '{target}' is a procedure; give its --input (JSON or @FILE)")
    if no_store and (store is not None or fresh):
        raise InputError("--no-store: keeps nothing; drop --store and --fresh")
    for option, path, suffixes in (
        ("--csv", csv, ()),
        ("--parquet", parquet, ()),
        ("--plot", plot, PLOT_FORMATS),
    ):
        if path is not None:  # before any game is played, not after the last one
            check_writable(option, path, suffixes)
    names = {
        s.id: escape((s.name_ru or s.name) if lang.value == "ru" else s.name)
        for s in scenario.sides
    }
    if several_bots is not None:
        for option, value in (("--side", side), ("--plot", plot), ("--csv", csv)):
            if value:
                raise InputError(f"{option}: not with --bots (each bot plays every side)")
        if parquet is not None:
            raise InputError("--parquet: not with --bots (each bot plays every side)")
        compared = api.sim_bots(
            scenario,
            runs,
            seed,
            bots=several_bots,
            workers=workers,
            ray=ray,
            vary=vary or (),
            vs=vs or (),
            store=False if no_store else (store if store is not None else True),
            fresh=fresh,
            baseline=baseline,
            bars=bar or (),
        )
        if as_json:
            _emit_json(compared)
        else:
            print_bots(Console(highlight=False, soft_wrap=False), compared, lang.value, names)
        return
    sides = _side_bots(side or (), scenario.side_ids)
    title = say("sim.progress", lang.value, scenario=scenario.id)
    with _progress_bar(not as_json, lang.value, title) as progress:
        try:
            result: SimResult = api.sim_battles(
                scenario,
                runs,
                seed,
                bot=bot,
                sides=sides,
                workers=workers,
                ray=ray,
                vary=vary or (),
                vs=vs or (),
                store=False if no_store else (store if store is not None else True),
                fresh=fresh,
                progress=progress,
                baseline=baseline,
                bars=bar or (),
            )
        except KeyboardInterrupt:
            message = "sim.interrupted.no_store" if no_store else "sim.interrupted"
            sys.stderr.write(say(message, lang.value) + "\n")
            raise typer.Exit(130) from None
    report = result.to_json()
    if csv is not None:
        export_csv(csv, rows(result.job, result.outcomes))
    if parquet is not None:
        export_parquet(parquet, rows(result.job, result.outcomes))
    if plot is not None:
        from kubik.sim.plot import Words, write_plot

        write_plot(plot, report, Words(lang.value, names, lambda n: count_label(n, lang.value)))
    if as_json:
        _emit_json(report)
        return
    console = Console(highlight=False, soft_wrap=False)
    print_sim(console, report, lang.value, names, result.run.backend)
    for option, path in (("--csv", csv), ("--parquet", parquet), ("--plot", plot)):
        if path is not None:
            console.print(
                say("sim.written", lang.value, option=option, path=str(path)), style="dim"
            )


def _solve(
    *,
    target_name: str,
    spec: str,
    wanted: float,
    within: float,
    side_name: str | None,
    seed: int,
    bot: str,
    side: list[str] | None,
    workers: int | None,
    ray: str | None,
    as_json: bool,
    lang: str,
    **unused: Any,
) -> None:
    _refuse_given(
        unused,
        "--solve plays as many games as each value needs, with no sweep, store or export; drop it",
    )
    scenario = find_scenario(target_name)
    sides = _side_bots(side or (), scenario.side_ids)
    result = api.sim_solve(
        scenario,
        spec,
        wanted,
        within,
        seed,
        side=side_name,
        bot=bot,
        sides=sides,
        workers=workers,
        ray=ray,
    )
    if as_json:
        _emit_json(result)
        return
    names = {
        s.id: escape((s.name_ru or s.name) if lang == "ru" else s.name) for s in scenario.sides
    }
    print_solve(Console(highlight=False, soft_wrap=False), result, lang, names)


def register_sim_command(app: typer.Typer) -> None:
    """Add ``kubik sim`` to the ``kubik`` app."""
    app.command("sim")(sim_command)


__all__ = [
    "print_bots",
    "print_procedure",
    "print_sim",
    "print_solve",
    "register_sim_command",
    "sim_command",
]
