"""Close combat (Фаза рукопашного боя, seed 003): one bout between two fighters.

Both roll their attack dice (RA-CC-06), only the highest counts; each adds current
Стойкость and Боевое умение and every modifier of the table (RA-CC-10): +1 per natural
1 the opponent rolled (confusion, RA-CC-11), charge, elevation, −1 charging over an
obstacle, leap attack (+1 and +1 die, RA-MAN-05), outnumbering (+1 and +1 die per extra
fighter, RA-CC-18), each 6 after the first (critical strike, RA-CC-12); fear halves the
highest die (RA-PSY-07). The higher result wins; a tie goes to the higher Подвижность
with one hit; equal Подвижность is a draw with no blows (RA-CC-08). Hits = the
difference (RA-CC-09). A shield makes the opponent re-roll his highest die; two shields
cancel (RA-CC-13). A knocked-down warrior rolls nothing and every blow lands (RA-CC-17).

Rolls are asked as the design fixes: ``a``'s attack dice, then ``b``'s, then hatred's
re-rolls, then a block's re-roll.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from functools import cache, lru_cache
from typing import Any

from kubik.engine import AnyCall, Call, Choose, Procedure, Roll, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import D6
from kubik.engine.memo import by_identity
from kubik.engine.odds import odds_by
from kubik.engine.requests import SILENT
from kubik.rulesets.apocalypse.core import Pool, Side, number, pool_summary


@dataclass(frozen=True, slots=True)
class Numbers:
    """The melee numbers of the data, read once (exact odds run this rule many times)."""

    charge: int
    elevated: int
    over_obstacle: int
    leap_result: int
    leap_dice: int
    confusion_per_one: int
    critical_per_six: int
    outnumber_result: int
    outnumber_dice: int
    mobility_win_hits: int
    frenzy_multiplier: int
    max_dice: int
    block_from: int
    hatred_below: int


@cache
def numbers() -> Numbers:
    """The melee numbers of the data."""
    return Numbers(
        number("melee", "charge"),
        number("melee", "elevated"),
        number("melee", "over_obstacle"),
        number("melee", "leap_result"),
        number("melee", "leap_dice"),
        number("melee", "confusion_per_one"),
        number("melee", "critical_per_six"),
        number("melee", "outnumber_result_per_fighter"),
        number("melee", "outnumber_dice_per_fighter"),
        number("melee", "mobility_win_hits"),
        number("melee", "frenzy_dice_multiplier"),
        number("melee", "max_dice"),
        number("melee_choices", "block_from"),
        number("melee_choices", "hatred_reroll_below"),
    )


@dataclass(frozen=True, slots=True)
class PoolOf:
    """Reduce attack dice to a :class:`Pool`; the next-highest die is kept only when a
    block may need it (fewer distinct answers: faster exact odds)."""

    keep_second: bool

    def __call__(self, values: tuple[int, ...]) -> Pool:
        pool = pool_summary(values)
        return pool if self.keep_second else Pool(pool.highest, 0, pool.ones, pool.sixes)


@dataclass(frozen=True, slots=True)
class HatredSplit:
    """Reduce attack dice to the pool of those kept by hatred's re-roll (at least
    ``below``) and how many are rolled again (RA-PSY-13)."""

    below: int

    def __call__(self, values: tuple[int, ...]) -> tuple[Pool, int]:
        kept = tuple(v for v in values if v >= self.below)
        again = len(values) - len(kept)
        return (pool_summary(kept) if kept else Pool(0, 0, 0, 0)), again


def merged(a: Pool, b: Pool) -> Pool:
    """The pool of two rolls taken together.

    >>> merged(Pool(6, 4, 0, 1), Pool(5, 1, 1, 0))
    Pool(highest=6, second=5, ones=1, sixes=1)
    """
    second = max(min(a.highest, b.highest), a.second, b.second)
    return Pool(max(a.highest, b.highest), second, a.ones + b.ones, a.sixes + b.sixes)


@dataclass(frozen=True, slots=True)
class Score:
    """Reduce a fighter's final dice to all the bout needs of them: the highest die (halved
    by fear), +1 per 6 after the first with two or more dice, −1 per natural 1 (each gives
    the opponent +1; not against a knocked-down opponent, whose result is 0). The bout is
    decided by the difference of the results, so exact odds branch on this one number."""

    afraid: bool
    many: bool
    count_ones: bool

    def __call__(self, pool: Pool | None) -> int | None:
        if pool is None:
            return None
        n = numbers()
        die = (pool.highest + 1) // 2 if self.afraid else pool.highest
        crit = (pool.sixes - 1) * n.critical_per_six if self.many and pool.sixes >= 2 else 0
        ones = pool.ones * n.confusion_per_one if self.count_ones else 0
        return die + crit - ones


def score_of(me: Fighter, opponent: Fighter) -> Score:
    """The :class:`Score` of ``me``'s dice against ``opponent``."""
    return Score(me.afraid, me.dice >= 2, not opponent.knocked_down)


