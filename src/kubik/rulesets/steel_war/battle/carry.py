"""Vehicles in a battle: embarking, disembarking, riding, unloading cargo, hits on a vehicle.

The rules are :mod:`kubik.rulesets.steel_war.transport`'s (SW-MOVE-04..06): one
action to embark or disembark — of the squad, or of the vehicle in its own
activation — with the farthest man within 6" of the vehicle before embarking and
after disembarking; man-portable weapons leave with their squad; a towed gun is
unhitched and brought into action by its crew's whole activation (SW-MOVE-05); a
suppressed vehicle lets nobody out (SW-SUP-01). Here the table is measured (the
farthest man's distance to the hull, where a block can stand clear of every other
model) and the state changes (who rides where). A vehicle is a one-model unit on its
hull's footprint; the squads inside move with it, unseen, and do not fire.
"""

from __future__ import annotations

import math

from kubik.engine import Procedure, Verdict, emit
from kubik.game.battle import clear_of
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.damage import TargetKind
from kubik.rulesets.steel_war.defaults import disembark_gap_inches, unload_within_inches
from kubik.rulesets.steel_war.fire_ammo import Ammo
from kubik.rulesets.steel_war.transport import (
    disembark_within_inches,
    may_disembark,
    may_embark,
    may_unload,
    unloads_with_squad,
)
from kubik.rulesets.steel_war.vehicles import hits_to_destroy, vehicle_profile
from kubik.table import Base
from kubik.table.geometry import Point

from . import effects
from .field import Battlefield
from .formation import base_diameter, formation_radius, inches, place
from .options import Disembark, Embark, Unload
from .state import Gone, Model, Squad, Status


def room(game: Battlefield, vehicle: Squad) -> int:
    """Men the vehicle can still take (its profile's capacity less its riders)."""
    riders = sum(len(s.active()) for s in game.passengers(vehicle))
    return vehicle_profile(vehicle.spec.vehicle).capacity - riders


def farthest(game: Battlefield, squad: Squad, vehicle: Squad) -> float:
    """The edge distance from the hull to the squad's farthest model, to 0.1 inch."""
    gap = game.board.gap_from
    return inches(max(gap([m.base()], vehicle) for m in squad.active()))


def embark_verdict(
    game: Battlefield, squad: Squad, vehicle: Squad, done: tuple[ActionType, ...]
) -> Verdict:
    """The transport rule's answer: may ``squad`` climb into ``vehicle`` now (SW-MOVE-04)?"""
    unit = game.situation(squad, done)
    return may_embark(
        unit, farthest(game, squad, vehicle), room(game, vehicle), len(squad.active())
    )


def embark_options(game: Battlefield, squad: Squad) -> list[tuple[Embark, Squad]]:
    """The friendly vehicles near enough to offer climbing in (their verdicts decide)."""
    if squad.is_vehicle or squad.aboard is not None or squad.spec.kind != "infantry":
        return []
    return [
        (Embark(v.id, farthest(game, squad, v)), v)
        for v in game.board.friends(squad)
        if v.is_vehicle and vehicle_profile(v.spec.vehicle).capacity > 0
    ]


def spot_beside(
    game: Battlefield, squad: Squad, vehicle: Squad, *, within: float | None
) -> Point | None:
    """Where the squad's block stands after getting off: beside the hull, away from the
    nearest enemy when there is room, else to a side or in front, with the farthest man
    within ``within`` inches of the hull (the seed's 6", SW-MOVE-04); None when there is
    nowhere."""
    gap = disembark_gap_inches()
    here = vehicle.anchor()
    step = formation_radius(len(squad.active())) + here.radius + gap
    board = game.board
    enemies = [e for e in board.enemies(vehicle) if board.bases_of(e)]
    if enemies:
        near = min(enemies, key=lambda e: board.gap_from([here], e))
        ex, ey = near.centre
        angle = math.atan2(here.y - ey, here.x - ex)
    else:
        angle = math.atan2(game.table.height / 2 - here.y, game.table.width / 2 - here.x)
    for ring in (0.0, 1.0, 2.0):
        for turn in (0.0, 0.5, -0.5, 1.0, -1.0, 0.25, -0.25, 0.75, -0.75):
            a = angle + turn * math.pi
            centre = (
                inches(here.x + (step + ring) * math.cos(a)),
                inches(here.y + (step + ring) * math.sin(a)),
            )
            if not game.board.fits(squad, centre):
                continue
            spots = place(centre, len(squad.active()))
            reach = inches(max(board.gap_from([_probe(p)], vehicle) for p in spots))
            if within is None or reach <= within:
                return centre
    return None


