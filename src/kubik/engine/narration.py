"""A log for people and for JSON: each entry as a dict and as one line of text.

One form for every log: a resolution (``kubik resolve --json``) and a whole game
(``kubik play --json``) write their entries alike. Text goes through
:func:`kubik.text.i18n.render` (messages ``game.log.*`` in ``game.po``), so a log
reads the same in English and Russian.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any

from kubik.engine.dice import Die
from kubik.engine.jsonify import to_json
from kubik.engine.log import ChoiceEntry, DiceOrigin, EventEntry, LogEntry, RollEntry
from kubik.engine.requests import Message, msg, option_label
from kubik.text.i18n import catalogue, render

_RENDERED = (Enum, Message, Die, str, int, tuple)

#: Side id → the side's name as a message (a game's sides; see ``kubik.game.turns.side_name``).
SideNames = Mapping[str, Message]


def entry_json(
    entry: LogEntry, lang: str = "en", side_names: SideNames | None = None
) -> dict[str, Any]:
    """A log entry as JSON: its structure (ids, values, origins) and its text in ``lang``."""
    if isinstance(entry, RollEntry):
        return {
            "type": "roll",
            "depth": entry.depth,
            "dice": [d.name for d in entry.dice],
            "values": list(entry.values),
            "reason_id": entry.reason.id,
            "reason": render(entry.reason, lang),
            "roller": entry.roller,
            "origin": entry.origin.value,
            "rules": list(entry.rules),
            "text": entry_text(entry, lang, side_names),
        }
    if isinstance(entry, ChoiceEntry):
        return {
            "type": "choice",
            "depth": entry.depth,
            "side": entry.side,
            "reason_id": entry.reason.id,
            "reason": render(entry.reason, lang),
            "options": [to_json(o) for o in entry.options],
            "answer": to_json(entry.answer),
            "origin": entry.origin.value,
            "rules": list(entry.rules),
            **({"typed": entry.typed} if entry.typed is not None else {}),
            "text": entry_text(entry, lang, side_names),
        }
    return {
        "type": "event",
        "depth": entry.depth,
        "id": entry.event.id,
        "params": {k: to_json(v) for k, v in entry.event.params},
        "rules": list(entry.rules),
        "text": entry_text(entry, lang, side_names),
    }


def entry_text(entry: LogEntry, lang: str = "en", side_names: SideNames | None = None) -> str:
    """One line of narration for a log entry (without indentation); decisions name the
    side by ``side_names`` when given, else by its id."""
    if isinstance(entry, RollEntry):
        message_id = "game.log.roll_typed" if entry.origin is DiceOrigin.TYPED else "game.log.roll"
        return render(
            msg(
                message_id,
                dice=entry.dice,
                values=", ".join(str(v) for v in entry.values),
                reason=entry.reason,
            ),
            lang,
        )
    if isinstance(entry, ChoiceEntry):
        # enums with a msgid, messages and dice are translated by render; other values as JSON
        label = entry.label if entry.label is not None else option_label(entry.answer)
        answer: Any
        if label is not None:
            answer = label
        elif isinstance(entry.answer, _RENDERED):
            answer = entry.answer
        else:
            answer = to_json(entry.answer)
        side = _chooser(entry.side, side_names or {})
        if entry.typed is not None:
            typed = msg(
                "game.log.choice_typed",
                side=side,
                answer=answer,
                typed=entry.typed,
                reason=entry.reason,
            )
            return render(typed, lang)
        return render(msg("game.log.choice", side=side, answer=answer, reason=entry.reason), lang)
    assert isinstance(entry, EventEntry)
    return render(entry.event, lang)


def _chooser(side: str, side_names: SideNames) -> Message | str:
    """Who decides: a side's name, a rule's role (the psionic, the target ...) in words,
    else the id as given."""
    if side in side_names:
        return side_names[side]
    role = f"console.roller.{side}"
    return Message(role) if side and role in catalogue("en") else side


def narrate(entry: LogEntry, lang: str = "en", side_names: SideNames | None = None) -> str:
    """The entry's text indented by its depth (two spaces a level)."""
    return "  " * entry.depth + entry_text(entry, lang, side_names)


__all__ = ["SideNames", "entry_json", "entry_text", "narrate"]
