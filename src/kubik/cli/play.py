"""``kubik scenarios / play / load / replay / saves``: whole games in the terminal.

``kubik play [SCENARIO]`` plays a battle to its end. Who plays each side:

* by default every side is a heuristic bot (:class:`kubik.bots.HeuristicBot`),
  except the sides a scenario marks ``controller = "human"``, which ask a person;
* with ``--table`` (referee mode for a real table) the dice are rolled by people
  and typed in, and by default **every side is human**: kubik only referees;
* ``--side SIDE=human|heuristic|fast|random|default`` (repeatable) overrides either.

Without ``--seed`` each game is a new one: its seed (drawn at random) is printed in
the header, so a game shown once can always be played again: the same scenario and
seed print the same game byte for byte (``--json`` prints :meth:`GameSession.to_json`, with no times
and no paths). ``--save NAME`` writes every answer to the save store the moment
it is confirmed; ``kubik load NAME`` continues the game (its bot sides are played
by heuristic bots unless ``--side`` says otherwise), ``kubik replay NAME`` prints
its narrated log (``--step``: one entry per Enter), ``kubik saves`` lists saves.

A person's prompt ends with ``quit`` (exit 0), or with the end of input (exit 1);
either way a saved game can be continued with ``kubik load NAME``.
"""

from __future__ import annotations

import difflib
import json
import sqlite3
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from kubik.api.battlescribe import scenario_with_roster
from kubik.api.words import say, side_label
from kubik.bots import bot_for
from kubik.cli.console.parse import Lang, parse_side_options
from kubik.cli.console.prompt import Flow, PromptLoop, secret_reader, stdin_reader
from kubik.cli.console.render import LogPrinter, print_summary
from kubik.cli.console.results import console_for_people
from kubik.cli.scenario_list import print_scenarios
from kubik.core.errors import InputError
from kubik.core.limits import DEFAULT_SEED
from kubik.engine.log import EventEntry, LogEntry
from kubik.engine.odds import OddsCache
from kubik.engine.requests import msg
from kubik.game import (
    HUMAN,
    Controller,
    DiceMode,
    GameRecord,
    GameSession,
    GameStore,
    RecordError,
    Scenario,
    ScenarioError,
    ScenarioSource,
    StoreError,
    get_ruleset,
    list_scenarios,
    load_scenario,
    parse_scenario,
)
from kubik.game.battle import TABLE_OPTION, BattleGame, BattleRuleset
from kubik.game.store import SavedGame, check_name

#: What ``kubik play`` plays when no scenario is named.
DEFAULT_SCENARIO = "steel_war.demo"
#: ``kubik play`` without ``--seed`` draws its seed from 1 to this.
NEW_SEEDS = 999_999
#: How many log entries ``kubik load`` shows before playing on.
RESUME_CONTEXT = 10

JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
SideOption = Annotated[
    list[str] | None,
    typer.Option(
        "--side",
        metavar="SIDE=KIND",
        help="Who plays a side: KIND is human, heuristic, fast, random or default (repeatable; "
        "`kubik scenarios` lists the sides).",
    ),
]
LangOption = Annotated[
    Lang, typer.Option("--lang", metavar="en|ru", help="Language of text: en or ru.")
]
SavedLangOption = Annotated[
    Lang | None,
    typer.Option("--lang", metavar="en|ru", help="Language of text (default: the save's)."),
]
NameArgument = Annotated[
    str, typer.Argument(metavar="NAME", help="The saved game's name (see `kubik saves`).")
]
QuietFlag = Annotated[bool, typer.Option("--quiet", "-q", help="Only the summary, no log.")]


def _console(stderr: bool = False) -> Console:
    return console_for_people(stderr=stderr)


def _emit_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


# -- finding things -------------------------------------------------------------


def find_scenario(name: str) -> Scenario:
    """A scenario by id or ``.toml`` path; an unknown id suggests the nearest ones."""
    if name.endswith(".toml") or Path(name).is_file():
        return load_scenario(name)
    infos = list_scenarios()
    ids = [info.id for info in infos if info.error is None]
    if name not in ids:
        for info in infos:
            if info.problem is not None and info.id == name:
                raise ScenarioError(info.problem)
        near = difflib.get_close_matches(name, ids, n=3, cutoff=0.5)
        hint: Any = msg("cli.scenario.near", near=tuple(near)) if near else ""
        known = ", ".join(ids)
        raise InputError(msg("cli.scenario.unknown", name=name, hint=hint, known=known))
    return load_scenario(name)


