"""Words for people: messages, their English and Russian catalogues, Russian grammar.

The bottom layer for text: it imports neither the dice nor the engine (a value that
says itself in a language, such as a die, renders through :class:`~kubik.text.i18n.Said`).
:class:`Message` and :func:`msg` are here at once; :func:`render` loads the catalogues
(Babel) the first time it is used, so importing the package stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kubik.text.message import Message, msg

if TYPE_CHECKING:
    from kubik.text.i18n import render


def __getattr__(name: str) -> Any:
    if name == "render":
        from kubik.text.i18n import render

        return render
    raise AttributeError(f"module 'kubik.text' has no attribute {name!r}")


__all__ = ["Message", "msg", "render"]
