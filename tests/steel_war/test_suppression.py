"""Steel War suppression (SW-SUP-01..03): markers, restrictions and the unsuppress test."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from kubik.core.errors import InputError
from kubik.engine import OddsDriver, TableSession
from kubik.engine.dice import D6
from kubik.engine.registry import get
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.suppression import (
    add_marker,
    is_suppressed,
    max_markers,
    remove_marker,
    suppression_verdict,
)
from kubik.rulesets.steel_war.unsuppressing import (
    UnsuppressOutcome,
    unsuppress,
    unsuppress_attempts,
)

UNSUPPRESS = get("steel_war.unsuppress")


def unsuppress_input(**fields: Any) -> Any:
    return UNSUPPRESS.input_model.model_validate(fields)


def test_SW_SUP_01_suppressed_infantry_may_take_only_five_actions() -> None:
    """«наблюдение; выход на связь; реорганизация (только в укрытии); «расподавление»;
    движение в направлении от противника» (and passing an action, a communication)."""
    allowed = {a for a in ActionType if suppression_verdict(a, 1, in_cover=True).allowed}
    assert allowed == {
        ActionType.OBSERVE,
        ActionType.COMMUNICATE,
        ActionType.PASS_ACTION,
        ActionType.REORGANISE,
        ActionType.UNSUPPRESS,
    }
    for move in (ActionType.MOVE, ActionType.COMBAT_MOVE, ActionType.MARCH):
        assert suppression_verdict(move, 1, away_from_enemy=True).allowed
        assert not suppression_verdict(move, 1, away_from_enemy=False).allowed
    reorganise = suppression_verdict(ActionType.REORGANISE, 2, in_cover=False)  # only in cover
    assert not reorganise.allowed and reorganise.rules == ("SW-SUP-01", "SW-REORG-01")
    assert all(suppression_verdict(a, 0).allowed for a in ActionType)
    assert suppression_verdict(ActionType.SHOOT, 0).rules == ()  # not suppressed: no rule bears
    assert is_suppressed(1) and not is_suppressed(0)


def test_SW_SUP_01_suppressed_vehicles_keep_their_crew_inside() -> None:
    """«Подавленная техника не может совершать никаких действий, которые потребуют от
    экипажа или десанта выйти наружу. Остальные действия разрешены нормально»: it fires."""
    for action in (ActionType.DISEMBARK, ActionType.UNLOAD):
        assert not suppression_verdict(action, 1, machine=True).allowed
        assert suppression_verdict(action, 0, machine=True).allowed
    for action in (ActionType.SHOOT, ActionType.MOVE, ActionType.UNSUPPRESS):
        verdict = suppression_verdict(action, 3, machine=True)
        assert verdict.allowed and verdict.rules == ("SW-SUP-01",)


def test_SW_SUP_02_at_most_three_markers() -> None:
    assert max_markers() == 3
    markers = 0
    for _ in range(5):
        markers = add_marker(markers)
    assert markers == 3
    assert remove_marker(3) == 2 and remove_marker(0) == 0
    with pytest.raises(InputError, match=r"^markers:"):
        add_marker(-1)


def test_SW_SUP_03_partisans_example_through_the_table_driver() -> None:
    """Recruits (d6), leadership 1, one marker: the first d6 rolls 1 (not above 1, fails),
    the second rolls 2 — the marker is removed."""
    s = TableSession(
        UNSUPPRESS.function, (unsuppress_input(quality="d6", leadership=1, markers=1),)
    )
    s.supply([1])
    assert s.pending is not None and s.pending.dice == (D6,)  # a second attempt is asked
    s.supply([2])
    assert s.result is not None
    assert s.result.outcome == UnsuppressOutcome(removed=1, markers=0)
    assert [r.values for r in s.result.rolls] == [(1,), (2,)]


def test_SW_SUP_03_stops_when_no_marker_is_left_and_at_most_twice() -> None:
    s = TableSession(unsuppress, (D6, 1, 1, 2))
    s.supply([5])
    assert s.result is not None and s.result.outcome == UnsuppressOutcome(1, 0)
    assert unsuppress_attempts() == 2
    with pytest.raises(InputError, match=r"^attempts: 1\.\.2"):
        TableSession(unsuppress, (D6, 1, 1, 3)).supply([])


def brute_unsuppress(
    faces: int, leadership: int, markers: int, attempts: int
) -> dict[Any, Fraction]:
    counts: Counter[tuple[int, int]] = Counter()
    sequences = list(product(range(1, faces + 1), repeat=attempts))
    for rolls in sequences:
        left = markers
        for roll in rolls:
            if left and roll > leadership:
                left -= 1
        counts[(markers - left, left)] += 1
    return {UnsuppressOutcome(*k): Fraction(v, len(sequences)) for k, v in counts.items()}


@pytest.mark.parametrize(
    ("faces", "leadership", "markers", "attempts"),
    [(6, 1, 1, 2), (8, 3, 3, 2), (4, 2, 2, 1), (12, 2, 2, 2), (4, 3, 1, 2)],
)
def test_SW_SUP_03_odds_match_brute_force(
    faces: int, leadership: int, markers: int, attempts: int
) -> None:
    inp = unsuppress_input(
        quality=f"d{faces}", leadership=leadership, markers=markers, attempts=attempts
    )
    dist = OddsDriver().distribution(UNSUPPRESS.function, (inp,))
    assert dict(dist) == brute_unsuppress(faces, leadership, markers, attempts)


def test_SW_SUP_03_partisans_odds() -> None:
    """Two attempts at 'above 1' on a d6 fail together only on 1, 1."""
    dist = OddsDriver().distribution(
        UNSUPPRESS.function, (unsuppress_input(quality="d6", leadership=1),)
    )
    assert dist[UnsuppressOutcome(0, 1)] == Fraction(1, 36)
