"""A whole close-combat round: Dukin' it out, Back off!, Woundin' (OW-CC-01..16).

The fight decides a winner (:mod:`.fight`). The losers back off 1" (:func:`back_off`);
a loser who cannot, or who lies on the ground, is trapped and every strike on him
counts double (OW-CC-09, OW-CC-10) — he still ends the round out of contact, the other
models shuffling aside for him; one at a cliff edge takes normal strikes and falls.
Then every winning model strikes once per Attack (OW-CC-05, OW-CC-11) where
:func:`may_strike` lets it: a prone winner stands up and does not strike; a single
winner facing several losers picks a target for each Attack in turn (OW-CC-13);
strikes across an obstacle first need 4+ to reach (OW-CC-14, OW-CC-15); strikes at a
rider may go at his mount instead (OW-CC-16), and a mount killed throws its rider
(Falling from a Horse, absent: OW-ABSENT-06 default). A model is out of action once
it has suffered as many wounds as it has Wounds (OW-CC-12) — strikes at it stop
there — and a Hero's Fortune may save him from each wound as he suffers it
(OW-ABSENT-07 default).

Strikes without Fame are independent, so they are combined by convolution
(``Call(..., times=n)``, in batches no larger than the wounds the target has left); a
Hero's strikes share one Fame pool and are rolled in turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from kubik.core.errors import InputError
from kubik.engine import Call, Choose, Message, Procedure, Roll, Verdict, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import D6
from kubik.engine.memo import by_identity
from kubik.engine.requests import SILENT, step, tail_step
from kubik.rulesets.old_west.absent import (
    THE_HERO,
    FallOutcome,
    FortuneOutcome,
    fall_from_horse,
    falling,
    fortune,
    lands_prone,
)
from kubik.rulesets.old_west.backing_off import BackOff, Loser, back_off, may_back_off
from kubik.rulesets.old_west.chart import cell
from kubik.rulesets.old_west.core import FirstTest, Side, number
from kubik.rulesets.old_west.division import fight_shape
from kubik.rulesets.old_west.fight import Fighter, FightResult, dukin_it_out
from kubik.rulesets.old_west.wounds import (
    CountWounded,
    FameWound,
    WoundOutcome,
    out_of_action,
    wound,
    wound_with_fame,
)


@dataclass(frozen=True, slots=True)
class Model:
    """A model in a close-combat round: its profile and its situation."""

    fight: int
    attacks: int
    strength: int
    toughness: int
    wounds: int = 1  # Wounds it has left
    fame: int = 0
    prone: bool = False  # lying on the ground (OW-CC-10)
    trapped: bool = False  # cannot back off the full 1" if it loses (OW-CC-09)
    across_obstacle: bool = False  # separated from its opponent by an obstacle (OW-CC-14)
    mount_toughness: int = 0  # 0: on foot; otherwise the mount's Toughness (OW-CC-16)
    mount_wounds: int = 0
    cliff_drop: int = 0  # inches: backs off over the edge of a drop this high (OW-CC-09)
    fortune: int = 0  # Fortune points it will spend against wounds (OW-ABSENT-07 default)
    name: Message | None = None  # how the log names it (None: by its place in the fight)
    # its hash, made once: models key every memoised step of a round's exact odds
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(
            self,
            "_hash",
            hash(tuple(getattr(self, f.name) for f in fields(self) if f.name != "_hash")),
        )

    def __hash__(self) -> int:
        return self._hash

    def called(self, index: int) -> Message | int:
        """How messages name it: its name, else its 1-based place on its side."""
        return self.name if self.name is not None else index + 1

    @property
    def fighter(self) -> Fighter:
        """What Dukin' it out needs of it."""
        return Fighter(self.fight, self.attacks, self.fame)

    @property
    def mounted(self) -> bool:
        """Whether it rides a horse or a mule."""
        return self.mount_toughness > 0


def _flags(values: Sequence[int] | Sequence[bool]) -> tuple[int, ...]:
    """A per-model record, or () when nothing happened to anyone (fewer distinct outcomes)."""
    return tuple(int(v) for v in values) if any(values) else ()