class Winner(StrEnum):
    """Who won a bout (JSON: "a", "b", "draw")."""

    A = "a"
    B = "b"
    DRAW = "draw"

    @property
    def msgid(self) -> str:
        """Message id of its name."""
        return f"apocalypse.melee.winner.{self.value}"


class Block(StrEnum):
    """A shield-bearer's decision (RA-CC-13)."""

    BLOCK = "block"
    LET_BE = "let_be"


@dataclass(frozen=True, slots=True)
class Fighter:
    """One fighter of a bout, as the rules need him (a plain situation).

    ``wounds``: wounds already taken (current Стойкость = ``toughness`` − ``wounds``,
    RA-CC-05); ``extra_weapons``: weapons beyond the first (+1 die each, RA-CC-07);
    ``outnumber``: fighters of his side beyond his opponents' (RA-CC-18); ``afraid``:
    he failed a fear test against a fear-causing charger (die halved, RA-PSY-07);
    ``terrified``: he failed a terror test (Боевое умение 0, RA-PSY-08); ``stupid``:
    he failed a stupidity test (he strikes no blows, RA-PSY-11); ``bonus``: any other
    result bonus (a lasting Melody, RA-MEL-08).
    """

    toughness: int
    combat_skill: int
    movement: int
    wounds: int = 0
    attack_dice: int = 1
    charging: bool = False
    elevated: bool = False
    shield: bool = False
    extra_weapons: int = 0
    over_obstacle: bool = False
    leap_attack: bool = False
    afraid: bool = False
    terrified: bool = False
    outnumber: int = 0
    frenzied: bool = False
    insensitive: bool = False
    hatred: bool = False
    knocked_down: bool = False
    stupid: bool = False
    bonus: int = 0
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # exact odds look a fighter up many times per bout: hash his twenty fields once
        values = tuple(getattr(self, f.name) for f in fields(self) if f.compare)
        object.__setattr__(self, "_hash", hash(values))

    def __hash__(self) -> int:
        return self._hash

    @property
    def current_toughness(self) -> int:
        """Стойкость less the wounds taken; frenzy and insensitivity to pain use the
        maximum (RA-CC-05, RA-PSY-10).

        >>> Fighter(6, 4, 4, wounds=2).current_toughness
        4
        >>> Fighter(6, 4, 4, wounds=2, frenzied=True).current_toughness
        6
        """
        if self.frenzied or self.insensitive:
            return self.toughness
        return max(0, self.toughness - self.wounds)

    @property
    def dice(self) -> int:
        """Attack dice: the profile's (doubled by frenzy, RA-PSY-10), +1 per extra weapon
        (never doubled), +1 per extra fighter (RA-CC-18), +1 for a leap attack (RA-MAN-05).

        >>> Fighter(4, 3, 4, attack_dice=1, extra_weapons=1, frenzied=True).dice
        3
        """
        n = numbers()
        base = self.attack_dice * (n.frenzy_multiplier if self.frenzied else 1)
        leap = n.leap_dice if self.leap_attack else 0
        total = base + self.extra_weapons + self.outnumber * n.outnumber_dice + leap
        return min(total, n.max_dice)

    def rules(self) -> tuple[str, ...]:
        """The rules deciding his dice."""
        rules = ["RA-CC-04", "RA-CC-06"]
        if self.extra_weapons:
            rules.append("RA-CC-07")
        if self.outnumber:
            rules.append("RA-CC-18")
        if self.frenzied:
            rules.append("RA-PSY-10")
        if self.leap_attack:
            rules.append("RA-MAN-05")
        return tuple(rules)


