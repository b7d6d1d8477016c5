"""How a loser of a fight gets out of contact, on the board (OW-CC-04, OW-CC-09, OW-CC-10).

Backing off is the board's straight step away from the opponents
(:meth:`~kubik.game.battle.Board.back_away`), turned aside at the angles of the data
when straight back is blocked; every way is the rule's to judge
(:func:`~kubik.rulesets.old_west.backing_off.back_off_path`: the full 1", touching no
other enemy, no jump or climb). A loser at a cliff edge with no other way back goes
over it (OW-CC-09, OW-ABSENT-05). A trapped loser still ends out of contact, the
others shuffling aside (:meth:`~kubik.game.battle.Board.make_way`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from kubik.engine import Verdict
from kubik.game.battle import GRID, SLACK, MadeWay, away_from, on_grid, touching
from kubik.rulesets.old_west.backing_off import (
    BackOffPath,
    MakingWay,
    back_off_inches,
    back_off_path,
    back_off_turns,
    make_way_reach,
    may_make_way,
    out_of_contact,
)
from kubik.rulesets.old_west.battle.figures import Figure
from kubik.rulesets.old_west.battle.situations import standing, stands
from kubik.rulesets.old_west.battle.state import OldWestState
from kubik.rulesets.old_west.movement import cliff_height
from kubik.table import Point

#: How much farther than the full 1" a loser going over a cliff edge may land, in turn
#: (inches): the first clear place below it.
_OVER_THE_EDGE = (0.0, 0.5, 1.0, 1.5, 2.0)


@dataclass(frozen=True, slots=True)
class WayBack:
    """How a loser can back off, as the table measures it: ``spot`` where a lawful 1" way
    back ends (None: no room, OW-CC-09); at a cliff edge with no other way back,
    ``cliff_drop`` inches down to ``below``, where he lands (OW-CC-09, OW-ABSENT-05)."""

    spot: Point | None
    cliff_drop: int = 0
    below: Point | None = None

    @property
    def room(self) -> bool:
        """A lawful way back exists."""
        return self.spot is not None


def way_back(game: OldWestState, loser: Figure, opponents: Sequence[Figure]) -> WayBack:
    """The loser's way back 1" from his opponents: straight away from them, else turned
    aside as far as the data allows, each way judged by the rule
    (:func:`~kubik.rulesets.old_west.backing_off.back_off_path`); else over a cliff edge."""
    board = game.board
    inches = back_off_inches() + SLACK
    turns = back_off_turns()

    def lawful(start: Point, spot: Point) -> bool:
        # the same rule a person's placing is judged by: a step that ends still touching
        # one of his own opponents (turned aside round him) is no way back either
        return lawful_step_back(game, loser, opponents, spot).allowed

    spot = board.back_away(loser, opponents, inches, turns=turns, allowed=lawful)
    if spot is not None:
        return WayBack(spot)
    edge = _cliff_edge(game, loser, opponents, inches, turns)
    return edge if edge is not None else WayBack(None)


def _cliff_edge(
    game: OldWestState,
    loser: Figure,
    opponents: Sequence[Figure],
    inches: float,
    turns: Sequence[float],
) -> WayBack | None:
    """Where a loser with no lawful way back goes over a cliff edge: the first way back
    (in the order tried) that drops more than a step of ground (None: no such edge)."""
    here = loser.base.centre
    threats = [o.base.centre for o in opponents]
    cliff = cliff_height()
    height = game.tape.elevation(here)
    for turn in turns:
        spot = on_grid(away_from(here, threats, inches + SLACK, turn))
        if any(math.dist(spot, t) <= math.dist(here, t) for t in threats):
            continue
        if not game.table.on_table(spot):
            continue
        if game.tape.crossed((here, spot)) and height - game.tape.elevation(spot) > cliff:
            found = _over_the_edge(game, loser, here, threats, turn, height)
            if found is not None:
                return found
    return None


def _over_the_edge(
    game: OldWestState,
    loser: Figure,
    here: Point,
    threats: Sequence[Point],
    turn: float,
    height: float,
) -> WayBack | None:
    """Where a loser backing off over a cliff edge lands: the first clear place below it,
    straight on (None: nowhere)."""
    inches = back_off_inches()
    board = game.board
    for extra in _OVER_THE_EDGE:
        spot = on_grid(away_from(here, threats, inches + extra + 0.1, turn))
        if board.fits(loser, spot) and stands(game, loser)(spot):
            drop = height - game.tape.elevation(spot)
            return WayBack(None, max(1, round(drop)), spot)
    return None


def make_way(
    game: OldWestState, loser: Figure, winners: Sequence[Figure]
) -> MadeWay[Figure] | None:
    """Where a trapped loser ends out of contact, the others shuffling aside (OW-CC-09):
    the nearest place no longer touching the enemy that he gets to without a jump or a
    climb, and for each model in the way a place it shuffles to — his friends first, else
    any model :func:`~kubik.rulesets.old_west.backing_off.may_make_way` lets move; 1" off
    as a step back would take him, else as near as out of contact. None when even that
    fails (he stays where he is, still in the fight)."""
    board = game.board
    reach = make_way_reach()
    standing_at = standing(game)
    side = loser.side

    def friend(model: Figure) -> bool:
        return model.side == side and _may_make_way(game, loser, model)

    def anyone(model: Figure) -> bool:
        return _may_make_way(game, loser, model)

    def anyone_or_winner(model: Figure) -> bool:
        fights = board.engaged(model)
        winner = model in winners and all(f.id == loser.id for f in fights)
        verdict = may_make_way(MakingWay(bool(fights), model.side == side, winner))
        return verdict.allowed

    tries = (
        (back_off_inches() + SLACK, _STEP, friend, False),
        (back_off_inches() + SLACK, _STEP, anyone, False),
        (GRID, GRID, anyone, False),
        (GRID, GRID, anyone_or_winner, True),  # his winners step back a little
    )
    for start, step, may_shuffle, threats_shuffle in tries:
        found = board.make_way(
            loser,
            winners,
            start=start,
            limit=reach.inches,
            directions=reach.directions,
            step=step,
            may_shuffle=may_shuffle,
            stands=standing_at,
            threats_shuffle=threats_shuffle,
        )
        if found is not None:
            return found
    return None


def room_for(
    game: OldWestState, loser: Figure, winners: Sequence[Figure], spot: Point
) -> tuple[tuple[Figure, Point], ...] | None:
    """The models that shuffle aside to let a trapped loser end at ``spot`` (where people
    at a real table put him), and where each goes (None: no room there)."""
    return game.board.room_at(
        loser,
        spot,
        winners,
        may_shuffle=lambda model: _may_make_way(game, loser, model),
        stands=standing(game),
    )


#: How far apart the rings of places a trapped loser tries 1" off lie (inches).
_STEP = 0.5


def _may_make_way(game: OldWestState, loser: Figure, model: Figure) -> bool:
    """The rule's word on whether ``model`` shuffles aside for the trapped ``loser``."""
    return may_make_way(MakingWay(game.board.is_engaged(model), model.side == loser.side)).allowed


