"""Odds of variants of one question side by side, and of one input swept over a range.

A player weighs a choice — this weapon or that, at 12 inches or at 24 — by the same
numbers for each: every field's mean and "at least" odds. :func:`compare_inputs`
answers a question and its variants (each a few FIELD=VALUE words over the question);
:func:`sweep` answers it for every value of one input (``distance=1..36``). Both give
each answer's fields as :func:`~kubik.api.probabilities.marginals` (exact fractions
and floats), so the terminal, the web page and scripts read the same JSON.

>>> found = sweep("old_west.wound", {"strength": 3, "toughness": 3}, "strength=3..5")
>>> [point["value"] for point in found["points"]]
[3, 4, 5]
>>> [round(point["fields"]["wounded"]["e"], 3) for point in found["points"]]  # 4+, 4+, 3+
[0.5, 0.5, 0.667]
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from kubik.api.odds_words import fields_of
from kubik.api.probabilities import exact_distribution, marginals
from kubik.api.question_words import question_from_words, schema_at
from kubik.api.words import value_text
from kubik.core.errors import InputError
from kubik.engine import registry
from kubik.engine.jsonify import to_json
from kubik.engine.requests import msg

#: Values of one sweep at most (each is an exact question of its own).
MOST_POINTS = 100
#: Variants compared side by side at most.
MOST_VARIANTS = 8
_RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*(?:/\s*(\d+)\s*)?$")


def merged(base: Any, over: Any) -> Any:
    """``over`` laid on ``base``: objects field by field, lists of objects item by item
    (an empty item keeps the one under it), anything else replaced."""
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for key, value in over.items():
            out[key] = merged(base[key], value) if key in base else value
        return out
    if isinstance(base, list) and isinstance(over, list) and all(isinstance(i, dict) for i in over):
        size = max(len(base), len(over))
        return [
            merged(base[i] if i < len(base) else {}, over[i] if i < len(over) else {})
            for i in range(size)
        ]
    return over


def variant(name: str, base: dict[str, Any], words: Sequence[str]) -> dict[str, Any]:
    """The question ``base`` with ``words`` (FIELD=VALUE) laid over it: a field named
    whole (``weapons=hmg``) is replaced, a field named by its parts (``a.2.fight=5``)
    is changed in those parts only."""
    model = registry.get(name).input_model
    over = question_from_words(model, words)
    whole = {w.partition("=")[0].strip() for w in words if "." not in w.partition("=")[0]}
    out = dict(base)
    for key, value in over.items():
        out[key] = value if key in whole or key not in base else merged(base[key], value)
    return out


def _answer(name: str, question: dict[str, Any], policy: str, lang: str) -> dict[str, Any]:
    """Each field's marginals: a numeric field's as :func:`marginals` gives them; any
    other field (an effect, a winner) as its values' chances, ``{"values": [{"value",
    "probability", "p", "text"}], "choice": true}`` (``text``: the value for people)."""
    distribution = exact_distribution(name, question, policy)
    fields = marginals(distribution)
    others: dict[str, dict[str, tuple[Any, str, Fraction]]] = {}
    for outcome, p in distribution.items():
        for field, value in fields_of(outcome):
            field = field or "outcome"
            if field in fields:
                continue
            key = json.dumps(to_json(value), sort_keys=True)
            bucket = others.setdefault(field, {})
            known = bucket.get(key)
            chance = (known[2] if known else Fraction(0)) + p
            bucket[key] = (to_json(value), value_text(value, lang), chance)
    for field, values in others.items():
        rows = [
            {"value": value, "probability": str(chance), "p": round(float(chance), 6), "text": text}
            for value, text, chance in sorted(values.values(), key=lambda item: -item[2])
        ]
        fields[field] = {"values": rows, "choice": True}
    return fields


def compare_inputs(
    name: str,
    base: dict[str, Any],
    variants: Sequence[Sequence[str]],
    policy: str = "default",
    lang: str = "en",
) -> dict[str, Any]:
    """The question and each variant of it, side by side: every field's marginals per
    variant and the difference of each variant's mean from the question's.

    ``{"procedure", "policy", "variants": [{"label", "input", "fields"}], "difference":
    {field: ["p/q", ...]}}`` (the first variant is the question itself, label ``""``).
    """
    spec = registry.get(name)
    if len(variants) + 1 > MOST_VARIANTS:
        raise InputError(msg("cli.variants.too_many", most=MOST_VARIANTS - 1))
    questions = [("", base)] + [(" ".join(w), variant(name, base, w)) for w in variants]
    answers: list[dict[str, Any]] = [
        {"label": label, "input": question, "fields": _answer(name, question, policy, lang)}
        for label, question in questions
    ]
    difference: dict[str, list[str]] = {}
    first: dict[str, Any] = answers[0]["fields"]
    for field, found in first.items():
        if found.get("choice"):
            continue
        expected = Fraction(found["expected"])
        difference[field] = [
            str(Fraction(a["fields"][field]["expected"]) - expected)
            if "expected" in a["fields"].get(field, {})
            else "0"
            for a in answers[1:]
        ]
    return {"procedure": spec.name, "policy": policy, "variants": answers, "difference": difference}


def sweep_values(over: str, name: str) -> tuple[str, list[int]]:
    """``distance=1..36`` (a step by ``/2``) as the field and its values."""
    field, equals, span = over.partition("=")
    found = _RANGE.match(span) if equals else None
    if not found or not field.strip():
        raise InputError(msg("cli.variants.bad_over", over=over))
    low, high, step = int(found.group(1)), int(found.group(2)), int(found.group(3) or 1)
    if high < low or step < 1:
        raise InputError(msg("cli.variants.bad_over", over=over))
    values = list(range(low, high + 1, step))
    if len(values) > MOST_POINTS:
        raise InputError(msg("cli.variants.too_long", over=over, most=MOST_POINTS))
    field = field.strip()
    schema = schema_at(registry.get(name).input_model, field)
    if schema is None or schema.get("type") not in ("integer", "number"):
        raise InputError(msg("cli.variants.not_numeric", field=field))
    return field, values


def sweep(
    name: str, base: dict[str, Any], over: str, policy: str = "default", lang: str = "en"
) -> dict[str, Any]:
    """The question for every value of one input: ``{"procedure", "policy", "field",
    "points": [{"value", "fields"}]}``. A value the rules refuse (no weapon reaches that
    far) is a point with its ``error`` and no fields; if every value is refused, the
    first refusal is the error."""
    spec = registry.get(name)
    field, values = sweep_values(over, name)
    points: list[dict[str, Any]] = []
    refused: InputError | None = None
    for value in values:
        try:
            question = variant(name, base, [f"{field}={value}"])
            points.append({"value": value, "fields": _answer(name, question, policy, lang)})
        except InputError as error:
            refused = refused or error
            points.append({"value": value, "fields": {}, "error": error.text(lang)})
    if refused is not None and all("error" in point for point in points):
        raise refused
    return {"procedure": spec.name, "policy": policy, "field": field, "points": points}


__all__ = ["MOST_POINTS", "compare_inputs", "merged", "sweep", "sweep_values", "variant"]
