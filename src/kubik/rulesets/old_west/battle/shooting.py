"""The Shooting phase: Quickdraw first, then the posse with advantage, then the other.

Every model not in a fight, not pinned by a failed Diving test and not scared may
shoot once (OW-ABSENT-04 default) at an enemy in line of sight, within its weapon's
range (edge to edge) and not in a fight. The table gives the situation: the
distance, and what is **in the way** — every cover feature the line of fire
crosses (a fence, a porch rail, the barrels the target hides behind; not one the
shooter leans on) and every other model's base it cuts — each a d6 1–3 that stops
the shot. The rule :func:`~kubik.rulesets.old_west.absent.shoot` resolves it; a
model hit and not removed dives for cover (OW-PLK-06).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kubik.engine import Call, Choose, Forecast, Procedure, emit, msg
from kubik.rulesets.old_west.absent import ShotOutcome, ShotResult, shoot
from kubik.rulesets.old_west.battle import measure
from kubik.rulesets.old_west.battle.heroes import declare, hero_followers
from kubik.rulesets.old_west.battle.judge import ShotValue, per_wound
from kubik.rulesets.old_west.battle.morale import dive_for_cover, fearsome_allows
from kubik.rulesets.old_west.battle.movement import heroic_lost, msg_phase
from kubik.rulesets.old_west.battle.options import HoldFire, ShootAt
from kubik.rulesets.old_west.battle.situations import able, shooter
from kubik.rulesets.old_west.battle.spec import Weapon
from kubik.rulesets.old_west.battle.state import Battle, Figure
from kubik.rulesets.old_west.core import data
from kubik.rulesets.old_west.heroics import (
    HeroicAction,
    Phase,
    PhaseLedger,
    may_carry_out,
    quickdraw_works,
)
from kubik.rulesets.old_west.shooting import ShotAt, may_shoot, may_shoot_at
from kubik.table import Base, Cover, Table, distance_to, edge_distance
from kubik.table.geometry import point_segment_distance

if TYPE_CHECKING:
    from kubik.rulesets.old_west.battle.game import OldWestGame


@dataclass(frozen=True, slots=True)
class Blocker:
    """Something in the way of a shot: a terrain feature or a model (by id)."""

    id: str
    model: bool


def in_the_way(battle: Battle, shooter: Figure, target: Figure) -> tuple[Blocker, ...]:
    """What stands in the way of a shot, nearest the shooter first: cover features on the
    line of fire (near the target, or obstacles anywhere but at the shooter's own base)
    and the models it cuts."""
    found = list(terrain_in_the_way(battle.table, shooter.base, target.base))
    line = (shooter.base.centre, target.base.centre)
    for other in battle.others(shooter):
        if other.id == target.id:
            continue
        gap = point_segment_distance(other.base.centre, *line)
        if gap < other.base.radius:
            found.append((edge_distance(shooter.base, other.base), Blocker(other.id, True)))
    return tuple(b for _, b in sorted(found, key=lambda t: t[0]))


def terrain_in_the_way(
    table: Table, shooter: Base, target: Base
) -> tuple[tuple[float, Blocker], ...]:
    """The terrain part of :func:`in_the_way` with each feature's distance from the
    shooter (memoised on the table: it depends on the terrain and the two bases only)."""

    def build() -> tuple[tuple[float, Blocker], ...]:
        reach = float(data()["battle"]["cover_reach_inches"])
        ids = list(measure.cover_ids(table, shooter, target, reach))
        line = (shooter.centre, target.centre)
        for feature in map(table.feature, measure.crossed(table, line)):
            leaning = distance_to(shooter, feature) <= reach
            if feature.cover is not Cover.NONE and not leaning and feature.id not in ids:
                ids.append(feature.id)
        return tuple((distance_to(shooter, table.feature(i)), Blocker(i, False)) for i in ids)

    memo = measure.store(table, "terrain_in_the_way")
    key = (measure.shape(shooter), measure.shape(target))
    if key not in memo:
        memo[key] = build()
    found: tuple[tuple[float, Blocker], ...] = memo[key]
    return found


def blockers(battle: Battle, shooter: Figure, target: Figure) -> tuple[Blocker, ...]:
    """The things in the way the shot rolls for (at most ``max_in_the_way``, nearest first)."""
    cap = int(data()["battle"]["max_in_the_way"])
    return in_the_way(battle, shooter, target)[:cap]


def shot_at(game: OldWestGame, figure: Figure, enemy: Figure, weapon: Weapon) -> ShotAt:
    """A shot with ``weapon`` at ``enemy`` as the rule takes it."""
    battle = game.battle
    return ShotAt(
        weapon.id,
        edge_distance(figure.base, enemy.base),
        measure.sees(battle.table, figure.base, enemy.base),
        enemy.status,
        battle.engaged(enemy),
        enemy.profile.fearsome,
        enemy.id in figure.tested_fearsome,
        move=figure.move,
    )


def best_weapon(game: OldWestGame, figure: Figure, enemy: Figure) -> Weapon | None:
    """The weapon the rules let the model fire at ``enemy`` with the best Strength (then the
    longest range, then listed first)."""
    situation = shooter(game, figure)
    usable = [
        w
        for w in figure.weapons
        if may_shoot_at(situation, shot_at(game, figure, enemy, w)).allowed
    ]
    if not usable:
        return None
    return max(usable, key=lambda w: (w.strength, w.range))


def targets(game: OldWestGame, figure: Figure) -> list[ShootAt]:
    """Every enemy the model could shoot, nearest first."""
    battle = game.battle
    found: list[tuple[float, str, ShootAt]] = []
    for enemy in battle.enemies(figure):
        distance = edge_distance(figure.base, enemy.base)
        weapon = best_weapon(game, figure, enemy)
        if weapon is None:
            continue
        blocking = len(blockers(battle, figure, enemy))
        option = ShootAt(
            figure.id,
            enemy.id,
            weapon.id,
            round(distance, 1),
            blocking,
            figure.name_en,
            figure.name_ru,
            enemy.name_en,
            enemy.name_ru,
            weapon.name_en,
            weapon.name_ru,
        )
        found.append((distance, enemy.id, option))
    return [o for _, _, o in sorted(found, key=lambda t: (t[0], t[1]))]


def shot_args(
    game: OldWestGame, figure: Figure, option: ShootAt, fame: int
) -> tuple[int, int, int, tuple[int, ...], int, int, str]:
    """The situation the shoot rule takes for this option: the shooter's Shoot value, the
    weapon's Strength, the target's Toughness, what is in the way (a model's Toughness,
    0 for terrain), the target's mount's Toughness, Fame, and the shooting posse."""
    battle = game.battle
    target = battle.figure(option.target)
    weapon = next(w for w in figure.weapons if w.id == option.weapon)
    things = tuple(
        battle.figure(b.id).profile.toughness if b.model else 0
        for b in blockers(battle, figure, target)
    )
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


def can_shoot(game: OldWestGame, figure: Figure) -> bool:
    """The rule's answer (:func:`~kubik.rulesets.old_west.shooting.may_shoot`)."""
    return may_shoot(shooter(game, figure)).allowed


def shoot_with(game: OldWestGame, figure: Figure) -> Procedure[bool]:
    """One model's shot: choose a target (or hold fire), then the rule; True if it shot."""
    if not can_shoot(game, figure):
        return False
    options = targets(game, figure)
    if not options:
        return False
    hold = HoldFire(figure.id, figure.name_en, figure.name_ru)
    forecasts = [
        Forecast(
            shoot,
            shot_args(game, figure, o, 0),
            value=ShotValue(per_wound(game.battle.figure(o.target))),
        )
        for o in options
    ]
    chosen = yield Choose(
        (*options, hold),
        figure.side,
        msg("old_west.game.shoot.ask", model=figure.name),
        default=options[0],
        forecasts=(*forecasts, Forecast(score=0.0)),
    )
    if not isinstance(chosen, ShootAt):
        yield emit("old_west.game.holds_fire", model=figure.name)
        return False
    target = game.battle.figure(chosen.target)
    if not (yield from fearsome_allows(game, figure, target)):
        return False
    yield emit(
        "old_west.game.shoots",
        model=figure.name,
        target=target.name,
        weapon=msg("game.name", en=chosen.weapon_name, ru=chosen.weapon_name_ru),
        distance=chosen.distance,
        in_the_way=chosen.in_the_way,
    )
    hit_in_the_way = blockers(game.battle, figure, target)
    shot = yield Call(shoot, shot_args(game, figure, chosen, figure.fame))
    yield from game.pay_fame(figure, shot.fame)
    yield from apply_shot(game, figure, target, shot, hit_in_the_way)
    return True


def apply_shot(
    game: OldWestGame,
    shooter: Figure,
    target: Figure,
    shot: ShotOutcome,
    in_the_way: tuple[Blocker, ...],
) -> Procedure[None]:
    """Apply a shot's outcome: a wound on the target, on its mount (a killed mount throws
    its rider, OW-ABSENT-06) or on a model in the way; an enemy model hit and not removed
    dives for cover (OW-PLK-06; a rider tests even when his horse was hit, OW-PLK-07)."""
    battle = game.battle
    if shot.result is ShotResult.IN_THE_WAY:
        blocker = in_the_way[shot.blocker - 1]
        if not blocker.model:
            feature = battle.table.feature(blocker.id)
            yield emit(
                "old_west.game.shot_stopped",
                model=shooter.name,
                obstacle=msg("game.name", en=feature.name, ru=feature.name_ru),
            )
            return
        struck = battle.figure(blocker.id)
        yield emit("old_west.game.hit_in_the_way", model=shooter.name, hit=struck.name)
        if shot.wounded:
            yield from game.wound(struck, 1)
        if struck.side != shooter.side:
            yield from dive_for_cover(game, struck, shooter)
        return
    if shot.result is ShotResult.TARGET and shot.wounded:
        yield from game.wound(target, 1)
    if shot.result is ShotResult.MOUNT:
        yield from game.wound_mount(target, int(shot.wounded))
    if shot.result is not ShotResult.MISS:
        yield from dive_for_cover(game, target, shooter)


def shooting_phase(game: OldWestGame) -> Procedure[None]:
    """The whole Shooting phase."""
    yield msg_phase(Phase.SHOOTING.value)
    for figure in game.battle.figures:
        # scared, and tested against Fearsome Reputation, for one phase only (OW-PLK-05)
        figure.scared = False
        figure.tested_fearsome = frozenset()
    ledger = PhaseLedger(Phase.SHOOTING)
    heroes, ledger = yield from declare(game, HeroicAction.QUICKDRAW, ledger)
    for hero in heroes:
        acted = hero.id in ledger.acted
        verdict = may_carry_out(
            HeroicAction.QUICKDRAW,
            ledger.beneficiary(hero.id),
            able(game, hero, HeroicAction.QUICKDRAW, acted),
        )
        if not verdict.allowed:
            yield heroic_lost(hero, HeroicAction.QUICKDRAW, verdict)
            continue
        followers = hero_followers(game, hero, ledger)
        ledger, _ = ledger.benefit(hero.id, frozenset())
        yield emit("old_west.game.quickdraw", rules=verdict.rules, model=hero.name)
        shot = yield from shoot_with(game, hero)
        works = quickdraw_works(shot)
        if not works.allowed:
            yield heroic_lost(hero, HeroicAction.QUICKDRAW, works)
            continue
        ledger, allowed = ledger.benefit(hero.id, followers)
        for figure in game.battle.active(hero.side):
            if figure.id in allowed:
                yield from shoot_with(game, figure)
    for side in game.side_order:
        for figure in game.battle.active(side):
            if figure.id in ledger.acted:
                continue
            ledger = ledger.act(figure.id)
            yield from shoot_with(game, figure)


__all__ = ["best_weapon", "in_the_way", "shoot_with", "shooting_phase", "targets"]
