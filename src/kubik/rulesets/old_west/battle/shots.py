"""The Shooting phase: Quickdraw first, then the posse with advantage, then the other.

Every model the rules let shoot (:func:`~kubik.rulesets.old_west.shooting.may_shoot`)
is offered each enemy it may shoot at (:func:`~kubik.rulesets.old_west.shooting.may_shoot_at`:
in sight, in range, not in a fight, a move-or-fire weapon only after standing still)
with its best weapon, and may hold fire. The tape measures the situation: the
distance, and what is **in the way** — every cover feature the line of fire crosses
(a fence, a porch rail, the barrels the target hides behind; not one the shooter
leans on) and every other model's base it cuts — each a d6 1–3 that stops the shot.
At a real table the players confirm or correct what the tape measured. The rule
:func:`~kubik.rulesets.old_west.absent.shoot` resolves the shot; a model hit and not
removed dives for cover out of turn (OW-PLK-06, an interrupt).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kubik.engine import AnyForecast, Call, Forecast, Procedure, Verdict, emit, msg
from kubik.game.battle import Menu, Moment, Trigger
from kubik.rulesets.old_west.absent import ShotOutcome, ShotResult, shoot
from kubik.rulesets.old_west.battle.figures import Figure
from kubik.rulesets.old_west.battle.game import terrain_key, weapon_key
from kubik.rulesets.old_west.battle.heroes import carried_out, hero_followers, heroic_lost
from kubik.rulesets.old_west.battle.judge import ShotValue, per_wound, weight
from kubik.rulesets.old_west.battle.moves import open_phase
from kubik.rulesets.old_west.battle.options import HoldFire, ShootAt
from kubik.rulesets.old_west.battle.situations import shooter, shot_at, shots_at
from kubik.rulesets.old_west.battle.spec import Weapon
from kubik.rulesets.old_west.core import data
from kubik.rulesets.old_west.heroics import (
    HeroicAction,
    Phase,
    quickdraw_works,
)
from kubik.rulesets.old_west.shooting import Shooter, may_shoot, may_shoot_at
from kubik.table import Base, Cover, distance_to, edge_distance
from kubik.table.geometry import point_segment_distance

if TYPE_CHECKING:
    from kubik.rulesets.old_west.battle.game import OldWestGame


@dataclass(frozen=True, slots=True)
class Blocker:
    """Something in the way of a shot: a terrain feature or a model (by id)."""

    id: str
    model: bool


def in_the_way(game: OldWestGame, figure: Figure, target: Figure) -> tuple[Blocker, ...]:
    """What stands in the way of a shot, nearest the shooter first: cover features on the
    line of fire (near the target, or obstacles anywhere but at the shooter's own base)
    and the models it cuts; at most ``max_in_the_way`` of them."""
    found = list(terrain_in_the_way(game, figure.base, target.base))
    line = (figure.base.centre, target.base.centre)
    for other in game.figures:
        if not other.in_action or other.id in (figure.id, target.id):
            continue
        if point_segment_distance(other.base.centre, *line) < other.base.radius:
            found.append((edge_distance(figure.base, other.base), Blocker(other.id, True)))
    cap = int(data()["battle"]["max_in_the_way"])
    return tuple(b for _, b in sorted(found, key=lambda t: t[0]))[:cap]


def terrain_in_the_way(
    game: OldWestGame, shooter_base: Base, target: Base
) -> tuple[tuple[float, Blocker], ...]:
    """The terrain part of :func:`in_the_way`, each feature with its distance from the
    shooter (the tape's cover and obstacles on the line of fire). It depends on the
    table and the two bases alone, so each answer is kept with the table."""
    reach = float(data()["battle"]["cover_reach_inches"])
    one, other = shooter_base, target
    return game.tape.kept(
        "old_west.terrain_in_the_way",
        (one.x, one.y, one.diameter, other.x, other.y, other.diameter, reach),
        lambda: _terrain_in_the_way(game, shooter_base, target, reach),
    )


def _terrain_in_the_way(
    game: OldWestGame, shooter_base: Base, target: Base, reach: float
) -> tuple[tuple[float, Blocker], ...]:
    table = game.table
    ids = list(game.tape.cover_ids(shooter_base, target, reach))
    for feature in map(table.feature, game.tape.crossed((shooter_base.centre, target.centre))):
        leaning = _distance_to(game, shooter_base, feature.id) <= reach
        if feature.cover is not Cover.NONE and not leaning and feature.id not in ids:
            ids.append(feature.id)
    return tuple((_distance_to(game, shooter_base, i), Blocker(i, False)) for i in ids)


def _distance_to(game: OldWestGame, base: Base, feature_id: str) -> float:
    """The table's :func:`~kubik.table.distance_to` from a base to a feature, kept for the
    table (a shooter weighs every target from where he stands)."""
    return game.tape.kept(
        "old_west.distance_to",
        (base.centre, base.radius, feature_id),
        lambda: distance_to(base, game.table.feature(feature_id)),
    )


def usable(
    game: OldWestGame, figure: Figure, enemy: Figure, situation: Shooter | None = None
) -> tuple[Weapon | None, Verdict]:
    """The weapon the rules let the model fire at ``enemy`` with the best Strength (then the
    longest range, then listed first), and the rule's verdict on the shot (``situation``:
    the shooter's, when the caller has it already)."""
    if situation is None:
        situation = shooter(game, figure)
    verdicts = [
        (w, may_shoot_at(situation, shot))
        for w, shot in zip(figure.weapons, shots_at(game, figure, enemy), strict=True)
    ]
    allowed = [(w, v) for w, v in verdicts if v.allowed]
    if not allowed:
        return None, verdicts[0][1] if verdicts else may_shoot(situation)
    weapon, verdict = max(allowed, key=lambda wv: (wv[0].strength, wv[0].range))
    return weapon, verdict


def shot_args(
    game: OldWestGame,
    figure: Figure,
    target: Figure,
    weapon: Weapon,
    fame: int,
    blockers: tuple[Blocker, ...],
) -> tuple[int, int, int, tuple[int, ...], int, int, str]:
    """The situation the shoot rule takes: the shooter's Shoot value, the weapon's
    Strength, the target's Toughness, what is in the way (a model's Toughness, 0 for
    terrain), the target's mount's Toughness, Fame, and the shooting posse."""
    things = tuple(game.figure(b.id).profile.toughness if b.model else 0 for b in blockers)
    mount = target.mount.toughness if target.mount else 0
    return (
        figure.profile.shoot,
        weapon.strength,
        target.profile.toughness,
        things,
        mount,
        fame,
        figure.side,
    )


def shot_forecast(
    game: OldWestGame,
    figure: Figure,
    target: Figure,
    weapon: Weapon,
    share: float,
    score: float,
    blockers: tuple[Blocker, ...] | None = None,
) -> AnyForecast:
    """A shot's worth by the shoot rule's odds on the measured situation (``blockers``:
    what :func:`in_the_way` found, when the caller measured it already)."""
    if blockers is None:
        blockers = in_the_way(game, figure, target)
    args = shot_args(game, figure, target, weapon, 0, blockers)
    value = ShotValue(per_wound(target), share, weight("fame_point"))
    return Forecast(shoot, args, value=value, score=score)


def best_shot_forecast(
    game: OldWestGame, hero: Figure, share: float, score: float
) -> AnyForecast | None:
    """Quickdraw's worth: ``share`` of a shot the Hero could take now — at the enemy worth
    most, the nearest of them (None: he has no target)."""
    found = [
        (e, w) for e in game.enemies(hero) for w in [usable(game, hero, e)[0]] if w is not None
    ]
    if not found:
        return None
    enemy, weapon = min(
        found, key=lambda ew: (-per_wound(ew[0]), edge_distance(hero.base, ew[0].base), ew[0].id)
    )
    return shot_forecast(game, hero, enemy, weapon, share, score)


def shoot_with(game: OldWestGame, figure: Figure) -> Procedure[bool]:
    """One model's shot: choose a target (or hold fire), then the rule; True if it shot."""
    from kubik.rulesets.old_west.battle.nerve import fearsome_allows

    situation = shooter(game, figure)
    shooting = may_shoot(situation)
    if not shooting.allowed:
        return False
    menu: Menu[ShootAt | HoldFire] = Menu()
    name = game.name(figure.id)
    enemies = sorted(game.enemies(figure), key=lambda e: (edge_distance(figure.base, e.base), e.id))
    # what stands in the way of each shot offered, measured once (nothing moves until
    # the shot is resolved)
    in_way: dict[str, tuple[Blocker, ...]] = {}
    for enemy in enemies:
        weapon, verdict = usable(game, figure, enemy, situation)
        if weapon is None:
            continue
        blocking = in_way[enemy.id] = in_the_way(game, figure, enemy)
        option = ShootAt(
            figure.id,
            enemy.id,
            weapon.id,
            round(edge_distance(figure.base, enemy.base), 1),
            len(blocking),
        )
        menu.offer(
            option,
            msg(
                "old_west.game.option.shoot",
                model=name,
                target=game.name(enemy.id),
                weapon=game.name(weapon_key(weapon.id)),
                distance=option.distance,
                in_the_way=option.in_the_way,
            ),
            verdict,
            shot_forecast(game, figure, enemy, weapon, 1.0, 0.0, blocking),
        )
    if not menu.options:
        return False
    menu.offer(
        HoldFire(figure.id),
        msg("old_west.game.option.hold_fire", model=name),
        Verdict.neutral(),
        Forecast(score=0.0),
    )
    chosen = yield from game.choose(
        menu, figure.side, msg("old_west.game.shoot.ask", model=name), rules=shooting.rules
    )
    if not isinstance(chosen, ShootAt):
        yield emit("old_west.game.holds_fire", model=name)
        return False
    target = game.figure(chosen.target)
    weapon = next(w for w in figure.weapons if w.id == chosen.weapon)
    found = in_way.get(target.id)
    blockers = found if found is not None else in_the_way(game, figure, target)
    if game.at_table:
        from kubik.rulesets.old_west.battle.table import confirm_shot

        measured = yield from confirm_shot(game, figure, target, weapon, blockers)
        if measured is None:
            return True
        blockers = measured
    verdict = may_shoot_at(situation, shot_at(game, figure, target, weapon))
    if verdict.needs_test and not (yield from fearsome_allows(game, figure, target)):
        return False
    yield emit(
        "old_west.game.shoots",
        rules=verdict.rules,
        model=name,
        target=game.name(target.id),
        weapon=game.name(weapon_key(weapon.id)),
        distance=chosen.distance,
        in_the_way=len(blockers),
    )
    shot = yield Call(shoot, shot_args(game, figure, target, weapon, figure.fame, blockers))
    yield from game.pay_fame(figure, shot.fame, ("OW-HERO-05",))
    yield from apply_shot(game, figure, target, shot, blockers)
    return True


def apply_shot(
    game: OldWestGame,
    figure: Figure,
    target: Figure,
    shot: ShotOutcome,
    blockers: tuple[Blocker, ...],
) -> Procedure[None]:
    """Apply a shot's outcome: a wound on the target, on its mount (a killed mount throws
    its rider, OW-ABSENT-06) or on a model in the way; an enemy model hit and not removed
    dives for cover (OW-PLK-06; a rider tests even when his horse was hit, OW-PLK-07)."""
    if shot.result is ShotResult.IN_THE_WAY:
        blocker = blockers[shot.blocker - 1]
        if not blocker.model:
            yield emit(
                "old_west.game.shot_stopped",
                rules=("OW-ABSENT-04",),
                model=game.name(figure.id),
                obstacle=game.name(terrain_key(blocker.id)),
            )
            return
        struck = game.figure(blocker.id)
        yield emit(
            "old_west.game.hit_in_the_way",
            rules=("OW-ABSENT-04",),
            model=game.name(figure.id),
            hit=game.name(struck.id),
        )
        if shot.wounded:
            yield from game.wound(struck, 1)
        if struck.side != figure.side:
            yield from game.interrupts.fire(
                Moment(Trigger.SHOT_AT, figure.side, figure.id, struck.id)
            )
        return
    if shot.result is ShotResult.TARGET and shot.wounded:
        yield from game.wound(target, 1)
    if shot.result is ShotResult.MOUNT:
        yield from game.wound_mount(target, int(shot.wounded))
    if shot.result is not ShotResult.MISS:
        yield from game.interrupts.fire(Moment(Trigger.SHOT_AT, figure.side, figure.id, target.id))


def shooting_phase(game: OldWestGame) -> Procedure[None]:
    """The whole Shooting phase."""
    heroes, ledger = yield from open_phase(game, Phase.SHOOTING, HeroicAction.QUICKDRAW)
    for hero in heroes:
        verdict = yield from carried_out(game, hero, HeroicAction.QUICKDRAW, ledger)
        if verdict is None:
            continue
        followers = hero_followers(game, hero, ledger)
        ledger, _ = ledger.benefit(hero.id, frozenset())
        yield emit("old_west.game.quickdraw", rules=verdict.rules, model=game.name(hero.id))
        shot = yield from shoot_with(game, hero)
        works = quickdraw_works(shot)
        if not works.allowed:
            yield from heroic_lost(game, hero, HeroicAction.QUICKDRAW, works)
            continue
        ledger, allowed = ledger.benefit(hero.id, followers)
        for figure in game.active(hero.side):
            if figure.id in allowed and figure.id != hero.id:
                yield from shoot_with(game, figure)
    for side in game.side_order:
        for figure in game.active(side):
            if figure.id in ledger.acted:
                continue
            ledger = ledger.act(figure.id)
            yield from shoot_with(game, figure)


__all__ = [
    "Blocker",
    "apply_shot",
    "best_shot_forecast",
    "in_the_way",
    "shoot_with",
    "shooting_phase",
    "shot_args",
    "usable",
]
