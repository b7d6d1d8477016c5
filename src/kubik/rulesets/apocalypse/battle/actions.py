"""What one warrior does when he acts: first how he moves (advance, run, charge, take
cover, climb, jump, leap, stand guard, hold, break away), then whether he hides, then
whether he shoots or sings. Every option is offered only with its rule's verdict; the
bot weighs it by the forecast of the rule it leads to.

Turn edition: each warrior of the side acts in turn. Activation edition: the sides
activate one warrior at a time, each activation (and each hiding) costing FP
(RA-ABSENT-10 default).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kubik.engine import Call, Emit, Forecast, Procedure, Verdict, emit, msg
from kubik.engine.applied import deciding_cache
from kubik.game.battle import Menu, Moment, Trigger
from kubik.game.battle.tastes import taste
from kubik.rulesets.apocalypse.battle import fights, heights, moving, psyche, shots, songs
from kubik.rulesets.apocalypse.battle.warriors import (
    Condition,
    Ground,
    Morale,
    Sight,
    Warrior,
    Watch,
)
from kubik.rulesets.apocalypse.core import Edition, decimal, number
from kubik.rulesets.apocalypse.guard import Sentry, may_guard
from kubik.rulesets.apocalypse.hiding import may_hide
from kubik.rulesets.apocalypse.manoeuvres import (
    may_climb,
    may_jump_down,
    may_leap_attack,
    may_walk,
)
from kubik.rulesets.apocalypse.melee import melee
from kubik.rulesets.apocalypse.psychology import (
    Charger,
    Fright,
    Stupor,
    fear_test,
    fright,
    ignores_psychology,
    may_charge,
    must_charge,
)

if TYPE_CHECKING:
    from kubik.rulesets.apocalypse.battle.game import ApocalypseGame


@dataclass(frozen=True, slots=True)
class Act:
    """A movement option: ``kind`` toward ``target`` (a warrior or a feature id)."""

    kind: str
    target: str = ""


def register(game: ApocalypseGame) -> None:
    """The out-of-turn reaction at the end of every move: detection (RA-HIDE-05..07).
    Guard fire and detection during a move are part of the move (:mod:`.moving`)."""
    game.interrupts.on(Trigger.MOVED, "detection", lambda m: shots.detection(game, m))


def activations(game: ApocalypseGame) -> Procedure[None]:
    """Activation edition: the sides take turns activating one warrior each, paying FP,
    until no side has a warrior left to act or FP to pay (RA-ABSENT-10)."""
    cost = number("activation", "activation_cost")
    while game.ending() is None:
        progressed = False
        for side in game.sides:
            ready = [w for w in game.side_warriors(side) if w.in_battle and not w.turn.acted]
            if not ready or game.fp[side] < cost:
                continue
            menu: Menu[str] = Menu()
            for w in ready:
                menu.offer(
                    w.id,
                    msg("apocalypse.option.activate", unit=game.name(w.id)),
                    Verdict.allow("RA-ABSENT-10"),
                )
            picked = yield from game.choose(
                menu,
                side,
                msg("apocalypse.reason.activate", side=game.side_name(side), fp=game.fp[side]),
                rules=("RA-ABSENT-10",),
            )
            game.fp[side] -= cost
            w = game.warrior(picked)
            yield from activate(game, w)
            progressed = True
            if game.ending() is not None:
                return
        if not progressed:
            return


def end_of_turn(game: ApocalypseGame, side: str) -> Procedure[None]:
    """At the end of ``side``'s turn, enemy guards who did not shoot go back to normal
    (RA-GUARD-03), and warriors who dived for cover in it get up (RA-SHOOT-05)."""
    last = side == game.sides[-1]
    for w in game.warriors:
        if w.ground is not Ground.NONE and (w.ground_turn == side or (last and not w.ground_turn)):
            w.ground = Ground.NONE
            w.ground_turn = ""
    for w in game.warriors:
        if w.side != side and w.watch is Watch.ON_GUARD and game.edition is Edition.TURN:
            w.watch = Watch.NONE
            yield emit("apocalypse.game.guard_ends", rules=("RA-GUARD-03",), unit=game.name(w.id))
    if game.edition is Edition.ACTIVATION and side == game.sides[-1]:
        for w in game.warriors:
            if w.watch is Watch.ON_GUARD:
                w.watch = Watch.NONE
                yield emit(
                    "apocalypse.game.guard_ends", rules=("RA-GUARD-03",), unit=game.name(w.id)
                )


def activate(game: ApocalypseGame, w: Warrior) -> Procedure[None]:
    """One warrior acts."""
    w.turn.acted = True
    if not w.fit or w.morale is Morale.FLEEING or (w.turn.moved and w.turn.shot and w.turn.ran):
        return
    if w.stupor is Stupor.DROOL:
        return
    if w.ground is not Ground.NONE:  # dived for cover this round: he may only shoot
        yield from _fire(game, w)
        return
    if w.stupor is Stupor.SHUFFLE:
        yield from psyche.shuffle(game, w)
        return
    act = yield from _movement(game, w)
    if not w.fit or game.ending() is not None:
        return
    if act.kind in ("watch", "break", "charge", "leap", "giant_leap"):
        return
    yield from _hiding(game, w)
    yield from _fire(game, w)


# -- movement -------------------------------------------------------------------------


def _charge_verdict(
    game: ApocalypseGame,
    w: Warrior,
    target: Warrior,
    reach: float,
    in_combat: bool,
    height: float,
) -> Verdict:
    """May ``w`` charge ``target``? (``in_combat`` and ``height``: his own, the same for
    every target of one menu.)"""
    scared = fright(target.fright, w.fright)
    if ignores_psychology(w.frenzied, True):
        scared = Fright.NONE
    charger = Charger(
        reach=reach,
        distance=game.gap(w, target),
        in_combat=in_combat,
        fleeing=w.morale is Morale.FLEEING,
        stupid=w.stupor is not Stupor.SENSIBLE,
        target_fright=scared,
        guarding=w.watch is Watch.ON_GUARD,
    )
    return _charge_verdict_of(
        charger, target.sight is not Sight.HIDDEN, abs(height - game.height(target)) < 1.0
    )


@deciding_cache(1024)
def _charge_verdict_of(charger: Charger, seen: bool, level: bool) -> Verdict:
    """The rules' answer for one charge: :func:`may_charge`, never at a hidden warrior
    (RA-HIDE-02), nor one a storey above or below (RA-MAN-05). Remembered by all it
    reads: the same few situations come back at every activation."""
    return Verdict.combine(
        may_charge(charger),
        Verdict.of(seen, msg("apocalypse.permission.hidden"), "RA-HIDE-02"),
        Verdict.of(level, msg("apocalypse.permission.out_of_reach"), "RA-MAN-05"),
    )


def _movement(game: ApocalypseGame, w: Warrior) -> Procedure[Act]:
    menu: Menu[Act] = Menu()
    engaged = game.engaged(w)
    name = game.name(w.id)
    if engaged:
        menu.offer(Act("fight"), msg("apocalypse.option.fight_on"), Verdict.allow("RA-CC-01"))
        menu.offer(
            Act("break"),
            msg("apocalypse.option.break"),
            Verdict.allow("RA-CC-20", "RA-ABSENT-08"),
            Forecast(score=-taste("apocalypse", "hit_taken") * len(engaged)),
        )
        picked = yield from game.choose(
            menu,
            w.side,
            game.told(w, "apocalypse.reason.move", unit=name),
            default=Act("fight"),
            rules=("RA-CC-01",),
        )
        if picked.kind == "break":
            yield from fights.break_away(game, w, engaged, fleeing=False)
            if w.fit:
                far = game.nearest(w, engaged)
                yield from _step(game, w, far.base.centre if far else None, w.mobility, away=True)
        return picked
    enemies = [e for e in game.enemies(w) if e.in_battle]
    nearest = game.nearest(w, [e for e in enemies if e.sight is not Sight.HIDDEN])
    reach = w.mobility * number("movement", "charge_multiplier")
    sentry = may_guard(
        Sentry(game.edition, on_foot=True, in_combat=bool(engaged), moved_or_shot=w.turn.moved)
    )
    frenzy_target = None
    height = game.height(w)
    for target in enemies:
        if not target.fit and target.condition is not Condition.KNOCKED_DOWN:
            continue
        verdict = _charge_verdict(game, w, target, reach, bool(engaged), height)
        if verdict.allowed and frenzy_target is None:
            frenzy_target = target
        forecast = None
        if verdict.allowed:  # a refused option is never weighed: no forecast to build
            forecast = Forecast(
                melee,
                (
                    _as_charger(game, w, target),
                    fights.fighter(game, target, w, w.side),
                    (w.side, target.side),
                ),
                value=fights.bout_worth,
            )
        menu.offer(
            Act("charge", target.id),
            msg("apocalypse.option.charge", target=game.name(target.id)),
            verdict,
            forecast,
        )
    forced = must_charge(
        w.frenzied, frenzy_target is not None, w.condition is not Condition.STANDING
    )
    if forced and frenzy_target is not None:
        yield emit("apocalypse.game.frenzy", rules=("RA-PSY-10",), unit=name)
        act = Act("charge", frenzy_target.id)
        yield from _charge(game, w, frenzy_target)
        return act
    if nearest is not None:
        closing = min(w.mobility, game.gap(w, nearest)) * taste("apocalypse", "closing_per_pace")
        # a runner neither shoots nor sings: a shooter or a singer weighs what he forgoes
        forgone = taste("apocalypse", "run_forgoes_fire") if w.ranged_weapons() or w.singer else 0
        walk = may_walk(w.fallen_turn == game.turn_number, game.roof_under(w) is not None)
        menu.offer(
            Act("advance", nearest.id),
            msg("apocalypse.option.advance", target=game.name(nearest.id)),
            walk,
            Forecast(score=closing),
        )
        menu.offer(
            Act("run", nearest.id),
            msg("apocalypse.option.run", target=game.name(nearest.id)),
            walk,
            Forecast(score=closing * 1.5 - taste("apocalypse", "run") - forgone),
        )
    _creep_offer(game, w, menu, nearest or game.nearest(w, enemies))
    cover_spot = _cover_spot(game, w)
    if cover_spot is not None and not game.next_to_cover(w):
        menu.offer(
            Act("cover"),
            msg("apocalypse.option.to_cover"),
            Verdict.allow("RA-HIDE-01"),
            Forecast(score=taste("apocalypse", "hidden") / 2),
        )
    menu.offer(
        Act("watch"),
        msg(
            "apocalypse.option.watch" if game.edition is Edition.TURN else "apocalypse.option.guard"
        ),
        Verdict.combine(
            sentry,
            Verdict.of(
                bool(w.ranged_weapons()), msg("apocalypse.permission.no_weapon"), "RA-GUARD-02"
            ),
        ),
        Forecast(score=taste("apocalypse", "guard")),
    )
    _manoeuvre_offers(game, w, menu, enemies)
    menu.offer(Act("hold"), msg("apocalypse.option.hold"), Verdict.allow("RA-ABSENT-08"))
    refused = {r for offer in menu.refused for r in offer.verdict.rules}
    shaped = tuple(r for r in ("RA-HIDE-02",) if r in refused)
    picked = yield from game.choose(
        menu,
        w.side,
        game.told(w, "apocalypse.reason.move", unit=name),
        default=Act("hold"),
        rules=("RA-ABSENT-08", *shaped),
    )
    yield from _do(game, w, picked, cover_spot)
    return picked


def _as_charger(game: ApocalypseGame, w: Warrior, target: Warrior) -> Any:
    """The charger as the melee rule will see him after the charge."""
    from dataclasses import replace

    base = fights.fighter(game, w, target, w.side)
    return replace(
        base,
        charging=True,
        over_obstacle=game.tape.cover(w.base, target.base).value != "none",
    )


def _manoeuvre_offers(
    game: ApocalypseGame, w: Warrior, menu: Menu[Act], enemies: list[Warrior]
) -> None:
    """Climbing, jumping down, leap attacks, gaps and giant leaps (RA-MAN-01..05)."""
    roof = game.roof_under(w)
    if roof is None:
        for feature in game.roofs():
            touching = game.distance_to(feature, w.base.centre) <= w.base.radius + 0.6
            if not touching:
                continue
            menu.offer(
                Act("climb", feature.id),
                msg("apocalypse.option.climb", height=feature.elevation),
                may_climb(feature.elevation, w.mobility, touching),
                Forecast(score=taste("apocalypse", "climb")),
            )
    else:
        menu.offer(
            Act("climb_down", roof.id),
            msg("apocalypse.option.climb_down", height=roof.elevation),
            may_climb(roof.elevation, w.mobility, True),
            Forecast(score=0.01),
        )
        menu.offer(
            Act("jump", roof.id),
            msg("apocalypse.option.jump_down", height=roof.elevation),
            may_jump_down(roof.elevation),
            Forecast(score=0.02),
        )
        for target in enemies:
            if not target.fit or target.sight is Sight.HIDDEN or game.roof_under(target):
                continue
            landing = max(
                0.0, game.distance_to(roof, target.base.centre) - target.base.radius - w.base.radius
            )
            spot = game.contact_point(w, target)
            room = game.tape.elevation(spot) < 1.0 and heights.clear_to_land(game, w, spot, target)
            menu.offer(
                Act("leap", target.id),
                msg("apocalypse.option.leap", target=game.name(target.id)),
                Verdict.combine(
                    may_jump_down(roof.elevation),
                    may_leap_attack(landing),
                    Verdict.of(room, msg("apocalypse.permission.no_room"), "RA-MAN-05"),
                ),
                Forecast(score=0.3),
            )
        for other in game.roofs():
            if other.id == roof.id:
                continue
            width = roof.shape.distance(other.shape)
            if width <= decimal("manoeuvres", "gap_paces") + 1e-9:
                menu.offer(
                    Act("gap", other.id),
                    msg("apocalypse.option.gap", width=round(width, 1)),
                    Verdict.allow("RA-MAN-02"),
                    Forecast(score=taste("apocalypse", "gap")),
                )
    if w.giant_leap:
        for target in enemies:
            if not target.fit or target.sight is Sight.HIDDEN:
                continue
            menu.offer(
                Act("giant_leap", target.id),
                msg(
                    "apocalypse.option.giant_leap", target=game.name(target.id), paces=w.giant_leap
                ),
                Verdict.of(
                    game.gap(w, target) <= w.giant_leap and not game.engaged(w),
                    msg("apocalypse.permission.out_of_reach"),
                    "RA-MAN-04",
                ),
                Forecast(score=0.35),
            )


def _cover_spot(game: ApocalypseGame, w: Warrior) -> tuple[float, float] | None:
    """The nearest place next to cover within his move (the terrain never changes:
    looked up once per place, base and move)."""
    centre, radius, mobility = w.base.centre, w.base.radius, w.mobility

    def nearest() -> tuple[float, float] | None:
        best: tuple[float, tuple[float, float]] | None = None
        for feature in game.table.features:
            if feature.cover.value == "none" or feature.elevation >= 1.0:
                continue
            for point in game.tape.around(feature.id, radius, 0.3, step=1.5):
                d = math.dist(point, centre)
                if d <= mobility and (best is None or d < best[0]):
                    best = (d, point)
        return None if best is None else best[1]

    return game.for_the_battle(game.cover_spots, (centre, radius, mobility), nearest)


def _creep_spot(
    game: ApocalypseGame, w: Warrior, enemy: Warrior
) -> tuple[tuple[float, float] | None, Verdict]:
    """Where a hidden ``w`` may creep toward ``enemy``: a place next to cover within his
    move, nearer the enemy, that he reaches behind cover all the way (RA-HIDE-04), with
    the hiding rule's verdict (the nearest such tried places, nearest the enemy first)."""
    here = math.dist(w.base.centre, enemy.base.centre)
    step = float(taste("apocalypse", "creep_min_paces"))
    home = w.base.centre
    watchers = [e for e in game.enemies(w) if e.fit]
    candidates: list[tuple[float, tuple[float, float]]] = []
    for feature in game.table.features:
        if feature.cover.value == "none" or feature.elevation >= 1.0:
            continue
        for point in game.tape.around(feature.id, w.base.radius, 0.3, step=1.5):
            gain = here - math.dist(point, enemy.base.centre)
            if math.dist(point, home) > w.mobility or gain < step:
                continue
            game.place(w, point)  # behind this cover from every enemy who would see him?
            if all(game.screened(e, w) for e in watchers):
                candidates.append((-gain, point))
    game.place(w, home)
    refusal = Verdict.forbid(msg("apocalypse.permission.no_cover"), "RA-HIDE-04", "RA-HIDE-01")
    for _, point in sorted(candidates)[: int(taste("apocalypse", "creep_tries"))]:
        way = game.route(w, point, float(w.mobility))
        if way is None or way[1] == home:
            continue
        _, why = moving.sneak(game, w, moving.stages(game, w, way[0], way[1]))
        game.place(w, home)
        if why is None:
            return way[1], Verdict.allow("RA-HIDE-04")
        refusal = why
    return None, refusal


