"""Fame (Слава): Heroes' points that move a die roll, and the policies that spend them.

Each Fame point moves one die roll of the Hero by ±1 (OW-HERO-02), after the roll
is seen, on the rolls the seed lists (:func:`may_spend_fame`, OW-HERO-04/05).
Spending is a player decision, so rules ask for it with a ``Choose`` whose
reason carries a structured context: ``to_succeed`` is the number of points that
makes the roll succeed (already an option of the request), or -1 when Fame cannot
save it; each option carries its cost in Fame. Two rules of thumb answer such
requests:

* :class:`SpendNothing` — the request's default (no Fame spent);
* :class:`JustEnough` — spend exactly the points that make the roll succeed outright
  (win the fight, wound, pass the test) whenever the Hero has them. Not optimal: a
  Hero one pip behind an equal Fight value does better forcing the roll-off.

:func:`policies` lists them by name for the CLI (``kubik odds`` shows them side by side
with the engine's ``optimal`` policy, which solves every decision exactly).

>>> apply_fame(3, 2)
5
>>> points_to_reach(4, 6)
2
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from kubik.core.errors import InputError
from kubik.engine import Choose, Message, Policy, Procedure, Verdict, msg
from kubik.engine.applied import decides
from kubik.rulesets.old_west.core import Status, data, number, on_table


class FameRoll(StrEnum):
    """A roll a player might want to change with Fame: the seed's lists name those it may
    (data ``fame.rolls``); the others it may not."""

    FIGHT = "fight"  # who wins the fight (OW-HERO-05)
    WOUND = "wound"  # to wound, both rolls of a 6/X cell (OW-HERO-05)
    TO_HIT = "to_hit"  # OW-HERO-05
    PLUCK = "pluck"  # OW-HERO-04
    JUMP = "jump"  # jump and climb tests (OW-HERO-04)
    REACH = "reach"  # 4+ to strike across an obstacle (OW-CC-14): not in the lists
    IN_THE_WAY = "in_the_way"  # what a shot hits on its way (OW-ABSENT-04): not the Hero's aim
    ADVANTAGE = "advantage"  # the side's roll for advantage (OW-ABSENT-01)
    FALL = "fall"  # Falling from a Horse (OW-ABSENT-06)
    FORTUNE = "fortune"  # a Fortune roll (OW-ABSENT-07)

    @property
    def rules(self) -> tuple[str, ...]:
        """The rules that let Fame change this roll (OW-HERO-02 alone: none do)."""
        if self in (FameRoll.FIGHT, FameRoll.WOUND, FameRoll.TO_HIT):
            return ("OW-HERO-02", "OW-HERO-05")
        if self in (FameRoll.PLUCK, FameRoll.JUMP):
            return ("OW-HERO-02", "OW-HERO-04")
        return ("OW-HERO-02",)

    @property
    def msgid(self) -> str:
        """Message id of its name."""
        return f"old_west.fame_roll.{self.value}"


@dataclass(frozen=True, slots=True)
class FameUse:
    """A player asking to spend Fame on a roll: whose roll it is and what is left."""

    roll: FameRoll
    fame: int  # Fame points the model has left
    hero: bool = True
    own: bool = True  # the model's own roll (not an opponent's)
    status: Status = Status.IN_ACTION


@decides()
def may_spend_fame(use: FameUse) -> Verdict:
    """May this model spend Fame on this roll? Only a Hero (OW-HERO-01), only on his own
    rolls and while points remain (OW-HERO-02), only on the rolls the seed lists:
    jump, climb and Pluck tests (OW-HERO-04), to hit, to win a fight, to wound (OW-HERO-05).

    >>> may_spend_fame(FameUse(FameRoll.WOUND, 2)).rules
    ('OW-HERO-02', 'OW-HERO-05')
    >>> may_spend_fame(FameUse(FameRoll.FALL, 2)).allowed
    False
    """
    gone = on_table(use.status)
    if not gone.allowed:
        return gone
    if not use.hero:
        return Verdict.forbid(msg("old_west.permission.fame_not_hero"), "OW-HERO-01")
    if not use.own:
        return Verdict.forbid(msg("old_west.permission.fame_not_own"), "OW-HERO-02")
    if use.roll.value not in fame_rolls():
        return Verdict.forbid(
            msg("old_west.permission.fame_roll", roll=use.roll),
            "OW-HERO-02",
            "OW-HERO-04",
            "OW-HERO-05",
        )
    if use.fame <= 0:
        return Verdict.forbid(msg("old_west.permission.fame_none"), "OW-HERO-02")
    return Verdict.allow(*use.roll.rules)


def fame_rolls() -> frozenset[str]:
    """The rolls Fame may change (data ``fame.rolls``, from the seed's lists)."""
    return frozenset(str(r) for r in data()["fame"]["rolls"])


def apply_fame(roll: int, points: int) -> int:
    """A die roll after spending ``points`` Fame on it (+1 each, OW-HERO-02).

    Negative points lower the roll (the seed allows ±1 per point).

    >>> apply_fame(3, 2), apply_fame(6, -1)
    (5, 5)
    """
    return roll + points * number("fame", "points_per_step")


def points_to_reach(roll: int, needed: int) -> int:
    """Fame points that lift ``roll`` to ``needed`` (0 when it already is there).

    >>> points_to_reach(6, 4), points_to_reach(1, 4)
    (0, 3)
    """
    step = number("fame", "points_per_step")
    gap = needed - roll
    return max(0, -(-gap // step))


def fame_labels(points: tuple[int, ...]) -> tuple[Message, ...]:
    """How Fame options read ("spend no Fame", "spend 2 Fame"): a Choose's ``labels``."""
    return tuple(msg("old_west.fame.spend_points", points=n) for n in points)


def offer_fame(
    side: str,
    reason_id: str,
    rolled: int,
    needed: int,
    pool: int,
    *,
    roll: FameRoll,
    **context: int | str,
) -> Procedure[int]:
    """Ask ``side`` whether to spend the points that lift ``rolled`` to ``needed``.

    Asks only when Fame may change this ``roll`` (:func:`may_spend_fame`) and spending
    can help (the gap is positive and affordable): the options are 0 (the default)
    and the exact gap, as more is waste and less fails. Returns the points spent.
    """
    request = _fame_request(side, reason_id, rolled, needed, pool, roll, tuple(context.items()))
    return (yield from points_asked(request))


def points_asked(request: Choose | None) -> Procedure[int]:
    """The Fame points answered to ``request``; 0 when there is nothing to ask."""
    if request is None:
        return 0
    points = yield request
    assert isinstance(points, int)
    return points


@lru_cache(maxsize=1024)
def _fame_request(
    side: str,
    reason_id: str,
    rolled: int,
    needed: int,
    pool: int,
    roll: FameRoll,
    context: tuple[tuple[str, int | str], ...],
) -> Choose | None:
    """:func:`offer_fame`'s request (None: nothing to ask), built once per situation: the
    exact odds and the bots' exact solves replay the same roll again and again."""
    allowed = may_spend_fame(FameUse(roll, pool))
    gap = points_to_reach(rolled, needed)
    if not allowed.allowed or gap == 0 or gap > pool:
        return None
    return Choose(
        (0, gap),
        side,
        msg(reason_id, rolled=rolled, needed=needed, fame=pool, to_succeed=gap, **dict(context)),
        default=0,
        labels=fame_labels((0, gap)),
        costs=(0, gap),
        rules=allowed.rules,
    )


@dataclass(frozen=True, slots=True)
class SpendNothing:
    """Policy: every decision takes the request's default (no Fame is spent)."""

    def __call__(self, request: Choose) -> Hashable:
        return request.default


@dataclass(frozen=True, slots=True)
class JustEnough:
    """Policy (a rule of thumb): spend exactly the Fame that makes the roll succeed outright.

    Reads ``to_succeed`` from the request's reason; any request without it (a
    target, rider or mount, ...) takes its default.
    """

    def __call__(self, request: Choose) -> Hashable:
        wanted = request.reason.kwargs.get("to_succeed")
        if isinstance(wanted, int) and wanted in request.options:
            return wanted
        return request.default


def policies() -> dict[str, Policy]:
    """The Fame rules of thumb by name, for showing odds side by side.

    >>> sorted(policies())
    ['default', 'just_enough']
    """
    return {"default": SpendNothing(), "just_enough": JustEnough()}


@decides("OW-HERO-01")
def spend(left: int, points: int) -> int:
    """Fame left after spending ``points``; with too little left nothing can be spent
    (OW-HERO-01/02: the points are marked off a record kept from the start of the game).

    >>> spend(3, 2)
    1
    """
    if not 0 <= points <= left:
        raise InputError(f"fame: cannot spend {points} point(s), {left} left")
    return left - points
