"""A scenario objective (kubik's default; carriers who leave are no casualties, OW-PLK-03).

A posse with an objective fetches loot from a terrain feature and carries it off a
table edge: a model that ends its move near enough the feature picks up one loot, and
a carrier whose base comes near enough the exit edge leaves the table with it. The
seed says only that such models are not out of action (OW-PLK-03); how near is near
enough is ours (``battle.objective_reach_inches``, ``battle.edge_reach_inches``).
"""

from __future__ import annotations

from kubik.rulesets.old_west.core import data


def objective_reach() -> float:
    """Within how many inches of the objective's terrain a model picks up loot."""
    return float(data()["battle"]["objective_reach_inches"])


def edge_reach() -> float:
    """Within how many inches of the exit edge a carrier leaves the table with the loot."""
    return float(data()["battle"]["edge_reach_inches"])


__all__ = ["edge_reach", "objective_reach"]
