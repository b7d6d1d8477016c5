"""``kubik odds``: its options (one table), what it does, and the light way in.

A person asking for odds waits for the whole process, so a plain ``kubik odds``
command line is read here and answered without typer, Rich, numpy, Babel or the game
layer (the answer in JSON needs none of them; text for people loads Rich and the
catalogues when it prints). :data:`ODDS_PARAMETERS` is the one description of the
command's arguments: :mod:`kubik.cli.app` builds the typer command from it (help, shell
completion, usage errors), and :func:`plain_odds` reads a command line with it. A
command line it is not sure of (help, a value it would have to guess how typer
reads, an unknown option, anything not ``odds``) goes to the typer command, so what
a person sees is the same either way (``tests/cli/test_odds_light.py`` checks that).

:func:`guarded` is how every ``kubik`` command ends: a bad input, a bug or Ctrl-C is
one line on stderr, in the language of ``--lang``.
"""

from __future__ import annotations

import errno
import json
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from kubik import api
from kubik.cli.console.inputs import read_input
from kubik.cli.console.parse import Lang
from kubik.core import limits
from kubik.core.errors import InputError, KubikError
from kubik.engine.jsonify import outcome_order
from kubik.engine.registry import get as get_procedure
from kubik.engine.requests import msg

if TYPE_CHECKING:
    from rich.console import Console

#: How a parameter's value is read: a text, a whole number, a flag (no value), a text
#: given any number of times, a language, or the words after the procedure.
Kind = Literal["text", "int", "flag", "texts", "lang", "words"]


class _Required:
    """The default of a parameter that must be given."""

    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()


@dataclass(frozen=True)
class Parameter:
    """One argument or option of ``kubik odds``: as typer declares it and as it is read.

    ``flags`` empty means the positional argument. The default ``None`` of a ``text``
    or ``int`` makes it optional (``str | None``); :data:`REQUIRED` makes it required.
    """

    name: str
    kind: Kind
    flags: tuple[str, ...]
    default: Any
    metavar: str | None
    help: str


#: ``kubik odds``'s arguments, in the order of its help.
ODDS_PARAMETERS: tuple[Parameter, ...] = (
    Parameter(
        "procedure",
        "text",
        (),
        REQUIRED,
        "PROCEDURE",
        "<ruleset>.<procedure>, e.g. old_west.wound",
    ),
    Parameter(
        "words",
        "words",
        (),
        None,
        "FIELD=VALUE...",
        "The question in words: quality=d6 weapons=lmg,smg*4 distance=10 cover=light "
        "(nested fields by dots: a.1.fight=5; lists by commas, ITEM*N repeats).",
    ),
    Parameter(
        "input_text",
        "text",
        ("--input", "-i"),
        None,
        "JSON|@FILE",
        "The question as JSON, or @FILE holding JSON (instead of words).",
    ),
    Parameter(
        "simulate", "int", ("--simulate",), None, "N", "Estimate from N seeded runs instead."
    ),
    Parameter("seed", "int", ("--seed",), 0, "N", "Seed for --simulate."),
    Parameter(
        "policy",
        "text",
        ("--policy",),
        None,
        "NAME",
        "How decisions are taken: default, optimal, or e.g. just_enough.",
    ),
    Parameter(
        "objective",
        "texts",
        ("--objective",),
        None,
        "SIDE=GOAL",
        "A side's goal for --policy optimal: a=winner=a, striker=wounded, a=-wounds.",
    ),
    Parameter(
        "explain",
        "flag",
        ("--explain",),
        False,
        None,
        "With --policy optimal: every decision it takes.",
    ),
    Parameter(
        "observed",
        "text",
        ("--observed",),
        None,
        "JSON",
        'An outcome that happened: {"killed": 3}.',
    ),
    Parameter(
        "compare", "flag", ("--compare",), False, None, "Odds under every policy, side by side."
    ),
    Parameter(
        "vs",
        "texts",
        ("--vs",),
        None,
        "FIELD=VALUE...",
        "Another variant of the question, side by side: --vs 'weapons=hmg distance=20' "
        "(repeatable).",
    ),
    Parameter(
        "over",
        "text",
        ("--over",),
        None,
        "FIELD=A..B",
        "Sweep one input over a range (distance=1..36, step with /2): mean and at-least odds.",
    ),
    Parameter("plot", "text", ("--plot",), None, "FILE", "With --over: a chart (.png or .svg)."),
    Parameter("full", "flag", ("--full",), False, None, "Every outcome in a table, too."),
    Parameter("as_json", "flag", ("--json",), False, None, "Print JSON instead of tables."),
    Parameter("lang", "lang", ("--lang",), Lang.en, "en|ru", "Language of text: en or ru."),
)

