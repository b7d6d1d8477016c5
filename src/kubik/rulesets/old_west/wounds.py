"""Woundin' (OW-CC-05): one strike against the wound chart, with the striker's Fame.

A 6/X cell needs a 6 and then X+ on a second d6 (OW-CC-07). A Hero may spend Fame
on each roll (OW-HERO-05): points spent lifting the first roll to 6 also apply to
the second roll automatically, and more may be spent on the second.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from kubik.engine import Procedure, Roll, Tally, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import D6
from kubik.rulesets.old_west.chart import cell
from kubik.rulesets.old_west.fame import FameRoll, apply_fame, offer_fame


@dataclass(frozen=True, slots=True)
class WoundOutcome:
    """Whether the strike wounded (the public outcome of ``old_west.wound``)."""

    wounded: bool


@dataclass(frozen=True, slots=True)
class FameWound:
    """Whether the strike wounded, and the Fame the striker spent on it."""

    wounded: bool
    fame_spent: int = 0


@lru_cache(maxsize=256)
def _wound_roll(needed: int, side: str, second: bool) -> Roll:
    """A wound roll's request (the second d6 of a 6/X cell when ``second``), built once
    per situation: the exact odds replay a strike's rolls again and again."""
    if second:
        return Roll(
            D6,
            msg("old_west.wound.second_roll", needed=needed),
            roller=side,
            rules=("OW-CC-07",),
        )
    return Roll(
        D6, msg("old_west.wound.roll", needed=needed), roller=side, rules=("OW-CC-05", "OW-CC-06")
    )


def wound_with_fame(
    strength: int, toughness: int, fame: int = 0, side: str = "striker"
) -> Procedure[FameWound]:
    """Roll to wound; ``side`` rolls and may spend up to ``fame`` points (OW-CC-05/06/07,
    OW-HERO-05).

    A "-" cell cannot wound, so nothing is rolled. The second d6 of a 6/X cell is
    rolled only when the first roll (after Fame) is a 6.
    """
    needed = cell(strength, toughness)
    if needed.first is None:
        yield emit(
            "old_west.wound.impossible",
            rules=("OW-CC-06", "OW-CC-07"),
            strength=strength,
            toughness=toughness,
        )
        return FameWound(False)
    (first,) = yield _wound_roll(needed.first, side, False)
    spent = yield from offer_fame(
        side,
        "old_west.fame.spend_wound",
        first,
        needed.first,
        fame,
        roll=FameRoll.WOUND,
        stage=1,
    )
    wounded = apply_fame(first, spent) >= needed.first
    if wounded and needed.second is not None:
        (second,) = yield _wound_roll(needed.second, side, True)
        carried = apply_fame(second, spent)
        if spent:
            yield emit(
                "old_west.fame.carried",
                rules=("OW-HERO-05",),
                points=spent,
                rolled=second,
                result=carried,
            )
        more = yield from offer_fame(
            side,
            "old_west.fame.spend_wound",
            carried,
            needed.second,
            fame - spent,
            roll=FameRoll.WOUND,
            stage=2,
        )
        spent += more
        wounded = apply_fame(carried, more) >= needed.second
    applied = ("OW-CC-05", "OW-CC-06") + (("OW-CC-07",) if needed.second else ())
    yield emit(
        "old_west.wound.result",
        rules=applied + (("OW-HERO-02", "OW-HERO-05") if spent else ()),
        strength=strength,
        toughness=toughness,
        cell=str(needed),
        wounded=wounded,
        fame=spent,
    )
    return FameWound(wounded, spent)


def wound(
    strength: int, toughness: int, fame: int = 0, side: str = "striker"
) -> Procedure[WoundOutcome]:
    """Roll to wound: one d6 against the chart; a 6/X cell needs a 6, then X+ on a second d6.

    A "-" cell cannot wound, so nothing is rolled. Fame as in :func:`wound_with_fame`.
    """
    result = yield from wound_with_fame(strength, toughness, fame, side)
    return WoundOutcome(result.wounded)


@decides("OW-CC-12")
def out_of_action(wounds_taken: int, wounds: int) -> bool:
    """A model is removed as a casualty only once it has suffered as many wounds as it
    has Wounds (OW-CC-12).

    >>> out_of_action(1, 2), out_of_action(2, 2)
    (False, True)
    """
    return wounds_taken >= wounds


@dataclass(frozen=True, slots=True)
class CountWounded:
    """Reducer of a tally of strikes (``Call(wound, ..., times=n)``): how many wounded."""

    def __call__(self, tally: Tally[WoundOutcome]) -> int:
        return tally[WoundOutcome(True)]
