"""Steel War casualties: how many hits, armour against power, and what a hit means.

A successful fire action (two or more shooter dice beat the range die) causes
potential casualties from the dice *sizes* alone (SW-DMG-01); each hit is then one
armour-vs-power roll (SW-DMG-03). What "wounded" means depends on what was hit:
a man becomes an unverified casualty, a bronescaf loses its suit, a man-sized
weapon is destroyed, a robot is immobilised (SW-DMG-03/07/10/11).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from kubik.engine import AnyCall, Call, Procedure, Roll, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import Die, parse_die
from kubik.engine.requests import RuleIds
from kubik.engine.tally import PairCounts
from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war.core import clamp_leadership
from kubik.rulesets.steel_war.fire_weapons import Special, weapon, weapon_ids

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


@cache
def _data() -> Mapping[str, Any]:
    return load_ruleset_data("steel_war")


class Injury(Enum):
    """The result of one armour test (SW-DMG-03)."""

    UNHARMED = "unharmed"
    WOUNDED = "wounded"
    KILLED = "killed"

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"steel_war.injury.{self.value}"


def potential_casualties(shooter_dice: Sequence[Die], range_die: Die) -> int:
    """Σ shooter faces / range-die faces, rounded half up as in arithmetic (SW-DMG-01).

    Integer arithmetic: ⌊S/F + 1/2⌋ = ⌊(2S + F) / 2F⌋, never banker's rounding.

    >>> from kubik.engine.dice import D6, D8, D10
    >>> potential_casualties((D6, D10), D10), potential_casualties((D6, D8), D10)
    (2, 1)
    """
    total = sum(d.faces for d in shooter_dice)
    faces = range_die.faces
    return (2 * total + faces) // (2 * faces)


@lru_cache(maxsize=1024)  # pure: asked on every menu and replay, of the same few values
def injury(power: int, armour: int, flame: bool = False) -> Injury:
    """One armour test's result from the two rolls (SW-DMG-03, SW-DMG-08).

    Killed when power ≥ 3 × armour; wounded when power > armour; a flamethrower
    firing on its own wounds every victim it does not kill.

    >>> [i.value for i in (injury(5, 4), injury(12, 4), injury(3, 4), injury(3, 4, flame=True))]
    ['wounded', 'killed', 'unharmed', 'wounded']
    """
    rule = _data()["armour_test"]
    threshold = int(rule["kill_multiple"]) * armour
    killed = power >= threshold if rule["kill_inclusive"] else power > threshold
    if killed:
        return Injury.KILLED
    if power > armour or flame:
        return Injury.WOUNDED
    return Injury.UNHARMED


_INJURIES = (Injury.UNHARMED, Injury.WOUNDED, Injury.KILLED)


@dataclass(frozen=True, slots=True)
class InjuryReducer:
    """Reduces a (power, armour) roll to its :class:`Injury` (vectorised for the odds driver)."""

    flame: bool

    def __call__(self, values: tuple[int, ...]) -> Injury:
        power, armour = values
        return injury(power, armour, self.flame)

    def batch(self, faces: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Injury codes (0 unharmed, 1 wounded, 2 killed) for rows of (power, armour)."""
        import numpy as np  # only large grids are vectorised

        power, armour = faces[:, 0], faces[:, 1]
        rule = _data()["armour_test"]
        threshold = int(rule["kill_multiple"]) * armour
        killed = power >= threshold if rule["kill_inclusive"] else power > threshold
        wounded = (power > armour) | self.flame
        return np.where(killed, 2, np.where(wounded, 1, 0))

    def decode(self, code: int) -> Injury:
        """The injury of a batch code."""
        return _INJURIES[code]


def armour_test(
    armour: Die, power: Die, flame: bool = False, rules: RuleIds = ()
) -> Procedure[Injury]:
    """One hit: roll the weapon's power die, then the target's armour die (SW-DMG-03).

    ``flame``: the hit is from a flamethrower firing on its own (SW-DMG-08). ``rules``:
    the rules that chose these dice (armour table, psi die, supported power ...), for the log.
    """
    applied = armour_rules(flame, rules)
    result = yield Roll(
        (power, armour),
        msg("steel_war.armour_test.roll", power=power, armour=armour),
        reduce=InjuryReducer(flame),
        roller="shooter, target",
        rules=applied,
    )
    yield emit(
        "steel_war.armour_test.result", rules=applied, power=power, armour=armour, injury=result
    )
    assert isinstance(result, Injury)
    return result


@cache
def armour_rules(flame: bool, rules: RuleIds = ()) -> RuleIds:
    """An armour test's rules: power against armour (SW-DMG-03), a lone flamethrower's
    hits (SW-DMG-08), then what chose the dice.

    >>> armour_rules(True, ("SW-DMG-04",))
    ('SW-DMG-03', 'SW-DMG-08', 'SW-DMG-04')
    """
    return ("SW-DMG-03", *(("SW-DMG-08",) if flame else ()), *rules)


