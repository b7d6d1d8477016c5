"""Heroic actions (Действие Героя): Yee Haw!, Quickdraw and Time for Whuppin' (OW-HERO-06..11).

At the start of the Movement, Shooting or Close-combat phase a Hero may spend Fame
to act before the side with advantage (:func:`may_declare`). Who acts first when both
sides declare is a d6 roll (OW-HERO-07, :func:`heroic_sequence`); who may act with a
Hero and when a paid-for action works are :func:`may_benefit`, :func:`may_carry_out`,
:func:`quickdraw_works` and :func:`whuppin_moves`; the limits (one action per Hero
per phase, each model benefits once per phase, nobody moves or shoots twice) are kept
by :class:`PhaseLedger`, which asks those rules.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum

from kubik.core.errors import InputError
from kubik.engine import Call, Procedure, Roll, Verdict, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import D6
from kubik.rulesets.old_west.core import Side, Status, number, on_table, roll_off_low_wins


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
        D6,
        msg("old_west.heroic.order_roll", advantage=advantage, low_max=low_max),
        rules=("OW-HERO-07",),
    )
    first = advantage if roll_off_low_wins(roll, low_max) else advantage.other
    yield emit("old_west.heroic.order", rules=("OW-HERO-07",), first=first)
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


def follows(distance: float) -> bool:
    """Within 6" of the Hero: near enough to act with his Yee Haw! or Quickdraw, and where a
    Yee Haw! follower must end its move (OW-HERO-08/09).

    >>> follows(6.0), follows(6.1)
    (True, False)
    """
    return distance <= number("fame", "follower_radius_inches")


_ACTION_RULE = {
    HeroicAction.YEE_HAW: "OW-HERO-08",
    HeroicAction.QUICKDRAW: "OW-HERO-09",
    HeroicAction.WHUPPIN: "OW-HERO-10",
}


@dataclass(frozen=True, slots=True)
class HeroNow:
    """A model at the start of a phase, as the heroic-action rules see it."""

    fame: int  # Fame points left
    hero: bool = True
    status: Status = Status.IN_ACTION
    declared: bool = False  # already declared a heroic action this phase


@decides()
def may_declare(
    hero: HeroNow, action: HeroicAction, phase: Phase, able: Verdict | Callable[[], Verdict]
) -> Verdict:
    """May this Hero declare ``action`` at the start of ``phase``? Only a Hero (OW-HERO-01),
    in the action's own phase, one action per Hero per phase, paying its Fame
    (OW-HERO-06; Time for Whuppin's cost, OW-HERO-10). ``able``: the Hero's own
    permission for what the action is for — :func:`~kubik.rulesets.old_west.movement.may_move`
    for Yee Haw!, :func:`~kubik.rulesets.old_west.shooting.may_shoot` for Quickdraw (it
    works only if he shoots, OW-HERO-09),
    :func:`~kubik.rulesets.old_west.division.in_a_fight` for Time for Whuppin': an
    action that could do nothing is not offered. ``able`` may be given as a function
    that works it out: it is asked only when the rest allows the action (a battle asks
    this of every model at the start of every phase, and most are no Heroes).

    >>> may_declare(HeroNow(1), HeroicAction.YEE_HAW, Phase.MOVEMENT, Verdict.allow()).rules
    ('OW-HERO-06', 'OW-HERO-08')
    >>> may_declare(HeroNow(0), HeroicAction.YEE_HAW, Phase.MOVEMENT, Verdict.allow()).allowed
    False
    """
    rule = _ACTION_RULE[action]
    gone = on_table(hero.status)
    if not gone.allowed:
        return gone
    if not hero.hero:
        return Verdict.forbid(msg("old_west.permission.not_a_hero"), "OW-HERO-01", "OW-HERO-06")
    if action.phase is not phase:
        return Verdict.forbid(
            msg("old_west.permission.heroic_phase", action=action, phase=action.phase),
            "OW-HERO-06",
            rule,
        )
    if hero.declared:
        return Verdict.forbid(msg("old_west.permission.heroic_once"), "OW-HERO-06")
    if hero.fame < action.cost:
        return Verdict.forbid(
            msg("old_west.permission.heroic_fame", action=action, cost=action.cost, fame=hero.fame),
            "OW-HERO-06",
            rule,
        )
    if not isinstance(able, Verdict):
        able = able()
    if not able.allowed:
        why = able.reason if able.reason is not None else msg("old_west.permission.heroic_idle")
        return Verdict.forbid(
            msg("old_west.permission.heroic_useless", action=action, why=why),
            rule,
            *able.rules,
        )
    return Verdict.allow("OW-HERO-06", rule)


@dataclass(frozen=True, slots=True)
class Beneficiary:
    """A model that might act under a Hero's heroic action (the Hero himself included).

    ``benefited``: already acted under some Hero's action this phase; ``acted``: already
    moved or shot this phase (in the Close-combat phase: fought); ``distance``: inches
    from the Hero before he acts (None: the Hero himself); ``same_fight``: fought in the
    Hero's Time for Whuppin' fight.
    """

    benefited: bool = False
    acted: bool = False
    distance: float | None = None
    same_fight: bool = False


@decides()
def may_benefit(model: Beneficiary, action: HeroicAction) -> Verdict:
    """May this model act under a Hero's ``action``? Each model benefits from a heroic
    action once a phase, and nobody moves or shoots twice (OW-HERO-11); followers of
    Yee Haw! and Quickdraw stand within 6" of the Hero (OW-HERO-08/09); after Time for
    Whuppin' the models of the Hero's fight move on (OW-HERO-10) — and may fight again,
    but never under a second Hero's Whuppin' (OW-HERO-11).

    >>> may_benefit(Beneficiary(distance=5.0), HeroicAction.YEE_HAW).rules
    ('OW-HERO-08', 'OW-HERO-11')
    >>> may_benefit(Beneficiary(benefited=True), HeroicAction.WHUPPIN).allowed
    False
    """
    rule = _ACTION_RULE[action]
    if model.benefited:
        return Verdict.forbid(msg("old_west.permission.benefited"), "OW-HERO-11")
    if action is not HeroicAction.WHUPPIN:
        if model.acted:
            return Verdict.forbid(msg("old_west.permission.acted", action=action), "OW-HERO-11")
        if model.distance is not None and not follows(model.distance):
            radius = number("fame", "follower_radius_inches")
            return Verdict.forbid(
                msg("old_west.permission.too_far", distance=model.distance, radius=radius), rule
            )
    elif model.distance is not None and not model.same_fight:
        return Verdict.forbid(msg("old_west.permission.not_his_fight"), rule)
    return Verdict.allow(rule, "OW-HERO-11")


@decides()
def quickdraw_works(hero_shot: bool) -> Verdict:
    """Quickdraw works only if the Hero himself shoots or throws his weapon: then his
    friends within 6" shoot with him (OW-HERO-09)."""
    if hero_shot:
        return Verdict.allow("OW-HERO-09")
    return Verdict.forbid(msg("old_west.permission.quickdraw_no_shot"), "OW-HERO-09")


@decides()
def may_wait(hero_gap: float) -> Verdict:
    """May a friend of a Hero who shouts Yee Haw! stay out of it and move in his turn as
    usual? Yes: friends within 6" «могут передвигаться вместе с ним» — they may move with
    him, ending within 6" of him (OW-HERO-08), or not (``hero_gap``: inches between them
    before the Hero moved).

    >>> may_wait(4.0).rules
    ('OW-HERO-08',)
    """
    if not follows(hero_gap):
        radius = number("fame", "follower_radius_inches")
        return Verdict.forbid(
            msg("old_west.permission.too_far", distance=hero_gap, radius=radius), "OW-HERO-08"
        )
    return Verdict.allow("OW-HERO-08")


@decides()
def may_quickdraw(shooting: Verdict, has_target: bool) -> Verdict:
    """Can the Hero do what Quickdraw is for? He may shoot (``shooting``:
    :func:`~kubik.rulesets.old_west.shooting.may_shoot`) and has an enemy he may shoot at
    (``has_target``): the action works only if he shoots (OW-HERO-09).

    >>> may_quickdraw(Verdict.allow("OW-ABSENT-04"), True).rules
    ('OW-ABSENT-04', 'OW-HERO-09')
    >>> may_quickdraw(Verdict.allow("OW-ABSENT-04"), False).allowed
    False
    """
    if not shooting.allowed:
        return shooting
    if has_target:
        return Verdict.combine(shooting, Verdict.allow("OW-HERO-09"))
    return Verdict.forbid(msg("old_west.permission.no_target"), "OW-HERO-09", "OW-ABSENT-04")


@decides()
def whuppin_moves(opponents_left: int) -> Verdict:
    """After Time for Whuppin', the Hero and his fight's friends move again only if all his
    opponents are out of action (OW-HERO-10).

    >>> whuppin_moves(0).allowed, whuppin_moves(1).allowed
    (True, False)
    """
    if opponents_left == 0:
        return Verdict.allow("OW-HERO-10")
    return Verdict.forbid(
        msg("old_west.permission.whuppin_foes_left", left=opponents_left), "OW-HERO-10"
    )


@decides()
def may_carry_out(action: HeroicAction, hero: Beneficiary, able: Verdict) -> Verdict:
    """Can a declared, paid-for ``action`` be carried out now, and if not, why? The Hero
    acts under his own action once (OW-HERO-11) and must be able to do what it is for
    (``able``, as for :func:`may_declare`: he may have been charged, pinned or his fight
    fought since). A battle applies the action when allowed and logs the reason when not.
    """
    own = may_benefit(hero, action)
    if not own.allowed:
        return own
    if not able.allowed:
        why = able.reason if able.reason is not None else msg("old_west.permission.heroic_idle")
        return Verdict.forbid(why, _ACTION_RULE[action], *able.rules)
    return Verdict.combine(own, able)


@decides()
def may_whup(hero: Beneficiary, in_fight: Verdict, fights: Verdict, fought: bool) -> Verdict:
    """Can a declared Time for Whuppin' be carried out now (OW-HERO-10)? As any heroic
    action (:func:`may_carry_out`, ``in_fight``: he is in a fight); and the Hero must still
    be allowed to fight this phase (``fights``:
    :func:`~kubik.rulesets.old_west.division.may_fight`; ``fought``: he fought already) —
    his fight is fought first, never a second time.
    """
    verdict = may_carry_out(HeroicAction.WHUPPIN, hero, in_fight)
    if (verdict.allowed or fought) and not fights.allowed:
        reason = (
            fights.reason if fights.reason is not None else msg("old_west.permission.heroic_idle")
        )
        return Verdict.forbid(reason, *fights.rules, "OW-HERO-10")
    return verdict


@dataclass(frozen=True, slots=True)
class ActingOrder:
    """The sides in the order their declared heroic actions are carried out."""

    sides: tuple[Side, ...]


def heroic_sequence(declared_a: int, declared_b: int, advantage: Side) -> Procedure[ActingOrder]:
    """Who carries out the declared heroic actions in which order (OW-HERO-06/07): when
    both sides declared, the d6 of :func:`heroic_order` says who starts and the sides
    alternate until every action is done; otherwise the one side acts alone.
    """
    if declared_a and declared_b:
        order = yield Call(heroic_order, (advantage,))
        first = order.first
    elif declared_a or declared_b:
        first = Side.A if declared_a else Side.B
    else:
        return ActingOrder(())
    return ActingOrder(action_sequence(first, declared_a, declared_b))


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

    @property
    def action(self) -> HeroicAction:
        """The heroic action of this phase."""
        return next(a for a in HeroicAction if a.phase is self.phase)

    def declare(self, hero: str, action: HeroicAction, fame: int) -> PhaseLedger:
        """The Hero declares ``action`` paying its Fame (:func:`may_declare`)."""
        verdict = may_declare(
            HeroNow(fame, declared=hero in self.declared), action, self.phase, Verdict.allow()
        )
        if not verdict.allowed:
            reason = verdict.reason.id if verdict.reason else ""
            rules = ", ".join(verdict.rules)
            raise InputError(f"hero: {hero} cannot declare {action.value} now ({reason}; {rules})")
        return replace(self, declared=self.declared | {hero})

    def is_declared(self, hero: str) -> bool:
        """Whether ``hero`` already declared a heroic action this phase."""
        return hero in self.declared

    def beneficiary(
        self, model: str, distance: float | None = None, same_fight: bool = False
    ) -> Beneficiary:
        """What the record says of ``model`` for :func:`may_benefit`."""
        return Beneficiary(model in self.benefited, model in self.acted, distance, same_fight)

    def benefit(self, hero: str, models: frozenset[str]) -> tuple[PhaseLedger, frozenset[str]]:
        """Record the models that act with ``hero``'s action and return them: the Hero and
        those of ``models`` (already near enough, or of his fight) that :func:`may_benefit`
        allows — each benefits once a phase, and nobody moves or shoots twice (OW-HERO-11).
        """
        if hero not in self.declared:
            raise InputError(f"hero: {hero} has not declared a heroic action this phase")
        action = self.action
        allowed = frozenset(
            m
            for m in models | {hero}
            if may_benefit(self.beneficiary(m, same_fight=True), action).allowed
        )
        ledger = replace(self, benefited=self.benefited | allowed, acted=self.acted | allowed)
        return ledger, allowed

    def act(self, model: str) -> PhaseLedger:
        """Record a model that moved or shot (or fought) normally this phase."""
        return replace(self, acted=self.acted | {model})
