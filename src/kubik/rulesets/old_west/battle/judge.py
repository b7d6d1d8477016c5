"""What an option is worth to the side choosing it: values of rule outcomes, and plain
positional scores for what no dice decide (the bots' tastes, never rules).

A forecast's procedure is the rule itself; these only say what its outcomes are
worth — enemy Wounds taken (a Hero's worth more), own Wounds lost, Fame spent — and
how good a place is. Every weight is a taste of ``[bot]`` in data/game.toml
(:func:`kubik.game.battle.taste`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from kubik.game.battle import Board, taste, tastes
from kubik.rulesets.old_west.absent import ShotOutcome, ShotResult
from kubik.rulesets.old_west.battle.figures import Figure
from kubik.rulesets.old_west.combat import CombatOutcome, Model
from kubik.rulesets.old_west.core import Side
from kubik.rulesets.old_west.pluck import HeadForTheHillsOutcome
from kubik.table import Base, Cover

RULESET = "old_west"


#: The tastes read so far, and the table they were read from (read again if it changes).
_TASTES: dict[str, float] = {}
_TASTES_OF: list[Mapping[str, float] | None] = [None]


def weight(name: str) -> float:
    """One of the bots' tastes (``[bot]`` in data/game.toml), read once per data (every
    option of every menu is scored with them)."""
    source = tastes(RULESET)
    if source is not _TASTES_OF[0]:
        _TASTES.clear()
        _TASTES_OF[0] = source
    found = _TASTES.get(name)
    if found is None:
        found = _TASTES[name] = taste(RULESET, name)
    return found


def per_wound(figure: Figure) -> float:
    """What one wound on the model is worth: its worth spread over the Wounds it has left.

    Killing a Hero is worth more; a model with 2 Wounds left is half-hurt by one wound.
    """
    worth = weight("hero_worth") if figure.hero else 1.0
    return worth / max(figure.wounds_left, 1)


@dataclass(frozen=True, slots=True)
class ShotValue:
    """A shot's worth: the target's per-wound worth if it wounds the target (``share`` of
    it: a heroic action weighs acting first), less the Fame the shooter spent."""

    worth: float
    share: float = 1.0
    fame_point: float = 0.0

    def __call__(self, outcome: ShotOutcome) -> float:
        hit = outcome.result is ShotResult.TARGET and outcome.wounded
        return (self.worth if hit else 0.0) * self.share - self.fame_point * outcome.fame


@dataclass(frozen=True, slots=True)
class CombatValue:
    """A fight's worth to side ``me``: wounds dealt if it wins, minus wounds taken if not,
    less the Fame its models spent; ``share`` of it (a heroic action weighs acting first)."""

    me: Side
    worth_mine: tuple[float, ...]
    worth_theirs: tuple[float, ...]
    share: float = 1.0
    fame_point: float = 0.0

    def __call__(self, outcome: CombatOutcome) -> float:
        spent = sum(outcome.fame_a if self.me is Side.A else outcome.fame_b)
        if outcome.winner is self.me:
            worth = sum(w * v for w, v in zip(outcome.wounds, self.worth_theirs, strict=False))
        else:
            worth = -sum(w * v for w, v in zip(outcome.wounds, self.worth_mine, strict=False))
        return worth * self.share - self.fame_point * spent


@dataclass(frozen=True, slots=True)
class WhuppinValue:
    """Time for Whuppin' (Мордобой): worth moving again when the Hero's side wins and every
    opponent is out of action (OW-HERO-10)."""

    me: Side
    opponents: int
    worth: float

    def __call__(self, outcome: CombatOutcome) -> float:
        wiped = outcome.winner is self.me and outcome.out_of_action >= self.opponents
        return self.worth if wiped else 0.0


@dataclass(frozen=True, slots=True)
class FlightValue:
    """Head for the Hills: what fleeing costs, what fighting on is worth."""

    fled: float
    stay: float

    def __call__(self, outcome: HeadForTheHillsOutcome) -> float:
        return self.fled if outcome.flees else self.stay


def combat_model(figure: Figure, *, fame: bool = True) -> Model:
    """The close-combat situation of a model as the rule takes it (no trap, no obstacle,
    no Fortune): its profile, Wounds left, prone, its mount's Toughness and Wounds left."""
    mount = figure.mount
    return Model(
        figure.profile.fight,
        figure.profile.attacks,
        figure.profile.strength,
        figure.profile.toughness,
        max(figure.wounds_left, 1),
        fame=figure.fame if fame else 0,
        prone=figure.prone,
        mount_toughness=mount.toughness if mount else 0,
        mount_wounds=max(mount.wounds - figure.mount_wounds, 1) if mount else 0,
    )


