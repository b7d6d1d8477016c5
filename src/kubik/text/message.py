"""A structured piece of text: a catalogue message id and its parameters.

Rules, games and errors say things as :class:`Message` values, never as formatted
text; :func:`kubik.text.i18n.render` turns one into English or Russian at the edge
(the command line, the web).

>>> msg("kubik.test.plural", n=2)
Message(id='kubik.test.plural', params=(('n', 2),))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Message:
    """A structured piece of text: a catalogue message id and its parameters.

    Never pre-formatted: it is rendered per language at the edge (CLI, web).
    """

    id: str
    params: tuple[tuple[str, Any], ...] = ()

    @property
    def kwargs(self) -> dict[str, Any]:
        """The parameters as a dict (for rendering and JSON)."""
        return dict(self.params)


def msg(message_id: str, /, **params: Any) -> Message:
    """Build a :class:`Message`: ``msg("kubik.test.plural", n=2)``."""
    return Message(message_id, tuple(params.items()))


__all__ = ["Message", "msg"]
