"""Psi-detection (ПСИ-ОБНАРУЖЕНИЕ, SW-PSI-11) in an observation (SW-ABSENT-03): the rule's
verdict, the psionic's choice of die with the exact odds of spotting, and the battle of
steel_war.ruins where a Barf-jat psionic looks for a «Стальные» outpost hiding in ruins."""

from __future__ import annotations

from fractions import Fraction

from kubik.bots.heuristic import HeuristicBot
from kubik.bots.registry import bot_for
from kubik.engine import Choose, OddsCache, expected_value
from kubik.engine.dice import D6, D8, D12
from kubik.engine.log import ChoiceEntry, LogEntry, RollEntry
from kubik.engine.run import PolicyChooser, TypedDice, run
from kubik.game import HUMAN, GameSession, load_scenario
from kubik.rulesets.steel_war.battle.options import Activate, Observe
from kubik.rulesets.steel_war.observation import (
    ObservationDie,
    PsionicObservation,
    may_psi_detect,
    psionic_observe,
)
from kubik.rulesets.steel_war.psionics_actions import PsiAttempt
from kubik.rulesets.steel_war.situation import UnitSituation

from ..steel_war_game.builders import event_ids, pick, rolls, rules_in, state


def _observe(
    choice: ObservationDie, *dice: int, detected: bool = False
) -> tuple[PsionicObservation, list[RollEntry], list[Choose], list[LogEntry]]:
    """A d6 squad's master psionic (d8) observes a target whose range die is d12."""
    asked: list[Choose] = []

    def psionic(request: Choose) -> ObservationDie:
        asked.append(request)
        return choice

    result = run(
        psionic_observe,
        (D6, PsiAttempt(D8, 7.0), D12, ("SW-CORE-02",), (), "lianra", detected),
        dice=TypedDice(list(dice)),
        chooser=PolicyChooser(psionic),
    )
    assert isinstance(result.outcome, PsionicObservation)
    return result.outcome, result.rolls, asked, result.log


def test_SW_PSI_11_the_psionic_rolls_the_die_he_chooses() -> None:
    """Threshold 1 on a d8 in zone 1 cannot fail: no psi roll; then the psionic (his side)
    chooses the psi die or the squad's quality die, and the observation rolls it."""
    seen, rolled, asked, _ = _observe(ObservationDie.PSI, 7, 5)
    assert [r.dice for r in rolled] == [(D8,), (D12,)]
    assert "SW-PSI-11" in rolled[0].rules and seen == PsionicObservation(
        True, ObservationDie.PSI, True
    )
    (request,) = asked
    assert request.side == "lianra" and request.rules == ("SW-PSI-11",)
    assert request.default is ObservationDie.PSI  # the better die
    seen, rolled, _, _ = _observe(ObservationDie.USUAL, 5, 5)
    assert [r.dice for r in rolled] == [(D6,), (D12,)]
    assert "SW-PSI-11" not in rolled[0].rules and not seen.spotted  # a tie favours the target


def test_SW_PSI_11_the_choice_shows_the_exact_odds_of_spotting() -> None:
    """d8 against d12 spots in 28 of 96 throws (7/24), d6 against d12 in 15 of 72 (5/24):
    the heuristic bot takes the psi die by the rule's own odds."""
    _, _, (request,), _ = _observe(ObservationDie.PSI, 7, 5)
    cache = OddsCache()
    odds = [expected_value(f, cache) for f in request.forecasts if f is not None]
    assert odds == [Fraction(7, 24), Fraction(5, 24)]
    assert HeuristicBot(cache)(request) is ObservationDie.PSI


def test_SW_PSI_11_detection_lasts_the_activation() -> None:
    """Once psi-detection worked this activation, the next observation only asks which
    die to roll: no second psi action."""
    seen, rolled, asked, log = _observe(ObservationDie.PSI, 8, 2, detected=True)
    assert not [i for i in event_ids(log) if i.startswith("steel_war.psi.")]
    assert len(asked) == 1 and [r.dice for r in rolled] == [(D8,), (D12,)] and seen.spotted
    _, _, _, fresh = _observe(ObservationDie.PSI, 8, 2)
    assert "steel_war.psi.certain" in event_ids(fresh)


def test_SW_PSI_11_verdict_needs_a_psionic_within_reach() -> None:
    """The rule's verdict: a psionic (SW-PSI-02) whose psi reaches the target (SW-PSI-06),
    on an observation the squad may make (suppressed squads may observe, SW-SUP-01)."""
    psionic = UnitSituation(psi=D8)
    assert may_psi_detect(psionic, PsiAttempt(D8, 30.0)).allowed  # zone 3: a d4 still
    assert may_psi_detect(UnitSituation(psi=D8, markers=2), PsiAttempt(D8, 7.0)).allowed
    far = may_psi_detect(psionic, PsiAttempt(D6, 30.0))  # zone 3: below d4
    assert not far.allowed and "SW-PSI-06" in far.rules
    nobody = may_psi_detect(UnitSituation(), PsiAttempt(D8, 7.0))
    assert not nobody.allowed and "SW-PSI-02" in nobody.rules


def test_SW_PSI_11_in_battle_a_psionic_spots_a_squad_hiding_in_the_ruins() -> None:
    """steel_war.ruins, both sides at the table: the Barf-jat band (recruits, d6) observes
    the «Стальные» hiding in the west ruins with psi-detection (28" away: zone 3, the
    detection on a d4 cannot fail), chooses the psi die (d8) and spots them; its second
    observation this activation needs no new detection, and this time the psionic
    chooses the quality die."""
    ruins = load_scenario("steel_war.ruins")
    session = GameSession(ruins, 0, controllers=dict.fromkeys(ruins.side_ids, HUMAN), dice="typed")
    session.advance()
    rolls(session, 6, 1)  # the roll-off: Lianra first
    pick(session, lambda o: o == Activate("wanderers"))
    pick(session, lambda o: o == Observe("steel_west", True))
    pick(session, lambda o: o is ObservationDie.PSI)
    rolls(session, 7, 3)  # d8 against the range die
    west = state(session).squad("steel_west")
    assert "lianra" in west.spotted_by
    pick(session, lambda o: o == Observe("steel_east", True))
    pick(session, lambda o: o is ObservationDie.USUAL)
    rolls(session, 2, 4)
    log = session.log
    assert "SW-PSI-11" in rules_in(log)
    assert event_ids(log).count("steel_war.psi.certain") == 1
    observed = [e for e in log if isinstance(e, RollEntry) and "SW-ABSENT-03" in e.rules]
    assert [e.dice for e in observed] == [(D8,), (D12,), (D6,), observed[3].dice]
    assert "SW-PSI-11" in observed[0].rules and "SW-PSI-11" not in observed[2].rules


def test_SW_PSI_11_bots_use_psi_detection_in_the_ruins() -> None:
    """Heuristic bots on both sides: the psionic observes the hidden outpost with his psi
    die, by the rules' exact odds (seed 1)."""
    ruins = load_scenario("steel_war.ruins")
    bots = {side: bot_for("heuristic", 1, side) for side in ruins.side_ids}
    session = GameSession(ruins, 1, controllers=bots)
    session.advance()
    assert session.finished
    chosen = [
        e.answer
        for e in session.log
        if isinstance(e, ChoiceEntry) and isinstance(e.answer, ObservationDie)
    ]
    assert ObservationDie.PSI in chosen and "SW-PSI-11" in rules_in(session.log)
