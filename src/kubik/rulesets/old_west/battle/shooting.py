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

from typing import TYPE_CHECKING

from kubik.engine import Choose, Forecast, Procedure, emit, msg
from kubik.rulesets.old_west.absent import ShotResult, shoot
from kubik.rulesets.old_west.battle.heroes import declare, hero_followers
from kubik.rulesets.old_west.battle.judge import ShotValue, per_wound
from kubik.rulesets.old_west.battle.morale import dive_for_cover, fearsome_allows
from kubik.rulesets.old_west.battle.movement import msg_phase
from kubik.rulesets.old_west.battle.options import HoldFire, ShootAt
from kubik.rulesets.old_west.battle.spec import Weapon
from kubik.rulesets.old_west.battle.state import Battle, Figure
from kubik.rulesets.old_west.core import data
from kubik.rulesets.old_west.heroics import HeroicAction, Phase, PhaseLedger, quickdraw_counts
from kubik.table import Cover, distance_to, edge_distance, obstacles_crossed, sight
from kubik.table.cover import cover_sources
from kubik.table.geometry import point_segment_distance

if TYPE_CHECKING:
    from kubik.rulesets.old_west.battle.game import OldWestGame


def in_the_way(battle: Battle, shooter: Figure, target: Figure) -> tuple[str, ...]:
    """What stands in the way of a shot (ids): cover features on the line of fire (near the
    target, or obstacles anywhere but at the shooter's own base) and models it cuts."""
    table = battle.table
    reach = float(data()["battle"]["cover_reach_inches"])
    found = [s.feature_id for s in cover_sources(table, shooter.base, target.base, near=reach)]
    line = [shooter.base.centre, target.base.centre]
    for feature in obstacles_crossed(table, line):
        leaning = distance_to(shooter.base, feature) <= reach
        if feature.cover is not Cover.NONE and not leaning and feature.id not in found:
            found.append(feature.id)
    for other in battle.others(shooter):
        if other.id == target.id:
            continue
        gap = point_segment_distance(other.base.centre, *line)
        if gap < other.base.radius:
            found.append(other.id)
    return tuple(found)


def best_weapon(figure: Figure, distance: float) -> Weapon | None:
    """The weapon in range with the best Strength (then the longest range, then listed first)."""
    usable = [w for w in figure.weapons if w.range >= distance - 1e-9]
    if not usable:
        return None
    return max(usable, key=lambda w: (w.strength, w.range))


def targets(game: OldWestGame, figure: Figure) -> list[ShootAt]:
    """Every enemy the model could shoot, nearest first."""
    battle = game.battle
    cap = int(data()["battle"]["max_in_the_way"])
    found: list[tuple[float, str, ShootAt]] = []
    for enemy in battle.enemies(figure):
        if battle.engaged(enemy):
            continue
        distance = edge_distance(figure.base, enemy.base)
        weapon = best_weapon(figure, distance)
        if weapon is None or not sight(battle.table, figure.base, enemy.base).clear:
            continue
        blocking = min(len(in_the_way(battle, figure, enemy)), cap)
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


def shot_args(game: OldWestGame, figure: Figure, option: ShootAt, fame: int) -> tuple[int, ...]:
    """The situation the shoot rule takes for this option."""
    target = game.battle.figure(option.target)
    weapon = next(w for w in figure.weapons if w.id == option.weapon)
    return (
        figure.profile.shoot,
        weapon.strength,
        target.profile.toughness,
        option.in_the_way,
        0,
        fame,
    )


def can_shoot(game: OldWestGame, figure: Figure) -> bool:
    """Not in a fight, not pinned, not scared, and armed."""
    return (
        figure.in_action
        and bool(figure.weapons)
        and not figure.pinned
        and not figure.scared
        and not game.battle.engaged(figure)
    )


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
    shot = yield game.call(shoot, shot_args(game, figure, chosen, figure.fame), shooter=figure.side)
    yield from game.pay_fame(figure.side, (figure,))
    if shot.result is ShotResult.TARGET:
        if shot.wounded:
            yield from game.wound(target, 1)
        yield from dive_for_cover(game, target, figure)
    return True


def shooting_phase(game: OldWestGame) -> Procedure[None]:
    """The whole Shooting phase."""
    yield msg_phase(Phase.SHOOTING.value)
    ledger = PhaseLedger(Phase.SHOOTING)
    heroes, ledger = yield from declare(game, HeroicAction.QUICKDRAW, ledger)
    for hero in heroes:
        if hero.id in ledger.acted:
            continue
        followers = hero_followers(game, hero)
        ledger, _ = ledger.benefit(hero.id, frozenset())
        yield emit("old_west.game.quickdraw", model=hero.name)
        shot = yield from shoot_with(game, hero)
        if not quickdraw_counts(shot):
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
