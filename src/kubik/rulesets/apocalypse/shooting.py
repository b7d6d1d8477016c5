"""Shooting and the reactions to a shot (seed 003, «РЕАКЦИИ НА ВЫСТРЕЛ»; the to-hit roll
itself is absent, RA-ABSENT-04).

Default to-hit procedure (ours, consistent with «Пригнись!»): the shooter rolls d6 +
shooting skill + modifiers, the target ducks with d6 + Подвижность (RA-SHOOT-04); a hit
only when the shooter's total is strictly greater. «В укрытие!» (RA-SHOOT-05) gives the
shooter the cover penalty (or small target when the target drops prone in the open).
Pre-emptive fire (RA-SHOOT-06): both roll d6 + Подвижность, the target shoots first
only when strictly higher, at −1. A natural 1 on the shooting die calls a misfire test
(RA-ABSENT-07); grenades and thrown weapons fail it outright (RA-SHOOT-01), unusual
weapons use the same test (RA-SHOOT-03); a shot out of range still rolls, to test for a
jam, and cannot hit (RA-SHOOT-02). Guard fire is −1 at fleeting or charging targets
(RA-GUARD-04).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache, lru_cache

from kubik.engine import Procedure, Roll, Verdict, emit, msg
from kubik.engine.applied import decides, record
from kubik.engine.dice import D6
from kubik.rulesets.apocalypse.checks import first_refusal
from kubik.rulesets.apocalypse.core import number


class WeaponKind(StrEnum):
    """What kind of ranged weapon fires (it decides the misfire test)."""

    FIREARM = "firearm"
    BOW = "bow"  # bows, crossbows, darts: silent (RA-AMB-01)
    THROWN = "thrown"  # grenades and thrown weapons (RA-SHOOT-01)
    UNUSUAL = "unusual"  # jet and artefact weapons (RA-SHOOT-03)

    @property
    def msgid(self) -> str:
        """Message id of its name."""
        return f"apocalypse.weapon_kind.{self.value}"


class Reaction(StrEnum):
    """How the target reacts to a shot declared at him."""

    DUCK = "duck"  # Пригнись! (RA-SHOOT-04)
    TAKE_COVER = "take_cover"  # В укрытие! (RA-SHOOT-05)
    PRE_EMPT = "pre_empt"  # Стрельба на опережение (RA-SHOOT-06)


@dataclass(frozen=True, slots=True)
class Shot:
    """One shot: the shooter's skill, the target's Подвижность, the sum of the to-hit
    modifiers (:func:`to_hit_modifier`), whether the target is in range, and the
    weapon's kind."""

    skill: int
    target_mobility: int
    modifier: int = 0
    in_range: bool = True
    kind: WeaponKind = WeaponKind.FIREARM


class Misfire(StrEnum):
    """The weapon after the shot."""

    NONE = "none"
    JAMMED = "jammed"  # jammed for the rest of the game
    USED_UP = "used_up"  # the last grenade thrown

    @property
    def msgid(self) -> str:
        """Message id of its name."""
        return f"apocalypse.misfire.{self.value}"


@dataclass(frozen=True, slots=True)
class ShotOutcome:
    """Whether the shot hit, and what became of the weapon."""

    hit: bool
    misfire: Misfire = Misfire.NONE


@decides("RA-ABSENT-04")
def to_hit_modifier(
    *,
    long_range: bool = False,
    cover: bool = False,
    prone_in_open: bool = False,
    moved: bool = False,
    gone_to_ground: bool = False,
    fleeting: bool = False,
    charging_guard: bool = False,
    pre_emptive: bool = False,
) -> int:
    """The sum of the to-hit modifiers (RA-ABSENT-04 defaults; the guard's −1s stack,
    RA-GUARD-04; pre-emptive fire −1, RA-SHOOT-06).

    >>> to_hit_modifier(cover=True, fleeting=True, charging_guard=True)
    -3
    """
    table = (
        (long_range, "long_range"),
        (cover, "cover"),
        (prone_in_open, "small_target"),
        (moved, "moved"),
        (gone_to_ground, "gone_to_ground"),
        (fleeting, "fleeting"),
        (charging_guard, "charging_guard"),
        (pre_emptive, "pre_emptive"),
    )
    if charging_guard:
        record("RA-GUARD-04")
    if pre_emptive:
        record("RA-SHOOT-06")
    return sum(number("shooting", key) for applies, key in table if applies)


def shot_rules(s: Shot) -> tuple[str, ...]:
    """The rules a shot applies."""
    rules = ["RA-ABSENT-04", "RA-SHOOT-04"]
    if not s.in_range:
        rules.append("RA-SHOOT-02")
    return tuple(rules)


def misfire_test(kind: WeaponKind) -> Procedure[Misfire]:
    """The misfire test after a natural 1 (RA-ABSENT-07): grenades and thrown weapons fail
    it outright (RA-SHOOT-01); unusual weapons take the same test (RA-SHOOT-03)."""
    if kind is WeaponKind.THROWN:
        yield emit("apocalypse.shot.used_up", rules=("RA-SHOOT-01", "RA-ABSENT-07"))
        return Misfire.USED_UP
    rules = ("RA-ABSENT-07", "RA-SHOOT-03") if kind is WeaponKind.UNUSUAL else ("RA-ABSENT-07",)
    (value,) = yield Roll(D6, msg("apocalypse.shot.misfire_roll"), rules=rules)
    jammed = value <= number("misfire", "jam_max")
    if jammed:
        yield emit("apocalypse.shot.jammed", rules=rules)
    return Misfire.JAMMED if jammed else Misfire.NONE


