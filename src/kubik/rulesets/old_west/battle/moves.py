"""The Movement phase: Yee Haw! first, then the posse with advantage, then the other.

Each model not in a fight chooses where to go among a few places measured on the
table (OW-ABSENT-02 default): stay, advance toward the nearest enemy (stopping
outside his 1" control zone), take the nearest cover, fall back, or charge an enemy
it can reach (a charge is the only move into base contact: it starts a fight). Every
option is offered with the rules' verdict (:func:`~kubik.rulesets.old_west.movement.
may_move`, :func:`~kubik.rulesets.old_west.movement.may_end_move`,
:func:`~kubik.rulesets.old_west.movement.may_charge`) and the decision names their
rules. A prone model stands up first at the cost of half its move (OW-ABSENT-10) —
not when it was charged lying down (OW-CC-10). Jumping a fence or a trough takes a
jump test (OW-ABSENT-02; Fame may help, OW-HERO-04); charging a model of Fearsome
Reputation takes a Pluck test first (OW-PLK-05). At a real table people may type
where they put the model instead (:func:`~kubik.rulesets.old_west.battle.table.move_entry`).
"""

from __future__ import annotations

import heapq
import math
from typing import TYPE_CHECKING

from kubik.engine import AnyForecast, Call, Forecast, Message, Procedure, Verdict, emit, msg
from kubik.game.battle import LazyForecast, Menu, touching
from kubik.rulesets.old_west.absent import JumpResult, jump_test
from kubik.rulesets.old_west.battle import ground
from kubik.rulesets.old_west.battle.figures import Figure, Stance
from kubik.rulesets.old_west.battle.game import terrain_key
from kubik.rulesets.old_west.battle.heroes import carried_out, declare, hero_followers
from kubik.rulesets.old_west.battle.judge import (
    CombatValue,
    Outlook,
    combat_model,
    per_wound,
    weight,
)
from kubik.rulesets.old_west.battle.options import MoveKind, MoveTo
from kubik.rulesets.old_west.battle.situations import charge_target, mover
from kubik.rulesets.old_west.combat import combat
from kubik.rulesets.old_west.core import Side, data
from kubik.rulesets.old_west.heroics import HeroicAction, Phase, PhaseLedger
from kubik.rulesets.old_west.movement import MoveEnd, allowance, may_charge, may_end_move, may_move
from kubik.table import Base, Point, edge_distance
from kubik.table.tape import Way

if TYPE_CHECKING:
    from kubik.rulesets.old_west.battle.game import OldWestGame


def phase_heading(phase: Phase) -> Procedure[None]:
    """The phase heading of the log."""
    yield emit("old_west.game.phase", phase=phase)


def new_phase(game: OldWestGame) -> None:
    """Scared and tested against a Fearsome Reputation last for one phase (OW-PLK-05)."""
    from kubik.rulesets.old_west.battle.figures import Nerve

    for figure in game.figures:
        figure.tested_fearsome = ()
        if figure.nerve is Nerve.SCARED:
            figure.nerve = Nerve.STEADY


def open_phase(
    game: OldWestGame, phase: Phase, action: HeroicAction
) -> Procedure[tuple[tuple[Figure, ...], PhaseLedger]]:
    """A phase's start: its heading, last phase's marks cleared, and the Heroes who
    declare the phase's heroic ``action``, in acting order, with the phase's ledger."""
    yield from phase_heading(phase)
    new_phase(game)
    return (yield from declare(game, action, PhaseLedger(phase)))


def movement_phase(game: OldWestGame) -> Procedure[None]:
    """The whole Movement phase."""
    heroes, ledger = yield from open_phase(game, Phase.MOVEMENT, HeroicAction.YEE_HAW)
    for hero in heroes:
        verdict = yield from carried_out(game, hero, HeroicAction.YEE_HAW, ledger)
        if verdict is None:
            continue
        followers = hero_followers(game, hero, ledger)
        ledger, allowed = ledger.benefit(hero.id, followers)
        yield emit(
            "old_west.game.yee_haw",
            rules=verdict.rules,
            model=game.name(hero.id),
            followers=len(allowed) - 1,
        )
        yield from move_model(game, hero)
        for figure in game.active(hero.side):
            if figure.id in allowed and figure.id != hero.id:
                yield from move_model(game, figure, near=hero)
    for side in game.side_order:
        for figure in game.active(side):
            if figure.id in ledger.acted or not figure.in_action:
                continue
            ledger = ledger.act(figure.id)
            yield from move_model(game, figure)


