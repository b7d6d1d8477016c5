"""Music magic (Мелодии, seed 000): casting, Terrible Error, Monstrous Power, jamming,
resistance, templates and lasting Melodies.

A singer rolls the casting dice (2D6 by default, RA-ABSENT-03) and succeeds when the
total reaches the Melody's difficulty (RA-MEL-01). Two or more natural 1s are a
Terrible Error: the Melody fails whatever the total (RA-MEL-02); two or more natural
6s are Monstrous Power: it cannot be jammed (RA-MEL-03). The Error has priority; both
are judged on the natural dice before modifiers and re-rolls; an ordinary re-roll only
changes the total, and only the Единый Порыв re-roll avoids an Error — its own dice are
judged for neither an Error nor Power, being a re-roll («перед перебросами») (RA-MEL-04;
the catalogue's reading, which judges the Error again on those dice, is not the seed's).
Jamming: two or more natural 1s fail, a double six succeeds, failure first (RA-MEL-05);
a lasting Melody is jammed against its difficulty, once per round, and after the round
it was cast in even when cast with Monstrous Power (RA-MEL-09).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache, lru_cache

from kubik.engine import Choose, Message, Procedure, Roll, Verdict, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import D3, D6
from kubik.engine.reducers import Total
from kubik.engine.requests import tail_step
from kubik.rulesets.apocalypse.core import data, number


class Special(StrEnum):
    """A special result of a casting roll (RA-MEL-02/03)."""

    NONE = "none"
    TERRIBLE_ERROR = "terrible_error"
    MONSTROUS_POWER = "monstrous_power"

    @property
    def msgid(self) -> str:
        """Message id of its name."""
        return f"apocalypse.melody.special.{self.value}"


class Reroll(StrEnum):
    """What a singer does with a failed casting roll (RA-MEL-04)."""

    IMPULSE = "impulse"  # Единый Порыв: judges the Terrible Error again
    REROLL = "reroll"  # an ordinary re-roll: only the total changes
    ACCEPT = "accept"


@dataclass(frozen=True, slots=True)
class Casting:
    """A casting attempt: the Melody's difficulty, the casting dice, a modifier to the
    total, and which re-rolls the singer has (an ordinary one, Единый Порыв)."""

    difficulty: int
    dice: int = 2
    modifier: int = 0
    reroll: bool = False
    impulse: bool = False


@dataclass(frozen=True, slots=True)
class CastOutcome:
    """The public outcome of ``apocalypse.melody``: success, the special result, and the
    casting total (the number an instant Melody's jammer must reach; 0 on a failure)."""

    success: bool
    special: Special
    total: int
    impulse_used: bool = False


def casting_summary(values: tuple[int, ...]) -> tuple[int, int, int]:
    """What casting reads of its dice: the total, the natural 1s and the natural 6s.

    >>> casting_summary((1, 1, 6, 6))
    (14, 2, 2)
    """
    return sum(values), values.count(1), values.count(6)


def special_of(ones: int, sixes: int) -> Special:
    """The special result of natural dice: the Error first (RA-MEL-04).

    >>> [special_of(2, 2).value, special_of(1, 2).value, special_of(1, 1).value]
    ['terrible_error', 'monstrous_power', 'none']
    """
    if ones >= number("melody", "terrible_error_ones"):
        return Special.TERRIBLE_ERROR
    if sixes >= number("melody", "monstrous_power_sixes"):
        return Special.MONSTROUS_POWER
    return Special.NONE


def succeeds(special: Special, total: int, difficulty: int) -> bool:
    """Whether a casting succeeds (RA-MEL-01..03): never on an Error; always on Power
    (the default reading); else when the total reaches the difficulty.

    >>> succeeds(Special.TERRIBLE_ERROR, 12, 7), succeeds(Special.NONE, 7, 7)
    (False, True)
    """
    if special is Special.TERRIBLE_ERROR:
        return False
    if special is Special.MONSTROUS_POWER and data()["melody"]["monstrous_power_succeeds"]:
        return True
    return total >= difficulty


def _roll(cast: Casting, reason: str, rules: tuple[str, ...]) -> Roll:
    """A casting roll, built once per attempt and reason: exact odds replay a casting
    once per answer and know a request met before by its identity."""
    return _casting_roll(cast.dice, cast.difficulty, reason, rules)


@lru_cache(maxsize=256)
def _casting_roll(dice: int, difficulty: int, reason: str, rules: tuple[str, ...]) -> Roll:
    return Roll(
        (D6,) * dice,
        msg(reason, dice=dice, difficulty=difficulty),
        unordered=True,
        reduce=casting_summary,
        rules=rules,
    )


@lru_cache(maxsize=256)
def _reroll_choice(
    options: tuple[Reroll, ...], side: str, total: int, difficulty: int, default: Reroll
) -> Choose:
    """Whether a failed casting is rolled again (RA-MEL-04), built once per situation
    (as :func:`_casting_roll`)."""
    return Choose(
        options,
        side,
        msg("apocalypse.melody.reroll_ask", total=total, difficulty=difficulty),
        default=default,
        labels=tuple(msg(f"apocalypse.melody.reroll.{o.value}") for o in options),
        rules=("RA-MEL-04",),
    )


def cast(c: Casting, side: str = "a") -> Procedure[CastOutcome]:
    """Play a Melody (RA-MEL-01..04); ``side`` decides on re-rolls."""
    total, ones, sixes = yield _roll(c, "apocalypse.melody.roll", ("RA-MEL-01", "RA-ABSENT-03"))
    special = special_of(ones, sixes)
    total += c.modifier
    success = succeeds(special, total, c.difficulty)
    rules = ["RA-MEL-01", "RA-MEL-04"]
    if special is Special.TERRIBLE_ERROR:
        rules.append("RA-MEL-02")
    if special is Special.MONSTROUS_POWER:
        rules.append("RA-MEL-03")
    if not success:
        options = []
        if c.impulse:
            options.append(Reroll.IMPULSE)
        if c.reroll and special is not Special.TERRIBLE_ERROR:
            options.append(Reroll.REROLL)  # a re-roll never saves from the Error
        if options:
            options.append(Reroll.ACCEPT)
            default = Reroll.REROLL if Reroll.REROLL in options else Reroll.IMPULSE
            picked = yield _reroll_choice(tuple(options), side, total, c.difficulty, default)
            if picked is not Reroll.ACCEPT:
                again: CastOutcome = yield tail_step(cast_again, c, special, picked, tuple(rules))
                return again
    return (yield from _cast_result(c, special, total, success, False, tuple(rules)))


def cast_again(
    c: Casting, special: Special, picked: Reroll, rules: tuple[str, ...]
) -> Procedure[CastOutcome]:
    """The casting rolled again (RA-MEL-04) after a first roll of ``special``: only the
    new total counts, so the exact odds and the optimal policy keep one distribution of
    it per kind of re-roll, not one per first roll."""
    if picked is Reroll.IMPULSE:
        again = yield _total_roll(c, "apocalypse.melody.impulse", ("RA-MEL-04", "RA-ABSENT-02"))
        total = again + c.modifier
        # Единый Порыв lifts the Error of the first roll; its own dice are judged for
        # neither Error nor Power («перед перебросами»): only the total counts
        special = Special.NONE
        success = succeeds(special, total, c.difficulty)
        return (yield from _cast_result(c, special, total, success, True, (*rules, "RA-ABSENT-02")))
    again = yield _total_roll(c, "apocalypse.melody.reroll_roll", ("RA-MEL-04",))
    total = again + c.modifier  # the status of the first roll stays
    success = succeeds(special, total, c.difficulty)
    return (yield from _cast_result(c, special, total, success, False, rules))


def _cast_result(
    c: Casting, special: Special, total: int, success: bool, used: bool, rules: tuple[str, ...]
) -> Procedure[CastOutcome]:
    """The casting's result, told and returned."""
    yield emit(
        "apocalypse.melody.result",
        rules=rules,
        special=special,
        total=total,
        difficulty=c.difficulty,
        success=success,
    )
    return CastOutcome(success, special, total if success else 0, used)


def _total_roll(c: Casting, reason: str, rules: tuple[str, ...]) -> Roll:
    """A re-roll of the casting dice: only its total counts (RA-MEL-04), so the exact odds
    branch on the totals alone."""
    return _casting_total_roll(c.dice, c.difficulty, reason, rules)


@lru_cache(maxsize=256)
def _casting_total_roll(dice: int, difficulty: int, reason: str, rules: tuple[str, ...]) -> Roll:
    return Roll(
        (D6,) * dice,
        msg(reason, dice=dice, difficulty=difficulty),
        unordered=True,
        reduce=Total(),
        rules=rules,
    )


@dataclass(frozen=True, slots=True)
class Jamming:
    """A jamming attempt: the casting total (an instant Melody) or the difficulty (a
    lasting one) to reach, whether it was cast with Monstrous Power, and whether the
    round it was cast in is over (RA-MEL-09)."""

    casting_total: int
    difficulty: int
    lasting: bool = False
    monstrous_power: bool = False
    later_round: bool = False
    dice: int = 2
    modifier: int = 0

    @property
    def needed(self) -> int:
        """The number to reach: the difficulty for a lasting Melody, else the casting
        total (RA-MEL-05, RA-MEL-09)."""
        return self.difficulty if self.lasting else self.casting_total


class JamResult(StrEnum):
    """How a jamming attempt ended."""

    JAMMED = "jammed"
    FAILED = "failed"
    UNJAMMABLE = "unjammable"  # Monstrous Power, in its round

    @property
    def msgid(self) -> str:
        """Message id of its name."""
        return f"apocalypse.jam.result.{self.value}"


@dataclass(frozen=True, slots=True)
class JamOutcome:
    """The public outcome of ``apocalypse.jam``."""

    jammed: bool
    result: JamResult


@decides()
def may_jam(j: Jamming, tried_this_round: bool = False) -> Verdict:
    """Monstrous Power cannot be jammed in its round (RA-MEL-03); a lasting Melody once
    per round (RA-MEL-09).

    >>> may_jam(Jamming(9, 7, monstrous_power=True)).allowed
    False
    >>> may_jam(Jamming(9, 7, lasting=True, monstrous_power=True, later_round=True)).allowed
    True
    """
    if j.monstrous_power and not (j.lasting and j.later_round):
        return Verdict.forbid(msg("apocalypse.permission.monstrous_power"), "RA-MEL-03")
    if j.lasting and tried_this_round:
        return Verdict.forbid(msg("apocalypse.permission.jammed_this_round"), "RA-MEL-09")
    return Verdict.allow("RA-MEL-05", *(("RA-MEL-09",) if j.lasting else ()))


def jam(j: Jamming) -> Procedure[JamOutcome]:
    """Try to jam a Melody (RA-MEL-05, RA-MEL-09)."""
    verdict = may_jam(j)
    if not verdict.allowed:
        yield emit("apocalypse.jam.unjammable", rules=verdict.rules)
        return JamOutcome(False, JamResult.UNJAMMABLE)
    total, ones, sixes = yield Roll(
        (D6,) * j.dice,
        msg("apocalypse.jam.roll", dice=j.dice, needed=j.needed),
        unordered=True,
        reduce=casting_summary,
        rules=("RA-MEL-05", "RA-ABSENT-03"),
    )
    natural: Message | str = ""  # what the natural dice decided, whatever the total
    if ones >= number("melody", "jam_fail_ones"):
        jammed = False  # failure has priority over the double six
        natural = msg("apocalypse.jam.natural.ones", ones=ones)
    elif sixes >= number("melody", "jam_success_sixes"):
        jammed = True
        natural = msg("apocalypse.jam.natural.sixes", sixes=sixes)
    else:
        jammed = total + j.modifier >= j.needed
    rules = verdict.rules
    result = JamResult.JAMMED if jammed else JamResult.FAILED
    yield emit(
        "apocalypse.jam.result",
        rules=rules,
        total=total + j.modifier,
        needed=j.needed,
        natural=natural,
        result=result,
    )
    return JamOutcome(jammed, result)


def resists(strength: int) -> Procedure[bool]:
    """Сопротивление X Y: a d6 of at most Y and the warrior does not react (RA-MEL-06)."""
    (value,) = yield Roll(
        D6, msg("apocalypse.melody.resistance", strength=strength), rules=("RA-MEL-06",)
    )
    resisted = value <= strength
    yield emit("apocalypse.melody.resisted", rules=("RA-MEL-06",), resisted=resisted)
    return bool(resisted)


def under_template(fully: bool) -> Procedure[bool]:
    """A warrior fully under a template is affected; partly under it, on 4+ (RA-MEL-07)."""
    if fully:
        return True
    (value,) = yield Roll(D6, msg("apocalypse.melody.template"), rules=("RA-MEL-07",))
    return bool(value >= number("template", "partial_needs"))


class ErrorEffect(StrEnum):
    """What a Terrible Error does to the singer (RA-ABSENT-01 default table)."""

    WOUNDED = "wounded"
    SILENCED = "silenced"
    NOTHING = "nothing"

    @property
    def msgid(self) -> str:
        """Message id of its name."""
        return f"apocalypse.melody.error.{self.value}"


@dataclass(frozen=True, slots=True)
class ErrorOutcome:
    """The Terrible Error's effect and the wounds it did."""

    effect: ErrorEffect
    wounds: int = 0


def terrible_error(_: int = 0) -> Procedure[ErrorOutcome]:
    """Roll on the (default) Terrible Error table (RA-MEL-02, RA-ABSENT-01)."""
    (value,) = yield Roll(D6, msg("apocalypse.melody.error_roll"), rules=("RA-ABSENT-01",))
    if value <= number("rainbow", "error_wounds_max"):
        (wounds,) = yield Roll(D3, msg("apocalypse.melody.error_wounds"), rules=("RA-ABSENT-01",))
        outcome = ErrorOutcome(ErrorEffect.WOUNDED, wounds)
    elif value <= number("rainbow", "error_silenced_max"):
        outcome = ErrorOutcome(ErrorEffect.SILENCED)
    else:
        outcome = ErrorOutcome(ErrorEffect.NOTHING)
    yield emit(
        "apocalypse.melody.error",
        rules=("RA-MEL-02", "RA-ABSENT-01"),
        effect=outcome.effect,
        wounds=outcome.wounds,
    )
    return outcome


@dataclass(frozen=True, slots=True)
class Singer:
    """What the permission to sing needs of a warrior."""

    is_singer: bool
    lasting_active: bool = False
    in_combat: bool = False
    stupid: bool = False
    silenced: bool = False


@decides()
def may_sing(s: Singer) -> Verdict:
    """May this warrior play a Melody now? Only singers; not while his lasting Melody
    plays (RA-MEL-08); not in a fight, but within a pace of one he may (RA-MEL-10); not
    after a failed stupidity test (RA-MEL-10, RA-PSY-11).

    >>> may_sing(Singer(True, lasting_active=True)).rules
    ('RA-MEL-08',)
    """
    if not s.is_singer:
        return Verdict.forbid(msg("apocalypse.permission.not_singer"), "RA-MEL-01")
    if s.lasting_active:
        return Verdict.forbid(msg("apocalypse.permission.lasting_plays"), "RA-MEL-08")
    if s.in_combat or s.stupid:
        return Verdict.forbid(msg("apocalypse.permission.cannot_sing"), "RA-MEL-10")
    if s.silenced:
        return Verdict.forbid(msg("apocalypse.permission.silenced"), "RA-ABSENT-01")
    return Verdict.allow("RA-MEL-01", "RA-MEL-10")


class LastingEnd(StrEnum):
    """Why a lasting Melody ended (RA-MEL-08, RA-MEL-09)."""

    SINGER_DOWN = "singer_down"
    SINGER_FLED = "singer_fled"
    AT_WILL = "at_will"
    JAMMED = "jammed"

    @property
    def msgid(self) -> str:
        """Message id of its name."""
        return f"apocalypse.melody.lasting_end.{self.value}"


def lasting_ends(singer_in_action: bool, singer_fled: bool, at_will: bool) -> LastingEnd | None:
    """Whether a lasting Melody ends now (RA-MEL-08): the singer out of action or fled,
    or he ends it at will.

    >>> lasting_ends(False, False, False), lasting_ends(True, False, False)
    (<LastingEnd.SINGER_DOWN: 'singer_down'>, None)
    """
    if not singer_in_action:
        return LastingEnd.SINGER_DOWN
    if singer_fled:
        return LastingEnd.SINGER_FLED
    if at_will:
        return LastingEnd.AT_WILL
    return None


@decides()
def may_end_lasting(lasting: bool) -> Verdict:
    """The singer of a lasting Melody may end it at will (RA-MEL-08).

    >>> may_end_lasting(True).allowed, may_end_lasting(False).allowed
    (True, False)
    """
    return Verdict.of(lasting, msg("apocalypse.permission.no_lasting"), "RA-MEL-08")


@dataclass(frozen=True, slots=True)
class Melody:
    """A Melody of «РАДУГА МУЗЫКИ» (absent from the seed: ours, RA-ABSENT-01): its
    difficulty; what it does — ``hits`` on one enemy in ``range``, a ``template`` of a
    radius over a target, or a ``ward`` for the singer's warband — how many hits (or the
    ward's bonus), one more on Monstrous Power (``monstrous_bonus``), and whether it
    lasts (RA-MEL-08)."""

    id: str
    name: str
    name_ru: str
    difficulty: int
    kind: str
    range: int
    hits: int
    monstrous_bonus: int
    lasting: bool
    template: float


@cache
def melodies() -> tuple[Melody, ...]:
    """Every Melody of the data (RA-ABSENT-01)."""
    return tuple(
        Melody(
            str(m["id"]),
            str(m["name"]),
            str(m["name_ru"]),
            int(m["difficulty"]),
            str(m["kind"]),
            int(m["range"]),
            int(m["hits"]),
            int(m["monstrous_bonus"]),
            bool(m["lasting"]),
            float(m["template"]),
        )
        for m in data()["rainbow"]["melodies"]
    )


def melody(melody_id: str) -> Melody:
    """The Melody called ``melody_id``.

    >>> melody("storm_chord").difficulty
    7
    """
    return next(m for m in melodies() if m.id == melody_id)


@decides("RA-ABSENT-03")
def casting_dice() -> int:
    """The dice a singer casts with (RA-ABSENT-03 default: 2D6).

    >>> casting_dice()
    2
    """
    return number("casting", "dice")


@decides("RA-ABSENT-02")
def impulse_uses() -> int:
    """How often a singer may call on Единый Порыв in a game (RA-ABSENT-02 default)."""
    return number("united_impulse", "uses_per_game")


__all__ = [
    "CastOutcome",
    "Casting",
    "ErrorEffect",
    "ErrorOutcome",
    "JamOutcome",
    "JamResult",
    "Jamming",
    "LastingEnd",
    "Melody",
    "Reroll",
    "Singer",
    "Special",
    "cast",
    "casting_dice",
    "casting_summary",
    "impulse_uses",
    "jam",
    "lasting_ends",
    "may_end_lasting",
    "may_jam",
    "may_sing",
    "melodies",
    "melody",
    "resists",
    "special_of",
    "succeeds",
    "terrible_error",
    "under_template",
]
