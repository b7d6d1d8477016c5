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
import itertools
import math
from collections.abc import Sequence
from dataclasses import replace

from kubik.engine import AnyForecast, Call, Forecast, Message, Procedure, Verdict, emit, msg
from kubik.game.battle import SLACK, LazyForecast, Menu, Walk, away_from, length_along, on_grid
from kubik.rulesets.old_west.absent import JumpResult, jump_test
from kubik.rulesets.old_west.battle.backing import way_back
from kubik.rulesets.old_west.battle.figures import Figure, Stance
from kubik.rulesets.old_west.battle.heroes import carried_out, hero_followers
from kubik.rulesets.old_west.battle.judge import (
    CombatValue,
    Outlook,
    combat_model,
    per_wound,
    weight,
)
from kubik.rulesets.old_west.battle.names import terrain_key
from kubik.rulesets.old_west.battle.nerve import fearsome_allows
from kubik.rulesets.old_west.battle.objective import after_move, objective_bonus, objective_walks
from kubik.rulesets.old_west.battle.options import MoveKind, MoveTo
from kubik.rulesets.old_west.battle.phases import open_phase
from kubik.rulesets.old_west.battle.situations import charge_target, move_end, mover, stands
from kubik.rulesets.old_west.battle.state import OldWestState
from kubik.rulesets.old_west.battle.table import move_entry
from kubik.rulesets.old_west.combat import combat
from kubik.rulesets.old_west.core import Side
from kubik.rulesets.old_west.division import may_touch
from kubik.rulesets.old_west.heroics import HeroicAction, Phase, may_wait
from kubik.rulesets.old_west.movement import (
    allowance,
    beside_gap,
    cliff_height,
    control_zone,
    may_charge,
    may_end_move,
    may_move,
)
from kubik.table import Base, Cover, Point
from kubik.table.tape import along

#: How far past its allowance a move may go (inches): none, but a float's rounding.
_INSIDE = 1e-9


def movement_phase(game: OldWestState) -> Procedure[None]:
    """The whole Movement phase."""
    heroes, ledger = yield from open_phase(
        game, Phase.MOVEMENT, HeroicAction.YEE_HAW, best_charge_forecast
    )
    for hero in heroes:
        verdict = yield from carried_out(game, hero, HeroicAction.YEE_HAW, ledger)
        if verdict is None:
            continue
        followers = hero_followers(game, hero, ledger)  # within 6" before he moves
        gaps = {f: game.board.gap(hero, game.figure(f)) for f in followers}
        ledger, _ = ledger.benefit(hero.id, frozenset())
        yield emit(
            "old_west.game.yee_haw",
            rules=verdict.rules,
            model=game.name(hero.id),
            followers=len(followers),
        )
        yield from move_model(game, hero)
        for figure in game.active(hero.side):
            if figure.id not in followers:
                continue
            if (yield from move_model(game, figure, near=hero, gap=gaps[figure.id])):
                ledger, _ = ledger.benefit(hero.id, frozenset({figure.id}))
    for side in game.side_order:
        for figure in game.active(side):
            if figure.id in ledger.acted or not figure.in_action:
                continue
            ledger = ledger.act(figure.id)
            yield from move_model(game, figure)


def move_model(
    game: OldWestState, figure: Figure, near: Figure | None = None, gap: float = 0.0
) -> Procedure[bool]:
    """One model's move: the rules' options, the decision, then the move itself; whether
    it moved now (or stood its ground).

    ``near``: a Yee Haw! Hero the model may follow (``gap``: inches between them before
    he moved): following, it ends within 6" of him; or it waits, and moves in turn.
    """
    situation = mover(game, figure)
    moving = may_move(situation)
    if not moving.allowed:
        if "OW-CC-10" in moving.rules:  # charged lying down: he stays down (OW-CC-10)
            yield emit("old_west.game.cannot_stand", rules=moving.rules, model=game.name(figure.id))
        return False
    reach = float(allowance(situation))
    menu = options(game, figure, reach, near, gap)
    default = max(
        (o for o in menu.offers if o.option.kind is not MoveKind.CHARGE),
        key=lambda o: o.forecast.score if o.forecast is not None else 0.0,
    ).option
    entry = move_entry(game, figure, reach, near)  # a place typed, at any prompt
    chosen = yield from game.choose(
        menu,
        figure.side,
        msg("old_west.game.move.ask", model=game.name(figure.id), move=reach),
        default=default,
        rules=moving.rules,
        entry=entry,
    )
    if chosen.kind is MoveKind.WAIT:
        assert near is not None
        yield emit(
            "old_west.game.waits",
            rules=("OW-HERO-08",),
            model=game.name(figure.id),
            hero=game.name(near.id),
        )
        return False
    if chosen.kind is MoveKind.STAY:
        yield emit(
            "old_west.game.stays_down" if figure.prone else "old_west.game.holds",
            model=game.name(figure.id),
        )
        yield from after_move(game, figure)
        return True
    target = game.figure(chosen.target) if chosen.kind is MoveKind.CHARGE else None
    if target is not None:
        verdict = may_charge(mover(game, figure), charge_target(figure, target, chosen.distance))
        if verdict.needs_test and not (yield from fearsome_allows(game, figure, target)):
            return True
    yield from walk_to(game, figure, chosen, target)
    yield from after_move(game, figure)
    return True


