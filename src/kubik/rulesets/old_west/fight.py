"""Dukin' it out (Борьба): who wins a fight (OW-CC-03, OW-CC-11, OW-CC-13, OW-HERO-03/05).

Each side rolls one d6 per Attack of every model and keeps its best die. The higher
best die wins; a tie goes to the side with the best Fight value, and equal Fight
values go to a d6 roll-off: 1–3 the side with advantage (our default, the seed does
not say which side), 4–6 the other.

Heroes may spend Fame on their own die after seeing both sides' dice (OW-HERO-02/05).
When Heroes on both sides can spend, each side writes its bid in secret (OW-HERO-03,
:func:`sealed_bids`): both bids are asked before either is applied, neither request
shows the other's, and both are revealed together by the next event.
Rank-and-file dice of a side are one roll; a Hero with Fame rolls his own dice, so the
die his Fame changes is known.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache, lru_cache

from kubik.engine import Call, Choose, Procedure, Roll, emit, msg
from kubik.engine.dice import D6
from kubik.engine.memo import by_identity
from kubik.engine.reducers import AtMost
from kubik.engine.requests import step, tail_step
from kubik.rulesets.old_west.core import Highest, Side, number
from kubik.rulesets.old_west.fame import (
    FameRoll,
    FameUse,
    apply_fame,
    fame_labels,
    may_spend_fame,
    points_asked,
)


@dataclass(frozen=True, slots=True)
class Fighter:
    """What Dukin' it out needs of a model: Fight value, Attacks and Fame to spend."""

    fight: int
    attacks: int
    fame: int = 0


class Decided(StrEnum):
    """What decided the fight."""

    DICE = "dice"
    FIGHT = "fight"
    ROLL_OFF = "roll_off"

    @property
    def msgid(self) -> str:
        """Message id of its description."""
        return f"old_west.fight.decided.{self.value}"


@dataclass(frozen=True, slots=True)
class FightOutcome:
    """The public outcome of ``old_west.fight``: the winning side."""

    winner: Side


@dataclass(frozen=True, slots=True)
class FightResult:
    """The winner and the Fame each model spent (input order), for the rest of the round."""

    winner: Side
    spent_a: tuple[int, ...]
    spent_b: tuple[int, ...]

    def spent(self, side: Side) -> tuple[int, ...]:
        """Fame spent by each model of ``side``."""
        return self.spent_a if side is Side.A else self.spent_b


@dataclass(frozen=True, slots=True)
class SideDice:
    """A side's rolled dice: the best rank-and-file die and each Hero's best die."""

    plain: int  # 0 when the side has no model without Fame
    heroes: tuple[tuple[int, int], ...]  # (model index, best die)

    def boosted(self, fighters: Sequence[Fighter], points: int) -> tuple[int, int | None]:
        """The side's best die when ``points`` Fame go on the Hero who gains most.

        Returns (value, index of the paying Hero or None when nothing is spent).

        >>> SideDice(4, ((1, 3),)).boosted((Fighter(3, 1), Fighter(4, 1, 2)), 2)
        (5, 1)
        """
        best, payer = self.best, None
        if points <= 0:
            return best, None
        for index, die in self.heroes:
            if fighters[index].fame >= points and apply_fame(die, points) > best:
                best, payer = apply_fame(die, points), index
        return best, payer

    @property
    def best(self) -> int:
        """The best die before Fame."""
        if not self.heroes:
            return self.plain
        return max([self.plain, *(die for _, die in self.heroes)])

    def with_hero(
        self, index: int, die: int, fighters: Sequence[Fighter], payers: bool = True
    ) -> SideDice:
        """The dice with Hero ``index``'s best die added, keeping only the Heroes whose die
        Fame could still go on (what :meth:`boosted` reads, and nothing more).

        Fame goes on the best die among the Heroes with enough Fame, the first of them on a
        tie, so a Hero is never the one who pays while another with as much Fame or more
        has a better die, or the same die and an earlier place, nor while all his Fame
        would not lift his die above the side's best die: he is dropped, and so the exact
        odds follow a side's few distinct situations, not every Hero's die. With
        ``payers`` off (only the winner is wanted, not who paid) a Hero's place does not
        count: of two alike only one is kept, under the first place with his Fame.

        >>> fighters = (Fighter(3, 1, 2), Fighter(3, 1, 2), Fighter(3, 1, 3))
        >>> SideDice(0, ()).with_hero(0, 4, fighters).with_hero(1, 4, fighters).heroes
        ((0, 4),)
        >>> SideDice(0, ((0, 4),)).with_hero(2, 4, fighters).heroes
        ((0, 4), (2, 4))
        >>> SideDice(0, ((1, 4),)).with_hero(2, 4, fighters, payers=False).heroes
        ((2, 4),)
        """
        fame = fighters[index].fame
        if apply_fame(die, fame) <= self.plain:  # all his Fame would not beat the rank and file
            return self
        kept: list[tuple[int, int]] = []
        for other, other_die in self.heroes:
            other_fame = fighters[other].fame
            if other_fame >= fame and other_die >= die:  # an earlier Hero as good: no change
                return self
            if fame >= other_fame and (die > other_die or (die == other_die and not payers)):
                continue  # the new Hero pays wherever this one would
            kept.append((other, other_die))
        kept.append((index, die))
        # a Hero whose whole Fame would at most tie the side's best die never pays
        best = max(self.plain, *(d for _, d in kept))
        kept = [(i, d) for i, d in kept if apply_fame(d, fighters[i].fame) > best]
        if not payers:
            kept = sorted((_first_with_fame(fighters, fighters[i].fame), d) for i, d in kept)
        # the rank and file's die counts only while no Hero's die is as good
        plain = self.plain if self.plain > max(d for _, d in kept) else 0
        return SideDice(plain, tuple(kept))


