"""What the battle layer knows of every model: where it stands and whether it is in play.

Each ruleset keeps its own models (with its own states, as enums), and shows
them to the layer as :class:`Piece` snapshots: id, unit, side, base and a
:class:`Presence`. That is all the contact rule, the per-side views and the web
table need, whatever the ruleset.

>>> Presence.DOWN.on_table, Presence.DOWN.fighting, Presence.FLED.on_table
(True, False, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from kubik.engine import Message
from kubik.table import Base


class Presence(StrEnum):
    """Where a model is, in every ruleset's terms (how it left play, if it did)."""

    IN_PLAY = "in_play"  # on the table and fighting
    DOWN = "down"  # on the table but out of the fight (wounded, fate unknown; stunned)
    ABOARD = "aboard"  # carried inside a vehicle: off the table until it gets out
    REMOVED = "removed"  # a casualty taken off the table (killed, out of action, captured)
    FLED = "fled"  # ran off the table
    LEFT = "left"  # left the table on purpose (a scenario objective)

    @property
    def on_table(self) -> bool:
        """Whether the model (or its marker) stands on the table."""
        return self in (Presence.IN_PLAY, Presence.DOWN)

    @property
    def fighting(self) -> bool:
        """Whether it still takes part in the fight."""
        return self is Presence.IN_PLAY

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"game.presence.{self.value}"


class Posture(StrEnum):
    """How a model on the table stands: up, or lying on the ground (gone to ground,
    knocked down, diving for cover)."""

    STANDING = "standing"
    PRONE = "prone"

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"game.posture.{self.value}"


@dataclass(frozen=True, slots=True)
class Piece:
    """A model as the battle layer sees it: a snapshot, rebuilt whenever it is asked for."""

    id: str
    unit: str
    side: str
    base: Base
    presence: Presence = Presence.IN_PLAY
    posture: Posture = Posture.STANDING

    @property
    def body(self) -> bool:
        """Whether its base takes up room on the table (a standing or prone fighter; a
        wounded model's marker does not block moves)."""
        return self.presence is Presence.IN_PLAY

    def to_json(self) -> dict[str, Any]:
        """JSON-ready, for views and the web table."""
        return {
            "id": self.id,
            "unit": self.unit,
            "side": self.side,
            "x": self.base.x,
            "y": self.base.y,
            "diameter": self.base.diameter,
            "presence": self.presence.value,
            "posture": self.posture.value,
        }


@dataclass(frozen=True, slots=True)
class Reaching:
    """How far a unit reaches from where it stands, for a map to draw as a circle: a
    move's allowance or a weapon's range (``kind``: ``move`` or ``weapon``), in inches
    (or the game's paces), named by ``label``; the number is its rule module's own."""

    kind: str
    inches: float
    label: Message


__all__ = ["Piece", "Posture", "Presence", "Reaching"]
