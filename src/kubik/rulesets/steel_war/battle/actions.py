"""The other actions of an activation: move, go to ground, get up, unsuppress, reorganise,
inspire, «Ни шагу назад!», and the attempt to end a panic.

Each measures what its rule needs, Calls the rule's procedure and applies the result.
"""

from __future__ import annotations

from kubik.engine import Call, Procedure, emit
from kubik.rulesets.steel_war.fire import may_go_to_ground
from kubik.rulesets.steel_war.inspiration import Contact, Inspiration, InspirationOutcome, inspire
from kubik.rulesets.steel_war.morale_levels import MoraleLevel, raise_level
from kubik.rulesets.steel_war.no_step_back import (
    NoStepBackOutcome,
    NoStepBackResult,
    Stand,
    enter_berserk,
    no_step_back_test,
)
from kubik.rulesets.steel_war.panic import PanicEvent, causes_panic
from kubik.rulesets.steel_war.reaction import (
    ReactionAction,
    ReactionOutcome,
    reaction_rules,
    reaction_test,
    reaction_threat,
)
from kubik.rulesets.steel_war.reorganisation import Care, ReorganiseOutcome, reorganise
from kubik.rulesets.steel_war.suppression import UnsuppressOutcome, unsuppress
from kubik.rulesets.steel_war.threat import persistent_threat

from . import carry, effects, field
from .options import Move
from .state import Gone, Squad, Status
from .world import World


def react(squad: Squad, action: ReactionAction) -> Procedure[bool]:
    """A reaction test (SW-REACT-01/02); a failure bars the action for the rest of the turn."""
    outcome: ReactionOutcome = yield Call(
        reaction_test,
        (
            squad.die,
            squad.leadership,
            reaction_threat(action),
            squad.berserk,
            reaction_rules(action),
        ),
    )
    if not outcome.passed:
        squad.failed = squad.failed.add(action)
        yield emit("steel_war.game.reaction_failed", squad=squad.name, action=action)
    return outcome.passed


def move(world: World, squad: Squad, option: Move) -> Procedure[None]:
    """Move the squad's block to the option's point (the way was measured when offered)."""
    if option.test:
        if not (yield from react(squad, ReactionAction(option.test))):
            return
        if option.test == ReactionAction.MOVE_WHILE_DOWN:
            squad.prone = False
    squad.move_to((option.x, option.y))
    squad.marched = squad.marched or option.march
    carry.ride_along(world, squad)
    yield emit(
        "steel_war.game.moved",
        squad=squad.name,
        kind=option.kind,
        inches=option.inches,
        x=option.x,
        y=option.y,
        march=option.march,
    )
    world.update_left_behind(squad)
    at_edge = field.edge_distance_of(world.table, squad.edge, squad.centre)
    reach = field.formation_radius(len(squad.active())) + float(
        field.game_data()["game_edge"]["leave_within_inches"]
    )
    if squad.level in (MoraleLevel.BROKEN, MoraleLevel.FLEEING) and at_edge <= reach:
        yield from effects.remove(squad, Gone.ROUTED)
        return
    yield from effects.check_surrender(world, squad)
    yield from first_sight(world)


def first_sight(world: World) -> Procedure[None]:
    """Untrained troops panic the first time an enemy comes into sight (SW-PANIC-02)."""
    for squad in world.squads:
        if squad.enemy_seen or not squad.present:
            continue
        if not causes_panic(squad.quality, PanicEvent.FIRST_ENEMY_IN_SIGHT, squad.panic_over):
            squad.enemy_seen = True
            continue
        if any(world.sees(squad, e) for e in world.enemies(squad)):
            squad.enemy_seen = True
            yield from effects.panic(world, squad, PanicEvent.FIRST_ENEMY_IN_SIGHT)


def go_to_ground(world: World, squad: Squad) -> Procedure[None]:
    """Going to ground: a reaction test, threat 2 in the open (SW-FIRE-07, SW-REACT-02)."""
    if not may_go_to_ground(world.situation(squad)).allowed:
        yield emit("steel_war.game.no_ground", squad=squad.name)
        return
    action = (
        ReactionAction.GO_TO_GROUND_OTHER
        if world.in_cover(squad)
        else ReactionAction.GO_TO_GROUND_OPEN
    )
    if (yield from react(squad, action)):
        squad.prone = True
        yield emit("steel_war.game.prone", squad=squad.name)


