"""Vehicles in a battle: embarking, disembarking, riding, and hits on a vehicle.

The rules are :mod:`kubik.rulesets.steel_war.transport`'s (SW-MOVE-04..06): one
action to embark or disembark, the farthest man within 6" of the vehicle before
embarking and after disembarking, man-portable weapons leave with their squad.
Here the table is measured (the farthest man's edge distance to the vehicle, where
a disembarking block can stand) and the state changes (who rides where). A vehicle
is a one-model unit; the squads inside move with it, unseen, and do not fire.
"""

from __future__ import annotations

import math

from kubik.engine import (
    AnyForecast,
    Forecast,
    Procedure,
    emit,
)
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.fire import FireGroup
from kubik.rulesets.steel_war.fire_absent import heavy_weapon_group
from kubik.rulesets.steel_war.fire_weapons import weapon
from kubik.rulesets.steel_war.suppression import suppression_verdict
from kubik.rulesets.steel_war.transport import can_disembark, may_embark, unloads_with_squad
from kubik.table import TableError, TerrainKind
from kubik.table.geometry import Point
from kubik.table.movement import kind_at

from . import field
from .options import Disembark, Embark
from .profiles import hits_to_destroy, vehicle_profile
from .state import Gone, Squad, Status
from .world import World


def _name(squad: Squad) -> tuple[str, str]:
    return squad.spec.display_name


def carrier(world: World, squad: Squad) -> Squad | None:
    """The vehicle the squad rides in."""
    return None if squad.aboard is None else world.squad(squad.aboard)


def room(world: World, vehicle: Squad) -> int:
    """Men the vehicle can still take (its profile's capacity less its riders)."""
    riders = sum(len(s.active()) for s in world.passengers(vehicle))
    return vehicle_profile(vehicle.spec.vehicle).capacity - riders


def farthest(world: World, squad: Squad, vehicle: Squad) -> float:
    """The edge distance from the vehicle to the squad's farthest man, to 0.1 inch."""
    spot = vehicle.anchor().centre
    return field.inches(max(world.measure.closest([spot], [m.point]) for m in squad.active()))


def embark_options(
    world: World, squad: Squad, done: tuple[ActionType, ...] = ()
) -> list[tuple[Embark, AnyForecast]]:
    """Every friendly vehicle the squad may climb into now (SW-MOVE-04: the rule's
    :func:`~kubik.rulesets.steel_war.transport.may_embark`)."""
    out: list[tuple[Embark, AnyForecast]] = []
    if squad.is_vehicle or squad.aboard is not None or squad.prone:
        return out
    unit = world.situation(squad, done)
    for vehicle in world.friends(squad):
        if not vehicle.is_vehicle:
            continue
        reach = farthest(world, squad, vehicle)
        if not may_embark(unit, reach, room(world, vehicle), len(squad.active())).allowed:
            continue
        en, ru = _name(vehicle)
        out.append((Embark(vehicle.id, en, ru, reach), Forecast(score=0.0)))
    return out


def _fits(world: World, squad: Squad, centre: Point) -> bool:
    """The block can stand at ``centre``: on the table, out of impassable terrain, clear of
    every other unit's men."""
    radius = field.formation_radius(len(squad.active()))
    table = world.table
    if not (
        radius <= centre[0] <= table.width - radius and radius <= centre[1] <= table.height - radius
    ):
        return False
    spots = field.place(centre, len(squad.active()))
    try:
        if any(kind_at(table, p, field.INFANTRY) is TerrainKind.IMPASSABLE for p in spots):
            return False
    except TableError:
        return False
    others = [m.point for s in world.squads if s.on_table for m in s.active()]
    return all(math.dist(p, q) >= field.base_diameter() for p in spots for q in others)


def disembark_point(world: World, squad: Squad, vehicle: Squad) -> Point | None:
    """Where the squad's block stands after getting off: beside the vehicle, away from
    the nearest enemy when there is room, else to a side or in front, always with the
    farthest man within 6" (SW-MOVE-04); None when there is nowhere."""
    gap = float(field.game_data()["game_transport"]["gap_inches"])
    here = vehicle.anchor().centre
    step = field.formation_radius(len(squad.active())) + field.base_diameter() / 2 + gap
    near = world.nearest_enemy(vehicle)
    if near is not None:
        ex, ey = near[0].centre
        angle = math.atan2(here[1] - ey, here[0] - ex)
    else:
        angle = math.atan2(*reversed(_toward_centre(world, here)))
    for turn in (0.0, 0.5, -0.5, 1.0, -1.0):
        a = angle + turn * math.pi
        centre = (
            field.inches(here[0] + step * math.cos(a)),
            field.inches(here[1] + step * math.sin(a)),
        )
        if not _fits(world, squad, centre):
            continue
        spots = field.place(centre, len(squad.active()))
        reach = field.inches(max(world.measure.closest([here], [p]) for p in spots))
        if can_disembark(reach):
            return centre
    return None


