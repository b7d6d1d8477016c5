"""Rules the seed refers to but does not contain (OW-ABSENT-01..10).

NOT FROM THE SEED: every rule here is a documented default (catalogue §3.4, mostly
the public rules of the same game family); its numbers are in ``data.toml`` with
``default`` provenance, so a user can replace them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache
from typing import Any

from kubik.engine import Call, Choose, Forecast, Message, Procedure, Roll, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import D6
from kubik.engine.reducers import AtLeast, AtMost
from kubik.rulesets.old_west.core import Side, data, number, roll_off_low_wins
from kubik.rulesets.old_west.fame import FameRoll, apply_fame, offer_fame
from kubik.rulesets.old_west.wounds import CountWounded, wound, wound_with_fame


@dataclass(frozen=True, slots=True)
class AdvantageOutcome:
    """The side with advantage (преимущество) this turn."""

    advantage: Side


def advantage_roll(last: Side | None = None) -> Procedure[AdvantageOutcome]:
    """OW-ABSENT-01 default: each side rolls a d6 (a, then b), the higher wins advantage.

    A tie goes to the side that did not have advantage last turn; on the first turn
    (``last`` None) a d6 roll-off decides (1–3 side a), so the odds stay finite.
    """
    rules = ("OW-ABSENT-01",)
    (roll_a,) = yield Roll(D6, msg("old_west.advantage.roll", side=Side.A), roller="a", rules=rules)
    (roll_b,) = yield Roll(D6, msg("old_west.advantage.roll", side=Side.B), roller="b", rules=rules)
    if roll_a != roll_b:
        side = Side.A if roll_a > roll_b else Side.B
    elif last is not None:
        side = last.other
    else:
        low_max = number("advantage", "roll_off_low_max")
        (roll,) = yield Roll(D6, msg("old_west.advantage.roll_off", low_max=low_max), rules=rules)
        side = Side.A if roll_off_low_wins(roll, low_max) else Side.B
    yield emit("old_west.advantage.result", rules=rules, side=side, a=roll_a, b=roll_b)
    return AdvantageOutcome(side)


@decides("OW-ABSENT-02")
def move_allowance(mounted: bool) -> int:
    """OW-ABSENT-02 default: a model's Move in inches (6" on foot, 10" mounted).

    >>> move_allowance(False), move_allowance(True)
    (6, 10)
    """
    return number("movement", "move_mounted_inches" if mounted else "move_foot_inches")


def in_control_zone(distance_inches: float) -> bool:
    """OW-ABSENT-02 default: within 1" of an enemy is its control zone.

    >>> in_control_zone(0.5), in_control_zone(1.5)
    (True, False)
    """
    return distance_inches <= number("movement", "control_zone_inches")


class JumpResult(StrEnum):
    """Result of a jump or climb test (OW-ABSENT-02 default)."""

    FAIL = "fail"
    STOP = "stop"  # succeeds, but the rest of the move is lost
    SUCCESS = "success"

    @property
    def msgid(self) -> str:
        """Message id of its description."""
        return f"old_west.jump.{self.value}"


def jump_result(roll: int) -> JumpResult:
    """The jump/climb table: 1 fails, 2–5 succeed ending the move, 6 succeeds.

    >>> [jump_result(r).value for r in (1, 2, 5, 6)]
    ['fail', 'stop', 'stop', 'success']
    """
    if roll <= number("movement", "jump_fail_max"):
        return JumpResult.FAIL
    return JumpResult.STOP if roll <= number("movement", "jump_stop_max") else JumpResult.SUCCESS


@dataclass(frozen=True, slots=True)
class JumpOutcome:
    """How a jump or climb went, and the Fame the model spent on it."""

    result: JumpResult
    fame: int = 0


def jump_test(fame: int = 0, side: str = "model") -> Procedure[JumpOutcome]:
    """A jump or climb test on a d6; a Hero may spend Fame to avoid failing (OW-HERO-04)."""
    reason = msg(
        "old_west.jump.roll",
        fail=number("movement", "jump_fail_max"),
        stop=number("movement", "jump_stop_max"),
    )
    (roll,) = yield Roll(D6, reason, roller=side, rules=("OW-ABSENT-02",))
    spent = yield from offer_fame(
        side,
        "old_west.fame.spend_jump",
        roll,
        number("movement", "jump_fail_max") + 1,
        fame,
        roll=FameRoll.JUMP,
    )
    result = jump_result(apply_fame(roll, spent))
    yield emit(
        "old_west.jump.result",
        rules=("OW-ABSENT-02",) + (("OW-HERO-02", "OW-HERO-04") if spent else ()),
        rolled=roll,
        fame=spent,
        result=result,
    )
    return JumpOutcome(result, spent)


@decides("OW-ABSENT-10")
def stand_up_cost(move_inches: int, charged_while_prone: bool) -> Fraction | None:
    """OW-ABSENT-10 default: standing up costs half the move; a charged prone model
    cannot stand in the Movement phase (OW-CC-10) — then None.

    >>> stand_up_cost(6, False), stand_up_cost(6, True)
    (Fraction(3, 1), None)
    """
    if charged_while_prone:
        return None
    return Fraction(
        move_inches * number("movement", "stand_up_numerator"),
        number("movement", "stand_up_denominator"),
    )


class ShotResult(StrEnum):
    """Where a shot went (OW-ABSENT-04 default)."""

    MISS = "miss"
    IN_THE_WAY = "in_the_way"  # hit an obstacle or model in the way
    MOUNT = "mount"
    TARGET = "target"

    @property
    def msgid(self) -> str:
        """Message id of its description."""
        return f"old_west.shot.{self.value}"


@dataclass(frozen=True, slots=True)
class ShotOutcome:
    """Where the shot went, whether it wounded what it hit, and the shooter's Fame spent.

    ``blocker``: which thing in the way the shot hit (1 = the first the shot meets; 0
    when it hit nothing in the way); ``wounded`` then tells whether that thing, if a
    model, was wounded. ``fame``: Fame points the shooter spent on this shot.
    """

    result: ShotResult
    wounded: bool
    blocker: int = 0
    fame: int = 0


@cache
def _to_hit(shoot_value: int, side: str, needed: int | None) -> Roll:
    """The to-hit roll (built once): reduced to hit or miss when ``needed`` is given."""
    reason = msg("old_west.shoot.roll", needed=shoot_value)
    reduce = AtLeast(needed) if needed is not None else None
    return Roll(D6, reason, roller=side, reduce=reduce, rules=("OW-ABSENT-04",))


@cache
def _low_roll(reason: Message, side: str, low_max: int) -> Roll:
    """A d6 that only has to be low (in the way on 1–3, the horse on 1–3), built once."""
    return Roll(D6, reason, roller=side, reduce=AtMost(low_max), rules=("OW-ABSENT-04",))


def shoot(
    shoot_value: int,
    strength: int,
    toughness: int,
    in_the_way: tuple[int, ...] = (),
    mount_toughness: int = 0,
    fame: int = 0,
    side: str = "shooter",
) -> Procedure[ShotOutcome]:
    """OW-ABSENT-04 default: hit on d6 ≥ Shoot value (a natural 1 always misses; Fame may
    lift the roll, OW-HERO-05); each thing in the way is hit instead on 1–3; a shot at a
    rider hits the mount on 1–3; then roll to wound (OW-CC-06).

    ``in_the_way``: what stands between shooter and target, in the order the shot meets
    it: the Toughness of a model, 0 for terrain (which takes no wound). A model in the
    way that is hit is rolled against (no Fame: nobody spends Fame to hit the wrong
    man). ``side`` is the shooting player: he rolls every die and decides on Fame.
    """
    rules = ("OW-ABSENT-04",)
    always_miss = number("shooting", "always_miss")
    spent = 0
    if fame > 0:
        (roll,) = yield _to_hit(shoot_value, side, None)
        if roll > always_miss:
            spent = yield from offer_fame(
                side, "old_west.fame.spend_hit", roll, shoot_value, fame, roll=FameRoll.TO_HIT
            )
        hit = roll > always_miss and apply_fame(roll, spent) >= shoot_value
    else:  # no Fame to lift the roll: only whether it hits matters
        hit = yield _to_hit(shoot_value, side, max(shoot_value, always_miss + 1))
    aimed = rules + (("OW-HERO-02", "OW-HERO-05") if spent else ())
    if not hit:
        yield emit("old_west.shoot.result", rules=aimed, result=ShotResult.MISS, wounded=False)
        return ShotOutcome(ShotResult.MISS, False, 0, spent)
    in_the_way_max = number("shooting", "in_the_way_max")
    for index, thing in enumerate(in_the_way):
        caught = yield _low_roll(
            msg("old_west.shoot.in_the_way", obstacle=index + 1), side, in_the_way_max
        )
        if caught:
            hurt = False
            if thing > 0:
                struck = yield Call(wound, (strength, thing, 0, side))
                hurt = struck.wounded
            yield emit(
                "old_west.shoot.result", rules=aimed, result=ShotResult.IN_THE_WAY, wounded=hurt
            )
            return ShotOutcome(ShotResult.IN_THE_WAY, hurt, index + 1, spent)
    result, against = ShotResult.TARGET, toughness
    if mount_toughness:
        low = number("shooting", "mount_hit_max")
        if (yield _low_roll(msg("old_west.shoot.horse_or_rider"), side, low)):
            result, against = ShotResult.MOUNT, mount_toughness
    hurt = yield Call(wound_with_fame, (strength, against, fame - spent, side))
    yield emit("old_west.shoot.result", rules=aimed, result=result, wounded=hurt.wounded)
    return ShotOutcome(result, hurt.wounded, 0, spent + hurt.fame_spent)


@dataclass(frozen=True, slots=True)
class WoundsOutcome:
    """How many wounds a model suffered."""

    wounds: int


def falling_hits(height_inches: int) -> int:
    """OW-ABSENT-05 default: Strength 3 hits from a fall (one per full 2", over 2" only).

    >>> falling_hits(2), falling_hits(3), falling_hits(5)
    (0, 1, 2)
    """
    if height_inches <= number("falling", "safe_inches"):
        return 0
    return height_inches // number("falling", "inches_per_hit")


def lands_prone(height_inches: int) -> bool:
    """OW-ABSENT-05 default: a fall of more than 2" also leaves the model lying down.

    >>> lands_prone(2), lands_prone(3)
    (False, True)
    """
    return height_inches > number("falling", "safe_inches")


def falling(height_inches: int, toughness: int, side: str = "model") -> Procedure[WoundsOutcome]:
    """A fall (OW-CC-09 cliff edge; OW-ABSENT-05 default): Strength 3 hits by height.

    ``side``: the falling model's player, who rolls the wounds."""
    hits = falling_hits(height_inches)
    yield emit("old_west.falling.hits", rules=("OW-ABSENT-05",), height=height_inches, hits=hits)
    if not hits:
        return WoundsOutcome(0)
    wounds = yield Call(
        wound,
        (number("falling", "strength"), toughness, 0, side),
        times=hits,
        reduce=CountWounded(),
    )
    return WoundsOutcome(wounds)