#: The exit code of a command stopped with Ctrl-C.
INTERRUPTED = 130


# -- the command ---------------------------------------------------------------------


def odds_command(
    procedure: str,
    words: list[str] | None = None,
    input_text: str | None = None,
    simulate: int | None = None,
    seed: int = 0,
    policy: str | None = None,
    objective: list[str] | None = None,
    explain: bool = False,
    observed: str | None = None,
    compare: bool = False,
    vs: list[str] | None = None,
    over: str | None = None,
    plot: str | None = None,
    full: bool = False,
    as_json: bool = False,
    lang: Lang = Lang.en,
) -> None:
    """Exact odds of every outcome (or a Monte Carlo estimate with --simulate N).

    Ask in words (kubik odds steel_war.fire quality=d6 weapons=lmg,smg*4 distance=10) or
    in JSON (--input). With decision policies (Old West: Fame) each policy is shown when
    they differ; --vs compares variants of the question, --over sweeps one input.
    """
    _check_odds_options(simulate, compare)
    if over is not None and input_text is None:  # the swept field needs no word of its own
        field, _, span = over.partition("=")
        if not any(w.partition("=")[0] == field.strip() for w in words or ()):
            words = [*(words or []), f"{field.strip()}={span.partition('..')[0].strip()}"]
    data = question(procedure, words, input_text, lang.value, ask=not as_json)
    goals = _objectives(objective)
    chosen = policy if policy is not None else ("optimal" if goals or explain else "default")
    with _work_limit(simulate is None):
        _answer(procedure, data, simulate, seed, policy, goals, chosen, explain, observed,
                compare, vs, over, plot, full, as_json, lang)  # fmt: skip


@contextmanager
def _work_limit(exact: bool) -> Iterator[None]:
    """Stop an exact question after :data:`~kubik.core.limits.ODDS_SECONDS` of CPU, with
    one line naming the limit (the few corners of the input ranges that take longer would
    otherwise run for minutes). A simulation shows its progress and stops at Ctrl-C
    instead. Where the platform has no CPU timer, or off the main thread, no limit."""
    timer = getattr(signal, "ITIMER_PROF", None)
    if not exact or timer is None or not _on_main_thread():
        yield
        return
    seconds = limits.ODDS_SECONDS

    def stop(signum: int, frame: Any) -> None:
        raise InputError(msg("cli.odds.too_long", seconds=seconds))

    before = signal.signal(signal.SIGPROF, stop)
    signal.setitimer(timer, seconds)
    try:
        yield
    finally:
        signal.setitimer(timer, 0)
        signal.signal(signal.SIGPROF, before)


def _on_main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