@cache
def _first_with_fame(fighters: tuple[Fighter, ...], fame: int) -> int:
    """The first place on a side of a model with ``fame`` Fame (a Hero's place when who
    paid does not count, :meth:`SideDice.with_hero`)."""
    return next(i for i, f in enumerate(fighters) if f.fame == fame)


def best_fight(fighters: Sequence[Fighter]) -> int:
    """The best Fight value of a side, for ties (OW-CC-13).

    >>> best_fight((Fighter(3, 1), Fighter(5, 1)))
    5
    """
    return max(f.fight for f in fighters)


def beats(own: int, opponent: int, own_fight: int, opponent_fight: int) -> bool | None:
    """Whether a best die wins outright: True, False, or None when a roll-off decides.

    >>> beats(5, 4, 3, 3), beats(4, 4, 5, 3), beats(4, 4, 3, 3), beats(2, 6, 9, 1)
    (True, True, None, False)
    """
    if own != opponent:
        return own > opponent
    if own_fight != opponent_fight:
        return own_fight > opponent_fight
    return None


def fame_pool(fighters: Sequence[Fighter]) -> int:
    """The most Fame one Hero of the side can put on his die."""
    return max((f.fame for f in fighters), default=0)


def fight_rules(a: Sequence[Fighter], b: Sequence[Fighter]) -> tuple[str, ...]:
    """The rules deciding this fight: Dukin' it out (OW-CC-03), with several Attacks
    (OW-CC-11) and several models on a side (OW-CC-13) when it has them.

    >>> fight_rules((Fighter(3, 2),), (Fighter(3, 1), Fighter(3, 1)))
    ('OW-CC-03', 'OW-CC-11', 'OW-CC-13')
    """
    rules = ["OW-CC-03"]
    if any(f.attacks > 1 for f in (*a, *b)):
        rules.append("OW-CC-11")
    if len(a) > 1 or len(b) > 1:
        rules.append("OW-CC-13")
    return tuple(rules)


@cache
def _side_rolls(
    side: Side, fighters: tuple[Fighter, ...], rules: tuple[str, ...]
) -> tuple[Roll | None, tuple[Roll, ...]]:
    """A side's roll requests (immutable values, built once: exact odds replay them often)."""
    plain_dice = sum(f.attacks for f in fighters if f.fame == 0)
    plain = None
    if plain_dice:
        plain = Roll(
            (D6,) * plain_dice,
            msg("old_west.fight.roll", side=side, dice=plain_dice),
            unordered=True,
            reduce=Highest(),
            roller=side.value,
            rules=rules,
        )
    heroes = tuple(
        Roll(
            (D6,) * fighter.attacks,
            msg("old_west.fight.hero_roll", side=side, hero=index + 1, dice=fighter.attacks),
            unordered=True,
            reduce=Highest(),
            roller=side.value,
            rules=rules,
        )
        for index, fighter in enumerate(fighters)
        if fighter.fame > 0
    )
    return plain, heroes


