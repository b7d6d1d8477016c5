"""Odds for people: a distribution of outcomes said in sentences, field by field.

A rule's outcome has fields (``wounded``, ``hits``, ``effect`` ...). People read the
odds of each field on its own, as a sentence, not as a dump of joint outcomes:

* a yes/no field: ``wounded: yes 8.3%, no 91.7%``;
* a count: ``hits: none 42% — at least 1: 58%, at least 2: 21%; on average 0.9``;
* anything else: ``effect: suppressed 28%, no effect 16%, suppressed and hit 9%, …``.

Fields that never change are left out (unless nothing changes). Labels and words
come from the catalogues, so the same odds read in English and Russian.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Strike:
...     wounded: bool
>>> field_sentences([(Strike(True), 1 / 12), (Strike(False), 11 / 12)], "en")
['wounded: yes 8.3%, no 91.7%']
>>> field_sentences([(0, 0.42), (1, 0.37), (2, 0.21)], "ru")
['ни одного 42% — не меньше 1: 58%, не меньше 2: 21%; в среднем 0.79']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from enum import Enum
from typing import Any

from kubik.api.words import field_label, say, value_text
from kubik.engine.jsonify import compared_fields
from kubik.engine.requests import option_label

#: How many values of a field with many values are named (the rest are summed up).
TOP_VALUES = 3
#: How many "at least" thresholds of a count are named.
THRESHOLDS = 4
#: Probabilities below this are not worth a threshold of their own.
NEGLIGIBLE = 0.0005


def percent(p: float) -> str:
    """A probability for people: ``8.3%``, ``100%``, ``<0.1%`` (never "0.0%" for a chance).

    >>> percent(1 / 12), percent(1.0), percent(0.00001), percent(0.5)
    ('8.3%', '100%', '<0.1%', '50%')
    """
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    if p < 0.001:
        return "<0.1%"
    if p > 0.999:
        return ">99.9%"
    text = f"{p * 100:.1f}".removesuffix(".0")
    return f"{text}%"


def fields_of(outcome: Any) -> list[tuple[str, Any]]:
    """An outcome's fields as (name, value); a bare value is one field named ``""``. Only
    the fields that tell outcomes apart (one path's record, ``compare=False``, is not
    said of a distribution's outcomes, :func:`~kubik.engine.jsonify.compared_fields`)."""
    plain = option_label(outcome) is None and not isinstance(outcome, type)
    if plain and dataclasses.is_dataclass(outcome):
        return [(name, getattr(outcome, name)) for name in compared_fields(type(outcome))]
    if isinstance(outcome, dict):
        return [(str(key), value) for key, value in outcome.items()]
    return [("", outcome)]


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool | Enum)


def _marginal(
    distribution: Iterable[tuple[Any, float]],
) -> dict[str, dict[Any, float]]:
    fields: dict[str, dict[Any, float]] = {}
    for outcome, p in distribution:
        for name, value in fields_of(outcome):
            key = value if _hashable(value) else repr(value)
            bucket = fields.setdefault(name, {})
            bucket[key] = bucket.get(key, 0.0) + p
    return fields


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _prefix(name: str, lang: str) -> str:
    return f"{field_label(name, lang)}: " if name else ""


def _bool_sentence(name: str, values: dict[Any, float], lang: str) -> str:
    yes, no = values.get(True, 0.0), values.get(False, 0.0)
    return _prefix(name, lang) + say("cli.odds.yes_no", lang, yes=percent(yes), no=percent(no))


