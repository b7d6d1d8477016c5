"""The fate of the men lost in Steel War close combat once it is over (SW-CC-10): a d6 for
each — killed, wounded or unhurt — and the loser's unhurt and wounded are taken
prisoner, the winner's wounded are unverified casualties (SW-DMG-11).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import Any

from kubik.engine import Call, Procedure, Roll, Tally, emit, msg
from kubik.engine.dice import parse_die
from kubik.rulesets.data import DataError, load_ruleset_data


@cache
def _data() -> Mapping[str, Any]:
    return load_ruleset_data("steel_war")


class CasualtyFate(Enum):
    """What became of a man lost in close combat (SW-CC-10)."""

    KILLED = "killed"
    WOUNDED = "wounded"
    UNHURT = "unhurt"


def fate_table(table: dict[str, Any]) -> dict[int, CasualtyFate]:
    """Face → fate; every face of the die must have exactly one fate (SW-CC-10).

    >>> fate_table({"die": "d6", "killed": [1, 2], "wounded": [3, 4], "unhurt": [5, 6]})[5].value
    'unhurt'
    """
    die = parse_die(str(table["die"]))
    faces: dict[int, CasualtyFate] = {}
    for fate in CasualtyFate:
        for face in table[fate.value]:
            if face in faces:
                raise DataError(
                    f"melee_casualty_fate.{fate.value}: face {face} already means "
                    f"{faces[face].value}"
                )
            faces[int(face)] = fate
    missing = [v for v in die.values if v not in faces]
    if missing:
        raise DataError(f"melee_casualty_fate: faces {missing} of the {die.name} have no fate")
    return faces


@cache
def _fates() -> dict[int, CasualtyFate]:
    return fate_table(_data()["melee_casualty_fate"])


def casualty_fate_of(roll: int) -> CasualtyFate:
    """The fate of a melee casualty for this d6 roll (SW-CC-10).

    >>> [casualty_fate_of(r).value for r in (2, 3, 6)]
    ['killed', 'wounded', 'unhurt']
    """
    return _fates()[roll]


def casualty_fate() -> Procedure[CasualtyFate]:
    """Roll the d6 for one man lost in close combat (SW-CC-10)."""
    die = parse_die(str(_data()["melee_casualty_fate"]["die"]))
    fate: CasualtyFate = yield Roll(
        die,
        msg("steel_war.melee_casualties.roll"),
        reduce=_fate_of_values,
        roller="owner",
        rules="SW-CC-10",
    )
    return fate


def _fate_of_values(values: tuple[int, ...]) -> CasualtyFate:
    return casualty_fate_of(values[0])


@dataclass(frozen=True, slots=True)
class CasualtiesOutcome:
    """What became of one side's melee casualties (SW-CC-10)."""

    killed: int
    returned: int  # unhurt men back in the ranks (winner only)
    unverified: int  # wounded men of the winner: unverified casualties (SW-DMG-11)
    prisoners: int  # the loser's unhurt and wounded


def settle_casualties(fates: Tally[CasualtyFate], won: bool) -> CasualtiesOutcome:
    """Sort the fates by who won: the loser's unhurt and wounded are taken prisoner (SW-CC-10).

    >>> f = Tally([CasualtyFate.KILLED, CasualtyFate.WOUNDED, CasualtyFate.UNHURT])
    >>> settle_casualties(f, won=False)
    CasualtiesOutcome(killed=1, returned=0, unverified=0, prisoners=2)
    """
    table = _data()["prisoners"]

    def count(names: list[str]) -> int:
        return sum(fates[CasualtyFate(n)] for n in names)

    killed = fates[CasualtyFate.KILLED]
    if won:
        return CasualtiesOutcome(
            killed, count(table["winner_returns"]), count(table["winner_unverified"]), 0
        )
    return CasualtiesOutcome(killed, 0, 0, count(table["loser"]))


def melee_casualties(casualties: int, won: bool) -> Procedure[CasualtiesOutcome]:
    """Roll a d6 for every man a side lost once the melee is over (SW-CC-10)."""
    fates: Tally[CasualtyFate] = yield Call(casualty_fate, (), times=casualties)
    outcome = settle_casualties(fates, won)
    yield emit(
        "steel_war.melee_casualties.result",
        rules=("SW-CC-10", *(("SW-DMG-11",) if outcome.unverified else ())),
        killed=outcome.killed,
        returned=outcome.returned,
        unverified=outcome.unverified,
        prisoners=outcome.prisoners,
    )
    return outcome


__all__ = [
    "CasualtiesOutcome",
    "CasualtyFate",
    "casualty_fate",
    "casualty_fate_of",
    "fate_table",
    "melee_casualties",
    "settle_casualties",
]
