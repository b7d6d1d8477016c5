"""Charges and close combat in a battle (SW-CC-01..11): measure, Call the rules, apply.

A charge is declared against a squad in reach; :func:`~kubik.rulesets.steel_war.charge.charge`
rolls the enhanced reaction test and the combat moves, with the defender's free fire
(:func:`.shooting.fire` with ``free``) if the first move falls short. A charge that
reaches puts the defender to its morale test; a squad that stands fights rounds of
:func:`~kubik.rulesets.steel_war.melee.melee_round` until one side falls back, then
every man lost rolls for his fate (SW-CC-10).
"""

from __future__ import annotations

import itertools
import math

from kubik.dice import Die
from kubik.engine import Call, Procedure, emit
from kubik.rulesets.steel_war.charge import (
    ChargeOutcome,
    DefenderMoraleOutcome,
    DefensiveFire,
    charge,
    charged_squad_threat,
    defender_morale,
    defender_rules,
    is_frightening,
)
from kubik.rulesets.steel_war.fire import FireOutcome
from kubik.rulesets.steel_war.melee import (
    Bout,
    CasualtiesOutcome,
    Fighter,
    RoundLosses,
    RoundMorale,
    Side,
    SideMorale,
    fall_back_inches,
    melee_casualties,
    melee_round,
    pair_fighters,
    round_morale,
)
from kubik.rulesets.steel_war.movement import TerrainClass
from kubik.rulesets.steel_war.panic import PanicEvent

from . import effects, field, shooting
from .state import Squad, Status
from .world import World


def charge_terrain(world: World, attacker: Squad, defender: Squad) -> TerrainClass:
    """The class of the ground the charge crosses (the worst on the way, SW-MOVE-02)."""
    clearance = field.formation_radius(len(attacker.active()))
    way = world.measure.route(attacker.centre, defender.centre, clearance)
    if way is None:
        return TerrainClass.IMPASSABLE
    return world.measure.worst_class(way, clearance)


def fighters(squad: Squad, named: bool = True) -> list[tuple[str, Die]]:
    """Each fighting man and his own melee die: the squad's quality die stepped up for his
    weapon and the squad's bayonets (SW-CC-07); unnamed for a forecast."""
    return [
        (m.id if named else "", Fighter(squad.die, m.weapon, cold_weapon=squad.spec.bayonets).die())
        for m in squad.active()
    ]


def bouts(attacker: Squad, defender: Squad, named: bool = True) -> tuple[Bout, ...]:
    """The default pairing of the two squads' men, each with his own die (SW-CC-06/07)."""
    return pair_fighters(fighters(attacker, named), fighters(defender, named))


def frightening(squad: Squad) -> bool:
    """«Страшные» by the rule (SW-CC-11): flagged in the scenario, or berserk."""
    return is_frightening(squad.spec.frightening, berserk=squad.berserk)


def defender_threat(attacker: Squad, defender: Squad) -> int:
    """The charged squad's threat by the rule (SW-CC-05), as the squads stand now."""
    return charged_squad_threat(
        len(attacker.active()),
        len(defender.active()),
        defender.motivation,
        unverified=len(defender.with_status(Status.UNVERIFIED)),
        wounded_left_behind=defender.wounded_left_behind,
        frightening=frightening(attacker),
    )


def assault(world: World, attacker: Squad, defender: Squad) -> Procedure[None]:
    """Declare «атакую!» and play the charge through (the whole activation)."""
    distance = world.distance(attacker, defender)
    terrain = charge_terrain(world, attacker, defender)
    yield emit(
        "steel_war.game.charge",
        attacker=attacker.name,
        defender=defender.name,
        distance=distance,
        terrain=terrain,
    )

    def free_fire() -> Procedure[FireOutcome]:
        return (yield from shooting.fire(world, defender, attacker, free=True))

    outcome: ChargeOutcome = yield Call(
        charge,
        (
            attacker.die,
            attacker.leadership,
            attacker.level,
            distance,
            terrain,
            DefensiveFire(free_fire, ()),
        ),
    )
    if not outcome.declared:
        yield emit("steel_war.game.charge_refused", squad=attacker.name)
        return
    if outcome.suppressed:
        placed, _ = effects.place_marker(attacker)
        yield emit("steel_war.game.charge_repulsed", squad=attacker.name, markers=attacker.markers)
        del placed
        return
    if not outcome.reached:
        yield emit("steel_war.game.charge_short", squad=attacker.name)
        return
    contact(world, attacker, defender)
    yield emit("steel_war.game.contact", attacker=attacker.name, defender=defender.name)
    if frightening(attacker):
        yield from effects.panic(world, defender, PanicEvent.FRIGHTENING_CHARGE)
    if not defender.present:
        return
    if not defender.berserk:
        threat = defender_threat(attacker, defender)
        stand: DefenderMoraleOutcome = yield Call(
            defender_morale,
            (defender.die, defender.leadership, threat, defender_rules(frightening(attacker))),
        )
        if not stand.melee:
            yield from effects.drop_levels(world, defender, stand.drop)
            yield from fall_back(world, defender, attacker, after_charge=True)
            return
    attacker.melee_with, defender.melee_with = defender.id, attacker.id
    attacker.attacking, defender.attacking = True, False
    yield from melee(world, attacker, defender)


