"""Steel War charge («атакую!»): the enhanced reaction test, the charge move, the second
attempt after the defender's free fire, and the charged squad's morale test.

The defender's free fire is a shooting rule, not ours: the charge takes its result
either as a number of casualties or as a :class:`DefensiveFire` — any procedure
plus a function reducing its outcome to casualties — which it Calls at the point
the fire happens (SW-CC-04).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import Any

from kubik.data import load_ruleset_data
from kubik.dice import Die
from kubik.engine import Call, Procedure, emit, msg
from kubik.errors import InputError
from kubik.rulesets.steel_war.core import leadership_test
from kubik.rulesets.steel_war.melee import fall_back_inches
from kubik.rulesets.steel_war.morale import MoraleTestOutcome, morale_test
from kubik.rulesets.steel_war.movement import TerrainClass, combat_move


class SquadMorale(Enum):
    """The charging squad's morale level (боевой дух), best to worst (SW-MOR-01)."""

    CONFIDENT = "confident"  # Ув
    STEADY = "steady"  # Ст
    SHAKEN = "shaken"  # По
    BROKEN = "broken"  # Ра
    FLEEING = "fleeing"  # Бе

    @property
    def msgid(self) -> str:
        """Message id of its name."""
        return f"steel_war.term.melee.morale.{self.value}"


@cache
def _data() -> dict[str, Any]:
    return load_ruleset_data("steel_war")


def charge_threat(morale: SquadMorale) -> int | None:
    """Threat of the charge's enhanced reaction test; None: the squad never charges (SW-CC-02).

    >>> charge_threat(SquadMorale.STEADY), charge_threat(SquadMorale.SHAKEN)
    (1, 3)
    >>> charge_threat(SquadMorale.BROKEN) is None
    True
    """
    table = _data()["charge_test"]
    if morale.value in table["never_charge"]:
        return None
    return int(table[morale.value])


def charge_reached(remaining: float) -> bool:
    """A charge has reached when it ends 2" or less from the enemy (SW-CC-03).

    >>> charge_reached(2), charge_reached(2.5)
    (True, False)
    """
    return remaining <= float(_data()["charge_reach"]["inches"])


def second_attempt_threat(casualties: int) -> int | None:
    """Threat of the test after the free fire: +1 per casualty; None: no test needed (SW-CC-04).

    >>> second_attempt_threat(2), second_attempt_threat(0) is None
    (2, True)
    """
    table = _data()["charge_second_attempt"]
    if casualties == 0 and not table["test_without_casualties"]:
        return None
    return casualties * int(table["threat_per_casualty"])


@dataclass(frozen=True, slots=True)
class DefensiveFire:
    """The defender's free fire at a charge that fell short (SW-CC-04).

    ``procedure(*args)`` resolves the fire (it must not suppress: only casualties
    count); ``casualties`` maps its outcome to the number of attackers hit.
    """

    procedure: Callable[..., Procedure[Any]]
    args: tuple[Hashable, ...]
    casualties: Callable[[Any], int]


@dataclass(frozen=True, slots=True)
class ChargeOutcome:
    """How the charge went.

    ``declared``: the enhanced reaction test passed; ``reached``: the attackers got
    within 2"; ``fell_short``: the first move did not reach, so the defender had its
    free fire; ``suppressed``: the test after that fire failed — the attackers are
    suppressed and back at their starting positions.
    """

    declared: bool
    reached: bool
    fell_short: bool
    suppressed: bool