def new_seed() -> int:
    """A fresh seed for a game played without ``--seed`` (small, to type it again)."""
    import secrets

    return secrets.randbelow(NEW_SEEDS) + 1


def open_store_at(path: Path) -> GameStore:
    """The save store of ``kubik serve --store PATH`` (made if it does not exist), or
    one line saying why it cannot be."""
    try:
        return GameStore(path)
    except (OSError, sqlite3.Error) as error:
        raise StoreError(msg("cli.store.cannot_open", error=str(error))) from None


def open_store(*, to_read: bool = False) -> GameStore:
    """The user's save store; a store that cannot be opened is one line, not a traceback.

    ``to_read``: the command only reads (``saves``, ``replay``), so a store that cannot
    be written (a read-only file or directory) is opened read-only instead.
    """
    try:
        try:
            return GameStore()
        except StoreError:
            if not to_read:
                raise
            return GameStore(read_only=True)
    except (OSError, sqlite3.Error) as error:
        raise StoreError(msg("cli.store.cannot_open", error=str(error))) from None


def controllers_for(
    kinds: Mapping[str, str], seed: int, cache: OddsCache | None = None
) -> dict[str, Controller]:
    """Side → controller kind (human, heuristic ...) → what the session takes."""
    shared = cache if cache is not None else OddsCache()
    return {
        side: HUMAN if kind == HUMAN else bot_for(kind, seed, side, shared)
        for side, kind in kinds.items()
    }


def play_kinds(scenario: Scenario, sides: Sequence[str], table: bool) -> dict[str, str]:
    """Who plays each side of a new game (see the module docstring)."""
    kinds = {
        spec.id: HUMAN if table or spec.controller == HUMAN else "heuristic"
        for spec in scenario.sides
    }
    kinds.update(parse_side_options(sides, scenario.side_ids))
    return kinds


# -- playing --------------------------------------------------------------------


def _header(console: Console, session: GameSession, kinds: Mapping[str, str]) -> None:
    lang = session.lang
    scenario = session.scenario
    name = scenario.name_ru if lang == "ru" else scenario.name
    console.print(
        Text(say("console.play.header", lang, name=name, id=scenario.id, seed=session.seed), "bold")
    )
    parts = [
        f"{side_label(side, session.side_names, lang)}: {say(f'console.controller.{kind}', lang)}"
        for side, kind in kinds.items()
    ]
    console.print(" · ".join(parts))
    if session.dice_mode is DiceMode.TYPED:
        console.print(say("console.table.intro", lang), style="dim")


def run_session(
    session: GameSession,
    kinds: Mapping[str, str],
    *,
    as_json: bool,
    quiet: bool,
    save_name: str | None,
    replace_save: bool = False,
    printed: int = 0,
) -> None:
    """Play ``session`` to its end (asking people where needed) and print the result."""
    interactive = session.dice_mode is DiceMode.TYPED or HUMAN in kinds.values()
    console = _console(stderr=as_json)
    silent = as_json and not interactive
    printer = LogPrinter(
        console,
        session.lang,
        session.side_names,
        session.scenario.side_ids,
        shown=player_view(session, kinds),
    )
    printer.printed = printed
    printer.quiet = quiet or silent
    loop = PromptLoop(
        session,
        printer,
        stdin_reader(console),
        open_store=open_store,
        read_secret=secret_reader(console),
    )
    try:
        if save_name is not None:
            loop.attach(save_name, replace=replace_save)
        if not silent:
            _header(console, session, kinds)
            if printed and not quiet:
                answers = len(session.answers)
                console.print(say("console.load.resume", session.lang, name=save_name, n=answers))
                printer.print_entries(session.log[max(0, printed - RESUME_CONTEXT) : printed])
        flow = loop.run()
    except BaseException:
        lost = loop.close()
        if lost is not None:  # said before the error or Ctrl-C that ends the command
            loop.errors.print(lost.text(session.lang), style="red")
        raise
    lost = loop.close()
    lang = session.lang
    if flow is not Flow.FINISHED:
        console.print()
        if loop.save_name is not None:
            console.print(say("console.quit.saved", lang, name=loop.save_name), style="yellow")
        else:
            console.print(say("console.quit.unsaved", lang), style="yellow")
    if as_json:
        _emit_json(session.to_json())
    elif flow is Flow.FINISHED:
        side_names = session.side_names
        print_summary(console, session.result, lang, side_names, session.scenario.side_ids)
    if lost is not None:  # the game was played, but not all of it is saved: an error
        raise lost
    if flow is Flow.EOF:
        raise typer.Exit(1)


