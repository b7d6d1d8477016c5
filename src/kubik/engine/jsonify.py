"""Outcomes and log values as JSON-ready data, and a stable order for outcomes.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class O:
...     hits: int
...     killed: bool
>>> to_json(O(2, False))
{'hits': 2, 'killed': False}
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from enum import Enum
from fractions import Fraction
from functools import cache
from typing import Any

from pydantic import BaseModel

from kubik.engine.dice import Die
from kubik.engine.requests import Message
from kubik.engine.tally import Tally


def to_json(value: Any) -> Any:
    """A JSON-ready form of an outcome, an event parameter or an answer."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Enum):
        return to_json(value.value)
    if isinstance(value, Die):
        return value.name
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, Message):
        return {"id": value.id, "params": {k: to_json(v) for k, v in value.params}}
    if isinstance(value, Tally):
        return [{"item": to_json(k), "count": n} for k, n in value.items()]
    names = _field_names(type(value))
    if names is not None and not isinstance(value, type):
        return {name: to_json(getattr(value, name)) for name in names}
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, tuple | list | frozenset | set):
        return [to_json(v) for v in value]
    return str(value)


def outcome_json(outcome: Any) -> dict[str, Any]:
    """An outcome as a JSON object (a bare value becomes ``{"value": ...}``)."""
    data = to_json(outcome)
    return data if isinstance(data, dict) else {"value": data}


def distribution_outcome_json(outcome: Any) -> dict[str, Any]:
    """An outcome of a distribution as a JSON object: :func:`outcome_json` of its
    :func:`compared_fields` only (a path's record is left out, see there)."""
    kind = type(outcome)
    names = _field_names(kind)
    if names is None or isinstance(outcome, type):
        return outcome_json(outcome)
    shown = compared_fields(kind)
    if shown == names:
        return outcome_json(outcome)
    return {name: to_json(getattr(outcome, name)) for name in shown}


_COMPARED_FIELDS: dict[type, tuple[str, ...]] = {}


def compared_fields(kind: type) -> tuple[str, ...]:
    """The fields of dataclass ``kind`` that take part in its equality, in order (read
    once per type): the fields that tell a distribution's outcomes apart. A field an
    outcome declares ``compare=False`` (Old West's ``killed_by``: whose strikes put a
    loser out, a record of one path, not part of the round's result) is the same outcome
    whatever it holds, so odds, forecasts and sentences about outcomes leave it out."""
    found = _COMPARED_FIELDS.get(kind)
    if found is None:
        found = tuple(f.name for f in dataclasses.fields(kind) if f.compare)
        _COMPARED_FIELDS[kind] = found
    return found


_FIELD_NAMES: dict[type, tuple[str, ...] | None] = {}


def _field_names(kind: type) -> tuple[str, ...] | None:
    """The fields of a dataclass, in order (``None`` for any other type), read once per
    type: every outcome of a question is one of a few types."""
    found = _FIELD_NAMES.get(kind, ())
    if found == ():
        is_dataclass = dataclasses.is_dataclass(kind)
        found = tuple(f.name for f in dataclasses.fields(kind)) if is_dataclass else None
        _FIELD_NAMES[kind] = found
    return found


@cache
def _enum_places(kind: type[Enum]) -> dict[Enum, int]:
    """Each member of an enum by its place in the declaration (read once per enum)."""
    return {member: place for place, member in enumerate(kind)}


def _order_key(value: Any) -> Any:
    if isinstance(value, Enum):
        return (0, _enum_places(type(value))[value])
    if isinstance(value, bool | int | float | Fraction):
        return (0, value)
    names = _field_names(type(value))
    if names is not None and not isinstance(value, type):
        return (1, tuple(_order_key(getattr(value, name)) for name in names))
    if isinstance(value, tuple):
        return (1, tuple(_order_key(v) for v in value))
    return (2, str(value))


def outcome_order(outcome: Any) -> Any:
    """Sort key that orders outcomes naturally: enums in declaration order, numbers up."""
    return _order_key(outcome)


def numeric_fields(outcome: Any) -> dict[str, int | bool]:
    """The outcome's fields that are numbers or booleans (for 'at least' and expectations),
    of those that tell outcomes apart (:func:`distribution_outcome_json`)."""
    names = _field_names(type(outcome))
    if names is not None and not isinstance(outcome, type):
        names = compared_fields(type(outcome))
        found = {name: getattr(outcome, name) for name in names}
        return {name: value for name, value in found.items() if isinstance(value, int | bool)}
    if isinstance(outcome, int | bool):
        return {"value": outcome}
    return {}
