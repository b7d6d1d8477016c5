"""Psychology (Психология, seed 003): rout, leaders, all alone, fleeing, fear, terror,
frenzy, stupidity and hatred.

Every test is a Сила духа test (:func:`~.checks.spirit_test`, RA-PSY-01); a warrior
within 3 paces of his leader, who is neither knocked down nor fleeing, may use the
leader's Spirit (RA-PSY-04).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from kubik.engine import Call, Procedure, Roll, Verdict, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import D6
from kubik.rulesets.apocalypse.checks import first_refusal, spirit_test
from kubik.rulesets.apocalypse.core import number


@decides("RA-PSY-04")
def spirit_for_test(own: int, leader: int | None, leader_distance: float, leader_fit: bool) -> int:
    """The Spirit a warrior tests on: his leader's when within 3 paces of a leader who is
    neither knocked down nor fleeing and whose Spirit is higher (RA-PSY-04).

    >>> spirit_for_test(3, 5, 2.5, True), spirit_for_test(3, 5, 4.0, True)
    (5, 3)
    >>> spirit_for_test(3, 5, 1, False)
    3
    """
    if leader is None or not leader_fit or leader_distance > number("psychology", "leader_paces"):
        return own
    return max(own, leader)


@decides("RA-PSY-02")
def must_test_rout(out_of_action: int, warband: int) -> bool:
    """A rout test is due once a third or more of the warband is out of action
    (RA-PSY-02): 4 of 12 (the seed's example), 4 of 10.

    >>> must_test_rout(4, 12), must_test_rout(3, 12), must_test_rout(3, 10), must_test_rout(4, 10)
    (True, False, False, True)
    """
    return out_of_action * number("psychology", "rout_denominator") >= warband * number(
        "psychology", "rout_numerator"
    )


@decides("RA-PSY-02")
def rout_spirit(leader: int | None, others: Sequence[int]) -> int:
    """The Spirit a rout test is taken on: the leader's, or when he is out of action or
    knocked down the highest of the warriors still standing (RA-PSY-02).

    >>> rout_spirit(None, (3, 5, 4)), rout_spirit(4, (5,))
    (5, 4)
    """
    if leader is not None:
        return leader
    return max(others, default=0)


def rout_test(spirit: int) -> Procedure[bool]:
    """The rout test (RA-PSY-02): pass and the battle goes on; fail and the warband loses."""
    passed = yield Call(spirit_test, (spirit,))
    yield emit("apocalypse.psy.rout_test", rules=("RA-PSY-02",), passed=passed)
    return bool(passed)


@decides()
def may_rout_voluntarily(out_of_action: int, warband: int) -> Verdict:
    """A player may withdraw only when a rout test is due (RA-PSY-03)."""
    return Verdict.of(
        must_test_rout(out_of_action, warband),
        msg("apocalypse.permission.no_rout_due"),
        "RA-PSY-03",
    )


@decides("RA-PSY-05")
def all_alone(enemies_in_contact: int, friends_near: int) -> bool:
    """Alone against two or more with no fit friend within 3 paces (RA-PSY-05).

    >>> all_alone(2, 0), all_alone(1, 0), all_alone(3, 1)
    (True, False, False)
    """
    return enemies_in_contact >= number("psychology", "alone_enemies") and friends_near == 0


def flee_distance(_: int = 0) -> Procedure[int]:
    """How far a fleeing warrior runs: d6 paces (RA-PSY-05, RA-PSY-06)."""
    (paces,) = yield Roll(D6, msg("apocalypse.psy.flee_roll"), rules=("RA-PSY-06",))
    return int(paces)


class Fright(StrEnum):
    """What an enemy makes a warrior test (RA-PSY-07..09)."""

    NONE = "none"
    FEAR = "fear"
    TERROR = "terror"

    @property
    def msgid(self) -> str:
        """Message id of its name."""
        return f"apocalypse.psy.fright.{self.value}"


@decides("RA-PSY-09")
def fright(enemy: Fright, own: Fright) -> Fright:
    """What ``own`` (his own fear or terror) makes of an ``enemy`` that causes fear or
    terror (RA-PSY-09): fear-causers are immune to fear and treat terror as fear;
    terror-causers are immune to both.

    >>> [fright(Fright.TERROR, Fright.FEAR).value, fright(Fright.FEAR, Fright.FEAR).value]
    ['fear', 'none']
    >>> fright(Fright.TERROR, Fright.NONE).value
    'terror'
    """
    if own is Fright.TERROR or enemy is Fright.NONE:
        return Fright.NONE
    if own is Fright.FEAR:
        return Fright.NONE if enemy is Fright.FEAR else Fright.FEAR
    return enemy


def fear_test(spirit: int) -> Procedure[bool]:
    """A fear test (RA-PSY-07): charged by a fear-causer, failure halves his attack die
    this round; wanting to charge one, failure keeps him where he stands."""
    passed = yield Call(spirit_test, (spirit,))
    yield emit("apocalypse.psy.fear", rules=("RA-PSY-07",), passed=passed)
    return bool(passed)


def terror_test(spirit: int) -> Procedure[bool]:
    """A terror test at the start of the turn within 3 paces of a terrifying creature
    (RA-PSY-08): failure and he flees, and in a fight his Боевое умение is 0."""
    passed = yield Call(spirit_test, (spirit,))
    yield emit("apocalypse.psy.terror", rules=("RA-PSY-08",), passed=passed)
    return bool(passed)


@decides("RA-PSY-10")
def must_charge(frenzied: bool, enemy_in_reach: bool, knocked_down: bool) -> bool:
    """A frenzied warrior must charge an enemy in reach (RA-PSY-10); knocked down, he is
    frenzied no more.

    >>> must_charge(True, True, False), must_charge(True, True, True)
    (True, False)
    """
    return frenzied and enemy_in_reach and not knocked_down


@decides("RA-PSY-10")
def ignores_psychology(frenzied: bool, enemy_in_reach: bool) -> bool:
    """Within charge reach of an enemy a frenzied warrior takes no psychology tests
    (RA-PSY-10)."""
    return frenzied and enemy_in_reach


class Stupor(StrEnum):
    """What a stupid creature does after failing its test (RA-PSY-12)."""

    SENSIBLE = "sensible"  # passed: acts normally
    SHUFFLE = "shuffle"  # 1–3: forward at half speed, stops a pace from enemies
    DROOL = "drool"  # 4–6: stands still and does nothing

    @property
    def msgid(self) -> str:
        """Message id of its name."""
        return f"apocalypse.psy.stupor.{self.value}"


def stupidity(spirit: int, in_combat: bool) -> Procedure[Stupor]:
    """The stupidity test at the start of its turn (RA-PSY-11), and on a failure out of
    a fight the behaviour table (RA-PSY-12). In a fight a failure only stops its blows."""
    passed = yield Call(spirit_test, (spirit,))
    if passed:
        outcome = Stupor.SENSIBLE
    elif in_combat:
        outcome = Stupor.DROOL
    else:
        (value,) = yield Roll(D6, msg("apocalypse.psy.stupor_roll"), rules=("RA-PSY-12",))
        outcome = Stupor.SHUFFLE if value <= number("stupidity", "shuffle_max") else Stupor.DROOL
    rules = ("RA-PSY-11",) if passed or in_combat else ("RA-PSY-11", "RA-PSY-12")
    yield emit("apocalypse.psy.stupidity", rules=rules, outcome=outcome)
    return outcome


@dataclass(frozen=True, slots=True)
class Charger:
    """What the permission to charge needs besides the distance."""

    reach: float
    distance: float
    in_combat: bool = False
    fleeing: bool = False
    stupid: bool = False
    target_fright: Fright = Fright.NONE
    guarding: bool = False


@decides()
def may_charge(c: Charger) -> Verdict:
    """May he charge this enemy? Within reach (twice Подвижность, RA-ABSENT-08), not in a
    fight, fleeing (RA-PSY-06), stupid (RA-PSY-11) or on guard (RA-GUARD-01); a
    fear-causing target needs a fear test first (RA-PSY-07)."""
    refused = first_refusal(
        (c.in_combat, "apocalypse.permission.in_combat", "RA-CC-01"),
        (c.fleeing, "apocalypse.permission.fleeing", "RA-PSY-06"),
        (c.stupid, "apocalypse.permission.stupid", "RA-PSY-11"),
        (c.guarding, "apocalypse.permission.guarding", "RA-GUARD-01"),
        (c.distance > c.reach, "apocalypse.permission.out_of_reach", "RA-ABSENT-08"),
    )
    if refused is not None:
        return refused
    if c.target_fright is not Fright.NONE:
        return Verdict.need(Fright.FEAR, msg("apocalypse.permission.fear_first"), "RA-PSY-07")
    return Verdict.allow("RA-ABSENT-08")


def panic_test(spirit: int) -> Procedure[bool]:
    """The squad panic test of the activation edition (RA-ABSENT-11 default: the leader's
    Spirit test; failure and the squad flees). Returns "holds"."""
    passed = yield Call(spirit_test, (spirit,))
    yield emit("apocalypse.psy.panic", rules=("RA-AMB-03", "RA-ABSENT-11"), passed=passed)
    return bool(passed)


__all__ = [
    "Charger",
    "Fright",
    "Stupor",
    "all_alone",
    "fear_test",
    "flee_distance",
    "fright",
    "ignores_psychology",
    "may_charge",
    "may_rout_voluntarily",
    "must_charge",
    "must_test_rout",
    "panic_test",
    "rout_spirit",
    "rout_test",
    "spirit_for_test",
    "stupidity",
    "terror_test",
]