def roll_side(
    side: Side,
    fighters: tuple[Fighter, ...],
    rules: tuple[str, ...] = ("OW-CC-03",),
    payers: bool = True,
) -> Procedure[SideDice]:
    """Roll a side's dice: one roll for its rank and file, one per Hero with Fame
    (``rules``: the fight's rules, :func:`fight_rules`; ``payers``: whether who pays Fame
    counts, :meth:`SideDice.with_hero`).

    A step of the fight (``yield step(roll_side, ...)``): the exact odds keep a side's
    distinct dice, each Hero's die folded in as a step of its own on the dice so far."""
    plain_roll, hero_rolls = _side_rolls(side, fighters, rules)
    plain = 0
    if plain_roll is not None:
        plain = yield plain_roll
    if not hero_rolls:
        return SideDice(plain, ())
    dice: SideDice = yield tail_step(
        _heroes_rolled, side, fighters, rules, payers, SideDice(plain, ()), 0
    )
    return dice


def _heroes_rolled(
    side: Side,
    fighters: tuple[Fighter, ...],
    rules: tuple[str, ...],
    payers: bool,
    dice: SideDice,
    hero: int,
) -> Procedure[SideDice]:
    """The side's ``dice`` with its Heroes' rolls from the ``hero``-th (0-based) on."""
    _, hero_rolls = _side_rolls(side, fighters, rules)
    die = yield hero_rolls[hero]
    dice = dice.with_hero(_hero_places(fighters)[hero], die, fighters, payers)
    if hero + 1 == len(hero_rolls):
        return dice
    rest: SideDice = yield tail_step(_heroes_rolled, side, fighters, rules, payers, dice, hero + 1)
    return rest


@cache
def _hero_places(fighters: tuple[Fighter, ...]) -> tuple[int, ...]:
    """The places on the side of its Heroes with Fame, in order."""
    return tuple(index for index, fighter in enumerate(fighters) if fighter.fame > 0)


def points_to_win(
    dice: SideDice, fighters: Sequence[Fighter], opponent: int, opponent_fight: int
) -> int:
    """Fewest Fame points that make the side win outright against ``opponent``; -1 if none.

    >>> points_to_win(SideDice(0, ((0, 4),)), (Fighter(3, 1, 2),), 5, 3)
    2
    """
    own_fight = best_fight(fighters)
    for points in range(fame_pool(fighters) + 1):
        value, _ = dice.boosted(fighters, points)
        if beats(value, opponent, own_fight, opponent_fight):
            return points
    return -1


def bid(
    side: Side,
    dice: SideDice,
    fighters: Sequence[Fighter],
    opponent: int,
    opponent_fight: int,
    secret: bool,
) -> Procedure[int]:
    """Ask ``side`` how much Fame to put on its Hero's die (default: none).

    An open bid (only this side can spend) offers 0 up to the points that win; a
    secret bid (OW-HERO-03) offers 0 up to the whole pool, as the other side may
    raise too. ``to_succeed`` is the fewest points that win against the visible dice.
    A secret bid is a ``sealed`` decision (see :func:`sealed_bids`).
    """
    request = _bid_request(side, dice, tuple(fighters), opponent, opponent_fight, secret)
    return (yield from points_asked(request))


@lru_cache(maxsize=1024)
def _bid_request(
    side: Side,
    dice: SideDice,
    fighters: tuple[Fighter, ...],
    opponent: int,
    opponent_fight: int,
    secret: bool,
) -> Choose | None:
    """:func:`bid`'s request (None: nothing to decide), built once per situation: a
    fight's exact odds and the bots' exact solves replay the same bid again and again."""
    pool = fame_pool(fighters)
    allowed = may_spend_fame(FameUse(FameRoll.FIGHT, pool))
    to_win = points_to_win(dice, fighters, opponent, opponent_fight)
    if not allowed.allowed or (to_win == 0 and not secret):
        return None
    top = pool if secret or to_win < 0 else to_win
    rules = allowed.rules + (("OW-HERO-03",) if secret else ())
    options = tuple(range(top + 1))
    return Choose(
        options,
        side.value,
        msg(
            "old_west.fame.spend_fight",
            side=side,
            rolled=dice.best,
            opponent=opponent,
            fame=pool,
            to_succeed=to_win,
            secret=secret,
        ),
        default=0,
        labels=fame_labels(options),
        costs=options,
        rules=rules,
        sealed=secret,
    )


@cache
def _roll_off(advantage: Side, low_max: int, rules: tuple[str, ...]) -> Roll:
    """The roll-off request (built once): the fight needs only whether the die is low
    (1–3: the side with advantage wins, :func:`kubik.rulesets.old_west.core.roll_off_low_wins`)."""
    return Roll(
        D6,
        msg("old_west.fight.roll_off", advantage=advantage, low_max=low_max),
        reduce=AtMost(low_max),
        rules=rules,
    )


@cache
def _sides(a: tuple[Fighter, ...], b: tuple[Fighter, ...]) -> tuple[int, int, int, int]:
    """Each side's best Fight value and Fame pool (computed once per pair of sides)."""
    return best_fight(a), best_fight(b), fame_pool(a), fame_pool(b)


