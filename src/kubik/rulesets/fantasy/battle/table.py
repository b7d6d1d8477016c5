"""At a real table (``kubik play --table``): people move the regiments and type where
each one ended its move.

A Warhammer player wheels a regiment and moves it straight ahead, measuring from its
front rank; so what is typed is where the centre of its front rank now stands — a
place (``12.5, 30``) or how far and which way it went from where it stood (``6 n``,
``4,5 северо-восток``, ``5 @45``: the battle layer's one grammar,
:func:`~kubik.game.battle.read_position`). The regiment then faces the way it went
(it wheeled to face it first; a move straight ahead keeps its facing). The place is
checked by the movement rules as a bot's move is: the wheel's outer corner and the
straight move, at the pace the ground sets, within the move's allowance, never into
impassable ground (:func:`~kubik.rulesets.fantasy.movement.may_move_to`), wholly on the
table and touching no other model (the board). Off a real table nothing is asked.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from kubik.engine import Choose, Entry, EntryError, Message, Procedure, msg
from kubik.game.battle import move_entry, read_position
from kubik.rulesets.fantasy.battle import ground
from kubik.rulesets.fantasy.battle.formation import bearing, turn_between
from kubik.rulesets.fantasy.battle.state import FantasyState
from kubik.rulesets.fantasy.battle.units import Unit
from kubik.rulesets.fantasy.movement import may_cross, may_move_to, pace, wheel_inches
from kubik.table import Base

Spot = tuple[float, float]
#: Degrees a typed place may lie off the regiment's facing and still count as straight
#: ahead (a place on the 0.1" grid a few inches away is never exactly ahead).
STRAIGHT = 1


@dataclass(frozen=True, slots=True)
class Placed:
    """Where a regiment ended a move: the centre of its front rank and its facing."""

    x: float
    y: float
    facing: int


@dataclass(frozen=True, slots=True)
class PlacedOrder:
    """A regiment's order typed at the orders prompt in any game: go to the place typed
    (the centre of its front rank), facing the way it went; ``march``: at the march
    allowance (its normal move did not reach it)."""

    x: float
    y: float
    facing: int
    march: bool = False


def facing_after(start: Spot, start_facing: int, spot: Spot) -> int:
    """The facing of a regiment that went from ``start`` to ``spot``: the way it went,
    or its own when it went (all but) straight ahead or nowhere.

    >>> facing_after((0.0, 0.0), 0, (0.1, 6.0)), facing_after((0.0, 0.0), 0, (6.0, 6.0))
    (0, 45)
    """
    if math.dist(start, spot) < 0.05:
        return start_facing
    went = bearing(start, spot)
    return start_facing if turn_between(went, start_facing) <= STRAIGHT else went


def move_problem(
    game: FantasyState, unit: Unit, start: Spot, start_facing: int, spot: Spot, allowance: float
) -> Message | None:
    """Why ``unit`` may not end a move of ``allowance`` inches at ``spot`` (None: it
    may): the movement rules on the wheel and the way, then the contact rule."""
    facing = facing_after(start, start_facing, spot)
    wheel = wheel_inches(
        unit.frontage(), turn_between(start_facing, facing), loose=unit.spec.skirmish
    )
    through, under = ground.way(game.tape, unit, start, spot, facing)
    rules, flying = unit.rules(), game.flyer(unit)
    verdict = may_move_to(
        math.dist(start, spot),
        wheel,
        allowance,
        ground=may_cross(rules, through, under, flying=flying),
        inch_cost=pace(rules, through, flying=flying),
    )
    if not verdict.allowed:
        return verdict.reason
    if not game.board.clear(unit, unit.bases(spot, facing)):
        return msg("fantasy.permission.touching")
    return None


def order_entry(game: FantasyState, unit: Unit, step: float, march: float | None) -> Entry:
    """How a person playing the regiment's side types where it goes at the orders
    prompt (``16, 5``, ``6 ne``: where the centre of its front rank is to stand), in any
    game: a normal move of ``step`` inches when the rules let it reach the place, else a
    march of ``march`` (``None``: the rules do not let it march now without a test, FB-ABSENT-14),
    each checked as a typed move at a real table is (:func:`move_problem`: the wheel
    and the way at the ground's pace, FB-ABSENT-19; the contact rule)."""
    start, start_facing = unit.front, unit.facing

    def shape(spot: Spot) -> Sequence[Base]:
        return unit.bases(spot, facing_after(start, start_facing, spot))

    def read(text: str) -> Hashable:
        spot = read_position(text, start)
        if not game.board.on_ground(unit, spot, shape=shape):
            raise EntryError(msg("game.entry.off_ground", x=spot[0], y=spot[1]))
        facing = facing_after(start, start_facing, spot)
        problem = move_problem(game, unit, start, start_facing, spot, step)
        if problem is None:
            return PlacedOrder(spot[0], spot[1], facing)
        if march is not None:
            marched = move_problem(game, unit, start, start_facing, spot, march)
            if marched is None:
                return PlacedOrder(spot[0], spot[1], facing, march=True)
            problem = marched
        raise EntryError(problem)

    def label(value: Hashable) -> Message:
        assert isinstance(value, PlacedOrder)
        said = "fantasy.option.placed_march" if value.march else "fantasy.option.placed"
        return msg(said, x=value.x, y=value.y, facing=value.facing)

    return Entry(msg("game.entry.position_hint"), read, label)


def where_ended(
    game: FantasyState,
    unit: Unit,
    start: Spot,
    start_facing: int,
    proposed: Placed,
    allowance: float,
    rules: tuple[str, ...],
) -> Procedure[Placed]:
    """Where the regiment's move ended: at a real table as the players say (the place
    the program worked out, or one typed that the rules accept), else as worked out."""
    if not game.at_table:
        return proposed
    board = game.board

    def shape(spot: Spot) -> Sequence[Base]:
        return unit.bases(spot, facing_after(start, start_facing, spot))

    def check(spot: Spot) -> Message | None:
        return move_problem(game, unit, start, start_facing, spot, allowance)

    def make(spot: Spot) -> Hashable:
        return Placed(spot[0], spot[1], facing_after(start, start_facing, spot))

    def label(value: Hashable) -> Message:
        assert isinstance(value, Placed)
        return msg("fantasy.game.placed", x=value.x, y=value.y, facing=value.facing)

    picked = yield Choose(
        (proposed,),
        unit.side,
        msg("fantasy.game.where_ended", unit=game.name(unit.id), inches=allowance),
        default=proposed,
        labels=(label(proposed),),
        rules=rules,
        entry=move_entry(board, unit, make, check, label=label, shape=shape),
    )
    assert isinstance(picked, Placed)
    return picked
