"""The ``kubik`` command: the public contract of design.md on top of :mod:`kubik.api`.

Rules: ``procedures``, ``resolve``, ``odds`` (here); games: ``scenarios``, ``play``,
``load``, ``replay``, ``saves`` (:mod:`kubik.cli_play`); ``coverage``
(:mod:`kubik.cli_coverage`); ``sim`` (:mod:`kubik.cli_sim`).

Human-readable by default (Rich, wrapped to the terminal), JSON with ``--json``. The
usual conventions hold: a bare ``kubik`` prints its help, ``-h``/``--help``,
``--version``, ``--install-completion``. Any bad input ends with one line on stderr
naming the field and what is allowed (in Russian under ``--lang ru``), and a non-zero
exit; never a traceback (set ``KUBIK_DEBUG=1`` to see one for a bug). Ctrl-C is one
line too (exit 130). A ``KUBIK_DATA_DIR`` override file is checked before any command.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from typer.exceptions import Abort, Exit, TyperException

from kubik import api
from kubik.cli_coverage import register_coverage_command
from kubik.cli_play import register_play_commands
from kubik.cli_serve import register_serve_command
from kubik.cli_sim import register_sim_command
from kubik.console.help import HelpGroup, usage_error_text, version_callback
from kubik.console.inputs import read_input
from kubik.console.parse import Lang, split_values
from kubik.console.results import (
    console_for_people,
    print_comparison,
    print_estimates,
    print_exact_odds,
    print_procedure,
    print_procedures,
    print_resolution,
)
from kubik.data import check_overrides
from kubik.engine.explain import choice_text
from kubik.engine.jsonify import outcome_order
from kubik.engine.registry import get as get_procedure
from kubik.engine.requests import msg
from kubik.errors import InputError, KubikError
from kubik.i18n import render

app = typer.Typer(
    cls=HelpGroup,
    add_completion=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


@app.callback()
def kubik_options(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=version_callback,
            is_eager=True,
            help="Print kubik's version and exit.",
        ),
    ] = False,
) -> None:
    """kubik — rules engine and virtual referee for tabletop wargames.

    Start with `kubik play`, `kubik procedures` or `kubik odds PROCEDURE --input JSON`.
    """


JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]
LangOption = Annotated[
    Lang, typer.Option("--lang", metavar="en|ru", help="Language of text: en or ru.")
]
InputOption = Annotated[
    str,
    typer.Option(
        "--input", "-i", metavar="JSON|@FILE", help="Input as JSON, or @FILE holding JSON."
    ),
]
ProcedureArgument = Annotated[
    str, typer.Argument(metavar="PROCEDURE", help="<ruleset>.<procedure>, e.g. old_west.wound")
]

__all__ = ["app", "main", "parse_dice_option", "read_input"]


def _console() -> Console:
    return console_for_people()


def _emit_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def parse_dice_option(text: str) -> list[str]:
    """``"3,6,2"`` or ``"3 6 2"`` → the values, as typed (checked against each die later)."""
    return split_values(text)


@app.command("procedures")
def procedures_command(
    name: Annotated[
        str | None,
        typer.Argument(metavar="[NAME]", help="One procedure: its fields, ranges and defaults."),
    ] = None,
    as_json: JsonFlag = False,
    lang: LangOption = Lang.en,
) -> None:
    """List every procedure (name, rule ids, summary), or one procedure's input fields."""
    if name is not None:
        spec = get_procedure(name)
        one = next(p for p in api.procedures() if p["name"] == spec.name)
        if as_json:
            _emit_json(one)
        else:
            print_procedure(_console(), one, lang.value)
        return
    specs = api.procedures()
    if as_json:
        _emit_json(specs)
        return
    print_procedures(_console(), specs, lang.value)


@app.command("resolve")
def resolve_command(
    procedure: ProcedureArgument,
    input_text: InputOption,
    dice: Annotated[
        str | None,
        typer.Option("--dice", metavar="3,6,2", help="Dice rolled at the table, in order."),
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", metavar="N", help="Seed for virtual dice.")
    ] = None,
    as_json: JsonFlag = False,
    lang: LangOption = Lang.en,
) -> None:
    """Resolve a procedure once, with typed-in dice or virtual dice, and narrate it."""
    values = parse_dice_option(dice) if dice is not None else None
    result = api.resolve(procedure, read_input(input_text), dice=values, seed=seed, lang=lang.value)
    if as_json:
        _emit_json(result)
    else:
        print_resolution(_console(), result, lang.value)


