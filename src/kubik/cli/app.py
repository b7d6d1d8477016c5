"""The ``kubik`` command: the public contract of design.md on top of :mod:`kubik.api`.

Rules: ``procedures``, ``resolve`` (here), ``odds`` (:mod:`kubik.cli.odds`, whose
table of options this module turns into the typer command); games: ``scenarios``,
``play``, ``load``, ``replay``, ``saves`` (:mod:`kubik.cli.play`); ``coverage``
(:mod:`kubik.cli.coverage`); ``sim`` (:mod:`kubik.cli.sim.command`).

Human-readable by default (Rich, wrapped to the terminal), JSON with ``--json``. The
usual conventions hold: a bare ``kubik`` prints its help, ``-h``/``--help``,
``--version``, ``--install-completion``. Any bad input ends with one line on stderr
naming the field and what is allowed (in Russian under ``--lang ru``), and a non-zero
exit; never a traceback (set ``KUBIK_DEBUG=1`` to see one for a bug). Ctrl-C is one
line too (exit 130). A ``KUBIK_DATA_DIR`` override file is checked before any command.
The ``kubik`` console script reads a plain ``kubik odds`` itself, without typer
(:func:`kubik.cli.odds.answer_plain`); this module's :func:`main` reads every command line.
"""

from __future__ import annotations

import inspect
import sys
from typing import Annotated, Any

import typer
from rich.console import Console
from typer.exceptions import Abort, Exit, TyperException

from kubik import api
from kubik.cli.console.help import HelpGroup, help_in, usage_error_text, version_callback
from kubik.cli.console.inputs import read_input
from kubik.cli.console.parse import Lang, split_values
from kubik.cli.console.results import (
    console_for_people,
    print_procedure,
    print_procedures,
    print_resolution,
)
from kubik.cli.coverage import register_coverage_command
from kubik.cli.odds import (
    INTERRUPTED,
    ODDS_PARAMETERS,
    REQUIRED,
    Parameter,
    complete_words,
    emit_json,
    fail,
    guarded,
    lang_of,
    odds_command,
)
from kubik.cli.play import register_play_commands
from kubik.cli.quick import command_table
from kubik.cli.serve import register_serve_command
from kubik.cli.sim.command import register_sim_command
from kubik.engine.registry import get as get_procedure
from kubik.rulesets.data import check_overrides

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


_ODDS = {p.name: p for p in ODDS_PARAMETERS}
_JSON, _LANG, _INPUT, _PROCEDURE = (
    _ODDS[n] for n in ("as_json", "lang", "input_text", "procedure")
)

JsonFlag = Annotated[bool, typer.Option(*_JSON.flags, help=_JSON.help)]
LangOption = Annotated[Lang, typer.Option(*_LANG.flags, metavar=_LANG.metavar, help=_LANG.help)]
InputOption = Annotated[str, typer.Option(*_INPUT.flags, metavar=_INPUT.metavar, help=_INPUT.help)]
ProcedureArgument = Annotated[str, typer.Argument(metavar=_PROCEDURE.metavar, help=_PROCEDURE.help)]

__all__ = ["app", "main", "parse_dice_option", "read_input"]


def _console() -> Console:
    return console_for_people()


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
            emit_json(one)
        else:
            print_procedure(_console(), one, lang.value)
        return
    specs = api.procedures()
    if as_json:
        emit_json(specs)
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
    result, outcome = api.resolve_with_outcome(
        procedure, read_input(input_text), dice=values, seed=seed, lang=lang.value
    )
    if as_json:
        emit_json(result)
    else:
        print_resolution(_console(), result, lang.value, outcome)


_TYPES: dict[str, Any] = {
    "text": str,
    "int": int,
    "flag": bool,
    "texts": list[str],
    "lang": Lang,
    "words": list[str],
}


def _typer_parameter(parameter: Parameter) -> inspect.Parameter:
    """A row of :data:`~kubik.cli.odds.ODDS_PARAMETERS` as typer reads a parameter."""
    kind: Any = _TYPES[parameter.kind]
    if parameter.default is None:
        kind = kind | None
    info: Any
    if parameter.flags:
        info = typer.Option(*parameter.flags, metavar=parameter.metavar, help=parameter.help)
    elif parameter.kind == "words":
        info = typer.Argument(
            metavar=parameter.metavar, help=parameter.help, autocompletion=complete_words
        )
    else:
        info = typer.Argument(metavar=parameter.metavar, help=parameter.help)
    default = inspect.Parameter.empty if parameter.default is REQUIRED else parameter.default
    return inspect.Parameter(
        parameter.name,
        inspect.Parameter.POSITIONAL_OR_KEYWORD,
        default=default,
        annotation=Annotated[kind, info],
    )


def _odds_for_typer() -> Any:
    """``kubik odds`` as typer sees it: :func:`~kubik.cli.odds.odds_command` with the
    table's options as its parameters' annotations."""

    def odds(**options: Any) -> None:
        odds_command(**options)

    parameters = [_typer_parameter(p) for p in ODDS_PARAMETERS]
    odds.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    odds.__annotations__ = {p.name: p.annotation for p in parameters}
    odds.__doc__ = odds_command.__doc__
    return odds


app.command("odds")(_odds_for_typer())


register_play_commands(app)
register_coverage_command(app)
register_sim_command(app)
register_serve_command(app)
_SAID = command_table()["commands"]
for _command in app.registered_commands:  # the line each command's help list shows
    _command.short_help = _SAID[_command.name or ""]["en"]


def main(argv: list[str] | None = None) -> None:
    """Every ``kubik`` command line, read by typer."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:  # a bare `kubik` shows its help, and that is not an error
        args = ["--help"]
    guarded(lambda: _run(args), args)


def _run(args: list[str]) -> None:
    help_in(lang_of(args))  # a command's help is said in the command line's language
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
    except Abort:
        raise KeyboardInterrupt from None
    except TyperException as error:
        lang = lang_of(args)
        text = " ".join(error.format_message().split())
        fail(usage_error_text(text, lang), lang)


if __name__ == "__main__":
    main()
