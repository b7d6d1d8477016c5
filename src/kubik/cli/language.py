"""The language of kubik's text, set once: ``--lang``, else ``KUBIK_LANG``, else the
config file, else English.

The config file is ``config.toml`` in the user's config directory (``KUBIK_HOME``
when that is set) with one line, ``lang = "ru"``. Light on purpose: it is read before
the command line is.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

LANG_ENV = "KUBIK_LANG"
LANGS = ("en", "ru")


def config_file() -> Path:
    """Where the user's kubik settings are kept."""
    from kubik.core.paths import HOME_ENV

    home = os.environ.get(HOME_ENV)
    if home:
        return Path(home).expanduser() / "config.toml"
    import platformdirs

    return Path(platformdirs.user_config_dir("kubik", appauthor=False)) / "config.toml"


def preferred() -> str:
    """The language the user chose once (``KUBIK_LANG``, then the config file); ``en``
    when none (or one kubik does not speak) is chosen."""
    chosen = os.environ.get(LANG_ENV, "").strip().lower()
    if not chosen:
        try:
            text = config_file().read_text(encoding="utf-8")
        except OSError:  # no config file: tomllib need not even load
            text = ""
        try:
            import tomllib

            data = tomllib.loads(text) if text else {}
        except ValueError:
            data = {}
        chosen = str(data.get("lang", "")).strip().lower()
    return chosen if chosen in LANGS else "en"


def given(args: Sequence[str]) -> str | None:
    """The ``--lang`` of a command line, if it has one."""
    for index, arg in enumerate(args):
        if arg == "--lang" and index + 1 < len(args):
            return args[index + 1]
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
    return None


def split_lang(args: Sequence[str]) -> tuple[str | None, list[str]] | None:
    """A command line's ``--lang LANG`` (None when it names none) and the rest of its
    words, for the commands answered without typer; ``None`` when ``--lang`` is not
    followed by a language kubik speaks (typer then says so).

    >>> split_lang(["scenarios", "--lang", "ru", "--json"])
    ('ru', ['scenarios', '--json'])
    >>> split_lang(["-h"]), split_lang(["--lang", "de"])
    ((None, ['-h']), None)
    """
    words = list(args)
    if "--lang" not in words:
        return None, words
    at = words.index("--lang")
    if at + 1 >= len(words) or words[at + 1] not in LANGS:
        return None
    lang = words[at + 1]
    del words[at : at + 2]
    return lang, words


def with_language(args: Sequence[str]) -> list[str]:
    """``args`` with ``--lang`` added when the user chose a language once and the
    command line names none (every kubik command takes ``--lang``)."""
    words = list(args)
    if given(words) is not None or not words or words[0].startswith("-"):
        return words
    lang = preferred()
    return words if lang == "en" else [*words, "--lang", lang]


__all__ = ["LANGS", "LANG_ENV", "config_file", "given", "preferred", "with_language"]