def player_view(
    session: GameSession, kinds: Mapping[str, str]
) -> Callable[[LogEntry], bool] | None:
    """What the screen may show when one person plays one side against bots: only what
    that side may read of the log (a battle's per-side view, as the web table shows it:
    hidden warriors, secret decisions). ``None`` (everything) for a game of bots, people
    sharing the screen, or a real table where everyone sees the models."""
    humans = [side for side, kind in kinds.items() if kind == HUMAN]
    if len(humans) != 1 or session.dice_mode is DiceMode.TYPED:
        return None
    side = humans[0]

    def shown(entry: LogEntry) -> bool:
        battle = session.state
        return not isinstance(battle, BattleGame) or battle.visible_to(side, entry)

    return shown


def table_options(scenario: Scenario, table: bool) -> dict[str, Any]:
    """The game option ``--table`` sets: people at a real table move and measure (a battle
    on the shared battle layer reads it; other games are left as they are)."""
    if not table or not isinstance(get_ruleset(scenario.ruleset), BattleRuleset):
        return {}
    return {TABLE_OPTION: True}


def play_command(
    scenario: Annotated[
        str | None,
        typer.Argument(
            metavar="[SCENARIO]",
            help=f"Scenario id or .toml path (default {DEFAULT_SCENARIO}; see `kubik scenarios`).",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", metavar="N", help="Seed of the virtual dice (default: a new one, printed)."
        ),
    ] = None,
    lang: LangOption = Lang.en,
    as_json: JsonFlag = False,
    save: Annotated[
        str | None,
        typer.Option(
            "--save", metavar="NAME", help="Save as NAME, each answer as it is confirmed."
        ),
    ] = None,
    table: Annotated[
        bool,
        typer.Option("--table", help="Referee a real table: people type dice; all sides human."),
    ] = False,
    side: SideOption = None,
    quiet: QuietFlag = False,
    roster: Annotated[
        list[str] | None,
        typer.Option(
            "--roster",
            metavar="SIDE=FILE",
            help="A BattleScribe / New Recruit roster (.ros, .rosz) for a side (repeatable).",
        ),
    ] = None,
) -> None:
    """Play a whole battle: bots, people, or both; --table referees a real table."""
    found = find_scenario(scenario or DEFAULT_SCENARIO)
    if seed is None:  # a new game each time; the header (and --json) says its seed
        seed = new_seed()
    for spec in roster or ():
        found = scenario_with_roster(found, spec)
    kinds = play_kinds(found, side or (), table)
    if save is not None:
        check_name(save)
    session = GameSession(
        found,
        seed,
        controllers=controllers_for(kinds, seed),
        dice=DiceMode.TYPED if table else DiceMode.VIRTUAL,
        lang=lang.value,
        options=table_options(found, table),
    )
    run_session(session, kinds, as_json=as_json, quiet=quiet, save_name=save)


def _loaded(
    record: GameRecord, table: bool, lang: str | None, sides: Sequence[str]
) -> tuple[GameSession, dict[str, str]]:
    scenario = parse_scenario(record.scenario_toml, record.scenario, ScenarioSource.RECORD)
    saved = dict(record.controllers)
    kinds = {
        spec.id: HUMAN
        if saved.get(spec.id, spec.controller) == HUMAN
        else record.bot_name(spec.id) or "heuristic"
        for spec in scenario.sides
    }
    kinds.update(parse_side_options(sides, scenario.side_ids))
    session = GameSession(
        scenario,
        record.seed,
        controllers=controllers_for(kinds, record.seed),
        dice=DiceMode.TYPED if table else record.dice,
        lang=lang or record.lang,
        options={**dict(record.options), **table_options(scenario, table)},
        answers=record.answers,
    )
    return session, kinds