def options(
    game: OldWestState, figure: Figure, reach: float, near: Figure | None, gap: float = 0.0
) -> Menu[MoveTo]:
    """The places the model may go, each with the rules' verdict and a forecast; a friend
    of a Yee Haw! Hero (``near``; ``gap``: inches between them before he moved) may also
    wait and move in turn."""
    menu = _places_menu(game, figure, reach, near)
    if near is not None:
        here = figure.base.centre
        best = max(
            (
                o.forecast.score
                for o in (*menu.offers, *menu.refused)
                if o.option.kind is not MoveKind.CHARGE and o.forecast is not None
            ),
            default=0.0,
        )
        wait = MoveTo(figure.id, MoveKind.WAIT, here[0], here[1], 0.0)
        label = msg(
            "old_west.game.option.wait", model=game.name(figure.id), hero=game.name(near.id)
        )
        menu.offer(wait, label, may_wait(gap), Forecast(score=best))
    return menu


def _places_menu(
    game: OldWestState, figure: Figure, reach: float, near: Figure | None
) -> Menu[MoveTo]:
    """:func:`options` but waiting: staying put, the places found and the charges."""
    board = game.board
    menu: Menu[MoveTo] = Menu()
    name = game.name(figure.id)
    here = figure.base.centre
    stay = MoveTo(figure.id, MoveKind.STAY, here[0], here[1], 0.0)
    stay_id = "old_west.game.option.stay_down" if figure.prone else "old_west.game.option.stay"
    outlook = Outlook(board, figure)  # every place of the menu is scored from one board
    menu.offer(
        stay,
        msg(stay_id, model=name),
        Verdict.neutral() if near is None else end_verdict(game, figure, stay, near),
        Forecast(score=outlook.score(figure.base)),
    )
    enemies = board.enemies(figure)
    if reach <= 0 or not enemies:
        return menu
    seen = {on_grid(here)}
    for kind, walked in places(game, figure, reach, enemies):
        spot = walked.end
        if spot in seen:
            continue
        seen.add(spot)
        option = MoveTo(figure.id, kind, spot[0], spot[1], walked.walked)
        if option.distance < 0.1:
            continue
        menu.offer(
            option,
            move_label(game, option),
            end_verdict(game, figure, option, near, enemies),
            move_forecast(game, figure, option, outlook),
        )
    situation = mover(game, figure)
    cliff = cliff_height()
    for enemy in enemies:
        if board.gap(figure, enemy) > reach + SLACK:
            continue
        into = board.charge_way(
            figure, enemy, reach, cliff=cliff, allowed=stands(game, figure), slack=_INSIDE
        )
        if into is None:
            continue  # no way into contact within his move (the rule's "out of reach")
        route = round(into.cost, 1)
        spot = into.end
        option = MoveTo(figure.id, MoveKind.CHARGE, spot[0], spot[1], route, enemy.id)
        verdict = may_charge(situation, charge_target(figure, enemy, route))
        menu.offer(
            option,
            move_label(game, option),
            Verdict.combine(verdict, end_verdict(game, figure, option, near, enemies)),
            _charge_forecast(game, figure, option, outlook) if verdict.allowed else None,
        )
    return menu


