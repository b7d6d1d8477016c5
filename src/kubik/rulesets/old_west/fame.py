"""Fame (Слава): Heroes' points that move a die roll, and the policies that spend them.

Each Fame point moves one die roll of the Hero by ±1 (OW-HERO-02), after the roll
is seen. Spending is a player decision, so rules ask for it with a ``Choose`` whose
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

from kubik.engine import Choose, Message, Policy, Procedure, msg
from kubik.errors import InputError
from kubik.rulesets.old_west.core import number


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
    """How Fame options read: "no Fame", "spend 2 Fame" (a Choose's ``labels``)."""
    return tuple(msg("old_west.fame.option", points=n) for n in points)


def offer_fame(
    side: str, reason_id: str, rolled: int, needed: int, pool: int, **context: int | str
) -> Procedure[int]:
    """Ask ``side`` whether to spend the points that lift ``rolled`` to ``needed``.

    Asks only when spending can help (the gap is positive and affordable): the
    options are 0 (the default) and the exact gap, as more is waste and less fails.
    Returns the points spent.
    """
    gap = points_to_reach(rolled, needed)
    if gap == 0 or gap > pool:
        return 0
    spent = yield Choose(
        (0, gap),
        side,
        msg(reason_id, rolled=rolled, needed=needed, fame=pool, to_succeed=gap, **context),
        default=0,
        labels=fame_labels((0, gap)),
        costs=(0, gap),
    )
    assert isinstance(spent, int)
    return spent


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


def spend(left: int, points: int) -> int:
    """Fame left after spending ``points``; with too little left nothing can be spent
    (OW-HERO-01/02: the points are marked off a record kept from the start of the game).

    >>> spend(3, 2)
    1
    """
    if not 0 <= points <= left:
        raise InputError(f"fame: cannot spend {points} point(s), {left} left")
    return left - points
