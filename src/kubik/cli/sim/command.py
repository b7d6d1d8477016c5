"""``kubik sim`` itself: its options, the checks of what was given (one clear line for bad
input), and which run it makes — battles or a sweep, one job under several bots, a search
for a cost, or one procedure against its odds — printed as JSON or as a report.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, TypedDict

import typer
from rich.console import Console
from rich.markup import escape

from kubik import api
from kubik.api.words import count_label, say
from kubik.bots.registry import BOT_NAMES
from kubik.cli.console.inputs import read_input
from kubik.cli.console.parse import Lang, parse_side_options
from kubik.cli.outputs import PLOT_FORMATS, check_writable
from kubik.cli.play import find_scenario
from kubik.cli.sim.battles_report import print_sim
from kubik.cli.sim.bots_report import print_bots
from kubik.cli.sim.procedure_report import print_procedure
from kubik.cli.sim.progress import progress_bar
from kubik.cli.sim.solve_report import print_solve
from kubik.core.errors import InputError
from kubik.engine import registry
from kubik.game.coverage import DEFAULT_SEED
from kubik.sim.job import MAX_RUNS
from kubik.sim.runner import SimResult
from kubik.sim.store import export_csv, export_parquet, rows


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


class _GameOptions(TypedDict):
    """How the games of a run are played and kept, the same for one bot or several."""

    workers: int | None
    ray: str | None
    vary: Sequence[str]
    vs: Sequence[str | Path]
    store: str | Path | bool
    fresh: bool
    baseline: int
    bars: Sequence[str]


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
    games = _GameOptions(
        workers=workers,
        ray=ray,
        vary=vary or (),
        vs=vs or (),
        store=False if no_store else (store if store is not None else True),
        fresh=fresh,
        baseline=baseline,
        bars=bar or (),
    )
    if several_bots is not None:
        for option, value in (("--side", side), ("--plot", plot), ("--csv", csv)):
            if value:
                raise InputError(f"{option}: not with --bots (each bot plays every side)")
        if parquet is not None:
            raise InputError("--parquet: not with --bots (each bot plays every side)")
        compared = api.sim_bots(scenario, runs, seed, bots=several_bots, **games)
        if as_json:
            _emit_json(compared)
        else:
            print_bots(Console(highlight=False, soft_wrap=False), compared, lang.value, names)
        return
    sides = _side_bots(side or (), scenario.side_ids)
    title = say("sim.progress", lang.value, scenario=scenario.id)
    with progress_bar(not as_json, lang.value, title) as progress:
        try:
            result: SimResult = api.sim_battles(
                scenario, runs, seed, bot=bot, sides=sides, progress=progress, **games
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


__all__ = ["register_sim_command", "sim_command"]