def _probe(point: Point) -> Base:
    return Base(point[0], point[1], base_diameter())


def disembark_options(
    game: Battlefield,
    vehicle: Squad,
    riders: list[Squad],
    acting: Squad,
    done: tuple[ActionType, ...],
) -> list[tuple[Disembark, Verdict]]:
    """A Disembark option for each rider that has somewhere to stand, with the transport
    rule's verdict: the rider's own action, or the vehicle's (SW-MOVE-04); never while
    the vehicle is suppressed (SW-SUP-01)."""
    out: list[tuple[Disembark, Verdict]] = []
    limit = disembark_within_inches()
    vehicle_unit = game.situation(vehicle, done if acting is vehicle else ())
    for squad in riders:
        point = spot_beside(game, squad, vehicle, within=limit)
        if point is None:
            continue
        spots = place(point, len(squad.active()))
        reach = inches(max(game.board.gap_from([_probe(p)], vehicle) for p in spots))
        unit = game.situation(squad, done if acting is squad else ())
        verdict = may_disembark(unit, vehicle_unit, reach, by_vehicle=acting is vehicle)
        out.append((Disembark(squad.id, point[0], point[1]), verdict))
    return out


def embark(game: Battlefield, squad: Squad, option: Embark) -> Procedure[None]:
    """The squad climbs in: it leaves the table and rides with the vehicle."""
    vehicle = game.squad(option.vehicle)
    squad.aboard = vehicle.id
    squad.place_models(vehicle.centre)
    yield emit(
        "steel_war.game.embarked",
        rules=("SW-MOVE-04",),
        squad=game.name(squad.id),
        vehicle=game.name(vehicle.id),
        inches=option.farthest,
    )


def disembark(game: Battlefield, option: Disembark) -> Procedure[None]:
    """The squad gets off where the option says, its man-portable weapons with it at no
    cost (SW-MOVE-04, SW-MOVE-06)."""
    squad = game.squad(option.squad)
    vehicle = game.squad(squad.aboard) if squad.aboard else squad
    squad.aboard = None
    squad.place_models((option.x, option.y))
    portable = [m for m in squad.active() if unloads_with_squad(m.weapon)]
    rules = ("SW-MOVE-04", *(("SW-MOVE-06",) if portable else ()))
    yield emit(
        "steel_war.game.disembarked",
        rules=rules,
        squad=game.name(squad.id),
        vehicle=game.name(vehicle.id),
        x=option.x,
        y=option.y,
        weapons=len(portable),
    )


def unload_options(
    game: Battlefield,
    crew: Squad,
    done: tuple[ActionType, ...],
) -> list[tuple[Unload, Verdict]]:
    """A towed gun on a friendly vehicle the crew stands next to (its farthest man within
    6" of the hull) may be unhitched: the transport rule's verdict (SW-MOVE-05)."""
    if crew.is_vehicle or crew.aboard is not None or not crew.men():
        return []
    reach = unload_within_inches()
    out: list[tuple[Unload, Verdict]] = []
    for vehicle in game.board.friends(crew):
        if not vehicle.is_vehicle or not vehicle.cargo or farthest(game, crew, vehicle) > reach:
            continue
        for cargo in dict.fromkeys(vehicle.cargo):
            verdict = may_unload(game.situation(crew, done), game.situation(vehicle), cargo)
            out.append((Unload(vehicle.id, cargo), verdict))
    return out


