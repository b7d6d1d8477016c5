"""Rulebook numbers from data files, with provenance, and user overrides.

Every ruleset keeps its numbers in its package's ``data.toml`` (and, split by
concept, ``data/*.toml``), found through :mod:`kubik.rulesets.registry`. Each
top-level table carries a ``provenance`` table with exactly one of ``source``
(printed in the seed), ``reconstructed`` (lost or garbled, rebuilt from the seed's
examples) or ``default`` (absent from the source: our choice), and may carry
``provenance_cells`` for single values whose provenance differs.

A user overrides any value with a TOML file of the same shape: pass it to
:func:`load_ruleset_data`, or put ``<ruleset>.toml`` in the directory named by the
environment variable ``KUBIK_DATA_DIR``. An override may only replace keys that
exist, with a value of the same kind (a whole number for a whole number, text for
text ...), so a typo is an error, not a silently ignored setting. A table or cell
whose provenance is ``engine`` is an engine limit (a bound on kubik's work, not a
rulebook number): it cannot be overridden. :func:`check_overrides` checks every
file of ``KUBIK_DATA_DIR`` up front, so a bad one is one line before any work.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterator, Mapping
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Any

from kubik.core.errors import KubikError
from kubik.engine.requests import msg
from kubik.rulesets import registry as rulesets

OVERRIDE_DIR_ENV = "KUBIK_DATA_DIR"


class DataError(KubikError, ValueError):
    """A data file or an override that is malformed (names the file and key)."""


class ProvenanceKind(Enum):
    """How a number came to be in the data."""

    SOURCE = "source"
    RECONSTRUCTED = "reconstructed"
    DEFAULT = "default"
    #: Not a rulebook number: a bound on kubik's work (never overridable).
    ENGINE = "engine"


def provenance_kind(table: Mapping[str, Any], where: str) -> ProvenanceKind:
    """The kind of a table's provenance; raises if it is missing or ambiguous."""
    prov = table.get("provenance")
    if not isinstance(prov, Mapping):
        raise DataError(f"{where}: every table needs a [provenance] table")
    kinds = [k for k in ProvenanceKind if k.value in prov]
    if len(kinds) != 1:
        allowed = ", ".join(k.value for k in ProvenanceKind)
        raise DataError(f"{where}.provenance: needs exactly one of {allowed}")
    return kinds[0]


def _read_text(path: Path, where: str) -> str:
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise DataError(msg("kubik.data.not_utf8", where=where)) from None
    except OSError as error:
        raise DataError(
            msg("kubik.data.unreadable", where=where, error=error.strerror or str(error))
        ) from None