@dataclass(frozen=True, slots=True)
class CombatOutcome:
    """What a round did, per model, for the game to apply exactly.

    ``wounds``: wounds each model of the losing side suffered (input order, after its
    Fortune); ``out_of_action``: how many of them lost their last Wound. The rest is
    () when nothing of the kind happened, else one entry per model (input order):
    ``mounts``, 1 where a loser's mount was killed (OW-CC-16); ``fell``, 1 where a loser
    ends the round on the ground after a fall (thrown by its killed mount, OW-ABSENT-06;
    over a cliff edge, OW-ABSENT-05); ``fame_a`` / ``fame_b``, Fame each model of side a
    / b spent (deciding the fight and wounding, OW-HERO-02/05); ``fortune``, Fortune each
    loser spent against its wounds (OW-ABSENT-07); ``stood``, 1 where a winner who fought
    lying down stood up (OW-CC-10). ``killed_by``, for the record of who put whom out of
    action: per loser, the winner (1-based, 0: none) whose strikes took its last Wound —
    not part of the round's result, so outcomes that differ only in it are one outcome.
    """

    winner: Side
    wounds: tuple[int, ...]
    out_of_action: int
    mounts: tuple[int, ...] = ()
    fell: tuple[int, ...] = ()
    fame_a: tuple[int, ...] = ()
    fame_b: tuple[int, ...] = ()
    fortune: tuple[int, ...] = ()
    stood: tuple[int, ...] = ()
    killed_by: tuple[int, ...] = field(default=(), compare=False)

    def fame(self, side: Side, index: int) -> int:
        """Fame spent by model ``index`` (0-based) of ``side``."""
        spent = self.fame_a if side is Side.A else self.fame_b
        return spent[index] if spent else 0

    def fortune_spent(self, index: int) -> int:
        """Fortune spent by loser ``index`` (0-based)."""
        return self.fortune[index] if self.fortune else 0

    def mount_killed(self, index: int) -> bool:
        """Whether loser ``index``'s mount was killed this round."""
        return bool(self.mounts[index]) if self.mounts else False

    def on_the_ground(self, index: int) -> bool:
        """Whether loser ``index`` fell and lies prone (from a horse or a height)."""
        return bool(self.fell[index]) if self.fell else False

    def stood_up(self, index: int) -> bool:
        """Whether winner ``index`` won lying down and stood up (OW-CC-10)."""
        return bool(self.stood[index]) if self.stood else False

    def killer(self, index: int) -> int | None:
        """The winner (0-based) whose strikes put loser ``index`` out of action (None: he
        was not, or a fall did)."""
        found = self.killed_by[index] if self.killed_by else 0
        return found - 1 if found else None


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


