"""The public procedure ``fantasy.challenge``: one round of a duel, with Overkill."""

from __future__ import annotations

from pydantic import Field

from kubik.engine import Procedure, ProcedureInput, procedure
from kubik.engine.requests import tail_step
from kubik.rulesets.fantasy.challenge import Duel, DuelOutcome, duel_round
from kubik.rulesets.fantasy.procedures.close_combat import ProfileInput


class DuelistInput(ProfileInput):
    """A character or champion in a duel, with the mount he rides (if any)."""

    wounds_left: int | None = Field(default=None, ge=1, le=10, description="Wounds left")
    mount: ProfileInput | None = Field(default=None, description="his mount, striking too")


class ChallengeInput(ProcedureInput):
    """One round of a duel between a challenger and the character who accepted."""

    challenger: DuelistInput = Field(description="the challenger (strikes first)")
    challenged: DuelistInput = Field(description="the one who accepted")
    round: int = Field(default=1, ge=1, le=20, description="round of the combat")
    challenger_charging: bool = Field(default=True, description="the challenger charged")


@procedure(
    "fantasy.challenge",
    input=ChallengeInput,
    rules=("FB-CHAL-03", "FB-SR-16"),
    examples=(
        {
            "challenger": {"weapon_skill": 4, "strength": 4, "attacks": 1, "wounds": 1},
            "challenged": {"weapon_skill": 3, "strength": 3, "attacks": 1, "wounds": 1},
        },
        {
            "challenger": {"weapon_skill": 5, "strength": 6, "attacks": 1, "wounds": 2},
            "challenged": {"weapon_skill": 4, "attacks": 1, "wounds": 1, "wounds_left": 1},
            "round": 2,
            "challenger_charging": False,
        },
    ),
)
def challenge_procedure(inp: ChallengeInput) -> Procedure[DuelOutcome]:
    """A duel round: the challenger strikes first (seed), Overkill up to +5."""
    one = inp.challenger.fighter()
    two = inp.challenged.fighter()
    if inp.challenger.mount is not None:
        one = one.with_mount(inp.challenger.mount.fighter())
    if inp.challenged.mount is not None:
        two = two.with_mount(inp.challenged.mount.fighter())
    duel = Duel(
        one,
        two,
        inp.challenger.wounds_left or one.w,
        inp.challenged.wounds_left or two.w,
        inp.round,
        inp.challenger_charging,
    )
    # a step of this procedure (logged as its own): the odds replay the duel, not this
    outcome: DuelOutcome = yield tail_step(duel_round, duel)
    return outcome
