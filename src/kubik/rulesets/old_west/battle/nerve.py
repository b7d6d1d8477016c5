"""Pluck in battle: Head for the Hills (OW-PLK-02..04), Fearsome Reputation (OW-PLK-05)
and Diving for cover (OW-PLK-06/07), applied to the posses.

The tests are the rule procedures of :mod:`kubik.rulesets.old_west.pluck`; here the
battle picks who tests, offers the choices the rules allow (voluntary flight only
when :func:`~kubik.rulesets.old_west.pluck.may_flee` says so) and moves or lays down
the models. Diving for cover is the target's reaction in the shooter's turn: an
out-of-turn interrupt at :data:`~kubik.game.battle.Trigger.SHOT_AT`.
"""

from __future__ import annotations

import math

from kubik.engine import Call, Forecast, Procedure, emit, msg
from kubik.game import side_name
from kubik.game.battle import Menu, Moment
from kubik.rulesets.old_west.battle.figures import Figure, Nerve, Stance
from kubik.rulesets.old_west.battle.judge import FlightValue, weight
from kubik.rulesets.old_west.battle.names import mount_key
from kubik.rulesets.old_west.battle.options import Flight
from kubik.rulesets.old_west.battle.situations import stands
from kubik.rulesets.old_west.battle.state import OldWestState
from kubik.rulesets.old_west.battle.table import confirm_cover
from kubik.rulesets.old_west.core import Status
from kubik.rulesets.old_west.movement import MoveEnd, beside_gap, may_end_move
from kubik.rulesets.old_west.pluck import (
    CoverReaction,
    Posse,
    diving_for_cover,
    fearsome_reputation,
    head_for_the_hills,
    may_flee,
    reputation_check,
    takes_the_test,
    tester,
)
from kubik.table import Cover, Point


def head_for_the_hills_tests(game: OldWestState) -> Procedure[None]:
    """At the start of a turn every posse with half or more out of action tests (OW-PLK-02);
    its player may instead choose to flee (OW-PLK-04). Failing, the posse leaves the table."""
    if not game.settings.head_for_the_hills:
        return
    for side in game.sides:
        posse = game.posse(side)
        counted = Posse.of(tuple(f.status for f in posse))
        if not game.active(side) or not counted.must_test:
            continue
        leader = game.figure(game.leaders[side])
        leader_pluck = leader.profile.pluck if leader.in_action else None
        others = tuple(f.profile.pluck for f in game.active(side) if f.id != leader.id)
        taking = leader if leader.in_action else stand_in(game, side)
        lost = counted.out_of_action
        args = (len(posse), lost, leader_pluck, others, False, taking.fame, side)
        menu: Menu[Flight] = Menu()
        stay = weight("per_model") * (
            len(game.active(side)) - len(game.active(game.enemy_of(side)))
        )
        value = FlightValue(weight("fled"), stay)
        menu.offer(
            Flight(False),
            msg("old_west.game.option.stand"),
            takes_the_test(counted),
            Forecast(head_for_the_hills, args, value=value),
        )
        voluntary = may_flee(counted)
        menu.offer(
            Flight(True),
            msg("old_west.game.option.flee"),
            voluntary,
            Forecast(score=weight("fled")),
        )
        name = side_name(game.scenario, side)
        choice = yield from game.choose(
            menu,
            side,
            msg("old_west.game.flight.ask", side=name, lost=lost),
            rules=voluntary.rules,
        )
        if choice.flee:
            args = (len(posse), lost, leader_pluck, others, True, 0, side)
        outcome = yield Call(head_for_the_hills, args)
        yield from game.pay_fame(taking, outcome.fame, ("OW-HERO-04",))
        if outcome.flees:
            game.fled[side] = True
            for figure in game.active(side):
                figure.status = Status.FLED
                game.contacts.release(figure.id)
            yield emit("old_west.game.posse_flees", rules=("OW-PLK-02",), side=name)


def stand_in(game: OldWestState, side: str) -> Figure:
    """Who tests for a posse whose leader is out of action: the model in action with the
    highest Pluck, the first in file order on a tie (OW-PLK-02)."""
    active = game.active(side)
    return active[tester(None, tuple(f.profile.pluck for f in active))]