def _creep_offer(game: ApocalypseGame, w: Warrior, menu: Menu[Act], enemy: Warrior | None) -> None:
    """A hidden warrior may creep behind cover to a place nearer the enemy and stay
    hidden (RA-HIDE-04); a refused creep says why (running, an enemy too close, open
    ground on the way)."""
    if w.sight is not Sight.HIDDEN or enemy is None:
        return
    spot, verdict = _creep_spot(game, w, enemy)
    gain = 0.0
    if spot is not None:
        gain = math.dist(w.base.centre, enemy.base.centre) - math.dist(spot, enemy.base.centre)
    menu.offer(
        Act("creep", enemy.id),
        msg("apocalypse.option.creep", target=game.name(enemy.id)),
        verdict,
        Forecast(
            score=gain * taste("apocalypse", "closing_per_pace") + taste("apocalypse", "creep")
        ),
    )


def _do(
    game: ApocalypseGame, w: Warrior, act: Act, cover_spot: tuple[float, float] | None
) -> Procedure[None]:
    if act.kind == "creep":
        spot, _ = _creep_spot(game, w, game.warrior(act.target))
        yield from _step(game, w, spot, float(w.mobility))
    elif act.kind == "advance":
        target = game.warrior(act.target)
        yield from _step(game, w, target.base.centre, float(w.mobility))
    elif act.kind == "run":
        target = game.warrior(act.target)
        w.turn.ran = True
        yield from _step(
            game, w, target.base.centre, float(w.mobility * number("movement", "run_multiplier"))
        )
    elif act.kind == "cover" and cover_spot is not None:
        yield from _step(game, w, cover_spot, float(w.mobility))
    elif act.kind == "charge":
        yield from _charge(game, w, game.warrior(act.target))
    elif act.kind == "watch":
        w.watch = Watch.ON_GUARD
        w.turn.moved = w.turn.shot = True
        yield Emit(game.told(w, "apocalypse.game.on_guard", unit=game.name(w.id)), ("RA-GUARD-01",))
    elif act.kind == "climb":
        yield from heights.climb_onto(game, w, act.target)
    elif act.kind == "climb_down":
        yield from heights.climb_off(game, w)
    elif act.kind == "jump":
        yield from heights.jump_off(game, w, None)
    elif act.kind == "leap":
        yield from heights.jump_off(game, w, game.warrior(act.target))
    elif act.kind == "gap":
        yield from heights.leap_gap(game, w, act.target)
    elif act.kind == "giant_leap":
        yield from heights.giant_leap_at(game, w, game.warrior(act.target))


