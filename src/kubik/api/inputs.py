"""Inputs from outside: JSON read within kubik's limits, and a procedure's input
validated by its model, every bad field named in one line."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping
from enum import Enum
from typing import Any

from pydantic import BaseModel, ValidationError

from kubik.core.errors import InputError
from kubik.core.limits import INPUT_BYTES, INPUT_DEPTH, too_deep
from kubik.engine.problems import join, problems, shown
from kubik.engine.registry import ProcedureInput, ProcedureSpec
from kubik.engine.requests import Message, msg

InputLike = Mapping[str, Any] | str | ProcedureInput


def validation_problem(error: ValidationError) -> Message:
    """One line naming each bad field and what is allowed, as a message (en or ru)."""
    return problems(error.errors(), "input")


def validation_message(error: ValidationError) -> str:
    """One line naming each bad field and what is allowed (English)."""
    from kubik.text.i18n import render

    return render(validation_problem(error), "en")


class _NotFinite(ValueError):
    """``NaN``, ``Infinity`` or ``-Infinity`` in JSON text (Python reads them; JSON has none)."""


def _refuse_constant(name: str) -> Any:
    raise _NotFinite(name)


def parse_json(text: str, source: str = "input") -> Any:
    """JSON text → its value, within the limits: :data:`~kubik.core.limits.INPUT_BYTES`
    bytes, :data:`~kubik.core.limits.INPUT_DEPTH` levels of nesting, finite numbers only.

    Every problem is an :class:`InputError` naming ``source``.
    """
    size = len(text.encode("utf-8", errors="replace"))
    if size > INPUT_BYTES:
        raise InputError(msg("kubik.input.too_big", source=source, size=size, limit=INPUT_BYTES))
    if not text.strip():
        raise InputError(msg("kubik.input.empty", source=source))
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        where = {"line": error.lineno, "column": error.colno}
        raise InputError(
            msg("kubik.input.bad_json", source=source, error=str(error), **where)
        ) from None
    except RecursionError:
        raise InputError(msg("kubik.input.too_deep", source=source, limit=INPUT_DEPTH)) from None
    except _NotFinite as error:
        raise InputError(msg("kubik.input.bad_number", source=source, number=str(error))) from None
    except ValueError:  # an integer of thousands of digits
        digits = sys.get_int_max_str_digits()
        raise InputError(msg("kubik.input.long_number", source=source, limit=digits)) from None
    check_depth(data, source)
    return data


def check_depth(data: Any, source: str = "input") -> None:
    """Refuse JSON-like data nested deeper than :data:`~kubik.core.limits.INPUT_DEPTH`."""
    plain = dict(data) if isinstance(data, Mapping) else data
    if too_deep(plain, INPUT_DEPTH):
        raise InputError(msg("kubik.input.too_deep", source=source, limit=INPUT_DEPTH))


def _number_problems(raw: Any, value: Any, where: str) -> list[Message]:
    """Fields whose value became a number from ``true``/``false`` or from text.

    pydantic's lax mode reads ``true`` as 1 and ``"3"`` as 3; kubik's inputs are JSON,
    where a number is written as a number, so those are refused, naming the field.
    """
    if isinstance(value, BaseModel) and isinstance(raw, Mapping):
        found: list[Message] = []
        for name, field in type(value).model_fields.items():
            key = field.alias or name
            if key in raw:
                found += _number_problems(raw[key], getattr(value, name), f"{where}.{key}")
        return found
    if isinstance(value, tuple | list) and isinstance(raw, list | tuple):
        if len(value) != len(raw):
            return []
        found = []
        for index, (item_raw, item) in enumerate(zip(raw, value, strict=True)):
            found += _number_problems(item_raw, item, f"{where}[{index}]")
        return found
    if isinstance(value, Mapping) and isinstance(raw, Mapping):
        found = []
        for key, item_raw in raw.items():
            if key in value:
                found += _number_problems(item_raw, value[key], f"{where}.{key}")
        return found
    is_number = isinstance(value, int | float) and not isinstance(value, bool | Enum)
    if is_number and isinstance(raw, bool | str):
        kind = "kubik.problem.not_whole" if isinstance(value, int) else "kubik.problem.not_number"
        return [msg(kind, where=where, got=shown(raw))]
    return []


#: Leaves of JSON that no model reads as anything but what they are.
_PLAIN_LEAVES = frozenset({int, float, type(None)})
#: What :func:`_leaves` finds: only numbers and nulls, other leaves too, or too deep.
_NUMBERS, _OTHERS, _TOO_DEEP = 0, 1, 2


def _leaves(value: object, depth: int = 0) -> int:
    """Whether JSON-like ``value`` nests deeper than :data:`~kubik.core.limits.INPUT_DEPTH`
    (as :func:`check_depth` judges it) or has leaves other than numbers and nulls (a
    flag or a text a model may have read as a number): one walk for both, at most
    that deep."""
    items: Iterable[object]
    if isinstance(value, dict):
        items = value.values()
    elif isinstance(value, list | tuple):
        items = value
    else:
        return _NUMBERS if type(value) in _PLAIN_LEAVES else _OTHERS
    if depth >= INPUT_DEPTH:
        return _TOO_DEEP
    found = _NUMBERS
    for item in items:
        inner = _leaves(item, depth + 1)
        if inner == _TOO_DEEP:
            return _TOO_DEEP
        if inner > found:
            found = inner
    return found


def parse_input(spec: ProcedureSpec, data: InputLike) -> ProcedureInput:
    """Validate ``data`` against the procedure's input model (errors name the field)."""
    if isinstance(data, ProcedureInput):
        return data
    if isinstance(data, str):
        data = parse_json(data)
    if not isinstance(data, Mapping):
        example = json.dumps(dict(spec.examples[0]), ensure_ascii=False) if spec.examples else "{}"
        raise InputError(
            msg("kubik.input.not_object", source="input", procedure=spec.name, example=example)
        )
    plain = dict(data)
    leaves = _leaves(plain)
    if leaves == _TOO_DEEP:
        raise InputError(msg("kubik.input.too_deep", source="input", limit=INPUT_DEPTH))
    try:
        parsed = spec.input_model.model_validate(plain)
    except ValidationError as error:
        raise InputError(validation_problem(error)) from None
    except RecursionError:
        raise InputError(msg("kubik.input.too_deep", source="input", limit=INPUT_DEPTH)) from None
    wrong = [] if leaves == _NUMBERS else _number_problems(data, parsed, "input")
    if wrong:
        raise InputError(join(wrong))
    return parsed
