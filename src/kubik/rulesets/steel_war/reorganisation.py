"""Steel War reorganisation (реорганизация): regroup, and decide every unverified casualty.

One action, never twice in an activation (SW-REORG-01). Each unverified casualty
rolls a d6, +1 with a medic (or a medical vehicle within 6"), +2 with a field
surgeon; 1–2 dies, 3–5 is stabilised, 6 returns to the ranks (SW-REORG-02).
The casualties are independent, so n of them are one Call with ``times=n``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cache, lru_cache
from typing import Any

from kubik.core.errors import InputError
from kubik.engine import Call, Procedure, Roll, Tally, Verdict, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import parse_die
from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.situation import UnitSituation, all_of, basic_verdict


class CasualtyKind(Enum):
    """Who the casualty is: men and androids can be treated, robots cannot (SW-REORG-02)."""

    HUMAN = "human"
    ANDROID = "android"
    ROBOT = "robot"


class Care(Enum):
    """Medical help at hand (SW-REORG-02)."""

    NONE = "none"
    MEDIC = "medic"  # a medic in the squad, or a medical vehicle within 6"
    SURGEON = "surgeon"  # a field surgeon with a medical team
    BOTH = "both"

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"steel_war.care.{self.value}"


class Fate(Enum):
    """What reorganisation decides for an unverified casualty (SW-REORG-02)."""

    DIED = "died"
    STABILISED = "stabilised"  # cannot fight or walk; carried or left awaiting evacuation
    RETURNED = "returned"


@cache
def _data() -> Mapping[str, Any]:
    return load_ruleset_data("steel_war")


@decides()
@lru_cache(maxsize=4096)  # (a menu asks it of every situation again)
def may_reorganise(unit: UnitSituation) -> Verdict:
    """May ``unit`` reorganise now (SW-REORG-01)?

    One action, never twice in an activation; a suppressed squad only in cover
    (SW-SUP-01); the morale level must allow it (SW-MOR-01). It regroups the squad even
    with no unverified casualty to settle (SW-ABSENT-09).

    >>> from kubik.rulesets.steel_war.activation import ActionType
    >>> from kubik.rulesets.steel_war.situation import UnitSituation
    >>> may_reorganise(UnitSituation(done=(ActionType.REORGANISE,))).allowed
    False
    >>> may_reorganise(UnitSituation(markers=1, in_cover=True)).allowed
    True
    """
    return all_of(basic_verdict(unit, ActionType.REORGANISE), Verdict.allow("SW-REORG-01"))


def care_bonus(care: Care, kind: CasualtyKind = CasualtyKind.HUMAN) -> int:
    """What medical help adds to the d6: +1 medic, +2 surgeon, none for androids (SW-REORG-02).

    >>> care_bonus(Care.MEDIC), care_bonus(Care.BOTH)
    (1, 2)
    >>> care_bonus(Care.SURGEON, CasualtyKind.ANDROID)
    0
    """
    table = _data()["reorganisation"]
    if kind.value in table["cannot_heal"]:
        raise InputError("kind: robots cannot be healed by reorganisation")
    if kind.value in table["no_bonus"] or care is Care.NONE:
        return 0
    medic, surgeon = int(table["medic_bonus"]), int(table["surgeon_bonus"])
    if care is Care.MEDIC:
        return medic
    if care is Care.SURGEON:
        return surgeon
    return medic + surgeon if table["bonuses_stack"] else max(medic, surgeon)


@decides("SW-REORG-02")
def care_at_hand(
    medic_in_squad: bool = False,
    medical_vehicle_distance: float | None = None,
    field_surgeon: bool = False,
) -> Care:
    """The medical help a reorganising squad has (SW-REORG-02): a medic in the squad or a
    medical vehicle within 6" (+1), a field surgeon with a medical team (+2).

    ``medical_vehicle_distance``: inches to the nearest medical vehicle, None if none.

    >>> care_at_hand(False, 6), care_at_hand(False, 7), care_at_hand(True, None, True)
    (<Care.MEDIC: 'medic'>, <Care.NONE: 'none'>, <Care.BOTH: 'both'>)
    """
    limit = float(_data()["reorganisation"]["medical_vehicle_inches"])
    near = medical_vehicle_distance is not None and medical_vehicle_distance <= limit
    medic = medic_in_squad or near
    if medic and field_surgeon:
        return Care.BOTH
    if field_surgeon:
        return Care.SURGEON
    return Care.MEDIC if medic else Care.NONE


def fate_of(modified: int) -> Fate:
    """The fate for a modified d6 result; above 6 counts as 6 (SW-REORG-02).

    >>> [fate_of(r).value for r in (2, 3, 5, 6, 8)]
    ['died', 'stabilised', 'stabilised', 'returned', 'returned']
    """
    table = _data()["reorganisation"]
    if modified <= int(table["died_max"]):
        return Fate.DIED
    if modified <= int(table["stabilised_max"]):
        return Fate.STABILISED
    return Fate.RETURNED


@dataclass(frozen=True, slots=True)
class _Treated:
    """Reduce the d6 with the care bonus to a fate."""

    bonus: int

    def __call__(self, values: tuple[int, ...]) -> Fate:
        return fate_of(values[0] + self.bonus)


def unverified_fate(bonus: int) -> Procedure[Fate]:
    """Roll the d6 for one unverified casualty (SW-REORG-02)."""
    table = _data()["reorganisation"]
    die = parse_die(str(table["die"]))
    reason = msg(
        "steel_war.reorganise.roll",
        die=die,
        bonus=bonus,
        died_max=int(table["died_max"]),
        stabilised_max=int(table["stabilised_max"]),
    )
    fate: Fate = yield Roll(
        die, reason, reduce=_Treated(bonus), roller="owner", rules=("SW-REORG-02", "SW-DMG-11")
    )
    return fate


@dataclass(frozen=True, slots=True)
class ReorganiseOutcome:
    """How many unverified casualties died, were stabilised, returned to the ranks."""

    died: int
    stabilised: int
    returned: int


def reorganise(
    casualties: int, care: Care = Care.NONE, kind: CasualtyKind = CasualtyKind.HUMAN
) -> Procedure[ReorganiseOutcome]:
    """Regroup around the commander and decide every unverified casualty (SW-REORG-01/02)."""
    if casualties < 0:
        raise InputError("casualties: must be 0 or more")
    bonus = care_bonus(care, kind)
    yield emit(
        "steel_war.reorganise.regroup",
        rules=("SW-REORG-01", "SW-ABSENT-09"),
        casualties=casualties,
        bonus=bonus,
    )
    fates: Tally[Fate] = yield Call(unverified_fate, (bonus,), times=casualties)
    outcome = ReorganiseOutcome(fates[Fate.DIED], fates[Fate.STABILISED], fates[Fate.RETURNED])
    yield emit(
        "steel_war.reorganise.result",
        rules="SW-REORG-02",
        died=outcome.died,
        stabilised=outcome.stabilised,
        returned=outcome.returned,
    )
    return outcome