def _step(
    game: ApocalypseGame,
    w: Warrior,
    goal: tuple[float, float] | None,
    paces: float,
    away: bool = False,
) -> Procedure[None]:
    """Walk toward (or away from) ``goal``, then let the enemy react (guard, detection)."""
    if goal is None:
        return
    if away:
        dx, dy = w.base.x - goal[0], w.base.y - goal[1]
        norm = math.hypot(dx, dy) or 1.0
        r = w.base.radius
        goal = (
            min(max(w.base.x + dx / norm * paces, r), game.table.width - r),
            min(max(w.base.y + dy / norm * paces, r), game.table.height - r),
        )
    way = game.route(w, goal, paces)
    if way is None or way[1] == w.base.centre:
        return
    w.turn.moved = True
    # a hidden walker creeps on while the hiding rule lets him (RA-HIDE-04, in travel)
    yield Emit(
        game.told(w, "apocalypse.game.moves", unit=game.name(w.id), paces=round(paces, 1)),
        ("RA-ABSENT-08", "RA-ABSENT-12"),
    )
    yield from moving.travel(game, w, way[0], way[1])


def _charge(game: ApocalypseGame, w: Warrior, target: Warrior) -> Procedure[None]:
    """A charge: fear tests (RA-PSY-07), guard fire on the way (RA-GUARD-02/04), into
    contact."""
    came_out = w.sight is Sight.HIDDEN
    if came_out:
        w.sight = Sight.SEEN
        # a charger cannot stay hidden (RA-HIDE-04; 000's «атаковать» reveals, RA-HIDE-03)
        yield emit(
            "apocalypse.game.revealed", rules=("RA-HIDE-03", "RA-HIDE-04"), unit=game.name(w.id)
        )
    scared = fright(target.fright, w.fright)
    if target.fright is not Fright.NONE and scared is not target.fright:
        yield emit(
            "apocalypse.game.immune" if scared is Fright.NONE else "apocalypse.game.only_fear",
            rules=("RA-PSY-09",),
            unit=game.name(w.id),
            fright=target.fright,
        )
    if scared is not Fright.NONE and not ignores_psychology(w.frenzied, True):
        brave = yield Call(_fear, (psyche.spirit_of(game, w),))
        if not brave:
            w.turn.moved = True  # a failed charge: he stays where he is (RA-PSY-07 b)
            return
    yield emit(
        "apocalypse.game.charges",
        rules=("RA-ABSENT-08",),
        unit=game.name(w.id),
        target=game.name(target.id),
    )
    yield from game.interrupts.fire(
        Moment(Trigger.CHARGE_DECLARED, w.side, w.id, target.id, facts=(("charge", True),))
    )
    if not w.fit or not target.in_battle:
        return
    feared = fright(w.fright, target.fright)
    if feared is not Fright.NONE and target.fit and not ignores_psychology(target.frenzied, True):
        brave = yield Call(_fear, (psyche.spirit_of(game, target),))
        if not brave:
            target.turn.afraid_of = w.id
    w.turn.over_obstacle = game.tape.cover(w.base, target.base).value != "none"
    reach = float(w.mobility * number("movement", "charge_multiplier")) + 0.5
    way = game.route(w, game.contact_point(w, target), reach, target=target)
    w.turn.moved = True
    w.turn.charged = True
    if way is None:
        return
    arrived = yield from moving.travel(game, w, way[0], way[1], target=target, came_out=came_out)
    if not arrived or not target.in_battle:
        return
    if game.gap(w, target) > 0.05:
        yield emit("apocalypse.game.charge_short", rules=("RA-ABSENT-08",), unit=game.name(w.id))
        return
    game.contacts.engage(w.id, target.id, ("RA-ABSENT-08", "RA-CC-01"))
    if w.turn.over_obstacle:
        yield emit("apocalypse.game.over_obstacle", rules=("RA-CC-10",), unit=game.name(w.id))
    if target.morale is Morale.FLEEING and target.fit:
        # a fleeing warrior charged runs d6 paces and avoids the blows (RA-PSY-06)
        yield from psyche.run_away(game, target, w.base.centre)
        return
    if target.watch is Watch.ON_GUARD:
        target.watch = Watch.NONE
        yield emit("apocalypse.game.guard_ends", rules=("RA-GUARD-03",), unit=game.name(target.id))


