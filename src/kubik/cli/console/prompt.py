"""The prompt loop: asks people for dice and decisions until the game ends or they quit.

Every question accepts the same commands (English or Russian words): ``undo``
(back to before the last roll), ``undo decision`` (back to before the last
decision a person took), ``log`` (recent narration), ``save [NAME]``, ``luck`` (how
lucky the last resolved action was; ``luck on`` shows it after every one), ``help``
and ``quit``. A bad answer is one line saying what is allowed, and the
same question is asked again: nothing is lost. Input is read line by line from a
reader (plain ``sys.stdin`` by default), so a test can drive it through a pipe
or a pseudo-terminal. A sealed decision (a secret bid, OW-HERO-03) is read with a
second reader that does not show what is typed, as a password is read
(:func:`secret_reader`), so the next bidder at a shared terminal never sees it.
"""

from __future__ import annotations

import getpass
import sys
from collections.abc import Callable
from contextlib import suppress
from enum import Enum
from typing import Any

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from kubik.api.odds_words import field_label
from kubik.api.words import option_text, say
from kubik.cli.console.parse import split_values
from kubik.cli.console.render import (
    LogPrinter,
    print_choice_request,
    print_option_details,
    print_roll_request,
)
from kubik.core.errors import KubikError
from kubik.engine.log import Answer
from kubik.engine.observed import luck
from kubik.engine.odds import OddsCache
from kubik.engine.requests import Choose, Roll, msg
from kubik.game.errors import StoreError
from kubik.game.session import GameSession
from kubik.game.store import GameStore, SaveKeeper, check_name
from kubik.text.i18n import render

#: Reads one line after showing a prompt; ``None`` at the end of input.
Reader = Callable[[str], str | None]

#: Command words (and their Russian twins) → the command.
COMMANDS: dict[str, str] = {
    "undo": "undo",
    "отмена": "undo",
    "log": "log",
    "журнал": "log",
    "map": "map",
    "карта": "map",
    "save": "save",
    "сохранить": "save",
    "luck": "luck",
    "везение": "luck",
    "help": "help",
    "?": "help",
    "помощь": "help",
    "quit": "quit",
    "exit": "quit",
    "выход": "quit",
}
#: Words after ``undo`` that step back one decision instead of to the last roll.
UNDO_DECISION = frozenset({"decision", "choice", "решение", "решения", "выбор"})
#: How many entries the ``log`` command shows.
RECENT = 15


class Flow(Enum):
    """How a prompt loop ended."""

    FINISHED = "finished"  # the game is over
    QUIT = "quit"  # a person typed quit
    EOF = "eof"  # the input ran out


def stdin_reader(console: Console) -> Reader:
    """Shows the prompt on ``console`` and reads a line of ``sys.stdin``."""

    def read(prompt: str) -> str | None:
        console.print(Text(prompt), end="")
        console.file.flush()
        line = sys.stdin.readline()
        return None if line == "" else line.rstrip("\r\n")

    return read


def secret_reader(console: Console) -> Reader:
    """Shows the prompt on ``console`` and reads a line of ``sys.stdin`` without echoing it
    when ``sys.stdin`` is a terminal (as :func:`getpass.getpass` reads a password); a pipe
    has nothing to hide and is read as it is."""
    plain = stdin_reader(console)

    def read(prompt: str) -> str | None:
        if not sys.stdin.isatty():
            return plain(prompt)
        console.file.flush()
        try:
            return getpass.getpass(prompt).rstrip("\r\n")
        except EOFError:
            return None

    return read


class _Again(Enum):
    ASK = "ask"  # the same question again (help, log, save, a rejected answer)
    ADVANCE = "advance"  # the game moved (an answer, an undo): find the next question


class _LiveLog:
    """Prints the log as answers are confirmed and reports a save falling behind."""

    def __init__(self, loop: PromptLoop) -> None:
        self.loop = loop

    def answered(self, index: int, answer: Answer) -> None:
        self.loop.printer.catch_up(self.loop.session.log)
        self.loop.report_saving()

    def truncated(self, length: int) -> None:
        """An undo: the prompt loop reprints what it needs."""


