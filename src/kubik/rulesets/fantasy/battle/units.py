"""A fantasy battle's plain values: a regiment's state (rebuilt by replaying the
answers), the options of its turn and the charge it would make."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from kubik.rulesets.fantasy.battle import formation
from kubik.rulesets.fantasy.battle.spec import UnitSpec
from kubik.rulesets.fantasy.close_combat import Facing
from kubik.rulesets.fantasy.regiment import CommandGroup
from kubik.table import Base


class State(StrEnum):
    """Where a regiment stands in the battle."""

    READY = "ready"
    FLEEING = "fleeing"
    DESTROYED = "destroyed"
    FLED = "fled"


@dataclass
class Unit:
    """A regiment's state in the battle (plain values, rebuilt by replaying)."""

    spec: UnitSpec
    models: int
    front: tuple[float, float]
    facing: int
    state: State = State.READY
    wounds: int = 0
    hero_alive: bool = False
    terror_tested: bool = False
    frenzy_lost: bool = False
    stupid: bool = False
    started: int = 0
    rounds: dict[str, int] = field(default_factory=dict)
    faces: dict[str, Facing] = field(default_factory=dict)
    hero_wounds: int = 0
    champion_lost: bool = False
    breaths: int = 0
    breathed: int = 0
    moved: bool = False
    marched: bool = False
    rallied: bool = False
    #: it moved, shot, charged or fought in its own turn (no regeneration of a wound)
    acted: bool = False
    #: how far it went charging this turn (impact hits need more than its M)
    charge_inches: float | None = None

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def side(self) -> str:
        return self.spec.side

    @property
    def fighting(self) -> bool:
        return self.state is State.READY

    @property
    def on_table(self) -> bool:
        return self.state in (State.READY, State.FLEEING)

    def figures(self) -> int:
        """Models standing in the formation (the character among them)."""
        return self.models + int(self.hero_alive)

    def command(self) -> CommandGroup:
        """The command group as it stands (a champion slain out of order is gone)."""
        if self.champion_lost:
            return replace(self.spec.command, champion=False)
        return self.spec.command

    def rules(self) -> frozenset[str]:
        rules = self.spec.troops.rules
        if self.frenzy_lost:
            rules = rules - {"frenzy"}
        return rules

    # -- its formation on the table (ranks and files: the regiment's own geometry) --

    def bases(
        self, front: tuple[float, float] | None = None, facing: int | None = None
    ) -> list[Base]:
        """Its models' bases in ranks and files behind ``front`` facing ``facing``
        (default: where it stands)."""
        spec = self.spec
        return formation.bases(
            self.front if front is None else front,
            self.facing if facing is None else facing,
            spec.files,
            self.figures(),
            spec.size,
            spec.id,
            spec.skirmish,
        )

    def frontage(self) -> float:
        """Its front rank's width, edge to edge (inches)."""
        spec = self.spec
        return formation.frontage(spec.files, self.figures(), spec.size, spec.skirmish)

    def depth(self) -> float:
        """From its front rank's centres to its last rank's (inches)."""
        spec = self.spec
        return formation.depth(spec.files, self.figures(), spec.size, spec.skirmish)

    def centre(self) -> tuple[float, float]:
        """The middle of its formation."""
        deep = self.depth() / 2
        dx, dy = formation.ahead(self.facing)
        return (self.front[0] - dx * deep, self.front[1] - dy * deep)


@dataclass
class Fight:
    """What lasts from round to round of one close combat between two units: its
    rounds, who of them is afraid (FB-PSY-01), whether a challenge was made (one per
    combat), whose champion or character refused it (FB-CHAL-02), and the unit whose
    challenge started a duel still going on (FB-CHAL-03)."""

    rounds: int = 0
    afraid: dict[str, bool] = field(default_factory=dict)
    challenged: bool = False
    refused: str = ""
    duel: str = ""


@dataclass(frozen=True, slots=True)
class ChargePlan:
    """Where a charge would end: the face of the target it strikes (fixed at the start
    of the charge), the charger's facing and front there, and the distance it goes."""

    face: Facing
    facing: int
    goal: tuple[float, float]
    distance: float


@dataclass(frozen=True, slots=True)
class Act:
    """An option of a regiment's turn (ids only: what a save records)."""

    kind: str  # charge / march / advance / hold / shoot / stand_and_shoot / flee
    target: str = ""


def fight_key(one: Unit, other: Unit) -> str:
    """The key of the close combat between two units (whichever is named first)."""
    return "|".join(sorted((one.id, other.id)))