@dataclass(frozen=True, slots=True)
class MeleeOutcome:
    """The public outcome of ``apocalypse.melee``: who won and how many hits the loser takes."""

    winner: Winner
    hits: int


def halved(die: int) -> int:
    """Fear halves the attack die, rounding up (RA-CC-10 default).

    >>> [halved(v) for v in range(1, 7)]
    [1, 1, 2, 2, 3, 3]
    """
    return (die + 1) // 2


@cache
def flat_part(me: Fighter) -> tuple[int, int, tuple[str, ...]]:
    """What a fighter's result adds whatever the dice: current Стойкость + Боевое умение
    (0 when terrified, RA-PSY-08), and the flat modifiers — charge, elevation, an
    obstacle, a leap attack (RA-CC-10, RA-MAN-05), outnumbering (RA-CC-18) and any bonus —
    with the rules they come from. Returns (Стойкость + skill, modifiers, rules)."""
    n = numbers()
    total, rules = 0, []
    for applies, value in (
        (me.charging, n.charge),
        (me.elevated, n.elevated),
        (me.over_obstacle, n.over_obstacle),
        (me.leap_attack, n.leap_result),
    ):
        if applies:
            total += value
            rules.append("RA-CC-10")
    if me.outnumber:
        total += me.outnumber * n.outnumber_result
        rules.append("RA-CC-18")
    total += me.bonus
    skill = 0 if me.terrified else me.combat_skill
    for applies, rule in (
        (me.afraid, "RA-PSY-07"),
        (me.terrified, "RA-PSY-08"),
        (me.stupid, "RA-PSY-11"),
        (me.knocked_down, "RA-CC-17"),
    ):
        if applies:
            rules.append(rule)
    return me.current_toughness + skill, total, tuple(dict.fromkeys(rules))


def rolled_part(me: Fighter, pool: Pool, opponent_pool: Pool | None) -> tuple[int, int]:
    """What the dice give: the highest die (halved by fear, RA-PSY-07), and +1 per natural
    1 the opponent rolled (RA-CC-11) and per 6 after the first (RA-CC-12). Returns (die,
    confusion and critical bonus)."""
    n = numbers()
    die = (pool.highest + 1) // 2 if me.afraid else pool.highest
    extra = 0
    if opponent_pool is not None and opponent_pool.ones:
        extra += opponent_pool.ones * n.confusion_per_one
    if pool.sixes >= 2 and me.dice >= 2:
        extra += (pool.sixes - 1) * n.critical_per_six
    return die, extra


def modifiers(me: Fighter, pool: Pool, opponent_pool: Pool | None) -> tuple[int, tuple[str, ...]]:
    """Everything added to the highest die besides Стойкость and Боевое умение, and the
    rules it comes from (RA-CC-10, -11, -12, -18, RA-MAN-05).

    >>> modifiers(Fighter(3, 3, 3, charging=True), Pool(5, 0, 0, 0), Pool(2, 0, 0, 0))
    (1, ('RA-CC-10',))
    >>> modifiers(Fighter(3, 3, 3, attack_dice=3), Pool(6, 6, 0, 3), Pool(1, 1, 2, 0))
    (4, ('RA-CC-11', 'RA-CC-12'))
    """
    _, flat, flat_rules = flat_part(me)
    _, extra = rolled_part(me, pool, opponent_pool)
    rules = [r for r in flat_rules if r in ("RA-CC-10", "RA-CC-18")]
    if opponent_pool is not None and opponent_pool.ones:
        rules.append("RA-CC-11")
    if pool.sixes >= 2 and me.dice >= 2:
        rules.append("RA-CC-12")
    return flat + extra, tuple(dict.fromkeys(rules))