def _charge_forecast(
    game: OldWestState, figure: Figure, option: MoveTo, outlook: Outlook
) -> LazyForecast:
    """A charge option's forecast, worked out when read (a bot weighing it): the default
    move is picked among the other options by their scores and never reads it."""
    return LazyForecast(lambda: move_forecast(game, figure, option, outlook))


def places(
    game: OldWestState, figure: Figure, reach: float, enemies: Sequence[Figure]
) -> list[tuple[MoveKind, Walk]]:
    """Where the model might make for: the objective, the nearest of its ``enemies``,
    cover, away."""
    found: list[tuple[MoveKind, Walk]] = list(objective_walks(game, figure, reach))
    board = game.board
    # between equally near enemies, the first by id
    nearest = board.nearest(figure, sorted(enemies, key=lambda e: e.id))
    assert nearest is not None
    for kind, walked in (
        (MoveKind.ADVANCE, _advance(game, figure, nearest, reach)),
        (MoveKind.COVER, _to_cover(game, figure, nearest, reach)),
        (MoveKind.BACK, _back(game, figure, nearest, reach)),
    ):
        if walked is not None:
            found.append((kind, walked))
    return found


def end_verdict(
    game: OldWestState,
    figure: Figure,
    option: MoveTo,
    near: Figure | None,
    enemies: Sequence[Figure] | None = None,
) -> Verdict:
    """The rule's verdict on where a move ends (``near``: a Yee Haw! Hero it follows;
    ``enemies``: the model's, when the caller has them)."""
    charge = option.kind is MoveKind.CHARGE
    return may_end_move(move_end(game, figure, option.spot, charge, near, enemies))


def move_label(game: OldWestState, option: MoveTo) -> Message:
    """How a move option reads."""
    return option.label(game.name)


def _far(walked: Walk | None) -> Walk | None:
    """A walk whose path goes anywhere before the contact rule ends it (else None)."""
    if walked is None or len(walked.path) < 2:
        return None
    length = sum(math.dist(p, q) for p, q in itertools.pairwise(walked.path))
    return walked if length > 0.05 else None


def _advance(game: OldWestState, figure: Figure, enemy: Figure, reach: float) -> Walk | None:
    """Toward the nearest enemy, stopping outside his control zone."""
    short = figure.base.radius + enemy.base.radius + control_zone() + 0.2
    walked = game.board.walk(
        figure, enemy.base.centre, reach, short=short, within=True, stands=stands(game, figure)
    )
    return _far(walked)


def _to_cover(game: OldWestState, figure: Figure, enemy: Figure, reach: float) -> Walk | None:
    """The reachable place with cover from the nearest enemy, nearest to the model."""
    board = game.board
    here = figure.base.centre
    dist = math.dist
    near = heapq.nsmallest(  # the 8 nearest, nearest first (each spot measured once)
        8,
        (
            (d, s)
            for s in board.cover_spots(figure, beside_gap())
            if 0.05 < (d := dist(s, here)) <= reach
        ),
    )
    pace = board.pace(figure)
    standing = stands(game, figure)
    for _, spot in near:
        if board.cover_at(board.bases_at(figure)(spot), enemy) is Cover.NONE:
            continue
        if not board.fits(figure, spot) or not standing(spot):
            continue
        straight = (here, spot)
        if pace(straight) <= reach + _INSIDE:
            return board.walk(figure, spot, reach, way=straight, within=True, stands=standing)
    return None


def _back(game: OldWestState, figure: Figure, enemy: Figure, reach: float) -> Walk | None:
    """Straight away from the nearest enemy, as far as the move goes (kept on the table)."""
    here = figure.base.centre
    goal = away_from(here, [enemy.base.centre], reach)
    r = figure.base.radius
    goal = (
        min(max(goal[0], r + 0.05), game.table.width - r - 0.05),
        min(max(goal[1], r + 0.05), game.table.height - r - 0.05),
    )
    straight = (here, on_grid(goal))
    walked = game.board.walk(
        figure, straight[1], reach, way=straight, within=True, stands=stands(game, figure)
    )
    return _far(walked)


