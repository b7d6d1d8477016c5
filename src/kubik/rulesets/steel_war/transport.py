"""Steel War transport: riding on vehicles, embarking, disembarking and unloading cargo.

Infantry or cargo ride a vehicle within its capacity; getting in or out takes one
action, with the farthest man within 6" of the vehicle before embarking and after
disembarking (SW-MOVE-04); unloading cargo — unhitching a gun and bringing it into
action — takes the whole activation (SW-MOVE-05); weapons that count as men leave with
their squad at no cost (SW-MOVE-06). The game layer measures the farthest man and asks.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from kubik.core.errors import InputError
from kubik.engine import Verdict, msg
from kubik.engine.applied import decides
from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war.activation import ActionType, Cost, action_rule
from kubik.rulesets.steel_war.fire_weapons import Special, weapon, weapon_ids
from kubik.rulesets.steel_war.situation import UnitSituation, all_of, basic_verdict
from kubik.rulesets.steel_war.suppression import suppression_verdict


@cache
def _data() -> Mapping[str, Any]:
    return load_ruleset_data("steel_war")


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


@decides("SW-MOVE-06")
def unloads_with_squad(weapon_id: str) -> bool:
    """Weapons that "count as men" leave the vehicle with their squad, at no cost (SW-MOVE-06):
    the weapon table's man-sized ones (SW-DMG-07) and the others the seed names.

    >>> [unloads_with_squad(w) for w in ("hmg", "light_mortar", "towed_gun")]
    [True, True, False]
    """
    if weapon_id in weapon_ids():
        return weapon(weapon_id).has(Special.MAN_SIZED)
    return weapon_id in _data()["man_portable_weapons"]["others"]


def unload_cost(cargo: str) -> Cost | None:
    """What unloading ``cargo`` costs: nothing for weapons that count as men (SW-MOVE-06),
    else the whole activation (SW-MOVE-05).

    >>> unload_cost("hmg") is None, unload_cost("towed_gun")
    (True, <Cost.ACTIVATION: 'activation'>)
    """
    if unloads_with_squad(cargo):
        return None
    return action_rule(ActionType.UNLOAD).cost


@decides()
def may_embark(squad: UnitSituation, farthest: float, room: int, men: int) -> Verdict:
    """May ``squad`` climb into a friendly vehicle (SW-MOVE-04)?

    One action; its farthest man within 6" of the vehicle (``farthest``); the vehicle
    has ``room`` for its ``men``. Not a suppressed squad's action (SW-SUP-01).
    """
    return all_of(
        basic_verdict(squad, ActionType.EMBARK),
        Verdict.of(
            can_embark(farthest),
            msg("steel_war.permission.embark_far", inches=farthest),
            "SW-MOVE-04",
        ),
        Verdict.of(
            men <= room, msg("steel_war.permission.no_room", room=room, men=men), "SW-MOVE-04"
        ),
    )


@decides()
def may_disembark(
    squad: UnitSituation, vehicle: UnitSituation, farthest: float, *, by_vehicle: bool = False
) -> Verdict:
    """May ``squad`` get off ``vehicle`` with its farthest man ``farthest`` inches away
    (SW-MOVE-04)?

    One action — of the squad, or of the vehicle in its own activation (``by_vehicle``:
    the seed's truck moves, then the crew jumps off). A suppressed vehicle may not let
    anyone out (SW-SUP-01). Man-sized weapons leave with the squad (SW-MOVE-06).
    """
    acting = basic_verdict(vehicle if by_vehicle else squad, ActionType.DISEMBARK)
    crew = suppression_verdict(ActionType.DISEMBARK, vehicle.markers, machine=True)
    return all_of(
        acting,
        crew,
        Verdict.of(
            can_disembark(farthest),
            msg("steel_war.permission.disembark_far", inches=farthest),
            "SW-MOVE-04",
        ),
    )


@decides()
def may_unload(crew: UnitSituation, vehicle: UnitSituation, cargo: str) -> Verdict:
    """May ``crew`` unload ``cargo`` from ``vehicle`` — unhitch a gun and bring it into
    action (SW-MOVE-05)?

    The crew's whole activation, untouched; a suppressed vehicle lets nobody out to do
    it (SW-SUP-01). Weapons that count as men need no unloading at all (SW-MOVE-06).
    """
    if unloads_with_squad(cargo):
        return Verdict.forbid(
            msg("steel_war.permission.unloads_with_squad", cargo=cargo), "SW-MOVE-06"
        )
    return all_of(
        basic_verdict(crew, ActionType.UNLOAD),
        suppression_verdict(ActionType.UNLOAD, vehicle.markers, machine=True),
        Verdict.allow("SW-MOVE-05"),
    )
