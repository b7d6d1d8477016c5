"""What each side of a Дороги Апокалипсиса rule wants, for the optimal policy
(:mod:`kubik.engine.optimal`): every rule with decisions declares its deciders' goals.

In a bout each fighter wants the hits he lands, less those he takes (the shield-bearer's
block is decided for that); a singer wants his Melody played (his re-rolls are decided
for that). The public procedures declare the same goals over their inputs.

>>> from kubik.rulesets.apocalypse.melee import MeleeOutcome, Winner
>>> goals = melee_goals(None, None)
>>> goals["a"].worth(MeleeOutcome(Winner.A, 3)), goals["b"].worth(MeleeOutcome(Winner.A, 3))
(3, -3)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kubik.engine.objectives import FieldValue, Objectives, declare, goal
from kubik.rulesets.apocalypse import melee, melody
from kubik.rulesets.apocalypse.melee import MeleeOutcome, Winner
from kubik.rulesets.apocalypse.procedures import melee as melee_inputs
from kubik.rulesets.apocalypse.procedures import melody as melody_inputs


@dataclass(frozen=True, slots=True)
class BoutScore:
    """Worth of a bout to one fighter: the hits he lands, less the hits he takes."""

    me: Winner

    def __call__(self, outcome: MeleeOutcome) -> int:
        if outcome.winner is Winner.DRAW:
            return 0
        return outcome.hits if outcome.winner is self.me else -outcome.hits


def melee_goals(a: Any, b: Any, sides: tuple[str, str] = ("a", "b")) -> Objectives:
    """A bout: each fighter wants the hits he lands, less those he takes."""
    return {
        sides[0]: goal(BoutScore(Winner.A), "apocalypse.goal.bout"),
        sides[1]: goal(BoutScore(Winner.B), "apocalypse.goal.bout"),
    }


def cast_goals(casting: Any, side: str = "a") -> Objectives:
    """A casting: the singer wants his Melody played."""
    return {side: goal(FieldValue("success"), "apocalypse.goal.melody")}


declare(melee.melee, melee_goals)
declare(melody.cast, cast_goals)
declare(melee_inputs.melee_procedure, lambda inp: melee_goals(None, None))
declare(melody_inputs.melody_procedure, lambda inp: cast_goals(None))

__all__ = ["BoutScore", "cast_goals", "melee_goals"]