def move_model(game: OldWestGame, figure: Figure, near: Figure | None = None) -> Procedure[None]:
    """One model's move: the rules' options, the decision, then the move itself.

    ``near``: a Yee Haw! Hero the model follows; it must end within 6" of him.
    """
    from kubik.rulesets.old_west.battle.objective import after_move

    situation = mover(game, figure)
    moving = may_move(situation)
    if not moving.allowed:
        if "OW-CC-10" in moving.rules:  # charged lying down: he stays down (OW-CC-10)
            yield emit("old_west.game.cannot_stand", rules=moving.rules, model=game.name(figure.id))
        return
    reach = float(allowance(situation))
    menu = options(game, figure, reach, near)
    default = max(
        (o for o in menu.offers if o.option.kind is not MoveKind.CHARGE),
        key=lambda o: o.forecast.score if o.forecast is not None else 0.0,
    ).option
    entry = None
    if game.at_table:
        from kubik.rulesets.old_west.battle.table import move_entry

        entry = move_entry(game, figure, reach, near)
    chosen = yield from game.choose(
        menu,
        figure.side,
        msg("old_west.game.move.ask", model=game.name(figure.id), move=reach),
        default=default,
        rules=moving.rules,
        entry=entry,
    )
    if chosen.kind is MoveKind.STAY:
        yield emit(
            "old_west.game.stays_down" if figure.prone else "old_west.game.holds",
            model=game.name(figure.id),
        )
        yield from after_move(game, figure)
        return
    target = game.figure(chosen.target) if chosen.kind is MoveKind.CHARGE else None
    if target is not None:
        verdict = may_charge(mover(game, figure), charge_target(figure, target, chosen.distance))
        if verdict.needs_test:
            from kubik.rulesets.old_west.battle.nerve import fearsome_allows

            if not (yield from fearsome_allows(game, figure, target)):
                return
    yield from walk_to(game, figure, chosen, target)
    yield from after_move(game, figure)


def options(game: OldWestGame, figure: Figure, reach: float, near: Figure | None) -> Menu[MoveTo]:
    """The places the model may go, each with the rules' verdict and a forecast."""
    menu: Menu[MoveTo] = Menu()
    name = game.name(figure.id)
    here = figure.base.centre
    stay = MoveTo(figure.id, MoveKind.STAY, here[0], here[1], 0.0)
    stay_id = "old_west.game.option.stay_down" if figure.prone else "old_west.game.option.stay"
    outlook = Outlook(game, figure)  # every place of the menu is scored from one board
    menu.offer(
        stay,
        msg(stay_id, model=name),
        Verdict.neutral(),
        Forecast(score=outlook.score(figure.base)),
    )
    if reach <= 0 or not game.enemies(figure):
        return menu
    seen = {ground.rounded(here)}
    for kind, found in places(game, figure, reach):
        spot = ground.settled(game, figure, found.points)
        if spot is None or spot in seen:
            continue
        seen.add(spot)
        option = MoveTo(
            figure.id, kind, spot[0], spot[1], ground.distance_along(found.points, spot)
        )
        if option.distance < 0.1:
            continue
        menu.offer(
            option,
            move_label(game, option),
            end_verdict(game, figure, option, near),
            move_forecast(game, figure, option, outlook),
        )
    situation = mover(game, figure)
    for enemy in game.enemies(figure):
        if edge_distance(figure.base, enemy.base) > reach + ground.SLACK:
            continue
        into = ground.charge_way(game, figure, enemy, reach)
        if into is None:
            continue  # no way into contact within his move (the rule's "out of reach")
        route = round(into.cost, 1)
        spot = into.end
        option = MoveTo(figure.id, MoveKind.CHARGE, spot[0], spot[1], route, enemy.id)
        verdict = may_charge(situation, charge_target(figure, enemy, route))
        menu.offer(
            option,
            move_label(game, option),
            Verdict.combine(verdict, end_verdict(game, figure, option, near)),
            _charge_forecast(game, figure, option, outlook) if verdict.allowed else None,
        )
    return menu


