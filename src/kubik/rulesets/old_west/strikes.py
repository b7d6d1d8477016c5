"""A winner's strikes at one loser: reach, wound, Fortune, the mount (OW-CC-05..16).

Every winning model strikes once per Attack (OW-CC-05, OW-CC-11) where
:func:`may_strike` lets it: a prone winner stands up and does not strike; strikes
across an obstacle first need 4+ to reach (OW-CC-14, OW-CC-15); strikes at a rider
may go at his mount instead (OW-CC-16), and a mount killed throws its rider (Falling
from a Horse, absent: OW-ABSENT-06 default). Every strike on a trapped loser counts
double (OW-CC-09, OW-CC-10). A model is out of action once it has suffered as many
wounds as it has Wounds (OW-CC-12) — strikes at it stop there — and a Hero's Fortune
may save him from each wound as he suffers it (OW-ABSENT-07 default).

Strikes without Fame are independent, so they are combined by convolution
(``Call(..., times=n)``, in batches no larger than the wounds the target has left); a
Hero's strikes share one Fame pool and are rolled in turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from kubik.engine import Call, Choose, Message, Procedure, Roll, Verdict, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import D6
from kubik.engine.requests import SILENT, step, tail_step
from kubik.rulesets.old_west.absent import (
    THE_HERO,
    FallOutcome,
    FortuneOutcome,
    fall_from_horse,
    fortune,
)
from kubik.rulesets.old_west.chart import cell
from kubik.rulesets.old_west.combatant import Model
from kubik.rulesets.old_west.core import FirstTest, Side, number
from kubik.rulesets.old_west.wounds import (
    CountWounded,
    FameWound,
    WoundOutcome,
    out_of_action,
    wound,
    wound_with_fame,
)


def strikes_on(attacks: int, trapped: bool) -> int:
    """Strikes an Attack count makes on a target: doubled on a trapped one (OW-CC-09).

    >>> strikes_on(1, True), strikes_on(2, True), strikes_on(2, False)
    (2, 4, 2)
    """
    return attacks * (number("close_combat", "trapped_strike_multiplier") if trapped else 1)


class StrikeAt(StrEnum):
    """What a strike at a mounted loser aims at (OW-CC-16)."""

    RIDER = "rider"
    MOUNT = "mount"

    @property
    def msgid(self) -> str:
        """Message id of its name."""
        return f"old_west.strike_at.{self.value}"


@dataclass(frozen=True, slots=True)
class Strike:
    """One strike a winner might make, as the round stands."""

    at: StrikeAt = StrikeAt.RIDER
    striker_prone: bool = False  # the striker won lying down (OW-CC-10)
    loser: bool = True  # the target lost this fight (OW-CC-05, OW-CC-13)
    target_out: bool = False  # the target already lost its last Wound (OW-CC-12)
    mount_alive: bool = False  # the target rides a live mount (OW-CC-16)
    across_obstacle: bool = False  # striker and target are across an obstacle (OW-CC-14)


@decides()
def may_strike(strike: Strike) -> Verdict:
    """May this strike be made? Only the winners strike, only at the losers of their fight
    (OW-CC-05, OW-CC-13); a prone winner stands up and does not strike (OW-CC-10); a
    target out of action takes no more strikes (OW-CC-12); a strike at a mount needs a
    live one (OW-CC-16 — the mount is no obstacle to striking the rider); across an
    obstacle a strike must first reach, 4+ (OW-CC-14: the verdict asks for
    :attr:`~kubik.rulesets.old_west.core.FirstTest.REACH`).

    >>> may_strike(Strike(StrikeAt.MOUNT)).allowed, may_strike(Strike(across_obstacle=True)).test
    (False, <FirstTest.REACH: 'reach'>)
    """
    mount = ("OW-CC-16",) if strike.at is StrikeAt.MOUNT or strike.mount_alive else ()
    if strike.striker_prone:
        return Verdict.forbid(msg("old_west.permission.prone_winner"), "OW-CC-10")
    if not strike.loser:
        return Verdict.forbid(msg("old_west.permission.not_a_loser"), "OW-CC-05", "OW-CC-13")
    if strike.target_out:
        return Verdict.forbid(msg("old_west.permission.already_out"), "OW-CC-12")
    if strike.at is StrikeAt.MOUNT and not strike.mount_alive:
        return Verdict.forbid(msg("old_west.permission.no_mount"), "OW-CC-16")
    if strike.across_obstacle:
        return Verdict.need(FirstTest.REACH, msg("old_west.permission.reach"), "OW-CC-14", *mount)
    return Verdict.allow("OW-CC-05", *mount)


def reach_and_wound(
    strength: int,
    toughness: int,
    fame: int = 0,
    side: str = "striker",
    rules: tuple[str, ...] = ("OW-CC-14",),
) -> Procedure[WoundOutcome]:
    """A strike across an obstacle: 4+ on a d6 reaches the enemy, then roll to wound."""
    if not (yield from reaches(side, rules)):
        return WoundOutcome(False)
    return (yield from wound(strength, toughness, fame, side))


def reaches(side: str, rules: tuple[str, ...]) -> Procedure[bool]:
    """The 4+ a strike across an obstacle needs to reach the enemy (OW-CC-14)."""
    needed = number("close_combat", "obstacle_reach")
    (roll,) = yield _reach_roll(needed, side, rules)
    if roll < needed:
        said = emit("old_west.combat.hit_obstacle", rules=rules, rolled=roll)
        if said is not SILENT:
            yield said
        return False
    return True


@lru_cache(maxsize=256)
def _reach_roll(needed: int, side: str, rules: tuple[str, ...]) -> Roll:
    """The reach roll, one value per situation: the exact odds replay a round's strikes
    over and over, and a request met again is known by its identity."""
    return Roll(D6, msg("old_west.combat.reach", needed=needed), roller=side, rules=rules)


#: The one reducer of every batch of strikes (calls of equal arguments are then equal).
_COUNT_WOUNDED = CountWounded()


@lru_cache(maxsize=512)
def _wound_call(
    strength: int, toughness: int, fame: int, side: str
) -> Call[FameWound, int, int, int, str]:
    """A Hero's strike with his Fame (one value per situation, as :func:`_reach_roll`)."""
    return Call(wound_with_fame, (strength, toughness, fame, side))


