"""Woundin' (OW-CC-05): one strike against the wound chart."""

from __future__ import annotations

from dataclasses import dataclass

from kubik.dice import D6
from kubik.engine import Procedure, Roll, emit, msg
from kubik.rulesets.old_west.chart import cell


@dataclass(frozen=True, slots=True)
class WoundOutcome:
    """Whether the strike wounded."""

    wounded: bool


def wound(strength: int, toughness: int) -> Procedure[WoundOutcome]:
    """Roll to wound: one d6 against the chart; a 6/X cell needs a 6, then X+ on a second d6.

    A "-" cell cannot wound, so nothing is rolled.
    """
    needed = cell(strength, toughness)
    if needed.first is None:
        yield emit("old_west.wound.impossible", strength=strength, toughness=toughness)
        return WoundOutcome(False)
    (first,) = yield Roll(D6, msg("old_west.wound.roll", needed=needed.first), roller="striker")
    wounded = first >= needed.first
    if wounded and needed.second is not None:
        (second,) = yield Roll(
            D6, msg("old_west.wound.second_roll", needed=needed.second), roller="striker"
        )
        wounded = second >= needed.second
    yield emit(
        "old_west.wound.result",
        strength=strength,
        toughness=toughness,
        cell=str(needed),
        wounded=wounded,
    )
    return WoundOutcome(wounded)