def gun_reach(figure: Figure) -> int:
    """How far the model's longest-ranged weapon shoots (0: it has no gun)."""
    return max((w.range for w in figure.weapons), default=0)


def _threatens(
    board: Board[Figure], enemy: Figure, reach: int, spot: Base, gap: float, seen: bool | None
) -> bool:
    """Whether ``enemy`` could shoot a model standing at ``spot``: its guns' ``reach``
    and the ``gap`` between them measured already (``seen``: whether the model there sees
    it, if looked already)."""
    if reach <= 0 or gap > reach:
        return False
    return board.sees_from((spot,), enemy) if seen is None else seen


class Outlook:
    """The model's view of the enemies as the board stands, gathered once for a menu
    that scores many places (their bases, guns' reach, who is in a fight, the tastes):
    :meth:`score` is :func:`position_score` at each place."""

    __slots__ = ("_board", "_closing", "_enemies", "_reach")

    def __init__(self, board: Board[Figure], figure: Figure) -> None:
        self._board = board
        # each enemy, its guns' reach, whether it is in a fight, and its centre and radius
        # as plain numbers (every place measures its distance to each)
        self._enemies = tuple(
            (e, gun_reach(e), board.is_engaged(e), e.base.x, e.base.y, e.base.diameter / 2)
            for e in board.enemies(figure)
        )
        self._reach = gun_reach(figure)
        brawler = self._reach == 0 or figure.profile.fight >= 4
        self._closing = weight("closing_brawler" if brawler else "closing")

    def score(self, spot: Base) -> float:
        """A plain positional judgement of standing at ``spot``: a target in range, little
        exposure to enemy guns, closing in (brawlers more eagerly)."""
        enemies = self._enemies
        if not enemies:
            return 0.0
        board, reach = self._board, self._reach
        x, y, radius = spot.x, spot.y, spot.diameter / 2
        # :func:`~kubik.table.edge_distance` from the place to each enemy, once each
        gaps = [max(0.0, math.hypot(ex - x, ey - y) - (radius + er)) for *_, ex, ey, er in enemies]
        score = 0.0
        seen: list[bool | None] = [None] * len(enemies)  # sight lines looked at once each
        if reach:
            for index, ((enemy, _, engaged, *_), gap) in enumerate(zip(enemies, gaps, strict=True)):
                if gap <= reach and not engaged:
                    seen[index] = visible = board.sees_from((spot,), enemy)
                    if visible:
                        score += weight("can_shoot")
                        break
        for (enemy, guns, *_), gap, looked in zip(enemies, gaps, seen, strict=True):
            if _threatens(board, enemy, guns, spot, gap, looked):
                covered = board.cover_at((spot,), enemy) is not Cover.NONE
                score -= weight("exposed_in_cover") if covered else weight("exposed")
        score -= self._closing * min(gaps)
        return round(score, 4)


__all__ = [
    "CombatValue",
    "FlightValue",
    "Outlook",
    "ShotValue",
    "WhuppinValue",
    "combat_model",
    "gun_reach",
    "per_wound",
    "weight",
]
