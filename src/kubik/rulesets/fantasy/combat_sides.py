"""The two sides of a round of close combat as values: each regiment as it comes
into the fight, the round, its outcome, and which face of a regiment an enemy fights
(FB-ABSENT-07)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from kubik.engine import Message
from kubik.rulesets.fantasy.leadership import Command
from kubik.rulesets.fantasy.profiles import Fighter
from kubik.rulesets.fantasy.regiment import CommandGroup, ModelKind
from kubik.text.i18n import name_msg


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
    hates_enemy: bool | None = None
    impact: str | None = None
    breath_strength: int | None = None
    afraid: bool = False
    terror_tested: bool = False
    reach: Command = field(default_factory=Command)
    wounds_taken: int = 0
    #: rank and file that can strike: those in base contact with the enemy and the
    #: ranks supporting them (FB-ABSENT-13); None: the first ranks of a frontal fight,
    #: the character taking a place in the front rank
    fighters: int | None = None
    #: whether the character stands in base contact with the enemy
    character_in_contact: bool = True
    #: wounds its character has lost already
    character_wounds_taken: int = 0
    #: its character (else its champion) refused a challenge in this combat: he stands
    #: in the rear rank, the unit without his Leadership and rules (FB-CHAL-02)
    refused: bool = False
    #: how far it went charging this turn (None: far enough to gain speed, FB-SR-14)
    charge_inches: float | None = None
    #: what the narration calls it (a unit's name; None: the first or second side)
    name: Message | None = None
    #: what the narration calls its character (None: as it calls the regiment)
    character_name: Message | None = None
    #: its blows go at the enemy's rider while he lives, where the enemy is a ridden
    #: monster (the attacker chooses rider or mount; else the monster first)
    strike_rider: bool = False


@dataclass(frozen=True, slots=True)
class Round:
    """A round of the combat between ``a`` and ``b``."""

    a: Regiment
    b: Regiment
    round_number: int = 1
    challenge: ChallengeChoice = ChallengeChoice.ACCEPT
    #: who issued the challenge (None: the side with the first right, FB-CHAL-01)
    challenger: str | None = None
    #: the duel of an earlier round goes on: the same two fight again (FB-CHAL-03)
    duel_goes_on: bool = False


@dataclass(frozen=True, slots=True)
class RoundOutcome:
    """Who won the round (``a``/``b``/``draw``) and by how much, who broke, the
    models each side lost (its character not counted), and what lasts for the rest of
    the combat: the characters' wounds, Fear, a duel still going on."""

    winner: str
    margin: int
    broken: str | None
    a_lost: int
    b_lost: int
    a_character_lost: bool = False
    b_character_lost: bool = False
    #: wounds each character lost in the round
    a_character_wounds: int = 0
    b_character_wounds: int = 0
    #: whether each side's champion fell (in a duel he falls before his turn)
    a_champion_lost: bool = False
    b_champion_lost: bool = False
    #: whether each side is afraid for the rest of the combat (FB-PSY-01)
    a_afraid: bool = False
    b_afraid: bool = False
    #: a duel neither side won yet: it goes on in the next round (FB-CHAL-03)
    duel_goes_on: bool = False


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


#: How the narration names the two sides of a round given no names: the first and the
#: second side (in Russian with their case forms).
SIDE_NAMES = {
    "a": name_msg(
        "side a",
        "первая сторона",
        cases={
            "gen": "первой стороны",
            "dat": "первой стороне",
            "acc": "первую сторону",
            "ins": "первой стороной",
            "loc": "первой стороне",
        },
        gender="f",
    ),
    "b": name_msg(
        "side b",
        "вторая сторона",
        cases={
            "gen": "второй стороны",
            "dat": "второй стороне",
            "acc": "вторую сторону",
            "ins": "второй стороной",
            "loc": "второй стороне",
        },
        gender="f",
    ),
}


def side_name(r: Round, side: str) -> Message:
    """What the narration calls ``side`` of round ``r``: its name, else the first or
    second side."""
    reg = r.a if side == "a" else r.b
    return reg.name if reg.name is not None else SIDE_NAMES[side]
