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
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from kubik.engine import (
    AnyForecast,
    Emit,
    Entry,
    Forecast,
    Message,
    Procedure,
    Verdict,
    emit,
    msg,
)
from kubik.game.battle import LazyForecast, Menu, move_entry
from kubik.game.battle.tastes import taste
from kubik.rulesets.apocalypse.battle import charges, fights, heights, moving, psyche, shots, songs
from kubik.rulesets.apocalypse.battle.state import ApocalypseState
from kubik.rulesets.apocalypse.battle.warriors import (
    Condition,
    Ground,
    Morale,
    Sight,
    Warrior,
    Watch,
)
from kubik.rulesets.apocalypse.core import Edition
from kubik.rulesets.apocalypse.guard import Sentry, guard_ends, may_guard
from kubik.rulesets.apocalypse.hiding import hiding_cost, may_hide, may_sneak
from kubik.rulesets.apocalypse.manoeuvres import (
    may_climb,
    may_giant_leap,
    may_jump_down,
    may_jump_gap,
    may_leap_attack,
    may_walk,
)
from kubik.rulesets.apocalypse.melody import may_end_lasting
from kubik.rulesets.apocalypse.movement import (
    is_run,
    may_break_away,
    may_end_move,
    move_allowance,
    run_allowance,
)
from kubik.rulesets.apocalypse.psychology import Stupor, must_charge
from kubik.rulesets.apocalypse.shooting import shoot
from kubik.rulesets.apocalypse.warband import activation_cost, may_activate
from kubik.table import Point


@dataclass(frozen=True, slots=True)
class Act:
    """A movement option: ``kind`` toward ``target`` (a warrior or a feature id)."""

    kind: str
    target: str = ""


@dataclass(frozen=True, slots=True)
class Placed:
    """A move people at a real table made and typed: where the warrior now stands, the
    paces his walked way there costs, and whether that was a run (RA-ABSENT-08)."""

    x: float
    y: float
    paces: float
    run: bool

    @property
    def kind(self) -> str:
        """As a movement option: a move of his own (he may still hide and shoot)."""
        return "placed"


def activations(game: ApocalypseState) -> Procedure[None]:
    """Activation edition: the sides take turns activating one warrior each, paying FP,
    until no side has a warrior left to act or FP to pay (RA-ABSENT-10)."""
    cost = activation_cost()
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
                    may_activate(game.fp[side], w.turn.acted),
                )
            # which warrior acts is the enemy's to know only when he is seen: with a
            # hidden one among them the choice is kept from him (RA-HIDE-02), and a
            # seen one's activation told to him apart
            secret = any(w.sight is Sight.HIDDEN for w in ready)
            reason = msg("apocalypse.reason.activate", side=game.side_name(side), fp=game.fp[side])
            if secret:
                reason = msg(
                    "apocalypse.reason.activate",
                    side=game.side_name(side),
                    fp=game.fp[side],
                    unseen_by=game.enemy_of(side),
                )
            picked = yield from game.choose(menu, side, reason, rules=("RA-ABSENT-10",))
            if secret and game.warrior(picked).sight is not Sight.HIDDEN:
                yield emit(
                    "apocalypse.game.activates",
                    rules=("RA-ABSENT-10",),
                    unit=game.name(picked),
                )
            game.fp[side] -= cost
            w = game.warrior(picked)
            yield from activate(game, w)
            progressed = True
            if game.ending() is not None:
                return
        if not progressed:
            return


def end_of_turn(game: ApocalypseState, side: str) -> Procedure[None]:
    """At the end of ``side``'s turn, enemy guards who did not shoot go back to normal
    (RA-GUARD-03), and warriors who dived for cover in it get up (RA-SHOOT-05)."""
    last = side == game.sides[-1]
    for w in game.warriors:
        if w.ground is not Ground.NONE and (w.ground_turn == side or (last and not w.ground_turn)):
            w.ground = Ground.NONE
            w.ground_turn = ""
    for w in game.warriors:
        if w.side != side and w.watch is Watch.ON_GUARD and game.edition is Edition.TURN:
            w.watch = _after_quiet_turn()
            yield emit(
                game.post_msg("game.post_ends"), rules=("RA-GUARD-03",), unit=game.name(w.id)
            )
    if game.edition is Edition.ACTIVATION and side == game.sides[-1]:
        for w in game.warriors:
            if w.watch is Watch.ON_GUARD:
                w.watch = _after_quiet_turn()
                yield emit(
                    game.post_msg("game.post_ends"), rules=("RA-GUARD-03",), unit=game.name(w.id)
                )


