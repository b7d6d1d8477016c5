"""A model in a close-combat round: its profile and its situation (OW-CC-01..16).

What every part of the round reads of a fighter — the fight (:mod:`.fight`), the
strikes (:mod:`.strikes`), backing off and falling — and the key of every memoised
step of a round's exact odds, so its hash is made once.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from kubik.engine import Message
from kubik.rulesets.old_west.fight import Fighter


@dataclass(frozen=True, slots=True)
class Model:
    """A model in a close-combat round: its profile and its situation."""

    fight: int
    attacks: int
    strength: int
    toughness: int
    wounds: int = 1  # Wounds it has left
    fame: int = 0
    prone: bool = False  # lying on the ground (OW-CC-10)
    trapped: bool = False  # cannot back off the full 1" if it loses (OW-CC-09)
    across_obstacle: bool = False  # separated from its opponent by an obstacle (OW-CC-14)
    mount_toughness: int = 0  # 0: on foot; otherwise the mount's Toughness (OW-CC-16)
    mount_wounds: int = 0
    cliff_drop: int = 0  # inches: backs off over the edge of a drop this high (OW-CC-09)
    fortune: int = 0  # Fortune points it will spend against wounds (OW-ABSENT-07 default)
    name: Message | None = None  # how the log names it (None: by its place in the fight)
    # its hash, made once: models key every memoised step of a round's exact odds
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(
            self,
            "_hash",
            hash(tuple(getattr(self, f.name) for f in fields(self) if f.name != "_hash")),
        )

    def __hash__(self) -> int:
        return self._hash

    def called(self, index: int) -> Message | int:
        """How messages name it: its name, else its 1-based place on its side."""
        return self.name if self.name is not None else index + 1

    @property
    def fighter(self) -> Fighter:
        """What Dukin' it out needs of it."""
        return Fighter(self.fight, self.attacks, self.fame)

    @property
    def mounted(self) -> bool:
        """Whether it rides a horse or a mule."""
        return self.mount_toughness > 0


__all__ = ["Model"]
