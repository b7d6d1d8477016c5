"""Printing a game for people with rich: the log grouped by turn, sides in colour.

The log is the session's own (structured entries narrated by
:func:`kubik.game.narrate.entry_text`); here it only gets its layout: a rule per
turn, indentation by depth, a die mark (🎲 rolled by kubik, ✍ typed in at the
table), and each side's decisions and rolls in that side's colour.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from kubik.api.odds_words import field_sentences, headline
from kubik.api.words import (
    count_label,
    option_text,
    roller_label,
    say,
    side_label,
)
from kubik.cli.console.wrap import print_wrapped
from kubik.engine.forecast import expected_value, forecast_distribution
from kubik.engine.log import ChoiceEntry, DiceOrigin, EventEntry, LogEntry, RollEntry
from kubik.engine.odds import OddsCache
from kubik.engine.requests import Choose, Message, Roll
from kubik.game.core import GameResult
from kubik.game.narrate import entry_text

#: Colours of the sides, in scenario order.
SIDE_STYLES: tuple[str, ...] = ("cyan", "magenta", "green", "yellow", "blue", "red")


class LogPrinter:
    """Prints log entries for people, remembering how far it has printed.

    ``shown``, when given, says which entries the people at this screen may read (a
    player facing bots sees what his side sees, as a battle's per-side view tells:
    :meth:`~kubik.game.battle.BattleGame.visible_to`); the others are passed over."""

    def __init__(
        self,
        console: Console,
        lang: str,
        side_names: Mapping[str, Message],
        sides: Sequence[str],
        shown: Callable[[LogEntry], bool] | None = None,
    ) -> None:
        self.console = console
        self.lang = lang
        self.side_names = side_names
        self.styles = {side: SIDE_STYLES[i % len(SIDE_STYLES)] for i, side in enumerate(sides)}
        self.shown = shown
        self.printed = 0
        self.quiet = False  # catch_up only keeps count (the summary still prints)

    def body(self, entry: LogEntry) -> tuple[int, Text]:
        """One entry as its indent (by depth) and its styled text."""
        text = entry_text(entry, self.lang, self.side_names)
        indent = 2 * entry.depth
        if isinstance(entry, RollEntry):
            mark = "✍ " if entry.origin is DiceOrigin.TYPED else "🎲 "
            return indent, Text(mark + text, style=self.styles.get(entry.roller, ""))
        if isinstance(entry, ChoiceEntry):
            return indent, Text("▸ " + text, style=self.styles.get(entry.side, "bold"))
        if entry.event.id.startswith(("game.started", "game.ended")):
            return indent, Text(text, style="bold")
        return indent, Text(text)

    def line(self, entry: LogEntry) -> Text:
        """One entry as a styled line (indented by its depth)."""
        indent, text = self.body(entry)
        return Text(" " * indent) + text

    def print_entries(self, entries: Sequence[LogEntry]) -> None:
        """Print ``entries`` (those :attr:`shown`), wrapped at the terminal's width; a new
        turn starts with a rule."""
        shown = self.shown
        for entry in entries:
            if shown is not None and not shown(entry):
                continue
            if isinstance(entry, EventEntry) and entry.event.id == "game.turn":
                self.console.print(Rule(entry_text(entry, self.lang, self.side_names)))
            else:
                indent, text = self.body(entry)
                print_wrapped(self.console, text, indent, 2)

    def catch_up(self, log: Sequence[LogEntry]) -> None:
        """Print what the log gained since the last call (after an undo: nothing)."""
        if self.printed < len(log) and not self.quiet:
            self.print_entries(log[self.printed :])
        self.printed = len(log)


def print_summary(
    console: Console,
    result: GameResult | None,
    lang: str,
    side_names: Mapping[str, Message],
    sides: Sequence[str],
) -> None:
    """Who won, after how many turns, and each side's counts (casualties, units left)."""
    console.print(Rule(say("console.summary.title", lang)))
    if result is None:
        console.print(say("console.summary.unfinished", lang))
        return
    if result.winner is None:
        console.print(Text(say("console.summary.draw", lang), style="bold"))
    else:
        winner = side_label(result.winner, side_names, lang)
        console.print(Text(say("console.summary.winner", lang, side=winner), style="bold"))
    console.print(say("console.summary.turns", lang, n=result.turns))
    names: list[str] = []
    for item in result.summary:
        names += [name for name, _ in item.counts if name not in names]
    if not names:
        return
    # one row per count and one column per side: long count names never squeeze the table
    table = Table(show_edge=False)
    table.add_column("")
    for side in sides:
        table.add_column(side_label(side, side_names, lang), justify="right")
    for name in names:
        table.add_row(count_label(name, lang), *(str(result.side(s).count(name)) for s in sides))
    console.print(table)


