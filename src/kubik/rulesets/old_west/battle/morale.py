"""Pluck in battle: Head for the Hills (OW-PLK-02..04), Fearsome Reputation (OW-PLK-05)
and Diving for cover (OW-PLK-06), applied to the posses.

The tests are the rule procedures of :mod:`kubik.rulesets.old_west.pluck`; here the
game picks who tests, offers the choices and moves or lays down the models.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kubik.engine import Call, Choose, Forecast, Procedure, emit, msg
from kubik.game import side_name
from kubik.rulesets.old_west.battle import places
from kubik.rulesets.old_west.battle.options import Flight
from kubik.rulesets.old_west.battle.state import Figure
from kubik.rulesets.old_west.core import Status, data
from kubik.rulesets.old_west.pluck import (
    CoverReaction,
    HeadForTheHillsOutcome,
    Posse,
    diving_for_cover,
    fearsome_reputation,
    head_for_the_hills,
    may_flee,
    reputation_check,
    tester,
)
from kubik.table import Point, centre_distance

if TYPE_CHECKING:
    from kubik.rulesets.old_west.battle.game import OldWestGame

#: How bad fleeing is for the posse (a bot's heuristic: it loses the game).
FLEEING = -10.0


def flees_value(outcome: HeadForTheHillsOutcome) -> float:
    """Worth of a Head for the Hills outcome to the posse testing."""
    return FLEEING if outcome.flees else 0.0


def head_for_the_hills_tests(game: OldWestGame) -> Procedure[None]:
    """At the start of a turn every posse with half or more out of action tests (OW-PLK-02);
    its player may instead choose to flee (OW-PLK-04). Failing, the posse leaves the table."""
    if not game.options.head_for_the_hills:
        return
    battle = game.battle
    for side in game.sides:
        posse = battle.posse(side)
        lost = battle.out_of_action(side)
        counted = Posse.of(tuple(f.status for f in posse))
        if not battle.active(side) or not counted.must_test:
            continue
        leader = battle.figure(battle.leaders[side])
        leader_pluck = leader.profile.pluck if leader.in_action else None
        others = tuple(f.profile.pluck for f in battle.active(side) if f.id != leader.id)
        tester = leader if leader.in_action else stand_in(game, side)
        args = (len(posse), lost, leader_pluck, others, False, tester.fame, side)
        stand, flee = Flight(False), Flight(True)
        choice = stand
        voluntary = may_flee(counted)
        if voluntary.allowed:
            choice = yield Choose(
                (stand, flee),
                side,
                msg("old_west.game.flight.ask", side=side_name(game.scenario, side), lost=lost),
                default=stand,
                forecasts=(
                    Forecast(head_for_the_hills, args, value=flees_value),
                    Forecast(score=FLEEING),
                ),
                rules=voluntary.rules,
            )
        if choice == flee:
            args = (len(posse), lost, leader_pluck, others, True, 0, side)
        outcome = yield Call(head_for_the_hills, args)
        yield from game.pay_fame(tester, outcome.fame)
        if outcome.flees:
            game.fled[side] = True
            for figure in battle.active(side):
                figure.status = Status.FLED
            yield emit("old_west.game.posse_flees", side=side_name(game.scenario, side))


def stand_in(game: OldWestGame, side: str) -> Figure:
    """Who tests for a posse whose leader is out of action: the model in action with the
    highest Pluck, the first in file order on a tie (OW-PLK-02)."""
    active = game.battle.active(side)
    return active[tester(None, tuple(f.profile.pluck for f in active))]


def fearsome_allows(game: OldWestGame, figure: Figure, target: Figure) -> Procedure[bool]:
    """Before charging or shooting a model of Fearsome Reputation, a Pluck test (OW-PLK-05;
    once per model and enemy per phase): failed, the model does nothing else this phase."""
    if figure.scared:
        return False
    tested = target.id in figure.tested_fearsome
    if not reputation_check(target.profile.fearsome, tested).needs_test:
        return True
    figure.tested_fearsome = figure.tested_fearsome | {target.id}
    yield emit(
        "old_west.game.fearsome",
        rules=("OW-PLK-05",),
        model=figure.name,
        target=target.name,
    )
    outcome = yield Call(fearsome_reputation, (figure.profile.pluck, figure.fame, figure.side))
    yield from game.pay_fame(figure, outcome.fame)
    if not outcome.may_act:
        figure.scared = True
        yield emit("old_west.game.scared", model=figure.name)
    return bool(outcome.may_act)


def dive_for_cover(game: OldWestGame, target: Figure, shooter: Figure) -> Procedure[None]:
    """Hit and not removed: a Pluck test; failed, the model runs to the nearest cover from
    the shooter (within its Move) or, already behind cover, lies down; either way it
    cannot shoot back this turn (OW-PLK-06). A rider tests with his own Pluck, runs to
    cover as usual, but behind cover dismounts with his mount between him and the
    shooter instead of lying down (OW-PLK-07)."""
    if not game.options.diving_for_cover or not target.in_action:
        return
    battle = game.battle
    behind = places.has_cover(battle.table, target.base, shooter.base)
    outcome = yield Call(
        diving_for_cover,
        (target.profile.pluck, behind, target.mounted, target.fame, target.side),
    )
    yield from game.pay_fame(target, outcome.fame)
    reaction = outcome.reaction
    target.pinned = target.pinned or reaction.pinned
    if reaction is CoverReaction.NONE:
        return
    if reaction is CoverReaction.DISMOUNT:
        mount = target.dismount()
        assert mount is not None
        yield emit("old_west.game.dismounts", model=target.name, mount=mount.name)
        return
    if reaction is CoverReaction.LIE_DOWN:
        target.prone = True
        yield emit("old_west.game.lies_down", model=target.name)
        return
    spot = _nearest_cover(game, target, shooter)
    if spot is None:
        yield emit("old_west.game.no_cover", model=target.name)
        return
    target.base = target.base.moved_to(spot)
    yield emit("old_west.game.runs_to_cover", model=target.name, x=spot[0], y=spot[1])


def _nearest_cover(game: OldWestGame, target: Figure, shooter: Figure) -> Point | None:
    """The nearest reachable free spot with cover from the shooter (even toward him)."""
    battle = game.battle
    gap = float(data()["battle"]["cover_gap_inches"])
    move = float(target.move)
    here = target.base.centre
    spots = sorted(
        places.cover_spots(battle.table, target.base.radius, gap, target.mover),
        key=lambda s: ((s[0] - here[0]) ** 2 + (s[1] - here[1]) ** 2, s),
    )
    for spot in spots[:12]:
        if ((spot[0] - here[0]) ** 2 + (spot[1] - here[1]) ** 2) ** 0.5 > move:
            break
        base = target.base.moved_to(spot)
        if not places.has_cover(battle.table, base, shooter.base):
            continue
        if not places.free_spot(battle, target, spot):
            continue
        if any(
            centre_distance(base, e.base) <= base.radius + e.base.radius + 0.05
            for e in battle.enemies(target)
        ):
            continue
        path = places.route(battle.table, here, spot, target.base.radius, target.mover)
        if path is not None and path.cost <= move + 0.05:
            return spot
    return None


__all__ = ["dive_for_cover", "fearsome_allows", "flees_value", "head_for_the_hills_tests"]