@dataclass(frozen=True, slots=True)
class FallOutcome:
    """A rider thrown from a killed mount: wounded? prone?"""

    wounded: bool
    prone: bool


def fall_from_horse(toughness: int, side: str = "rider") -> Procedure[FallOutcome]:
    """OW-ABSENT-06 default: d6 — 1 a Strength 3 hit and prone, 2–5 prone, 6 on his feet.

    ``side``: the rider's player, who rolls."""
    rules = ("OW-ABSENT-06",)
    reason = msg(
        "old_west.fall_from_horse.roll",
        hit=number("fall_from_horse", "hit_max"),
        prone=number("fall_from_horse", "prone_max"),
        strength=number("fall_from_horse", "strength"),
    )
    (roll,) = yield Roll(D6, reason, roller=side, rules=rules)
    if roll <= number("fall_from_horse", "hit_max"):
        hurt = yield Call(wound, (number("fall_from_horse", "strength"), toughness, 0, side))
        outcome = FallOutcome(hurt.wounded, True)
    else:
        outcome = FallOutcome(False, roll <= number("fall_from_horse", "prone_max"))
    yield emit(
        "old_west.fall_from_horse.result",
        rules=rules,
        wounded=outcome.wounded,
        prone=outcome.prone,
    )
    return outcome


