"""The ``kubik`` command's conventions: clean help, ``--version``, usage errors in two languages.

Typer ≥ 0.29 prints its own type labels (``<bool>``, ``<str>``, ``<list[str]>``) beside
every option and argument; kubik's help names values by their metavar (``N``,
``NAME``, ``SIDE=KIND``) and shows nothing beside a flag. :class:`HelpGroup` gives
every sub-command that (commands added later, too), without touching Typer itself.

Usage errors (an unknown option, a missing value ...) come from Click in English;
:func:`usage_error_text` says them in Russian under ``--lang ru``.
"""

from __future__ import annotations

import re
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from kubik.api.words import say


class _QuietOption(TyperOption):
    """An option whose help shows its metavar, or nothing for a flag."""

    def display_type_rich(self, ctx: Any) -> str | None:
        if self.metavar is not None:
            return self.metavar
        if self.is_flag or self.count:
            return None
        return super().display_type_rich(ctx)


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
    """A sub-command whose help has no raw type labels."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _quieten(self, ctx)
        super().format_help(ctx, formatter)


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
    "kubik_version",
    "usage_error_text",
    "version_callback",
]
