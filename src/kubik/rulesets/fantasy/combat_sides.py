"""The two sides of a round of close combat as values: each regiment as it comes
into the fight, the round, its outcome, and which face of a regiment an enemy fights
(FB-ABSENT-07)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from kubik.rulesets.fantasy.leadership import Command
from kubik.rulesets.fantasy.profiles import Fighter
from kubik.rulesets.fantasy.regiment import CommandGroup, ModelKind


class Facing(StrEnum):
    """Which face of the enemy a regiment fights (FB-ABSENT-07: flank +1, rear +2)."""

    FRONT = "front"
    FLANK = "flank"
    REAR = "rear"


class ChallengeChoice(StrEnum):
    """What happens to a challenge at the start of the combat (FB-CHAL-01/02)."""

    NONE = "none"
    ACCEPT = "accept"
    REFUSE = "refuse"


@dataclass(frozen=True, slots=True)
class Regiment:
    """One side of the combat: its rank and file, ranks and files, command group,
    the character in it, and how it came into the fight."""

    troops: Fighter
    models: int
    files: int = 5
    kind: ModelKind = ModelKind.INFANTRY
    command: CommandGroup = field(default_factory=CommandGroup)
    character: Fighter | None = None
    battle_standard: bool = False
    general: bool = False
    charging: bool = False
    facing: Facing = Facing.FRONT
    high_ground: bool = False
    skirmish: bool = False
    hates_enemy: bool = False
    impact: str | None = None
    breath_strength: int | None = None
    afraid: bool = False
    terror_tested: bool = False
    reach: Command = field(default_factory=Command)
    wounds_taken: int = 0


@dataclass(frozen=True, slots=True)
class Round:
    """A round of the combat between ``a`` and ``b``."""

    a: Regiment
    b: Regiment
    round_number: int = 1
    challenge: ChallengeChoice = ChallengeChoice.ACCEPT


@dataclass(frozen=True, slots=True)
class RoundOutcome:
    """Who won the round (``a``/``b``/``draw``) and by how much, who broke, and the
    models each side lost (its character not counted)."""

    winner: str
    margin: int
    broken: str | None
    a_lost: int
    b_lost: int
    a_character_lost: bool = False
    b_character_lost: bool = False


def charged_face(
    across: float, ahead: float, half_width: float, depth: float, *, loose: bool = False
) -> Facing:
    """Which face of a regiment a charger's front lies in at the start of its charge
    (FB-ABSENT-07, the published 6th/7th-edition arcs): ``across``/``ahead`` place
    the charger's front centre from the target's front centre, along its front rank
    and along its facing; ``half_width``/``depth`` are the target's outer edges. The
    front arc runs at 45° out from the front corners, the rear arc from the rear
    corners; the rest is flank. Skirmishers (``loose``) have no flank or rear.

    >>> charged_face(0.0, 10.0, 3.0, 4.0), charged_face(9.0, 2.0, 3.0, 4.0)
    (<Facing.FRONT: 'front'>, <Facing.FLANK: 'flank'>)
    >>> charged_face(1.0, -9.0, 3.0, 4.0)
    <Facing.REAR: 'rear'>
    """
    beside = abs(across) - half_width
    if loose:
        return Facing.FRONT
    if ahead >= 0 and beside <= ahead:
        return Facing.FRONT
    behind = -depth - ahead
    if behind >= 0 and beside <= behind:
        return Facing.REAR
    return Facing.FLANK