@contextmanager
def _naming_the_save(name: str) -> Iterator[None]:
    """A save whose answers or scenario do not replay: the error names the save."""
    try:
        yield
    except (RecordError, ScenarioError) as error:
        inner = error.said()
        raise RecordError(msg("game.store.in_save", name=name, error=inner)) from None


def load_command(
    name: NameArgument,
    table: Annotated[
        bool, typer.Option("--table", help="Go on with dice typed in at the table.")
    ] = False,
    as_json: JsonFlag = False,
    lang: SavedLangOption = None,
    side: SideOption = None,
    quiet: QuietFlag = False,
) -> None:
    """Continue a saved game (a finished one prints its summary)."""
    with open_store() as store:
        record = store.load(check_name(name))
    with _naming_the_save(name):
        session, kinds = _loaded(record, table, lang.value if lang else None, side or ())
    if session.finished:
        if as_json:
            _emit_json(session.to_json())
            return
        console = _console()
        names = session.side_names
        print_summary(console, session.result, session.lang, names, session.scenario.side_ids)
        return
    run_session(
        session,
        kinds,
        as_json=as_json,
        quiet=quiet,
        save_name=name,
        replace_save=True,
        printed=len(session.log),
    )


def _starts_turn(entry: LogEntry) -> bool:
    return isinstance(entry, EventEntry) and entry.event.id == "game.turn"


