"""The ``kubik`` command: the public contract of design.md on top of :mod:`kubik.api`.

Rules: ``procedures``, ``resolve``, ``odds`` (here); games: ``scenarios``, ``play``,
``load``, ``replay``, ``saves`` (:mod:`kubik.cli_play`); ``coverage``
(:mod:`kubik.cli_coverage`); ``sim`` (:mod:`kubik.cli_sim`).

Human-readable by default (Rich), JSON with ``--json``. Any bad input ends with one
line on stderr naming the field and what is allowed, and a non-zero exit; never a
traceback (set ``KUBIK_DEBUG=1`` to see one for a bug).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from typer.exceptions import Abort, Exit, TyperException

from kubik import api
from kubik.cli_coverage import register_coverage_command
from kubik.cli_play import register_play_commands
from kubik.cli_sim import register_sim_command
from kubik.console.parse import Lang, split_values
from kubik.engine.requests import msg
from kubik.errors import InputError, KubikError
from kubik.i18n import render

app = typer.Typer(
    add_completion=False,
    pretty_exceptions_enable=False,
    no_args_is_help=True,
    help="kubik — rules engine and virtual referee for tabletop wargames.",
)


JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]
LangOption = Annotated[Lang, typer.Option("--lang", help="Language of text: en or ru.")]
InputOption = Annotated[
    str, typer.Option("--input", "-i", help="Input as JSON, or @FILE holding JSON.")
]


def _console() -> Console:
    return Console(highlight=False, soft_wrap=True)


def _emit_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def read_input(text: str) -> dict[str, Any]:
    """Parse ``--input``: inline JSON, or ``@path`` to a JSON file."""
    source = "--input"
    if text.startswith("@"):
        path = Path(text[1:])
        source = f"--input file '{path}'"
        if not path.is_file():
            raise InputError(f"--input: file '{path}' does not exist")
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise InputError(f"{source}: cannot be read ({error})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(f"{source}: not valid JSON ({error})") from None
    if not isinstance(data, dict):
        raise InputError(f'{source}: must be a JSON object, e.g. \'{{"quality": "d8"}}\'')
    return data


def parse_dice_option(text: str) -> list[str]:
    """``"3,6,2"`` or ``"3 6 2"`` → the values, as typed (checked against each die later)."""
    return split_values(text)


@app.command("procedures")
def procedures_command(as_json: JsonFlag = False) -> None:
    """List every procedure: name, rule ids and input fields."""
    specs = api.procedures()
    if as_json:
        _emit_json(specs)
        return
    table = Table(title="kubik procedures")
    table.add_column("procedure", style="bold", no_wrap=True, min_width=28)
    table.add_column("rules")
    table.add_column("input")
    table.add_column("summary")
    for spec in specs:
        fields = ", ".join(spec["input_schema"].get("properties", {}))
        table.add_row(spec["name"], " ".join(spec["rules"]), fields, spec["summary"])
    _console().print(table)


def _print_log(result: dict[str, Any], lang: str) -> None:
    console = _console()
    for entry in result["log"]:
        indent = "  " * (entry["depth"] + 1)
        if entry["type"] == "roll":
            values = ", ".join(str(v) for v in entry["values"])
            dice = ", ".join(entry["dice"])
            if lang == "ru":
                dice = dice.replace("d", "к")
            mark = "✍" if entry["origin"] == "typed" else "🎲"
            console.print(f"{indent}{mark} {dice} → [bold]{values}[/bold]  ({entry['reason']})")
        elif entry["type"] == "choice":
            console.print(f"{indent}? {entry['side']}: {entry['answer']}  ({entry['reason']})")
        else:
            console.print(f"{indent}{entry['text']}")
    outcome = ", ".join(f"{k} = {v}" for k, v in result["outcome"].items())
    console.print(f"[bold]{render(msg('kubik.outcome'), lang)}:[/bold] {outcome}")
    if "seed" in result:
        console.print(f"(seed {result['seed']})", style="dim")


@app.command("resolve")
def resolve_command(
    procedure: Annotated[str, typer.Argument(help="<ruleset>.<procedure>")],
    input_text: InputOption,
    dice: Annotated[
        str | None, typer.Option("--dice", help="Dice rolled at the table, in order: 3,6,2")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for virtual dice.")] = None,
    as_json: JsonFlag = False,
    lang: LangOption = Lang.en,
) -> None:
    """Resolve a procedure once, with typed-in dice or virtual dice, and narrate it."""
    values = parse_dice_option(dice) if dice is not None else None
    result = api.resolve(procedure, read_input(input_text), dice=values, seed=seed, lang=lang.value)
    if as_json:
        _emit_json(result)
    else:
        _print_log(result, lang.value)


def _outcome_text(outcome: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in outcome.items())


def _print_odds(result: dict[str, Any], lang: str) -> None:
    console = _console()
    title = result["procedure"] + (
        f" — {render(msg('kubik.exact'), lang)}"
        if result["exact"]
        else f" — {render(msg('kubik.simulated', runs=result['runs']), lang)}"
    )
    table = Table(title=title)
    table.add_column(render(msg("kubik.outcome"), lang))
    table.add_column(render(msg("kubik.probability"), lang), justify="right")
    table.add_column("%", justify="right")
    for row in result["outcomes"]:
        if result["exact"]:
            table.add_row(_outcome_text(row["outcome"]), row["probability"], f"{row['p']:.2%}")
        else:
            low, high = row["interval"]
            table.add_row(
                _outcome_text(row["outcome"]),
                f"{row['count']}",
                f"{row['p']:.2%} [{low:.2%}, {high:.2%}]",
            )
    console.print(table)
    for field, marginal in result.get("fields", {}).items():
        sub = Table(title=f"{field}: {render(msg('kubik.expected'), lang)} {marginal['e']:.3f}")
        sub.add_column(field, justify="right")
        sub.add_column("=", justify="right")
        sub.add_column(f"≥ ({render(msg('kubik.at_least'), lang)})", justify="right")
        for row in marginal["values"]:
            sub.add_row(str(row["value"]), f"{row['p']:.2%}", f"{row['p_at_least']:.2%}")
        console.print(sub)


@app.command("odds")
def odds_command(
    procedure: Annotated[str, typer.Argument(help="<ruleset>.<procedure>")],
    input_text: InputOption,
    simulate: Annotated[
        int | None, typer.Option("--simulate", help="Estimate from N seeded runs instead.")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed for --simulate.")] = 0,
    policy: Annotated[
        str | None,
        typer.Option("--policy", help="How decisions are taken: default, or e.g. best_response."),
    ] = None,
    compare: Annotated[
        bool, typer.Option("--compare", help="Odds under every policy, side by side.")
    ] = False,
    as_json: JsonFlag = False,
    lang: LangOption = Lang.en,
) -> None:
    """Exact odds of every outcome (or a Monte Carlo estimate with --simulate N).

    Where a ruleset offers decision policies (Old West: Fame), the table for people
    shows the odds under each policy side by side whenever they differ.
    """
    data = read_input(input_text)
    if compare:
        comparison = api.compare_policies(procedure, data)
        if as_json:
            _emit_json(comparison)
        else:
            _print_comparison(comparison, lang.value)
        return
    result = api.odds(procedure, data, simulate=simulate, seed=seed, policy=policy or "default")
    if as_json:
        _emit_json(result)
        return
    if policy is None and simulate is None and len(api.policies(procedure)) > 1:
        comparison = api.compare_policies(procedure, data)
        if any(len(set(row["p"].values())) > 1 for row in comparison["outcomes"]):
            _print_comparison(comparison, lang.value)
            return
    _print_odds(result, lang.value)


def _print_comparison(comparison: dict[str, Any], lang: str) -> None:
    table = Table(title=f"{comparison['procedure']} — {render(msg('kubik.exact'), lang)}")
    table.add_column(render(msg("kubik.outcome"), lang))
    for name in comparison["policies"]:
        table.add_column(render(msg("kubik.policy", name=name), lang), justify="right")
    for row in comparison["outcomes"]:
        cells = [f"{row['probabilities'][n]} ({row['p'][n]:.2%})" for n in comparison["policies"]]
        table.add_row(_outcome_text(row["outcome"]), *cells)
    _console().print(table)


register_play_commands(app)
register_coverage_command(app)
register_sim_command(app)


def _fail(message: str, code: int = 2) -> None:
    sys.stderr.write(f"error: {message}\n")
    sys.exit(code)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``kubik`` console script."""
    try:
        code = app(args=argv, standalone_mode=False, prog_name="kubik")
        if isinstance(code, int) and code:  # a command's typer.Exit(n), returned by click
            sys.exit(code)
    except Exit as done:
        sys.exit(done.exit_code)
    except Abort:
        _fail("aborted", 130)
    except TyperException as error:
        _fail(error.format_message().replace("\n", " "))
    except KubikError as error:
        _fail(str(error).replace("\n", " "))
    except Exception as error:  # a bug: still one line, unless debugging
        if os.environ.get("KUBIK_DEBUG"):
            raise
        _fail(f"internal error ({type(error).__name__}: {error}); set KUBIK_DEBUG=1 for details", 3)


if __name__ == "__main__":
    main()