@dataclass(frozen=True, slots=True)
class Outducked:
    """Reduce the target's duck die to whether the shot hits (RA-SHOOT-04): the
    shooter's total (d6 + skill + modifiers) strictly greater than the target's d6 +
    Подвижность. Exact odds then branch on hit or miss, not on the six faces."""

    shooter_total: int
    mobility: int

    def __call__(self, values: tuple[int, ...]) -> bool:
        return self.shooter_total > values[0] + self.mobility


@lru_cache(maxsize=256)
def _shot_roll(skill: int, modifier: int, rules: tuple[str, ...]) -> Roll:
    """The shooter's die, built once per shot (exact odds meet it again by identity)."""
    return Roll(D6, msg("apocalypse.shot.roll", skill=skill, modifier=modifier), rules=rules)


@lru_cache(maxsize=256)
def _duck_roll(shooter_total: int, mobility: int) -> Roll:
    """The target's duck die against the shooter's total (as :func:`_shot_roll`)."""
    return Roll(
        D6,
        msg("apocalypse.shot.duck", mobility=mobility),
        reduce=Outducked(shooter_total, mobility),
        rules=("RA-SHOOT-04",),
    )


@cache
def _misfire_trigger() -> int:
    """The shooting die's face that calls a misfire test (RA-ABSENT-07)."""
    return number("misfire", "trigger")


def shoot(s: Shot) -> Procedure[ShotOutcome]:
    """One shot against a ducking target (RA-ABSENT-04, RA-SHOOT-04, RA-SHOOT-02)."""
    rules = shot_rules(s)
    (die,) = yield _shot_roll(s.skill, s.modifier, rules)
    hit = False
    if s.in_range:
        hit = yield _duck_roll(die + s.skill + s.modifier, s.target_mobility)
    misfire = Misfire.NONE
    if die == _misfire_trigger():
        misfire = yield from misfire_test(s.kind)
    yield emit("apocalypse.shot.result", rules=rules, hit=hit, in_range=s.in_range)
    return ShotOutcome(hit, misfire)


def pre_emptive(shooter_mobility: int, target_mobility: int) -> Procedure[bool]:
    """Pre-emptive fire (RA-SHOOT-06): whether the target shoots first — d6 + Подвижность
    each, the target only when strictly higher (a tie goes to the declared shooter)."""
    (a,) = yield Roll(D6, msg("apocalypse.shot.pre_empt_shooter"), rules=("RA-SHOOT-06",))
    (b,) = yield Roll(D6, msg("apocalypse.shot.pre_empt_target"), rules=("RA-SHOOT-06",))
    first = b + target_mobility > a + shooter_mobility
    yield emit("apocalypse.shot.pre_empt", rules=("RA-SHOOT-06",), target_first=first)
    return bool(first)


def take_cover_modifier(cover_within: bool) -> int:
    """«В укрытие!» (RA-SHOOT-05): into cover within a pace (the cover penalty), else
    prone in the open (the small-target penalty).

    >>> take_cover_modifier(True), take_cover_modifier(False)
    (-1, -1)
    """
    return to_hit_modifier(cover=cover_within, prone_in_open=not cover_within)


@dataclass(frozen=True, slots=True)
class Shooter:
    """What the permission to shoot needs."""

    has_weapon: bool
    in_combat: bool = False
    near_combat: bool = False
    target_hidden: bool = False
    took_cover: bool = False
    stupid: bool = False
    guarding: bool = False
    ran: bool = False


@decides()
def may_shoot(s: Shooter) -> Verdict:
    """May he shoot this target now? Not in a fight (RA-CC-01), nor within a pace of one
    (RA-CC-02); never at a hidden warrior (RA-HIDE-02); not after a failed stupidity test
    (RA-PSY-11); not while on guard in his own turn (RA-GUARD-01); a warrior who took
    cover only with the «Залегание» penalty (RA-SHOOT-05)."""
    refused = first_refusal(
        (not s.has_weapon, "apocalypse.permission.no_weapon", "RA-ABSENT-14"),
        (s.in_combat, "apocalypse.permission.in_combat", "RA-CC-01"),
        (s.near_combat, "apocalypse.permission.near_combat", "RA-CC-02"),
        (s.target_hidden, "apocalypse.permission.hidden", "RA-HIDE-02"),
        (s.stupid, "apocalypse.permission.stupid", "RA-PSY-11"),
        (s.guarding, "apocalypse.permission.guarding", "RA-GUARD-01"),
        (s.ran, "apocalypse.permission.ran", "RA-ABSENT-08"),
    )
    if refused is not None:
        return refused
    rules = ("RA-ABSENT-04", "RA-SHOOT-05") if s.took_cover else ("RA-ABSENT-04",)
    return Verdict.allow(*rules)


__all__ = [
    "Misfire",
    "Reaction",
    "Shooter",
    "Shot",
    "ShotOutcome",
    "WeaponKind",
    "may_shoot",
    "misfire_test",
    "pre_emptive",
    "shoot",
    "take_cover_modifier",
    "to_hit_modifier",
]
