"""Inspiration (SW-MOR-08..10): communication test, then the inspiration roll.

Seed 001, «Тест на воодушевление», «Тест на связь» and the worked example of the
veteran «стальные» squad and its company commander.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from kubik.core.errors import InputError
from kubik.engine import OddsDriver, TableSession
from kubik.engine.dice import D4, D6, D8, D10, D12
from kubik.engine.log import EventEntry
from kubik.engine.registry import get
from kubik.rulesets.steel_war.inspiration import (
    CommunicationOutcome,
    Contact,
    Inspiration,
    InspirationOutcome,
    communication_die,
    communication_target,
    communication_test,
    inspiration_target,
    inspire,
    skipped_links,
)
from kubik.rulesets.steel_war.morale_levels import MoraleLevel

EXAMPLE = {
    "officer_quality": "d10",
    "officer_leadership": 2,
    "squad_quality": "d10",
    "squad_leadership": 2,
    "threat": 2,  # one unverified casualty (+0) and wounded left behind (+2), medium
    "skipped_links": 1,  # a company commander, not the platoon leader
    "level": "Ра",
    "start_level": "Ст",
}


def _session(inp: dict[str, object], name: str = "steel_war.inspiration") -> TableSession:
    spec = get(name)
    return TableSession(spec.function, (spec.input_model.model_validate(inp),))


def test_SW_MOR_08_only_the_direct_chain_of_command_inspires() -> None:
    """«командир второго взвода третьей роты не может воодушевлять людей из первого взвода»."""
    squad = ("1bn", "3coy", "1plt", "sq1")
    assert skipped_links(("1bn", "3coy", "1plt"), squad) == 0  # his platoon leader
    assert skipped_links(("1bn", "3coy"), squad) == 1  # the example's company commander
    assert skipped_links(("1bn",), squad) == 2
    assert skipped_links(("1bn", "3coy", "2plt"), squad) is None
    assert skipped_links(squad, squad) is None


def test_SW_MOR_08_contact_needs_radio_or_being_within_6_inches_in_sight() -> None:
    """«либо у тех и у других должно быть радио …; либо … в 6 дюймах в прямой видимости»."""
    assert Contact(radio=True).possible()
    assert Contact(6.0, line_of_sight=True, radio=False).possible()
    assert not Contact(6.0, line_of_sight=False, radio=False).possible()
    assert not Contact(8.0, line_of_sight=True, radio=False).possible()
    session = TableSession(communication_test, (D10, 2, 2, 0, Contact(9.0, True, radio=False)))
    session.supply([])
    assert session.result is not None
    assert session.result.outcome == CommunicationOutcome(False)
    assert session.result.rolls == []


def test_SW_MOR_09_skipped_links_step_the_die_down_and_clamp_at_d4() -> None:
    """«За каждое обойдённое звено … куб качества нужно ухудшить на одну степень»."""
    assert communication_die(D10, 0) == D10
    assert communication_die(D10, 1) == D8
    assert communication_die(D12, 3) == D6
    assert communication_die(D6, 3) == D4  # clamp (catalogue default)
    with pytest.raises(InputError, match="skipped_links"):
        communication_die(D6, -1)


def test_SW_MOR_09_worse_leadership_is_beaten() -> None:
    """«больше, чем лидерство худшего из двух подразделений»."""
    assert communication_target(1, 3) == 3
    assert communication_target(2, 2) == 2


def test_SW_MOR_09_waived_in_sight_strictly_closer_than_6_inches() -> None:
    """«Если офицер находится в прямой видимости меньше, чем в 6 дюймах, тест … не нужен»."""
    assert Contact(5.5, line_of_sight=True).waives_test()
    assert not Contact(6.0, line_of_sight=True).waives_test()
    assert not Contact(3.0, line_of_sight=False).waives_test()
    session = _session(
        {
            "quality": "d4",
            "leadership": 3,
            "other_leadership": 3,
            "distance": 2,
            "line_of_sight": True,
        },
        "steel_war.communication_test",
    )
    session.supply([])
    assert session.result is not None
    assert session.result.outcome == CommunicationOutcome(True)
    assert session.result.rolls == []


def test_SW_MOR_09_worked_example_first_communication_fails_on_d8_roll_2() -> None:
    """«куб качества ухудшается с к10 до к8. На к8 выпадает «2» … Тест на связь провален»."""
    session = _session(EXAMPLE)
    session.supply([])
    assert session.pending is not None and session.pending.dice == (D8,)
    session.supply([2])
    assert session.result is not None
    assert session.result.outcome == InspirationOutcome(communicated=False, raised=False)
    assert [r.values for r in session.result.rolls] == [(2,)]


def test_SW_MOR_09_communication_test_odds_match_brute_force() -> None:
    spec = get("steel_war.communication_test")
    for quality, lead, other, skipped in product(("d6", "d10", "d12"), (1, 3), (1, 2), (0, 1, 2)):
        model = spec.input_model.model_validate(
            {
                "quality": quality,
                "leadership": lead,
                "other_leadership": other,
                "skipped_links": skipped,
            }
        )
        faces = max(4, int(quality[1:]) - 2 * skipped)
        wins = sum(1 for (r,) in product(range(1, faces + 1)) if r > max(lead, other))
        exact = OddsDriver().distribution(spec.function, (model,))
        assert exact[CommunicationOutcome(True)] == Fraction(wins, faces)


def test_SW_MOR_10_worked_example_second_attempt_raises_broken_to_shaken() -> None:
    """Second action: contact made; N = 2 + 2 + 0 + 2 = 6; the d10 shows 8 → «По»."""
    assert inspiration_target(2, 2, 0 + 2) == 6
    session = _session(EXAMPLE)
    session.supply([5])  # «в этот раз удачно» (the value is not printed; any 3..8 passes)
    assert session.pending is not None and session.pending.dice == (D10,)
    assert session.pending.reason.kwargs["target"] == 6
    session.supply([8])
    assert session.result is not None
    assert session.result.outcome == InspirationOutcome(communicated=True, raised=True)
    level_events = [
        e.event
        for e in session.result.log
        if isinstance(e, EventEntry) and e.event.id == "steel_war.inspiration.level"
    ]
    assert level_events[0].kwargs == {"before": MoraleLevel.BROKEN, "after": MoraleLevel.SHAKEN}


def test_SW_MOR_10_roll_equal_to_target_does_not_raise() -> None:
    session = _session(EXAMPLE)
    session.supply([5, 6])
    assert session.result is not None
    assert session.result.outcome == InspirationOutcome(communicated=True, raised=False)


def test_SW_MOR_10_two_attempts_of_the_example_in_one_activation() -> None:
    """The company commander uses both actions: fail (d8: 2), then success (8 on d10)."""
    attempt = Inspiration(D10, 2, D10, 2, threat=2, skipped_links=1)
    first = TableSession(inspire, (attempt,))
    first.supply([2])
    second = TableSession(inspire, (attempt,))
    second.supply([3, 8])
    assert first.result is not None and second.result is not None
    assert [first.result.outcome.raised, second.result.outcome.raised] == [False, True]


def test_SW_MOR_04_inspiration_at_the_starting_level_takes_no_test() -> None:
    """«Воодушевить их можно только до состояния «стойкие», и не выше»."""
    session = _session({**EXAMPLE, "level": "Ст", "start_level": "Ст"})
    session.supply([])
    assert session.result is not None
    assert session.result.outcome == InspirationOutcome(communicated=False, raised=False)
    assert session.result.rolls == []


def test_SW_MOR_10_inspiration_odds_match_brute_force() -> None:
    """Independent enumeration of both dice for the worked example's numbers."""
    spec = get("steel_war.inspiration")
    model = spec.input_model.model_validate(EXAMPLE)
    exact = OddsDriver().distribution(spec.function, (model,))
    counts: dict[InspirationOutcome, int] = {}
    for comm, squad in product(range(1, 9), range(1, 11)):
        communicated = comm > 2
        raised = communicated and squad > 6
        key = InspirationOutcome(communicated, raised)
        counts[key] = counts.get(key, 0) + 1
    assert dict(exact) == {k: Fraction(v, 80) for k, v in counts.items()}
    assert exact[InspirationOutcome(True, True)] == Fraction(6, 8) * Fraction(4, 10)


def test_SW_MOR_10_waived_contact_rolls_only_the_squad_die() -> None:
    spec = get("steel_war.inspiration")
    model = spec.input_model.model_validate(
        {
            "officer_quality": "d6",
            "officer_leadership": 1,
            "squad_quality": "d6",
            "squad_leadership": 1,
            "distance": 3,
            "line_of_sight": True,
        }
    )
    exact = OddsDriver().distribution(spec.function, (model,))
    assert exact == {
        InspirationOutcome(True, True): Fraction(4, 6),
        InspirationOutcome(True, False): Fraction(2, 6),
    }