@dataclass(frozen=True, slots=True)
class FortuneOutcome:
    """Wounds left after Fortune saves, and the Fortune spent."""

    wounds: int
    fortune_spent: int


#: Who the Fortune decision names when the caller gives no name.
THE_HERO = msg("old_west.fortune.hero")


def fortune(
    wounds: int, points: int, side: str = "hero", hero: Message = THE_HERO
) -> Procedure[FortuneOutcome]:
    """OW-ABSENT-07 default: for each wound, the Hero's player may spend 1 Fortune on a d6;
    4+ ignores the wound; he may try again while Fortune remains. Whether and when to
    spend a point is his decision (OW-HERO-01: «Игрок может сам решить, в какой именно
    момент использовать то или иное очко Славы или Удачи»), asked with its odds before
    each roll. ``side``: the Hero's player, who decides and rolls; ``hero``: his name.
    """
    save = number("fortune", "save")
    left, spent = wounds, 0
    for index in range(wounds):
        while spent < points:
            if not (yield _fortune_choice(side, hero, index + 1, wounds, points - spent, save)):
                break
            spent += 1
            saved = yield _fortune_roll_call(save, side, index + 1)
            if saved:
                left -= 1
                yield emit("old_west.fortune.saved", rules=("OW-ABSENT-07",), wound=index + 1)
                break
    return FortuneOutcome(left, spent)


