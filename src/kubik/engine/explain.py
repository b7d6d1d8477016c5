"""The optimal policy shown, not just its value: each decision it takes, in words.

Every decision point the optimal policy meets becomes one row: the side, the
situation (the decision's own question, rendered in English or Russian), what it
does there (an option, or a mixed strategy for a sealed bid) and how likely the
procedure is to get there. Rows that only take the decision's default can be
left out of a summary for people.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from kubik.engine.jsonify import to_json
from kubik.engine.optimal import Note
from kubik.i18n import render


def explain_rows(notes: Mapping[Note, Fraction], lang: str = "en") -> list[dict[str, Any]]:
    """The decisions as JSON-ready rows, most likely first."""
    ordered = sorted(notes.items(), key=lambda kv: (-kv[1], kv[0].side, render(kv[0].reason, lang)))
    rows = []
    for note, reach in ordered:
        rows.append(
            {
                "side": note.side,
                "situation": render(note.reason, lang),
                "situation_id": note.reason.id,
                "params": {k: to_json(v) for k, v in note.reason.params},
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


__all__ = ["choice_text", "explain_rows"]
