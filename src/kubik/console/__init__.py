"""The terminal face of a game: the narrated log with rich, and the prompt loop.

:mod:`kubik.console.render` prints log entries (grouped by turn, coloured by
side), the summary and the questions a person must answer;
:mod:`kubik.console.prompt` asks them (typed dice, decisions with their odds,
``undo`` / ``log`` / ``save`` / ``help`` / ``quit``). Every text shown to people
comes from the ``console`` message catalogue, in English and Russian.
"""

from kubik.console.parse import parse_side_options, split_values
from kubik.console.prompt import Flow, PromptLoop, stdin_reader
from kubik.console.render import LogPrinter, print_summary

__all__ = [
    "Flow",
    "LogPrinter",
    "PromptLoop",
    "parse_side_options",
    "print_summary",
    "split_values",
    "stdin_reader",
]
