"""Moving and charging: who may move, how far, where a move may end, whom it may charge.

The Movement phase itself is absent from the seed (OW-ABSENT-02 default: Move 6" on
foot and 10" mounted, a 1" control zone only a charge may enter, charging is moving
into base contact); the seed's own rules on top: a model charged while prone cannot
stand up in the Movement phase (OW-CC-10), a scared model does nothing else that phase
(OW-PLK-05), nobody moves twice in a phase (OW-HERO-11), a Yee Haw! follower ends
within 6" of the Hero (OW-HERO-08), only a charge brings enemies into contact (OW-CC-01).
Standing up costs half the move (OW-ABSENT-10 default).

Every question is one function on a plain situation and answers a
:class:`~kubik.engine.Verdict`, so a battle's menu offers exactly what these allow.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from kubik.engine import Verdict, msg
from kubik.engine.applied import decides
from kubik.rulesets.old_west.absent import in_control_zone, move_allowance, stand_up_cost
from kubik.rulesets.old_west.core import Status, data, number, on_table
from kubik.rulesets.old_west.heroics import follows
from kubik.rulesets.old_west.pluck import reputation_check


@dataclass(frozen=True, slots=True)
class Mover:
    """What the movement rules need of a model about to move."""

    status: Status = Status.IN_ACTION
    mounted: bool = False
    engaged: bool = False  # in base contact with an enemy: it is in a fight
    prone: bool = False
    charged_while_prone: bool = False  # charged this turn while lying down (OW-CC-10)
    moved: bool = False  # already moved this phase (OW-HERO-11)
    scared: bool = False  # failed a Fearsome Reputation test this phase (OW-PLK-05)


@decides()
def may_move(model: Mover) -> Verdict:
    """May the model move now? Not out of play, not scared (OW-PLK-05), not in a fight
    (OW-CC-01: its fight is fought in the Close-combat phase), not a second time this
    phase (OW-HERO-11), not if it was charged lying down (OW-CC-10); a prone model
    stands up first, for half its move (OW-ABSENT-10).

    >>> may_move(Mover()).rules, may_move(Mover(prone=True)).rules
    (('OW-ABSENT-02',), ('OW-ABSENT-02', 'OW-ABSENT-10'))
    >>> may_move(Mover(engaged=True)).allowed
    False
    """
    gone = on_table(model.status)
    if not gone.allowed:
        return gone
    if model.scared:
        return Verdict.forbid(msg("old_west.permission.scared"), "OW-PLK-05")
    if model.charged_while_prone:
        return Verdict.forbid(msg("old_west.permission.prone_charged"), "OW-CC-10")
    if model.engaged:
        return Verdict.forbid(msg("old_west.permission.engaged_move"), "OW-CC-01", "OW-ABSENT-02")
    if model.moved:
        return Verdict.forbid(msg("old_west.permission.moved"), "OW-HERO-11")
    if model.prone:
        return Verdict.allow("OW-ABSENT-02", "OW-ABSENT-10")
    return Verdict.allow("OW-ABSENT-02")


def allowance(model: Mover) -> Fraction:
    """How far the model may move this phase, in inches: its Move (6" on foot, 10"
    mounted, OW-ABSENT-02), less half of it to stand up if prone (OW-ABSENT-10); 0 when
    it may not move at all.

    >>> allowance(Mover()), allowance(Mover(prone=True)), allowance(Mover(mounted=True))
    (Fraction(6, 1), Fraction(3, 1), Fraction(10, 1))
    """
    if not may_move(model).allowed:
        return Fraction(0)
    move = move_allowance(model.mounted)
    cost = stand_up_cost(move, model.charged_while_prone) if model.prone else Fraction(0)
    return Fraction(move) - (cost or Fraction(0))


@dataclass(frozen=True, slots=True)
class ChargeTarget:
    """An enemy the model would charge, as the table measures it."""

    route: float | None  # inches the cheapest way into base contact costs (None: no way)
    status: Status = Status.IN_ACTION
    fearsome: bool = False  # Fearsome Reputation (OW-ABSENT-08 default: a flag)
    fearsome_passed: bool = False  # the charger already passed its test against him this phase


@decides()
def may_charge(model: Mover, target: ChargeTarget) -> Verdict:
    """May the model charge this enemy? It may move (:func:`may_move`), the enemy is in
    play, the way into base contact is within its allowance (OW-ABSENT-02), and an enemy
    of Fearsome Reputation needs a passed Pluck test first (OW-PLK-05: the verdict asks
    for :attr:`~kubik.rulesets.old_west.core.FirstTest.FEARSOME`).

    >>> may_charge(Mover(), ChargeTarget(4.0)).allowed
    True
    >>> may_charge(Mover(), ChargeTarget(7.0)).allowed
    False
    >>> may_charge(Mover(), ChargeTarget(4.0, fearsome=True)).needs_test
    True
    """
    moving = may_move(model)
    if not moving.allowed:
        return moving
    gone = on_table(target.status)
    if not gone.allowed:
        return gone
    reach = allowance(model)
    if target.route is None or target.route > reach:
        return Verdict.forbid(
            msg("old_west.permission.out_of_reach", allowance=float(reach)), "OW-ABSENT-02"
        )
    return Verdict.combine(
        Verdict.allow("OW-ABSENT-02", "OW-CC-01"),
        moving,
        reputation_check(target.fearsome, target.fearsome_passed),
    )


@dataclass(frozen=True, slots=True)
class MoveEnd:
    """Where a move would take the model, as the table measures it.

    ``enemy_gap``: the closest the move comes to an enemy in play, edge to edge in inches
    (0: base contact); ``charge``: the move is a charge into contact; ``hero_gap``: for a
    Yee Haw! follower, inches from the Hero at the end (None otherwise); ``on_obstacle``:
    the model would stand on a fence or in a trough.
    """

    enemy_gap: float
    charge: bool = False
    hero_gap: float | None = None
    on_obstacle: bool = False


@decides()
@cache
def may_stand(on_obstacle: bool) -> Verdict:
    """May a move end here? Never on an obstacle: a model crosses a fence, a wall or a
    trough (a jump test) and ends beside it or clear of it on the far side, and one that
    fails the test stops short of it (OW-ABSENT-02 default).

    >>> may_stand(False).allowed, may_stand(True).rules
    (True, ('OW-ABSENT-02',))
    """
    if on_obstacle:
        return Verdict.forbid(msg("old_west.permission.on_obstacle"), "OW-ABSENT-02")
    return Verdict.allow("OW-ABSENT-02")


@decides()
def may_place(clear: bool, on_obstacle: bool = False) -> Verdict:
    """May a model the rules move by themselves (a loser landing below a cliff edge, a model
    shuffling aside to make way) be set down here? Touching no other model — only a
    charge brings models into contact (OW-CC-01) — and not on an obstacle (OW-ABSENT-02).

    >>> may_place(True).allowed, may_place(False).rules, may_place(True, True).allowed
    (True, ('OW-CC-01',), False)
    """
    if not clear:
        return Verdict.forbid(msg("old_west.permission.place_taken"), "OW-CC-01")
    return may_stand(on_obstacle)


@decides()
def may_end_move(end: MoveEnd) -> Verdict:
    """May a move go there? Only a charge enters an enemy's 1" control zone or touches him
    (OW-ABSENT-02, OW-CC-01); a Yee Haw! follower ends within 6" of the Hero (OW-HERO-08).

    >>> may_end_move(MoveEnd(0.5)).allowed, may_end_move(MoveEnd(0.0, charge=True)).allowed
    (False, True)
    >>> may_end_move(MoveEnd(3.0, hero_gap=6.5)).rules
    ('OW-HERO-08',)
    >>> may_end_move(MoveEnd(3.0, on_obstacle=True)).allowed
    False
    """
    if end.on_obstacle:
        return may_stand(True)
    if end.hero_gap is not None and not follows(end.hero_gap):
        radius = number("fame", "follower_radius_inches")
        distance = round(end.hero_gap, 2)
        return Verdict.forbid(
            msg("old_west.permission.too_far", distance=distance, radius=radius), "OW-HERO-08"
        )
    follower = ("OW-HERO-08",) if end.hero_gap is not None else ()
    if end.charge:
        return Verdict.allow("OW-ABSENT-02", "OW-CC-01", *follower)
    if in_control_zone(end.enemy_gap):
        zone = number("movement", "control_zone_inches")
        return Verdict.forbid(msg("old_west.permission.control_zone", zone=zone), "OW-ABSENT-02")
    return Verdict.allow("OW-ABSENT-02", *follower)


@decides("OW-ABSENT-02")
def control_zone() -> float:
    """How far round an enemy only a charge may go (OW-ABSENT-02 default), in inches."""
    return float(number("movement", "control_zone_inches"))


def cliff_height() -> float:
    """The highest step of ground a model moves over, in inches: higher is a cliff face,
    which no move crosses (climbing is absent from the seed), across which models do not
    touch, and over whose edge a loser backing off falls (OW-CC-09, OW-ABSENT-05)."""
    return float(data()["battle"]["cliff_inches"])


def beside_gap() -> float:
    """How far from a building or a fence a model stands to be just beside it (taking
    cover behind it, reaching its door), in inches (``battle.cover_gap_inches``)."""
    return float(data()["battle"]["cover_gap_inches"])


def base_mm(mounted: bool) -> float:
    """A model's base diameter when its scenario gives none, in millimetres: on foot, or
    the round stand-in for a cavalry base (OW-ABSENT-09 default)."""
    return float(data()["battle"]["mounted_base_mm" if mounted else "base_mm"])


__all__ = [
    "ChargeTarget",
    "MoveEnd",
    "Mover",
    "allowance",
    "base_mm",
    "beside_gap",
    "cliff_height",
    "control_zone",
    "may_charge",
    "may_end_move",
    "may_move",
    "may_place",
    "may_stand",
]
