"""What is wrong with an input, as catalogue messages: one line in English or Russian.

pydantic reports a bad field as an error item (its location, its type, the value
given, the bound it broke); :func:`problem` turns one item into a message naming
what is allowed, and :func:`join` puts several on one line. Custom messages of a
model's validators (rulesets write them in English) are passed through as given.

>>> from kubik.text.i18n import render
>>> item = {"type": "less_than_equal", "loc": ("leadership",), "input": 4, "ctx": {"le": 3},
...         "msg": "Input should be less than or equal to 3"}
>>> render(problem(item, "input"), "en")
'input.leadership: 4 is too large; at most 3'
>>> render(problem(item, "input"), "ru")
'input.leadership: 4 — слишком большое значение; можно не больше 3'

A choice among values (pydantic's ``'a', 'b' or 'c'``) is joined in the language:

>>> item = {"type": "literal_error", "loc": ("quality",), "input": "d9",
...         "ctx": {"expected": "'d6', 'd8' or 'd10'"}}
>>> render(problem(item, "input"), "ru")
'input.quality: "d9" — недопустимое значение; можно: "d6", "d8" или "d10"'
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from kubik.engine.jsonify import to_json
from kubik.engine.requests import Message, msg

#: pydantic error type → the catalogue message of its problem (params: got, and the ctx).
_BY_TYPE: dict[str, str] = {
    "missing": "kubik.problem.missing",
    "extra_forbidden": "kubik.problem.unknown_field",
    "int_type": "kubik.problem.not_whole",
    "int_parsing": "kubik.problem.not_whole",
    "int_from_float": "kubik.problem.not_whole",
    "float_type": "kubik.problem.not_number",
    "float_parsing": "kubik.problem.not_number",
    "finite_number": "kubik.problem.not_number",
    "bool_type": "kubik.problem.not_bool",
    "bool_parsing": "kubik.problem.not_bool",
    "string_type": "kubik.problem.not_text",
    "list_type": "kubik.problem.not_list",
    "tuple_type": "kubik.problem.not_list",
    "dict_type": "kubik.problem.not_object",
    "model_type": "kubik.problem.not_object",
    "model_attributes_type": "kubik.problem.not_object",
    "less_than_equal": "kubik.problem.at_most",
    "less_than": "kubik.problem.less_than",
    "greater_than_equal": "kubik.problem.at_least",
    "greater_than": "kubik.problem.more_than",
    "literal_error": "kubik.problem.allowed",
    "enum": "kubik.problem.allowed",
    "too_short": "kubik.problem.too_short",
    "too_long": "kubik.problem.too_long",
    "string_too_short": "kubik.problem.text_too_short",
    "string_too_long": "kubik.problem.text_too_long",
    "string_pattern_mismatch": "kubik.problem.pattern",
}


#: Errors of a number's bounds: met by ``true``/``false`` only where a number belongs.
_NUMBER_BOUNDS = frozenset(
    {"less_than_equal", "less_than", "greater_than_equal", "greater_than", "multiple_of"}
)


def shown(value: Any, limit: int = 40) -> str:
    """A value as JSON, cut to ``limit`` characters (errors stay one short line).

    >>> shown(True), shown("d9"), shown(list(range(30)))
    ('true', '"d9"', '[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11...')
    """
    try:
        text = json.dumps(to_json(value), ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def location(loc: Sequence[int | str], root: str = "") -> str:
    """``("weapons", 0, "count")`` under ``input`` → ``input.weapons[0].count``.

    >>> location(("weapons", 0, "count"), "input"), location(("units", 2), "")
    ('input.weapons[0].count', 'units[2]')
    """
    text = root
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text or root


def problem(item: Mapping[str, Any], root: str = "") -> Message:
    """One pydantic error item as ``where: what is wrong; what is allowed``."""
    where = location(item.get("loc", ()), root) or root or "input"
    kind = str(item.get("type", ""))
    ctx = dict(item.get("ctx") or {})
    given = item.get("input")
    got = shown(given)
    if isinstance(given, bool) and kind in _NUMBER_BOUNDS:  # pydantic read true as 1
        return msg("kubik.problem.not_number", where=where, got=got)
    message_id = _BY_TYPE.get(kind)
    if kind == "string_pattern_mismatch" and "\\." in str(ctx.get("pattern", "")):
        message_id = "kubik.problem.dotted_pattern"  # an id of parts: 'old_west.demo'
    if message_id is None:
        text = str(item.get("msg", kind))
        error = ctx.get("error")
        if kind in {"value_error", "assertion_error"} and error is not None:
            text = str(error)
        return msg("kubik.problem.as_given", where=where, text=text, got=got)
    params: dict[str, Any] = {"where": where, "got": got}
    for key in ("le", "lt", "ge", "gt", "min_length", "max_length", "pattern"):
        if key in ctx:
            params[key] = _plain(ctx[key])
    if "expected" in ctx:
        params["expected"] = either(str(ctx["expected"]))
    return msg(message_id, **params)


_LAST_OR = re.compile(r" or (?=[^,]*$)")


def either(expected: str) -> tuple[str, ...]:
    """pydantic's ``'a', 'b' or 'c'`` as the values, each as JSON writes it (the
    catalogue joins them with the language's "or": ``{expected:join:, | или }``).

    >>> either("'d6', 'd8' or 'd10'")
    ('"d6"', '"d8"', '"d10"')
    >>> either("1 or 2")
    ('1', '2')
    """
    parts = [v.strip() for part in _LAST_OR.split(expected) for v in part.split(",")]
    return tuple(f'"{v[1:-1]}"' if len(v) > 1 and v[0] == v[-1] == "'" else v for v in parts if v)


def _plain(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def join(parts: Sequence[Message]) -> Message:
    """Several problems on one line, ``; `` between them."""
    return msg("kubik.problem.list", items=tuple(parts))


def problems(errors: Sequence[Mapping[str, Any]], root: str = "") -> Message:
    """Every error item of a pydantic ``ValidationError.errors()`` on one line.

    A list whose items were refused is also "too short" to pydantic (it counts only the
    items that passed): that echo of an item's error is left out.

    >>> from kubik.text.i18n import render
    >>> items = [{"type": "less_than_equal", "loc": ("a", 0, "fame"), "input": 4,
    ...           "ctx": {"le": 3}},
    ...          {"type": "too_short", "loc": ("a",), "input": [{"fame": 4}],
    ...           "ctx": {"min_length": 1, "actual_length": 0}}]
    >>> render(problems(items, "input"), "en")
    'input.a[0].fame: 4 is too large; at most 3'
    """
    failed = [tuple(item.get("loc", ())) for item in errors]
    return join(
        [
            problem(item, root)
            for item, loc in zip(errors, failed, strict=True)
            if not (item.get("type") == "too_short" and _items_refused(loc, failed))
        ]
    )


def _items_refused(loc: tuple[Any, ...], failed: Sequence[tuple[Any, ...]]) -> bool:
    """Whether an item inside the list at ``loc`` has an error of its own."""
    return any(len(other) > len(loc) and other[: len(loc)] == loc for other in failed)


__all__ = ["either", "join", "location", "problem", "problems", "shown"]
