"""Cached answers: a ``kubik odds ... --json`` question asked before (or the list of
``kubik scenarios``) is answered from disk.

Exact odds are a pure function of the question (the procedure, its input, the
policy and options), of kubik's own code and of the user's data overrides. The
first time a question is asked the full command answers it and its JSON is kept;
asked again, the answer is read back before anything heavy is imported (pydantic,
typer, the rules), so a repeated question costs a Python start and a file read.

The key covers everything the answer depends on: the arguments (an ``@FILE`` input by
its content), every file of the installed kubik package (path, size, modification
time: any change of code or data is a new key) and the data overrides in
``$KUBIK_DATA_DIR``. A question about a ruleset installed from another package is
not kept: its files are not in the key. Answers live in the user's cache directory
(``$KUBIK_HOME/cache`` when ``KUBIK_HOME`` is set); ``KUBIK_ANSWER_CACHE=off`` turns the
cache off. Only answers printed as JSON and ending well are kept; at most
:data:`LIMIT` of them.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

#: How many answers are kept (the oldest go first).
LIMIT = 2000
OFF_ENV = "KUBIK_ANSWER_CACHE"
HOME_ENV = "KUBIK_HOME"
DATA_ENV = "KUBIK_DATA_DIR"
_PACKAGE = Path(__file__).resolve().parent.parent  # all of kubik


def enabled(args: Sequence[str]) -> bool:
    """Whether this command line's answer may come from (and go to) the cache: a
    question of odds in JSON about the procedures of kubik's own rulesets, or the list
    of scenarios (whose key also covers the user's scenarios, the rulesets installed
    and how the terminal shows text)."""
    if os.environ.get(OFF_ENV, "").lower() in ("off", "0", "no"):
        return False
    if "-h" in args or "--help" in args:  # help is printed by typer, never kept
        return False
    if args[:1] == ["scenarios"]:
        return True
    return args[:1] == ["odds"] and "--json" in args and all(_own_ruleset(arg) for arg in args)


def _own_ruleset(arg: str) -> bool:
    """Whether ``arg``, if it may name a procedure (``steel_war.fire``), names one of a
    ruleset whose files are kubik's own (and so in the key)."""
    ruleset, dot, name = arg.partition(".")
    if not (dot and ruleset and name and f"{ruleset}_{name}".isidentifier()):
        return True  # not a procedure's name
    return (_PACKAGE / "rulesets" / ruleset / "__init__.py").is_file()


def cache_dir() -> Path:
    """Where answers are kept: ``$KUBIK_HOME/cache/answers`` or the user's cache directory."""
    home = os.environ.get(HOME_ENV)
    if home:
        return Path(home).expanduser() / "cache" / "answers"
    import platformdirs  # only when no KUBIK_HOME names the place

    return Path(platformdirs.user_cache_dir("kubik", appauthor=False)) / "answers"


@cache
def _package_state() -> bytes:
    """Every file of the installed package: path, size, modification time (once a process)."""
    import hashlib  # (OpenSSL's, loaded only when a key is asked: not for a text answer)

    digest = hashlib.sha256()
    _tree(str(_PACKAGE), "", digest)
    return digest.digest()


def _tree(folder: str, prefix: str, digest: Any) -> None:
    """Each file under ``folder`` (bytecode aside) as ``path, size, mtime`` into ``digest``,
    in name order (``os.scandir``: one call per folder, the entry knows if it is one)."""
    with os.scandir(folder) as found:
        entries = sorted(found, key=lambda entry: entry.name)
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            if entry.name != "__pycache__":
                _tree(entry.path, f"{prefix}{entry.name}/", digest)
        elif not entry.name.endswith((".pyc", ".pyo")):
            stat = entry.stat()
            digest.update(f"{prefix}{entry.name}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())


def _scenarios_state(digest: Any) -> None:
    """What ``kubik scenarios`` shows besides kubik's files: the user's scenario files,
    the rulesets installed (other packages may add some) and the terminal (its width,
    colours) the list is drawn for."""
    import shutil
    import sys

    from kubik.core.paths import data_dir
    from kubik.rulesets import registry

    for path in sorted((data_dir() / "scenarios").glob("*.toml")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    digest.update(repr(sorted(registry.packages().items())).encode())
    terminal = (
        shutil.get_terminal_size().columns,
        sys.stdout.isatty(),
        *(os.environ.get(name, "") for name in ("NO_COLOR", "FORCE_COLOR", "TERM")),
    )
    digest.update(repr(terminal).encode())


def key(args: Sequence[str]) -> str:
    """The question's key: its arguments, kubik's files and the user's data overrides."""
    import hashlib

    digest = hashlib.sha256()
    for index, arg in enumerate(args):
        digest.update(arg.encode("utf-8", "surrogateescape") + b"\0")
        after_input = index > 0 and args[index - 1] in ("--input", "-i")
        if after_input and arg.startswith("@"):
            path = Path(arg[1:])
            digest.update(path.read_bytes() if path.is_file() else b"\0missing")
    digest.update(_package_state())
    if args[:1] == ["scenarios"]:
        _scenarios_state(digest)
    data = os.environ.get(DATA_ENV)
    if data and Path(data).is_dir():
        for path in sorted(Path(data).glob("*.toml")):
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def lookup(args: Sequence[str]) -> str | None:
    """The kept answer to this command line, or ``None``."""
    try:
        return (cache_dir() / f"{key(args)}.json").read_text(encoding="utf-8")
    except OSError:
        return None


def keep(args: Sequence[str], answer: str) -> None:
    """Keep an answer (quietly: a cache that cannot be written is just not used)."""
    try:
        folder = cache_dir()
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / f"{key(args)}.json"
        partial = target.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(answer, encoding="utf-8")
        os.replace(partial, target)
        kept = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime_ns)
        for old in kept[: max(0, len(kept) - LIMIT)]:
            old.unlink(missing_ok=True)
    except OSError:
        return


__all__ = ["LIMIT", "cache_dir", "enabled", "keep", "key", "lookup"]
