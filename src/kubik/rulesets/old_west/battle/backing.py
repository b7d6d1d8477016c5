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

from kubik.game.battle import SLACK, MadeWay, away_from, on_grid, touching
from kubik.rulesets.old_west.backing_off import (
    BackOffPath,
    back_off_inches,
    back_off_path,
    back_off_turns,
    make_way_reach,
)
from kubik.rulesets.old_west.battle.figures import Figure
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
        base = loser.base.moved_to(spot)
        touches_enemy = any(
            touching(base, e.base) for e in board.enemies(loser) if e not in opponents
        )
        crossed = game.tape.crossed((start, spot))
        path = BackOffPath(math.dist(start, spot), touches_enemy, bool(crossed))
        return back_off_path(path).allowed

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
        if board.fits(loser, spot):
            drop = height - game.tape.elevation(spot)
            return WayBack(None, max(1, round(drop)), spot)
    return None


def make_way(
    game: OldWestState, loser: Figure, winners: Sequence[Figure]
) -> MadeWay[Figure] | None:
    """Where a trapped loser ends out of contact, the others shuffling aside (OW-CC-09):
    the nearest place out of every enemy's reach that he gets to without a jump or a
    climb, and for each friend in the way (not in a fight) a place it shuffles to.
    None when even that fails (he stays where he is, still in the fight)."""
    reach = make_way_reach()
    return game.board.make_way(
        loser,
        winners,
        start=back_off_inches() + SLACK,
        limit=reach.inches,
        directions=reach.directions,
    )


__all__ = ["WayBack", "make_way", "way_back"]