def check_fight_sizes(a: Sequence[Model], b: Sequence[Model]) -> None:
    """Every fight has a single model on at least one side (:func:`fight_shape`)."""
    shape = fight_shape(len(a), len(b))
    if not shape.allowed:
        raise InputError(
            "a, b: one side of a fight must be a single model (split the fight)"
            if a and b
            else "a, b: each side needs at least one model"
        )


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
class _Target:
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
    def of(cls, struck: Struck) -> _Target:
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
        return _strike_verdict(
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
def _strike_verdict(
    at: StrikeAt, striker_prone: bool, target_out: bool, mount_alive: bool, across: bool
) -> Verdict:
    """:func:`may_strike`'s verdict, one per situation: a round's exact odds ask it of
    every strike of every replay."""
    return may_strike(Strike(at, striker_prone, True, target_out, mount_alive, across))


def suffer(target: _Target, wounds: int, side: str) -> Procedure[None]:
    """The loser suffers ``wounds``: his Fortune may save each as he suffers it
    (OW-ABSENT-07 default), the rest count towards his Wounds (OW-CC-12)."""
    left = target.model.fortune - target.fortune_spent
    if wounds > 0 and left > 0:
        saved = yield _fortune_call(wounds, left, side, target.model.name)
        target.fortune_spent += saved.fortune_spent
        wounds = saved.wounds
    target.wounds += wounds


def strike_group(
    striker: Model,
    target: _Target,
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
    target = _Target(model, trapped=False)
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
    target: _Target,
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


def attacks_of(
    striker: Model,
    struck: tuple[Struck, ...],
    fame: int,
    winner: Side,
    rules: tuple[str, ...],
    first: int,
) -> Procedure[tuple[tuple[Struck, ...], int]]:
    """The Attacks of one winner from his ``first`` (0-based) at the losers as ``struck``
    so far (OW-CC-05; at one of several, a target chosen for each Attack, OW-CC-11,
    OW-CC-13): the losers after them and the winner's Fame left. Each Attack at one of
    several is a step of its own (an ``inline`` call on where the losers stand), so the
    odds of a round keep what the Attacks did, not every order they did it in."""
    targets = [_Target.of(s) for s in struck]
    if len(targets) == 1:
        fame = yield from strike_target(striker, striker.attacks, targets[0], fame, winner, rules)
        return tuple(t.struck for t in targets), fame
    standing = tuple(i for i, t in enumerate(targets) if t.verdict(StrikeAt.RIDER, striker).allowed)
    if first >= striker.attacks or not standing:
        return struck, fame
    names = [targets[i].model.name for i in standing]
    labels = tuple(n for n in names if n is not None)
    chosen = yield _target_choice(
        standing,
        winner.value,
        first + 1,
        labels if len(labels) == len(names) else (),
        striker.attacks > 1,
    )
    assert isinstance(chosen, int)
    fame = yield from strike_target(striker, 1, targets[chosen - 1], fame, winner, rules)
    after = tuple(t.struck for t in targets)
    rest: tuple[tuple[Struck, ...], int] = yield tail_step(
        attacks_of, striker, after, fame, winner, rules, first + 1
    )
    return rest


def winners_strike(
    winners: tuple[Model, ...],
    struck: tuple[Struck, ...],
    fames: tuple[int, ...],
    winner: Side,
    rules: tuple[str, ...],
    index: int,
) -> Procedure[tuple[tuple[Struck, ...], tuple[int, ...], tuple[int, ...]]]:
    """The strikes of the winners from the ``index``-th (0-based) on, at the losers as
    ``struck`` so far (OW-CC-05; each winner strikes, OW-CC-13) with ``fames`` (the Fame
    of each of those winners): the losers after them, the Fame each of them has left and,
    per loser, the winner (1-based, 0: none) whose strikes took its last Wound.

    Each winner's strikes are a step of their own on where the losers stand, so the odds
    of a round with several winners follow the few states of the losers between two
    winners, not every path of every winner's strikes."""
    striker = winners[index]
    killed = (0,) * len(struck)
    left = fames[0]
    after = struck
    if _strike_verdict(StrikeAt.RIDER, striker.prone, False, False, False).allowed:
        said = emit(
            "old_west.combat.strikes",
            rules=("OW-CC-05",),
            side=winner,
            model=striker.called(index),
            attacks=striker.attacks,
        )
        if said is not SILENT:  # (the people rolling see whose strikes these are)
            yield said
        after, left = yield step(attacks_of, striker, struck, left, winner, rules, 0)
        killed = tuple(
            index + 1 if not _struck_out(before) and _struck_out(now) else 0
            for before, now in zip(struck, after, strict=True)
        )
    if index + 1 == len(winners):
        return (yield from _falls(after, winner)), (left,), killed
    before = _Before(left, killed)
    rest: tuple[tuple[Struck, ...], tuple[int, ...], tuple[int, ...]] = yield Call(
        winners_strike,
        (winners, after, fames[1:], winner, rules, index + 1),
        inline=True,
        tail=True,
        then=before,
    )
    return before(rest)


def _falls(struck: tuple[Struck, ...], winner: Side) -> Procedure[tuple[Struck, ...]]:
    """Each loser at a cliff edge still standing after the strikes falls (OW-CC-09,
    OW-ABSENT-05): the losers after the falls."""
    targets = [_Target.of(s) for s in struck]
    for target in targets:
        if target.model.cliff_drop > 0 and not target.out:
            fall = yield Call(
                falling, (target.model.cliff_drop, target.model.toughness, winner.other.value)
            )
            yield from suffer(target, fall.wounds, winner.other.value)
            target.fell = lands_prone(target.model.cliff_drop)
    return tuple(t.struck for t in targets)


@dataclass(frozen=True, slots=True)
class _Before:
    """What one winner did, put before what the winners after him did: the promise of
    :func:`winners_strike`'s call on the next winner (the odds take its answers through
    it instead of replaying the winner's strikes for each)."""

    left: int  # Fame the winner has left
    killed: tuple[int, ...]  # per loser, this winner (1-based) if he took its last Wound

    def __call__(
        self, rest: tuple[tuple[Struck, ...], tuple[int, ...], tuple[int, ...]]
    ) -> tuple[tuple[Struck, ...], tuple[int, ...], tuple[int, ...]]:
        struck, lefts, later = rest
        merged = tuple(k or k2 for k, k2 in zip(self.killed, later, strict=True))
        return struck, (self.left, *lefts), merged


def _struck_out(struck: Struck) -> bool:
    """Whether a loser as ``struck`` has lost his last Wound (OW-CC-12)."""
    return out_of_action(struck.marks.wounds, struck.model.wounds)


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
def _target_choice(
    standing: tuple[int, ...], side: str, attack: int, labels: tuple[Message, ...], several: bool
) -> Choose:
    """Which loser standing an Attack strikes (OW-CC-13; ``labels``: their names, or ()),
    one value per situation as :func:`_at_mount_choice`."""
    return Choose(
        tuple(i + 1 for i in standing),
        side,
        msg("old_west.combat.choose_target", attack=attack),
        default=standing[0] + 1,
        labels=labels,
        rules=("OW-CC-13", *(("OW-CC-11",) if several else ())),
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


def _round_rules(a: Sequence[Model], b: Sequence[Model]) -> dict[str, tuple[str, ...]]:
    """Which of the multi-model and obstacle rules this fight brings in."""
    several = len(a) > 1 or len(b) > 1
    many = a if len(a) > 1 else b
    mixed = several and len({m.across_obstacle for m in many}) == 2
    return {
        "several": ("OW-CC-13",) if several else (),
        "both_sides": ("OW-CC-15",) if mixed else (),
    }


@dataclass(frozen=True, slots=True)
class _Opening:
    """What a round starts from, for its models: the sides, the rules the fight's shape
    brings in, the fight to roll and how each side's models would back off."""

    sides: dict[Side, tuple[Model, ...]]
    extra: dict[str, tuple[str, ...]]
    fight: Call[FightResult, tuple[Fighter, ...], tuple[Fighter, ...], Side]
    moves: dict[Side, tuple[BackOff, ...]]
    backing: dict[Side, tuple[tuple[str, tuple[str, ...]], ...]]  # each loser's event, rules


def _backing_event(
    model: Model, move: BackOff, extra: dict[str, tuple[str, ...]]
) -> tuple[str, tuple[str, ...]]:
    """The event of a loser backing off (or trapped, or at an edge) and its rules."""
    if move is BackOff.TRAPPED:
        verdict = may_back_off(Loser(not model.trapped, model.prone, model.cliff_drop))
        return "old_west.combat.trapped", verdict.rules + extra["several"] + extra["both_sides"]
    if move is BackOff.FALLS:
        return "old_west.combat.at_edge", ("OW-CC-09",)
    return "old_west.combat.back_off", ("OW-CC-04", *extra["several"])


def _opening(a: Sequence[Model], b: Sequence[Model], advantage: Side) -> _Opening:
    """The round's opening, worked out once for the same arguments while they cannot
    change (tuples: the exact odds replay a round over and over with the very same)."""
    if type(a) is tuple and type(b) is tuple:
        return _kept_opening(a, b, advantage)
    return _opened(a, b, advantage)


@by_identity
def _kept_opening(a: tuple[Model, ...], b: tuple[Model, ...], advantage: Side) -> _Opening:
    return _opened(a, b, advantage)


def _opened(a: Sequence[Model], b: Sequence[Model], advantage: Side) -> _Opening:
    check_fight_sizes(a, b)
    sides = {Side.A: tuple(a), Side.B: tuple(b)}
    fight = Call(
        dukin_it_out, (tuple(m.fighter for m in a), tuple(m.fighter for m in b), advantage)
    )
    moves = {
        side: tuple(back_off(Loser(not m.trapped, m.prone, m.cliff_drop)) for m in models)
        for side, models in sides.items()
    }
    extra = _round_rules(a, b)
    backing = {
        side: tuple(
            _backing_event(m, move, extra) for m, move in zip(models, moves[side], strict=True)
        )
        for side, models in sides.items()
    }
    return _Opening(sides, extra, fight, moves, backing)


def combat(
    a: Sequence[Model], b: Sequence[Model], advantage: Side = Side.A
) -> Procedure[CombatOutcome]:
    """One close-combat round of one fight: winner, back off, strikes and wounds."""
    opening = _opening(a, b, advantage)
    extra = opening.extra
    result = yield opening.fight
    assert isinstance(result, FightResult)
    winner = result.winner
    winners, losers = opening.sides[winner], opening.sides[winner.other]
    fame_left = [m.fame - s for m, s in zip(winners, result.spent(winner), strict=True)]
    moves = opening.moves[winner.other]
    targets = [
        _Target(m, trapped=move is BackOff.TRAPPED) for m, move in zip(losers, moves, strict=True)
    ]
    for index, (model, (event, why)) in enumerate(
        zip(losers, opening.backing[winner.other], strict=True)
    ):
        said = emit(event, rules=why, side=winner.other, model=model.called(index))
        if said is not SILENT:  # narration off (exact odds replay the round): nothing to say
            yield said
    for index, model in enumerate(winners):
        if model.prone:
            said = emit(
                "old_west.combat.stands_up",
                rules=("OW-CC-10",),
                side=winner,
                model=model.called(index),
            )
            if said is not SILENT:
                yield said
    outcome_of = _RoundOutcome(
        winner,
        tuple(m.fame for m in winners),
        result.spent(winner.other),
        tuple(m.prone for m in winners),
    )
    answer = yield Call(
        winners_strike,
        (
            winners,
            tuple(t.struck for t in targets),
            tuple(fame_left),
            winner,
            extra["both_sides"],
            0,
        ),
        inline=True,
        tail=True,
        then=outcome_of,
    )
    outcome = outcome_of(answer)
    losers_after, _, _ = answer
    several_wounds = (
        ("OW-CC-12",) if any(s.model.wounds > 1 and s.marks.wounds for s in losers_after) else ()
    )
    several_attacks = ("OW-CC-11",) if any(m.attacks > 1 for m in winners) else ()
    said = emit(
        "old_west.combat.result",
        rules=("OW-CC-01", "OW-CC-05", *several_attacks, *several_wounds),
        winner=winner,
        wounds=sum(outcome.wounds),
        out_of_action=outcome.out_of_action,
    )
    if said is not SILENT:
        yield said
    return outcome


@dataclass(frozen=True, slots=True)
class _RoundOutcome:
    """The round's outcome from where the winners' strikes and the falls left the losers
    (:func:`winners_strike`'s answer): the promise of the round's last call, so the odds
    of a round take the strikes' answers through it instead of replaying the round."""

    winner: Side
    fame: tuple[int, ...]  # each winner's Fame before the round
    losers_spent: tuple[int, ...]  # Fame each loser spent deciding the fight
    prone: tuple[bool, ...]  # each winner fought lying down (he stands up, OW-CC-10)

    def __call__(
        self, answer: tuple[tuple[Struck, ...], tuple[int, ...], tuple[int, ...]]
    ) -> CombatOutcome:
        struck, fame_left, killed_by = answer
        targets = [_Target.of(s) for s in struck]
        spent = {
            self.winner: [had - left for had, left in zip(self.fame, fame_left, strict=True)],
            self.winner.other: list(self.losers_spent),
        }
        return CombatOutcome(
            self.winner,
            tuple(min(t.wounds, t.model.wounds) for t in targets),
            sum(1 for t in targets if t.out),
            mounts=_flags([t.mount_dead for t in targets]),
            fell=_flags([t.fell and not t.out for t in targets]),
            fame_a=_flags(spent[Side.A]),
            fame_b=_flags(spent[Side.B]),
            fortune=_flags([t.fortune_spent for t in targets]),
            stood=_flags(self.prone),
            killed_by=_flags(killed_by),
        )