def _fear(spirit: int) -> Procedure[bool]:

    return (yield from fear_test(spirit))


# -- hiding and shooting ----------------------------------------------------------------


def _hiding(game: ApocalypseGame, w: Warrior) -> Procedure[None]:
    if w.sight is Sight.HIDDEN or not w.fit:
        return
    verdict = may_hide(moving.hider_here(game, w, game.next_to_cover(w)))
    if not verdict.allowed:
        told = ("RA-HIDE-04", "RA-HIDE-06", "RA-HIDE-07", "RA-AMB-02", "RA-HIDE-05")
        if game.next_to_cover(w) and any(r in told for r in verdict.rules):
            yield emit(
                "apocalypse.game.cannot_hide",
                rules=verdict.rules,
                unit=game.name(w.id),
                reason=verdict.reason,
            )
        return
    menu: Menu[bool] = Menu()
    menu.offer(
        True, msg("apocalypse.option.hide"), verdict, Forecast(score=taste("apocalypse", "hidden"))
    )
    menu.offer(False, msg("apocalypse.option.stay_seen"), Verdict.allow("RA-HIDE-01"))
    hide = yield from game.choose(
        menu,
        w.side,
        game.told(w, "apocalypse.reason.hide", secret=True, unit=game.name(w.id)),
        default=True,
        rules=("RA-HIDE-01",),
    )
    if not hide:
        return
    if game.edition is Edition.ACTIVATION:
        game.fp[w.side] -= number("hiding", "fp_cost")
    w.sight = Sight.HIDDEN
    yield Emit(game.told(w, "apocalypse.game.hides", unit=game.name(w.id)), verdict.rules)


