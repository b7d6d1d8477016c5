"""Fire actions in a battle: which weapons fire, the situation measured, hits on real models.

A squad may split its weapons between fire actions and targets as it likes
(SW-FIRE-05): each option fires a chosen set of weapon types — everything that may
fire, a support weapon (or a sniper rifle) alone, the small arms alone — composed
into one pool by the fire rules (:func:`~kubik.rulesets.steel_war.fire.compose_group`,
SW-FIRE-02..04, 13, 14). Which weapons may join is
:func:`~kubik.rulesets.steel_war.fire.may_fire_weapon`'s (once an activation, twice
for a heavy weapon set up on the ground; ammunition; reach). The target's range die
comes from the measured distance, its going to ground and its cover (SW-FIRE-09).
:func:`~kubik.rulesets.steel_war.fire.fire_on_models` resolves the fire in the seed's
order — every hit allocated to a model, exposed ones first, then each model's own
armour test — and the results land on those models; a Keno backpack flamethrower hit
explodes (SW-DMG-09); then markers, morale and panic follow.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from kubik.engine import Call, Procedure, Verdict, emit, msg
from kubik.engine.applied import deciding_cache
from kubik.engine.dice import Die
from kubik.game.battle import Moment, Trigger
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.damage import HitEffect, TargetKind, armour_die, explosion_radius
from kubik.rulesets.steel_war.damage_models import ModelHit, TargetModel, explosion_hits
from kubik.rulesets.steel_war.fire import (
    Effect,
    FireGroup,
    FireOutcome,
    FireTarget,
    ModelsFireOutcome,
    compose_group,
    fire_action,
    fire_on_models,
    fire_target,
    max_zone,
    may_fire_weapon,
    may_shoot,
    range_zone,
)
from kubik.rulesets.steel_war.fire_absent import heavy_weapon_group
from kubik.rulesets.steel_war.fire_ammo import Ammo
from kubik.rulesets.steel_war.fire_weapons import Special, WeaponKind, weapon
from kubik.rulesets.steel_war.observation import gives_away

from . import effects
from .board import Battlefield, Sight
from .effects import Losses
from .entry import measured_cover, measured_distance, measured_sight
from .profiles import vehicle_profile
from .state import Model, Squad


@dataclass(frozen=True, slots=True)
class FirePlan:
    """A fire action ready to roll: the pool, the target's die, who fires, and whether
    it is a part of what could fire (the rest held for another fire, SW-FIRE-05)."""

    group: FireGroup
    target: FireTarget
    shooters: tuple[str, ...]
    part: bool = False
    again: bool = False  # a ground-mounted heavy weapon firing a second time


def shoot_verdict(
    game: Battlefield,
    squad: Squad,
    done: tuple[ActionType, ...] = (),
    *,
    passed: bool = False,
    shot_at_us: bool = False,
) -> Verdict:
    """:func:`~kubik.rulesets.steel_war.fire.may_shoot`'s answer for ``squad`` now, asked
    once per menu (every enemy, every observation and charge asks it again)."""
    unit = game.situation(squad, done, passed=passed)
    return game.kept(
        ("may_shoot", squad.id, done, passed, shot_at_us),
        functools.partial(may_shoot, unit, target_shot_at_us=shot_at_us),
    )


def ground_mounted(squad: Squad, model: Model) -> bool:
    """A heavy weapon of infantry stands on the ground (not on a vehicle, SW-FIRE-05)."""
    return not squad.is_vehicle and weapon(model.weapon).has(Special.GROUND_HEAVY)


#: A model with a weapon, and what its weapon's verdict reads besides the distance: the
#: weapon, the times it fired, whether it stands on the ground, its ammunition.
Armed = tuple[Model, tuple[str, int, bool, Ammo | None]]


def armed(squad: Squad) -> list[Armed]:
    """The squad's models whose weapons could fire (a man-sized weapon needs a man of the
    squad to serve it), each with what :func:`ready` asks about it at any distance."""
    vehicle = squad.is_vehicle
    crew: bool | None = True if vehicle else None  # (looked for at a man-sized weapon)
    shots = squad.fired
    out: list[Armed] = []
    alike: dict[tuple[str, int, bool, Ammo | None], tuple[str, int, bool, Ammo | None]] = {}
    for model in squad.active():
        arms = model.weapon
        if not arms:
            continue
        if model.kind is TargetKind.MAN_SIZED_WEAPON:
            if crew is None:
                crew = bool(squad.men())
            if not crew:
                continue
        # (on the ground: :func:`ground_mounted`, the weapon's special read once)
        key = (arms, shots.times(model.id), not vehicle and _ground_heavy(arms), model.ammo)
        out.append((model, alike.setdefault(key, key)))  # (models alike: one key object)
    return out


@functools.lru_cache(maxsize=256)  # (one answer per weapon of the data)
def _ground_heavy(weapon_id: str) -> bool:
    """Whether the weapon is a heavy weapon set up on the ground by infantry (its data)."""
    return weapon(weapon_id).has(Special.GROUND_HEAVY)


def ready(squad: Squad, distance: float, models: list[Armed] | None = None) -> list[Model]:
    """The squad's models whose weapons may join a fire at ``distance`` now (the rule's
    :func:`~kubik.rulesets.steel_war.fire.may_fire_weapon`); a man-sized weapon needs a
    man of the squad to serve it. ``models``: :func:`armed`'s answer, when the caller has
    it (a menu asks at every enemy's distance)."""
    out = []
    asked: dict[int, bool] = {}  # models alike share one key (:func:`armed`): one answer
    die = squad.die
    for model, key in armed(squad) if models is None else models:
        may = asked.get(id(key))  # (the keys live in ``models`` meanwhile: ids their own)
        if may is None:
            weapon_id, fired, mounted, ammo = key
            may = asked[id(key)] = _may_fire(weapon_id, die, distance, fired, mounted, ammo)
        if may:
            out.append(model)
    return out


@deciding_cache(4096)
def _may_fire(
    weapon_id: str, quality: Die, distance: float, fired: int, mounted: bool, ammo: Ammo | None
) -> bool:
    """:func:`~kubik.rulesets.steel_war.fire.may_fire_weapon`'s answer, asked once per
    weapon, quality, distance and state (every menu asks it of every model alike)."""
    verdict = may_fire_weapon(
        weapon(weapon_id), quality, distance, fired=fired, ground_mounted=mounted, ammo=ammo
    )
    return verdict.allowed


def choices(squad: Squad, distance: float, can: list[Model] | None = None) -> list[tuple[str, ...]]:
    """The sets of weapon types a fire at ``distance`` may use: all that may fire, the
    small arms alone, each support weapon or sniper rifle alone (SW-FIRE-04/05/14);
    ``can``: :func:`ready`'s answer, when the caller has it."""
    models = ready(squad, distance) if can is None else can
    kinds = tuple(dict.fromkeys(m.weapon for m in models))
    if not kinds:
        return []
    if squad.is_vehicle:
        return [kinds]
    found = [kinds]
    small = tuple(k for k in kinds if weapon(k).kind is WeaponKind.SMALL_ARMS)
    alone = [
        k for k in kinds if weapon(k).kind is WeaponKind.SUPPORT or weapon(k).has(Special.SNIPER)
    ]
    if small and len(small) < len(kinds):
        found.append(tuple(k for k in small if not weapon(k).has(Special.SNIPER)) or small)
    for kind in alone:
        if (kind,) not in found:
            found.append((kind,))
    return [c for i, c in enumerate(found) if c and c not in found[:i]]


def plan_fire(
    game: Battlefield,
    shooter: Squad,
    target: Squad,
    sight: Sight,
    weapons: tuple[str, ...],
    can: list[Model] | None = None,
) -> FirePlan | None:
    """The fire action ``shooter`` can make at ``target`` now with ``weapons``, or None if
    none of them may fire (out of reach, fired already, out of ammunition); ``can``:
    :func:`ready`'s answer at the sight's distance, when the caller has it."""
    if not sight.visible or not in_zone(shooter, sight.distance):
        return None
    if can is None:
        can = ready(shooter, sight.distance)
    firing = [m for m in can if m.weapon in weapons]
    if not firing:
        return None
    if shooter.is_vehicle:
        profile = vehicle_profile(shooter.spec.vehicle)
        group = heavy_weapon_group(shooter.die, weapon(firing[0].weapon).power, profile.guidance)
    else:
        counts: dict[str, int] = {}
        for model in firing:
            counts[model.weapon] = counts.get(model.weapon, 0) + 1
        group = _composed(shooter.die, tuple(counts.items()))
    if target.is_vehicle:
        armour, models, vest = vehicle_profile(target.spec.vehicle).armour, 1, False
    else:
        armour, models, vest = armour_of(target), len(target.active()), target.spec.flak_vest
    aim = fire_target(shooter.die, sight.distance, target.prone, sight.cover, armour, models, vest)
    shots = shooter.fired
    again = bool(shots.shots) and any(shots.times(m.id) > 0 for m in firing)
    return FirePlan(group, aim, tuple(m.id for m in firing), len(firing) < len(can), again)


def in_zone(shooter: Squad, distance: float) -> bool:
    """Whether a target ``distance`` inches off is within the last zone ``shooter`` may
    fire into (SW-FIRE-06): beyond it no fire at it is planned (:func:`plan_fire`)."""
    return range_zone(shooter.die, distance) <= max_zone()


@deciding_cache(1024)
def _composed(quality: Die, counts: tuple[tuple[str, int], ...]) -> FireGroup:
    """:func:`~kubik.rulesets.steel_war.fire.compose_group` of these weapons, asked once:
    a menu's fires at every enemy use the same few pools (one group a pool, so the
    odds of its forecasts are found by identity)."""
    return compose_group(quality, [(weapon(w), n) for w, n in counts])


def armour_of(squad: Squad) -> Die:
    """The armour die most of the squad's models roll (SW-DMG-04): what a forecast of a
    fire at it assumes; the fire itself rolls each model's own."""
    kinds = [m.kind for m in squad.active() if m.kind is not None]
    if not kinds:
        return armour_die(TargetKind.MAN)
    return armour_die(max(dict.fromkeys(kinds), key=kinds.count))


def target_models(game: Battlefield, target: Squad, sight: Sight) -> tuple[TargetModel, ...]:
    """The target's models as the armour rules see them, each with its own cover."""
    return tuple(
        effects.target_model(target, m, covered, game.name(m.id))
        for m, covered in zip(target.active(), sight.in_cover, strict=True)
    )


def fire(
    game: Battlefield,
    shooter: Squad,
    target: Squad,
    weapons: tuple[str, ...],
    *,
    free: bool = False,
) -> Procedure[FireOutcome]:
    """One fire action at ``target``: measure, Call the fire rule, apply the outcome.

    ``free``: the defender's free fire at a charge that fell short — outside its own
    activation, it cannot suppress, only casualties count (SW-CC-04)."""
    sight = yield from measured_sight_of(game, shooter, target)
    plan = plan_fire(game, shooter, target, sight, weapons) if sight.visible else None
    if plan is None:
        yield emit(
            "steel_war.game.no_fire",
            rules=("SW-FIRE-11",),
            shooter=game.name(shooter.id),
            target=game.name(target.id),
        )
        return FireOutcome(Effect.NONE, 0, 0, 0)
    rules = list(plan.group.rules)
    if plan.part or plan.again or shooter.fired.shots:
        rules.append("SW-FIRE-05")
    if any(_limited(shooter.model(m)) for m in plan.shooters):
        rules.append("SW-FIRE-15")
    if free:
        rules.append("SW-CC-04")
    yield emit(
        "steel_war.game.fire",
        rules=tuple(dict.fromkeys(rules)),
        shooter=game.name(shooter.id),
        target=game.name(target.id),
        distance=sight.distance,
        cover=sight.cover,
        prone=target.prone,
        dice=plan.group.pool,
        range_die=plan.target.range_die,
    )
    for model_id in plan.shooters:
        shooter.fired = shooter.fired.fired(model_id)
        model = shooter.model(model_id)
        if model.ammo is not None and model.ammo.shots_left is not None:
            model.ammo = model.ammo.fire()
    if gives_away(ActionType.SHOOT):
        shooter.revealed = True
    if shooter.id not in target.shot_by:
        target.shot_by.append(shooter.id)
    if target.is_vehicle:
        outcome: FireOutcome = yield Call(fire_action, (plan.group, plan.target))
        yield from vehicle_hit(game, shooter, target, outcome, free=free)
        return outcome
    models = target_models(game, target, sight)
    before = len(target.men())
    fired: ModelsFireOutcome = yield Call(
        fire_on_models, (plan.group, plan.target, models, shooter.side)
    )
    losses = yield from effects.apply_hits(game, target, fired.results)
    yield from explosions(game, target, losses)
    first = False
    if fired.effect is not Effect.NONE and not free:
        placed, first = effects.place_marker(target)
        if placed:
            yield emit(
                "steel_war.game.marker",
                rules=("SW-SUP-01", "SW-SUP-02"),
                squad=game.name(target.id),
                markers=target.markers,
            )
        elif not target.berserk:
            yield emit("steel_war.game.marker_full", rules="SW-SUP-02", squad=game.name(target.id))
    if losses.casualties:
        yield from effects.coherency_check(game, target)
    yield from effects.check_destroyed(game, target)
    if not free:
        triggers = effects.fire_triggers(losses, before, first)
        yield from effects.morale_check(game, target, triggers)
        yield from game.interrupts.fire(
            Moment(Trigger.SHOT_AT, shooter.side, shooter.id, target.id)
        )
    return _outcome(fired)


def _limited(model: Model) -> bool:
    """Whether the model's weapon has limited ammunition (SW-FIRE-15)."""
    return model.ammo is not None and model.ammo.shots_left is not None


def _outcome(fired: ModelsFireOutcome) -> FireOutcome:
    """The fire as the charge rule counts it: men wounded and killed (SW-CC-04)."""
    killed = sum(1 for r in fired.results if r.casualty and r.effect is HitEffect.REMOVED)
    wounded = sum(1 for r in fired.results if r.casualty) - killed
    return FireOutcome(fired.effect, fired.hits, wounded, killed)


def measured_sight_of(game: Battlefield, shooter: Squad, target: Squad) -> Procedure[Sight]:
    """The sight as measured, confirmed or corrected by the players at a real table."""
    sight = game.sight(shooter, target)
    if not game.at_table:
        return sight
    what = msg(
        "steel_war.game.entry.fire_at",
        shooter=game.name(shooter.id),
        target=game.name(target.id),
    )
    visible = yield from measured_sight(game, shooter.side, what, sight.visible, ("SW-FIRE-01",))
    distance = yield from measured_distance(
        game, shooter.side, what, sight.distance, ("SW-FIRE-06",)
    )
    cover = yield from measured_cover(game, shooter.side, what, sight.cover, ("SW-FIRE-08",))
    return Sight(distance, visible, cover, sight.in_cover)


def vehicle_hit(
    game: Battlefield, shooter: Squad, vehicle: Squad, outcome: FireOutcome, *, free: bool
) -> Procedure[None]:
    """A fire's result on a vehicle: its marker (a suppressed vehicle still fires and
    moves, SW-SUP-01), then wounding hits (the first immobilises, the next destroys,
    SW-ABSENT-05 default)."""
    from .carry import hit_vehicle

    if outcome.effect is not Effect.NONE and not free:
        placed, _ = effects.place_marker(vehicle)
        if placed:
            yield emit(
                "steel_war.game.marker",
                rules=("SW-SUP-01", "SW-SUP-02"),
                squad=game.name(vehicle.id),
                markers=vehicle.markers,
            )
    if outcome.effect is Effect.HITS:
        yield from hit_vehicle(game, vehicle, outcome.wounded, outcome.killed)


def explosions(game: Battlefield, squad: Squad, losses: Losses) -> Procedure[None]:
    """Each Keno backpack flamethrower hit goes off (SW-DMG-09): every model within 4" of
    its bearer, friend or foe, takes a flamethrower hit; a pack among them goes off in
    turn. Each squad it hits (but the one under fire, whose losses are the fire's) tests
    its morale for the casualties."""
    pending = [(squad, m) for m in losses.explosions]
    while pending:
        owner, model_id = pending.pop(0)
        bearer = owner.model(model_id)
        victims = [
            (s, m)
            for s in game.squads
            if s.on_table and not s.is_vehicle
            for m in s.active()
            if m is not bearer and effects.within(bearer, m, float(explosion_radius()))
        ]
        targets = tuple(effects.target_model(s, m, False, game.name(m.id)) for s, m in victims)
        yield emit(
            "steel_war.game.explosion",
            rules=("SW-DMG-09",),
            model=game.name(bearer.id),
            victims=len(targets),
        )
        if not targets:
            continue
        results: tuple[ModelHit, ...] = yield Call(explosion_hits, (bearer.weapon, targets))
        for hit_id in dict.fromkeys(s.id for s, _ in victims):
            hit_squad = game.squad(hit_id)
            mine = tuple(r for r in results if any(m.id == r.model for m in hit_squad.models))
            before = len(hit_squad.men())
            hurt = yield from effects.apply_hits(game, hit_squad, mine)
            pending += [(hit_squad, m) for m in hurt.explosions]
            if hit_squad is squad:
                losses.casualties += hurt.casualties
                continue
            yield from effects.check_destroyed(game, hit_squad)
            triggers = effects.fire_triggers(hurt, before, False)
            yield from effects.morale_check(game, hit_squad, triggers)


__all__ = [
    "Armed",
    "FirePlan",
    "armed",
    "choices",
    "explosions",
    "fire",
    "in_zone",
    "plan_fire",
    "ready",
    "vehicle_hit",
]
