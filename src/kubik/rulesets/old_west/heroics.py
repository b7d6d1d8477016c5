"""Heroic actions (Действие Героя): Yee Haw!, Quickdraw and Time for Whuppin' (OW-HERO-06..11).

At the start of the Movement, Shooting or Close-combat phase a Hero may spend Fame
to act before the side with advantage. Who acts first when both sides declare is a
d6 roll (OW-HERO-07); the limits (one action per Hero per phase, each model benefits
once per phase, nobody moves or shoots twice) are kept by :class:`PhaseLedger`.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum

from kubik.dice import D6
from kubik.engine import Choose, Procedure, Roll, emit, msg
from kubik.errors import InputError
from kubik.rulesets.old_west.core import Side, number, roll_off_low_wins


class Phase(StrEnum):
    """The phases a heroic action can open."""

    MOVEMENT = "movement"
    SHOOTING = "shooting"
    CLOSE_COMBAT = "close_combat"

    @property
    def msgid(self) -> str:
        """Message id of its name."""
        return f"old_west.phase.{self.value}"


class HeroicAction(StrEnum):
    """The three heroic actions, each belonging to one phase."""

    YEE_HAW = "yee_haw"  # OW-HERO-08
    QUICKDRAW = "quickdraw"  # OW-HERO-09
    WHUPPIN = "whuppin"  # OW-HERO-10, Time for Whuppin'

    @property
    def phase(self) -> Phase:
        """The phase at whose start it is declared."""
        return {
            HeroicAction.YEE_HAW: Phase.MOVEMENT,
            HeroicAction.QUICKDRAW: Phase.SHOOTING,
            HeroicAction.WHUPPIN: Phase.CLOSE_COMBAT,
        }[self]

    @property
    def cost(self) -> int:
        """Fame it costs (Whuppin's cost is missing in the seed: the general 1 Fame)."""
        key = "whuppin_cost" if self is HeroicAction.WHUPPIN else "heroic_action_cost"
        return number("fame", key)

    @property
    def msgid(self) -> str:
        """Message id of its name."""
        return f"old_west.heroic.{self.value}"


@dataclass(frozen=True, slots=True)
class OrderOutcome:
    """Which side's Hero acts first."""

    first: Side


def heroic_order(advantage: Side) -> Procedure[OrderOutcome]:
    """Both sides declared heroic actions: d6, 1–3 the side with advantage first (OW-HERO-07)."""
    low_max = number("fame", "order_low_max")
    (roll,) = yield Roll(
        D6, msg("old_west.heroic.order_roll", advantage=advantage, low_max=low_max)
    )
    first = advantage if roll_off_low_wins(roll, low_max) else advantage.other
    yield emit("old_west.heroic.order", first=first)
    return OrderOutcome(first)


def action_sequence(first: Side, count_a: int, count_b: int) -> tuple[Side, ...]:
    """Sides in acting order: alternate from ``first`` until every declared action is done.

    >>> [s.value for s in action_sequence(Side.B, 1, 2)]
    ['b', 'a', 'b']
    >>> [s.value for s in action_sequence(Side.A, 3, 1)]
    ['a', 'b', 'a', 'a']
    """
    left = {Side.A: count_a, Side.B: count_b}
    order: list[Side] = []
    side = first
    while left[Side.A] + left[Side.B]:
        if left[side]:
            order.append(side)
            left[side] -= 1
        side = side.other
    return tuple(order)


def followers(distances: Mapping[str, float]) -> frozenset[str]:
    """Friends within 6" of the Hero who may follow his Yee Haw! or Quickdraw (OW-HERO-08/09).

    ``distances``: model id → distance in inches from the Hero before he acts.

    >>> sorted(followers({"x": 5.5, "y": 6.0, "z": 6.5}))
    ['x', 'y']
    """
    radius = number("fame", "follower_radius_inches")
    return frozenset(model for model, d in distances.items() if d <= radius)


def yee_haw_end_ok(distance_after: float) -> bool:
    """A Yee Haw! follower must end its move within 6" of the Hero (OW-HERO-08).

    >>> yee_haw_end_ok(6.0), yee_haw_end_ok(6.1)
    (True, False)
    """
    return distance_after <= number("fame", "follower_radius_inches")


def quickdraw_counts(hero_shoots: bool) -> bool:
    """Quickdraw works only if the Hero himself shoots or throws his weapon (OW-HERO-09)."""
    return hero_shoots


def whuppin_move_again(opponents_left: int) -> bool:
    """After Time for Whuppin', the Hero's fight may move again only if all his
    opponents are out of action (OW-HERO-10).

    >>> whuppin_move_again(0), whuppin_move_again(1)
    (True, False)
    """
    return opponents_left == 0


@dataclass(frozen=True, slots=True)
class PhaseLedger:
    """Who has done what in one phase: the limits of OW-HERO-06 and OW-HERO-11.

    ``declared``: Heroes that declared an action; ``benefited``: models that acted
    under some Hero's action; ``acted``: models that already moved or shot.
    """

    phase: Phase
    declared: frozenset[str] = frozenset()
    benefited: frozenset[str] = frozenset()
    acted: frozenset[str] = frozenset()

    def declare(self, hero: str, action: HeroicAction, fame: int) -> PhaseLedger:
        """The Hero declares ``action`` paying its Fame; one action per Hero per phase."""
        if action.phase is not self.phase:
            raise InputError(
                f"action: {action.value} is declared only in the {action.phase.value} phase"
            )
        if hero in self.declared:
            raise InputError(f"hero: {hero} already declared a heroic action this phase")
        if fame < action.cost:
            raise InputError(
                f"fame: {hero} needs {action.cost} Fame for {action.value}, has {fame}"
            )
        return replace(self, declared=self.declared | {hero})

    def benefit(self, hero: str, models: frozenset[str]) -> tuple[PhaseLedger, frozenset[str]]:
        """Models that may act with ``hero``'s action: each benefits once per phase, and in
        the Movement and Shooting phases nobody moves or shoots twice (OW-HERO-11).
        Time for Whuppin' lets a model fight again in another fight, but never benefit
        from a second Hero's Whuppin'.
        """
        if hero not in self.declared:
            raise InputError(f"hero: {hero} has not declared a heroic action this phase")
        blocked = self.benefited
        if self.phase is not Phase.CLOSE_COMBAT:
            blocked = blocked | self.acted
        allowed = frozenset(m for m in models | {hero} if m not in blocked)
        ledger = replace(self, benefited=self.benefited | allowed, acted=self.acted | allowed)
        return ledger, allowed

    def act(self, model: str) -> PhaseLedger:
        """Record a model that moved or shot normally this phase."""
        return replace(self, acted=self.acted | {model})


@dataclass(frozen=True, slots=True)
class FightOrder:
    """The order in which the fights of the close-combat phase are resolved."""

    order: tuple[Hashable, ...]


def fight_order(
    fights: tuple[Hashable, ...], advantage: Side, whuppin: tuple[Hashable, ...] = ()
) -> Procedure[FightOrder]:
    """Order of fights (OW-CC-02, OW-CC-08): Time for Whuppin' fights first, in the order
    their Heroes act (OW-HERO-10); then the side with advantage picks each next fight
    after the previous one is fully resolved (default: the order given; the last fight
    left needs no decision). ``fights`` are anything hashable that names a fight (an id,
    or an option a person can read).
    """
    unknown = [f for f in whuppin if f not in fights]
    if unknown:
        raise InputError(f"whuppin: {unknown[0]} is not one of the fights {list(fights)}")
    order: list[Hashable] = []
    for fight in whuppin:
        yield emit("old_west.order.whuppin", fight=fight)
        order.append(fight)
    left = [f for f in fights if f not in order]
    while left:
        chosen = left[0]
        if len(left) > 1:
            chosen = yield Choose(
                tuple(left), advantage.value, msg("old_west.order.choose", side=advantage)
            )
        order.append(chosen)
        left.remove(chosen)
    return FightOrder(tuple(order))