def get_up(squad: Squad) -> Procedure[None]:
    """Getting up costs an action (SW-FIRE-07)."""
    squad.prone = False
    yield emit("steel_war.game.got_up", squad=squad.name)


def rally(squad: Squad) -> Procedure[None]:
    """One unsuppress action: beat leadership to remove a marker (SW-SUP-03)."""
    outcome: UnsuppressOutcome = yield Call(
        unsuppress, (squad.die, squad.leadership, squad.markers, 1)
    )
    squad.markers = outcome.markers
    yield emit("steel_war.game.markers_left", squad=squad.name, markers=squad.markers)


def regroup(world: World, squad: Squad) -> Procedure[None]:
    """Reorganisation: regroup around the commander and decide every unverified casualty
    (SW-REORG-01/02): died, stabilised (out of the battle), or back in the ranks."""
    wounded = squad.with_status(Status.UNVERIFIED)
    care = Care.MEDIC if squad.spec.medic else Care.NONE
    outcome: ReorganiseOutcome = yield Call(reorganise, (len(wounded), care))
    fates = (
        [Status.KILLED] * outcome.died
        + [Status.STABILISED] * outcome.stabilised
        + [Status.ACTIVE] * outcome.returned
    )
    for model, status in zip(wounded, fates, strict=True):
        model.status = status
    squad.move_to(squad.centre)
    world.update_left_behind(squad)
    yield emit(
        "steel_war.game.regrouped",
        squad=squad.name,
        died=outcome.died,
        stabilised=outcome.stabilised,
        returned=outcome.returned,
    )


def inspiration(world: World, officer: Squad, squad: Squad) -> Inspiration:
    """The inspiration attempt as measured: contact (distance, sight, radio) and threat."""
    return Inspiration(
        officer_quality=officer.die,
        officer_leadership=officer.leadership,
        squad_quality=squad.die,
        squad_leadership=squad.leadership,
        threat=persistent_threat(
            squad.motivation,
            unverified=len(squad.with_status(Status.UNVERIFIED)),
            wounded_left_behind=squad.wounded_left_behind,
        ),
        skipped_links=0,
        contact=Contact(
            world.distance(officer, squad),
            world.sees(officer, squad),
            officer.spec.radio and squad.spec.radio,
        ),
        level=squad.level,
        start_level=squad.start_level,
    )


def encourage(world: World, officer: Squad, squad: Squad) -> Procedure[None]:
    """The officer spends an action to inspire one of his squads (SW-MOR-08..10)."""
    outcome: InspirationOutcome = yield Call(inspire, (inspiration(world, officer, squad),))
    if outcome.raised:
        yield from effects.set_level(world, squad, raise_level(squad.level, squad.start_level, 1))


def stand(world: World, squad: Squad) -> Stand:
    """The facts «Ни шагу назад!» checks (SW-NSN-01)."""
    near = world.nearest_enemy(squad)
    return Stand(
        level=squad.level,
        in_cover=world.in_cover(squad),
        gone_to_ground=squad.prone,
        nearest_friend=world.nearest_friend(squad),
        enemy_levels_in_sight=tuple(e.level for e in world.enemies(squad) if world.sees(squad, e)),
        nearest_enemy=near[1] if near else None,
        keno_guard=False,
    )


def no_step_back(world: World, squad: Squad) -> Procedure[None]:
    """The voluntary «Ни шагу назад!» test (SW-NSN-02/03); no action spent."""
    outcome: NoStepBackOutcome = yield Call(no_step_back_test, (stand(world, squad),))
    if outcome.result is NoStepBackResult.BERSERK:
        state = enter_berserk(squad.markers, squad.panicked)
        squad.berserk, squad.markers, squad.panicked = True, state.markers, state.panicked
        yield emit("steel_war.game.berserk", squad=squad.name)
    elif outcome.result is NoStepBackResult.SURRENDERED:
        yield from effects.remove(squad, Gone.SURRENDERED)
    elif outcome.result is NoStepBackResult.SCATTERED:
        yield from effects.remove(squad, Gone.SCATTERED)


__all__ = [
    "encourage",
    "first_sight",
    "get_up",
    "go_to_ground",
    "inspiration",
    "move",
    "no_step_back",
    "rally",
    "react",
    "regroup",
    "stand",
]
