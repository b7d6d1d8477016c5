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

from kubik.engine import AnyForecast, Call, Forecast, Procedure, Verdict, emit, msg
from kubik.game.battle import Menu, Moment, Trigger
from kubik.rulesets.old_west.absent import ShotOutcome, ShotResult, shoot
from kubik.rulesets.old_west.battle.figures import Figure
from kubik.rulesets.old_west.battle.harm import credit, wound, wound_mount
from kubik.rulesets.old_west.battle.heroes import carried_out, hero_followers, heroic_lost
from kubik.rulesets.old_west.battle.judge import ShotValue, per_wound, weight
from kubik.rulesets.old_west.battle.line_of_fire import Blocker, in_the_way
from kubik.rulesets.old_west.battle.names import terrain_key, weapon_key
from kubik.rulesets.old_west.battle.nerve import fearsome_allows
from kubik.rulesets.old_west.battle.options import HoldFire, ShootAt
from kubik.rulesets.old_west.battle.phases import open_phase
from kubik.rulesets.old_west.battle.situations import shooter, shot_at, shots_at
from kubik.rulesets.old_west.battle.spec import Weapon
from kubik.rulesets.old_west.battle.state import OldWestState
from kubik.rulesets.old_west.battle.table import confirm_shot
from kubik.rulesets.old_west.heroics import (
    HeroicAction,
    Phase,
    quickdraw_works,
)
from kubik.rulesets.old_west.shooting import Shooter, may_shoot, may_shoot_at


def usable(
    game: OldWestState,
    figure: Figure,
    enemy: Figure,
    situation: Shooter | None = None,
    distance: float | None = None,
) -> tuple[Weapon | None, Verdict]:
    """The weapon the rules let the model fire at ``enemy`` with the best Strength (then the
    longest range, then listed first), and the rule's verdict on the shot (``situation``:
    the shooter's, and ``distance`` the gap to the enemy, when the caller has them)."""
    if situation is None:
        situation = shooter(game, figure)
    shots = shots_at(game, figure, enemy, distance)
    verdicts = [
        (w, may_shoot_at(situation, shot)) for w, shot in zip(figure.weapons, shots, strict=True)
    ]
    allowed = [(w, v) for w, v in verdicts if v.allowed]
    if not allowed:
        return None, verdicts[0][1] if verdicts else may_shoot(situation)
    weapon, verdict = max(allowed, key=lambda wv: (wv[0].strength, wv[0].range))
    return weapon, verdict


def shot_args(
    game: OldWestState,
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
    game: OldWestState,
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
    game: OldWestState, hero: Figure, share: float, score: float
) -> AnyForecast | None:
    """Quickdraw's worth: ``share`` of a shot the Hero could take now — at the enemy worth
    most, the nearest of them (None: he has no target)."""
    board = game.board
    found = [
        (e, w) for e in board.enemies(hero) for w in [usable(game, hero, e)[0]] if w is not None
    ]
    if not found:
        return None
    enemy, weapon = min(found, key=lambda ew: (-per_wound(ew[0]), board.gap(hero, ew[0]), ew[0].id))
    return shot_forecast(game, hero, enemy, weapon, share, score)


def shoot_with(game: OldWestState, figure: Figure) -> Procedure[bool]:
    """One model's shot: choose a target (or hold fire), then the rule; True if it shot."""
    situation = shooter(game, figure)
    shooting = may_shoot(situation)
    if not shooting.allowed:
        return False
    menu, in_way = _shot_menu(game, figure, situation)
    if not menu.options:
        return False
    name = game.name(figure.id)
    menu.offer(
        HoldFire(figure.id),
        msg("old_west.game.option.hold_fire", model=name),
        Verdict.neutral(),
        Forecast(score=0.0),
    )
    chosen = yield from game.choose(
        menu, figure.side, msg("old_west.game.shoot.ask", model=name), rules=shooting.rules
    )
    return (yield from _take_shot(game, figure, situation, chosen, in_way))


def _shot_menu(
    game: OldWestState, figure: Figure, situation: Shooter
) -> tuple[Menu[ShootAt | HoldFire], dict[str, tuple[Blocker, ...]]]:
    """Every shot the model may take, each with what stands in its way."""
    menu: Menu[ShootAt | HoldFire] = Menu()
    name = game.name(figure.id)
    board = game.board
    gaps = {e.id: board.gap(figure, e) for e in board.enemies(figure)}  # measured once
    enemies = sorted(board.enemies(figure), key=lambda e: (gaps[e.id], e.id))
    # what stands in the way of each shot offered, measured once (nothing moves until
    # the shot is resolved)
    in_way: dict[str, tuple[Blocker, ...]] = {}
    for enemy in enemies:
        distance = round(gaps[enemy.id], 1)
        weapon, verdict = usable(game, figure, enemy, situation, distance)
        if weapon is None:
            continue
        blocking = in_way[enemy.id] = in_the_way(game, figure, enemy)
        option = ShootAt(figure.id, enemy.id, weapon.id, distance, len(blocking))
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
    return menu, in_way


def _take_shot(
    game: OldWestState,
    figure: Figure,
    situation: Shooter,
    chosen: ShootAt | HoldFire,
    in_way: dict[str, tuple[Blocker, ...]],
) -> Procedure[bool]:
    """The shot chosen (or fire held), measured at a real table, then the rule."""
    name = game.name(figure.id)
    if not isinstance(chosen, ShootAt):
        yield emit("old_west.game.holds_fire", model=name)
        return False
    target = game.figure(chosen.target)
    weapon = next(w for w in figure.weapons if w.id == chosen.weapon)
    found = in_way.get(target.id)
    blockers = found if found is not None else in_the_way(game, figure, target)
    if game.at_table:
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
    game: OldWestState,
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
            yield from wound(game, struck, 1)
            credit(game, figure, struck)
        if struck.side != figure.side:
            yield from game.interrupts.fire(
                Moment(Trigger.SHOT_AT, figure.side, figure.id, struck.id)
            )
        return
    if shot.result is ShotResult.TARGET and shot.wounded:
        yield from wound(game, target, 1)
        credit(game, figure, target)
    if shot.result is ShotResult.MOUNT:
        yield from wound_mount(game, target, int(shot.wounded))
        credit(game, figure, target)  # a rider the fall puts out of action: the shot did it
    if shot.result is not ShotResult.MISS:
        yield from game.interrupts.fire(Moment(Trigger.SHOT_AT, figure.side, figure.id, target.id))


def shooting_phase(game: OldWestState) -> Procedure[None]:
    """The whole Shooting phase."""
    heroes, ledger = yield from open_phase(
        game, Phase.SHOOTING, HeroicAction.QUICKDRAW, best_shot_forecast
    )
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
    "apply_shot",
    "best_shot_forecast",
    "shoot_with",
    "shooting_phase",
    "shot_args",
    "usable",
]
