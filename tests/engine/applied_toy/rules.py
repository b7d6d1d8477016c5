"""The toy's rule module: a procedure, a permission function and a number reader."""

from __future__ import annotations

from kubik.engine import Procedure, Roll, Verdict, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import D6


def hit() -> Procedure[bool]:
    """One roll to hit (AT-HIT-01); a six is narrated as a critical (AT-CRIT-01)."""
    (value,) = yield Roll(D6, msg("toy.hit"), rules="AT-HIT-01")
    if value == 6:
        yield emit("toy.critical", rules="AT-CRIT-01")
    return value >= 4


@decides()
def may_shoot(loaded: bool) -> Verdict:
    """A loaded weapon may shoot (AT-SHOOT-01)."""
    return Verdict.of(loaded, msg("toy.unloaded"), "AT-SHOOT-01")


@decides("AT-RANGE-01")
def weapon_range() -> int:
    """The weapon's range in inches (AT-RANGE-01)."""
    return 24