def _charge_forecast(
    game: OldWestGame, figure: Figure, option: MoveTo, outlook: Outlook
) -> LazyForecast:
    """A charge option's forecast, worked out when read (a bot weighing it): the default
    move is picked among the other options by their scores and never reads it."""
    return LazyForecast(lambda: move_forecast(game, figure, option, outlook))


def places(game: OldWestGame, figure: Figure, reach: float) -> list[tuple[MoveKind, Way]]:
    """Where the model might make for: the objective, the nearest enemy, cover, away."""
    from kubik.rulesets.old_west.battle.objective import objective_ways

    found: list[tuple[MoveKind, Way]] = list(objective_ways(game, figure, reach))
    nearest = ground.nearest_enemy(game, figure)
    for kind, walked in (
        (MoveKind.ADVANCE, _advance(game, figure, nearest, reach)),
        (MoveKind.COVER, _to_cover(game, figure, nearest, reach)),
        (MoveKind.BACK, _back(game, figure, nearest, reach)),
    ):
        if walked is not None:
            found.append((kind, walked))
    return found


def end_verdict(game: OldWestGame, figure: Figure, option: MoveTo, near: Figure | None) -> Verdict:
    """The rule's verdict on where a move ends (``near``: a Yee Haw! Hero it follows)."""
    return may_end_move(move_end(game, figure, option.spot, option.kind is MoveKind.CHARGE, near))


def move_end(
    game: OldWestGame, figure: Figure, spot: Point, charge: bool, near: Figure | None
) -> MoveEnd:
    """Where a move ends, as the rule takes it."""
    hero_gap = None
    if near is not None:
        base = figure.base.moved_to(spot)
        hero_gap = round(
            max(0.0, math.dist(base.centre, near.base.centre) - base.radius - near.base.radius), 1
        )
    gap = 0.0 if charge else round(ground.enemy_gap(game, figure, spot), 2)
    return MoveEnd(gap, charge, hero_gap)


def move_label(game: OldWestGame, option: MoveTo) -> Message:
    """How a move option reads."""
    return msg(
        option.kind.msgid,
        model=game.name(option.model),
        x=option.x,
        y=option.y,
        distance=option.distance,
        target=game.name(option.target) if option.target else game.name(option.model),
    )


def _advance(game: OldWestGame, figure: Figure, enemy: Figure, reach: float) -> Way | None:
    """Toward the nearest enemy, stopping outside his control zone. It depends on the
    table and on where the two stand, the model's base, mover and move alone (no other
    model), so each answer is kept with the table: a model that held its ground last
    turn, its enemy too, asks it again."""
    zone = float(data()["movement"]["control_zone_inches"])
    base, other = figure.base, enemy.base
    return game.tape.kept(
        "old_west.advance",
        (base.centre, base.diameter, figure.mover, other.centre, other.diameter, reach, zone),
        lambda: _advance_by(game, figure, enemy, reach, zone),
    )


def _advance_by(
    game: OldWestGame, figure: Figure, enemy: Figure, reach: float, zone: float
) -> Way | None:
    found = ground.way(game, figure, enemy.base.centre)
    if found is None:
        return None
    short = found.length - (figure.base.radius + enemy.base.radius + zone + 0.2)
    if short <= 0.05:
        return None
    from kubik.table.tape import along

    cut = Way(along(found.points, short), found.cost)
    walked = ground.walk(game, figure, cut, reach)
    return walked if len(walked.points) > 1 and walked.length > 0.05 else None