def combat_result(me: Fighter, pool: Pool | None, opponent_pool: Pool | None) -> int:
    """Highest die (halved by fear) + current Стойкость + Боевое умение + modifiers
    (RA-CC-08); a knocked-down warrior's result is 0 (RA-CC-17).

    The seed's worked example (RA-CC-09): the Ратник rolls 2 with Стойкость 4 and
    Боевое умение 4 — 10 (the seed prints 11); the копальщик rolls 5 with 3 and 3 and
    charged — 12.

    >>> combat_result(Fighter(4, 4, 4), Pool(2, 0, 0, 0), Pool(5, 0, 0, 0))
    10
    >>> combat_result(Fighter(3, 3, 3, charging=True), Pool(5, 0, 0, 0), Pool(2, 0, 0, 0))
    12
    """
    if me.knocked_down or pool is None:
        return 0
    base, flat, _ = flat_part(me)
    die, extra = rolled_part(me, pool, opponent_pool)
    return die + base + flat + extra


def decide(a: Fighter, b: Fighter, result_a: int, result_b: int) -> MeleeOutcome:
    """Winner and hits from the two results (RA-CC-08, RA-CC-09): the difference; on a
    tie the higher Подвижность wins with one hit; else a draw. A stupid winner strikes
    no blows (RA-PSY-11).

    >>> decide(Fighter(4, 4, 4), Fighter(3, 3, 3), 10, 12)
    MeleeOutcome(winner=<Winner.B: 'b'>, hits=2)
    >>> decide(Fighter(4, 4, 5), Fighter(3, 3, 3), 11, 11)
    MeleeOutcome(winner=<Winner.A: 'a'>, hits=1)
    """
    if result_a != result_b:
        winner = Winner.A if result_a > result_b else Winner.B
        hits = abs(result_a - result_b)
    elif a.movement != b.movement:
        winner = Winner.A if a.movement > b.movement else Winner.B
        hits = numbers().mobility_win_hits
    else:
        return MeleeOutcome(Winner.DRAW, 0)
    striker = a if winner is Winner.A else b
    return MeleeOutcome(winner, 0 if striker.stupid else hits)


@lru_cache(maxsize=256)
def _attack_roll(
    dice: int, hatred: bool, side: Side, blocked: bool, rules: tuple[str, ...]
) -> Roll:
    """The roll of a fighter's attack dice (built once: rolls are immutable)."""
    reason = msg("apocalypse.melee.attack_dice", side=side, dice=dice)
    reduce = HatredSplit(numbers().hatred_below) if hatred else PoolOf(blocked)
    return Roll((D6,) * dice, reason, unordered=True, reduce=reduce, rules=rules)


def _read(many: bool, side: Side, pool: Pool) -> Procedure[Pool]:
    """Narrate what the final dice give besides the highest: confusion (RA-CC-11) and
    critical strikes (RA-CC-12, ``many``: two or more attack dice)."""
    crit = pool.sixes - 1 if pool.sixes >= 2 and many else 0
    if pool.ones:
        said = emit("apocalypse.melee.confusion", rules=("RA-CC-11",), side=side, ones=pool.ones)
        if said is not SILENT:  # exact odds need no event
            yield said
    if crit:
        said = emit("apocalypse.melee.critical", rules=("RA-CC-12",), side=side, crit=crit)
        if said is not SILENT:
            yield said
    return pool


# ``side`` and ``rules`` only name who rolls and why in the log: bouts of different
# fighters with the same dice share these odds
@odds_by(lambda dice, hatred, blocked, side, rules: (dice, hatred, blocked))
def _roll_pool(
    dice: int, hatred: bool, blocked: bool, side: Side, rules: tuple[str, ...]
) -> Procedure[Pool | None]:
    """A fighter's ``dice`` attack dice (none when knocked down, RA-CC-17, or without
    dice); hatred re-rolls the dice below its threshold (RA-PSY-13), only the final dice
    count. ``blocked``: the opponent may block, so the next-highest die matters."""
    if dice <= 0:
        return None
    many = dice >= 2
    if not hatred:
        pool: Pool = yield _attack_roll(dice, hatred, side, blocked, rules)
        return pool if blocked else (yield from _read(many, side, pool))
    split: tuple[Pool, int] = yield _attack_roll(dice, hatred, side, blocked, rules)
    kept, again = split
    if not again:
        return kept if blocked else (yield from _read(many, side, kept))
    rerolled: Pool = yield _hatred_roll(side, again)
    final = merged(kept, rerolled)
    return final if blocked else (yield from _read(many, side, final))


