"""Steel War core concepts used by morale, reaction and panic (SW-CORE-01..03).

Seed 001: the die chain, quality dice, leadership and the basic test form.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from kubik.engine import OddsDriver, TableSession
from kubik.engine.dice import D4, D6, D8, D10, D12
from kubik.engine.registry import get
from kubik.rulesets.steel_war.core import Quality, clamp_leadership, step_die, test_passed
from kubik.rulesets.steel_war.inspiration import communication_die
from kubik.rulesets.steel_war.morale import morale_drop
from kubik.rulesets.steel_war.reaction import ReactionOutcome, reaction_test


def test_SW_CORE_01_die_chain_steps_and_clamps() -> None:
    """d4 → d6 → d8 → d10 → d12; past either end clamps (catalogue default)."""
    assert step_die(D8, -1) == D6 and step_die(D8, +2) == D12
    assert step_die(D12, +1) == D12 and step_die(D4, -1) == D4
    assert communication_die(D10, 1) == D8  # the communication test's −1 step per link


def test_SW_CORE_02_quality_dice() -> None:
    """«необученных» к4 … «элиты» к12."""
    assert [q.die for q in Quality] == [D4, D6, D8, D10, D12]


def test_SW_CORE_03_beat_leadership_plus_threat_and_clamp_leadership() -> None:
    assert test_passed(4, 2, 1) and not test_passed(3, 2, 1)
    assert clamp_leadership(0) == 1 and clamp_leadership(5) == 3
    # A test that cannot succeed is still rolled: its roll decides 1 or 2 levels.
    assert morale_drop(8, 8) == 1


def test_SW_CORE_03_commander_test_example_through_the_table() -> None:
    """Partisans d6, L = 1: «1» fails, «2» succeeds (SW-SUP-03's example, threat 0)."""
    outcomes = []
    for roll in (1, 2):
        session = TableSession(reaction_test, (D6, 1, 0))
        session.supply([roll])
        assert session.result is not None
        outcomes.append(session.result.outcome)
    assert outcomes == [ReactionOutcome(False), ReactionOutcome(True)]


def test_SW_CORE_03_explicit_threat_reaction_odds_match_brute_force() -> None:
    spec = get("steel_war.reaction_test")
    for quality, lead, threat in product(("d4", "d8", "d12"), (1, 2, 3), (0, 4, 9)):
        model = spec.input_model.model_validate(
            {"quality": quality, "leadership": lead, "threat": threat}
        )
        faces = int(quality[1:])
        wins = sum(1 for (r,) in product(range(1, faces + 1)) if r > lead + threat)
        exact = OddsDriver().distribution(spec.function, (model,))
        assert exact[ReactionOutcome(True)] == Fraction(wins, faces)
