"""The state of an Old West battle: every model's profile, place, wounds and markers.

One :class:`Figure` per model (a scenario unit is one model); a posse is a side.
The state is plain mutable data on the game object, rebuilt by replaying answers;
every collection is ordered (models in file order) so replays are byte-identical.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kubik.engine import Message, msg
from kubik.rulesets.old_west.absent import Profile, move_allowance
from kubik.rulesets.old_west.battle.spec import (
    MOUNTED,
    BattleSpec,
    Mount,
    Weapon,
    foot_base_inches,
    leader_of,
)
from kubik.rulesets.old_west.core import Status
from kubik.table import Base, Table, edge_distance, in_base_contact


@dataclass(slots=True)
class Figure:
    """One model in play: fixed profile and weapons, changing place, wounds and markers."""

    id: str
    side: str
    name_en: str
    name_ru: str
    profile: Profile
    weapons: tuple[Weapon, ...]
    base: Base
    fame: int
    fortune: int
    wounds_taken: int = 0
    prone: bool = False  # lying on the ground (OW-CC-10, OW-PLK-06)
    status: Status = Status.IN_ACTION  # in action, out of action, fled or left the table
    pinned: bool = False  # failed Diving for cover this turn: cannot shoot back (OW-PLK-06)
    scared: bool = False  # failed a Fearsome Reputation test: nothing else this phase
    tested_fearsome: frozenset[str] = frozenset()  # enemies tested against this phase
    mount: Mount | None = None  # the horse or mule it rides (None: on foot)
    foot_diameter: float = 1.0  # its base diameter on foot (inches), after dismounting
    mount_wounds: int = 0  # wounds its mount has suffered
    carrying: bool = False  # carries loot of the scenario objective

    @property
    def name(self) -> Message:
        """The model's name in both languages."""
        return msg("game.name", en=self.name_en, ru=self.name_ru)

    @property
    def in_action(self) -> bool:
        """Still on the table and fighting."""
        return self.status.in_action

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

    def dismount(self) -> Mount | None:
        """Leave (or lose) the mount, standing on a foot base where the rider was; returns
        the mount (the horse is no longer part of the model)."""
        mount, self.mount, self.mount_wounds = self.mount, None, 0
        if mount is not None and self.foot_diameter < self.base.diameter:
            self.base = Base(self.base.x, self.base.y, self.foot_diameter, self.base.id)
        return mount

    @property
    def wounds_left(self) -> int:
        """Wounds (Ранения) it can still suffer before it is out of action."""
        return max(self.profile.wounds - self.wounds_taken, 0)

    @property
    def hero(self) -> bool:
        """A Hero (Герой): has Fame and Fortune, may take heroic actions."""
        return self.profile.hero


@dataclass(slots=True)
class Battle:
    """Every model and the table: the questions all phases ask of the state."""

    table: Table
    figures: tuple[Figure, ...]
    sides: tuple[str, str]
    leaders: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_spec(cls, spec: BattleSpec, sides: tuple[str, str]) -> Battle:
        """The battle as the scenario sets it up."""
        figures = tuple(
            Figure(
                m.id,
                m.side,
                m.name,
                m.name_ru,
                m.profile,
                m.weapons,
                m.base,
                m.profile.fame,
                m.profile.fortune,
                mount=m.mount,
                foot_diameter=min(m.base.diameter, foot_base_inches()),
            )
            for m in spec.models
        )
        leaders = {side: leader_of(spec, side) for side in sides}
        return cls(spec.table, figures, sides, leaders)

    def figure(self, model_id: str) -> Figure:
        """The model with this id."""
        for figure in self.figures:
            if figure.id == model_id:
                return figure
        raise KeyError(model_id)

    def enemy_of(self, side: str) -> str:
        """The other posse."""
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def posse(self, side: str) -> tuple[Figure, ...]:
        """Every model of the posse (also those out of action), in file order."""
        return tuple(f for f in self.figures if f.side == side)

    def active(self, side: str) -> tuple[Figure, ...]:
        """The posse's models still in action."""
        return tuple(f for f in self.figures if f.side == side and f.in_action)

    def enemies(self, figure: Figure) -> tuple[Figure, ...]:
        """Enemy models in action."""
        return self.active(self.enemy_of(figure.side))

    def others(self, figure: Figure) -> tuple[Figure, ...]:
        """Every other model in action (friend or foe)."""
        return tuple(f for f in self.figures if f.in_action and f.id != figure.id)

    def in_contact(self, figure: Figure) -> tuple[Figure, ...]:
        """Enemies in base contact with the model (it is in a fight)."""
        return tuple(e for e in self.enemies(figure) if in_base_contact(figure.base, e.base))

    def engaged(self, figure: Figure) -> bool:
        """Whether the model is in base contact with an enemy."""
        return bool(self.in_contact(figure))

    def nearest_enemy(self, figure: Figure) -> Figure | None:
        """The closest enemy in action (edge to edge; file order breaks ties)."""
        enemies = self.enemies(figure)
        if not enemies:
            return None
        return min(enemies, key=lambda e: edge_distance(figure.base, e.base))

    def out_of_action(self, side: str) -> int:
        """Models of the posse out of action (models that fled or left the table for a
        scenario objective are not casualties, OW-PLK-03)."""
        return sum(1 for f in self.posse(side) if f.status.casualty)

    def fame_left(self, side: str) -> int:
        """Fame the posse's Heroes in action have left."""
        return sum(f.fame for f in self.active(side))


__all__ = ["Battle", "Figure"]
