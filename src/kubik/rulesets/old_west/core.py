"""Old West's shared vocabulary: sides, the rulebook data, and dice reducers
(the engine's :class:`Highest` and :class:`Total`, with closed forms for exact odds).

Every rule module reads its numbers through :func:`data` (the ruleset's TOML with
the user's overrides), so no rulebook number is written in Python.

>>> Side.A.other
<Side.B: 'b'>
>>> Highest()((2, 5, 3))
5
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache
from typing import Any

from kubik.data import load_ruleset_data
from kubik.engine.reducers import Highest, Total


class Side(StrEnum):
    """The two sides of a fight or of the game (JSON: "a" / "b")."""

    A = "a"
    B = "b"

    @property
    def other(self) -> Side:
        """The opposing side."""
        return Side.B if self is Side.A else Side.A

    @property
    def msgid(self) -> str:
        """Message id of the side's name, for rendering."""
        return f"old_west.side.{self.value}"


@cache
def data() -> dict[str, Any]:
    """The ruleset's numbers (data.toml with the user's overrides), loaded once."""
    return load_ruleset_data("old_west")


def number(table: str, key: str) -> int:
    """One integer from the data: ``number("pluck", "pass_total")``."""
    return int(data()[table][key])


def roll_off_low_wins(roll: int, low_max: int) -> bool:
    """A 1–3 / 4–6 roll-off: True when ``roll`` falls in the low band.

    >>> roll_off_low_wins(3, 3), roll_off_low_wins(4, 3)
    (True, False)
    """
    return roll <= low_max


__all__ = ["Highest", "Side", "Total", "data", "number", "roll_off_low_wins"]