def contact(world: World, attacker: Squad, defender: Squad) -> None:
    """Move the attackers up to the defenders (their blocks touching)."""
    reach = field.formation_radius(len(attacker.active())) + field.formation_radius(
        len(defender.active())
    )
    clearance = field.formation_radius(len(attacker.active()))
    way = world.measure.route(attacker.centre, defender.centre, clearance)
    if way is None:
        return
    length = sum(math.dist(p, q) for p, q in itertools.pairwise(way))
    end = field.truncate(way, max(length - reach, 0.0))[-1]
    attacker.move_to(end)


def fall_back(
    world: World, squad: Squad, away_from: Squad, *, after_charge: bool
) -> Procedure[None]:
    """The squad gives way 6 inches straight back from the enemy (SW-CC-05, SW-CC-09)."""
    distance = float(fall_back_inches(after_charge))
    dx, dy = squad.centre[0] - away_from.centre[0], squad.centre[1] - away_from.centre[1]
    norm = math.hypot(dx, dy) or 1.0
    clearance = field.formation_radius(len(squad.active()))
    goal = field.clamp_inside(
        world.table,
        (squad.centre[0] + dx / norm * distance, squad.centre[1] + dy / norm * distance),
        clearance,
    )
    way = world.measure.route(squad.centre, goal, clearance)
    if way is not None:
        squad.move_to(field.truncate(way, distance)[-1])
    yield emit("steel_war.game.fell_back", squad=squad.name, inches=distance)
    world.update_left_behind(squad)


def _lose(squad: Squad, fallen: tuple[str, ...]) -> None:
    """Mark the fighters who fell in the round (their bouts name them, SW-CC-08)."""
    for model in squad.active():
        if model.id in fallen:
            model.status = Status.MELEE_LOST


def melee(world: World, attacker: Squad, defender: Squad) -> Procedure[None]:
    """One round of close combat and what follows it (SW-CC-06..10)."""
    a, d = len(attacker.active()), len(defender.active())
    if a == 0 or d == 0:
        yield from end_melee(
            world, attacker, defender, Side.ATTACKER if a == 0 else Side.DEFENDER, 0
        )
        return
    yield emit("steel_war.game.melee", attacker=attacker.name, defender=defender.name, a=a, d=d)
    losses: RoundLosses = yield Call(melee_round, (bouts(attacker, defender),))
    _lose(attacker, losses.fallen)
    _lose(defender, losses.fallen)
    morale: RoundMorale = yield Call(
        round_morale,
        (
            losses,
            SideMorale(
                attacker.die,
                attacker.leadership,
                no_step_back=attacker.berserk,
                standing=len(attacker.active()),
            ),
            SideMorale(
                defender.die,
                defender.leadership,
                no_step_back=defender.berserk,
                standing=len(defender.active()),
            ),
        ),
    )
    if morale.fell_back is None:
        yield emit("steel_war.game.melee_goes_on", attacker=attacker.name, defender=defender.name)
        return
    yield from end_melee(world, attacker, defender, morale.fell_back, morale.drop)


def end_melee(
    world: World, attacker: Squad, defender: Squad, loser_side: Side, drop: int
) -> Procedure[None]:
    """The melee is over: the loser drops and falls back, every man lost rolls his fate."""
    squads = {Side.ATTACKER: attacker, Side.DEFENDER: defender}
    loser, winner = squads[loser_side], squads[loser_side.other]
    attacker.melee_with = defender.melee_with = None
    attacker.attacking = defender.attacking = False
    yield emit("steel_war.game.melee_over", winner=winner.name, loser=loser.name)
    for squad, won in ((winner, True), (loser, False)):
        lost = squad.with_status(Status.MELEE_LOST)
        if not lost:
            continue
        fates: CasualtiesOutcome = yield Call(melee_casualties, (len(lost), won))
        plan = (
            [Status.KILLED] * fates.killed
            + [Status.ACTIVE] * fates.returned
            + [Status.UNVERIFIED] * fates.unverified
            + [Status.PRISONER] * fates.prisoners
        )
        for model, status in zip(lost, plan, strict=True):
            model.status = status
        squad.move_to(squad.centre)
    if loser.present:
        yield from effects.drop_levels(world, loser, drop)
        if loser.present:
            yield from fall_back(world, loser, winner, after_charge=False)
    for squad in (winner, loser):
        world.update_left_behind(squad)
        yield from effects.check_destroyed(squad)


__all__ = [
    "assault",
    "bouts",
    "charge_terrain",
    "defender_threat",
    "fall_back",
    "fighters",
    "frightening",
    "melee",
]