#: (wounded, killed) of a tally of armour tests, for ``Call(..., reduce=)`` (counted one
#: test at a time by the exact odds).
injury_counts: PairCounts[Injury] = PairCounts(Injury.WOUNDED, Injury.KILLED)


def armour_tests(
    armour: Die, power: Die, hits: int, flame: bool = False, rules: RuleIds = ()
) -> Procedure[tuple[int, int]]:
    """``hits`` independent armour tests; returns (wounded, killed), combined by convolution."""
    counts: tuple[int, int] = yield _tests(armour, power, hits, flame, rules)
    return counts


@cache
def _tests(armour: Die, power: Die, hits: int, flame: bool, rules: RuleIds) -> AnyCall:
    """The call of ``hits`` armour tests (built once per situation)."""
    return Call(armour_test, (armour, power, flame, rules), times=hits, reduce=injury_counts)


@lru_cache(maxsize=1024)
def armour_tests_tail(
    armour: Die,
    power: Die,
    hits: int,
    flame: bool,
    rules: RuleIds,
    then: Callable[[tuple[int, int]], Hashable],
) -> AnyCall:
    """:func:`armour_tests`' call as its caller's tail call, the caller returning
    ``then((wounded, killed))`` (built once per situation: exact odds then map the
    tests' answers instead of replaying the caller for each)."""
    return Call(
        armour_test,
        (armour, power, flame, rules),
        times=hits,
        reduce=injury_counts,
        tail=True,
        then=then,
    )


@decides("SW-DMG-04")
def hit_armour(armour: Die, flak_vest: bool, fragmentation: bool) -> Die:
    """The armour die against this hit: flak vests roll d6 against fragments (SW-DMG-04).

    Against any other hit (bullets, flame) the vest gives nothing over the model's armour.

    >>> from kubik.engine.dice import D4
    >>> hit_armour(D4, True, True), hit_armour(D4, True, False)
    (Die(faces=6), Die(faces=4))
    """
    if not (flak_vest and fragmentation):
        return armour
    vest = parse_die(_data()["flak_vest"]["fragmentation"])
    return max(armour, vest)


class TargetKind(Enum):
    """What a hit can land on; each reads "wounded" differently (SW-DMG-03/04/07/10)."""

    __hash__ = object.__hash__  # members are singletons: hashed by identity, in C

    MAN = "man"
    FULL_INFANTRY_ARMOUR = "full_infantry_armour"
    CAVALRY = "cavalry"
    BRONESCAF = "bronescaf"
    MAN_SIZED_WEAPON = "man_sized_weapon"
    ROBOT = "robot"
    DAMAGED_ROBOT = "damaged_robot"


@decides("SW-DMG-04")
@lru_cache(maxsize=len(TargetKind))  # (one die a kind: every fire forecast asks it)
def armour_die(kind: TargetKind) -> Die:
    """The armour die of a kind of model (SW-DMG-04 «Таблица брони»).

    >>> armour_die(TargetKind.BRONESCAF), armour_die(TargetKind.MAN_SIZED_WEAPON)
    (Die(faces=10), Die(faces=8))
    """
    table = _data()["armour"]
    key = {
        TargetKind.MAN: "man",
        TargetKind.CAVALRY: "man",
        TargetKind.FULL_INFANTRY_ARMOUR: "full_infantry_armour",
        TargetKind.BRONESCAF: "bronescaf",
        TargetKind.MAN_SIZED_WEAPON: "man_sized_weapon",
        TargetKind.ROBOT: "robot",
        TargetKind.DAMAGED_ROBOT: "robot",
    }[kind]
    return parse_die(table[key])


class HitEffect(Enum):
    """What a resolved hit does to the model it landed on."""

    NONE = "none"
    UNVERIFIED_CASUALTY = "unverified_casualty"  # a wounded man (SW-DMG-11)
    REMOVED = "removed"  # killed: the model is removed
    LOSES_SUIT = "loses_suit"  # bronescaf → an ordinary man with armour d4
    LOSES_HORSE = "loses_horse"  # cavalryman → on foot
    DESTROYED = "destroyed"  # man-sized weapon or robot; not a casualty for morale
    IMMOBILISED = "immobilised"  # robot: cannot move, can still shoot

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"steel_war.hit_effect.{self.value}"


