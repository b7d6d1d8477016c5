"""The optimal policy shown, not just its value: each decision it takes, in words.

Every decision point the optimal policy meets becomes one row: the side, the
situation, what it does there (an option, or a mixed strategy for a sealed bid) and
how likely the procedure is to get there. A ruleset may say what matters in a
decision's situation (:func:`summarise`: "a behind by 1 with 2 Fame" instead of the
dice themselves); situations that read the same and are decided the same are then
one row. Rows that only take the decision's default can be left out for people.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from kubik.engine.expectimax import Note
from kubik.engine.jsonify import to_json
from kubik.engine.objectives import situation, summarise
from kubik.engine.requests import Message


def explain_rows(notes: Mapping[Note, Fraction], lang: str = "en") -> list[dict[str, Any]]:
    """The decisions as JSON-ready rows, most likely first (same reading, same decision:
    one row, ``cases`` counting the situations merged)."""
    from kubik.text.i18n import render  # text for people: loaded only when asked for

    merged: dict[tuple[Any, ...], tuple[Note, Message, Fraction, int]] = {}
    for note, reach in notes.items():
        summary = situation(note.reason)
        key = (note.side, summary, tuple((option, p) for option, p, _ in note.choice))
        if key in merged:
            first, _, total, cases = merged[key]
            merged[key] = (first, summary, total + reach, cases + 1)
        else:
            merged[key] = (note, summary, reach, 1)
    ordered = sorted(
        merged.values(), key=lambda item: (-item[2], item[0].side, render(item[1], lang))
    )
    rows = []
    for note, summary, reach, cases in ordered:
        rows.append(
            {
                "side": note.side,
                "situation": render(summary, lang),
                "situation_id": summary.id,
                "params": {k: to_json(v) for k, v in summary.params},
                "cases": cases,
                "choice": [
                    {
                        "option": to_json(option),
                        "label": render(label, lang) if label else str(to_json(option)),
                        "probability": str(p),
                    }
                    for option, p, label in note.choice
                ],
                "default": note.takes_default,
                "reach": str(reach),
                "p": round(float(reach), 6),
            }
        )
    return rows


def choice_text(row: Mapping[str, Any]) -> str:
    """A row's choice in one line: ``spend 1 Fame`` or ``spend no Fame 1/3, spend 1 Fame 2/3``."""
    choices = row["choice"]
    if len(choices) == 1:
        return str(choices[0]["label"])
    return ", ".join(f"{c['label']} {c['probability']}" for c in choices)


__all__ = ["choice_text", "explain_rows", "situation", "summarise"]