def replay_command(
    name: NameArgument,
    lang: SavedLangOption = None,
    step: Annotated[
        bool,
        typer.Option(
            "--step", help="One entry per Enter; t: to the next turn, t N: to turn N; q stops."
        ),
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """Print a saved game's narrated log (rebuilt from its answers alone)."""
    with open_store(to_read=True) as store:
        record = store.load(check_name(name))
    language = lang.value if lang else record.lang
    with _naming_the_save(name):
        session = GameSession.from_record(record)
    if as_json:
        _emit_json(session.to_json(language))
        return
    console = _console()
    printer = LogPrinter(console, language, session.side_names, session.scenario.side_ids)
    read = stdin_reader(console)
    prompt = say("console.replay.step", language)
    log = session.log
    skip_to: int | None = None  # the turn `t` jumps to: entries before it print at once
    turn = 0
    for index, entry in enumerate(log):
        if _starts_turn(entry):
            turn += 1
        printer.print_entries([entry])
        if not step or index + 1 >= len(log):
            continue
        if skip_to is not None and not (_starts_turn(log[index + 1]) and turn + 1 >= skip_to):
            continue
        skip_to = None
        line = read(prompt)
        if line is None:
            step = False
            continue
        word, _, number = line.strip().lower().partition(" ")
        if word in {"q", "quit", "выход"}:
            return
        if word in {"t", "turn", "х", "ход"}:
            skip_to = int(number) if number.strip().isdigit() else turn + 1
    side_names = session.side_names
    print_summary(console, session.result, language, side_names, session.scenario.side_ids)


def board_command(
    name: NameArgument,
    svg: Annotated[
        Path | None, typer.Option("--svg", metavar="FILE", help="Draw the table into an SVG file.")
    ] = None,
    png: Annotated[
        Path | None, typer.Option("--png", metavar="FILE", help="Draw the table into a PNG file.")
    ] = None,
    side: Annotated[
        str | None,
        typer.Option("--side", metavar="SIDE", help="Only what SIDE sees (default: everything)."),
    ] = None,
    unit: Annotated[
        str | None,
        typer.Option(
            "--unit", metavar="UNIT", help="Draw how far UNIT (A2, or its id) moves and shoots."
        ),
    ] = None,
    lang: SavedLangOption = None,
) -> None:
    """Draw a saved game's table as it stands: in the terminal, or into an SVG or PNG file."""
    from kubik.api.drawing import board_scene, write_scene
    from kubik.cli.console.board import print_board
    from kubik.cli.outputs import check_writable

    for option, path, suffix in (("--svg", svg, ".svg"), ("--png", png, ".png")):
        if path is not None:
            check_writable(option, path, (suffix,))
    with open_store(to_read=True) as store:
        record = store.load(check_name(name))
    language = lang.value if lang else record.lang
    with _naming_the_save(name):
        session = GameSession.from_record(record)
    if side is not None and side not in session.scenario.side_ids:
        known = ", ".join(session.scenario.side_ids)
        raise InputError(msg("cli.board.bad_side", side=side, known=known))
    scene = board_scene(session, language, side, selected=unit)
    console = _console()
    if svg is None and png is None:
        print_board(console, scene, language)
        return
    for option, path in (("--svg", svg), ("--png", png)):
        if path is not None:
            write_scene(scene, path, option)
            console.print(say("cli.board.written", language, path=str(path)), style="dim")


def _state(game: SavedGame, lang: str) -> Text:
    if game.error is not None:
        return Text(say("cli.saves.bad", lang, error=game.problem or game.error), style="red")
    if game.finished:
        return Text(say("cli.saves.finished", lang, n=game.turn or 0))
    if game.turn is None:
        return Text(say("cli.saves.not_started", lang))
    return Text(say("cli.saves.turn", lang, n=game.turn))


def print_saves(console: Console, games: Sequence[SavedGame], lang: str) -> None:
    """The saved games for people: scenario, how far each got, how it is played."""
    if not games:
        console.print(say("cli.saves.empty", lang))
        return
    table = Table(title=say("cli.saves.title", lang))
    table.add_column(say("cli.saves.name", lang), style="bold", no_wrap=True)
    table.add_column(say("cli.saves.scenario", lang))
    table.add_column(say("cli.saves.state", lang), ratio=1)
    table.add_column(say("cli.saves.mode", lang))
    table.add_column(say("cli.saves.updated", lang))
    for game in games:
        updated = game.updated.replace("T", " ").removesuffix("Z")[:16]
        mode = say(f"cli.saves.mode.{game.mode}", lang) if game.mode else "?"
        table.add_row(game.name, game.scenario, _state(game, lang), mode, updated)
    console.print(table)
    console.print(say("cli.saves.hint", lang), style="dim")


def saves_command(
    delete: Annotated[
        str | None, typer.Option("--delete", metavar="NAME", help="Delete the saved game NAME.")
    ] = None,
    rename: Annotated[
        tuple[str, str] | None,
        typer.Option("--rename", metavar="OLD NEW", help="Give the saved game OLD the name NEW."),
    ] = None,
    as_json: JsonFlag = False,
    lang: LangOption = Lang.en,
) -> None:
    """List the saved games (scenario, turn, finished or not, mode); delete or rename one."""
    with open_store(to_read=delete is None and rename is None) as store:
        if delete is not None:
            store.delete(check_name(delete))
            _console().print(say("cli.saves.deleted", lang.value, name=delete))
            return
        if rename is not None:
            old, new = rename
            store.rename(check_name(old), check_name(new))
            _console().print(say("cli.saves.renamed", lang.value, old=old, new=new))
            return
        games = store.list(progress=True)
    if as_json:
        _emit_json([game.to_json() for game in games])
        return
    print_saves(_console(), games, lang.value)


# -- scenarios ------------------------------------------------------------------


def scenarios_command(
    as_json: JsonFlag = False,
    lang: LangOption = Lang.en,
    check: Annotated[
        bool,
        typer.Option("--check", help="Ask each scenario's ruleset whether it can play it."),
    ] = False,
) -> None:
    """List the built-in and user scenarios, with the side ids `--side` takes."""
    print_scenarios(lang.value, as_json=as_json, check=check)


def register_play_commands(app: typer.Typer) -> None:
    """Add the game commands to the ``kubik`` app."""
    app.command("scenarios")(scenarios_command)
    app.command("play")(play_command)
    app.command("load")(load_command)
    app.command("replay")(replay_command)
    app.command("board")(board_command)
    app.command("saves")(saves_command)


__all__ = [
    "DEFAULT_SCENARIO",
    "DEFAULT_SEED",
    "controllers_for",
    "find_scenario",
    "open_store",
    "open_store_at",
    "play_kinds",
    "player_view",
    "register_play_commands",
    "run_session",
]