@lru_cache(maxsize=512)
def _strikes_call(
    strength: int, toughness: int, side: str, batch: int, reach: tuple[str, ...] | None
) -> Call[WoundOutcome, *tuple[object, ...]]:
    """``batch`` strikes without Fame, counted (``reach``: the rules of the 4+ each needs
    first across an obstacle; None: none needed), one value per situation."""
    args = (strength, toughness, 0, side)
    if reach is not None:
        return Call(reach_and_wound, (*args, reach), times=batch, reduce=_COUNT_WOUNDED)
    return Call(wound, args, times=batch, reduce=_COUNT_WOUNDED)


@lru_cache(maxsize=256)
def _fortune_call(
    wounds: int, left: int, side: str, hero: Message | None
) -> Call[FortuneOutcome, int, int, str, Message]:
    """Fortune against ``wounds`` with ``left`` points (one value per situation, as
    :func:`_reach_roll`); ``hero``: his name, when the fight has names."""
    return Call(fortune, (wounds, left, side, hero if hero is not None else THE_HERO))


@lru_cache(maxsize=64)
def _fall_call(toughness: int, side: str) -> Call[FallOutcome, int, str]:
    """A rider's fall when his mount is killed (one value per situation, as
    :func:`_reach_roll`)."""
    return Call(fall_from_horse, (toughness, side))


class Marks(NamedTuple):
    """What strikes have done to a loser so far: the whole state a strike group reads
    and changes besides the models, so the odds driver keeps each group's outcomes by it
    (:func:`strike_group`) instead of replaying the round once per path of strikes.
    A named tuple: its hash keys every memoised step, and a tuple's is made in C."""

    wounds: int = 0
    mount_wounds: int = 0
    fortune_spent: int = 0


class Struck(NamedTuple):
    """A loser as a winner's attacks find him: the state :func:`attacks_of` reads and
    changes, so the odds of a round branch on what a winner's attacks did, not on
    every path of attacks that did it (a named tuple, as :class:`Marks`)."""

    model: Model
    trapped: bool
    marks: Marks = Marks()
    fell: bool = False