def _count_sentence(name: str, values: dict[Any, float], lang: str) -> str:
    ordered = sorted(values)
    lowest = ordered[0]
    first = (
        say("cli.odds.none", lang, p=percent(values[lowest]))
        if lowest == 0
        else say("cli.odds.exactly", lang, v=lowest, p=percent(values[lowest]))
    )
    steps: list[str] = []
    remaining = 1.0 - values[lowest]
    for value in ordered[1:]:
        if remaining < NEGLIGIBLE:
            break
        if len(steps) == THRESHOLDS:
            steps.append("…")
            break
        steps.append(say("cli.odds.at_least", lang, v=value, p=percent(remaining)))
        remaining -= values[value]
    mean = sum(v * p for v, p in values.items())
    text = first
    if steps:
        text += " — " + ", ".join(steps)
    text += say("cli.odds.average", lang, e=f"{mean:.2f}".rstrip("0").rstrip("."))
    return _prefix(name, lang) + text


def _other_sentence(name: str, values: dict[Any, float], lang: str) -> str:
    ranked = sorted(values.items(), key=lambda item: -item[1])
    parts = [f"{value_text(value, lang)} {percent(p)}" for value, p in ranked[:TOP_VALUES]]
    if len(ranked) > TOP_VALUES:
        rest = sum(p for _, p in ranked[TOP_VALUES:])
        parts.append(say("cli.odds.more", lang, n=len(ranked) - TOP_VALUES, p=percent(rest)))
    return _prefix(name, lang) + ", ".join(parts)


def headline(distribution: Sequence[tuple[Any, float]], lang: str) -> str | None:
    """The one figure that sums an option up, labelled (``kills ≥ 1: 34%``): the first
    field that varies — a count as the chance of at least one (or of its second value
    when it cannot be 0), a yes/no as the chance of yes, a bare number (a distance) its
    average, anything else its likeliest value; ``None`` when nothing varies."""
    for name, values in _marginal(distribution).items():
        if len(values) < 2:
            continue
        label = field_label(name, lang) if name else say("kubik.outcome", lang).lower()
        if all(isinstance(v, bool) for v in values):
            return f"{label}: {value_text(True, lang)} {percent(values.get(True, 0.0))}"
        if all(_is_count(v) for v in values) and not name:  # a bare number: a distance
            mean = sum(v * p for v, p in values.items())
            return say("console.choose.average", lang, value=f"{mean:.1f}")
        if all(_is_count(v) for v in values):
            ordered = sorted(values)
            low = ordered[1] if ordered[0] == 0 else ordered[0] + 1
            if low > ordered[-1]:
                low = ordered[-1]
            chance = sum(p for v, p in values.items() if v >= low)
            return f"{label} ≥ {low}: {percent(chance)}"
        value, chance = max(values.items(), key=lambda item: item[1])
        return f"{label}: {value_text(value, lang)} {percent(chance)}"
    return None


def field_sentences(distribution: Sequence[tuple[Any, float]], lang: str) -> list[str]:
    """One sentence per field that varies (``always …`` when no field does)."""
    marginals = _marginal(distribution)
    lines: list[str] = []
    for name, values in marginals.items():
        if len(values) < 2:
            continue
        if all(isinstance(v, bool) for v in values):
            lines.append(_bool_sentence(name, values, lang))
        elif all(_is_count(v) for v in values):
            lines.append(_count_sentence(name, values, lang))
        else:
            lines.append(_other_sentence(name, values, lang))
    if not lines and distribution:
        lines.append(say("cli.odds.always", lang, outcome=outcome_words(distribution[0][0], lang)))
    return lines


def outcome_words(outcome: Any, lang: str) -> str:
    """One outcome for people: ``wounded: yes`` / ``effect: suppressed, hits: 2``."""
    label = option_label(outcome)
    if label is not None:
        return value_text(outcome, lang)
    parts = []
    for name, value in fields_of(outcome):
        text = value_text(value, lang)
        parts.append(f"{field_label(name, lang)}: {text}" if name else text)
    return ", ".join(parts)


__all__ = [
    "NEGLIGIBLE",
    "THRESHOLDS",
    "TOP_VALUES",
    "field_label",
    "field_sentences",
    "fields_of",
    "headline",
    "outcome_words",
    "percent",
]
