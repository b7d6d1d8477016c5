"""Movement (FB-ABSENT-14/15, FB-MOV-01..05, FB-SR-06): how far a unit may go,
over what ground, where it may deploy, and fleeing and pursuit (FB-ABSENT-08).

>>> move_allowance(4, frozenset(), march=True)
(8, ('FB-ABSENT-14',))
>>> move_allowance(4, frozenset({"fly"}), march=True, flying=True)
(20, ('FB-MOV-02',))
>>> move_allowance(4, frozenset({"hover"}), march=True, flying=True)
(10, ('FB-MOV-03',))
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from operator import itemgetter

from kubik.engine import Procedure, Roll, Verdict, emit, msg
from kubik.engine.applied import decides, record
from kubik.engine.dice import D6, Die
from kubik.engine.reducers import Total
from kubik.rulesets.fantasy.charts import data


class Ground(StrEnum):
    """Kinds of ground for movement."""

    OPEN = "open"
    DIFFICULT = "difficult"
    WATER = "water"
    IMPASSABLE = "impassable"


@decides(cites=itemgetter(1))
def move_allowance(
    m: int, rules: frozenset[str], *, march: bool, flying: bool = False, on_land: bool = True
) -> tuple[int, tuple[str, ...]]:
    """Inches a unit may move, and the rules that set it: a march doubles M
    (FB-ABSENT-14); flyers go 10" in the air, 20" marching (FB-MOV-02); hoverers
    never march in the air (FB-MOV-03); aquatic units never march on land (FB-MOV-04)."""
    table = data()["movement"]
    if flying and "hover" in rules:
        return int(table["fly_inches"]), ("FB-MOV-03",)
    if flying and "fly" in rules:
        key = "fly_march_inches" if march else "fly_inches"
        return int(table[key]), ("FB-MOV-02",)
    if march and "aquatic" in rules and on_land:
        return m, ("FB-MOV-04",)
    if march:
        return m * int(table["march_multiplier"]), ("FB-ABSENT-14",)
    return m, ()


@decides()
def may_march(enemy_within_inches: float | None, immune: bool = False) -> Verdict:
    """No march with an enemy within 8" unless a Leadership test is passed
    (FB-ABSENT-14)."""
    block = float(data()["movement"]["march_block_inches"])
    if enemy_within_inches is not None and enemy_within_inches <= block and not immune:
        return Verdict.need("march", msg("fantasy.permission.march_test"), "FB-ABSENT-14")
    return Verdict.allow("FB-ABSENT-14")


def ground_for(
    rules: frozenset[str], ground: Ground, *, flying: bool = False
) -> tuple[Ground, tuple[str, ...]]:
    """How a unit treats ground: Ethereal treats all as open (FB-SR-06), Aquatic
    treats water as open (FB-MOV-04), flyers ignore it in the air (FB-MOV-02)."""
    if "ethereal" in rules:
        return Ground.OPEN, ("FB-SR-06",)
    if flying and rules & {"fly", "hover"}:
        return Ground.OPEN, ("FB-MOV-02",)
    if ground is Ground.WATER and "aquatic" in rules:
        return Ground.OPEN, ("FB-MOV-04",)
    return ground, ()


@decides(cites=itemgetter(1))
def pace(
    rules: frozenset[str], grounds: frozenset[Ground], *, flying: bool = False
) -> tuple[int, tuple[str, ...]]:
    """What each inch of a move costs over ``grounds`` (every kind the unit's models go
    through): a unit that goes through difficult ground or water moves at half pace,
    each inch counting as two (FB-ABSENT-19's movement phase, the published default);
    Aquatic units treat water as open (FB-MOV-04), flyers ignore ground in the air
    (FB-MOV-02), ethereal units all ground (FB-SR-06).

    >>> pace(frozenset(), frozenset({Ground.WATER}))
    (2, ('FB-ABSENT-19',))
    >>> pace(frozenset({"aquatic"}), frozenset({Ground.WATER}))
    (1, ('FB-MOV-04',))
    """
    table = data()["ground"]
    cost, cited = 1, tuple[str, ...]()
    for ground in sorted(grounds):
        treated, why = ground_for(rules, ground, flying=flying)
        cited += why
        if treated is not Ground.OPEN and treated is not Ground.IMPASSABLE:
            cost = max(cost, int(table[f"{treated.value}_inch_costs"]))
    return cost, tuple(dict.fromkeys(cited + (("FB-ABSENT-19",) if cost > 1 else ())))


@decides()
def may_cross(
    rules: frozenset[str],
    grounds: frozenset[Ground],
    end: frozenset[Ground],
    *,
    flying: bool = False,
) -> Verdict:
    """Whether a unit may go through ``grounds`` and stand in ``end``: no unit goes
    into impassable ground (FB-ABSENT-19's default), save those that treat it as open
    — ethereal ones (FB-SR-06), flyers in the air (FB-MOV-02), Aquatic ones in water
    that is impassable to others (FB-MOV-04) — and none ends its move in it (FB-SR-06)."""
    for ground in sorted(grounds):
        if ground_for(rules, ground, flying=flying)[0] is Ground.IMPASSABLE:
            return Verdict.forbid(msg("fantasy.permission.impassable_way"), "FB-ABSENT-19")
    for ground in sorted(end):
        if ground is Ground.IMPASSABLE:
            return may_end_move_in(rules, ground)
    cited = [r for g in sorted(grounds) for r in ground_for(rules, g, flying=flying)[1]]
    return Verdict.allow(*dict.fromkeys(cited or ["FB-ABSENT-19"]))


def may_end_move_in(rules: frozenset[str], ground: Ground) -> Verdict:
    """No unit ends its move in impassable ground, ethereal ones included (FB-SR-06)."""
    if ground is Ground.IMPASSABLE:
        return Verdict.forbid(msg("fantasy.permission.impassable"), "FB-SR-06")
    return Verdict.allow("FB-SR-06") if "ethereal" in rules else Verdict.allow()


@decides(cites=itemgetter(1))
def vanguard_inches(rules: frozenset[str], character_joined: bool) -> tuple[int, tuple[str, ...]]:
    """Light cavalry's Vanguard move before the first turn: 12", not once a
    character joined it (FB-MOV-01)."""
    if "light_cavalry" in rules and not character_joined:
        return int(data()["movement"]["vanguard_inches"]), ("FB-MOV-01",)
    return 0, ()


@decides()
def may_vanguard(rules: frozenset[str], character_joined: bool) -> Verdict:
    """Whether a unit makes the Vanguard move before the first turn (FB-MOV-01)."""
    if vanguard_inches(rules, character_joined)[0]:
        return Verdict.allow("FB-MOV-01")
    return Verdict.forbid(msg("fantasy.permission.no_vanguard"), "FB-MOV-01")


@decides()
def may_deploy_scout(rules: frozenset[str], enemy_inches: float) -> Verdict:
    """Scouts deploy after everyone else, anywhere but within 12" of the enemy
    (FB-MOV-05)."""
    if "scouts" not in rules:
        return Verdict.forbid(msg("fantasy.permission.not_scout"), "FB-MOV-05")
    if enemy_inches < float(data()["movement"]["scout_distance_inches"]):
        return Verdict.forbid(msg("fantasy.permission.scout_too_close"), "FB-MOV-05")
    return Verdict.allow("FB-MOV-05")


@decides()
def may_join(character_rules: frozenset[str], unit_rules: frozenset[str]) -> Verdict:
    """A character without Ethereal may not join an ethereal unit (FB-SR-06)."""
    if "ethereal" in unit_rules and "ethereal" not in character_rules:
        return Verdict.forbid(msg("fantasy.permission.ethereal_join"), "FB-SR-06")
    return Verdict.allow()


@decides(cites=tuple)
def flees_on_ground(rules: frozenset[str]) -> tuple[str, ...]:
    """Flyers flee and pursue only on the ground (FB-MOV-02)."""
    return ("FB-MOV-02",) if rules & {"fly", "hover"} else ()


@dataclass(frozen=True, slots=True)
class Rout:
    """A broken unit fleeing and the winner pursuing; swift units roll 3D6
    (FB-ABSENT-15)."""

    fleer_swift: bool = False
    pursuer_swift: bool = False
    pursue: bool = True


@dataclass(frozen=True, slots=True)
class RoutOutcome:
    """How far each went, and whether the fleeing unit was caught (destroyed)."""

    fled: int
    pursued: int
    caught: bool


def flight_dice(swift: bool) -> tuple[Die, ...]:
    """2D6 to flee or pursue, 3D6 for swift units (FB-ABSENT-08, FB-ABSENT-15)."""
    table = data()["flight"]
    return (D6,) * int(table["fast_dice" if swift else "dice"])


def rout(r: Rout) -> Procedure[RoutOutcome]:
    """Flee, then pursue: caught when the pursuit roll is at least the flight roll."""
    rules = ("FB-ABSENT-08",) + (("FB-ABSENT-15",) if r.fleer_swift or r.pursuer_swift else ())
    fled = yield Roll(
        flight_dice(r.fleer_swift), msg("fantasy.rout.flee"), reduce=Total(), rules=rules
    )
    if not r.pursue:
        return RoutOutcome(int(fled), 0, False)
    pursued = yield Roll(
        flight_dice(r.pursuer_swift), msg("fantasy.rout.pursue"), reduce=Total(), rules=rules
    )
    caught = int(pursued) >= int(fled)
    yield emit(
        "fantasy.rout.result", rules=rules, fled=int(fled), pursued=int(pursued), caught=caught
    )
    return RoutOutcome(int(fled), int(pursued), caught)


def flee_reaction() -> Procedure[int]:
    """The Flee charge reaction: the unit runs 2D6" straight away (FB-ABSENT-10)."""
    fled = yield Roll(
        flight_dice(False), msg("fantasy.rout.flee"), reduce=Total(), rules=("FB-ABSENT-10",)
    )
    return int(fled)


@decides()
def charge_reach(m: int, rules: frozenset[str]) -> int:
    """How far a unit charges: twice its Movement (FB-ABSENT-14's march distance, the
    published charge move), a flyer 20" through the air (FB-MOV-02)."""
    if rules & {"fly", "hover"}:
        return move_allowance(m, rules, march="fly" in rules, flying=True)[0]
    record("FB-ABSENT-14")
    return m * int(data()["movement"]["march_multiplier"])


@decides("FB-ABSENT-19")
def wheel_inches(frontage: float, degrees: int, *, loose: bool = False) -> float:
    """What a wheel costs: the distance its outer corner travels as the regiment pivots
    on the other front corner, the frontage times the angle in radians (FB-ABSENT-19,
    the published rule; rounded up to a tenth of an inch). Skirmishers in their loose
    formation turn freely.

    >>> wheel_inches(5.5, 90), wheel_inches(5.5, 90, loose=True)
    (8.7, 0.0)
    """
    if loose:
        return 0.0
    return math.ceil(frontage * math.radians(abs(degrees)) * 10 - 1e-9) / 10


@decides("FB-ABSENT-10")
def charge_distance(
    frontage: float, wheel_degrees: int, straight: float, *, loose: bool = False
) -> float:
    """How far a charge goes: one wheel to align with the face it charges, then
    straight on (FB-ABSENT-10, FB-ABSENT-19).

    >>> charge_distance(5.5, 90, 3.0)
    11.7
    """
    return round(wheel_inches(frontage, wheel_degrees, loose=loose) + straight, 1)


@decides()
def may_wheel(cost: float, allowance: float, *, engaged: bool, fleeing: bool) -> Verdict:
    """A regiment wheels as part of its move, paying the outer corner's distance out of
    its allowance; it never wheels in close combat or while fleeing (FB-ABSENT-19)."""
    verdict = may_move(engaged=engaged, fleeing=fleeing)
    if not verdict.allowed:
        return verdict
    if cost > allowance:
        return Verdict.forbid(msg("fantasy.permission.wheel_too_far"), "FB-ABSENT-19")
    return Verdict.allow("FB-ABSENT-19")


@decides()
def may_charge(
    distance: float,
    reach: float,
    *,
    engaged: bool,
    fleeing: bool,
    stupid: bool,
    ground: Verdict | None = None,
    inch_cost: tuple[int, tuple[str, ...]] = (1, ()),
) -> Verdict:
    """A unit charges an enemy within its charge reach, unless it is already fighting,
    fleeing, or forgot itself this turn (FB-PSY-07); ``ground`` is :func:`may_cross`'s
    verdict on the way and ``inch_cost`` :func:`pace`'s answer (a charge through
    difficult ground or water goes at half pace, FB-ABSENT-19).

    >>> may_charge(5, 8, engaged=False, fleeing=False, stupid=False).allowed
    True
    >>> may_charge(5, 8, engaged=False, fleeing=False, stupid=False,
    ...            inch_cost=(2, ("FB-ABSENT-19",))).rules
    ('FB-ABSENT-14', 'FB-ABSENT-19')
    """
    if stupid:
        return Verdict.forbid(msg("fantasy.permission.stupid"), "FB-PSY-07")
    if engaged:
        return Verdict.forbid(msg("fantasy.permission.engaged"), "FB-ABSENT-19")
    if fleeing:
        return Verdict.forbid(msg("fantasy.permission.fleeing"), "FB-ABSENT-08")
    if ground is not None and not ground.allowed:
        return ground
    cost, paced = inch_cost
    if distance * cost > reach:
        return Verdict.forbid(
            msg("fantasy.permission.out_of_reach"), *dict.fromkeys(("FB-ABSENT-14", *paced))
        )
    return Verdict.allow(*dict.fromkeys(("FB-ABSENT-10", *paced)))


@decides()
def may_move(*, engaged: bool, fleeing: bool) -> Verdict:
    """Units in close combat or fleeing do not move at will (FB-ABSENT-19)."""
    if engaged:
        return Verdict.forbid(msg("fantasy.permission.engaged"), "FB-ABSENT-19")
    if fleeing:
        return Verdict.forbid(msg("fantasy.permission.fleeing"), "FB-ABSENT-08")
    return Verdict.allow("FB-ABSENT-19")
