"""Sweep parameters: ``--vary 'units[steel_1].quality=recruits,regulars,veterans'``.

A parameter addresses any field of a scenario file by its path, the way error
messages name fields: tables by name (``options.motivation``,
``options.sides.steel.edge``, ``end.turn_limit``), an element of an array of tables
by its ``id`` or its 0-based index (``units[steel_1]``, ``terrain[pond]``,
``units[steel_1].weapons[0].count``). Values are TOML values (``2``, ``1.5``,
``true``, ``"a b"``, ``[8, 4]``); a bare word is a string. Several parameters make a
grid: every combination is a cell of the sweep.

The path is checked here (one line naming what is missing and what exists); whether
a value is allowed is the ruleset's to say, when each variant is checked as a
scenario.

>>> p = parse_parameter("units[steel_1].quality=recruits, veterans")
>>> p.path, p.values
('units[steel_1].quality', ('recruits', 'veterans'))
>>> parse_parameter("end.turn_limit=4,6").values
(4, 6)
>>> parse_parameter("units[a].position=[1, 2],[3, 4]").values
([1, 2], [3, 4])
"""

from __future__ import annotations

import copy
import re
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kubik.core.errors import InputError
from kubik.sim.toml_text import value_text

_SEGMENT = re.compile(r"([A-Za-z0-9_-]+)((?:\[[^\[\]]+\])*)$")
_SELECTOR = re.compile(r"\[([^\[\]]+)\]")
#: Fields a sweep must not change: what the scenario is, and the ids seeds and
#: labels refer to.
_FIXED_TABLES = ("scenario", "sides")


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a path: a key of a table, or an element of an array (id or index)."""

    key: str | None = None
    select: str | None = None

    def text(self) -> str:
        return self.key if self.key is not None else f"[{self.select}]"


@dataclass(frozen=True, slots=True)
class Parameter:
    """A swept field: its path (as written) and the values it takes, in order."""

    path: str
    steps: tuple[Step, ...]
    values: tuple[Any, ...]

    def labels(self) -> tuple[str, ...]:
        """Each value as a label (see :func:`value_label`)."""
        return tuple(value_label(v) for v in self.values)


def value_label(value: Any) -> str:
    """A value as tables and plots show it: strings bare, anything else as TOML.

    >>> value_label("veterans"), value_label(2), value_label([8, 4])
    ('veterans', '2', '[8, 4]')
    """
    return value if isinstance(value, str) else value_text(value)


def parse_path(path: str, option: str = "--vary") -> tuple[Step, ...]:
    """``units[steel_1].weapons[0].count`` → its steps; a malformed path is one line."""
    steps: list[Step] = []
    if not path:
        raise InputError(f"{option}: name a field, e.g. units[steel_1].quality=recruits,veterans")
    for part in path.split("."):
        match = _SEGMENT.match(part)
        if match is None:
            raise InputError(
                f"{option} {path}: '{part}' is not a field name (letters, digits, '_'), "
                "optionally with [id] or [index] after it"
            )
        steps.append(Step(key=match.group(1)))
        steps.extend(Step(select=s.strip()) for s in _SELECTOR.findall(match.group(2)))
    if steps[0].key in _FIXED_TABLES:
        raise InputError(
            f"{option} {path}: [{steps[0].key}] cannot be swept (it says what the scenario "
            "is and names its sides); sweep units, options, table, terrain or end"
        )
    if steps[-1].key in ("id", "side") or steps[-1].select is not None:
        raise InputError(
            f"{option} {path}: name a field to change, not an id, a side or a whole element"
        )
    return tuple(steps)


def split_values(text: str) -> list[str]:
    """Split on commas outside brackets, braces and quotes.

    >>> split_values('a, [1, 2], "x, y"')
    ['a', '[1, 2]', '"x, y"']
    """
    parts: list[str] = []
    depth = 0
    quote = ""
    current = ""
    for char in text:
        if quote:
            current += char
            if char == quote:
                quote = ""
            continue
        if char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
            continue
        current += char
    parts.append(current.strip())
    return parts


def parse_value(text: str) -> Any:
    """A TOML value, or the text itself when it is a bare word.

    >>> parse_value("3"), parse_value("veterans"), parse_value("true"), parse_value('"7"')
    (3, 'veterans', True, '7')
    """
    try:
        return tomllib.loads(f"value = {text}")["value"]
    except tomllib.TOMLDecodeError:
        return text


def parse_parameter(spec: str, option: str = "--vary") -> Parameter:
    """``PATH=V1,V2,...`` → a :class:`Parameter` (one line naming what is wrong)."""
    path, sep, values_text = spec.partition("=")
    path = path.strip()
    if not sep:
        raise InputError(
            f"{option} {spec}: write FIELD=VALUE,VALUE..., "
            "e.g. units[steel_1].quality=recruits,veterans"
        )
    steps = parse_path(path, option)
    texts = split_values(values_text)
    if any(not t for t in texts):
        raise InputError(f"{option} {path}: an empty value in '{values_text}'")
    values = tuple(parse_value(t) for t in texts)
    if len(set(map(value_text, values))) != len(values):
        raise InputError(f"{option} {path}: a value is given twice in '{values_text}'")
    return Parameter(path, steps, values)


def _element(items: list[Any], select: str, where: str, option: str) -> Any:
    if select.isdigit():
        index = int(select)
        if index >= len(items):
            raise InputError(f"{option} {where}: no element {index}; {len(items)} in all")
        return items[index]
    for item in items:
        if isinstance(item, dict) and item.get("id") == select:
            return item
    ids = [str(i["id"]) for i in items if isinstance(i, dict) and "id" in i]
    known = ", ".join(ids) if ids else f"index 0 to {len(items) - 1}"
    raise InputError(f"{option} {where}: no element with id '{select}'; {known}")


def set_field(
    data: dict[str, Any], parameter: Parameter, value: Any, option: str = "--vary"
) -> None:
    """Set the field ``parameter`` addresses in ``data`` (a parsed scenario) to ``value``.

    Tables on the way are created when missing (an option the file leaves to its
    default); array elements must exist.
    """
    node: Any = data
    where = ""
    steps = parameter.steps
    for index, step in enumerate(steps):
        last = index == len(steps) - 1
        if step.key is not None:
            where = f"{where}.{step.key}" if where else step.key
            if not isinstance(node, dict):
                raise InputError(
                    f"{option} {parameter.path}: {where} is inside a value, not a table"
                )
            if last:
                node[step.key] = copy.deepcopy(value)
                return
            following = steps[index + 1]
            if step.key not in node:
                if following.select is not None:
                    raise InputError(f"{option} {parameter.path}: the scenario has no {where}")
                node[step.key] = {}
            node = node[step.key]
        else:
            assert step.select is not None
            where = f"{where}[{step.select}]"
            if not isinstance(node, list):
                raise InputError(f"{option} {parameter.path}: {where}: not an array")
            node = _element(node, step.select, where, option)


def grid(parameters: Sequence[Parameter]) -> Iterator[tuple[tuple[Parameter, Any], ...]]:
    """Every combination of the parameters' values (the first parameter varies slowest).

    >>> a, b = parse_parameter("end.turn_limit=4,6"), parse_parameter("options.x=p,q")
    >>> [tuple(v for _, v in cell) for cell in grid([a, b])]
    [(4, 'p'), (4, 'q'), (6, 'p'), (6, 'q')]
    """
    if not parameters:
        yield ()
        return
    first, rest = parameters[0], parameters[1:]
    for value in first.values:
        for tail in grid(rest):
            yield ((first, value), *tail)


def check_distinct(parameters: Sequence[Parameter], option: str = "--vary") -> None:
    """One line when two parameters address the same field."""
    seen: set[str] = set()
    for parameter in parameters:
        key = ".".join(s.text() for s in parameter.steps)
        if key in seen:
            raise InputError(f"{option} {parameter.path}: the field is swept twice")
        seen.add(key)


def apply(data: Mapping[str, Any], cell: Sequence[tuple[Parameter, Any]]) -> dict[str, Any]:
    """A copy of ``data`` with every parameter of ``cell`` set."""
    out = copy.deepcopy(dict(data))
    for parameter, value in cell:
        set_field(out, parameter, value)
    return out


__all__ = [
    "Parameter",
    "Step",
    "apply",
    "check_distinct",
    "grid",
    "parse_parameter",
    "parse_path",
    "parse_value",
    "set_field",
    "split_values",
    "value_label",
]
