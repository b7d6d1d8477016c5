"""What the ``kubik`` command answers before anything heavy is imported.

``kubik --version`` and a Tab press must feel instant: importing the command line
(typer, rich, the battle layer, shapely, numpy) costs most of a second. Here,
with the standard library alone:

* ``--version``;
* shell completion (typer's protocol: ``_KUBIK_COMPLETE=complete_bash|zsh|fish``) of
  command names and of the names a command takes: scenarios (the rulesets' and the
  user's scenario files), their side ids for ``--side``, saved games (read from the
  store), procedures (from a list kept beside the answer cache, made by the full
  command line the first time) and languages. Anything else (options) is left to typer.

Each function returns ``True`` when it answered the command line.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from kubik import __version__
from kubik.core.controllers import CONTROLLER_KINDS

_TABLE = Path(__file__).with_name("commands.toml")


@cache
def command_table() -> dict[str, Any]:
    """``commands.toml``: each command's line in English and Russian, in help order (read
    when a help or a completion needs it, not before every command)."""
    import tomllib

    with _TABLE.open("rb") as handle:
        return tomllib.load(handle)


def commands() -> tuple[str, ...]:
    """The commands, in the order ``kubik -h`` lists them."""
    return tuple(command_table()["commands"])


def __getattr__(name: str) -> Any:
    """``COMMANDS``: :func:`commands`, read when first asked for."""
    if name == "COMMANDS":
        return commands()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: What the first argument of each command names.
_SCENARIO_FIRST = frozenset({"play", "sim", "coverage"})
_SAVE_FIRST = frozenset({"load", "replay"})
_PROCEDURE_FIRST = frozenset({"odds", "resolve", "procedures", "sim"})
#: Options whose value is a saved game's name, a scenario's side, a language.
_SAVE_OPTIONS = frozenset({"--delete", "--rename", "--save"})
COMPLETE_ENV = "_KUBIK_COMPLETE"


def _help_lang(args: Sequence[str]) -> str | None:
    """The language of a help-only command line (``-h``/``--help``, bare, with or without
    ``--lang``), or ``None`` when the command line asks for more than kubik's help."""
    words = list(args)
    if words not in ([], ["-h"], ["--help"]) and "--lang" not in words:
        return None
    from kubik.cli.language import preferred, split_lang

    split = split_lang(words)
    if split is None:
        return None
    lang, words = split
    return (lang or preferred()) if words in ([], ["-h"], ["--help"]) else None


def _wrap(text: str, width: int, indent: int) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width=max(30, width - indent)) or [""]


def top_help(args: Sequence[str]) -> bool:
    """``kubik``, ``kubik -h``, ``kubik --help [--lang ru]``: the commands and what each
    does, in plain text (the full command line answers ``kubik COMMAND -h``)."""
    lang = _help_lang(args)
    if lang is None:
        return False
    import shutil

    from kubik.cli.language import config_file

    table = command_table()
    width = min(shutil.get_terminal_size((100, 24)).columns, 100)
    usage = "Usage: kubik [OPTIONS] COMMAND [ARGS]..."
    if lang == "ru":
        usage = "Запуск: kubik [ПАРАМЕТРЫ] КОМАНДА [АРГУМЕНТЫ]..."
    lines = [usage, ""]
    for paragraph in table["kubik"][lang].format(config=config_file()).split("\n\n"):
        for line in paragraph.splitlines():
            lines.extend(_wrap(line, width, 0))
        lines.append("")
    titles = {"en": ("Options:", "Commands:"), "ru": ("Параметры:", "Команды:")}[lang]
    rows = [(name, text) for name, text in table["options"][lang]]
    column = max(len(name) for name, _ in rows) + 4
    lines.append(titles[0])
    for name, text in rows:
        wrapped = _wrap(text, width, column)
        lines.append(f"  {name:<{column - 2}}{wrapped[0]}")
        lines.extend(" " * column + more for more in wrapped[1:])
    lines.extend(["", titles[1]])
    column = max(len(name) for name in table["commands"]) + 4
    for name, said in table["commands"].items():
        wrapped = _wrap(said[lang], width, column)
        lines.append(f"  {name:<{column - 2}}{wrapped[0]}")
        lines.extend(" " * column + more for more in wrapped[1:])
    sys.stdout.write("\n".join(lines) + "\n")
    return True


def version(args: Sequence[str]) -> bool:
    """``kubik --version``: print ``kubik X.Y.Z``."""
    if list(args) != ["--version"]:
        return False
    sys.stdout.write(f"kubik {__version__}\n")
    return True


# -- names the commands take ------------------------------------------------------


def _data_dir() -> Path:
    from kubik.core.paths import data_dir

    return data_dir()


def _scenario_files() -> list[Path]:
    from kubik.rulesets import registry

    found = [
        path for ruleset in registry.ruleset_ids() for path in registry.scenario_files(ruleset)
    ]
    user = _data_dir() / "scenarios"
    if user.is_dir():
        found.extend(sorted(user.glob("*.toml")))
    return found