def charge(
    quality: Die,
    leadership: int,
    morale: SquadMorale,
    distance: float,
    terrain: TerrainClass = TerrainClass.EASY,
    fire: DefensiveFire | int = 0,
) -> Procedure[ChargeOutcome]:
    """Declare a charge, move, and after a short move face the free fire and try again.

    ``distance``: inches to the enemy; ``terrain``: the class of the ground crossed,
    for the attackers (SW-MOVE-02); ``fire``: the free fire's casualties, or the fire.
    """
    if distance < 0:
        raise InputError(f"distance: must be 0 or more inches, not {distance}")
    threat = charge_threat(morale)
    if threat is None:
        yield emit("steel_war.charge.refused", morale=morale)
        return ChargeOutcome(False, False, False, False)
    passed, roll = yield from leadership_test(
        quality,
        leadership,
        threat,
        msg("steel_war.charge.test", target=leadership + threat),
        roller="attacker",
    )
    yield emit("steel_war.charge.test_result", roll=roll, target=leadership + threat, passed=passed)
    if not passed:
        return ChargeOutcome(False, False, False, False)
    remaining = distance
    moves = int(_data()["charge_reach"]["moves"])
    for attempt in range(moves):
        if attempt > 0:
            casualties = fire if isinstance(fire, int) else None
            if casualties is None:
                assert isinstance(fire, DefensiveFire)
                casualties = yield Call(fire.procedure, fire.args, reduce=fire.casualties)
            yield emit("steel_war.charge.free_fire", casualties=casualties)
            second = second_attempt_threat(casualties)
            if second is not None:
                again, roll = yield from leadership_test(
                    quality,
                    leadership,
                    second,
                    msg("steel_war.charge.retest", target=leadership + second),
                    roller="attacker",
                )
                yield emit(
                    "steel_war.charge.retest_result",
                    roll=roll,
                    target=leadership + second,
                    passed=again,
                )
                if not again:
                    return ChargeOutcome(True, False, True, True)
        moved: int = yield Call(combat_move, (terrain,))
        remaining = max(remaining - moved, 0.0)
        reached = charge_reached(remaining)
        yield emit("steel_war.charge.moved", moved=moved, remaining=remaining, reached=reached)
        if reached:
            return ChargeOutcome(True, True, attempt > 0, False)
    return ChargeOutcome(True, False, True, False)


def outnumbering_threat(attackers: int, defenders: int, cavalry_with_blades: int = 0) -> int:
    """Threat from numbers: +1 if more, +2 if twice as many, +3 if thrice… (SW-CC-05).

    A cavalryman charging «в клинки» counts as two infantrymen (SW-ABSENT-07).

    >>> outnumbering_threat(5, 5), outnumbering_threat(6, 5), outnumbering_threat(10, 5)
    (0, 1, 2)
    >>> outnumbering_threat(3, 5, cavalry_with_blades=3)
    1
    """
    if defenders < 1:
        raise InputError("defenders: at least one defender must be charged")
    if not 0 <= cavalry_with_blades <= attackers:
        raise InputError("cavalry_with_blades: between 0 and the number of attackers")
    table = _data()["charge_numbers"]
    weight = int(table["cavalry_with_blades_counts"])
    strength = attackers - cavalry_with_blades + weight * cavalry_with_blades
    if strength <= defenders:
        return 0
    return max(int(table["minimum"]), strength // defenders)


def is_frightening(frightening: bool, cavalry_with_blades: int) -> bool:
    """Frightening attackers: flagged (Keno Guard, berserk …) or cavalry «в клинки» (SW-CC-11).

    >>> is_frightening(False, 2), is_frightening(False, 0)
    (True, False)
    """
    cavalry_rule = bool(_data()["frightening"]["cavalry_with_blades"])
    return frightening or (cavalry_rule and cavalry_with_blades > 0)


def defender_threat(
    attackers: int,
    defenders: int,
    *,
    cavalry_with_blades: int = 0,
    other_threat: int = 0,
    frightening: bool = False,
) -> int:
    """Threat of the charged squad's morale test: numbers + other factors, doubled if frightening.

    >>> defender_threat(6, 3, other_threat=1, frightening=True)
    6
    """
    if other_threat < 0:
        raise InputError("other_threat: must be 0 or more")
    threat = outnumbering_threat(attackers, defenders, cavalry_with_blades) + other_threat
    if is_frightening(frightening, cavalry_with_blades):
        threat *= int(_data()["frightening"]["threat_multiplier"])
    return threat


@dataclass(frozen=True, slots=True)
class DefenderMoraleOutcome:
    """The charged squad's test: levels dropped, and whether it stands to fight (SW-CC-05)."""

    drop: int
    melee: bool


def defender_morale(quality: Die, leadership: int, threat: int) -> Procedure[DefenderMoraleOutcome]:
    """The charged squad tests morale; failing, it drops and moves back 6" from the attackers."""
    result: MoraleTestOutcome = yield Call(morale_test, (quality, leadership, threat))
    if result.drop:
        inches = fall_back_inches(after_charge=True)
        yield emit("steel_war.defender_morale.falls_back", inches=inches, drop=result.drop)
        return DefenderMoraleOutcome(result.drop, False)
    yield emit("steel_war.defender_morale.stands")
    return DefenderMoraleOutcome(0, True)