def lawful_way_out(
    game: OldWestState, loser: Figure, opponents: Sequence[Figure], spot: Point
) -> Verdict:
    """The rule's verdict on a trapped loser ending at ``spot`` (where people at a real
    table put him): no longer touching any enemy, not on an obstacle (OW-CC-09)."""
    base = loser.base.moved_to(spot)
    touches = any(touching(base, e.base) for e in game.board.enemies(loser))
    on_obstacle = game.board.on_obstacle(loser, spot)
    if touches or on_obstacle:
        return out_of_contact(touches, on_obstacle)
    crossed = bool(game.tape.crossed((loser.base.centre, spot)))
    if crossed:
        return back_off_path(BackOffPath(0.0, climbs=True))
    return out_of_contact(False, False, room_for(game, loser, opponents, spot) is not None)


def lawful_step_back(
    game: OldWestState, loser: Figure, opponents: Sequence[Figure], spot: Point
) -> Verdict:
    """The rule's verdict on a loser backing off to ``spot`` (where people at a real table
    put him): the full 1" away from his opponents, touching no enemy (them neither), over no
    obstacle and not on one (:func:`~kubik.rulesets.old_west.backing_off.back_off_path`)."""
    here = loser.base.centre
    base = loser.base.moved_to(spot)
    board = game.board
    touches_enemy = any(touching(base, e.base) for e in board.enemies(loser))
    away = all(math.dist(spot, o.base.centre) > math.dist(here, o.base.centre) for o in opponents)
    crossed = bool(game.tape.crossed((here, spot)))
    path = BackOffPath(
        math.dist(here, spot), touches_enemy, crossed, away, board.on_obstacle(loser, spot)
    )
    return back_off_path(path)


__all__ = ["WayBack", "lawful_step_back", "lawful_way_out", "make_way", "room_for", "way_back"]
