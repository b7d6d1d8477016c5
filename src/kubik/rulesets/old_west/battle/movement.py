"""The Movement phase: Yee Haw! first, then the posse with advantage, then the other.

Each model not in a fight chooses a destination among a few computed on the table
(OW-ABSENT-02 default): stay, advance toward the nearest enemy (stopping outside
his 1" control zone), take the nearest cover from him, back away, or charge an
enemy it can reach (moving into base contact is a charge). A prone model stands
up first at the cost of half its move (OW-ABSENT-10). Jumping a fence or a trough
takes a jump test (OW-ABSENT-02; Fame may help, OW-HERO-04); charging a model of
Fearsome Reputation takes a Pluck test first (OW-PLK-05).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kubik.engine import (
    AnyForecast,
    Call,
    Choose,
    Emit,
    Forecast,
    Procedure,
    Verdict,
    emit,
    msg,
)
from kubik.rulesets.old_west.absent import JumpResult, jump_test
from kubik.rulesets.old_west.battle import places
from kubik.rulesets.old_west.battle.heroes import declare, hero_followers
from kubik.rulesets.old_west.battle.judge import (
    CombatValue,
    combat_model,
    per_wound,
    position_score,
)
from kubik.rulesets.old_west.battle.morale import fearsome_allows
from kubik.rulesets.old_west.battle.objective import (
    ESCAPE_BONUS,
    LOOT_BONUS,
    after_move,
    objective_routes,
)
from kubik.rulesets.old_west.battle.options import MoveKind, MoveTo
from kubik.rulesets.old_west.battle.situations import able, mover
from kubik.rulesets.old_west.battle.state import Figure
from kubik.rulesets.old_west.combat import combat
from kubik.rulesets.old_west.core import Side, data
from kubik.rulesets.old_west.heroics import HeroicAction, Phase, PhaseLedger, may_carry_out
from kubik.rulesets.old_west.movement import (
    ChargeTarget,
    MoveEnd,
    allowance,
    may_charge,
    may_end_move,
    may_move,
)
from kubik.table import Point, centre_distance, edge_distance, path_length

if TYPE_CHECKING:
    from kubik.rulesets.old_west.battle.game import OldWestGame

CHARGE_BONUS = 0.05  # a charge also takes the model out of the enemy's line of fire


def movement_phase(game: OldWestGame) -> Procedure[None]:
    """The whole Movement phase."""
    yield msg_phase("movement")
    for figure in game.battle.figures:
        figure.scared = False
        figure.tested_fearsome = frozenset()
    ledger = PhaseLedger(Phase.MOVEMENT)
    heroes, ledger = yield from declare(game, HeroicAction.YEE_HAW, ledger)
    for hero in heroes:
        acted = hero.id in ledger.acted
        verdict = may_carry_out(
            HeroicAction.YEE_HAW,
            ledger.beneficiary(hero.id),
            able(game, hero, HeroicAction.YEE_HAW, acted),
        )
        if not verdict.allowed:
            yield heroic_lost(hero, HeroicAction.YEE_HAW, verdict)
            continue
        followers = hero_followers(game, hero, ledger)
        ledger, allowed = ledger.benefit(hero.id, followers)
        yield emit(
            "old_west.game.yee_haw",
            rules=verdict.rules,
            model=hero.name,
            followers=len(allowed) - 1,
        )
        yield from move_model(game, hero)
        for figure in game.battle.active(hero.side):
            if figure.id in allowed and figure.id != hero.id:
                yield from move_model(game, figure, near=hero)
    for side in game.side_order:
        for figure in game.battle.active(side):
            if figure.id in ledger.acted or not figure.in_action:
                continue
            ledger = ledger.act(figure.id)
            yield from move_model(game, figure)


def msg_phase(phase: str) -> Emit:
    """The phase heading of the log."""
    return emit("old_west.game.phase", phase=Phase(phase))


def heroic_lost(hero: Figure, action: HeroicAction, verdict: Verdict) -> Emit:
    """The log line for a paid-for heroic action that cannot be carried out, and why."""
    return emit(
        "old_west.game.heroic_lost",
        rules=verdict.rules,
        model=hero.name,
        action=action,
        why=verdict.reason,
    )


def allowance_after_standing(game: OldWestGame, figure: Figure) -> Procedure[float]:
    """The move left to a model (the rule's allowance): a prone one stands up first."""
    situation = mover(game, figure)
    left = float(allowance(situation))
    if not figure.prone:
        return left
    figure.prone = False
    yield emit(
        "old_west.game.stands_up", rules=may_move(situation).rules, model=figure.name, left=left
    )
    return left


def move_model(game: OldWestGame, figure: Figure, near: Figure | None = None) -> Procedure[None]:
    """One model's move: its options, the decision, then jump tests and the move itself.

    ``near``: a Yee Haw! Hero the model follows; it must end within 6" of him.
    """
    battle = game.battle
    if not may_move(mover(game, figure)).allowed:
        return
    reach = yield from allowance_after_standing(game, figure)
    options = destinations(game, figure, reach)
    if near is not None:
        options = [
            o
            for o in options
            if o.kind is MoveKind.STAY or may_end_move(move_end(game, figure, o, near)).allowed
        ]
    forecasts = [forecast(game, figure, option) for option in options]
    default = max(
        (o for o in options if o.kind is not MoveKind.CHARGE),
        key=lambda o: forecasts[options.index(o)].score,
    )
    chosen = yield Choose(
        tuple(options),
        figure.side,
        msg("old_west.game.move.ask", model=figure.name, move=reach),
        default=default,
        forecasts=tuple(forecasts),
    )
    assert isinstance(chosen, MoveTo)
    if chosen.kind is MoveKind.STAY:
        yield emit("old_west.game.holds", model=figure.name)
        yield from after_move(game, figure)
        return
    if chosen.kind is MoveKind.CHARGE:
        target = battle.figure(chosen.target)
        allowed = yield from fearsome_allows(game, figure, target)
        if not allowed:
            return
    yield from walk_to(game, figure, (chosen.x, chosen.y), chosen)
    yield from after_move(game, figure)


def walk_to(game: OldWestGame, figure: Figure, goal: Point, chosen: MoveTo) -> Procedure[None]:
    """Move the model to ``goal``, jumping obstacles on the way (a test each): a failed
    test stops it short of the obstacle, a "stop" result just over it (OW-ABSENT-02)."""
    table = game.battle.table
    path = places.route(table, figure.base.centre, goal, figure.base.radius, figure.mover)
    end = goal
    for obstacle in places.crossings(table, path) if path is not None else ():
        assert path is not None
        result = yield Call(jump_test, (figure.fame, figure.side))
        yield from game.pay_fame(figure, result.fame)
        feature = table.feature(obstacle)
        yield emit(
            "old_west.game.jump",
            model=figure.name,
            obstacle=msg("game.name", en=feature.name, ru=feature.name_ru),
            result=result.result,
        )
        if result.result is JumpResult.FAIL:
            end = places.before_obstacle(table, path, figure.base.radius)
            break
        if result.result is JumpResult.STOP:
            end = places.over_obstacle(table, path, figure.base.radius)
            break
    if not places.free_spot(game.battle, figure, end):
        end = figure.base.centre
    moved = centre_distance(figure.base, figure.base.moved_to(end))
    figure.base = figure.base.moved_to(end)
    charged = chosen.kind is MoveKind.CHARGE and game.battle.engaged(figure)
    target = game.battle.figure(chosen.target).name if chosen.target else figure.name
    yield emit(
        "old_west.game.charges" if charged else "old_west.game.moves",
        model=figure.name,
        target=target,
        distance=round(moved, 1),
        x=round(end[0], 1),
        y=round(end[1], 1),
    )


def destinations(game: OldWestGame, figure: Figure, allowance: float) -> list[MoveTo]:
    """A few sensible places to go (stay first), each checked against the table."""
    battle = game.battle
    here = figure.base.centre
    options = [_option(figure, MoveKind.STAY, here, 0.0)]
    nearest = battle.nearest_enemy(figure)
    if nearest is None or allowance <= 0:
        return options
    seen = {places.rounded(here)}

    def add(kind: MoveKind, path: places.Route | None, target: Figure | None = None) -> None:
        if path is None:
            return
        spot = path.end if kind is MoveKind.CHARGE else places.rounded(path.end)
        key = places.rounded(spot)
        if key in seen or not places.free_spot(battle, figure, spot):
            return
        if (
            kind is not MoveKind.CHARGE
            and not may_end_move(MoveEnd(enemy_gap(game, figure, spot))).allowed
        ):
            return
        seen.add(key)
        distance = round(path_length(path.points), 1)
        options.append(_option(figure, kind, spot, distance, target))

    for kind, walked, _ in objective_routes(game, figure, allowance):
        add(kind, walked)
    add(MoveKind.ADVANCE, _advance(game, figure, nearest, allowance))
    add(MoveKind.COVER, _to_cover(game, figure, nearest, allowance))
    add(MoveKind.BACK, _back(game, figure, nearest, allowance))
    situation = mover(game, figure)
    for enemy in battle.enemies(figure):
        if edge_distance(figure.base, enemy.base) <= allowance:
            path = places.charge_route(battle, figure, enemy, allowance)
            target = ChargeTarget(
                round(path.cost, 1) if path is not None else None,
                enemy.status,
                enemy.profile.fearsome,
                enemy.id in figure.tested_fearsome,
            )
            if may_charge(situation, target).allowed:
                add(MoveKind.CHARGE, path, enemy)
    return options


def _option(
    figure: Figure, kind: MoveKind, spot: Point, distance: float, target: Figure | None = None
) -> MoveTo:
    return MoveTo(
        figure.id,
        kind,
        round(spot[0], 1),
        round(spot[1], 1),
        distance,
        figure.name_en,
        figure.name_ru,
        target.id if target else "",
        target.name_en if target else "",
        target.name_ru if target else "",
    )


def enemy_gap(game: OldWestGame, figure: Figure, spot: Point) -> float:
    """How near the model would stand to an enemy at ``spot`` (edge to edge, inches)."""
    base = figure.base.moved_to(spot)
    return min((edge_distance(base, e.base) for e in game.battle.enemies(figure)), default=1e9)


def move_end(game: OldWestGame, figure: Figure, option: MoveTo, near: Figure | None) -> MoveEnd:
    """Where a move option ends, as the rule takes it (``near``: a Yee Haw! Hero)."""
    spot = (option.x, option.y)
    hero_gap = None
    if near is not None:
        hero_gap = edge_distance(figure.base.moved_to(spot), near.base)
    return MoveEnd(enemy_gap(game, figure, spot), option.kind is MoveKind.CHARGE, hero_gap)


def _advance(
    game: OldWestGame, figure: Figure, enemy: Figure, allowance: float
) -> places.Route | None:
    table = game.battle.table
    path = places.route(
        table, figure.base.centre, enemy.base.centre, figure.base.radius, figure.mover
    )
    if path is None:
        return None
    zone = float(data()["movement"]["control_zone_inches"])
    line_length = path_length(path.points)
    short = line_length - (figure.base.radius + enemy.base.radius + zone + 0.2)
    if short <= 0.05:
        return None
    walked = places.walk(
        table, places.cut(path, short), allowance, figure.base.radius, figure.mover
    )
    return walked if len(walked.points) > 1 else None


def _to_cover(
    game: OldWestGame, figure: Figure, enemy: Figure, allowance: float
) -> places.Route | None:
    """The reachable spot with cover from the nearest enemy, nearest to the model."""
    battle = game.battle
    gap = float(data()["battle"]["cover_gap_inches"])
    spots = places.cover_spots(battle.table, figure.base.radius, gap, figure.mover)
    here = figure.base.centre
    near = sorted(
        (
            s
            for s in spots
            if 0.05 < ((s[0] - here[0]) ** 2 + (s[1] - here[1]) ** 2) ** 0.5 <= allowance
        ),
        key=lambda s: ((s[0] - here[0]) ** 2 + (s[1] - here[1]) ** 2, s),
    )
    for spot in near[:8]:
        base = figure.base.moved_to(spot)
        if not places.has_cover(battle.table, base, enemy.base):
            continue
        if not places.free_spot(battle, figure, spot):
            continue
        if not may_end_move(MoveEnd(enemy_gap(game, figure, spot))).allowed:
            continue
        path = places.route(battle.table, here, spot, figure.base.radius, figure.mover)
        if path is not None and path.cost <= allowance + 0.05:
            return path
    return None


def _back(
    game: OldWestGame, figure: Figure, enemy: Figure, allowance: float
) -> places.Route | None:
    table = game.battle.table
    goal = places.away_from(figure.base.centre, [enemy.base.centre], allowance)
    r = figure.base.radius
    goal = (
        min(max(goal[0], r + 0.05), table.width - r - 0.05),
        min(max(goal[1], r + 0.05), table.height - r - 0.05),
    )
    path = places.route(table, figure.base.centre, goal, r, figure.mover)
    if path is None:
        return None
    walked = places.walk(table, path, allowance, r, figure.mover)
    return walked if len(walked.points) > 1 else None


def forecast(game: OldWestGame, figure: Figure, option: MoveTo) -> AnyForecast:
    """A move's worth: its positional score; a charge adds the fight the rule would give."""
    battle = game.battle
    spot = figure.base.moved_to((option.x, option.y))
    score = position_score(battle, figure, spot)
    if option.kind is MoveKind.LOOT:
        score += LOOT_BONUS
    if option.kind is MoveKind.ESCAPE:
        score += ESCAPE_BONUS
    if option.kind is not MoveKind.CHARGE:
        return Forecast(score=round(score, 4))
    target = battle.figure(option.target)
    mine, theirs = combat_model(figure, fame=False), combat_model(target, fame=False)
    side = game.rule_side(figure.side)
    a, b = ((mine,), (theirs,)) if side is Side.A else ((theirs,), (mine,))
    value = CombatValue(side, (per_wound(figure),), (per_wound(target),))
    return Forecast(combat, (a, b, game.advantage), value=value, score=score + CHARGE_BONUS)


__all__ = ["destinations", "forecast", "move_model", "movement_phase", "walk_to"]