def _after_quiet_turn() -> Watch:
    """A guard's watch once the enemy's turn is over: the rule ends it (RA-GUARD-03)."""
    return Watch.NONE if guard_ends(False, True, False, False) else Watch.ON_GUARD


def activate(game: ApocalypseState, w: Warrior) -> Procedure[None]:
    """Activation edition: one warrior acts — moves (or stands guard), hides, shoots or
    sings (RA-ABSENT-10)."""
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
    if act.kind in _NO_MORE:
        return
    yield from _hiding(game, w)
    yield from _fire(game, w)


#: Moves after which a warrior does nothing more in his turn: on guard, fighting on, out
#: of a fight, into one.
_NO_MORE = frozenset({"watch", "fight", "break", "charge", "leap", "giant_leap"})


def watch_phase(game: ApocalypseState, side: str) -> Procedure[None]:
    """Turn edition: at the start of his turn a warrior may stand watch (Дозор), giving up
    his whole turn — no moving, no shooting (RA-GUARD-01: «в начале своего хода ... Боец
    должен полностью отказаться от своего хода»)."""
    for w in game.side_warriors(side):
        if not w.in_battle:
            continue
        verdict = may_guard(_sentry(game, w, start_of_turn=True))
        if not verdict.allowed:
            continue
        menu: Menu[bool] = Menu()
        menu.offer(
            True,
            msg(game.post_msg("option.post")),
            verdict,
            Forecast(score=taste("apocalypse", "guard")),
        )
        acting = LazyForecast(partial(_acting, game, w))  # (read by a bot that weighs it)
        menu.offer(False, msg("apocalypse.option.act"), Verdict.neutral(), acting)
        watch = yield from game.choose(
            menu,
            w.side,
            game.told(w, "apocalypse.reason.watch", unit=game.name(w.id)),
            default=False,
            rules=("RA-GUARD-01",),
        )
        if watch:
            w.watch = Watch.ON_GUARD
            w.turn.moved = w.turn.shot = True
            yield Emit(
                game.told(w, game.post_msg("game.stands"), unit=game.name(w.id)), verdict.rules
            )


def _acting(game: ApocalypseState, w: Warrior) -> AnyForecast:
    """What acting this turn is worth to a bot weighing watch against it: closing on the
    nearest enemy, and a shot he has now in range (the shot's own odds)."""
    board = game.board
    nearest = board.nearest(w, [e for e in board.enemies(w) if e.sight is not Sight.HIDDEN])
    gap = board.gap(w, nearest) if nearest is not None else 0.0
    closing = min(w.mobility, gap) * taste("apocalypse", "closing_per_pace")
    menu: Menu[shots.Aim] = Menu()
    shots.shooting_menu(game, w, menu)
    for offer in menu.offers:
        forecast = offer.forecast
        if isinstance(forecast, Forecast) and forecast.args[0].in_range:
            return Forecast(shoot, forecast.args, value=shots.hit_worth, score=closing)
    return Forecast(score=closing)


def movement_phase(game: ApocalypseState, side: str) -> Procedure[None]:
    """Turn edition: the movement phase («фаза передвижения»): each warrior moves, charges
    or climbs, and may hide where his move ends."""
    yield emit(
        "apocalypse.game.phase", rules=("RA-ABSENT-08",), phase=msg("apocalypse.phase.movement")
    )
    for w in game.side_warriors(side):
        if game.ending() is not None:
            return
        if not w.fit or w.morale is Morale.FLEEING or w.watch is Watch.ON_GUARD:
            continue
        if w.stupor is Stupor.DROOL or w.ground is not Ground.NONE:
            continue
        if w.stupor is Stupor.SHUFFLE:
            yield from psyche.shuffle(game, w)
            continue
        act = yield from _movement(game, w)
        if w.fit and game.ending() is None and act.kind not in _NO_MORE:
            yield from _hiding(game, w)


def shooting_phase(game: ApocalypseState, side: str) -> Procedure[None]:
    """Turn edition: the shooting phase («фаза Стрельбы»): each warrior shoots or plays a
    Melody (those in a fight do not shoot, RA-CC-01)."""
    yield emit(
        "apocalypse.game.phase", rules=("RA-ABSENT-04",), phase=msg("apocalypse.phase.shooting")
    )
    for w in game.side_warriors(side):
        if game.ending() is not None:
            return
        if w.in_battle and w.morale is Morale.STEADY:
            yield from _fire(game, w)


