"""Steel War transport: riding on vehicles, embarking, disembarking and unloading cargo.

The rules are distances and action costs, so they are pure functions; the game
layer measures the farthest infantryman and asks (SW-MOVE-04..06).
"""

from __future__ import annotations

from enum import Enum
from functools import cache
from typing import Any

from kubik.data import load_ruleset_data
from kubik.errors import InputError


class TransportAction(Enum):
    """What a squad or a vehicle does with its passengers or cargo."""

    EMBARK = "embark"
    DISEMBARK = "disembark"
    UNLOAD = "unload"  # cargo: e.g. unhitching a towed gun and bringing it into action


class ActionCost(Enum):
    """One of the two actions of an activation, or the whole activation (SW-CORE-04)."""

    ACTION = "action"
    ACTIVATION = "activation"


@cache
def _data() -> dict[str, Any]:
    return load_ruleset_data("steel_war")


def action_cost(action: TransportAction) -> ActionCost:
    """Embarking and disembarking take one action; unloading cargo the whole activation.

    >>> action_cost(TransportAction.EMBARK).value, action_cost(TransportAction.UNLOAD).value
    ('action', 'activation')
    """
    return ActionCost(_data()["activation"]["actions"][action.value]["cost"])


def _check_distance(farthest: float, field: str) -> None:
    if farthest < 0:
        raise InputError(f"{field}: must be 0 or more inches, not {farthest}")


def can_embark(farthest: float) -> bool:
    """Embarking needs the infantryman farthest from the vehicle within 6" of it (SW-MOVE-04).

    >>> can_embark(6), can_embark(6.5)
    (True, False)
    """
    _check_distance(farthest, "farthest")
    return farthest <= float(_data()["transport"]["embark_distance"])


def can_disembark(farthest: float) -> bool:
    """After disembarking the farthest infantryman must be within 6" of the vehicle (SW-MOVE-04).

    >>> can_disembark(5.5), can_disembark(7)
    (True, False)
    """
    _check_distance(farthest, "farthest")
    return farthest <= float(_data()["transport"]["disembark_distance"])


def unloads_with_squad(weapon_id: str) -> bool:
    """Weapons that "count as men" leave the vehicle with their squad, at no cost (SW-MOVE-06).

    >>> unloads_with_squad("light_mortar"), unloads_with_squad("towed_gun")
    (True, False)
    """
    return weapon_id in _data()["man_portable_weapons"]["ids"]


def unloading_cost(weapon_id: str) -> ActionCost | None:
    """Unloading cost: nothing for man-portable weapons, else the whole activation (SW-MOVE-05).

    >>> unloading_cost("hmg") is None, unloading_cost("towed_gun").value
    (True, 'activation')
    """
    if unloads_with_squad(weapon_id):
        return None
    return action_cost(TransportAction.UNLOAD)