def fearsome_allows(game: OldWestState, figure: Figure, target: Figure) -> Procedure[bool]:
    """Before charging or shooting a model of Fearsome Reputation, a Pluck test (OW-PLK-05;
    once per model and enemy per phase): failed, the model does nothing else this phase."""
    if figure.nerve is Nerve.SCARED:
        return False
    check = reputation_check(target.profile.fearsome, target.id in figure.tested_fearsome)
    if not check.needs_test:
        return True
    yield emit(
        "old_west.game.fearsome",
        rules=check.rules,
        model=game.name(figure.id),
        target=game.name(target.id),
    )
    outcome = yield Call(fearsome_reputation, (figure.profile.pluck, figure.fame, figure.side))
    yield from game.pay_fame(figure, outcome.fame, ("OW-HERO-04",))
    if not outcome.may_act:
        figure.nerve = Nerve.SCARED
        yield emit("old_west.game.scared", rules=("OW-PLK-05",), model=game.name(figure.id))
        return False
    figure.tested_fearsome = (*figure.tested_fearsome, target.id)
    return True


def dive_for_cover(game: OldWestState, moment: Moment) -> Procedure[None]:
    """Hit and not removed: a Pluck test; failed, the model runs to the nearest cover from
    the shooter (within its Move) or, already behind cover, lies down; either way it
    cannot shoot back this turn (OW-PLK-06). A rider tests with his own Pluck, runs to
    cover as usual, but behind cover dismounts with his mount between him and the
    shooter instead of lying down (OW-PLK-07)."""
    assert moment.target is not None
    target, shooter = game.figure(moment.target), game.figure(moment.unit)
    if not game.settings.diving_for_cover or not target.in_action:
        return
    board = game.board
    behind = board.cover(shooter, target) is not Cover.NONE
    if game.at_table:
        behind = yield from confirm_cover(game, target, behind)
    yield emit(
        "old_west.game.dive_test",
        rules=("OW-PLK-06",),
        model=game.name(target.id),
        behind=int(behind),
    )
    outcome = yield Call(
        diving_for_cover,
        (target.profile.pluck, behind, target.mounted, target.fame, target.side),
    )
    yield from game.pay_fame(target, outcome.fame, ("OW-HERO-04",))
    reaction = outcome.reaction
    if reaction.pinned:
        target.nerve = Nerve.PINNED
    name = game.name(target.id)
    if reaction is CoverReaction.NONE:
        return
    if reaction is CoverReaction.DISMOUNT:
        mount = target.dismount()
        assert mount is not None
        yield emit(
            "old_west.game.dismounts",
            rules=("OW-PLK-07",),
            model=name,
            mount=game.name(mount_key(mount.id)),
        )
        return
    if reaction is CoverReaction.LIE_DOWN:
        target.stance = Stance.PRONE
        yield emit("old_west.game.lies_down", rules=("OW-PLK-06",), model=name)
        return
    if board.is_engaged(target):
        yield emit("old_west.game.no_cover", rules=("OW-PLK-06",), model=name)
        return
    spot = _nearest_cover(game, target, shooter)
    if spot is None:
        yield emit("old_west.game.no_cover", rules=("OW-PLK-06",), model=name)
        return
    moved = board.settled(target, (target.base.centre, spot))
    if moved is None or moved != spot:
        yield emit("old_west.game.no_cover", rules=("OW-PLK-06",), model=name)
        return
    target.base = target.base.moved_to(spot)
    if target.prone:
        target.stance = Stance.STANDING
    yield emit(
        "old_west.game.runs_to_cover", rules=("OW-PLK-06",), model=name, x=spot[0], y=spot[1]
    )


def _nearest_cover(game: OldWestState, target: Figure, shooter: Figure) -> Point | None:
    """The nearest reachable free place with cover from the shooter (even toward him),
    outside every enemy's control zone."""
    board = game.board
    board_stands = stands(game, target)
    move = float(target.move)
    here = target.base.centre
    spots = sorted(board.cover_spots(target, beside_gap()), key=lambda s: (math.dist(s, here), s))
    for spot in spots[:12]:
        if math.dist(spot, here) > move:
            break
        if board.cover_at(board.bases_at(target)(spot), shooter) is Cover.NONE:
            continue
        if not board.fits(target, spot) or not board_stands(spot):
            continue
        gap = board.nearest_gap(target, spot)
        if not may_end_move(MoveEnd(gap if math.isfinite(gap) else 1e9)).allowed:
            continue
        found = board.way(target, spot)
        if found is not None and len(found) == 2 and board.pace(target)(found) <= move + 1e-9:
            return spot
    return None


__all__ = ["dive_for_cover", "fearsome_allows", "head_for_the_hills_tests", "stand_in"]
