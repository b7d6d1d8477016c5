"""Squad coherency (целостность отделения): a documented default, not from the seed.

The seed says reorganisation "restores the squad's integrity, everyone regroups
around the commander" (SW-REORG-01) but gives no distance. Default
(SW-ABSENT-09): every model within 2" of another model of its squad and within
6" of the commander. The table layer measures; this module only judges.

>>> coherency_breaches(nearest_neighbour=(1.0, 2.0, 2.5), to_commander=(3.0, 6.0, 4.0))
(2,)
>>> is_coherent((1.0,), (6.5,))
False
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from kubik.core.errors import InputError
from kubik.engine.applied import decides
from kubik.rulesets.data import load_ruleset_data


@cache
def _data() -> dict[str, Any]:
    return dict(load_ruleset_data("steel_war")["coherency"])


@decides("SW-ABSENT-09")
def coherency_breaches(
    nearest_neighbour: Sequence[float], to_commander: Sequence[float]
) -> tuple[int, ...]:
    """Indices of the models out of coherency.

    ``nearest_neighbour[i]``: inches from model i to the closest other model of its
    squad; ``to_commander[i]``: inches from model i to the commander (0 for him).
    """
    if len(nearest_neighbour) != len(to_commander):
        raise InputError(
            f"to_commander: one distance per model ({len(nearest_neighbour)}), "
            f"not {len(to_commander)}"
        )
    neighbour = float(_data()["neighbour_inches"])
    commander = float(_data()["commander_inches"])
    return tuple(
        i
        for i, (near, boss) in enumerate(zip(nearest_neighbour, to_commander, strict=True))
        if near > neighbour or boss > commander
    )


def is_coherent(nearest_neighbour: Sequence[float], to_commander: Sequence[float]) -> bool:
    """Whether every model is in coherency (a one-model squad always is)."""
    if len(nearest_neighbour) == 1 and len(to_commander) == 1 and to_commander[0] == 0:
        return True
    return not coherency_breaches(nearest_neighbour, to_commander)
