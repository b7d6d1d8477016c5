"""Fire actions in a battle: which weapons fire, the situation measured, and the aftermath.

The shooter fires every weapon that reaches the target and has not fired this
activation (SW-FIRE-05, SW-FIRE-11), composed into one pool by the fire rules
(SW-FIRE-02..04, 13). The target's range die comes from the measured distance,
its going to ground and its cover (SW-FIRE-09). :func:`kubik.rulesets.steel_war.fire.fire_action`
resolves it; here the outcome lands on real models and the morale consequences follow.
"""

from __future__ import annotations

from dataclasses import dataclass

from kubik.engine import Call, Procedure, emit
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.fire import (
    Effect,
    FireGroup,
    FireOutcome,
    FireTarget,
    compose_group,
    fire_action,
    in_range,
    max_zone,
    range_zone,
)
from kubik.rulesets.steel_war.fire import fire_target as rule_fire_target
from kubik.rulesets.steel_war.fire import may_shoot as rule_may_shoot
from kubik.rulesets.steel_war.fire_weapons import weapon
from kubik.rulesets.steel_war.panic import PanicEvent
from kubik.rulesets.steel_war.situation import UnitSituation
from kubik.rulesets.steel_war.threat import Trigger

from . import carry, effects
from .state import Squad
from .world import Sight, World


@dataclass(frozen=True, slots=True)
class FirePlan:
    """A fire action ready to roll: the pool, the target's die, and who fires."""

    group: FireGroup
    target: FireTarget
    shooters: tuple[str, ...]  # model ids whose weapons fire


def may_shoot(
    world: World,
    shooter: Squad,
    target: Squad,
    done: tuple[ActionType, ...] = (),
    unit: UnitSituation | None = None,
) -> bool:
    """The fire rule's own answer (:func:`kubik.rulesets.steel_war.fire.may_shoot`):
    suppression (SW-SUP-01), the morale level (SW-MOR-01), the activation, marching.
    ``unit``: the shooter's situation when the caller has it already."""
    unit = unit if unit is not None else world.situation(shooter, done)
    return rule_may_shoot(unit, target_shot_at_us=target.id in shooter.shot_by).allowed


def plan_fire(shooter: Squad, target: Squad, sight: Sight) -> FirePlan | None:
    """The fire action ``shooter`` can make at ``target`` now, or None if nothing reaches."""
    if not sight.visible or range_zone(shooter.die, sight.distance) > max_zone():
        return None
    counts: dict[str, int] = {}
    shooters: list[str] = []
    for model in shooter.active():
        w = weapon(model.weapon)
        if not shooter.fired.may_fire(model.id, model.weapon):
            continue
        if model.ammo is not None and not model.ammo.can_fire:
            continue
        if not in_range(w, shooter.die, sight.distance):
            continue
        counts[model.weapon] = counts.get(model.weapon, 0) + 1
        shooters.append(model.id)
    if not counts:
        return None
    if shooter.is_vehicle:
        group = carry.vehicle_group(shooter)
    else:
        group = compose_group(shooter.die, [(weapon(w), n) for w, n in counts.items()])
    fire_target = rule_fire_target(
        shooter.die,
        sight.distance,
        target.prone,
        sight.cover,
        target.armour,
        len(target.active()),
        target.spec.flak_vest,
    )
    return FirePlan(group, fire_target, tuple(shooters))


def fire(
    world: World, shooter: Squad, target: Squad, *, free: bool = False
) -> Procedure[FireOutcome]:
    """One fire action at ``target``: measure, Call the fire rule, apply the outcome.

    ``free``: the defender's free fire at a charge that fell short — it cannot
    suppress, only casualties count, and the charge's own test follows (SW-CC-04).
    """
    sight = world.sight(shooter, target)
    plan = plan_fire(shooter, target, sight)
    if plan is None:
        yield emit("steel_war.game.no_fire", shooter=shooter.name, target=target.name)
        return FireOutcome(Effect.NONE, 0, 0, 0)
    yield emit(
        "steel_war.game.fire",
        shooter=shooter.name,
        target=target.name,
        distance=sight.distance,
        cover=sight.cover,
        prone=target.prone,
        dice=plan.group.pool,
        range_die=plan.target.range_die,
        models=plan.target.models,
    )
    for model_id in plan.shooters:
        shooter.fired = shooter.fired.fired(model_id)
        model = shooter.model(model_id)
        if model.ammo is not None and model.ammo.shots_left is not None:
            model.ammo = model.ammo.fire()
    if shooter.id not in target.shot_by:
        target.shot_by.append(shooter.id)
    outcome: FireOutcome = yield Call(fire_action, (plan.group, plan.target))
    yield from aftermath(world, shooter, target, outcome, sight, plan.group.sniper, free=free)
    return outcome


def aftermath(
    world: World,
    shooter: Squad,
    target: Squad,
    outcome: FireOutcome,
    sight: Sight,
    sniper: bool,
    *,
    free: bool = False,
) -> Procedure[None]:
    """Markers, casualties on real models, a new commander, the morale test, panic."""
    triggers: list[Trigger] = []
    if outcome.effect is not Effect.NONE and not free:
        placed, first = effects.place_marker(target)
        if placed:
            yield emit("steel_war.game.marker", squad=target.name, markers=target.markers)
        if first:
            triggers.append(Trigger.FIRST_SUPPRESSED)
    if outcome.effect is Effect.HITS and target.is_vehicle:
        if (yield from carry.hit_vehicle(world, target, outcome.wounded, outcome.killed)):
            return
        if outcome.wounded or outcome.killed:
            triggers.append(Trigger.CASUALTIES)
    elif outcome.effect is Effect.HITS:
        before = len(target.active())
        lost, commander_lost = yield from effects.wound_or_kill(
            target,
            outcome.hits,
            outcome.wounded,
            outcome.killed,
            sight.in_cover,
            sniper,
            shooter.side,
        )
        if lost:
            triggers.append(Trigger.CASUALTIES)
            if lost > before - lost:
                triggers.append(Trigger.MORE_LOST_THAN_REMAIN)
        if commander_lost:
            triggers.append(Trigger.COMMANDER_LOST)
            yield from effects.new_commander(target)
        world.update_left_behind(target)
        yield from effects.check_destroyed(target)
    if free:
        return
    yield from effects.morale_check(world, target, triggers)
    first_time = not target.ever_shot_at
    target.ever_shot_at = True
    if first_time:
        yield from effects.panic(world, target, PanicEvent.FIRST_SHOT_AT)


__all__ = ["FirePlan", "aftermath", "fire", "may_shoot", "plan_fire"]
