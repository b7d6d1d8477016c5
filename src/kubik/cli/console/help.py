"""The ``kubik`` command's conventions: clean help, ``--version``, usage errors in two languages.

Typer ≥ 0.29 prints its own type labels (``<bool>``, ``<str>``, ``<list[str]>``) beside
every option and argument; kubik's help names values by their metavar (``N``,
``NAME``, ``SIDE=KIND``) and shows nothing beside a flag. :class:`HelpGroup` gives
every sub-command that (commands added later, too), without touching Typer itself.

Every command's help is said in the language of the command line (``--lang ru``, or
``KUBIK_LANG``/the config file, which the launcher turns into ``--lang``): the Russian
comes from a gettext catalogue keyed by the English text the command line declares
(``locale/ru/help/cli.po``, :func:`translated`), so a help text changed in English and
not in Russian is found by the test that reads every command's help under ``--lang ru``.

Usage errors (an unknown option, a missing value ...) come from Click in English;
:func:`usage_error_text` says them in Russian under ``--lang ru``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import typer
from typer import rich_utils
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from kubik.api.words import say

#: The language help is printed in: the command line's (set by :func:`help_in`).
_HELP_LANG = ["en"]
#: The Russian of every help text, keyed by its English (``msgctxt "metavar"``: values).
_CATALOGUE = Path(__file__).resolve().parents[2] / "text" / "locale" / "ru" / "help" / "cli.po"
#: typer's own words in its help panels (module constants it reads as it prints).
_TYPER_WORDS = (
    ("ARGUMENTS_PANEL_TITLE", "Arguments"),
    ("OPTIONS_PANEL_TITLE", "Options"),
    ("COMMANDS_PANEL_TITLE", "Commands"),
    ("DEFAULT_STRING", "[default: {}]"),
    ("REQUIRED_LONG_STRING", "[required]"),
)


def help_in(lang: str) -> None:
    """Print the commands' help in ``lang`` from now on (the command line's language)."""
    _HELP_LANG[0] = lang


@cache
def _russian() -> dict[tuple[str | None, str], str]:
    from babel.messages.pofile import read_po

    with _CATALOGUE.open("rb") as handle:
        return {
            (message.context, str(message.id)): str(message.string)
            for message in read_po(handle, locale="ru")
            if message.id and message.string
        }


def translated(text: str, lang: str, *, metavar: bool = False) -> str:
    """A help text (or, ``metavar``, the name of a value) in ``lang``: the English as
    declared, or its Russian from the catalogue (the text itself when it has none).

    >>> translated("Show this message and exit.", "ru"), translated("NAME", "ru", metavar=True)
    ('Показать эту справку и выйти.', 'ИМЯ')
    """
    if lang == "en":
        return text
    key = text if metavar else " ".join(text.split())
    return _russian().get(("metavar" if metavar else None, key), text)


def untranslated(texts: Iterator[str] | list[str], *, metavar: bool = False) -> list[str]:
    """The help texts (or names of values) the Russian catalogue does not have."""
    context = "metavar" if metavar else None
    known = _russian()
    return [t for t in texts if (context, t if metavar else " ".join(t.split())) not in known]


@contextmanager
def _said_in(command: Any, ctx: Any, lang: str) -> Iterator[None]:
    """While a command's help is printed: its texts, its values' names and typer's own
    words in ``lang`` (put back afterwards: the objects live on)."""
    if lang == "en":
        yield
        return
    saved: list[tuple[Any, str, Any]] = []

    def put(owner: Any, name: str, value: Any) -> None:
        saved.append((owner, name, getattr(owner, name)))
        setattr(owner, name, value)

    for name, english in _TYPER_WORDS:
        put(rich_utils, name, translated(english, lang))
    if command.help:
        put(command, "help", translated(command.help, lang))
    put(command, "options_metavar", translated(command.options_metavar, lang, metavar=True))
    for param in command.get_params(ctx):
        if getattr(param, "help", None):
            put(param, "help", translated(param.help, lang))
        if param.metavar:
            put(param, "metavar", translated(param.metavar, lang, metavar=True))
    try:
        yield
    finally:
        for owner, name, value in reversed(saved):
            setattr(owner, name, value)


class _QuietOption(TyperOption):
    """An option whose help shows its metavar, or nothing for a flag."""

    def display_type_rich(self, ctx: Any) -> str | None:
        if self.metavar is not None:
            return self.metavar
        if self.is_flag or self.count:
            return None
        shown = super().display_type_rich(ctx)
        return None if shown is None else translated(shown, _HELP_LANG[0], metavar=True)

    def _get_number_range_help_str(self) -> str | None:
        shown: str | None = super()._get_number_range_help_str()
        if shown is None or _HELP_LANG[0] == "en":
            return shown
        return shown.replace("x", "N")  # 1<=N<=65535: the value, named as numbers are


class _QuietArgument(TyperArgument):
    """An argument whose help shows its name only (the name is its metavar)."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None


