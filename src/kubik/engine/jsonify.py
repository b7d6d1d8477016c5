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
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
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


def _order_key(value: Any) -> Any:
    if isinstance(value, Enum):
        return (0, list(type(value)).index(value))
    if isinstance(value, bool | int | float | Fraction):
        return (0, value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (1, tuple(_order_key(getattr(value, f.name)) for f in dataclasses.fields(value)))
    if isinstance(value, tuple):
        return (1, tuple(_order_key(v) for v in value))
    return (2, str(value))


def outcome_order(outcome: Any) -> Any:
    """Sort key that orders outcomes naturally: enums in declaration order, numbers up."""
    return _order_key(outcome)


def numeric_fields(outcome: Any) -> dict[str, int | bool]:
    """The outcome's fields that are numbers or booleans (for 'at least' and expectations)."""
    if dataclasses.is_dataclass(outcome) and not isinstance(outcome, type):
        return {
            f.name: getattr(outcome, f.name)
            for f in dataclasses.fields(outcome)
            if isinstance(getattr(outcome, f.name), int | bool)
        }
    if isinstance(outcome, int | bool):
        return {"value": outcome}
    return {}
