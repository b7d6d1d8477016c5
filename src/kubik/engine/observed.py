"""How lucky was that roll: a real outcome placed in its exact distribution.

Given the fields of an outcome as it happened at the table (``{"wounded": 0,
"killed": 3}``), :func:`place` reports the probability of exactly that (every given
field matching), and for each field: the chance of that value, of at least and at
most it, and its percentile (the share of outcomes below it plus half of those equal:
50 is a typical result, 95 a lucky one for a field where more is better).

>>> from fractions import Fraction
>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Volley:
...     killed: int
>>> dist = {Volley(0): Fraction(1, 2), Volley(1): Fraction(1, 3), Volley(2): Fraction(1, 6)}
>>> placed = place(dist, {"killed": 1})
>>> killed = placed["fields"]["killed"]
>>> placed["probability"], killed["at_least"], killed["percentile"]
('1/3', '1/2', 66.6667)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from kubik.core.errors import InputError, ProcedureError
from kubik.engine.jsonify import distribution_outcome_json, numeric_fields
from kubik.engine.odds import OddsCache, OddsDriver
from kubik.engine.optimal import Optimal
from kubik.engine.requests import Procedure


def _number(value: Any) -> Fraction | None:
    if isinstance(value, bool):
        return Fraction(int(value))
    if isinstance(value, int):
        return Fraction(value)
    return None


def _same(a: Any, b: Any) -> bool:
    left, right = _number(a), _number(b)
    if left is not None and right is not None:
        return left == right
    return bool(a == b)


def place(distribution: Mapping[Any, Fraction], observed: Mapping[str, Any]) -> dict[str, Any]:
    """The observed outcome's place in ``distribution``, JSON-ready (exact fractions as text)."""
    if not observed:
        raise InputError("observed: give at least one field of the outcome, e.g. '{\"killed\": 3}'")
    rows = [(distribution_outcome_json(o), p) for o, p in distribution.items()]
    known = sorted({name for data, _ in rows for name in data})
    for name in observed:
        if name not in known:
            raise InputError(f"observed.{name}: no such field; fields: {', '.join(known)}")
    exact = sum(
        (p for data, p in rows if all(_same(data[k], v) for k, v in observed.items())), Fraction(0)
    )
    fields: dict[str, Any] = {}
    for name, value in observed.items():
        equal = sum((p for data, p in rows if _same(data[name], value)), Fraction(0))
        entry: dict[str, Any] = {"value": value, "probability": str(equal), "p": _round(equal)}
        target = _number(value)
        numbers = [(_number(data[name]), p) for data, p in rows]
        if target is not None and all(n is not None for n, _ in numbers):
            below = sum((p for n, p in numbers if n is not None and n < target), Fraction(0))
            above = sum((p for n, p in numbers if n is not None and n > target), Fraction(0))
            percentile = below + equal / 2
            entry.update(
                {
                    "at_least": str(equal + above),
                    "p_at_least": _round(equal + above),
                    "at_most": str(equal + below),
                    "p_at_most": _round(equal + below),
                    "percentile": round(float(percentile) * 100, 4),
                }
            )
        elif target is None and _number(next(iter(d[name] for d, _ in rows), None)) is not None:
            raise InputError(f"observed.{name}: {value!r} is not a number")
        fields[name] = entry
    return {
        "outcome": dict(observed),
        "probability": str(exact),
        "p": _round(exact),
        "fields": fields,
    }


def luck(
    procedure: Callable[..., Procedure[Any]],
    args: tuple[Any, ...],
    outcome: Any,
    cache: OddsCache | None = None,
) -> dict[str, Any] | None:
    """How lucky an outcome of ``procedure(*args)`` was, over its numeric fields.

    The reference is the exact distribution with decisions as the optimal policy takes
    them where the rule declares goals, else at their defaults. ``None`` when the
    outcome has no numeric field to compare.
    """
    fields = {
        k: int(v) if not isinstance(v, bool) else v for k, v in numeric_fields(outcome).items()
    }
    if not fields:
        return None
    odds = OddsDriver(cache=cache)
    distribution = None
    if odds.has_decisions(procedure, args):
        try:
            distribution = OddsDriver(Optimal(), odds.cache).distribution(procedure, args)
        except ProcedureError:
            distribution = None
    if distribution is None:
        distribution = odds.distribution(procedure, args)
    return place(distribution, fields)


def _round(p: Fraction) -> float:
    return round(float(p), 6)


__all__ = ["luck", "place"]