# ``many`` only says whether the log narrates critical strikes, ``side`` names the
# blocker: bouts of different fighters share these odds
@odds_by(lambda side, many, pool, decides: (pool, decides))
def _block(side: Side, many: bool, pool: Pool | None, decides: str) -> Procedure[Pool | None]:
    """``side``'s shield may make the opponent re-roll his highest die (RA-CC-13; the
    bout asks only where a shield may block); ``many``: the opponent rolled two or more
    attack dice."""
    if pool is None:
        return None
    default = Block.BLOCK if pool.highest >= numbers().block_from else Block.LET_BE
    picked = yield _block_choice(side, pool.highest, decides, default)
    if picked is not Block.BLOCK:
        return (yield from _read(many, side.other, pool))
    (new,) = yield _block_reroll(side.other)
    return (yield from _read(many, side.other, pool.rerolled_highest(new)))


@lru_cache(maxsize=64)
def _hatred_roll(side: Side, again: int) -> Roll:
    """The re-roll of the dice below hatred's threshold (RA-PSY-13), built once: exact
    odds replay a bout once per answer, and know a request met before by its identity."""
    return Roll(
        (D6,) * again,
        msg("apocalypse.melee.hatred", side=side, dice=again),
        unordered=True,
        reduce=PoolOf(True),
        rules=("RA-PSY-13",),
    )


@lru_cache(maxsize=256)
def _block_choice(side: Side, highest: int, decides: str, default: Block) -> Choose:
    """Whether a shield-bearer blocks (RA-CC-13), built once per situation (as
    :func:`_hatred_roll`)."""
    return Choose(
        (Block.BLOCK, Block.LET_BE),
        decides,
        msg("apocalypse.melee.block.ask", side=side, highest=highest),
        default=default,
        labels=(msg("apocalypse.melee.block.block"), msg("apocalypse.melee.block.let_be")),
        rules=("RA-CC-13",),
    )


@lru_cache(maxsize=8)
def _block_reroll(side: Side) -> Roll:
    """The re-roll of a blocked highest die (RA-CC-13), built once (as :func:`_hatred_roll`)."""
    return Roll(D6, msg("apocalypse.melee.block.reroll", side=side), rules=("RA-CC-13",))


_STATIC_RULES = ("RA-CC-05", "RA-CC-08", "RA-CC-09")