# -- movement -------------------------------------------------------------------------


def _sentry(game: ApocalypseState, w: Warrior, *, start_of_turn: bool) -> Sentry:
    """What the permission to stand guard reads of ``w`` now."""
    return Sentry(
        game.edition,
        on_foot=True,
        in_combat=bool(game.board.engaged(w)),
        start_of_turn=start_of_turn,
        moved_or_shot=w.turn.moved or w.turn.shot,
        armed=bool(w.ranged_weapons()),
        able=w.fit and w.morale is Morale.STEADY and w.stupor is Stupor.SENSIBLE,
    )


def _movement(game: ApocalypseState, w: Warrior) -> Procedure[Act | Placed]:
    menu: Menu[Act] = Menu()
    board = game.board
    engaged = board.engaged(w)
    name = game.name(w.id)
    if engaged:
        menu.offer(Act("fight"), msg("apocalypse.option.fight_on"), Verdict.neutral())
        menu.offer(
            Act("break"),
            msg("apocalypse.option.break"),
            may_break_away(w.fit, w.morale is Morale.FLEEING),
            Forecast(score=-taste("apocalypse", "hit_taken") * len(engaged)),
        )
        fight = yield from game.choose(
            menu,
            w.side,
            game.told(w, "apocalypse.reason.move", unit=name),
            default=Act("fight"),
            rules=("RA-CC-01",),
        )
        if fight.kind == "break":
            w.turn.ran = True  # he turns and runs: no hiding, no shooting after it (RA-CC-20)
            yield from fights.break_away(game, w, engaged, fleeing=False)
            if w.fit:
                yield from _break_off(game, w, engaged)
        return fight
    enemies = [e for e in board.enemies(w) if e.in_battle]
    nearest = board.nearest(w, [e for e in enemies if e.sight is not Sight.HIDDEN])
    sentry = may_guard(_sentry(game, w, start_of_turn=False))
    frenzy_target = None
    height = game.height(w)
    for target in enemies:
        if not target.fit and target.condition is not Condition.KNOCKED_DOWN:
            continue
        verdict, way = charges.charge_verdict(game, w, target, bool(engaged), height)
        if verdict.allowed and frenzy_target is None:
            frenzy_target = target
        label = msg("apocalypse.option.charge", target=game.name(target.id))
        forecast = None
        if verdict.allowed and way is not None:  # a refused option is never weighed
            label = msg(
                "apocalypse.option.charge_way",
                target=game.name(target.id),
                paces=round(way.cost, 1),
            )
            forecast = LazyForecast(partial(charges.charge_forecast, game, w, target))
        menu.offer(Act("charge", target.id), label, verdict, forecast)
    forced = must_charge(
        w.frenzied, frenzy_target is not None, w.condition is not Condition.STANDING
    )
    if forced and frenzy_target is not None:
        yield Emit(game.told(w, "apocalypse.game.frenzy", unit=name), ("RA-PSY-10",))
        act = Act("charge", frenzy_target.id)
        yield from charges.charge(game, w, frenzy_target)
        return act
    if nearest is not None:
        closing = min(w.mobility, board.gap(w, nearest)) * taste("apocalypse", "closing_per_pace")
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
    _creep_offer(game, w, menu, nearest or board.nearest(w, enemies))
    cover_spot = _cover_spot(game, w)
    if cover_spot is not None and not game.next_to_cover(w):
        menu.offer(
            Act("cover"),
            msg("apocalypse.option.to_cover"),
            may_walk(w.fallen_turn == game.turn_number, game.roof_under(w) is not None),
            Forecast(score=taste("apocalypse", "hidden") / 2),
        )
    menu.offer(
        Act("watch"),
        msg(game.post_msg("option.post")),
        sentry,
        Forecast(score=taste("apocalypse", "guard")),
    )
    _manoeuvre_offers(game, w, menu, enemies)
    menu.offer(Act("hold"), msg("apocalypse.option.hold"), Verdict.neutral())
    refused = {r for offer in menu.refused for r in offer.verdict.rules}
    shaped = tuple(r for r in ("RA-HIDE-02",) if r in refused)
    walking = may_walk(w.fallen_turn == game.turn_number, game.roof_under(w) is not None)
    picked: Act | Placed = yield from game.choose(
        menu,
        w.side,
        game.told(w, "apocalypse.reason.move", unit=name),
        default=Act("hold"),
        rules=("RA-ABSENT-08", *shaped),
        entry=_typed_move(game, w) if walking.allowed else None,
    )
    if isinstance(picked, Placed):
        yield from _placed(game, w, picked)
        return picked
    yield from _do(game, w, picked, cover_spot)
    return picked


