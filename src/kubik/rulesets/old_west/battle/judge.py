"""How good an option is for the side choosing it: values of rule outcomes, and plain
positional scores for what no dice decide (the bots' heuristics, not rules).

A forecast's procedure is the rule itself; these only say what its outcomes are
worth: enemy Wounds taken (a Hero's worth more), own Wounds lost.
"""

from __future__ import annotations

from dataclasses import dataclass

from kubik.rulesets.old_west.absent import ShotOutcome, ShotResult
from kubik.rulesets.old_west.battle import measure
from kubik.rulesets.old_west.battle.state import Battle, Figure
from kubik.rulesets.old_west.combat import CombatOutcome, Model
from kubik.rulesets.old_west.core import Side
from kubik.table import Base, edge_distance

HERO_WORTH = 1.5  # a Hero counts half as much again as a rank-and-file model
CAN_SHOOT = 0.3  # a place from which the model has a target
EXPOSED = 0.08  # per enemy gun that can hit the place without cover
EXPOSED_IN_COVER = 0.02  # ... with cover
CLOSING = 0.01  # per inch nearer the enemy (brawlers: CLOSING_BRAWLER)
CLOSING_BRAWLER = 0.04


def per_wound(figure: Figure) -> float:
    """What one wound on the model is worth: its worth spread over the Wounds it has left.

    Killing a Hero is worth more; a model with 2 Wounds left is half-hurt by one wound.
    """
    worth = HERO_WORTH if figure.hero else 1.0
    return worth / max(figure.wounds_left, 1)


@dataclass(frozen=True, slots=True)
class ShotValue:
    """A shot's worth: the target's per-wound worth if it hits and wounds the target."""

    worth: float

    def __call__(self, outcome: ShotOutcome) -> float:
        hit = outcome.result is ShotResult.TARGET and outcome.wounded
        return self.worth if hit else 0.0


@dataclass(frozen=True, slots=True)
class CombatValue:
    """A fight's worth to side ``me``: wounds dealt if it wins, minus wounds taken if not."""

    me: Side
    worth_mine: tuple[float, ...]
    worth_theirs: tuple[float, ...]

    def __call__(self, outcome: CombatOutcome) -> float:
        if outcome.winner is self.me:
            return sum(w * v for w, v in zip(outcome.wounds, self.worth_theirs, strict=False))
        return -sum(w * v for w, v in zip(outcome.wounds, self.worth_mine, strict=False))


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


def threatens(battle: Battle, enemy: Figure, spot: Base) -> bool:
    """Whether ``enemy`` could shoot a model standing at ``spot``."""
    reach = max((w.range for w in enemy.weapons), default=0)
    if reach <= 0 or edge_distance(enemy.base, spot) > reach:
        return False
    return measure.sees(battle.table, enemy.base, spot)


def position_score(battle: Battle, figure: Figure, spot: Base) -> float:
    """A plain positional judgement of standing at ``spot``: a target in range, little
    exposure to enemy guns, closing in (brawlers more eagerly)."""
    enemies = [e for e in battle.enemies(figure)]
    if not enemies:
        return 0.0
    reach = max((w.range for w in figure.weapons), default=0)
    score = 0.0
    if reach and any(
        edge_distance(spot, e.base) <= reach
        and not battle.engaged(e)
        and measure.sees(battle.table, spot, e.base)
        for e in enemies
    ):
        score += CAN_SHOOT
    for enemy in enemies:
        if threatens(battle, enemy, spot):
            covered = measure.covered(battle.table, spot, enemy.base)
            score -= EXPOSED_IN_COVER if covered else EXPOSED
    nearest = min(edge_distance(spot, e.base) for e in enemies)
    brawler = reach == 0 or figure.profile.fight >= 4
    score -= (CLOSING_BRAWLER if brawler else CLOSING) * nearest
    return round(score, 4)


__all__ = [
    "CombatValue",
    "ShotValue",
    "combat_model",
    "per_wound",
    "position_score",
    "threatens",
]