def _toward_centre(world: World, at: Point) -> tuple[float, float]:
    return (world.table.width / 2 - at[0], world.table.height / 2 - at[1])


def disembark_options(
    world: World, vehicle: Squad, riders: list[Squad]
) -> list[tuple[Disembark, AnyForecast]]:
    """A Disembark option for each rider that has somewhere to stand; none while the
    vehicle is suppressed (its men may not get out, SW-SUP-01)."""
    if not suppression_verdict(ActionType.DISEMBARK, vehicle.markers, machine=True).allowed:
        return []
    out: list[tuple[Disembark, AnyForecast]] = []
    for squad in riders:
        point = disembark_point(world, squad, vehicle)
        if point is None:
            continue
        en, ru = _name(squad)
        out.append((Disembark(squad.id, en, ru, point[0], point[1]), Forecast(score=0.0)))
    return out


def embark(world: World, squad: Squad, option: Embark) -> Procedure[None]:
    """The squad climbs in: it leaves the table and rides with the vehicle."""
    vehicle = world.squad(option.vehicle)
    squad.aboard = vehicle.id
    squad.move_to(vehicle.centre)
    yield emit(
        "steel_war.game.embarked",
        squad=squad.name,
        vehicle=vehicle.name,
        inches=option.farthest,
    )


def disembark(world: World, squad: Squad, option: Disembark) -> Procedure[None]:
    """The squad gets off, its support weapons with it (SW-MOVE-06)."""
    vehicle = world.squad(squad.aboard) if squad.aboard else None
    squad.aboard = None
    squad.move_to((option.x, option.y))
    portable = tuple(sorted({m.weapon for m in squad.active() if unloads_with_squad(m.weapon)}))
    yield emit(
        "steel_war.game.disembarked",
        squad=squad.name,
        vehicle=vehicle.name if vehicle is not None else squad.name,
        x=option.x,
        y=option.y,
        weapons=len(portable),
    )
    world.update_left_behind(squad)


def ride_along(world: World, vehicle: Squad) -> None:
    """Squads inside a vehicle move with it."""
    for squad in world.passengers(vehicle):
        squad.move_to(vehicle.centre)


def vehicle_group(vehicle: Squad) -> FireGroup:
    """The vehicle's fire: quality + guidance die, its weapon's power (SW-FIRE-02,
    SW-ABSENT-05)."""
    model = vehicle.models[0]
    profile = vehicle_profile(vehicle.spec.vehicle)
    return heavy_weapon_group(vehicle.die, weapon(model.weapon).power, profile.guidance)


def hit_vehicle(world: World, vehicle: Squad, wounded: int, killed: int) -> Procedure[bool]:
    """Apply wounding hits: the first immobilises, the next destroys (SW-ABSENT-05
    default, the robots' rule); a killing hit destroys. Riders bail out of a wreck.

    Returns whether the vehicle was destroyed.
    """
    if not (wounded or killed):
        return False
    vehicle.vehicle_hits += wounded + killed
    destroyed = killed > 0 or vehicle.vehicle_hits >= hits_to_destroy()
    if not destroyed:
        yield emit("steel_war.game.immobilised", vehicle=vehicle.name)
        return False
    yield emit("steel_war.game.vehicle_destroyed", vehicle=vehicle.name)
    for squad in world.passengers(vehicle):
        point = disembark_point(world, squad, vehicle) or vehicle.centre
        squad.aboard = None
        squad.move_to(point)
        yield emit("steel_war.game.bailed_out", squad=squad.name, x=point[0], y=point[1])
    for model in vehicle.active():
        model.status = Status.KILLED
    if vehicle.gone is None:
        vehicle.gone = Gone.DESTROYED
        yield emit("steel_war.game.gone", squad=vehicle.name, why=Gone.DESTROYED)
    return True


__all__ = [
    "Disembark",
    "Embark",
    "carrier",
    "disembark",
    "disembark_options",
    "disembark_point",
    "embark",
    "embark_options",
    "farthest",
    "hit_vehicle",
    "ride_along",
    "room",
    "vehicle_group",
]
