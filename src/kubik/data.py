"""Rulebook numbers from data files, with provenance, and user overrides.

Every ruleset keeps its numbers in ``rulesets/<id>/data.toml`` (and, split by
concept, ``rulesets/<id>/data/*.toml``). Each top-level table carries a
``provenance`` table with exactly one of ``source`` (printed in the seed),
``reconstructed`` (lost or garbled, rebuilt from the seed's examples) or
``default`` (absent from the source: our choice), and may carry
``provenance_cells`` for single values whose provenance differs.

A user overrides any value with a TOML file of the same shape: pass it to
:func:`load_ruleset_data`, or put ``<ruleset>.toml`` in the directory named by the
environment variable ``KUBIK_DATA_DIR``. An override may only replace keys that
exist, so a typo is an error, not a silently ignored setting.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from enum import Enum
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from kubik.errors import KubikError

OVERRIDE_DIR_ENV = "KUBIK_DATA_DIR"


class DataError(KubikError, ValueError):
    """A data file or an override that is malformed (names the file and key)."""


class ProvenanceKind(Enum):
    """How a number came to be in the data."""

    SOURCE = "source"
    RECONSTRUCTED = "reconstructed"
    DEFAULT = "default"


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


def _read_toml(path: Path | Any, where: str) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as error:
        raise DataError(f"{where}: not valid TOML ({error})") from None
    except OSError as error:
        raise DataError(f"{where}: cannot be read ({error.strerror})") from None


def merge_override(base: dict[str, Any], override: Mapping[str, Any], where: str) -> dict[str, Any]:
    """``base`` with ``override``'s values replacing existing keys (recursively).

    >>> merge_override({"a": {"b": 1, "c": 2}}, {"a": {"b": 5}}, "x")
    {'a': {'b': 5, 'c': 2}}
    """
    merged = dict(base)
    for key, value in override.items():
        path = f"{where}.{key}"
        if key not in base:
            known = ", ".join(sorted(base)) or "none"
            raise DataError(f"{path}: no such setting (known here: {known})")
        if isinstance(base[key], dict) and isinstance(value, Mapping):
            merged[key] = merge_override(base[key], value, path)
        else:
            merged[key] = value
    return merged


@cache
def _packaged_data(ruleset: str) -> dict[str, Any]:
    root = resources.files(f"kubik.rulesets.{ruleset}")
    data: dict[str, Any] = {}
    main = root / "data.toml"
    if main.is_file():
        data.update(_read_toml(main, f"{ruleset}/data.toml"))
    extra = root / "data"
    if extra.is_dir():
        for item in sorted(extra.iterdir(), key=lambda p: p.name):
            if item.name.endswith(".toml"):
                part = _read_toml(item, f"{ruleset}/data/{item.name}")
                clash = set(part) & set(data)
                if clash:
                    raise DataError(f"{ruleset}/data/{item.name}: tables defined twice: {clash}")
                data.update(part)
    for name, table in data.items():
        if isinstance(table, dict):
            provenance_kind(table, f"{ruleset}.{name}")
    return data


def load_ruleset_data(
    ruleset: str,
    override: Mapping[str, Any] | Path | None = None,
) -> dict[str, Any]:
    """A ruleset's data with the user's overrides applied.

    Overrides come from ``$KUBIK_DATA_DIR/<ruleset>.toml`` (if present) and then
    from ``override`` (a mapping, or a path to a TOML file).
    """
    data = _packaged_data(ruleset)
    env_dir = os.environ.get(OVERRIDE_DIR_ENV)
    if env_dir:
        env_file = Path(env_dir) / f"{ruleset}.toml"
        if env_file.is_file():
            data = merge_override(data, _read_toml(env_file, str(env_file)), ruleset)
    if isinstance(override, Path):
        override = _read_toml(override, str(override))
    if override:
        data = merge_override(data, override, ruleset)
    return data