def _quieten(command: Any, ctx: Any) -> None:
    for param in command.get_params(ctx):
        if type(param) is TyperOption:
            param.__class__ = _QuietOption
        elif type(param) is TyperArgument:
            param.__class__ = _QuietArgument


class HelpCommand(TyperCommand):
    """A sub-command whose help has no raw type labels, in the command line's language."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _quieten(self, ctx)
        with _said_in(self, ctx, _HELP_LANG[0]):
            super().format_help(ctx, formatter)

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        prefix = translated("Usage:", _HELP_LANG[0]) + " "
        formatter.write_usage(ctx.command_path, " ".join(self.collect_usage_pieces(ctx)), prefix)


class HelpGroup(TyperGroup):
    """The ``kubik`` group: clean help for itself and every sub-command it finds."""

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if type(command) is TyperCommand:
            command.__class__ = HelpCommand
        return command

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _quieten(self, ctx)
        super().format_help(ctx, formatter)


def kubik_version() -> str:
    """The installed kubik's version (``0.0.0`` when run from a source tree)."""
    try:
        return version("kubik")
    except PackageNotFoundError:
        return "0.0.0"


def version_callback(value: bool) -> None:
    """``--version``: print ``kubik X.Y.Z`` and stop."""
    if value:
        typer.echo(f"kubik {kubik_version()}")
        raise typer.Exit()


#: Click's sentences → catalogue message ids (the rest of the text is kept as given).
_CLICK_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^No such option: (?P<a>\S+)(?: \(Possible options: (?P<b>.*)\))?$"), "option"),
    (re.compile(r"^No such command '(?P<a>[^']*)'\.?$"), "command"),
    (re.compile(r"^Missing option '(?P<a>[^']*)'\.?.*$"), "missing_option"),
    (re.compile(r"^Missing argument '(?P<a>[^']*)'\.?.*$"), "missing_argument"),
    (re.compile(r"^Option '(?P<a>[^']*)' requires an argument\.?$"), "needs_value"),
    (re.compile(r"^Got unexpected extra arguments? \((?P<a>.*)\)$"), "extra"),
    (
        re.compile(r"^Invalid value for '(?P<a>[^']*)': '(?P<b>.*)' is not a valid integer\.?$"),
        "int",
    ),
    (re.compile(r"^Invalid value for '(?P<a>[^']*)': Input should be a valid integer.*$"), "whole"),
    (
        re.compile(r"^Invalid value for '(?P<a>[^']*)': '(?P<b>.*)' is not one of (?P<c>.*)\.$"),
        "one_of",
    ),
    (re.compile(r"^Invalid value for '(?P<a>[^']*)': (?P<b>.*)$"), "invalid"),
)


def usage_error_text(text: str, lang: str) -> str:
    """A Click usage error (one line) in ``lang``; English as Click wrote it.

    >>> usage_error_text("No such option: --colour", "ru")
    'нет такого параметра: --colour'
    >>> usage_error_text("Invalid value for '--seed': 'x' is not a valid integer.", "ru")
    "недопустимое значение '--seed': 'x' — не целое число"
    """
    if lang == "en":
        return text
    for pattern, kind in _CLICK_PATTERNS:
        found = pattern.match(text)
        if found is not None:
            parts = {k: v or "" for k, v in found.groupdict().items()}
            message = say(f"cli.usage.{kind}", lang, **parts)
            if kind == "option" and parts.get("b"):
                message += say("cli.usage.possible", lang, b=parts["b"])
            return message
    return text


__all__ = [
    "HelpCommand",
    "HelpGroup",
    "help_in",
    "kubik_version",
    "translated",
    "untranslated",
    "usage_error_text",
    "version_callback",
]