def unload(game: Battlefield, crew: Squad, option: Unload) -> Procedure[None]:
    """The crew unhitches the gun and brings it into action beside it: the gun stands as
    one more model of the crew (the man-sized weapons' armour, SW-DMG-07)."""
    vehicle = game.squad(option.vehicle)
    vehicle.cargo.remove(option.cargo)
    gun = Model(
        f"{crew.id}.{option.cargo}.{len(crew.models) + 1}",
        0.0,
        0.0,
        option.cargo,
        TargetKind.MAN_SIZED_WEAPON,
        ammo=Ammo.full(option.cargo),
        diameter=base_diameter(),
    )
    spot = _gun_spot(game, crew, vehicle, gun)
    gun.x, gun.y = spot
    crew.models.append(gun)
    en, ru = crew.spec.display_name
    self_name = (f"{en}, {option.cargo.replace('_', ' ')}", f"{ru}, орудие")
    game.set_name(gun.id, *self_name)
    yield emit(
        "steel_war.game.unloaded",
        rules=("SW-MOVE-05", "SW-CORE-04"),
        squad=game.name(crew.id),
        vehicle=game.name(vehicle.id),
        cargo=option.cargo,
    )


def _gun_spot(game: Battlefield, crew: Squad, vehicle: Squad, gun: Model) -> Point:
    """A clear spot for the gun next to its crew, else next to the vehicle."""
    others = [*game.board.blocking(crew), *game.board.bases_of(crew)]
    for anchor, reach in (
        (crew.centre, formation_radius(len(crew.active()))),
        (vehicle.centre, vehicle.anchor().radius),
    ):
        for ring in (1.0, 2.0, 3.0):
            for k in range(12):
                a = k * math.pi / 6
                x = round(anchor[0] + (reach + ring) * math.cos(a), 1)
                y = round(anchor[1] + (reach + ring) * math.sin(a), 1)
                if not (1 <= x <= game.table.width - 1 and 1 <= y <= game.table.height - 1):
                    continue
                if clear_of([Base(x, y, gun.diameter)], others):
                    return (x, y)
    return crew.centre


def hit_vehicle(
    game: Battlefield, vehicle: Squad, wounded: int, killed: int, by: Squad | None = None
) -> Procedure[bool]:
    """Apply wounding hits: the first immobilises, the next destroys (SW-ABSENT-05
    default, the robots' rule SW-DMG-10); a killing hit destroys. Riders bail out of a
    wreck where there is room, or are lost with it.

    The enemy ``by`` whose fire it was is credited with the wreck and the riders lost in
    it. Returns whether the vehicle was destroyed.
    """
    if not (wounded or killed):
        return False
    vehicle.vehicle_hits += wounded + killed
    destroyed = killed > 0 or vehicle.vehicle_hits >= hits_to_destroy()
    if not destroyed:
        yield emit(
            "steel_war.game.immobilised",
            rules=("SW-ABSENT-05", "SW-DMG-10"),
            vehicle=game.name(vehicle.id),
        )
        return False
    yield emit(
        "steel_war.game.vehicle_destroyed",
        rules=("SW-ABSENT-05", "SW-DMG-10"),
        vehicle=game.name(vehicle.id),
    )
    wreck = vehicle.active()  # (the riders get out beside the hull before it is lost)
    effects.credit(game, by, vehicle, len(wreck))
    for squad in game.passengers(vehicle):
        point = spot_beside(game, squad, vehicle, within=None)
        if point is None:
            effects.credit(game, by, squad, len(squad.active()))
            for model in squad.active():
                model.status = Status.KILLED
            yield emit(
                "steel_war.game.lost_in_wreck", rules=("SW-ABSENT-05",), squad=game.name(squad.id)
            )
            yield from effects.remove(game, squad, Gone.DESTROYED, ("SW-ABSENT-05",))
            continue
        squad.aboard = None
        squad.place_models(point)
        yield emit(
            "steel_war.game.bailed_out",
            rules=("SW-MOVE-04",),
            squad=game.name(squad.id),
            x=point[0],
            y=point[1],
        )
    for model in wreck:
        model.status = Status.DESTROYED
    yield from effects.remove(game, vehicle, Gone.DESTROYED, ("SW-ABSENT-05", "SW-DMG-10"))
    return True


__all__ = [
    "disembark",
    "disembark_options",
    "embark",
    "embark_options",
    "embark_verdict",
    "farthest",
    "hit_vehicle",
    "room",
    "spot_beside",
    "unload",
    "unload_options",
]