def _fire(game: ApocalypseGame, w: Warrior) -> Procedure[None]:
    if not w.fit or w.turn.ran or w.watch is Watch.ON_GUARD:
        return
    menu: Menu[Any] = Menu()
    shots.shooting_menu(game, w, menu)
    if w.ground is Ground.NONE:
        songs.song_menu(game, w, menu)
    if w.lasting:
        menu.offer(
            "end_song",
            msg("apocalypse.option.end_song", melody=game.name(f"melody:{w.lasting}")),
            Verdict.allow("RA-MEL-08"),
            Forecast(score=-taste("apocalypse", "ward")),
        )
    if not len(menu):
        return
    menu.offer(shots.Aim(), msg("apocalypse.option.hold_fire"), Verdict.allow("RA-ABSENT-04"))
    # the prohibitions that shaped this choice: no hidden targets (RA-HIDE-02); within a
    # pace of a fight no shooting (RA-CC-02), but singing (RA-MEL-10)
    refused = {r for offer in menu.refused for r in offer.verdict.rules}
    shaped = tuple(r for r in ("RA-MEL-10", "RA-HIDE-02", "RA-CC-02") if r in refused)
    if "RA-CC-02" in refused and any(isinstance(o, songs.Song) for o in menu.options):
        shaped = (*shaped, "RA-MEL-10")
    picked = yield from game.choose(
        menu,
        w.side,
        game.told(w, "apocalypse.reason.fire", unit=game.name(w.id)),
        default=shots.Aim(),
        rules=tuple(dict.fromkeys(("RA-ABSENT-04", *shaped))),
    )
    if picked == "end_song":
        w.lasting = ""
        yield emit(
            "apocalypse.game.lasting_ends",
            rules=("RA-MEL-08",),
            unit=game.name(w.id),
            why=msg("apocalypse.melody.lasting_end.at_will"),
        )
    elif isinstance(picked, songs.Song):
        yield from songs.sing(game, w, picked)
    elif isinstance(picked, shots.Aim) and picked.target:
        target = game.warrior(picked.target)
        weapon = next(x for x in w.weapons if x.id == picked.weapon)
        yield from shots.fire(game, w, target, weapon)


__all__ = ["Act", "activate", "activations", "end_of_turn", "register"]
