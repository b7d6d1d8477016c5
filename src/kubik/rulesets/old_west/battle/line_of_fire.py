"""What stands in the way of a shot, as the tape measures the line of fire (OW-ABSENT-04).

Every cover feature the line of fire crosses near the target (a fence, a porch rail,
the barrels the target hides behind; not one the shooter leans on), every obstacle it
crosses away from the shooter, and every other model's base it cuts is in the way:
each a d6 1–3 that stops the shot, nearest the shooter first, at most as many as the
shooting rule rolls for (:func:`~kubik.rulesets.old_west.shooting.most_in_the_way`).
"""

from __future__ import annotations

from dataclasses import dataclass

from kubik.rulesets.old_west.battle.figures import Figure
from kubik.rulesets.old_west.battle.state import OldWestState
from kubik.rulesets.old_west.shooting import cover_reach, most_in_the_way
from kubik.table import Base, Cover, distance_to
from kubik.table.geometry import point_segment_distance


@dataclass(frozen=True, slots=True)
class Blocker:
    """Something in the way of a shot: a terrain feature or a model (by id)."""

    id: str
    model: bool


def in_the_way(game: OldWestState, figure: Figure, target: Figure) -> tuple[Blocker, ...]:
    """What stands in the way of a shot, nearest the shooter first: cover features on the
    line of fire (near the target, or obstacles anywhere but at the shooter's own base)
    and the models it cuts; at most as many as a shot rolls for."""
    board = game.board
    found = list(terrain_in_the_way(game, figure.base, target.base))
    line = (figure.base.centre, target.base.centre)
    for other in board.units():
        if not board.in_battle(other) or other.id in (figure.id, target.id):
            continue
        if point_segment_distance(other.base.centre, *line) < other.base.radius:
            found.append((board.gap(figure, other), Blocker(other.id, True)))
    cap = most_in_the_way()
    return tuple(b for _, b in sorted(found, key=lambda t: t[0]))[:cap]


def terrain_in_the_way(
    game: OldWestState, shooter_base: Base, target: Base
) -> tuple[tuple[float, Blocker], ...]:
    """The terrain part of :func:`in_the_way`, each feature with its distance from the
    shooter (the tape's cover and obstacles on the line of fire). It depends on the
    table and the two bases alone, so each answer is kept with the table."""
    reach = cover_reach()
    one, other = shooter_base, target
    return game.tape.kept(
        "old_west.terrain_in_the_way",
        (one.x, one.y, one.diameter, other.x, other.y, other.diameter, reach),
        lambda: _terrain_in_the_way(game, shooter_base, target, reach),
    )


def _terrain_in_the_way(
    game: OldWestState, shooter_base: Base, target: Base, reach: float
) -> tuple[tuple[float, Blocker], ...]:
    table = game.table
    ids = list(game.tape.cover_ids(shooter_base, target, reach))
    for feature in map(table.feature, game.tape.crossed((shooter_base.centre, target.centre))):
        leaning = _distance_to(game, shooter_base, feature.id) <= reach
        if feature.cover is not Cover.NONE and not leaning and feature.id not in ids:
            ids.append(feature.id)
    return tuple((_distance_to(game, shooter_base, i), Blocker(i, False)) for i in ids)


def _distance_to(game: OldWestState, base: Base, feature_id: str) -> float:
    """The table's :func:`~kubik.table.distance_to` from a base to a feature, kept for the
    table (a shooter weighs every target from where he stands)."""
    return game.tape.kept(
        "old_west.distance_to",
        (base.centre, base.radius, feature_id),
        lambda: distance_to(base, game.table.feature(feature_id)),
    )


__all__ = ["Blocker", "in_the_way", "terrain_in_the_way"]