def _answer(
    procedure: str,
    data: Any,
    simulate: int | None,
    seed: int,
    policy: str | None,
    goals: Any,
    chosen: str,
    explain: bool,
    observed: str | None,
    compare: bool,
    vs: list[str] | None,
    over: str | None,
    plot: str | None,
    full: bool,
    as_json: bool,
    lang: Lang,
) -> None:
    if vs or over is not None or plot is not None:
        from kubik.cli.odds_variants import answer_variants

        emit = emit_json if as_json else None
        answer_variants(procedure, data, vs or [], over, plot, chosen, emit, lang.value)
        return
    if compare:
        _odds_compared(procedure, data, as_json, lang.value)
        return
    if simulate is not None:
        with _progress(simulate, lang.value) as progress:
            if as_json:
                emit_json(
                    api.odds(procedure, data, simulate, seed, policy=chosen, progress=progress)
                )
                return
            found = api.estimates(procedure, data, simulate, seed, chosen, progress)
        from kubik.cli.console.results import print_estimates

        name = get_procedure(procedure).name
        print_estimates(_console(), name, found, simulate, lang.value)
        return
    placed = _observed(observed)
    result: dict[str, Any] = {"procedure": get_procedure(procedure).name}
    if as_json or chosen == "optimal" or goals or explain or placed is not None:
        # (the text reads the answer's goals, decisions and observed outcome from it;
        # without them it needs no JSON of every outcome)
        result = api.odds(
            procedure,
            data,
            policy=chosen,
            objective=goals,
            explain=explain,
            observed=placed,
            lang=lang.value,
        )
    if as_json:
        emit_json(result)
        return
    plain = policy is None and not (goals or explain or observed)
    # policies differ only where a decision is asked: without one, none is loaded
    if plain and api.has_decisions(procedure, data) and len(api.policies(procedure)) > 1:
        by_policy = _by_policy(procedure, data)
        if len({tuple(sorted(d.items(), key=repr)) for d in by_policy.values()}) > 1:
            _print_compared(result["procedure"], by_policy, lang.value)
            return
    from kubik.cli.console.results import print_exact_odds

    distribution = api.exact_distribution(procedure, data, chosen, goals)
    order = sorted(distribution, key=outcome_order)
    print_exact_odds(_console(), result["procedure"], distribution, order, lang.value, full)
    _print_policy(result, lang.value)
    _print_observed(result, lang.value)


def question(
    procedure: str, words: list[str] | None, input_text: str | None, lang: str, ask: bool = True
) -> dict[str, Any]:
    """The question: ``--input`` JSON, or FIELD=VALUE words read against the procedure's
    input; a required field not given is asked for in a terminal (with its allowed
    values), and named in the error elsewhere."""
    if input_text is not None:
        if words:
            raise InputError(msg("cli.words.input_and_words"))
        return read_input(input_text)
    from kubik.api.question_words import describe, missing_fields, question_from_words

    model = get_procedure(procedure).input_model
    data = question_from_words(model, words or [])
    missing = missing_fields(model, data)
    if missing and ask and sys.stdin.isatty() and sys.stderr.isatty():
        for field in missing:
            data.update(_ask_field(model, field, lang))
        return data
    if missing:
        allowed = "; ".join(f"{f}: {', '.join(describe(model, f)[1]) or '…'}" for f in missing)
        raise InputError(
            msg("cli.words.missing", fields=", ".join(missing), n=len(missing), allowed=allowed)
        )
    return data


def _ask_field(model: Any, field: str, lang: str) -> dict[str, Any]:
    """Ask a person for one required field until the answer fits."""
    from kubik.api.question_words import describe, question_from_words
    from kubik.text.i18n import render

    description, allowed = describe(model, field)
    prompt = render(
        msg("cli.words.ask", field=field, description=description, allowed=", ".join(allowed)),
        lang,
    )
    while True:
        sys.stderr.write(prompt + "\n> ")
        sys.stderr.flush()
        answer = sys.stdin.readline()
        if not answer:
            raise EOFError
        choices = [a for a in allowed if ".." not in a]
        if choices and answer.strip().lower() not in {c.lower() for c in choices}:
            sys.stderr.write(render(msg("cli.words.choose", allowed=", ".join(choices)), lang))
            sys.stderr.write("\n")
            continue
        try:
            return question_from_words(model, [f"{field}={answer.strip()}"])
        except KubikError as error:
            sys.stderr.write(error.text(lang) + "\n")


def complete_words(ctx: Any, incomplete: str) -> list[str]:
    """Shell completion of a question's words: the procedure's field names (``distance=``),
    and after ``=`` the field's allowed values (a list's next item after a comma)."""
    from kubik.api.question_words import describe, field_names

    name = (ctx.params or {}).get("procedure") if ctx is not None else None
    try:
        model = get_procedure(str(name)).input_model
    except KubikError:
        return []
    field, equals, typed = incomplete.partition("=")
    if not equals:
        schema = model.model_json_schema()
        given = {w.partition("=")[0] for w in (ctx.params.get("words") or ())}
        names = field_names(schema, schema.get("$defs", {}))
        return [f"{n}=" for n in names if n.startswith(field) and n not in given]
    head, comma, last = typed.rpartition(",")
    _, allowed = describe(model, field)
    lead = f"{field}={head}{comma}"
    return [f"{lead}{v}" for v in allowed if v.startswith(last) and ".." not in v]