class _Bout:
    """What one bout's procedure asks and concludes whatever the dice — its sub-calls,
    who blocks, the rules it applies — and each pair of scores' outcome, worked out
    once: exact odds replay the bout once per pair of scores."""

    def __init__(self, a: Fighter, b: Fighter, sides: tuple[str, str]) -> None:
        self.a, self.b = a, b
        self.shields_cancel = a.shield and b.shield
        self.a_blocks = a.shield and not b.shield and not a.knocked_down
        self.b_blocks = b.shield and not a.shield and not b.knocked_down
        dice_a, dice_b = (0 if f.knocked_down else f.dice for f in (a, b))
        self.many_a, self.many_b = dice_a >= 2, dice_b >= 2
        self.roll_a = Call(
            _roll_pool,
            (dice_a, a.hatred, self.b_blocks, Side.A, a.rules()),
            reduce=None if self.b_blocks else score_of(a, b),
        )
        self.roll_b = Call(
            _roll_pool,
            (dice_b, b.hatred, self.a_blocks, Side.B, b.rules()),
            reduce=None if self.a_blocks else score_of(b, a),
        )
        self.sides = sides
        self.score_a, self.score_b = score_of(a, b), score_of(b, a)
        rules = (*_STATIC_RULES, *flat_part(a)[2], *flat_part(b)[2])
        self.rules = tuple(dict.fromkeys(rules))
        self.outcomes: dict[tuple[int | None, int | None], tuple[MeleeOutcome, int]] = {}
        self.blocks_a: dict[Pool | None, AnyCall] = {}  # b's shield by a's dice
        self.blocks_b: dict[Pool | None, AnyCall] = {}
        self.ends: dict[Hashable, AnyCall] = {}  # the last step by a's score or dice

    def block_a(self, score_a: Pool | None) -> AnyCall:
        """``b``'s shield against ``a``'s dice (RA-CC-13)."""
        call = self.blocks_a.get(score_a)
        if call is None:
            args = (Side.B, self.many_a, score_a, self.sides[1])
            call = self.blocks_a[score_a] = Call(_block, args, reduce=self.score_a)
        return call

    def block_b(self, score_b: Pool | None) -> AnyCall:
        """``a``'s shield against ``b``'s dice (RA-CC-13)."""
        call = self.blocks_b.get(score_b)
        if call is None:
            args = (Side.A, self.many_b, score_b, self.sides[0])
            call = self.blocks_b[score_b] = Call(_block, args, reduce=self.score_b)
        return call

    def end_blocked_by_a(self, score_a: int | None) -> AnyCall:
        """The bout's last step when ``a``'s shield may block: ``b``'s dice and the block,
        the score they leave; the bout returns the outcome it makes with ``score_a``."""
        call = self.ends.get(score_a)
        if call is None:
            args = (self.roll_b, self.block_b)
            then = _Outcome(self, score_a)
            call = Call(_roll_and_block, args, inline=True, tail=True, then=then)
            self.ends[score_a] = call
        return call

    def end_blocked_by_b(self, pool_a: Pool | None) -> AnyCall:
        """The bout's last step when ``b``'s shield may block ``a``'s dice: ``b``'s dice,
        then the block; the bout returns the outcome of both scores."""
        call = self.ends.get(pool_a)
        if call is None:
            args = (self.roll_b, self.block_a(pool_a))
            call = Call(_roll_then_block, args, inline=True, tail=True, then=self.outcome_of)
            self.ends[pool_a] = call
        return call

    def outcome_of(self, scores: tuple[int | None, int | None]) -> MeleeOutcome:
        """The outcome of the scores ``(b's, a's after the block)``."""
        return self.outcome(scores[1], scores[0])[0]

    def outcome(self, score_a: int | None, score_b: int | None) -> tuple[MeleeOutcome, int]:
        """The outcome and the margin of the results."""
        key = (score_a, score_b)
        known = self.outcomes.get(key)
        if known is None:
            result_a, result_b = _result(self.a, score_a), _result(self.b, score_b)
            known = (decide(self.a, self.b, result_a, result_b), abs(result_a - result_b))
            self.outcomes[key] = known
        return known


class _Outcome:
    """A bout's outcome from ``b``'s score, ``a``'s known (see :meth:`_Bout.end_blocked_by_a`)."""

    __slots__ = ("bout", "score_a")

    def __init__(self, bout: _Bout, score_a: int | None) -> None:
        self.bout, self.score_a = bout, score_a

    def __call__(self, score_b: int | None) -> MeleeOutcome:
        return self.bout.outcome(self.score_a, score_b)[0]


def _roll_and_block(
    roll: AnyCall, block: Callable[[Pool | None], AnyCall]
) -> Procedure[int | None]:
    """A fighter's dice, then the opponent's shield on them (RA-CC-13): the score left.
    A step of the bout (the exact odds keep its few scores, not its dice)."""
    pool = yield roll
    score: int | None = yield block(pool)
    return score


def _roll_then_block(roll: AnyCall, block: AnyCall) -> Procedure[tuple[Any, Any]]:
    """A fighter's dice (their score), then his shield on the opponent's dice (the
    score it leaves them): a step of the bout, as :func:`_roll_and_block`."""
    score = yield roll
    blocked = yield block
    return score, blocked


@by_identity  # the bout's fighters are the very same objects in every replay of it
def _bout_of(a: Fighter, b: Fighter, sides: tuple[str, str]) -> _Bout:
    return _Bout(a, b, sides)