def _typed_move(game: ApocalypseState, w: Warrior) -> Entry:
    """A person playing the side (or people at a real table) may type where the warrior
    goes instead of picking an option: a place, or a distance and bearing (the battle
    layer's grammar), checked by the board (on the table, on ground he may stand on,
    clear of every model) and by the movement rule (a walk of his Подвижность or a run
    of twice it, never into contact: a charge is picked as one)."""
    board = game.board

    def check(spot: Point) -> Message | None:
        way = board.way(w, spot)
        if way is None:
            return msg("apocalypse.permission.no_way")
        paces = board.pace(w)(way)
        verdict = may_end_move(paces, w.mobility, into_contact=not board.fits(w, spot))
        return None if verdict.allowed else verdict.reason

    def make(spot: Point) -> Placed:
        way = board.way(w, spot)
        paces = round(board.pace(w)(way), 1) if way is not None else 0.0
        return Placed(spot[0], spot[1], paces, is_run(paces, w.mobility))

    def label(value: Hashable) -> Message:
        assert isinstance(value, Placed)
        said = "apocalypse.option.placed_run" if value.run else "apocalypse.option.placed"
        return msg(said, x=value.x, y=value.y, paces=value.paces)

    return move_entry(board, w, make, check, label=label)


def _placed(game: ApocalypseState, w: Warrior, placed: Placed) -> Procedure[None]:
    """The move people made at the table, walked along the board's way to where they put
    the warrior (guards fire and hidden enemies are found on the way, as for any move)."""
    spot = (placed.x, placed.y)
    way = game.board.way(w, spot)
    if way is None or spot == w.base.centre:
        return
    if placed.run:
        w.turn.ran = True
    yield from _go(game, w, way, spot, placed.paces, placed.run)


def _manoeuvre_offers(
    game: ApocalypseState, w: Warrior, menu: Menu[Act], enemies: list[Warrior]
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
            room = heights.landing_by(game, w, target) is not None
            menu.offer(
                Act("leap", target.id),
                msg("apocalypse.option.leap", target=game.name(target.id)),
                Verdict.combine(may_jump_down(roof.elevation), may_leap_attack(landing, room)),
                Forecast(score=0.3),
            )
        for other in game.roofs():
            if other.id == roof.id:
                continue
            width = float(roof.shape.distance(other.shape))
            jump = may_jump_gap(width)
            if jump.allowed:  # (another roof across the street: no gap to jump)
                menu.offer(
                    Act("gap", other.id),
                    msg("apocalypse.option.gap", width=round(width, 1)),
                    jump,
                    Forecast(score=taste("apocalypse", "gap")),
                )
    if w.giant_leap:
        engaged = bool(game.board.engaged(w))
        for target in enemies:
            if not target.fit or target.sight is Sight.HIDDEN:
                continue
            # how far he flies: to where he lands in contact with the enemy
            spot = None
            if game.board.gap(w, target) <= w.giant_leap and not engaged:
                spot = heights.landing_by(game, w, target, within=float(w.giant_leap))
            leap = math.inf if spot is None else math.dist(w.base.centre, spot)
            menu.offer(
                Act("giant_leap", target.id),
                msg(
                    "apocalypse.option.giant_leap", target=game.name(target.id), paces=w.giant_leap
                ),
                may_giant_leap(leap, w.giant_leap, engaged),
                Forecast(score=0.35),
            )


def _cover_spot(game: ApocalypseState, w: Warrior) -> tuple[float, float] | None:
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
    game: ApocalypseState, w: Warrior, enemy: Warrior
) -> tuple[tuple[float, float] | None, Verdict]:
    """Where a hidden ``w`` may creep toward ``enemy``: a place next to cover within his
    move, nearer the enemy, that he reaches behind cover all the way (RA-HIDE-04), with
    the hiding rule's verdict (the nearest such tried places, nearest the enemy first)."""
    here = math.dist(w.base.centre, enemy.base.centre)
    step = float(taste("apocalypse", "creep_min_paces"))
    home = w.base.centre
    watchers = [e for e in game.board.enemies(w) if e.fit]
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
    # with no place behind cover to creep to, the hiding rule's refusal where he stands
    refusal = may_sneak(moving.hider_here(game, w, False))
    for _, point in sorted(candidates)[: int(taste("apocalypse", "creep_tries"))]:
        walked = game.walk(w, point, move_allowance(w.mobility))
        if walked is None or walked.end == home:
            continue
        _, crept = moving.sneak(game, w, moving.stages(game, w, walked.path, walked.end))
        game.place(w, home)
        if crept.allowed:
            return walked.end, crept
        refusal = crept
    return None, refusal


