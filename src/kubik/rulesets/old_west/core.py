"""Old West's shared vocabulary: sides, a model's status, the tests a permission may
ask for, the rulebook data, and dice reducers (the engine's :class:`Highest` and
:class:`Total`, with closed forms for exact odds).

Every rule module reads its numbers through :func:`data` (the ruleset's TOML with
the user's overrides), so no rulebook number is written in Python.

>>> Side.A.other
<Side.B: 'b'>
>>> Highest()((2, 5, 3))
5
>>> on_table(Status.FLED).rules
('OW-PLK-02',)
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from functools import cache, lru_cache
from typing import Any

from kubik.engine import Verdict, msg
from kubik.engine.applied import decides
from kubik.engine.reducers import Highest, Total
from kubik.rulesets.data import load_ruleset_data


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


class Status(StrEnum):
    """Where a model is in the game: one value, never a set of flags.

    Only models out of action are casualties; models that fled with their posse or
    left the table for a scenario objective are not (OW-PLK-02, OW-PLK-03).
    """

    IN_ACTION = "in_action"
    OUT_OF_ACTION = "out_of_action"  # lost its last Wound (OW-CC-12)
    FLED = "fled"  # ran off the table with its posse (OW-PLK-02, OW-PLK-04)
    LEFT_TABLE = "left_table"  # left for a scenario objective (OW-PLK-03)

    @property
    def in_action(self) -> bool:
        """Still on the table and fighting."""
        return self is Status.IN_ACTION

    @property
    def casualty(self) -> bool:
        """Counts as out of action for Head for the Hills (OW-PLK-03)."""
        return self is Status.OUT_OF_ACTION

    @property
    def msgid(self) -> str:
        """Message id of its name."""
        return f"old_west.status.{self.value}"


#: The rule that took a model out of play, by how it left.
_GONE_BY = {
    Status.OUT_OF_ACTION: "OW-CC-12",
    Status.FLED: "OW-PLK-02",
    Status.LEFT_TABLE: "OW-PLK-03",
}


@decides()
def on_table(status: Status) -> Verdict:
    """Only a model in action may act at all; the verdict names how the others left."""
    if status.in_action:
        return Verdict.allow()
    return Verdict.forbid(msg("old_west.permission.not_in_action", status=status), _GONE_BY[status])


class FirstTest(StrEnum):
    """A test a permission asks for before the act goes ahead (``Verdict.need``)."""

    FEARSOME = "fearsome_reputation"  # a Pluck test to charge or shoot him (OW-PLK-05)
    REACH = "reach"  # 4+ for a strike across an obstacle to reach (OW-CC-14)

    @property
    def msgid(self) -> str:
        """Message id of its name."""
        return f"old_west.test.{self.value}"


@cache
def data() -> Mapping[str, Any]:
    """The ruleset's numbers (data.toml with the user's overrides), loaded once."""
    return load_ruleset_data("old_west")


@lru_cache(maxsize=256)
def number(table: str, key: str) -> int:
    """One integer from the data: ``number("pluck", "pass_total")`` (read once, as the
    data are: the rules' exact odds replay them again and again)."""
    return int(data()[table][key])


def roll_off_low_wins(roll: int, low_max: int) -> bool:
    """A 1–3 / 4–6 roll-off: True when ``roll`` falls in the low band.

    >>> roll_off_low_wins(3, 3), roll_off_low_wins(4, 3)
    (True, False)
    """
    return roll <= low_max


__all__ = ["Highest", "Side", "Total", "data", "number", "roll_off_low_wins"]