#: The last bout looked up, with its fighters and sides: exact odds replay one bout
#: many times in a row, and three identity checks cost less than a lookup. One tuple,
#: replaced whole, so a reader never sees one bout's fighters with another's bout.
_last: tuple[object, object, object, _Bout | None] = (None, None, None, None)


def _bout(a: Fighter, b: Fighter, sides: tuple[str, str]) -> _Bout:
    """The :class:`_Bout` of these very fighters and sides."""
    global _last
    last = _last
    bout = last[3]
    if bout is None or last[0] is not a or last[1] is not b or last[2] is not sides:
        bout = _bout_of(a, b, sides)
        _last = (a, b, sides, bout)
    return bout


def melee(a: Fighter, b: Fighter, sides: tuple[str, str] = ("a", "b")) -> Procedure[MeleeOutcome]:
    """One round of a bout between ``a`` and ``b`` (RA-CC-04); ``sides`` names who
    decides for each (a battle passes its own side ids)."""
    # each step a sub-procedure whose result is reduced to the one number the bout needs:
    # exact odds branch on those few values only
    last = _last  # (as :func:`_bout`, without a call: exact odds replay this often)
    bout = last[3]
    if bout is None or last[0] is not a or last[1] is not b or last[2] is not sides:
        bout = _bout(a, b, sides)
    score_a = yield bout.roll_a
    # where a shield may block, b's dice and the block are one step, the bout's last:
    # the exact odds take its few scores, mapped to outcomes, without replaying the bout
    if bout.a_blocks:
        score_b = yield bout.end_blocked_by_a(score_a)
    elif bout.b_blocks:
        score_b, score_a = yield bout.end_blocked_by_b(score_a)
    else:
        score_b = yield bout.roll_b
        if bout.shields_cancel:
            yield emit("apocalypse.melee.shields_cancel", rules=("RA-CC-13",))
    known = bout.outcomes.get((score_a, score_b))
    outcome, margin = known if known is not None else bout.outcome(score_a, score_b)
    said = emit(
        "apocalypse.melee.draw" if outcome.winner is Winner.DRAW else "apocalypse.melee.result",
        rules=bout.rules,
        margin=margin,
        winner=outcome.winner,
        hits=outcome.hits,
    )
    if said is not SILENT:  # exact odds need no event
        yield said
    return outcome


def _result(me: Fighter, score: int | None) -> int:
    """A fighter's result from his dice's score (RA-CC-08): 0 when knocked down. His
    opponent's natural 1s are counted in the opponent's score, not added here, so the
    difference of the two results is the true one (only the difference decides)."""
    if me.knocked_down or score is None:
        return 0
    base, flat, _ = flat_part(me)
    return base + flat + score


@decides("RA-CC-14")
def weapon_for_hits(weapons: Sequence[str], hits: int) -> tuple[str, ...]:
    """Which weapon lands each hit: one weapon all of them, several in turn (RA-CC-14).

    >>> weapon_for_hits(("axe", "mace"), 3)
    ('axe', 'mace', 'axe')
    """
    if not weapons:
        return ("fists",) * hits
    return tuple(weapons[i % len(weapons)] for i in range(hits))


def outnumbering(mine: int, theirs: int) -> int:
    """Extra fighters of a side (+1 result and +1 die each, RA-CC-18; 3 against 2: +1).

    >>> outnumbering(3, 1), outnumbering(3, 2), outnumbering(1, 3)
    (2, 1, 0)
    """
    return max(0, mine - theirs)


def with_outnumber(fighter: Fighter, mine: int, theirs: int) -> Fighter:
    """The fighter with his side's outnumbering bonus set (RA-CC-18)."""
    return replace(fighter, outnumber=outnumbering(mine, theirs))


__all__ = [
    "Block",
    "Fighter",
    "MeleeOutcome",
    "Winner",
    "combat_result",
    "decide",
    "flat_part",
    "halved",
    "melee",
    "modifiers",
    "outnumbering",
    "rolled_part",
    "weapon_for_hits",
    "with_outnumber",
]