def walk_to(
    game: OldWestState, figure: Figure, chosen: MoveTo, target: Figure | None = None
) -> Procedure[None]:
    """Move the model to the chosen place by the contact rule, jumping obstacles on the
    way (a test each): a failed test stops it short of the obstacle, a "stop" result just
    over it (OW-ABSENT-02). A charge that reaches its target (base contact, wherever
    its way meets it) starts a fight."""
    board = game.board
    found = board.way(figure, chosen.spot)
    points: tuple[Point, ...] = found if found is not None else (figure.base.centre,)
    for obstacle in game.tape.crossed(points) if len(points) > 1 else ():
        yield emit(
            "old_west.game.jumps",
            rules=("OW-ABSENT-02",),
            model=game.name(figure.id),
            obstacle=game.name(terrain_key(obstacle)),
        )
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
    standing = stands(game, figure)
    spot = (
        board.settled(figure, points, target=target, stands=standing) if len(points) > 1 else None
    )
    if spot is None:
        spot = figure.base.centre
    moved = round(length_along(points, spot), 1) if len(points) > 1 else 0.0
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
    if target is not None and target.in_action and board.touching(figure, target):
        touch = may_touch(True)
        game.contacts.engage(figure.id, target.id, ("OW-ABSENT-02", *touch.rules))
        yield emit(
            "old_west.game.charges",
            rules=("OW-ABSENT-02", *touch.rules),
            model=game.name(figure.id),
            target=game.name(target.id),
            distance=moved,
            x=spot[0],
            y=spot[1],
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
    game: OldWestState,
    figure: Figure,
    points: tuple[Point, ...],
    obstacle: str,
    result: JumpResult,
) -> tuple[Point, ...]:
    """The path cut where a jump left the model: beside the obstacle, short of it (failed),
    or clear of it on the far side (cleared, the rest of the move lost)."""
    span = game.board.obstacle_span(figure, points, obstacle)
    if span is None:
        return points
    length = span[0] if result is JumpResult.FAIL else span[1]
    return along(points, max(0.0, length))


def move_forecast(
    game: OldWestState, figure: Figure, option: MoveTo, outlook: Outlook | None = None
) -> AnyForecast:
    """A move's worth: its positional score; a charge adds the fight the rule would give
    (the target trapped if it would have no room to back off, OW-CC-09). ``outlook``: the
    model's, gathered for the menu on this board."""
    spot = figure.base.moved_to(option.spot)
    if outlook is None:
        outlook = Outlook(game.board, figure)
    score = outlook.score(spot) + objective_bonus(option.kind)
    if option.kind is not MoveKind.CHARGE:
        return Forecast(score=round(score, 4))
    target = game.figure(option.target)
    return charge_forecast(game, figure, target, option.spot, 1.0, score + weight("charge_bonus"))


def charge_forecast(
    game: OldWestState, figure: Figure, target: Figure, spot: Point, share: float, score: float
) -> AnyForecast:
    """The fight a charge from ``spot`` would bring, by the combat rule's odds."""
    charger = figure.base.moved_to(spot)
    back = way_back(game, target, [_at(figure, charger)])
    mine = combat_model(figure, fame=False)
    theirs = replace(
        combat_model(target, fame=False), trapped=not back.room, cliff_drop=back.cliff_drop
    )
    side = game.rule_side(figure.side)
    a, b = ((mine,), (theirs,)) if side is Side.A else ((theirs,), (mine,))
    value = CombatValue(
        side, (per_wound(figure),), (per_wound(target),), share, weight("fame_point")
    )
    ours, other = side.value, ("b" if side is Side.A else "a")
    named = ((ours, game.name(figure.id)), (other, game.name(target.id)))
    return Forecast(combat, (a, b, game.advantage), value=value, score=round(score, 4), sides=named)


def _at(figure: Figure, base: Base) -> Figure:
    """A stand-in of ``figure`` at another place (for measuring, never kept)."""
    return replace(figure, base=base)


def best_charge_forecast(
    game: OldWestState, hero: Figure, share: float, score: float
) -> AnyForecast | None:
    """Yee Haw!'s worth: ``share`` of a charge the Hero could make now — at the enemy
    worth most, the nearest of them (None: he can charge nobody)."""
    board = game.board
    situation = mover(game, hero)
    reach = float(allowance(situation))
    enemies = sorted(
        (e for e in board.enemies(hero) if board.gap(hero, e) <= reach),
        key=lambda e: (-per_wound(e), board.gap(hero, e), e.id),
    )
    cliff = cliff_height()
    for enemy in enemies:
        found = board.charge_way(hero, enemy, reach, cliff=cliff)
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
    "options",
    "walk_to",
]
