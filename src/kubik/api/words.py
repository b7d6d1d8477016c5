"""Words for people: console messages, option labels, outcomes, side names.

Everything is rendered from message catalogues (``console.po`` and the rulesets'),
so the terminal reads the same in English and Russian.

>>> say("console.summary.draw", "en"), say("console.summary.draw", "ru")
('A draw (ничья).', 'Ничья.')
>>> count_label("units_left", "ru"), count_label("made_up_count", "en")
('отрядов осталось', 'made up count')
>>> outcome_text({"hits": 2, "killed": 1}, "en"), outcome_text(True, "en")
('hits 2, killed 1', 'true')
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any

from kubik.engine.dice import Die
from kubik.engine.jsonify import compared_fields, to_json
from kubik.engine.requests import Choose, Message, msg, option_label
from kubik.text.i18n import catalogue, render


def unit_labels(units: Sequence[tuple[str, str]], side_ids: Sequence[str]) -> dict[str, str]:
    """Every unit's short label on a map, by unit id: its side's letter (A, B, … in the
    scenario's order of sides) and its place among that side's units (``A1``, ``B3``).
    ``units`` are (unit id, side id) in the scenario's order. Labels come from the
    scenario alone, so a unit keeps its label all game, whoever else is lost or hidden,
    and the terminal's map and the web table name it alike.

    >>> unit_labels([("s1", "steel"), ("l1", "lianra"), ("s2", "steel")], ["steel", "lianra"])
    {'s1': 'A1', 'l1': 'B1', 's2': 'A2'}
    """
    labels: dict[str, str] = {}
    counts: dict[str, int] = {}
    for unit, side in units:
        letter = chr(ord("A") + side_ids.index(side)) if side in side_ids else "X"
        counts[side] = counts.get(side, 0) + 1
        labels[unit] = f"{letter}{counts[side]}"
    return labels


def say(message_id: str, lang: str, /, **params: Any) -> str:
    """A console message in ``lang``."""
    return render(msg(message_id, **params), lang)


def _known(message_id: str, lang: str) -> bool:
    return message_id in catalogue(lang) or message_id in catalogue("en")


def field_label(name: str, lang: str) -> str:
    """An outcome field's name for people (``morale drop``); unknown ones spelled out."""
    message_id = f"kubik.field.{name}"
    if message_id in catalogue(lang) or message_id in catalogue("en"):
        return say(message_id, lang)
    return name.replace("_", " ")


def count_label(name: str, lang: str) -> str:
    """A summary count's name (``units_left``) for people; unknown names spelled out."""
    message_id = f"console.count.{name}"
    return say(message_id, lang) if _known(message_id, lang) else name.replace("_", " ")


def policy_label(name: str, lang: str) -> str:
    """A policy's name for people: its words where the catalogue has them (``optimal`` →
    «оптимальная»), with the name ``--policy`` takes; else the name itself."""
    message_id = f"kubik.policy_name.{name}"
    return say(message_id, lang) if _known(message_id, lang) else name


def policy_role(role: str, lang: str) -> str:
    """A side of a procedure's decisions for people (``a`` → side A, «стороны А»; the
    Russian form is the one «Цель …» takes); else the id itself."""
    message_id = f"kubik.role.{role}"
    return say(message_id, lang) if _known(message_id, lang) else role


def side_label(side: str, side_names: Mapping[str, Message], lang: str) -> str:
    """A side's name in ``lang`` (its id when the scenario has no such side)."""
    name = side_names.get(side)
    return render(name, lang) if name is not None else side


def roller_label(roller: str, side_names: Mapping[str, Message], lang: str) -> str:
    """Who rolls: a side's or unit's name (``side_names`` may name the roles of the rule
    being applied), a known role (shooter, target ...) or the role as given; several
    rollers one after the other ("shooter, target") each so."""
    if ", " in roller:
        first, rest = roller.split(", ", 1)
        return say(
            "console.roller.then",
            lang,
            first=roller_label(first, side_names, lang),
            then=roller_label(rest, side_names, lang),
        )
    if roller in side_names:
        return side_label(roller, side_names, lang)
    message_id = f"console.roller.{roller}"
    return say(message_id, lang) if roller and _known(message_id, lang) else roller


def value_text(value: Any, lang: str) -> str:
    """Any option or outcome value for people: translated where it can be, else JSON."""
    label = option_label(value)
    if label is not None:
        return render(label, lang)
    if isinstance(value, Message):
        return render(value, lang)
    if isinstance(value, Die | bool) or (isinstance(value, Enum) and getattr(value, "msgid", None)):
        return render(msg("console.value", value=value), lang)  # a named StrEnum too
    if value is None:  # a field with nothing in it this time (no side broken)
        return render(msg("kubik.value.none"), lang)
    if isinstance(value, str):
        said = f"kubik.value.{value}"  # a word every ruleset's outcomes use (a draw)
        return render(msg(said), lang) if _known(said, lang) else value
    data = to_json(value)
    if isinstance(data, str):
        return data
    return json.dumps(data, ensure_ascii=False)


def option_text(request: Choose, option: Any, lang: str) -> str:
    """An option of a decision for people: the label the decision gives it, else its own."""
    label = request.label(option)
    return render(label, lang) if label is not None else value_text(option, lang)


def outcome_text(outcome: Any, lang: str) -> str:
    """A rule's outcome as ``field value, field value`` (a bare value as itself)."""
    label = option_label(outcome)
    if label is not None:
        return render(label, lang)
    if dataclasses.is_dataclass(outcome) and not isinstance(outcome, type):
        parts = (
            (field_label(name, lang), _field_text(getattr(outcome, name), lang))
            for name in compared_fields(type(outcome))
        )
        return ", ".join(f"{name} {text}" for name, text in parts)
    data = to_json(outcome)
    if isinstance(data, dict):
        return ", ".join(f"{key} {_plain(value)}" for key, value in data.items())
    return _plain(data)


def _field_text(value: Any, lang: str) -> str:
    """An outcome field: named enums translated, everything else as plain JSON."""
    if isinstance(value, Enum) and getattr(value, "msgid", None):
        return value_text(value, lang)
    return _plain(to_json(value))


def _plain(data: Any) -> str:
    if isinstance(data, bool):
        return "true" if data else "false"
    if isinstance(data, str | int | float):
        return str(data)
    return json.dumps(data, ensure_ascii=False)


__all__ = [
    "count_label",
    "field_label",
    "option_text",
    "outcome_text",
    "policy_label",
    "policy_role",
    "roller_label",
    "say",
    "side_label",
    "value_text",
]