@dataclass(slots=True)
class Target:
    model: Model
    trapped: bool
    wounds: int = 0
    mount_wounds: int = 0
    fell: bool = False
    fortune_spent: int = 0

    @property
    def marks(self) -> Marks:
        return Marks(self.wounds, self.mount_wounds, self.fortune_spent)

    def mark(self, marks: Marks) -> None:
        self.wounds, self.mount_wounds = marks.wounds, marks.mount_wounds
        self.fortune_spent = marks.fortune_spent

    @property
    def struck(self) -> Struck:
        return Struck(self.model, self.trapped, self.marks, self.fell)

    def restore(self, struck: Struck) -> None:
        self.mark(struck.marks)
        self.fell = struck.fell

    @classmethod
    def of(cls, struck: Struck) -> Target:
        target = cls(struck.model, struck.trapped, fell=struck.fell)
        target.mark(struck.marks)
        return target

    @property
    def mount_dead(self) -> bool:
        return self.model.mounted and self.mount_wounds >= self.model.mount_wounds

    @property
    def out(self) -> bool:
        return out_of_action(self.wounds, self.model.wounds)

    def verdict(self, at: StrikeAt, striker: Model) -> Verdict:
        """:func:`may_strike` on a strike of ``striker`` at it, as the round stands."""
        return strike_verdict(
            at,
            striker.prone,
            self.out,
            self.model.mounted and not self.mount_dead,
            striker.across_obstacle or self.model.across_obstacle,
        )

    def wounds_to_go(self, at: StrikeAt) -> int:
        """Wounds that still take the target (or its mount) out."""
        if at is StrikeAt.MOUNT:
            return max(self.model.mount_wounds - self.mount_wounds, 0)
        return max(self.model.wounds - self.wounds, 0)


@lru_cache(maxsize=128)
def strike_verdict(
    at: StrikeAt, striker_prone: bool, target_out: bool, mount_alive: bool, across: bool
) -> Verdict:
    """:func:`may_strike`'s verdict, one per situation: a round's exact odds ask it of
    every strike of every replay."""
    return may_strike(Strike(at, striker_prone, True, target_out, mount_alive, across))


def suffer(target: Target, wounds: int, side: str) -> Procedure[None]:
    """The loser suffers ``wounds``: his Fortune may save each as he suffers it
    (OW-ABSENT-07 default), the rest count towards his Wounds (OW-CC-12), at most all of
    them: wounds past his last change nothing (a fall can deal more), so the steps after
    see one state for every way he was put out."""
    left = target.model.fortune - target.fortune_spent
    if wounds > 0 and left > 0:
        saved = yield _fortune_call(wounds, left, side, target.model.name)
        target.fortune_spent += saved.fortune_spent
        wounds = saved.wounds
    target.wounds = min(target.wounds + wounds, target.model.wounds)


def strike_group(
    striker: Model,
    target: Target,
    at: StrikeAt,
    strikes: int,
    fame: int,
    side: Side,
    rules: tuple[str, ...],
) -> Procedure[tuple[int, int]]:
    """``strikes`` strikes of one model at the target's rider or mount, stopping once it
    is out (OW-CC-12); returns the Fame left and the strikes left unrolled at a mount
    that fell while its rider still stands (they go at the rider, OW-CC-16).

    The strikes run as a sub-procedure of the target's :class:`Marks`: its outcomes
    are few (the wounds dealt), its paths many (every batch of strikes), and the odds
    of a round branch on the outcomes only."""
    marks, fame, left = yield step(
        strikes_at, striker, target.model, target.marks, at, strikes, fame, side, rules
    )
    target.mark(marks)
    return fame, left