def emit_json(data: Any) -> None:
    """The command's answer as JSON on stdout (``--json``)."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def _console() -> Console:
    from kubik.cli.console.results import console_for_people

    return console_for_people()


@contextmanager
def _progress(runs: int, lang: str) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on the terminal's stderr for a long simulation (none in a pipe)."""
    if not sys.stderr.isatty() or runs < 20_000:
        yield None
        return
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    from kubik.cli.console.results import console_for_people
    from kubik.text.i18n import render

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

    # not ``with bar``: Ctrl-C may land inside ``start()`` after its refresh thread has
    # begun, and then ``__exit__`` never runs and the thread outlives the command
    try:
        bar.start()
        yield advance
    finally:
        bar.stop()


def _check_odds_options(simulate: int | None, compare: bool) -> None:
    if simulate is not None and compare:
        raise InputError(msg("cli.odds.simulate_compare"))
    if simulate is not None:
        api.check_runs(simulate)


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
    goals = result.get("objectives", {})
    rows = result.get("explain")
    if not goals and rows is None:
        return
    from rich.table import Table

    from kubik.api.words import policy_role
    from kubik.engine.explain import choice_text
    from kubik.text.i18n import render

    console = _console()
    for side, goal in goals.items():
        role = policy_role(side, lang)
        text = msg("kubik.odds.goal", side=role, goal=goal["goal"], expected=goal["expected"])
        console.print(render(text, lang) + f" ≈ {goal['e']:.4g}")
    if rows is None:
        return
    shown = [row for row in rows if not row["default"]]
    if not shown:
        console.print(render(msg("kubik.odds.all_defaults", n=len(rows)), lang))
        return
    from kubik.api.words import policy_label

    policy = policy_label(result["policy"], lang)
    table = Table(title=render(msg("kubik.odds.explain", policy=policy), lang))
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
    placed = result.get("observed")
    if placed is None:
        return
    from rich.table import Table

    from kubik.text.i18n import render

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
    from kubik.cli.console.results import print_comparison

    order = sorted({o for d in by_policy.values() for o in d}, key=outcome_order)
    print_comparison(_console(), name, by_policy, order, lang)


def _odds_compared(procedure: str, data: Any, as_json: bool, lang: str) -> None:
    comparison = api.compare_policies(procedure, data)
    if as_json:
        emit_json(comparison)
        return
    _print_compared(comparison["procedure"], _by_policy(procedure, data), lang)


# -- reading a plain command line ----------------------------------------------------

_BY_FLAG = {flag: p for p in ODDS_PARAMETERS for flag in p.flags}
_DIGITS = frozenset("0123456789")


def _value(parameter: Parameter, text: str) -> Any:
    """``text`` read as typer reads it, or ``None`` where typer's reading is not obvious."""
    if parameter.kind == "int":
        return int(text) if text and set(text) <= _DIGITS else None
    if parameter.kind == "lang":
        return Lang(text) if text in Lang.__members__ else None
    return text


def plain_odds(args: Sequence[str]) -> dict[str, Any] | None:
    """The arguments of a plain ``kubik odds`` command line, as typer passes them, or
    ``None`` for anything else (typer then reads it: help, errors, other commands).

    Plain: ``odds``, one PROCEDURE, its words or ``--input``, and options of the table
    each given once (``--objective`` any number of times), as ``--name value``,
    ``--name=value`` or ``-i value``, no value starting with ``-``, whole numbers as
    digits, a language typed as its name.
    """
    if not args or args[0] != "odds":
        return None
    found: dict[str, Any] = {}
    positional: list[str] = []
    rest = iter(args[1:])
    for arg in rest:
        if not arg.startswith("-"):
            positional.append(arg)
            continue
        flag, equals, attached = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        parameter = _BY_FLAG.get(flag)
        if parameter is None:
            return None
        if parameter.kind == "flag":
            if equals:
                return None
            value: Any = True
        else:
            text = attached if equals else next(rest, None)
            if text is None or text.startswith("-"):
                return None
            value = _value(parameter, text)
            if value is None:
                return None
        if parameter.kind == "texts":
            found.setdefault(parameter.name, []).append(value)
        elif parameter.name in found:
            return None
        else:
            found[parameter.name] = value
    if not positional:
        return None
    found["procedure"] = positional[0]
    found["words"] = positional[1:] or None
    for parameter in ODDS_PARAMETERS:
        if parameter.name not in found:
            if parameter.default is REQUIRED:
                return None
            found[parameter.name] = parameter.default
    return found


