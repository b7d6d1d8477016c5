"""A scenario objective: fetch loot from a terrain feature and carry it off a table edge.

The objective (``[end.objective]``, see :mod:`.spec`) belongs to one posse. Its models
get two more move options: make for the feature (while loot is left there) and, when
carrying loot, make for the exit edge. A model that ends its move within reach of the
feature picks up one loot; a carrier whose base reaches the exit edge leaves the table.
Models that left the table for the objective are not out of action for Head for the
Hills (OW-PLK-03). A carrier put out of action drops the loot and it is lost.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kubik.engine import Procedure, emit, msg
from kubik.rulesets.old_west.battle import places
from kubik.rulesets.old_west.battle.options import MoveKind
from kubik.rulesets.old_west.battle.spec import ObjectiveData
from kubik.rulesets.old_west.battle.state import Figure
from kubik.rulesets.old_west.core import Status, data
from kubik.table import Point, distance_to

if TYPE_CHECKING:
    from kubik.rulesets.old_west.battle.game import OldWestGame

#: A bot's taste for the objective (positional scores are a few tenths).
LOOT_BONUS = 0.6
ESCAPE_BONUS = 1.2


def reach(key: str) -> float:
    """An objective distance of data/game.toml, in inches."""
    return float(data()["battle"][key])


def edge_gap(game: OldWestGame, figure: Figure, edge: str) -> float:
    """Inches between the model's base and the table edge ``edge``."""
    table, base = game.battle.table, figure.base
    gaps = {
        "south": base.y - base.radius,
        "north": table.height - base.y - base.radius,
        "west": base.x - base.radius,
        "east": table.width - base.x - base.radius,
    }
    return gaps[edge]


def edge_goal(game: OldWestGame, figure: Figure, edge: str) -> Point:
    """The spot on the table with the base touching ``edge``, straight across."""
    table, base = game.battle.table, figure.base
    r = base.radius
    goals = {
        "south": (base.x, r),
        "north": (base.x, table.height - r),
        "west": (r, base.y),
        "east": (table.width - r, base.y),
    }
    return goals[edge]


def objective_routes(
    game: OldWestGame, figure: Figure, allowance: float
) -> list[tuple[MoveKind, places.Route, float]]:
    """The objective moves open to the model: (kind, route walked, bot's bonus)."""
    objective = game.spec.objective
    if objective is None or figure.side != objective.side or allowance <= 0:
        return []
    table, r = game.battle.table, figure.base.radius
    here = figure.base.centre
    if figure.carrying:
        path = places.route(table, here, edge_goal(game, figure, objective.edge), r, figure.mover)
        if path is None:
            return []
        walked = places.walk(table, path, allowance, r, figure.mover)
        return [(MoveKind.ESCAPE, walked, ESCAPE_BONUS)] if len(walked.points) > 1 else []
    if game.loot_left <= 0 or near_feature(game, figure, objective):
        return []
    gap = float(data()["battle"]["cover_gap_inches"])
    spots = places.spots_around(table, objective.feature, r, gap, figure.mover)
    nearest = sorted(spots, key=lambda s: ((s[0] - here[0]) ** 2 + (s[1] - here[1]) ** 2, s))
    for spot in nearest[:3]:
        if not places.free_spot(game.battle, figure, spot):
            continue
        path = places.route(table, here, spot, r, figure.mover)
        if path is None:
            continue
        walked = places.walk(table, path, allowance, r, figure.mover)
        if len(walked.points) > 1:
            return [(MoveKind.LOOT, walked, LOOT_BONUS)]
    return []


def near_feature(game: OldWestGame, figure: Figure, objective: ObjectiveData) -> bool:
    """Whether the model is within reach of the objective's terrain."""
    feature = game.battle.table.feature(objective.feature)
    return distance_to(figure.base, feature) <= reach("objective_reach_inches") + 1e-6


def after_move(game: OldWestGame, figure: Figure) -> Procedure[None]:
    """Pick up loot at the feature, or leave the table with it at the exit edge."""
    objective = game.spec.objective
    if objective is None or figure.side != objective.side or not figure.in_action:
        return
    feature = game.battle.table.feature(objective.feature)
    place = msg("game.name", en=feature.name, ru=feature.name_ru)
    if not figure.carrying and game.loot_left > 0 and near_feature(game, figure, objective):
        figure.carrying = True
        game.loot_left -= 1
        yield emit("old_west.game.loot_taken", model=figure.name, place=place, left=game.loot_left)
    if figure.carrying and edge_gap(game, figure, objective.edge) <= reach("edge_reach_inches"):
        figure.status = Status.LEFT_TABLE
        game.loot_escaped += 1
        yield emit(
            "old_west.game.loot_escapes",
            model=figure.name,
            carried=game.loot_escaped,
            needed=objective.needed,
        )


def drop_loot(game: OldWestGame, figure: Figure) -> Procedure[None]:
    """A carrier put out of action drops the loot: it is lost."""
    if figure.carrying:
        figure.carrying = False
        yield emit("old_west.game.loot_lost", model=figure.name)


def achieved(game: OldWestGame) -> bool:
    """Whether the objective's posse has carried off the loot it needs."""
    objective = game.spec.objective
    return objective is not None and game.loot_escaped >= objective.needed


__all__ = [
    "achieved",
    "after_move",
    "drop_loot",
    "edge_gap",
    "objective_routes",
]
