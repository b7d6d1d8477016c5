"""What each side of a Steel War rule wants, for the optimal policy (kubik.engine.optimal).

The one rule that asks a decision of its own is ПСИ-ВЗРЫВ (SW-PSI-16): the psionic
chooses whether the target loses two morale levels or falls into panic. Its goal is
the harm done, weighed as the battle's own bots weigh it (``[bot]``: an
enemy morale level lost, an enemy panicked), so the odds and the bots agree.

>>> from kubik.rulesets.steel_war.psionics_actions import PsiEffect, PsiOutcome, PsiResult
>>> harm = blast_goals()["psionic"].worth
>>> harm(PsiOutcome(PsiResult.SUCCEEDED, PsiEffect.PANICKED)) > 0
True
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from kubik.engine.objectives import Objectives, declare, goal
from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war import psionics_actions
from kubik.rulesets.steel_war.procedures import psionics as psionics_inputs
from kubik.rulesets.steel_war.psionics_actions import PsiEffect, PsiOutcome


@dataclass(frozen=True, slots=True)
class PsiHarm:
    """Worth of a psi action to the psionic: enemy morale levels lost and panic."""

    level: Fraction
    panicked: Fraction

    def __call__(self, outcome: PsiOutcome) -> Fraction:
        harm = self.level * outcome.morale_drop
        if outcome.effect is PsiEffect.PANICKED:
            harm += self.panicked
        return harm


def blast_goals(attempt: Any = None, preferred: Any = None, side: str = "psionic") -> Objectives:
    """ПСИ-ВЗРЫВ: the psionic's ``side`` wants the most harm (the bots' weights from the
    data)."""
    weights = load_ruleset_data("steel_war")["bot"]
    harm = PsiHarm(Fraction(str(weights["level_lowered"])), Fraction(str(weights["psi_panicked"])))
    return {side: goal(harm, "steel_war.goal.psi_harm")}


declare(psionics_actions.psi_blast, blast_goals)
declare(psionics_inputs.psi_blast_procedure, blast_goals)

__all__ = ["PsiHarm", "blast_goals"]