def scenarios() -> dict[str, list[str]]:
    """Scenario id → its side ids, from the scenario files (a file that cannot be read
    is skipped: ``kubik scenarios`` says what is wrong with it)."""
    import tomllib

    found: dict[str, list[str]] = {}
    for path in _scenario_files():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
            ident = str(data["scenario"]["id"])
            sides = [str(side["id"]) for side in data.get("sides", ())]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        found.setdefault(ident, sides)
    return found


def saves() -> list[str]:
    """The saved games' names, read from the store without changing it."""
    path = _data_dir() / "games.sqlite3"
    if not path.is_file():
        return []
    import sqlite3  # (only a completion of a save's name reads the store)

    try:
        uri = path.resolve().as_uri() + "?mode=ro"
        with sqlite3.connect(uri, uri=True) as db:
            rows = db.execute("SELECT name FROM games ORDER BY name").fetchall()
    except sqlite3.Error:
        return []
    return [str(row[0]) for row in rows]


def _procedures_file() -> Path:
    from kubik.cli.answers import cache_dir

    return cache_dir() / f"procedures-{__version__}.json"


def procedures() -> list[str]:
    """The procedures' names: kept beside the answer cache the first time they are
    listed here (importing every ruleset once), read from there afterwards."""
    kept = _procedures_file()
    try:
        names = json.loads(kept.read_text(encoding="utf-8"))
        if isinstance(names, list):
            return [str(name) for name in names]
    except (OSError, ValueError):
        pass
    from kubik.engine import registry

    names = sorted(spec.name for spec in registry.all_specs())
    try:
        kept.parent.mkdir(parents=True, exist_ok=True)
        kept.write_text(json.dumps(names), encoding="utf-8")
    except OSError:
        pass  # a cache that cannot be written is only slower
    return names


# -- completion -------------------------------------------------------------------


def candidates(args: Sequence[str], incomplete: str) -> list[str] | None:
    """What may follow ``args`` (the words before the cursor) and starts with
    ``incomplete``; ``None`` to leave it to typer (options and their values)."""
    words = list(args)
    if not words:
        found: list[str] = [*commands(), "--help", "--version"]
    elif incomplete.startswith("-"):
        return None
    else:
        found_or_none = _after(words, incomplete)
        if found_or_none is None:
            return None
        found = found_or_none
    return [word for word in found if word.startswith(incomplete)]


def _after(words: list[str], incomplete: str) -> list[str] | None:
    command, rest = words[0], words[1:]
    previous = rest[-1] if rest else ""
    if previous == "--lang":
        return ["en", "ru"]
    if previous in _SAVE_OPTIONS:
        return saves() if previous != "--save" else []
    if previous == "--side":
        named = [word for word in rest if not word.startswith("-")]
        known = scenarios()
        sides = known.get(named[0], []) if named else []
        if "=" in incomplete:
            side = incomplete.partition("=")[0]
            return [f"{side}={kind}" for kind in CONTROLLER_KINDS]
        return [f"{side}=" for side in sides]
    if previous.startswith("-"):
        return None  # another option's value
    positional = [word for word in rest if not word.startswith("-")]
    if positional:
        return []
    found: list[str] = []
    if command in _SCENARIO_FIRST:
        found.extend(scenarios())
    if command in _SAVE_FIRST:
        found.extend(saves())
    if command in _PROCEDURE_FIRST:
        found.extend(procedures())
    if command not in _SCENARIO_FIRST | _SAVE_FIRST | _PROCEDURE_FIRST:
        return None
    return found


def _words(text: str) -> list[str]:
    import shlex

    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


def complete() -> bool:
    """Answer a Tab press of bash, zsh or fish, as typer's completion scripts ask."""
    shell = os.environ.get(COMPLETE_ENV, "")
    if shell == "complete_bash":
        words = _words(os.environ.get("COMP_WORDS", ""))
        cword = int(os.environ.get("COMP_CWORD", "0") or 0)
        args, incomplete = words[1:cword], (words[cword] if cword < len(words) else "")
    elif shell in ("complete_zsh", "complete_fish"):
        line = os.environ.get("_TYPER_COMPLETE_ARGS", "")
        args = _words(line)[1:]
        incomplete = ""
        if args and not line.endswith(" "):
            incomplete = args.pop()
    else:
        return False
    found = candidates(args, incomplete)
    if found is None:
        return False
    if shell == "complete_zsh":
        if not found:
            sys.stdout.write("_files")
            return True
        quoted = "\n".join('"' + word.replace(":", r"\\:") + '"' for word in found)
        sys.stdout.write(f"_arguments '*: :(({quoted}))'")
        return True
    sys.stdout.write("\n".join(found))
    return True


__all__ = ["candidates", "commands", "complete", "procedures", "saves", "scenarios", "version"]
