"""Morale after a round of Steel War close combat (SW-CC-09): the side with more
casualties tests first, a threat of one per casualty; a side that fails falls back
(6", as the side charged gives way after a charge, SW-CC-05). A side in «Ни шагу
назад!» takes no test (SW-NSN-03).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from kubik.engine import Call, Procedure, emit
from kubik.engine.applied import record
from kubik.engine.dice import Die
from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war.melee_fighters import Side
from kubik.rulesets.steel_war.melee_round import RoundLosses
from kubik.rulesets.steel_war.morale import morale_test


@cache
def _data() -> Mapping[str, Any]:
    return load_ruleset_data("steel_war")


def fall_back_inches(after_charge: bool) -> int:
    """How far a side gives way: 6" in front of the attackers after a charge (SW-CC-05),
    6" back after a lost round (SW-CC-09).

    >>> fall_back_inches(True), fall_back_inches(False)
    (6, 6)
    """
    record("SW-CC-05" if after_charge else "SW-CC-09")
    return int(_data()["fall_back"]["after_charge" if after_charge else "after_round"])


@dataclass(frozen=True, slots=True)
class SideMorale:
    """What a side's morale test after the round needs: quality die and leadership.

    ``no_step_back``: the side stands in «Ни шагу назад!» and takes no morale test
    (SW-NSN-03): it never falls back, the other side still tests. ``standing``: its men
    still fighting after the round; a side wiped out has nobody to test and is beaten
    when its turn to test comes, while the other side still tests first if it lost more.
    """

    quality: Die
    leadership: int
    no_step_back: bool = False
    standing: int = 1


@dataclass(frozen=True, slots=True)
class RoundMorale:
    """Who fell back after the round (None: the melee goes on next turn) and its morale drop."""

    fell_back: Side | None
    drop: int


def morale_order(losses: RoundLosses) -> tuple[Side, ...]:
    """Who tests after the round, in order (SW-CC-09): more casualties first, then the other.

    >>> [s.value for s in morale_order(RoundLosses(1, 2))]
    ['defender', 'attacker']
    >>> morale_order(RoundLosses(0, 0))
    ()
    """
    table = _data()["round_morale"]
    if losses.attacker == losses.defender:
        if losses.attacker == 0 and not table["test_without_casualties"]:
            return ()
        first = Side(table["tie_first"])
    else:
        first = Side.ATTACKER if losses.attacker > losses.defender else Side.DEFENDER
    return first, first.other


def round_threat(casualties: int) -> int:
    """Threat of the morale test after a round: +1 per own casualty (SW-CC-09).

    >>> round_threat(3)
    3
    """
    return casualties * int(_data()["round_morale"]["threat_per_casualty"])


def round_morale(
    losses: RoundLosses, attacker: SideMorale, defender: SideMorale
) -> Procedure[RoundMorale]:
    """The side with more casualties tests; if it holds, the other tests the same way (SW-CC-09)."""
    sides = {Side.ATTACKER: attacker, Side.DEFENDER: defender}
    for side in morale_order(losses):
        if sides[side].standing <= 0:
            yield emit("steel_war.close_combat.wiped_out", rules="SW-CC-09", side=side)
            return RoundMorale(side, 0)
        if sides[side].no_step_back:
            yield emit(
                "steel_war.close_combat.no_step_back", rules=("SW-NSN-03", "SW-CC-09"), side=side
            )
            continue
        threat = round_threat(losses.of(side))
        yield emit("steel_war.close_combat.morale", rules="SW-CC-09", side=side, threat=threat)
        result = yield Call(
            morale_test, (sides[side].quality, sides[side].leadership, threat, ("SW-CC-09",))
        )
        if result.drop:
            inches = fall_back_inches(after_charge=False)
            yield emit(
                "steel_war.close_combat.falls_back",
                rules=("SW-CC-09", "SW-MOR-01"),
                side=side,
                inches=inches,
            )
            return RoundMorale(side, result.drop)
    yield emit("steel_war.close_combat.continues", rules="SW-CC-09")
    return RoundMorale(None, 0)


__all__ = [
    "RoundMorale",
    "SideMorale",
    "fall_back_inches",
    "morale_order",
    "round_morale",
    "round_threat",
]