@by_identity
def _opening(
    a: tuple[Fighter, ...], b: tuple[Fighter, ...], payers: bool
) -> tuple[
    tuple[str, ...],
    Call[SideDice, Side, tuple[Fighter, ...], tuple[str, ...], bool],
    Call[SideDice, Side, tuple[Fighter, ...], tuple[str, ...], bool],
    tuple[int, int, int, int],
]:
    """What a fight of these sides starts from: its rules, each side's roll (a step),
    the sides' Fight values and Fame pools. Looked up once per run of the fight, as the
    exact odds replay it hundreds of times with the very same sides)."""
    rules = fight_rules(a, b)
    return (
        rules,
        step(roll_side, Side.A, a, rules, payers),
        step(roll_side, Side.B, b, rules, payers),
        _sides(a, b),
    )


def sealed_bids(
    a: Sequence[Fighter], b: Sequence[Fighter], dice_a: SideDice, dice_b: SideDice
) -> Procedure[tuple[int, int]]:
    """Two Heroes' secret Fame bids (OW-HERO-03): side a's bid, then side b's, each asked
    against the dice as rolled only, then both revealed by one event.

    A referee keeps them secret: each ``Choose`` is ``sealed`` and neither shows the
    other's answer; no event comes between the two answers, so a game session, which
    shows a sealed answer to nobody until the next event (the reveal), shows neither
    bid before both are written.
    """
    points_a = yield from bid(Side.A, dice_a, a, dice_b.best, best_fight(b), True)
    points_b = yield from bid(Side.B, dice_b, b, dice_a.best, best_fight(a), True)
    yield emit(
        "old_west.fame.bids_revealed",
        rules=("OW-HERO-03",),
        side_a=Side.A,
        a=points_a,
        side_b=Side.B,
        b=points_b,
    )
    return points_a, points_b


@cache
def _spent(models: int, payer: int | None, points: int) -> tuple[int, ...]:
    return tuple(points if i == payer else 0 for i in range(models))


def dukin_it_out(
    a: Sequence[Fighter], b: Sequence[Fighter], advantage: Side = Side.A, payers: bool = True
) -> Procedure[FightResult]:
    """Decide a fight: best die, then best Fight value, then a d6 roll-off.

    Order of rolls: a's dice, then b's dice, then the roll-off die only if needed.
    ``payers`` off: the result names the winner only (no Fame spent per model), for a
    caller that reads nothing else — the exact odds then need not tell Heroes apart.
    """
    rules, roll_a, roll_b, (fight_a, fight_b, pool_a, pool_b) = _opening(tuple(a), tuple(b), payers)
    dice_a: SideDice = yield roll_a
    dice_b: SideDice = yield roll_b
    points_a = points_b = 0
    if pool_a > 0 and pool_b > 0:
        points_a, points_b = yield from sealed_bids(a, b, dice_a, dice_b)
    elif pool_a > 0:
        points_a = yield from bid(Side.A, dice_a, a, dice_b.best, fight_b, False)
    elif pool_b > 0:
        points_b = yield from bid(Side.B, dice_b, b, dice_a.best, fight_a, False)
    best_a, payer_a = dice_a.boosted(a, points_a)
    best_b, payer_b = dice_b.boosted(b, points_b)
    spent_a, spent_b = _spent(len(a), payer_a, points_a), _spent(len(b), payer_b, points_b)
    outright = beats(best_a, best_b, fight_a, fight_b)
    if outright is not None:
        winner = Side.A if outright else Side.B
        decided = Decided.DICE if best_a != best_b else Decided.FIGHT
    else:
        low_max = number("close_combat", "roll_off_low_max")
        low = yield _roll_off(advantage, low_max, rules)
        winner = advantage if low else advantage.other
        decided = Decided.ROLL_OFF
    spent = ("OW-HERO-02", "OW-HERO-05") if points_a or points_b else ()
    yield emit(
        "old_west.fight.result",
        rules=rules + spent,
        winner=winner,
        best_a=best_a,
        best_b=best_b,
        fight_a=fight_a,
        fight_b=fight_b,
        decided=decided,
    )
    if not payers:
        return FightResult(winner, (), ())
    return FightResult(winner, spent_a, spent_b)


def fight(
    a: Sequence[Fighter], b: Sequence[Fighter], advantage: Side = Side.A
) -> Procedure[FightOutcome]:
    """Dukin' it out, reduced to the public outcome: the winning side."""
    result = yield from dukin_it_out(a, b, advantage, payers=False)
    return FightOutcome(result.winner)
