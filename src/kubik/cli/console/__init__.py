"""The terminal face of a game: the narrated log with rich, and the prompt loop.

:mod:`kubik.cli.console.render` prints log entries (grouped by turn, coloured by
side), the summary and the questions a person must answer;
:mod:`kubik.cli.console.prompt` asks them (typed dice, decisions with their odds,
``undo`` / ``log`` / ``save`` / ``help`` / ``quit``). Every text shown to people
comes from the ``console`` message catalogue, in English and Russian.

The prompt and the renderer (rich, the game layer) load on first use: the ``kubik``
command's rule commands only need :mod:`kubik.cli.console.parse`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from kubik.cli.console.parse import parse_side_options, split_values

if TYPE_CHECKING:
    from kubik.cli.console.prompt import Flow, PromptLoop, stdin_reader
    from kubik.cli.console.render import LogPrinter, print_summary

_LAZY = {
    "Flow": "kubik.cli.console.prompt",
    "PromptLoop": "kubik.cli.console.prompt",
    "stdin_reader": "kubik.cli.console.prompt",
    "LogPrinter": "kubik.cli.console.render",
    "print_summary": "kubik.cli.console.render",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'kubik.cli.console' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = [
    "Flow",
    "LogPrinter",
    "PromptLoop",
    "parse_side_options",
    "print_summary",
    "split_values",
    "stdin_reader",
]
