"""A scenario objective: fetch loot from a terrain feature and carry it off a table edge.

The objective (``[end.objective]``, see :mod:`.spec`) belongs to one posse. Its models
get two more move options: make for the feature (while loot is left there) and, when
carrying loot, make for the exit edge. A model that ends its move within reach of the
feature picks up one loot; a carrier whose base reaches the exit edge leaves the table
(:mod:`kubik.rulesets.old_west.loot`). Models that left the table for the objective
are not out of action for Head for the Hills (OW-PLK-03). A carrier put out of action
drops the loot and it is lost.
"""

from __future__ import annotations

import itertools
import math

from kubik.engine import Procedure, emit
from kubik.game.battle import Walk, on_grid
from kubik.rulesets.old_west.battle.figures import Figure
from kubik.rulesets.old_west.battle.judge import weight
from kubik.rulesets.old_west.battle.names import terrain_key
from kubik.rulesets.old_west.battle.options import MoveKind
from kubik.rulesets.old_west.battle.situations import stands
from kubik.rulesets.old_west.battle.spec import ObjectiveData
from kubik.rulesets.old_west.battle.state import OldWestState
from kubik.rulesets.old_west.core import Status
from kubik.rulesets.old_west.loot import edge_reach, objective_reach
from kubik.rulesets.old_west.movement import beside_gap
from kubik.table import Point, distance_to


def objective_bonus(kind: MoveKind) -> float:
    """A bot's taste for the objective's moves."""
    if kind is MoveKind.LOOT:
        return weight("loot")
    if kind is MoveKind.ESCAPE:
        return weight("escape")
    return 0.0


def edge_gap(game: OldWestState, figure: Figure, edge: str) -> float:
    """Inches between the model's base and the table edge ``edge``."""
    table, base = game.table, figure.base
    gaps = {
        "south": base.y - base.radius,
        "north": table.height - base.y - base.radius,
        "west": base.x - base.radius,
        "east": table.width - base.x - base.radius,
    }
    return gaps[edge]


def edge_goal(game: OldWestState, figure: Figure, edge: str) -> Point:
    """The place on the table with the base touching ``edge``, straight across."""
    table, base = game.table, figure.base
    r = base.radius + 0.05
    goals = {
        "south": (base.x, r),
        "north": (base.x, table.height - r),
        "west": (r, base.y),
        "east": (table.width - r, base.y),
    }
    return on_grid(goals[edge])


def objective_walks(
    game: OldWestState, figure: Figure, allowance: float
) -> list[tuple[MoveKind, Walk]]:
    """The objective moves open to the model: (kind, the walk the board finds)."""
    objective = game.spec.objective
    if objective is None or figure.side != objective.side or allowance <= 0:
        return []
    board = game.board
    here = figure.base.centre
    standing = stands(game, figure)
    if figure.loot:
        goal = edge_goal(game, figure, objective.edge)
        walked = board.walk(figure, goal, allowance, within=True, stands=standing)
        return [(MoveKind.ESCAPE, walked)] if walked is not None and _far(walked) else []
    if game.loot_left <= 0 or near_feature(game, figure, objective):
        return []
    clearance = board.clearance_of(figure)
    spots = game.tape.around(objective.feature, clearance, beside_gap(), board.mover_of(figure))
    nearest = sorted(spots, key=lambda s: (math.dist(s, here), s))
    for spot in nearest[:3]:
        if not board.fits(figure, spot) or not standing(spot):
            continue
        walked = board.walk(figure, spot, allowance, within=True, stands=standing)
        if walked is not None and _far(walked):
            return [(MoveKind.LOOT, walked)]
    return []


def _far(walked: Walk) -> bool:
    """Whether a walk's path goes anywhere before the contact rule ends it."""
    return len(walked.path) > 1 and _length(walked.path) > 0.05


def _length(points: tuple[Point, ...]) -> float:
    return sum(math.dist(p, q) for p, q in itertools.pairwise(points))


def near_feature(game: OldWestState, figure: Figure, objective: ObjectiveData) -> bool:
    """Whether the model is within reach of the objective's terrain."""
    feature = game.table.feature(objective.feature)
    return distance_to(figure.base, feature) <= objective_reach() + 1e-6


def after_move(game: OldWestState, figure: Figure) -> Procedure[None]:
    """Pick up loot at the feature, or leave the table with it at the exit edge (OW-PLK-03)."""
    objective = game.spec.objective
    if objective is None or figure.side != objective.side or not figure.in_action:
        return
    place = game.name(terrain_key(objective.feature))
    if not figure.loot and game.loot_left > 0 and near_feature(game, figure, objective):
        figure.loot = 1
        game.loot_left -= 1
        yield emit(
            "old_west.game.loot_taken", model=game.name(figure.id), place=place, left=game.loot_left
        )
    if figure.loot and edge_gap(game, figure, objective.edge) <= edge_reach():
        figure.status = Status.LEFT_TABLE
        game.contacts.release(figure.id)
        game.loot_escaped += figure.loot
        yield emit(
            "old_west.game.loot_escapes",
            rules=("OW-PLK-03",),
            model=game.name(figure.id),
            carried=game.loot_escaped,
            needed=objective.needed,
        )


def drop_loot(game: OldWestState, figure: Figure) -> Procedure[None]:
    """A carrier put out of action drops the loot: it is lost."""
    if figure.loot:
        figure.loot = 0
        yield emit("old_west.game.loot_lost", model=game.name(figure.id))


def achieved(game: OldWestState) -> bool:
    """Whether the objective's posse has carried off the loot it needs."""
    objective = game.spec.objective
    return objective is not None and game.loot_escaped >= objective.needed


__all__ = [
    "achieved",
    "after_move",
    "drop_loot",
    "edge_gap",
    "objective_bonus",
    "objective_walks",
]
