"""The keys an Old West battle registers names under, besides its models' ids.

A battle names weapons, mounts and terrain in its log as it names models
(:meth:`~kubik.game.battle.BattleGame.name`); their ids may clash with a model's, so
each kind has its own prefix.

>>> weapon_key("pistol"), mount_key("horse"), terrain_key("fence")
('weapon:pistol', 'mount:horse', 'terrain:fence')
"""

from __future__ import annotations


def weapon_key(weapon_id: str) -> str:
    """The name key of a weapon."""
    return f"weapon:{weapon_id}"


def mount_key(mount_id: str) -> str:
    """The name key of a mount."""
    return f"mount:{mount_id}"


def terrain_key(feature_id: str) -> str:
    """The name key of a terrain feature."""
    return f"terrain:{feature_id}"


__all__ = ["mount_key", "terrain_key", "weapon_key"]
