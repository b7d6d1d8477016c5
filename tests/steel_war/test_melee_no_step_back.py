"""«Ни шагу назад!» in close combat: a side standing fast takes no morale test after the
round (SW-NSN-03: no morale tests while it lasts; SW-CC-09 for the other side)."""

from __future__ import annotations

from kubik.engine import TableSession
from kubik.engine.dice import D8
from kubik.engine.log import EventEntry
from kubik.rulesets.steel_war.melee_fighters import Side
from kubik.rulesets.steel_war.melee_morale import SideMorale, round_morale
from kubik.rulesets.steel_war.melee_round import RoundLosses


def test_SW_NSN_03_SW_CC_09_a_side_standing_fast_does_not_test_the_other_does() -> None:
    """Defender lost 3 (it would test first, threat 3: d8 must beat 5) but stands fast:
    no roll for it; the attacker (1 lost, threat 1, must beat 3) rolls 3 and drops 1."""
    attacker = SideMorale(D8, 2)
    defender = SideMorale(D8, 2, no_step_back=True)
    session = TableSession(round_morale, (RoundLosses(1, 3), attacker, defender))
    session.supply([3])
    assert session.result is not None
    assert session.result.outcome.fell_back is Side.ATTACKER
    assert session.dice_used == 1
    events = [e.event.id for e in session.result.log if isinstance(e, EventEntry)]
    assert "steel_war.close_combat.no_step_back" in events
    # the other reading (the flag ignored) would roll the defender's die first
    plain = TableSession(round_morale, (RoundLosses(1, 3), attacker, SideMorale(D8, 2)))
    plain.supply([3])
    assert plain.result is not None and plain.result.outcome.fell_back is Side.DEFENDER


def test_SW_NSN_03_both_sides_standing_fast_fight_on() -> None:
    fast = SideMorale(D8, 2, no_step_back=True)
    session = TableSession(round_morale, (RoundLosses(2, 2), fast, fast))
    session.supply([])
    assert session.result is not None
    assert session.result.outcome.fell_back is None and session.result.outcome.drop == 0