@decides("SW-DMG-03")
def hit_effect(kind: TargetKind, result: Injury) -> HitEffect:
    """The meaning of an armour-test result for this kind of model (SW-DMG-03/07/10/11).

    >>> hit_effect(TargetKind.MAN, Injury.WOUNDED).value
    'unverified_casualty'
    >>> hit_effect(TargetKind.ROBOT, Injury.WOUNDED).value
    'immobilised'
    >>> hit_effect(TargetKind.DAMAGED_ROBOT, Injury.WOUNDED).value
    'destroyed'
    """
    if result is Injury.UNHARMED:
        return HitEffect.NONE
    if kind in (TargetKind.MAN_SIZED_WEAPON, TargetKind.DAMAGED_ROBOT):
        return HitEffect.DESTROYED
    if kind is TargetKind.ROBOT:
        return HitEffect.DESTROYED if result is Injury.KILLED else HitEffect.IMMOBILISED
    if result is Injury.KILLED:
        return HitEffect.REMOVED
    return {
        TargetKind.BRONESCAF: HitEffect.LOSES_SUIT,
        TargetKind.CAVALRY: HitEffect.LOSES_HORSE,
    }.get(kind, HitEffect.UNVERIFIED_CASUALTY)


def kind_after_hit(kind: TargetKind, effect: HitEffect) -> TargetKind | None:
    """What the model is after the hit; None if it is gone (removed or destroyed).

    >>> kind_after_hit(TargetKind.BRONESCAF, HitEffect.LOSES_SUIT)
    <TargetKind.MAN: 'man'>
    """
    if effect in (HitEffect.REMOVED, HitEffect.DESTROYED):
        return None
    if effect is HitEffect.LOSES_SUIT or effect is HitEffect.LOSES_HORSE:
        return TargetKind.MAN
    if effect is HitEffect.IMMOBILISED:
        return TargetKind.DAMAGED_ROBOT
    return kind


@decides("SW-DMG-07", "SW-DMG-11")
def counts_for_morale(kind: TargetKind, effect: HitEffect) -> bool:
    """Whether the hit is a casualty for morale tests: men only (SW-DMG-07, SW-DMG-11).

    >>> counts_for_morale(TargetKind.MAN_SIZED_WEAPON, HitEffect.DESTROYED)
    False
    """
    return effect in (HitEffect.UNVERIFIED_CASUALTY, HitEffect.REMOVED) and kind in (
        TargetKind.MAN,
        TargetKind.FULL_INFANTRY_ARMOUR,
        TargetKind.CAVALRY,
        TargetKind.BRONESCAF,
    )


@decides("SW-DMG-05")
def specialist_replaceable(is_commander: bool) -> bool:
    """Whether a lost specialist's figure may be swapped: only the commander's (SW-DMG-05).

    >>> specialist_replaceable(False), specialist_replaceable(True)
    (False, True)
    """
    return is_commander


def new_leadership(leadership: int, roll: int) -> int:
    """Leadership of the replacement commander from the d6 (SW-DMG-06), clamped to [1, 3].

    >>> [new_leadership(2, r) for r in (3, 5, 6)], new_leadership(3, 1), new_leadership(1, 6)
    ([3, 2, 1], 3, 1)
    """
    table = _data()["commander_replacement"]
    if roll <= int(table["worse_up_to"]):
        change = int(table["worse"])
    elif roll <= int(table["same_up_to"]):
        change = 0
    else:
        change = int(table["better"])
    return clamp_leadership(leadership + change)


@dataclass(frozen=True, slots=True)
class NewCommander:
    """The replacement commander's leadership."""

    leadership: int


def replace_commander(leadership: int) -> Procedure[NewCommander]:
    """A lost commander is replaced by a subordinate; d6 decides how good (SW-DMG-06)."""
    die = parse_die(_data()["commander_replacement"]["die"])
    (roll,) = yield Roll(
        die,
        msg("steel_war.commander.roll", leadership=leadership),
        roller="target",
        rules=("SW-DMG-06", "SW-CORE-03"),
    )
    new = new_leadership(leadership, roll)
    yield emit(
        "steel_war.commander.replaced",
        rules=("SW-DMG-06", "SW-CORE-03"),
        roll=roll,
        old=leadership,
        new=new,
    )
    return NewCommander(new)


def explodes_when_hit(weapon_id: str) -> bool:
    """Whether a hit on this weapon's bearer sets it off (SW-DMG-09: Keno «Ашанмортанг»).

    >>> explodes_when_hit("flamethrower_keno"), explodes_when_hit("flamethrower_lianra")
    (True, False)
    >>> explodes_when_hit("")
    False
    """
    return weapon_id in weapon_ids() and weapon(weapon_id).has(Special.BACKPACK_EXPLODES)


@decides("SW-DMG-09")
def explosion_radius() -> int:
    """Inches around the exploding bearer within which every model is hit (SW-DMG-09)."""
    return int(_data()["flamethrower_explosion"]["radius_inches"])
