"""``kubik coverage SCENARIO... --runs N``: which catalogued rules bot battles apply.

Plays ``--runs`` bot-against-bot games of each scenario (:mod:`kubik.game.coverage`)
and shows, per ruleset, every catalogued rule with the number of games that applied
it, then the rules never applied, then the rules no battle can apply and why. With
``--json`` it prints :func:`kubik.api.coverage`'s dict (the contract's
``{"scenarios", "runs", "rules", "never"}`` and more); otherwise a progress bar runs
on stderr while the games are played. Bots: ``--bot`` for every side (heuristic by
default), ``--side SIDE=BOT`` for one side of any scenario named.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from kubik import api
from kubik.api.words import say
from kubik.bots.registry import BOT_NAMES
from kubik.cli.console.parse import Lang, parse_side_options
from kubik.cli.play import find_scenario
from kubik.core.errors import InputError
from kubik.engine.requests import msg
from kubik.game.coverage import (
    DEFAULT_SEED,
    MAX_RUNS,
    ProgressCallback,
    check_runs,
    check_seed,
)
from kubik.game.rule_catalogue import RuleCatalogue, load_rule_catalogue


def _side_kinds(given: Sequence[str], sides: Sequence[str]) -> dict[str, str]:
    """``--side SIDE=BOT`` over the sides of every scenario named; bots only."""
    kinds = parse_side_options(given, sides)
    bots = ", ".join(BOT_NAMES)
    for side, kind in kinds.items():
        if kind not in BOT_NAMES:
            raise InputError(msg("coverage.error.bots_only", side=side, kind=kind, bots=bots))
    return kinds


@contextmanager
def _progress_bar(enabled: bool, lang: str) -> Iterator[ProgressCallback | None]:
    """A Rich progress bar on stderr, shown once every input is checked (so bad input
    leaves nothing but its error line); nothing at all when disabled."""
    if not enabled:
        yield None
        return
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = bar.add_task(say("coverage.progress", lang), total=None)

    def advance(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)
        if not bar.live.is_started:
            bar.start()

    try:
        yield advance
    finally:
        if bar.live.is_started:  # a bar never shown leaves nothing behind, not even a newline
            bar.stop()


def _ruleset_table(
    catalogue: RuleCatalogue, result: Mapping[str, Any], lang: str
) -> tuple[Table, list[str]]:
    """The table of one ruleset's rules, and the lines listing what was never applied."""
    games = result["games"][catalogue.ruleset]
    title = say(
        "coverage.title", lang, name=catalogue.name_in(lang), ruleset=catalogue.ruleset, games=games
    )
    table = Table(title=title, title_justify="left")
    table.add_column(say("coverage.column.id", lang), no_wrap=True, style="bold")
    table.add_column(say("coverage.column.rule", lang), ratio=1)
    table.add_column(say("coverage.column.games", lang), justify="right", no_wrap=True)
    table.add_column("%", justify="right", no_wrap=True)
    never: list[str] = []
    for entry in catalogue.rules:
        count = result["rules"][entry.id]
        share = f"{count / games:.0%}" if games else "—"
        style = "" if count else ("dim" if not entry.battle else "red")
        table.add_row(entry.id, entry.title_in(lang), f"{count}/{games}", share, style=style)
        if not count and entry.battle:
            never.append(f"  {entry.id}  {entry.title_in(lang)}")
    return table, never


def print_coverage(console: Console, result: Mapping[str, Any], lang: str) -> None:
    """The human report: per ruleset a table, the never-applied rules, those no battle
    can apply (with why), those only named in logs where no rule module decided them,
    and any ID the logs name that no catalogue has."""
    bots = ", ".join(
        f"{side}: {say(f'console.controller.{k}', lang)}" for side, k in result["bots"].items()
    )
    console.print(
        say(
            "coverage.header",
            lang,
            scenarios=", ".join(result["scenarios"]),
            runs=result["runs"],
            seed=result["seed"],
            bots=bots,
        )
    )
    for ruleset in result["games"]:
        catalogue = load_rule_catalogue(ruleset)
        table, never = _ruleset_table(catalogue, result, lang)
        console.print()
        console.print(table)
        if never:
            console.print(Text(say("coverage.never", lang, n=len(never)), style="bold red"))
            for line in never:
                console.print(line)
        else:
            console.print(Text(say("coverage.all_applied", lang), style="bold green"))
        excluded = catalogue.not_in_battle
        if excluded:
            console.print(Text(say("coverage.not_in_battle", lang, n=len(excluded)), style="bold"))
            for entry in excluded:
                console.print(f"  {entry.id}  {entry.title_in(lang)}: {entry.why_in(lang)}")
        named = [
            (e, result["named_only"][e.id]) for e in catalogue.rules if e.id in result["named_only"]
        ]
        if named:
            console.print(Text(say("coverage.named_only", lang, n=len(named)), style="bold"))
            for entry, games in named:
                where = say("coverage.unknown.games", lang, games=games)
                console.print(f"  {entry.id}  {entry.title_in(lang)}: {where}")
    unknown = result["unknown"]
    if unknown:
        console.print()
        console.print(Text(say("coverage.unknown", lang, n=len(unknown)), style="bold red"))
        for rule, games in unknown.items():
            console.print(f"  {rule}  {say('coverage.unknown.games', lang, games=games)}")


def coverage_command(
    scenarios: Annotated[
        list[str],
        typer.Argument(
            help="Scenario ids or .toml paths, one or more.", metavar="SCENARIO", show_default=False
        ),
    ],
    runs: Annotated[int, typer.Option("--runs", help=f"Bot games per scenario, 1 to {MAX_RUNS}.")],
    seed: Annotated[
        int, typer.Option("--seed", help="Root seed; each game's seed derives from it.")
    ] = DEFAULT_SEED,
    bot: Annotated[
        str, typer.Option("--bot", help=f"Bot of every side: {'|'.join(BOT_NAMES)}.")
    ] = "heuristic",
    side: Annotated[
        list[str] | None,
        typer.Option("--side", help="Another bot for one side: SIDE=BOT (repeatable)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
    lang: Annotated[Lang, typer.Option("--lang", help="Language of text: en or ru.")] = Lang.en,
) -> None:
    """Which catalogued rules bot battles apply: per rule ID, in how many games."""
    check_runs(runs, "--runs")
    check_seed(seed, "--seed")
    if bot not in BOT_NAMES:
        raise InputError(
            msg("coverage.error.bot", field="--bot", bot=bot, bots=", ".join(BOT_NAMES))
        )
    found = [find_scenario(name) for name in scenarios]
    every_side = list(dict.fromkeys(s for scenario in found for s in scenario.side_ids))
    sides = _side_kinds(side or (), every_side)
    with _progress_bar(not as_json, lang.value) as progress:
        result = api.coverage(found, runs, seed, bot=bot, sides=sides, progress=progress)
    if as_json:
        sys.stdout.write(json.dumps(result, ensure_ascii=False, indent=2) + "\n")
        return
    print_coverage(Console(highlight=False, soft_wrap=False), result, lang.value)


def register_coverage_command(app: typer.Typer) -> None:
    """Add ``kubik coverage`` to the ``kubik`` app."""
    app.command("coverage")(coverage_command)


__all__ = ["coverage_command", "print_coverage", "register_coverage_command"]
