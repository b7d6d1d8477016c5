"""The models of an Old West battle: profile, place, wounds and markers, each state an enum.

One :class:`Figure` per model (a scenario unit is one model; a posse is a side). The
state is plain mutable data on the game object, rebuilt by replaying answers. How a
model left play is its :class:`~kubik.rulesets.old_west.core.Status` (the rules'
enum); how it stands is a :class:`Stance`; its nerve this phase or turn a
:class:`Nerve`. The battle layer sees each as a :class:`~kubik.game.battle.Piece`.

>>> Stance.CHARGED_PRONE.posture, Stance.CHARGED_PRONE.charged_while_prone
(<Posture.PRONE: 'prone'>, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from kubik.game.battle import Piece, Posture, Presence
from kubik.rulesets.old_west.absent import Profile, move_allowance
from kubik.rulesets.old_west.battle.spec import MOUNTED, Mount, Weapon
from kubik.rulesets.old_west.core import Status
from kubik.table import Base


class Stance(StrEnum):
    """How a model stands: up, lying on the ground (OW-PLK-06, OW-ABSENT-06), or lying
    there charged this turn, so it cannot stand up in the Movement phase (OW-CC-10)."""

    STANDING = "standing"
    PRONE = "prone"
    CHARGED_PRONE = "charged_prone"

    @property
    def posture(self) -> Posture:
        """The battle layer's posture."""
        return Posture.STANDING if self is Stance.STANDING else Posture.PRONE

    @property
    def charged_while_prone(self) -> bool:
        """Charged while lying down this turn (OW-CC-10)."""
        return self is Stance.CHARGED_PRONE


class Nerve(StrEnum):
    """A model's nerve: steady; scared by a Fearsome Reputation, doing nothing else this
    phase (OW-PLK-05); or pinned by a failed Diving for cover, not shooting back this
    turn (OW-PLK-06)."""

    STEADY = "steady"
    SCARED = "scared"
    PINNED = "pinned"

    @property
    def msgid(self) -> str:
        """Message id of its name."""
        return f"old_west.nerve.{self.value}"


_PRESENCE = {
    Status.IN_ACTION: Presence.IN_PLAY,
    Status.OUT_OF_ACTION: Presence.REMOVED,
    Status.FLED: Presence.FLED,
    Status.LEFT_TABLE: Presence.LEFT,
}


#: Each status's :attr:`~kubik.rulesets.old_west.core.Status.in_action`, read once (a
#: battle asks it of every model for every measurement).
_IN_ACTION = {status: status.in_action for status in Status}


@dataclass(slots=True)
class Figure:
    """One model: fixed profile and weapons, changing place, wounds and markers."""

    id: str
    side: str
    profile: Profile
    weapons: tuple[Weapon, ...]
    base: Base
    fame: int
    fortune: int
    mount: Mount | None = None  # the horse or mule it rides (None: on foot)
    foot_diameter: float = 1.0  # its base diameter on foot (inches), after dismounting
    wounds_taken: int = 0
    mount_wounds: int = 0  # wounds its mount has suffered
    status: Status = Status.IN_ACTION
    stance: Stance = Stance.STANDING
    nerve: Nerve = Nerve.STEADY
    tested_fearsome: tuple[str, ...] = ()  # enemies it passed its test against this phase
    moved: float = 0.0  # inches moved this turn (a move-or-fire weapon, OW-ABSENT-04)
    loot: int = 0  # loot of the scenario objective it carries
    # the last piece made, with the base, status and stance it was made of
    _piece: tuple[Base, Status, Stance, Piece] | None = field(
        default=None, compare=False, repr=False
    )

    @property
    def in_action(self) -> bool:
        """Still on the table and fighting."""
        return _IN_ACTION[self.status]

    @property
    def prone(self) -> bool:
        """Lying on the ground (OW-CC-10)."""
        return self.stance is not Stance.STANDING

    @property
    def mounted(self) -> bool:
        """Riding a live mount (OW-CC-16)."""
        return self.mount is not None

    @property
    def mover(self) -> str | None:
        """Its mover type for terrain: mounted models may find some terrain impassable."""
        return MOUNTED if self.mounted else None

    @property
    def move(self) -> int:
        """Its Move in inches: the mounted Move while it rides (OW-ABSENT-02 default)."""
        return move_allowance(self.mounted)

    @property
    def wounds_left(self) -> int:
        """Wounds (Ранения) it can still suffer before it is out of action."""
        return max(self.profile.wounds - self.wounds_taken, 0)

    @property
    def hero(self) -> bool:
        """A Hero (Герой): has Fame and Fortune, may take heroic actions."""
        return self.profile.hero

    def piece(self) -> Piece:
        """The model as the battle layer sees it (made again only once it moved, fell or
        left: the layer asks every model's piece for every measurement)."""
        made = self._piece
        base, status, stance = self.base, self.status, self.stance
        if made is not None and made[0] is base and made[1] is status and made[2] is stance:
            return made[3]
        piece = Piece(self.id, self.id, self.side, base, _PRESENCE[status], stance.posture)
        self._piece = (base, status, stance, piece)
        return piece

    def dismount(self) -> Mount | None:
        """Leave (or lose) the mount, standing on a foot base where the rider was; returns
        the mount (the horse is no longer part of the model)."""
        mount, self.mount, self.mount_wounds = self.mount, None, 0
        if mount is not None and self.foot_diameter < self.base.diameter:
            self.base = Base(self.base.x, self.base.y, self.foot_diameter, self.base.id)
        return mount


__all__ = ["Figure", "Nerve", "Stance"]
