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

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from kubik.dice import D6
from kubik.engine import Choose, Procedure, Roll, emit, msg
from kubik.rulesets.apocalypse.core import Pool, Side, number, pool_summary


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
        frenzy = number("melee", "frenzy_dice_multiplier") if self.frenzied else 1
        base = self.attack_dice * frenzy
        outnumber = self.outnumber * number("melee", "outnumber_dice_per_fighter")
        leap = number("melee", "leap_dice") if self.leap_attack else 0
        return min(base + self.extra_weapons + outnumber + leap, number("melee", "max_dice"))

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


def modifiers(me: Fighter, pool: Pool, opponent_pool: Pool | None) -> tuple[int, tuple[str, ...]]:
    """Everything added to the highest die besides Стойкость and Боевое умение, and the
    rules it comes from (RA-CC-10, -11, -12, -18, RA-MAN-05).

    >>> modifiers(Fighter(3, 3, 3, charging=True), Pool(5, 0, 0, 0), Pool(2, 0, 0, 0))
    (1, ('RA-CC-10',))
    >>> modifiers(Fighter(3, 3, 3, attack_dice=3), Pool(6, 6, 0, 3), Pool(1, 1, 2, 0))
    (4, ('RA-CC-11', 'RA-CC-12'))
    """
    total, rules = 0, []
    table = (
        (me.charging, "charge"),
        (me.elevated, "elevated"),
        (me.over_obstacle, "over_obstacle"),
        (me.leap_attack, "leap_result"),
    )
    for applies, key in table:
        if applies:
            total += number("melee", key)
            rules.append("RA-CC-10")
    if opponent_pool is not None and opponent_pool.ones:
        total += opponent_pool.ones * number("melee", "confusion_per_one")
        rules.append("RA-CC-11")
    if me.dice >= 2 and pool.sixes >= 2:
        total += (pool.sixes - 1) * number("melee", "critical_per_six")
        rules.append("RA-CC-12")
    if me.outnumber:
        total += me.outnumber * number("melee", "outnumber_result_per_fighter")
        rules.append("RA-CC-18")
    total += me.bonus
    return total, tuple(dict.fromkeys(rules))


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
    die = halved(pool.highest) if me.afraid else pool.highest
    skill = 0 if me.terrified else me.combat_skill
    extra, _ = modifiers(me, pool, opponent_pool)
    return die + me.current_toughness + skill + extra


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
        hits = number("melee", "mobility_win_hits")
    else:
        return MeleeOutcome(Winner.DRAW, 0)
    striker = a if winner is Winner.A else b
    return MeleeOutcome(winner, 0 if striker.stupid else hits)


def _roll_pool(me: Fighter, side: Side) -> Procedure[Pool | None]:
    """A fighter's attack dice (none when knocked down, RA-CC-17); hatred re-rolls the
    dice below its threshold (RA-PSY-13), only the final dice count."""
    if me.knocked_down or me.dice <= 0:
        return None
    reason = msg("apocalypse.melee.attack_dice", side=side, dice=me.dice)
    if not me.hatred:
        pool: Pool = yield Roll(
            (D6,) * me.dice, reason, unordered=True, reduce=pool_summary, rules=me.rules()
        )
        return pool
    values: tuple[int, ...] = yield Roll((D6,) * me.dice, reason, unordered=True, rules=me.rules())
    below = number("melee_choices", "hatred_reroll_below")
    kept = tuple(v for v in values if v >= below)
    again = len(values) - len(kept)
    if not again:
        return pool_summary(values)
    rerolled: tuple[int, ...] = yield Roll(
        (D6,) * again,
        msg("apocalypse.melee.hatred", side=side, dice=again),
        unordered=True,
        rules=("RA-PSY-13",),
    )
    return pool_summary(kept + rerolled)


def _block(
    blocker: Fighter, side: Side, target: Fighter, pool: Pool | None, decides: str
) -> Procedure[Pool | None]:
    """A shield-bearer may make the opponent re-roll his highest die (RA-CC-13)."""
    if pool is None or not blocker.shield or blocker.knocked_down:
        return pool
    if target.shield:
        yield emit("apocalypse.melee.shields_cancel", rules=("RA-CC-13",))
        return pool
    default = Block.BLOCK if pool.highest >= number("melee_choices", "block_from") else Block.LET_BE
    picked = yield Choose(
        (Block.BLOCK, Block.LET_BE),
        decides,
        msg("apocalypse.melee.block.ask", side=side, highest=pool.highest),
        default=default,
        labels=(msg("apocalypse.melee.block.block"), msg("apocalypse.melee.block.let_be")),
        rules=("RA-CC-13",),
    )
    if picked is not Block.BLOCK:
        return pool
    (new,) = yield Roll(
        D6, msg("apocalypse.melee.block.reroll", side=side.other), rules=("RA-CC-13",)
    )
    return pool.rerolled_highest(new)


def melee(a: Fighter, b: Fighter, sides: tuple[str, str] = ("a", "b")) -> Procedure[MeleeOutcome]:
    """One round of a bout between ``a`` and ``b`` (RA-CC-04); ``sides`` names who
    decides for each (a battle passes its own side ids)."""
    pool_a = yield from _roll_pool(a, Side.A)
    pool_b = yield from _roll_pool(b, Side.B)
    pool_b = yield from _block(a, Side.A, b, pool_b, sides[0])
    pool_a = yield from _block(b, Side.B, a, pool_a, sides[1])
    result_a = combat_result(a, pool_a, pool_b)
    result_b = combat_result(b, pool_b, pool_a)
    outcome = decide(a, b, result_a, result_b)
    rules = ["RA-CC-05", "RA-CC-08", "RA-CC-09"]
    for me, pool, other in ((a, pool_a, pool_b), (b, pool_b, pool_a)):
        if pool is not None:
            rules.extend(modifiers(me, pool, other)[1])
        if me.afraid:
            rules.append("RA-PSY-07")
        if me.terrified:
            rules.append("RA-PSY-08")
        if me.stupid:
            rules.append("RA-PSY-11")
        if me.knocked_down:
            rules.append("RA-CC-17")
    yield emit(
        "apocalypse.melee.result",
        rules=tuple(dict.fromkeys(rules)),
        result_a=result_a,
        result_b=result_b,
        winner=outcome.winner,
        hits=outcome.hits,
    )
    return outcome


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
    "halved",
    "melee",
    "modifiers",
    "outnumbering",
    "weapon_for_hits",
    "with_outnumber",
]