@contextmanager
def _progress(runs: int, lang: str) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on the terminal's stderr for a long simulation (none in a pipe)."""
    if not sys.stderr.isatty() or runs < 20_000:
        yield None
        return
    bar = Progress(
        TextColumn(render(msg("cli.odds.progress"), lang)),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeRemainingColumn(),
        console=console_for_people(stderr=True),
        transient=True,
    )
    task = bar.add_task("simulate", total=runs)

    def advance(done: int, total: int) -> None:
        bar.update(task, completed=done)

    with bar:
        yield advance


def _check_odds_options(simulate: int | None, compare: bool) -> None:
    if simulate is not None and compare:
        raise InputError(msg("cli.odds.simulate_compare"))
    if simulate is not None:
        api.check_runs(simulate)


@app.command("odds")
def odds_command(
    procedure: ProcedureArgument,
    input_text: InputOption,
    simulate: Annotated[
        int | None,
        typer.Option("--simulate", metavar="N", help="Estimate from N seeded runs instead."),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", metavar="N", help="Seed for --simulate.")] = 0,
    policy: Annotated[
        str | None,
        typer.Option(
            "--policy",
            metavar="NAME",
            help="How decisions are taken: default, optimal, or e.g. just_enough.",
        ),
    ] = None,
    objective: Annotated[
        list[str] | None,
        typer.Option(
            "--objective",
            metavar="SIDE=GOAL",
            help="A side's goal for --policy optimal: a=winner=a, striker=wounded, a=-wounds.",
        ),
    ] = None,
    explain: Annotated[
        bool, typer.Option("--explain", help="With --policy optimal: every decision it takes.")
    ] = False,
    observed: Annotated[
        str | None,
        typer.Option("--observed", metavar="JSON", help='An outcome that happened: {"killed": 3}.'),
    ] = None,
    compare: Annotated[
        bool, typer.Option("--compare", help="Odds under every policy, side by side.")
    ] = False,
    as_json: JsonFlag = False,
    lang: LangOption = Lang.en,
) -> None:
    """Exact odds of every outcome (or a Monte Carlo estimate with --simulate N).

    With decision policies (Old West: Fame) each policy is shown when they differ.
    """
    _check_odds_options(simulate, compare)
    data = read_input(input_text)
    goals = _objectives(objective)
    chosen = policy if policy is not None else ("optimal" if goals or explain else "default")
    if compare:
        _odds_compared(procedure, data, as_json, lang.value)
        return
    if simulate is not None:
        with _progress(simulate, lang.value) as progress:
            if as_json:
                _emit_json(
                    api.odds(procedure, data, simulate, seed, policy=chosen, progress=progress)
                )
                return
            found = api.estimates(procedure, data, simulate, seed, chosen, progress)
        name = get_procedure(procedure).name
        print_estimates(_console(), name, found, simulate, lang.value)
        return
    result = api.odds(
        procedure,
        data,
        policy=chosen,
        objective=goals,
        explain=explain,
        observed=_observed(observed),
        lang=lang.value,
    )
    if as_json:
        _emit_json(result)
        return
    plain = policy is None and not (goals or explain or observed)
    if plain and len(api.policies(procedure)) > 1:
        by_policy = _by_policy(procedure, data)
        if len({tuple(sorted(d.items(), key=repr)) for d in by_policy.values()}) > 1:
            _print_compared(result["procedure"], by_policy, lang.value)
            return
    distribution = api.exact_distribution(procedure, data, chosen, goals)
    order = sorted(distribution, key=outcome_order)
    print_exact_odds(_console(), result["procedure"], distribution, order, lang.value)
    _print_policy(result, lang.value)
    _print_observed(result, lang.value)


def _objectives(given: list[str] | None) -> dict[str, str] | None:
    """``--objective a=winner=a`` (repeatable) → ``{"a": "winner=a"}``."""
    if not given:
        return None
    out: dict[str, str] = {}
    for item in given:
        side, sep, goal = item.partition("=")
        if not sep or not side.strip() or not goal.strip():
            raise InputError(f"--objective: '{item}' is not SIDE=GOAL (e.g. a=winner=a)")
        out[side.strip()] = goal.strip()
    return out


def _observed(text: str | None) -> dict[str, Any] | None:
    if text is None:
        return None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(f"--observed: not valid JSON ({error})") from None
    if not isinstance(data, dict):
        raise InputError('--observed: must be a JSON object of outcome fields, e.g. {"killed": 3}')
    return data


def _print_policy(result: dict[str, Any], lang: str) -> None:
    """The optimal policy's goals and, with --explain, the decisions it takes."""
    from rich.table import Table

    console = _console()
    for side, goal in result.get("objectives", {}).items():
        text = msg("kubik.odds.goal", side=side, goal=goal["goal"], expected=goal["expected"])
        console.print(render(text, lang) + f" ≈ {goal['e']:.4g}")
    rows = result.get("explain")
    if rows is None:
        return
    shown = [row for row in rows if not row["default"]]
    if not shown:
        console.print(render(msg("kubik.odds.all_defaults", n=len(rows)), lang))
        return
    table = Table(title=render(msg("kubik.odds.explain", policy=result["policy"]), lang))
    table.add_column(render(msg("kubik.odds.reach"), lang), justify="right")
    table.add_column(render(msg("kubik.odds.situation"), lang))
    table.add_column(render(msg("kubik.odds.decision"), lang))
    for row in shown:
        table.add_row(f"{row['p']:.2%}", row["situation"], choice_text(row))
    console.print(table)
    rest = len(rows) - len(shown)
    if rest:
        console.print(render(msg("kubik.odds.defaults", n=rest), lang), style="dim")


def _print_observed(result: dict[str, Any], lang: str) -> None:
    """Where an observed outcome falls: its chance, at least / at most, percentile."""
    from rich.table import Table

    placed = result.get("observed")
    if placed is None:
        return
    outcome = ", ".join(f"{k}={v}" for k, v in placed["outcome"].items())
    table = Table(title=render(msg("kubik.odds.observed", outcome=outcome, p=placed["p"]), lang))
    for column in ("field", "value", "=", "at_least", "at_most", "percentile"):
        label = render(msg(f"kubik.odds.column.{column}"), lang)
        table.add_column(label, justify="left" if column == "field" else "right")
    for field, row in placed["fields"].items():
        cells = [f"{row['p']:.2%}"]
        if "percentile" in row:
            cells += [
                f"{row['p_at_least']:.2%}",
                f"{row['p_at_most']:.2%}",
                f"{row['percentile']:g}",
            ]
        else:
            cells += ["—", "—", "—"]
        table.add_row(field, str(row["value"]), *cells)
    _console().print(table)


def _by_policy(procedure: str, data: Any) -> dict[str, Any]:
    return {name: api.exact_distribution(procedure, data, name) for name in api.policies(procedure)}


def _print_compared(name: str, by_policy: dict[str, Any], lang: str) -> None:
    order = sorted({o for d in by_policy.values() for o in d}, key=outcome_order)
    print_comparison(_console(), name, by_policy, order, lang)


def _odds_compared(procedure: str, data: Any, as_json: bool, lang: str) -> None:
    comparison = api.compare_policies(procedure, data)
    if as_json:
        _emit_json(comparison)
        return
    _print_compared(comparison["procedure"], _by_policy(procedure, data), lang)


register_play_commands(app)
register_coverage_command(app)
register_sim_command(app)
register_serve_command(app)


#: The exit code of a command stopped with Ctrl-C.
INTERRUPTED = 130


def _lang_of(args: Sequence[str]) -> str:
    """The ``--lang`` of a command line (errors are said in it), ``en`` by default."""
    for index, arg in enumerate(args):
        if arg == "--lang" and index + 1 < len(args):
            return "ru" if args[index + 1] == "ru" else "en"
        if arg.startswith("--lang="):
            return "ru" if arg.split("=", 1)[1] == "ru" else "en"
    return "en"


def _fail(text: str, lang: str, code: int = 2) -> None:
    line = " ".join(text.split())
    sys.stderr.write(render(msg("cli.error", text=line), lang) + "\n")
    sys.exit(code)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``kubik`` console script."""
    args = list(sys.argv[1:] if argv is None else argv)
    lang = _lang_of(args)
    if not args:  # a bare `kubik` shows its help, and that is not an error
        args = ["--help"]
    try:
        if not args[0].startswith("-"):  # a command: a bad KUBIK_DATA_DIR file stops it now
            check_overrides()
        code = app(args=args, standalone_mode=False, prog_name="kubik")
        if code == INTERRUPTED:  # Typer turns Ctrl-C into exit code 130
            raise KeyboardInterrupt
        if isinstance(code, int) and code:  # a command's typer.Exit(n), returned by click
            sys.exit(code)
    except Exit as done:
        sys.exit(done.exit_code)
    except (Abort, KeyboardInterrupt):
        _fail(render(msg("cli.interrupted"), lang), lang, INTERRUPTED)
    except TyperException as error:
        text = " ".join(error.format_message().split())
        _fail(usage_error_text(text, lang), lang)
    except KubikError as error:
        _fail(error.text(lang), lang)
    except Exception as error:  # a bug: still one line, unless debugging
        if os.environ.get("KUBIK_DEBUG"):
            raise
        text = render(msg("cli.internal", kind=type(error).__name__, text=str(error)), lang)
        _fail(text, lang, 3)


if __name__ == "__main__":
    main()