def _creep_offer(game: ApocalypseState, w: Warrior, menu: Menu[Act], enemy: Warrior | None) -> None:
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
    game: ApocalypseState, w: Warrior, act: Act, cover_spot: tuple[float, float] | None
) -> Procedure[None]:
    if act.kind == "creep":
        spot, _ = _creep_spot(game, w, game.warrior(act.target))
        yield from _step(game, w, spot, move_allowance(w.mobility))
    elif act.kind == "advance":
        target = game.warrior(act.target)
        yield from _step(game, w, target.base.centre, move_allowance(w.mobility))
    elif act.kind == "run":
        target = game.warrior(act.target)
        w.turn.ran = True
        yield from _step(game, w, target.base.centre, run_allowance(w.mobility), running=True)
    elif act.kind == "cover" and cover_spot is not None:
        yield from _step(game, w, cover_spot, move_allowance(w.mobility))
    elif act.kind == "charge":
        yield from charges.charge(game, w, game.warrior(act.target))
    elif act.kind == "watch":
        w.watch = Watch.ON_GUARD
        w.turn.moved = w.turn.shot = True
        yield Emit(
            game.told(w, game.post_msg("game.stands"), unit=game.name(w.id)), ("RA-GUARD-01",)
        )
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
    game: ApocalypseState,
    w: Warrior,
    goal: tuple[float, float] | None,
    paces: float,
    *,
    running: bool = False,
) -> Procedure[None]:
    """Walk toward ``goal`` (at most ``paces``), then let the enemy react (guard,
    detection)."""
    if goal is None:
        return
    walked = game.walk(w, goal, paces)
    if walked is None or walked.end == w.base.centre:
        return
    yield from _go(game, w, walked.path, walked.end, walked.walked, running)


def _go(
    game: ApocalypseState,
    w: Warrior,
    path: Sequence[Point],
    end: Point,
    paces: float,
    running: bool = False,
) -> Procedure[None]:
    """He moves along ``path`` to ``end`` (``paces`` walked), told as a move or a run; a
    hidden walker creeps on while the hiding rule lets him (RA-HIDE-04, in travel)."""
    w.turn.moved = True
    said = "apocalypse.game.runs" if running else "apocalypse.game.moves"
    yield Emit(
        game.told(w, said, unit=game.name(w.id), paces=round(paces, 1)),
        ("RA-ABSENT-08", "RA-ABSENT-12"),
    )
    yield from moving.travel(game, w, path, end)


def _break_off(game: ApocalypseState, w: Warrior, enemies: Sequence[Warrior]) -> Procedure[None]:
    """Out of the fight, he steps his move straight away from the enemies he left (the
    board's back-away: a little aside when straight away is no good)."""
    here = w.base.centre
    spot = game.board.back_away(w, enemies, move_allowance(w.mobility), turns=_AWAY)
    if spot is None:
        return
    yield from _go(game, w, (here, spot), spot, math.dist(here, spot), running=True)


#: The turns (degrees) tried when straight away from the enemy is no good.
_AWAY = (0.0, 30.0, -30.0, 60.0, -60.0, 90.0, -90.0)


# -- hiding and shooting ----------------------------------------------------------------


def _hiding(game: ApocalypseState, w: Warrior) -> Procedure[None]:
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
    menu.offer(False, msg("apocalypse.option.stay_seen"), Verdict.neutral())
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
        game.fp[w.side] -= hiding_cost()
    w.sight = Sight.HIDDEN
    yield Emit(game.told(w, "apocalypse.game.hides", unit=game.name(w.id)), verdict.rules)


def _fire(game: ApocalypseState, w: Warrior) -> Procedure[None]:
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
            may_end_lasting(bool(w.lasting)),
            Forecast(score=-taste("apocalypse", "ward")),
        )
    if not len(menu):
        return
    menu.offer(shots.Aim(), msg("apocalypse.option.hold_fire"), Verdict.neutral())
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


__all__ = [
    "Act",
    "Placed",
    "activate",
    "activations",
    "end_of_turn",
    "movement_phase",
    "shooting_phase",
    "watch_phase",
]