def _to_cover(game: OldWestGame, figure: Figure, enemy: Figure, reach: float) -> Way | None:
    """The reachable place with cover from the nearest enemy, nearest to the model."""
    here = figure.base.centre
    dist = math.dist
    near = heapq.nsmallest(  # the 8 nearest, nearest first (each spot measured once)
        8,
        ((d, s) for s in ground.cover_spots(game, figure) if 0.05 < (d := dist(s, here)) <= reach),
    )
    for _, spot in near:
        if not ground.has_cover(game, figure.base.moved_to(spot), enemy.base):
            continue
        if not ground.fits(game, figure, spot):
            continue
        straight = (here, spot)
        cost = game.tape.cost(straight, figure.mover, ground.clearance(figure))
        if cost <= reach + ground.SLACK:
            return Way(straight, cost)
    return None


def _back(game: OldWestGame, figure: Figure, enemy: Figure, reach: float) -> Way | None:
    """Straight away from the nearest enemy, as far as the move goes (kept with the table,
    by all it reads, as :func:`_advance`)."""
    base = figure.base
    return game.tape.kept(
        "old_west.back",
        (base.centre, base.diameter, figure.mover, enemy.base.centre, reach),
        lambda: _back_by(game, figure, enemy, reach),
    )


def _back_by(game: OldWestGame, figure: Figure, enemy: Figure, reach: float) -> Way | None:
    goal = ground.away_from(figure.base.centre, [enemy.base.centre], reach)
    r = figure.base.radius
    goal = (
        min(max(goal[0], r + 0.05), game.table.width - r - 0.05),
        min(max(goal[1], r + 0.05), game.table.height - r - 0.05),
    )
    here = figure.base.centre
    walked = ground.walk(game, figure, Way((here, ground.rounded(goal)), reach), reach)
    return walked if len(walked.points) > 1 and walked.length > 0.05 else None


def walk_to(
    game: OldWestGame, figure: Figure, chosen: MoveTo, target: Figure | None = None
) -> Procedure[None]:
    """Move the model to the chosen place by the contact rule, jumping obstacles on the
    way (a test each): a failed test stops it short of the obstacle, a "stop" result just
    over it (OW-ABSENT-02). A charge that reaches its target (base contact, wherever
    its way meets it) starts a fight."""
    found = ground.way(game, figure, chosen.spot)
    points: tuple[Point, ...] = found.points if found is not None else (figure.base.centre,)
    for obstacle in game.tape.crossed(points) if len(points) > 1 else ():
        result = yield Call(jump_test, (figure.fame, figure.side))
        yield from game.pay_fame(figure, result.fame, ("OW-HERO-04",))
        yield emit(
            "old_west.game.jump",
            rules=("OW-ABSENT-02",),
            model=game.name(figure.id),
            obstacle=game.name(terrain_key(obstacle)),
            result=result.result,
        )
        if result.result is not JumpResult.SUCCESS:
            points = _to_obstacle(game, figure, points, obstacle, result.result)
            break
    spot = ground.settled(game, figure, points, touch=target) if len(points) > 1 else None
    if spot is None:
        spot = figure.base.centre
    moved = ground.distance_along(points, spot) if len(points) > 1 else 0.0
    if figure.prone and moved > 0:
        figure.stance = Stance.STANDING
        yield emit(
            "old_west.game.stands_up",
            rules=("OW-ABSENT-10",),
            model=game.name(figure.id),
            left=float(figure.move) / 2,
        )
    figure.base = figure.base.moved_to(spot)
    figure.moved += moved
    # charging is moving into base contact (OW-ABSENT-02): a charge whose way meets its
    # target before the chosen place stops there (the contact rule) and has reached it
    reached = target is not None and target.in_action and touching(figure.base, target.base)
    if reached:
        assert target is not None
        from kubik.rulesets.old_west.division import may_touch

        touch = may_touch(True)
        game.contacts.engage(figure.id, target.id, ("OW-ABSENT-02", *touch.rules))
        yield emit(
            "old_west.game.charges",
            rules=("OW-ABSENT-02", *touch.rules),
            model=game.name(figure.id),
            target=game.name(target.id),
            distance=moved,
        )
        if target.prone:
            target.stance = Stance.CHARGED_PRONE
            yield emit(
                "old_west.game.charged_prone", rules=("OW-CC-10",), model=game.name(target.id)
            )
        return
    yield emit(
        "old_west.game.moves",
        rules=("OW-ABSENT-02",),
        model=game.name(figure.id),
        distance=moved,
        x=spot[0],
        y=spot[1],
    )