def _parse_toml(text: str, where: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise DataError(msg("kubik.data.bad_toml", where=where, error=str(error))) from None


def _read_toml(path: Path, where: str) -> dict[str, Any]:
    return _parse_toml(_read_text(path, where), where)


def merge_override(
    base: Mapping[str, Any], override: Mapping[str, Any], where: str
) -> dict[str, Any]:
    """``base`` with ``override``'s values replacing existing keys (recursively).

    A key that does not exist, a value of another kind, or an engine limit is a
    :class:`DataError` naming ``where`` and the key.

    >>> merge_override({"a": {"b": 1, "c": 2}}, {"a": {"b": 5}}, "x")
    {'a': {'b': 5, 'c': 2}}
    """
    merged = dict(base)
    for key, value in override.items():
        path = f"{where}.{key}"
        if key not in base:
            known = ", ".join(sorted(base)) or "none"
            raise DataError(msg("kubik.data.unknown_key", where=path, known=known))
        if _is_engine_limit(base, key):
            raise DataError(msg("kubik.data.engine_limit", where=path))
        if isinstance(base[key], dict) and isinstance(value, Mapping):
            merged[key] = merge_override(base[key], value, path)
        elif not _same_kind(base[key], value):
            raise DataError(
                msg(
                    "kubik.data.wrong_kind",
                    where=path,
                    got=_shown(value),
                    kind=msg(f"kubik.data.kind.{_kind(base[key])}"),
                )
            )
        else:
            merged[key] = value
    return merged


def _is_engine_limit(table: Mapping[str, Any], key: str) -> bool:
    """Whether ``table[key]`` is an engine limit: the table's or the cell's provenance."""
    prov = table.get("provenance")
    if isinstance(prov, Mapping) and ProvenanceKind.ENGINE.value in prov:
        return True
    value = table.get(key)
    if isinstance(value, Mapping):
        inner = value.get("provenance")
        if isinstance(inner, Mapping) and ProvenanceKind.ENGINE.value in inner:
            return True
    cells = table.get("provenance_cells")
    cell = cells.get(key) if isinstance(cells, Mapping) else None
    return isinstance(cell, Mapping) and ProvenanceKind.ENGINE.value in cell


#: The kinds of data values, as errors name them (bool before int: True is an int too).
_KINDS: tuple[tuple[type | tuple[type, ...], str], ...] = (
    (bool, "bool"),
    (int, "int"),
    (float, "float"),
    (str, "str"),
    (list, "list"),
    (Mapping, "table"),
)


def _kind(value: Any) -> str:
    """The kind of a data value, as errors name it."""
    return next((name for kind, name in _KINDS if isinstance(value, kind)), "other")


def _same_kind(base: Any, value: Any) -> bool:
    """Whether ``value`` may replace ``base``: the same kind (a whole number may replace
    a number with a fraction), lists item by item against the kinds ``base`` holds."""
    kind = _kind(base)
    if kind == "float":
        return _kind(value) in {"int", "float"}
    if kind == "list":
        if not isinstance(value, list):
            return False
        if not base:
            return True
        return all(any(_same_kind(b, v) for b in base) for v in value)
    if kind == "other":
        return type(value) is type(base)
    return _kind(value) == kind


def _shown(value: Any) -> str:
    text = repr(value) if not isinstance(value, bool) else str(value).lower()
    return text if len(text) <= 40 else text[:37] + "..."


#: A multi-line string (its lines are not keys or headers).
_LONG_STRING = re.compile(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'')
#: A top-level name: a table header's first key, or a key before any header.
_HEADER = re.compile(
    r'^[ \t]*\[\[?[ \t]*([A-Za-z0-9_-]+|"[^"\n]*"|\'[^\'\n]*\')[ \t]*[.\]]', re.MULTILINE
)
_KEY = re.compile(r'^[ \t]*([A-Za-z0-9_-]+|"[^"\n]*"|\'[^\'\n]*\')[ \t]*[=.]', re.MULTILINE)


def top_level_names(text: str) -> set[str]:
    """The top-level names a TOML text defines, found without parsing it (its table
    headers, and its keys before the first header). Only a guide to which file to
    parse: a name not found where it was expected means every file is parsed."""
    text = _LONG_STRING.sub('""', text)
    first = _HEADER.search(text)
    head = text if first is None else text[: first.start()]
    found = {m.group(1) for m in _HEADER.finditer(text)} | {m.group(1) for m in _KEY.finditer(head)}
    return {name.strip("\"'") for name in found}


class RulesetData(Mapping[str, Any]):
    """A ruleset's packaged data: its top-level tables, each file parsed the first time
    one of its tables is read.

    A question about one procedure reads a few tables; parsing every data file of the
    ruleset (pure-Python TOML) would cost more than the question. Reading every table
    (iterating, ``len``) parses every file, in the order :func:`load_ruleset_data`
    always merged them, and checks that no table is defined twice.
    """

    def __init__(self, ruleset: str) -> None:
        # read as files, without importing the ruleset's package (its procedures read
        # their data as they register)
        files = rulesets.files(ruleset, "data.toml", "data")
        root = rulesets.folder(ruleset)
        self._ruleset = ruleset
        self._files = [(p, str(p.relative_to(root.parent)) if root else p.name) for p in files]
        self._texts: list[str | None] = [None] * len(files)
        self._parsed: dict[int, dict[str, Any]] = {}
        self._where: dict[str, int] = {}
        self._all: dict[str, Any] | None = None
        #: tables already read, by name (the rules read the same few again and again)
        self._read: dict[str, Any] = {}
        for index in range(len(files)):
            for name in top_level_names(self._text(index)):
                self._where.setdefault(name, index)

    def _text(self, index: int) -> str:
        text = self._texts[index]
        if text is None:
            path, where = self._files[index]
            text = _read_text(path, where)
            self._texts[index] = text
        return text

    def _file(self, index: int) -> dict[str, Any]:
        part = self._parsed.get(index)
        if part is None:
            where = self._files[index][1]
            part = _parse_toml(self._text(index), where)
            for name, table in part.items():
                if isinstance(table, dict):
                    provenance_kind(table, f"{self._ruleset}.{name}")
            self._parsed[index] = part
            self._texts[index] = None
        return part

    def _every_table(self) -> dict[str, Any]:
        if self._all is None:
            data: dict[str, Any] = {}
            for index, (_, where) in enumerate(self._files):
                part = self._file(index)
                clash = set(part) & set(data)
                if clash:
                    raise DataError(f"{where}: tables defined twice: {clash}")
                data.update(part)
            self._all = data
        return self._all

    def __getitem__(self, name: str) -> Any:
        read = self._read
        found = read.get(name)  # TOML has no null: None is "not read yet"
        if found is not None:
            return found
        if self._all is None:
            index = self._where.get(name)
            if index is not None:
                part = self._file(index)
                if name in part:
                    read[name] = part[name]
                    return read[name]
        table = read[name] = self._every_table()[name]
        return table

    def __iter__(self) -> Iterator[str]:
        return iter(self._every_table())

    def __len__(self) -> int:
        return len(self._every_table())

    def __repr__(self) -> str:
        return f"RulesetData({self._ruleset!r})"


@cache
def _packaged_data(ruleset: str) -> RulesetData:
    return RulesetData(ruleset)


#: The process environment as ``os.environ`` keeps it (its keys encoded), and the
#: encoded name of the override variable: one dict lookup tells whether the variable is
#: set, where ``os.environ.get`` costs a key encoding and, when the variable is unset
#: (as almost always), a raised and caught ``KeyError`` -- the rules ask for their numbers
#: thousands of times a battle. ``None`` where ``os.environ`` keeps no such table.
_RAW_ENVIRON: Mapping[Any, Any] | None = getattr(os.environ, "_data", None)
_RAW_KEY: Any = getattr(os.environ, "encodekey", lambda key: key)(OVERRIDE_DIR_ENV)
_ENVIRON = os.environ


def override_dir_setting() -> str | None:
    """``$KUBIK_DATA_DIR`` as set now (``None`` or empty when it is not), read cheaply."""
    if _RAW_ENVIRON is not None and os.environ is _ENVIRON and _RAW_KEY not in _RAW_ENVIRON:
        return None
    return os.environ.get(OVERRIDE_DIR_ENV)


def _override_dir() -> Path | None:
    """``$KUBIK_DATA_DIR`` when set (an error if it is not a directory)."""
    env_dir = override_dir_setting()
    if not env_dir:
        return None
    folder = Path(env_dir)
    if not folder.is_dir():
        raise DataError(msg("kubik.data.not_a_dir", env=OVERRIDE_DIR_ENV, path=env_dir))
    return folder


def load_ruleset_data(
    ruleset: str,
    override: Mapping[str, Any] | Path | None = None,
) -> Mapping[str, Any]:
    """A ruleset's data with the user's overrides applied.

    Overrides come from ``$KUBIK_DATA_DIR/<ruleset>.toml`` (if present) and then
    from ``override`` (a mapping, or a path to a TOML file).
    """
    data: Mapping[str, Any] = _packaged_data(ruleset)
    if override is None and not override_dir_setting():
        return data  # the packaged numbers, the same object every time
    folder = _override_dir()
    if folder is not None:
        env_file = folder / f"{ruleset}.toml"
        if env_file.is_file():
            data = _env_override(ruleset, env_file, _mtime(env_file))
    if isinstance(override, Path):
        data = merge_override(data, _read_toml(override, str(override)), override.name)
    elif override:
        data = merge_override(data, override, ruleset)
    return data


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


@cache
def _env_override(ruleset: str, path: Path, mtime: float) -> dict[str, Any]:
    """The packaged data with ``path``'s overrides (read once per file version)."""
    return merge_override(_packaged_data(ruleset), _read_toml(path, path.name), path.name)


def check_overrides() -> None:
    """Check every override file of ``$KUBIK_DATA_DIR`` now: one line naming the file and
    the key for a file that is not TOML, names a ruleset or key that does not exist,
    gives a value of the wrong kind, or overrides an engine limit."""
    folder = _override_dir()
    if folder is None:
        return
    known = rulesets.ruleset_ids()
    for path in sorted(folder.glob("*.toml")):
        if path.stem not in known:
            raise DataError(
                msg(
                    "kubik.data.unknown_ruleset",
                    file=path.name,
                    ruleset=path.stem,
                    known=", ".join(known),
                )
            )
        if path.is_file():
            _env_override(path.stem, path, _mtime(path))