# -- how a command ends --------------------------------------------------------------


def lang_of(args: Sequence[str]) -> str:
    """The ``--lang`` of a command line (errors are said in it), ``en`` by default."""
    for index, arg in enumerate(args):
        if arg == "--lang" and index + 1 < len(args):
            return "ru" if args[index + 1] == "ru" else "en"
        if arg.startswith("--lang="):
            return "ru" if arg.split("=", 1)[1] == "ru" else "en"
    return "en"


def fail(text: str, lang: str, code: int = 2) -> None:
    """One line on stderr (``kubik: error: ...`` in ``lang``), and exit with ``code``."""
    from kubik.text.i18n import render

    line = " ".join(text.split())
    sys.stderr.write(render(msg("cli.error", text=line), lang) + "\n")
    sys.exit(code)


def _interrupted_once(signum: int, frame: object) -> None:
    """Ctrl-C: ends the command, and the presses after it are ignored from this moment
    on (people press twice; one landing while the first is handled would end in a
    traceback)."""
    signal.signal(signal.SIGINT, _pressed_again)
    raise KeyboardInterrupt


def _pressed_again(signum: int, frame: object) -> None:
    """A Ctrl-C after the one that is ending the command: nothing more to do. (A Python
    function, not SIG_IGN: a press already pending when the handler changes is then
    answered quietly instead of with Python's "ignored due to race condition".)"""


def guarded(command: Callable[[], None], args: Sequence[str]) -> None:
    """Run ``command``; a bad input, Ctrl-C or a bug ends it with one line on stderr.

    As typer ends a command: Ctrl-C (or end of input) is exit 130, a closed stdout
    (``kubik ... | head``) a quiet exit 1.
    """
    lang = lang_of(args)
    previous = signal.getsignal(signal.SIGINT)
    if previous is signal.default_int_handler:  # (not a host program's own handler)
        with suppress(ValueError):  # not the main thread (kubik run inside another program)
            signal.signal(signal.SIGINT, _interrupted_once)
    try:
        _guarded(command, lang)
    finally:
        # not after a real Ctrl-C: the presses after it stay ignored while Python exits
        if signal.getsignal(signal.SIGINT) is _interrupted_once:
            signal.signal(signal.SIGINT, previous)


def _guarded(command: Callable[[], None], lang: str) -> None:
    try:
        try:
            command()
        except EOFError:
            sys.stderr.write("\n")
            raise KeyboardInterrupt from None
    except KeyboardInterrupt:
        from kubik.text.i18n import render

        fail(render(msg("cli.interrupted"), lang), lang, INTERRUPTED)
    except KubikError as error:
        fail(error.text(lang), lang)
    except Exception as error:  # a bug: still one line, unless debugging
        if isinstance(error, OSError) and error.errno == errno.EPIPE:
            # the reader went away (`| head`): nothing more to say, and no complaint
            # from the final flush of stdout either
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(1)
        if os.environ.get("KUBIK_DEBUG"):
            raise
        from kubik.text.i18n import render

        text = render(msg("cli.internal", kind=type(error).__name__, text=str(error)), lang)
        fail(text, lang, 3)


def answer_plain(args: Sequence[str]) -> bool:
    """Answer ``args`` here if it is a plain ``kubik odds`` command line (no typer);
    ``False`` when it is not one, for typer to read (:func:`kubik.cli.launch.run`)."""
    options = plain_odds(list(args))
    if options is None:
        return False

    def answer() -> None:
        from kubik.rulesets.data import check_overrides

        check_overrides()  # a bad KUBIK_DATA_DIR file stops any command
        odds_command(**options)

    guarded(answer, list(args))
    return True


__all__ = [
    "INTERRUPTED",
    "ODDS_PARAMETERS",
    "REQUIRED",
    "Parameter",
    "answer_plain",
    "complete_words",
    "emit_json",
    "fail",
    "guarded",
    "lang_of",
    "odds_command",
    "plain_odds",
    "question",
]