def _to_obstacle(
    game: OldWestGame,
    figure: Figure,
    points: tuple[Point, ...],
    obstacle: str,
    result: JumpResult,
) -> tuple[Point, ...]:
    """The path cut where a jump left the model: short of the obstacle (failed) or just
    over it (cleared, the rest of the move lost)."""
    from shapely.geometry import LineString

    from kubik.table.tape import along

    line = LineString(points)
    hit = line.intersection(game.table.feature(obstacle).shape)
    first = line.project(hit.representative_point()) if not hit.is_empty else line.length
    radius = figure.base.radius + ground.SLACK
    length = first - radius if result is JumpResult.FAIL else first + radius
    return along(points, max(0.0, min(length, line.length)))


def move_forecast(
    game: OldWestGame, figure: Figure, option: MoveTo, outlook: Outlook | None = None
) -> AnyForecast:
    """A move's worth: its positional score; a charge adds the fight the rule would give
    (the target trapped if it would have no room to back off, OW-CC-09). ``outlook``: the
    model's, gathered for the menu on this board."""
    from kubik.rulesets.old_west.battle.objective import objective_bonus

    spot = figure.base.moved_to(option.spot)
    if outlook is None:
        outlook = Outlook(game, figure)
    score = outlook.score(spot) + objective_bonus(option.kind)
    if option.kind is not MoveKind.CHARGE:
        return Forecast(score=round(score, 4))
    target = game.figure(option.target)
    return charge_forecast(game, figure, target, option.spot, 1.0, score + weight("charge_bonus"))


def charge_forecast(
    game: OldWestGame, figure: Figure, target: Figure, spot: Point, share: float, score: float
) -> AnyForecast:
    """The fight a charge from ``spot`` would bring, by the combat rule's odds."""
    from dataclasses import replace

    charger = figure.base.moved_to(spot)
    back = ground.way_back(game, target, [_at(figure, charger)])
    mine = combat_model(figure, fame=False)
    theirs = replace(
        combat_model(target, fame=False), trapped=not back.room, cliff_drop=back.cliff_drop
    )
    side = game.rule_side(figure.side)
    a, b = ((mine,), (theirs,)) if side is Side.A else ((theirs,), (mine,))
    value = CombatValue(
        side, (per_wound(figure),), (per_wound(target),), share, weight("fame_point")
    )
    return Forecast(combat, (a, b, game.advantage), value=value, score=round(score, 4))


def _at(figure: Figure, base: Base) -> Figure:
    """A stand-in of ``figure`` at another place (for measuring, never kept)."""
    from dataclasses import replace

    return replace(figure, base=base)


def best_charge_forecast(
    game: OldWestGame, hero: Figure, share: float, score: float
) -> AnyForecast | None:
    """Yee Haw!'s worth: ``share`` of a charge the Hero could make now — at the enemy
    worth most, the nearest of them (None: he can charge nobody)."""
    situation = mover(game, hero)
    reach = float(allowance(situation))
    enemies = sorted(
        (e for e in game.enemies(hero) if edge_distance(hero.base, e.base) <= reach),
        key=lambda e: (-per_wound(e), edge_distance(hero.base, e.base), e.id),
    )
    for enemy in enemies:
        found = ground.charge_way(game, hero, enemy, reach)
        if found is None:
            continue
        if not may_charge(situation, charge_target(hero, enemy, round(found.cost, 1))).allowed:
            continue
        return charge_forecast(game, hero, enemy, found.end, share, score)
    return None


__all__ = [
    "best_charge_forecast",
    "charge_forecast",
    "move_forecast",
    "move_model",
    "movement_phase",
    "new_phase",
    "options",
    "phase_heading",
    "walk_to",
]