def strikes_at(
    striker: Model,
    model: Model,
    marks: Marks,
    at: StrikeAt,
    strikes: int,
    fame: int,
    side: Side,
    rules: tuple[str, ...],
) -> Procedure[tuple[Marks, int, int]]:
    """The strikes of :func:`strike_group` at ``model`` marked ``marks`` so far: the
    target's marks after them, the Fame left and the strikes left for the rider.

    One batch (as many strikes as could still take the target out, or one when Fame
    may be spent on it), then the rest as a step of its own on the new marks."""
    if strikes <= 0:
        return marks, fame, 0
    target = Target(model, trapped=False)
    target.mark(marks)
    verdict = target.verdict(at, striker)
    if not verdict.allowed:
        if at is StrikeAt.MOUNT and not target.out:
            return marks, fame, strikes
        said = emit("old_west.combat.overkill", rules=verdict.rules, strikes=strikes)
        if said is not SILENT:
            yield said
        return marks, fame, 0
    toughness = model.mount_toughness if at is StrikeAt.MOUNT else model.toughness
    if fame > 0:
        batch = 1
        wounded = 0
        if not verdict.needs_test or (yield from reaches(side.value, verdict.rules + rules)):
            result = yield _wound_call(striker.strength, toughness, fame, side.value)
            fame -= result.fame_spent
            wounded = int(result.wounded)
    else:
        batch = min(strikes, target.wounds_to_go(at))
        reach = verdict.rules + rules if verdict.needs_test else None
        count = yield _strikes_call(striker.strength, toughness, side.value, batch, reach)
        assert isinstance(count, int)
        wounded = count
    if at is StrikeAt.MOUNT:
        target.mount_wounds += wounded
    else:
        yield from suffer(target, wounded, side.other.value)
    rest: tuple[Marks, int, int] = yield tail_step(
        strikes_at, striker, model, target.marks, at, strikes - batch, fame, side, rules
    )
    return rest


def strike_target(
    striker: Model,
    attacks: int,
    target: Target,
    fame: int,
    side: Side,
    rules: tuple[str, ...] = (),
) -> Procedure[int]:
    """``attacks`` Attacks of ``striker`` at one target; returns the Fame left."""
    strikes = strikes_on(attacks, target.trapped)
    at_mount = 0
    at = target.verdict(StrikeAt.MOUNT, striker)
    if at.allowed:
        easier = mount_easier(striker.strength, target.model)
        chosen = yield _at_mount_choice(strikes, side.value, easier)
        assert isinstance(chosen, int)
        at_mount = chosen
    fame, _ = yield from strike_group(
        striker, target, StrikeAt.RIDER, strikes - at_mount, fame, side, rules
    )
    if at_mount:
        had_mount = not target.mount_dead
        fame, left = yield from strike_group(
            striker, target, StrikeAt.MOUNT, at_mount, fame, side, rules
        )
        if had_mount and target.mount_dead and not target.out:
            yield emit("old_west.combat.mount_killed", rules=("OW-CC-16",))
            fall = yield _fall_call(target.model.toughness, side.other.value)
            yield from suffer(target, int(fall.wounded), side.other.value)
            target.fell = fall.prone
        if left:
            yield emit("old_west.combat.at_rider_instead", rules=("OW-CC-16",), strikes=left)
            fame, _ = yield from strike_group(
                striker, target, StrikeAt.RIDER, left, fame, side, rules
            )
    return fame


@lru_cache(maxsize=128)
def _at_mount_choice(strikes: int, side: str, easier: bool) -> Choose:
    """How many of ``strikes`` go at the mount (OW-CC-16; ``easier``: all of them by
    default, :func:`mount_easier`), one value per situation: the exact odds replay a
    round's strikes over and over."""
    options = tuple(range(strikes + 1))
    return Choose(
        options,
        side,
        msg("old_west.combat.at_mount", strikes=strikes),
        default=strikes if easier else 0,
        labels=tuple(
            msg("old_west.combat.at_mount_option", mount=n, rider=strikes - n) for n in options
        ),
        rules=("OW-CC-16",),
    )


@lru_cache(maxsize=128)
def mount_easier(strength: int, loser: Model) -> bool:
    """Whether a strike wounds the loser's mount more often than the rider: the striking
    player's default, every strike at the mount (OW-CC-16, the chart OW-CC-06/07).

    >>> mount_easier(3, Model(3, 1, 3, 4, mount_toughness=3, mount_wounds=1))
    True
    """
    return loser.mounted and _wound_chance(strength, loser.mount_toughness) > _wound_chance(
        strength, loser.toughness
    )


def _wound_chance(strength: int, toughness: int) -> Fraction:
    needed = cell(strength, toughness)
    if needed.first is None:
        return Fraction(0)
    chance = Fraction(7 - needed.first, 6)
    return chance * Fraction(7 - needed.second, 6) if needed.second else chance


__all__ = [
    "Marks",
    "Strike",
    "StrikeAt",
    "Struck",
    "Target",
    "may_strike",
    "mount_easier",
    "reach_and_wound",
    "reaches",
    "strike_group",
    "strike_target",
    "strike_verdict",
    "strikes_at",
    "strikes_on",
    "suffer",
]
