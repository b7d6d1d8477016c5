"""Writing TOML: a sweep's variant of a scenario is saved as a scenario file again.

Python reads TOML (``tomllib``) but does not write it; scenarios hold only tables,
arrays of tables, strings, numbers, booleans and arrays, and that is what this
writes, so that ``tomllib.loads(dumps(data)) == data`` and a variant plays with
``kubik play variant.toml`` like any scenario.

>>> text = dumps({"scenario": {"id": "x.demo"}, "units": [{"id": "a", "pos": [1, 2.5]}]})
>>> print(text)
[scenario]
id = "x.demo"
<BLANKLINE>
[[units]]
id = "a"
pos = [1, 2.5]
<BLANKLINE>
>>> import tomllib; tomllib.loads(text)["units"][0]["pos"]
[1, 2.5]
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from datetime import date, datetime, time
from typing import Any

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(name: str) -> str:
    return name if _BARE_KEY.match(name) else json.dumps(name, ensure_ascii=False)


def _is_table_array(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def value_text(value: Any) -> str:
    """One value as inline TOML (tables inside arrays become inline tables).

    >>> value_text("say \\"hi\\""), value_text(True), value_text(float("inf")), value_text([])
    ('"say \\\\"hi\\\\""', 'true', 'inf', '[]')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return "[" + ", ".join(value_text(v) for v in value) + "]"
    if isinstance(value, Mapping):
        inner = ", ".join(f"{_key(str(k))} = {value_text(v)}" for k, v in value.items())
        return "{" + inner + "}" if inner else "{}"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def _table(lines: list[str], data: Mapping[str, Any], path: tuple[str, ...]) -> None:
    """The plain keys of ``data``, then its sub-tables and arrays of tables."""
    nested: list[tuple[str, Any]] = []
    for name, value in data.items():
        if isinstance(value, Mapping) or _is_table_array(value):
            nested.append((name, value))
        else:
            lines.append(f"{_key(name)} = {value_text(value)}")
    for name, value in nested:
        where = (*path, _key(name))
        if isinstance(value, Mapping):
            if lines:
                lines.append("")
            lines.append(f"[{'.'.join(where)}]")
            _table(lines, value, where)
        else:
            for item in value:
                if lines:
                    lines.append("")
                lines.append(f"[[{'.'.join(where)}]]")
                _table(lines, item, where)


def dumps(data: Mapping[str, Any]) -> str:
    """``data`` (as ``tomllib`` reads it) as TOML text."""
    lines: list[str] = []
    _table(lines, data, ())
    return "\n".join(lines) + "\n"


__all__ = ["dumps", "value_text"]