def print_roll_request(
    console: Console, request: Roll, lang: str, side_names: Mapping[str, Message]
) -> None:
    """The question for the table: which dice, why, and who rolls them."""
    console.print(
        Text(say("console.roll.ask", lang, dice=request.dice, reason=request.reason), "bold")
    )
    if request.roller:
        console.print(
            say("console.roll.roller", lang, who=roller_label(request.roller, side_names, lang))
        )
    console.print(say("console.roll.enter", lang, n=len(request.dice)), style="dim")


def print_choice_request(
    console: Console,
    request: Choose,
    lang: str,
    side_names: Mapping[str, Message],
    cache: OddsCache,
) -> None:
    """A decision: one line per option with the one figure that sums it up (``? N``
    shows an option's odds in full)."""
    side = side_label(request.side, side_names, lang)
    console.print(Text(say("console.choose.ask", lang, side=side, reason=request.reason), "bold"))
    width = len(str(len(request.options)))
    for group, numbered in _groups(request.options):
        if group is not None:
            console.print(Text(say(f"console.choose.group.{group}", lang), "underline"))
        for number, option in numbered:
            marker = say("console.choose.default_mark", lang) if option == request.default else ""
            line = Text(f"{number:>{width}}. {option_text(request, option, lang)}{marker}")
            figure = _headline(request, option, cache, lang)
            if figure is not None:
                line.append(f" — {figure}", style="dim")
            print_wrapped(console, line, 2, width + 2)
    if len(request.options) == 1:
        enter = say("console.choose.enter_one", lang)
    else:
        default = request.options.index(request.default) + 1
        enter = say("console.choose.enter", lang, n=len(request.options), default=default)
    print_wrapped(console, Text(enter, "dim"))


#: Option types by what they do, for long menus: (group, type names), in the order shown.
OPTION_GROUPS = (
    ("fire", frozenset({"Fire", "ShootAt"})),
    ("move", frozenset({"Move", "MoveTo", "Charge", "ChargePlan"})),
)
#: A menu of at least this many options is shown in groups (fire, move, other).
GROUPED_FROM = 8


def _groups(options: Sequence[Any]) -> list[tuple[str | None, list[tuple[int, Any]]]]:
    """The options, numbered as asked, in groups when the menu is long and mixed: fire,
    move, other (each option keeps its number); else one group without a title."""
    numbered = list(enumerate(options, start=1))
    if len(options) < GROUPED_FROM:
        return [(None, numbered)]
    grouped: dict[str, list[tuple[int, Any]]] = {name: [] for name, _ in OPTION_GROUPS}
    grouped["other"] = []
    for number, option in numbered:
        kind = type(option).__name__
        name = next((group for group, kinds in OPTION_GROUPS if kind in kinds), "other")
        grouped[name].append((number, option))
    shown = [(name, items) for name, items in grouped.items() if items]
    if len(shown) < 2:
        return [(None, numbered)]
    return [(name, items) for name, items in shown]


def _distribution(forecast: Any, cache: OddsCache) -> list[tuple[Any, float]] | None:
    distribution = forecast_distribution(forecast, cache)
    if distribution is None:
        return None
    return [(outcome, float(p)) for outcome, p in distribution.items()]


def _headline(request: Choose, option: Any, cache: OddsCache, lang: str) -> str | None:
    forecast = request.forecast(option)
    if forecast is None:
        return None
    rows = _distribution(forecast, cache)
    return headline(rows, lang) if rows else None


def print_option_details(
    console: Console, request: Choose, number: int, lang: str, cache: OddsCache
) -> bool:
    """Option ``number`` of ``request`` in full: each field's odds in a sentence and what
    it is worth to the side deciding; False when there is no such option."""
    if not 1 <= number <= len(request.options):
        return False
    option = request.options[number - 1]
    console.print(Text(f"{number}. {option_text(request, option, lang)}", "bold"))
    forecast = request.forecast(option)
    if forecast is None:
        console.print(Text(say("console.choose.no_odds", lang), "dim"))
        return True
    rows = _distribution(forecast, cache)
    for sentence in field_sentences(rows or [], lang):
        print_wrapped(console, Text(sentence), 3, 2)
    worth = float(expected_value(forecast, cache))
    print_wrapped(console, Text(say("console.odds.expected", lang, value=worth), "dim"), 3, 2)
    return True


__all__ = [
    "SIDE_STYLES",
    "LogPrinter",
    "print_choice_request",
    "print_option_details",
    "print_roll_request",
    "print_summary",
]