class PromptLoop:
    """Plays a session on, asking people whenever the session waits for one."""

    def __init__(
        self,
        session: GameSession,
        printer: LogPrinter,
        read: Reader,
        *,
        save_name: str | None = None,
        open_store: Callable[[], GameStore] | None = None,
        cache: OddsCache | None = None,
        read_secret: Reader | None = None,
    ) -> None:
        """``read_secret``: how a sealed decision is read (typed out of sight); default
        ``read``."""
        self.session = session
        self.printer = printer
        self.console = printer.console
        self.errors = Console(highlight=False, soft_wrap=False, stderr=True)
        self.lang = session.lang
        self.read = read
        self.read_secret = read_secret if read_secret is not None else read
        self.save_name = save_name
        self._open_store = open_store
        self.store: GameStore | None = None
        self.keeper: SaveKeeper | None = None
        self.cache = cache if cache is not None else OddsCache()
        self._behind = False
        self._live = False
        self.show_luck = False
        self._actions_seen = 0

    def run(self) -> Flow:
        """Play until the game ends, or a person quits, or the input ends.

        The log is printed as the game goes (a long battle of bots narrates while it
        plays, and Ctrl-C stops it where it is), not only when a person is asked.
        """
        if not self._live:
            self.session.subscribe(_LiveLog(self))
            self._live = True
        while True:
            pending = self.session.advance()
            self.printer.catch_up(self.session.log)
            if self.show_luck and self.session.actions != self._actions_seen:
                self._luck()
            self._actions_seen = self.session.actions
            self.report_saving()
            if pending is None:
                return Flow.FINISHED
            flow = self._ask(pending)
            if flow is not None:
                return flow

    def say(self, message_id: str, style: str = "", **params: object) -> None:
        """Print a console message."""
        self.console.print(Text(say(message_id, self.lang, **params), style=style))

    def warn(self, message_id: str, **params: object) -> None:
        """Print a warning on stderr (seen under ``--quiet`` and beside ``--json`` too)."""
        self.errors.print(Text(say(message_id, self.lang, **params), style="yellow"))

    # -- one question ---------------------------------------------------------

    def _show(self, request: Roll | Choose) -> None:
        names = self.session.side_names
        if isinstance(request, Roll):
            print_roll_request(self.console, request, self.lang, self.session.roller_names)
        else:
            print_choice_request(self.console, request, self.lang, names, self.cache)
            if request.entry is not None:  # people at a real table may type what they did
                self.console.print(Text(render(request.entry.hint, self.lang), style="dim"))

    def _ask(self, request: Roll | Choose) -> Flow | None:
        self._show(request)
        prompt = say(
            "console.prompt.roll" if isinstance(request, Roll) else "console.prompt.choose",
            self.lang,
        )
        secret = isinstance(request, Choose) and request.sealed
        if secret:
            self.say("console.prompt.sealed", "dim")
        while True:
            line = (self.read_secret if secret else self.read)(prompt)
            if line is None:
                return Flow.EOF
            text = line.strip()
            word, _, argument = text.partition(" ")
            if word == "?" and argument.strip().isdigit() and isinstance(request, Choose):
                number = int(argument)  # `? 3`: option 3 in full
                if not print_option_details(self.console, request, number, self.lang, self.cache):
                    self.say("console.choose.bad", "red", text=text, n=len(request.options))
                continue
            command = COMMANDS.get(word.lower())
            if command is not None:
                outcome = self._command(command, argument.strip())
            elif isinstance(request, Roll):
                outcome = self._roll(request, text)
            else:
                outcome = self._choose(request, text)
            if isinstance(outcome, Flow):
                return outcome
            if outcome is _Again.ADVANCE:
                return None

    def _roll(self, request: Roll, text: str) -> _Again:
        values = split_values(text)
        if not values:
            self.say("console.roll.empty", "yellow", n=len(request.dice))
            return _Again.ASK
        try:
            self.session.roll(values)
        except KubikError as error:
            self.say("console.rejected", "red", error=error.text(self.lang))
            return _Again.ASK
        return _Again.ADVANCE

    def _choose(self, request: Choose, text: str) -> _Again:
        option = self._option(request, text)
        if option is None and request.entry is not None:
            try:
                self.session.type_answer(text)
            except KubikError as error:  # the rules' reason, in the player's language
                self.say("console.rejected", "red", error=error.text(self.lang))
                return _Again.ASK
            return _Again.ADVANCE
        if option is None:
            if len(request.options) == 1:
                self.say("console.choose.bad_one", "red", text=text)
            else:
                self.say("console.choose.bad", "red", text=text, n=len(request.options))
            return _Again.ASK
        try:
            self.session.answer(option[0])
        except KubikError as error:
            self.say("console.rejected", "red", error=error.text(self.lang))
            return _Again.ASK
        return _Again.ADVANCE

    def _option(self, request: Choose, text: str) -> tuple[object] | None:
        """The option ``text`` names: empty = the default, a number, or the option's label."""
        if not text:
            return (request.default,)
        if text.isdigit():
            number = int(text)
            return (request.options[number - 1],) if 1 <= number <= len(request.options) else None
        for option in request.options:
            if option_text(request, option, self.lang).casefold() == text.casefold():
                return (option,)
        return None

    # -- commands -------------------------------------------------------------

    def _command(self, command: str, argument: str) -> Flow | _Again:
        if command == "undo":
            decision = argument.lower() in UNDO_DECISION
            try:
                dropped = self.session.undo_decision() if decision else self.session.undo()
            except KubikError as error:
                self.say("console.rejected", "red", error=error.text(self.lang))
                return _Again.ASK
            self.printer.printed = len(self.session.log)
            done = "console.undo.decision_done" if decision else "console.undo.done"
            self.say(done, "yellow", n=dropped)
            return _Again.ADVANCE
        if command == "log":
            self.console.print(Rule(say("console.log.title", self.lang)))
            self.printer.print_entries(self.session.log[-RECENT:])
            self.console.print(Rule())
            return _Again.ASK
        if command == "save":
            self._save(argument)
            return _Again.ASK
        if command == "map":
            self._map(argument or None)
            return _Again.ASK
        if command == "luck":
            if argument.lower() in ("on", "вкл"):
                self.show_luck = True
            elif argument.lower() in ("off", "выкл"):
                self.show_luck = False
            else:
                self._luck()
            return _Again.ASK
        if command == "help":
            self.say("console.help")
            return _Again.ASK
        return Flow.QUIT

    def _map(self, unit: str | None = None) -> None:
        """The table as it is now, as the side asked sees it (a real table: everything);
        ``map A2``: with the reach of unit A2 drawn round it (its move, its weapons)."""
        from kubik.api.drawing import board_scene, option_spots
        from kubik.cli.console.board import print_board

        request = self.session.pending
        # a person playing a side sees what that side sees; at a real table, everything
        side = request.side if isinstance(request, Choose) and not self._at_table() else None
        spots = option_spots(request.options) if isinstance(request, Choose) else ()
        try:
            scene = board_scene(self.session, self.lang, side, spots, unit)
        except KubikError as error:
            self.say("console.rejected", "red", error=error.text(self.lang))
            return
        print_board(self.console, scene, self.lang)

    def _at_table(self) -> bool:
        from kubik.game.session import DiceMode

        return self.session.dice_mode is DiceMode.TYPED

    def _luck(self) -> None:
        """How lucky the last resolved action was: per field, its chance, the chance of
        doing at least as well, and its percentile (exact odds of the rule itself)."""
        placed: dict[str, Any] | None = None
        for procedure, args, outcome in reversed(self.session.recent_actions):
            placed = luck(procedure, args, outcome, self.cache)  # the last one with numbers
            if placed is not None and any("percentile" in r for r in placed["fields"].values()):
                break
            placed = None
        if placed is None:
            self.say("console.luck.none", "yellow")
            return
        self.say("console.luck.title", "bold", p=placed["p"])
        for field, row in placed["fields"].items():
            if "percentile" not in row:
                continue
            self.say(
                "console.luck.field",
                field=field_label(field, self.lang),
                value=row["value"],
                p=row["p"],
                at_least=row["p_at_least"],
                percentile=row["percentile"],
            )

    def attach(self, name: str, *, replace: bool = False) -> None:
        """Save the game as ``name`` now, and every answer from now on as it is confirmed.

        An existing save of that name is kept (an error) unless ``replace``.
        """
        check_name(name)
        store = self._store()
        if not replace and store.exists(name):
            raise StoreError(msg("console.save.exists", name=name))
        self.keeper = store.attach(name, self.session)
        self.save_name = name

    def report_saving(self) -> None:
        """One line when the save falls behind (a store locked by another program),
        and one when it has caught up; the answers are kept either way."""
        keeper = self.keeper
        if keeper is None:
            return
        if keeper.problem is not None and not self._behind:
            self._behind = True
            error = keeper.problem.text(self.lang)
            self.warn("console.save.behind", name=keeper.name, error=error)
        elif keeper.problem is None and self._behind:
            self._behind = False
            self.warn("console.save.caught_up", name=keeper.name)

    def _save(self, name: str) -> None:
        if not name or name == self.save_name:
            if self.save_name is None:
                self.say("console.save.need_name", "yellow")
            elif self.keeper is not None and not self.keeper.flush():
                self.report_saving()
                self.say("console.save.still_behind", "yellow", n=self.keeper.unsaved)
            else:
                self.report_saving()
                self.say("console.save.done", "green", name=self.save_name)
            return
        try:
            self.attach(name)
        except KubikError as error:
            self.say("console.rejected", "red", error=error.text(self.lang))
            return
        self.say("console.save.done", "green", name=name)

    def _store(self) -> GameStore:
        if self.store is None:
            opener = self._open_store if self._open_store is not None else GameStore
            self.store = opener()
        return self.store

    def close(self) -> StoreError | None:
        """Write what is still waiting, remember how far the game came, close the store.

        Returns the error that kept answers out of the save (the store refused the last
        write: a full disk, a read-only store), for the command to end with; ``None``
        when everything confirmed is saved.
        """
        keeper = self.keeper
        lost: StoreError | None = None
        if keeper is not None and self.store is not None:
            if not keeper.flush():
                error = keeper.problem.text(self.lang) if keeper.problem else ""
                lost = StoreError(
                    msg("cli.save.lost", name=keeper.name, n=keeper.unsaved, error=error)
                )
            else:
                self.report_saving()
                with suppress(KubikError):  # the list of saves works it out again
                    self.store.note_progress(keeper.name, self.session)
        self.keeper = None
        if self.store is not None:
            self.store.close()
            self.store = None
        return lost


__all__ = [
    "COMMANDS",
    "RECENT",
    "UNDO_DECISION",
    "Flow",
    "PromptLoop",
    "Reader",
    "secret_reader",
    "stdin_reader",
]