def fortune_roll(save: int, side: str = "hero", wound: int = 1) -> Procedure[bool]:
    """One Fortune point spent (OW-ABSENT-07 default): a d6, ``save`` or more ignores the
    wound."""
    (roll,) = yield Roll(
        D6,
        msg("old_west.fortune.roll", wound=wound, needed=save),
        roller=side,
        rules=("OW-ABSENT-07", "OW-HERO-01"),
    )
    return bool(roll >= save)


@cache
def _fortune_roll_call(save: int, side: str, wound: int) -> Call[bool, int, str, int]:
    """:func:`fortune_roll`'s call, one value per situation (a fight's odds replay it)."""
    return Call(fortune_roll, (save, side, wound))


@cache
def _fortune_choice(
    side: str, hero: Message, wound: int, wounds: int, left: int, save: int
) -> Choose:
    """Whether to spend a Fortune point on wound ``wound`` of ``wounds`` (``left`` points):
    the odds of the roll it buys on the option, spending being what an owner usually does
    (the default)."""
    return Choose(
        (True, False),
        side,
        msg(
            "old_west.fortune.ask",
            hero=hero,
            wound=wound,
            wounds=wounds,
            fortune=left,
            needed=save,
        ),
        default=True,
        labels=(
            msg("old_west.fortune.spend", needed=save),
            msg("old_west.fortune.keep", fortune=left),
        ),
        forecasts=(Forecast(fortune_roll, (save, side, wound), value=int), None),
        rules=("OW-ABSENT-07", "OW-HERO-01"),
    )


@dataclass(frozen=True, slots=True)
class Profile:
    """OW-ABSENT-09 default: a model's profile (the seed names the characteristics only).

    ``fearsome`` is the Fearsome Reputation flag (OW-ABSENT-08 default: a plain flag).
    Fame and Fortune are points spent during the game (OW-HERO-01). A mount is not part
    of the profile: a model rides one or not (its Move: :func:`move_allowance`).
    """

    shoot: int
    fight: int
    strength: int
    toughness: int
    attacks: int = 1
    wounds: int = 1
    pluck: int = 0
    fame: int = 0
    fortune: int = 0
    hero: bool = False
    fearsome: bool = False


def _rows(name: str) -> dict[str, dict[str, Any]]:
    table = data()[name]
    return {
        key: dict(value)
        for key, value in table.items()
        if isinstance(value, dict) and key not in {"provenance", "provenance_cells"}
    }


def profile_table() -> dict[str, dict[str, Any]]:
    """OW-ABSENT-09 default: every profile of the data by id (its characteristics, Hero
    and Fearsome Reputation flags)."""
    return _rows("profiles")


def mount_table() -> dict[str, dict[str, Any]]:
    """OW-ABSENT-06/09 default: every mount of the data by id (Toughness, Wounds, names)."""
    return _rows("mounts")
