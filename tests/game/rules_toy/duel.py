"""The toy ruleset's rule module: what its rules decide, apart from its battle.

A shot (TR-SHOT-01) and a volley's strain (TR-STRAIN-01) are rule procedures: their
requests record the rules they name. The stances a side may take (TR-STANCE-01) and
the damage hits do (TR-DMG-01) are rule functions marked :func:`decides`.
"""

from __future__ import annotations

from kubik.engine.applied import decides
from kubik.engine.dice import D6
from kubik.engine.requests import Call, Procedure, Roll, emit, msg
from tests.game.toy import count_hits

STANCES = ("aim", "volley")


def shot(hit_on: int) -> Procedure[bool]:
    """One shot: a d6 against ``hit_on`` (TR-SHOT-01)."""
    (value,) = yield Roll(D6, msg("toy.shot"), roller="shooter", rules="TR-SHOT-01")
    return bool(value >= hit_on)


def volley(hit_on: int) -> Procedure[int]:
    """Two shots; both missing strains the shooter (TR-STRAIN-01)."""
    hits = int((yield Call(shot, (hit_on,), times=2, reduce=count_hits)))
    if hits == 0:
        yield emit("toy.strain.rule", rules="TR-STRAIN-01")
    return hits


@decides("TR-STANCE-01")
def stances() -> tuple[str, ...]:
    """The stances a side may take this turn (TR-STANCE-01)."""
    return STANCES


@decides("TR-DMG-01")
def damage(hits: int) -> int:
    """Hit points a side's first living unit loses to ``hits`` hits (TR-DMG-01)."""
    return hits
