"""Pluck (Смелость): the Pluck test and the rules that use it (OW-PLK-01..07).

A Pluck test is 2D6 + Pluck, passed on 10 or more (OW-PLK-01); a Hero may add Fame,
+1 to the total per point (OW-HERO-04; "per point on the total" is the catalogue's
guess for a two-dice roll).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from kubik.core.errors import InputError
from kubik.engine import Call, Procedure, Roll, Verdict, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import D6
from kubik.rulesets.old_west.core import FirstTest, Status, Total, number
from kubik.rulesets.old_west.fame import FameRoll, apply_fame, offer_fame


@dataclass(frozen=True, slots=True)
class PluckOutcome:
    """Whether the Pluck test was passed."""

    passed: bool


@dataclass(frozen=True, slots=True)
class PluckResult:
    """A Pluck test and the Fame spent on it."""

    passed: bool
    fame_spent: int = 0


def pluck_passed(total: int) -> bool:
    """2D6 + Pluck passes on 10 or more (OW-PLK-01).

    >>> pluck_passed(10), pluck_passed(9)
    (True, False)
    """
    return total >= number("pluck", "pass_total")


def pluck_test_with_fame(pluck: int, fame: int = 0, side: str = "model") -> Procedure[PluckResult]:
    """Roll 2D6 + Pluck against 10; ``side`` may spend up to ``fame`` points on the total."""
    needed = number("pluck", "pass_total")
    dice = yield Roll(
        (D6,) * number("pluck", "dice"),
        msg("old_west.pluck.roll", pluck=pluck, needed=needed),
        unordered=True,
        reduce=Total(),
        roller=side,
        rules=("OW-PLK-01",),
    )
    total = dice + pluck
    spent = yield from offer_fame(
        side, "old_west.fame.spend_pluck", total, needed, fame, roll=FameRoll.PLUCK
    )
    passed = pluck_passed(apply_fame(total, spent))
    yield emit(
        "old_west.pluck.result",
        rules=("OW-PLK-01",) + (("OW-HERO-02", "OW-HERO-04") if spent else ()),
        rolled=dice,
        pluck=pluck,
        fame=spent,
        passed=passed,
    )
    return PluckResult(passed, spent)


def pluck_test(pluck: int, fame: int = 0, side: str = "model") -> Procedure[PluckOutcome]:
    """The Pluck test reduced to passed / failed."""
    result = yield from pluck_test_with_fame(pluck, fame, side)
    return PluckOutcome(result.passed)


def must_test_head_for_the_hills(models: int, out_of_action: int) -> bool:
    """Half or more of the posse out of action (OW-PLK-02).

    Models that left the table for scenario objectives are not out of action
    (OW-PLK-03): do not count them in ``out_of_action``.

    >>> must_test_head_for_the_hills(7, 3), must_test_head_for_the_hills(7, 4)
    (False, True)
    >>> must_test_head_for_the_hills(6, 3)
    True
    """
    num, den = number("pluck", "rout_numerator"), number("pluck", "rout_denominator")
    return out_of_action * den >= models * num


@dataclass(frozen=True, slots=True)
class Posse:
    """A posse as Head for the Hills counts it: the models it started with, and how many
    of them are out of action, left the table for an objective, or fled."""

    models: int
    out_of_action: int = 0
    left_table: int = 0  # not casualties (OW-PLK-03)
    fled: int = 0

    @classmethod
    def of(cls, statuses: tuple[Status, ...]) -> Posse:
        """The posse from the status of each model it started with."""
        return cls(
            len(statuses),
            statuses.count(Status.OUT_OF_ACTION),
            statuses.count(Status.LEFT_TABLE),
            statuses.count(Status.FLED),
        )

    @property
    def in_action(self) -> int:
        """Models still on the table and fighting."""
        return self.models - self.out_of_action - self.left_table - self.fled

    @property
    def must_test(self) -> bool:
        """Half or more out of action: Head for the Hills every turn (OW-PLK-02/03)."""
        return must_test_head_for_the_hills(self.models, self.out_of_action)


@decides()
def may_flee(posse: Posse) -> Verdict:
    """May the player choose to fail Head for the Hills and run (OW-PLK-04)? Only once
    half or more of the posse is out of action (models that left the table for an
    objective do not count, OW-PLK-03), and only while some of it is still on the table.

    >>> may_flee(Posse(6, 3)).allowed, may_flee(Posse(6, 2, left_table=2)).allowed
    (True, False)
    """
    counted = ("OW-PLK-03",) if posse.left_table else ()
    if posse.in_action <= 0:
        return Verdict.forbid(msg("old_west.permission.posse_gone"), "OW-PLK-04")
    if not posse.must_test:
        return Verdict.forbid(
            msg("old_west.permission.flee_too_soon", lost=posse.out_of_action, models=posse.models),
            "OW-PLK-04",
            "OW-PLK-02",
            *counted,
        )
    return Verdict.allow("OW-PLK-04", *counted)


@decides()
def takes_the_test(posse: Posse) -> Verdict:
    """Does the posse take the Head for the Hills test at the start of this turn? Yes
    once half or more of it is out of action (OW-PLK-02; models that left the table for
    an objective do not count, OW-PLK-03).

    >>> takes_the_test(Posse(6, 3)).allowed, takes_the_test(Posse(6, 2)).allowed
    (True, False)
    """
    if posse.must_test:
        return Verdict.allow("OW-PLK-02")
    return Verdict.forbid(
        msg("old_west.permission.hills_not_due", lost=posse.out_of_action, models=posse.models),
        "OW-PLK-02",
    )


@decides("OW-PLK-02")
def tester(leader: int | None, plucks: tuple[int, ...]) -> int:
    """Which model takes the Head for the Hills test: the leader (``leader``, his index in
    ``plucks``) while he is in action, else the model with the highest Pluck, the first
    of them on a tie (OW-PLK-02). ``plucks``: every model of the posse still in action.

    >>> tester(0, (3, 5)), tester(None, (3, 5, 5))
    (0, 1)
    """
    if leader is not None:
        return leader
    if not plucks:
        raise InputError("pluck: no model in action is left to take the test")
    return plucks.index(max(plucks))


def tester_pluck(leader_pluck: int | None, others: tuple[int, ...]) -> int:
    """The Pluck that takes the test (:func:`tester`): the leader's, or if he is out of
    action the highest in the posse (OW-PLK-02).

    >>> tester_pluck(4, (5, 6)), tester_pluck(None, (3, 5))
    (4, 5)
    """
    if leader_pluck is not None:
        return leader_pluck
    return others[tester(None, others)]


@dataclass(frozen=True, slots=True)
class HeadForTheHillsOutcome:
    """Whether a test was due, whether the posse flees the table, and the Fame the
    tester spent on it."""

    tested: bool
    flees: bool
    fame: int = 0


def head_for_the_hills(
    models: int,
    out_of_action: int,
    leader_pluck: int | None,
    others: tuple[int, ...] = (),
    voluntary: bool = False,
    fame: int = 0,
    side: str = "leader",
) -> Procedure[HeadForTheHillsOutcome]:
    """Head for the Hills (Бегство) at the start of a turn (OW-PLK-02/03/04).

    Once half or more are out of action the leader (else the highest Pluck) takes a
    Pluck test; failure sends the whole posse off the table. After that point the
    player may choose to fail it (voluntary flight, OW-PLK-04). ``fame``: what the
    tester may spend (the leader's; a stand-in tester's own); ``side`` rolls.
    """
    posse = Posse(models, out_of_action)
    if voluntary and not may_flee(posse).allowed:
        raise InputError("voluntary: allowed only once half or more of the posse is out of action")
    if not posse.must_test:
        yield emit(
            "old_west.head_for_the_hills.no_test",
            rules=("OW-PLK-02",),
            models=models,
            lost=out_of_action,
        )
        return HeadForTheHillsOutcome(False, False)
    if voluntary:
        yield emit("old_west.head_for_the_hills.voluntary", rules=("OW-PLK-04",))
        return HeadForTheHillsOutcome(True, True)
    pluck = tester_pluck(leader_pluck, others)
    result = yield Call(pluck_test_with_fame, (pluck, fame, side))
    yield emit("old_west.head_for_the_hills.result", rules=("OW-PLK-02",), flees=not result.passed)
    return HeadForTheHillsOutcome(True, not result.passed, result.fame_spent)


@dataclass(frozen=True, slots=True)
class FearsomeOutcome:
    """Whether the model may charge or shoot the feared enemy (if not: nothing else this
    phase), and the Fame it spent on the test."""

    may_act: bool
    fame: int = 0


def fearsome_reputation(
    pluck: int, fame: int = 0, side: str = "model"
) -> Procedure[FearsomeOutcome]:
    """Charging or shooting at a Fearsome Reputation model needs a Pluck test (OW-PLK-05).

    Failed: the model is scared and does nothing else this phase. (Tested once per
    model per phase: catalogue guess, kept by the caller.)
    """
    result = yield Call(pluck_test_with_fame, (pluck, fame, side))
    yield emit("old_west.fearsome.result", rules=("OW-PLK-05",), passed=result.passed)
    return FearsomeOutcome(result.passed, result.fame_spent)


@decides()
def reputation_check(fearsome: bool, passed: bool = False) -> Verdict:
    """May a model charge or shoot at this enemy, as far as his reputation goes? An enemy
    of Fearsome Reputation needs a Pluck test first (OW-PLK-05), once per model and
    enemy per phase (catalogue guess): ``passed`` — already passed against him this
    phase. (A model that failed is scared: :func:`kubik.rulesets.old_west.movement.may_move`
    and :func:`kubik.rulesets.old_west.shooting.may_shoot` forbid it anything else.)

    >>> reputation_check(True).test, reputation_check(True, passed=True).allowed
    (<FirstTest.FEARSOME: 'fearsome_reputation'>, True)
    """
    if not fearsome:
        return Verdict.allow()
    if passed:
        return Verdict.allow("OW-PLK-05")
    return Verdict.need(
        FirstTest.FEARSOME, msg("old_west.permission.fearsome"), "OW-PLK-05", "OW-PLK-01"
    )


class CoverReaction(StrEnum):
    """What a model does after being hit and not removed (OW-PLK-06/07)."""

    NONE = "none"  # passed: nothing happens
    RUN_TO_COVER = "run_to_cover"  # move (up to its Move) behind the nearest cover
    LIE_DOWN = "lie_down"  # already behind cover: lies down, starts next turn prone
    DISMOUNT = "dismount"  # a rider behind cover: dismounts, mount between him and the shooter

    @property
    def msgid(self) -> str:
        """Message id of its description."""
        return f"old_west.diving.{self.value}"

    @property
    def pinned(self) -> bool:
        """A model that failed cannot shoot back (for the rest of the turn: catalogue
        guess, OW-PLK-06); :func:`kubik.rulesets.old_west.shooting.may_shoot` asks this."""
        return self is not CoverReaction.NONE


def cover_reaction(passed: bool, behind_cover: bool, mounted: bool) -> CoverReaction:
    """The Diving-for-Cover table (OW-PLK-06; riders OW-PLK-07).

    >>> cover_reaction(False, True, True).value, cover_reaction(False, True, False).value
    ('dismount', 'lie_down')
    """
    if passed:
        return CoverReaction.NONE
    if not behind_cover:
        return CoverReaction.RUN_TO_COVER
    return CoverReaction.DISMOUNT if mounted else CoverReaction.LIE_DOWN


@dataclass(frozen=True, slots=True)
class DivingOutcome:
    """The model's reaction to being hit, and the Fame it spent on the test."""

    reaction: CoverReaction
    fame: int = 0


def diving_for_cover(
    pluck: int, behind_cover: bool, mounted: bool = False, fame: int = 0, side: str = "model"
) -> Procedure[DivingOutcome]:
    """Hit but not removed: a Pluck test (the rider's Pluck even if the horse was hit)."""
    result = yield Call(pluck_test_with_fame, (pluck, fame, side))
    reaction = cover_reaction(result.passed, behind_cover, mounted)
    rider = ("OW-PLK-07",) if mounted else ()
    yield emit("old_west.diving.result", rules=("OW-PLK-06", *rider), reaction=reaction)
    return DivingOutcome(reaction, result.fame_spent)
