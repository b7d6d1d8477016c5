"""Lines for people that fit the terminal: wrapped at word boundaries, indented, no padding.

Rich wraps a printed :class:`~rich.text.Text` at the console's width (the terminal's,
or ``COLUMNS``, or 80 in a pipe); an indented block must wrap narrower and indent its
continuation lines too, which is what :func:`print_wrapped` does (without the trailing
spaces a padded block would leave).
"""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

#: The narrowest a wrapped line gets, however deep its indent.
MIN_WIDTH = 20


def print_wrapped(console: Console, text: Text | str, indent: int = 0, hanging: int = 0) -> None:
    """Print ``text`` indented by ``indent`` columns, its continuation lines by
    ``indent + hanging``, wrapped at word boundaries to the console's width."""
    line = text if isinstance(text, Text) else Text(text)
    width = max(MIN_WIDTH, console.width - indent - hanging)
    for number, part in enumerate(line.wrap(console, width)):
        part.rstrip()
        lead = " " * (indent if number == 0 else indent + hanging)
        console.print(Text(lead) + part if lead else part, soft_wrap=True)


__all__ = ["MIN_WIDTH", "print_wrapped"]
