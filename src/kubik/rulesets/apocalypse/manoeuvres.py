"""Special manoeuvres (Особые манёвры, seed 003): climbing, jumping gaps, jumping down,
the giant leap, the leap attack and falling.

Each test is a Подвижность test (:func:`~.checks.mobility_test`, RA-ABSENT-09).
Distances and heights are in paces.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from kubik.engine import Call, Procedure, Roll, Verdict, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import D3
from kubik.rulesets.apocalypse.checks import mobility_test
from kubik.rulesets.apocalypse.core import decimal, number


def climb_cost(height: float) -> float:
    """Movement a climb spends: one vertical pace costs two (RA-MAN-01).

    >>> climb_cost(1.5)
    3.0
    """
    return height * number("manoeuvres", "climb_cost")


@decides()
def may_walk(fallen: bool, on_roof: bool) -> Verdict:
    """May he advance or run this turn? Not after a fall (RA-MAN-06: no more moving), not
    from a roof, which he leaves by climbing or jumping down (RA-MAN-01, RA-MAN-03).

    >>> may_walk(False, False).allowed, may_walk(True, False).allowed
    (True, False)
    """
    return Verdict.combine(
        Verdict.of(not fallen, msg("apocalypse.permission.fallen"), "RA-ABSENT-08"),
        Verdict.of(not on_roof, msg("apocalypse.permission.on_roof"), "RA-MAN-01"),
    )


@decides()
def may_climb(height: float, mobility: int, touching: bool) -> Verdict:
    """May he climb this height now? He must touch it at the start of the move; at most
    half his Подвижность in one move (the default: a climb is finished in one move),
    never more than his Подвижность (RA-MAN-01).

    >>> may_climb(2, 4, True).allowed, may_climb(2.5, 4, True).allowed
    (True, False)
    >>> may_climb(1, 4, False).allowed
    False
    """
    if not touching:
        return Verdict.forbid(msg("apocalypse.permission.not_touching"), "RA-MAN-01")
    return Verdict.of(
        climb_cost(height) <= mobility, msg("apocalypse.permission.too_high"), "RA-MAN-01"
    )


class Climb(StrEnum):
    """How a climb ended (RA-MAN-01)."""

    CLIMBED = "climbed"
    STUCK = "stuck"  # failed going up: he does not move this turn
    FELL = "fell"  # failed going down: he falls from where he started

    @property
    def msgid(self) -> str:
        """Message id of its name."""
        return f"apocalypse.man.climb.{self.value}"


def climb(mobility: int, up: bool) -> Procedure[Climb]:
    """The Подвижность test to start a climb (RA-MAN-01)."""
    passed = yield Call(mobility_test, (mobility,))
    outcome = Climb.CLIMBED if passed else (Climb.STUCK if up else Climb.FELL)
    yield emit("apocalypse.man.climb", rules=("RA-MAN-01",), outcome=outcome)
    return outcome


@dataclass(frozen=True, slots=True)
class LeapOutcome:
    """A jump's end: landed, or fell from ``height`` paces."""

    landed: bool
    fall_height: float = 0.0


def jump_gap(
    width: float, move_left: float, mobility: int, height: float
) -> Procedure[LeapOutcome]:
    """A jump over a gap of at most a pace (RA-MAN-02): short of move, he falls; else a
    Подвижность test, failed and he falls (from ``height``)."""
    if width > decimal("manoeuvres", "gap_paces") or move_left < width:
        yield emit("apocalypse.man.gap_short", rules=("RA-MAN-02",))
        return LeapOutcome(False, height)
    passed = yield Call(mobility_test, (mobility,))
    yield emit("apocalypse.man.gap", rules=("RA-MAN-02",), landed=passed)
    return LeapOutcome(bool(passed), 0.0 if passed else height)


def jump_tests(height: float) -> int:
    """Подвижность tests for a drop: one per full pace (RA-MAN-03); for a giant leap the
    highest point of the leap counts (RA-MAN-04).

    >>> jump_tests(0.8), jump_tests(2.0)
    (0, 2)
    """
    return math.floor(height + 1e-9)


@decides()
def may_jump_down(height: float) -> Verdict:
    """At most 2 paces down (RA-MAN-03).

    >>> may_jump_down(2.0).allowed, may_jump_down(2.5).allowed
    (True, False)
    """
    return Verdict.of(
        height <= decimal("manoeuvres", "jump_down_max"),
        msg("apocalypse.permission.too_deep"),
        "RA-MAN-03",
    )


def jump_down(height: float, mobility: int, giant_leap: bool = False) -> Procedure[LeapOutcome]:
    """Jump down (RA-MAN-03) or make a giant leap (RA-MAN-04): a test per full pace of the
    drop; any failure and he falls from the start."""
    rules = ("RA-MAN-03", "RA-MAN-04") if giant_leap else ("RA-MAN-03",)
    for _ in range(jump_tests(height)):
        if not (yield Call(mobility_test, (mobility,))):
            yield emit("apocalypse.man.jump", rules=rules, landed=False)
            return LeapOutcome(False, height)
    yield emit("apocalypse.man.jump", rules=rules, landed=True)
    return LeapOutcome(True)


@decides("RA-MAN-04")
def giant_leap_apex(take_off: float, landing: float) -> float:
    """The height a giant leap's tests are taken from: the higher end (RA-MAN-04 default).

    >>> giant_leap_apex(2.0, 0.0)
    2.0
    """
    return max(take_off, landing)


@decides()
def may_leap_attack(distance_from_landing: float) -> Verdict:
    """A leap attack hits an enemy within a pace of where he lands (RA-MAN-05).

    >>> may_leap_attack(0.8).allowed, may_leap_attack(1.2).allowed
    (True, False)
    """
    return Verdict.of(
        distance_from_landing <= 1.0, msg("apocalypse.permission.out_of_reach"), "RA-MAN-05"
    )


def falling(height: float) -> Procedure[int]:
    """D3 wounds per full pace fallen, no armour save, never a critical (RA-MAN-06)."""
    paces = math.floor(height + 1e-9) * number("manoeuvres", "fall_dice_per_pace")
    if paces <= 0:
        yield emit("apocalypse.man.fall", rules=("RA-MAN-06",), wounds=0)
        return 0
    wounds: int = yield Roll(
        (D3,) * paces,
        msg("apocalypse.man.fall_roll", paces=paces),
        unordered=True,
        reduce=sum,
        rules=("RA-MAN-06",),
    )
    yield emit("apocalypse.man.fall", rules=("RA-MAN-06",), wounds=wounds)
    return int(wounds)


__all__ = [
    "Climb",
    "LeapOutcome",
    "climb",
    "climb_cost",
    "falling",
    "giant_leap_apex",
    "jump_down",
    "jump_gap",
    "jump_tests",
    "may_climb",
    "may_jump_down",
    "may_leap_attack",
    "may_walk",
]
