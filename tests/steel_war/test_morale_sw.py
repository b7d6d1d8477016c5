"""Steel War morale: levels, starting level, motivation, the cap, and the morale test.

Seed 001, «Мораль и боевой дух», «Уровень усталости и мотивация», «Тест на боевой дух».
The seed's numbers are written out here on purpose, as a check of the data file.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from pydantic import ValidationError

from kubik.core.errors import InputError
from kubik.engine import OddsDriver, Permission, TableSession
from kubik.engine.dice import D4, D6, D8, D10, D12, Die
from kubik.engine.log import EventEntry
from kubik.engine.registry import get
from kubik.rulesets.steel_war.activation import ActionType as A
from kubik.rulesets.steel_war.morale import (
    MoraleEventOutcome,
    MoraleTestOutcome,
    morale_drop,
    morale_event,
    morale_test,
)
from kubik.rulesets.steel_war.morale_levels import (
    Fatigue,
    MoraleLevel,
    Motivation,
    Order,
    apply_drop,
    can_rise,
    level_orders,
    order_verdict,
    raise_level,
    scenario_exception_level,
    starting_level,
    surrenders,
)


def _perm(level: MoraleLevel, order: Order) -> Permission:
    verdict = order_verdict(level, order)
    assert "SW-MOR-01" in verdict.rules
    return verdict.permission


UV, ST, PO, RA, BE = (
    MoraleLevel.CONFIDENT,
    MoraleLevel.STEADY,
    MoraleLevel.SHAKEN,
    MoraleLevel.BROKEN,
    MoraleLevel.FLEEING,
)


def brute_morale_test(faces: int, leadership: int, threat: int) -> dict[int, Fraction]:
    """Independent: one die, «больше» passes, «вдвое меньше» loses two levels."""
    counts: dict[int, int] = {}
    for (roll,) in product(range(1, faces + 1)):
        need = leadership + threat
        drop = 0 if roll > need else (2 if roll * 2 <= need else 1)
        counts[drop] = counts.get(drop, 0) + 1
    return {d: Fraction(c, faces) for d, c in counts.items()}


# --- SW-MOR-01: the five levels --------------------------------------------------


def test_SW_MOR_01_five_levels_best_to_worst_with_abbreviations() -> None:
    """«1. Уверенный (Ув) … 5. Бегущий (Бе)»."""
    assert [lv.abbr for lv in MoraleLevel] == ["Ув", "Ст", "По", "Ра", "Бе"]
    assert [lv.rank for lv in MoraleLevel] == [0, 1, 2, 3, 4]
    assert MoraleLevel.parse("По") is PO
    assert MoraleLevel.parse("broken") is RA
    assert PO.at_least(PO) and UV.at_least(PO) and not RA.at_least(PO)
    assert UV.msgid == "steel_war.morale.confident"
    with pytest.raises(InputError, match="morale level 'Xx'"):
        MoraleLevel.parse("Xx")


def test_SW_MOR_01_drops_stack_and_stop_at_fleeing() -> None:
    """«Ст стал По», «Ст превращается в Ра»; below Бе it stays Бе (gap 2, default)."""
    assert apply_drop(ST, 1) is PO
    assert apply_drop(ST, 2) is RA
    assert apply_drop(ST, 0) is ST
    assert apply_drop(RA, 2) is BE
    assert apply_drop(BE, 1) is BE
    with pytest.raises(InputError):
        apply_drop(ST, -1)


def test_SW_MOR_01_confident_and_steady_obey_every_order() -> None:
    for level in (UV, ST):
        for order in (
            Order(A.MOVE, approaches_enemy=True, leaves_cover=True),
            Order(A.CHARGE, approaches_enemy=True),
            Order(A.SHOOT),
            Order(A.UNSUPPRESS),
        ):
            assert _perm(level, order) is Permission.ALLOWED


def test_SW_MOR_01_shaken_never_approaches_and_leaves_cover_after_a_reaction_test() -> None:
    """«кроме тех, которые ведут к приближению»; «покидать укрытия только выполнив тест»."""
    assert _perm(PO, Order(A.MOVE, approaches_enemy=True)) is Permission.FORBIDDEN
    assert _perm(PO, Order(A.CHARGE, approaches_enemy=True)) is Permission.FORBIDDEN
    assert _perm(PO, Order(A.MOVE, leaves_cover=True)) is Permission.NEEDS_TEST
    assert _perm(PO, Order(A.MOVE)) is Permission.ALLOWED
    assert _perm(PO, Order(A.SHOOT)) is Permission.ALLOWED


def test_SW_MOR_01_broken_only_falls_back_and_returns_fire() -> None:
    """«Разбитый (Ра). Отделение может только: …»."""
    assert _perm(RA, Order(A.MOVE, toward_own_edge=True)) is Permission.ALLOWED
    assert _perm(RA, Order(A.MOVE, toward_cover=True)) is Permission.ALLOWED
    assert _perm(RA, Order(A.MOVE, leaves_cover=True)) is Permission.ALLOWED
    assert (
        _perm(RA, Order(A.MOVE, leaves_cover=True, approaches_enemy=True)) is Permission.FORBIDDEN
    )
    assert _perm(RA, Order(A.MOVE)) is Permission.FORBIDDEN
    assert _perm(RA, Order(A.SHOOT)) is Permission.FORBIDDEN
    assert _perm(RA, Order(A.SHOOT, target_shot_at_us_this_turn=True)) is Permission.ALLOWED
    assert _perm(RA, Order(A.CHARGE, approaches_enemy=True)) is Permission.FORBIDDEN
    assert _perm(RA, Order(A.REORGANISE)) is Permission.FORBIDDEN


def test_SW_MOR_01_fleeing_only_runs_to_its_edge_and_surrenders_within_12() -> None:
    """«Бегущий (Бе) … только двигаться к своему краю … в пределах 12 дюймов … сдаётся»."""
    assert _perm(BE, Order(A.MOVE, toward_own_edge=True)) is Permission.ALLOWED
    assert _perm(BE, Order(A.MOVE, toward_cover=True)) is Permission.FORBIDDEN
    assert _perm(BE, Order(A.SHOOT, target_shot_at_us_this_turn=True)) is Permission.FORBIDDEN
    assert level_orders(BE).must_move
    assert surrenders(BE, 12.0) and not surrenders(BE, 12.5) and not surrenders(BE, None)
    assert not surrenders(RA, 1.0)


# --- SW-MOR-02/03/04 ------------------------------------------------------------


def test_SW_MOR_02_fatigue_sets_the_starting_level() -> None:
    """«свежие» Ув; «уставшие» Ст; «истощённые» По; rare scenarios start Ра."""
    assert starting_level(Fatigue.FRESH) is UV
    assert starting_level(Fatigue.TIRED) is ST
    assert starting_level(Fatigue.EXHAUSTED) is PO
    assert scenario_exception_level() is RA


def test_SW_MOR_03_three_motivation_levels() -> None:
    assert [m.value for m in Motivation] == ["low", "medium", "high"]
    assert Motivation.LOW.msgid == "steel_war.motivation.low"


def test_SW_MOR_04_morale_never_rises_above_the_starting_level() -> None:
    """«вступившие в бой «стойкими», не смогут стать «уверенными»»."""
    assert raise_level(PO, start=ST) is ST
    assert raise_level(ST, start=ST) is ST
    assert raise_level(RA, start=UV) is PO
    assert raise_level(BE, start=ST, levels=2) is PO
    assert not can_rise(ST, ST) and can_rise(PO, ST)
    # After «Ни шагу назад!» a squad may sit above its start (Ст over a По start): it stays.
    assert raise_level(ST, start=PO) is ST


# --- SW-MOR-05: the morale test ------------------------------------------------------


def test_SW_MOR_05_drop_thresholds() -> None:
    """Passed iff roll > L + T; «вдвое меньше» = 2·roll ≤ target loses two."""
    assert [morale_drop(r, 8) for r in range(1, 9)] == [2, 2, 2, 2, 1, 1, 1, 1]
    assert [morale_drop(r, 7) for r in range(1, 9)] == [2, 2, 2, 1, 1, 1, 1, 0]
    assert morale_drop(1, 1) == 1  # 2 > 1: one level only
    assert morale_drop(1, 2) == 2


def test_SW_MOR_05_worked_example_keno_guard_patrol_through_the_table() -> None:
    """Regular (d8) Keno Guard, L = 2, low motivation: N = 2 + 4 + 2 = 8.

    «Выпадает «6». Значит, боевой дух гвардейцев упадёт на одну градацию. Если бы
    выпало «4» или меньше, он упал бы на две градации.»
    """
    inp = {
        "quality": "d8",
        "leadership": 2,
        "motivation": "low",
        "triggers": ["casualties", "more_lost_than_remain"],  # 2 killed + 2 wounded of 7
        "unverified": 2,
        "level": "Ст",
    }
    spec = get("steel_war.morale_event")
    model = spec.input_model.model_validate(inp)
    session = TableSession(spec.function, (model,))
    session.supply([])
    assert session.pending is not None and session.pending.dice == (D8,)
    assert session.pending.reason.kwargs["target"] == 8  # rolled although > 8 is impossible
    session.supply([6])
    assert session.result is not None
    assert session.result.outcome == MoraleEventOutcome(1, PO)
    for roll, expected in ((4, MoraleEventOutcome(2, RA)), (1, MoraleEventOutcome(2, RA))):
        table = TableSession(spec.function, (model,))
        table.supply([roll])
        assert table.result is not None and table.result.outcome == expected
    # Nothing can pass: > 8 on a d8.
    odds = OddsDriver().distribution(spec.function, (model,))
    assert odds[MoraleEventOutcome(0, ST)] == 0
    assert odds[MoraleEventOutcome(1, PO)] == Fraction(4, 8)
    assert odds[MoraleEventOutcome(2, RA)] == Fraction(4, 8)


def test_SW_MOR_05_literal_plus_two_for_each_wounded_reading_differs() -> None:
    """The seed says «+2 за каждого раненого» but prints 2+4+2 = 8.

    Chosen reading: +1 per unverified casualty (the table's low cell) → 8.
    Literal reading: +2 for each of the two wounded → 2 + 4 + 4 = 10.
    The printed roll 6 drops one level either way; a roll of 5 tells them apart.
    """
    chosen, literal = 2 + 4 + 1 * 2, 2 + 4 + 2 * 2
    assert (chosen, literal) == (8, 10)
    spec = get("steel_war.morale_event")
    model = spec.input_model.model_validate(
        {
            "quality": "d8",
            "leadership": 2,
            "motivation": "low",
            "triggers": ["more_lost_than_remain"],
            "unverified": 2,
        }
    )
    session = TableSession(spec.function, (model,))
    session.supply([5])
    assert session.result is not None
    assert session.pending is None
    assert session.result.outcome.drop == morale_drop(5, chosen) == 1
    assert morale_drop(5, literal) == 2
    assert morale_drop(6, chosen) == morale_drop(6, literal) == 1


def test_SW_MOR_05_morale_test_contract_through_the_table() -> None:
    spec = get("steel_war.morale_test")
    model = spec.input_model.model_validate({"quality": "d8", "leadership": 2, "threat": 6})
    session = TableSession(spec.function, (model,))
    session.supply([6])
    assert session.result is not None and session.result.outcome == MoraleTestOutcome(1)
    assert [r.values for r in session.result.rolls] == [(6,)]


@pytest.mark.parametrize("die", [D4, D6, D8, D10, D12])
@pytest.mark.parametrize("leadership", [1, 2, 3])
@pytest.mark.parametrize("threat", [0, 1, 3, 6, 10])
def test_SW_MOR_05_morale_test_odds_match_brute_force(
    die: Die, leadership: int, threat: int
) -> None:
    spec = get("steel_war.morale_test")
    model = spec.input_model.model_validate(
        {"quality": die.name, "leadership": leadership, "threat": threat}
    )
    exact = OddsDriver().distribution(spec.function, (model,))
    expected = brute_morale_test(die.faces, leadership, threat)
    assert {o.drop: p for o, p in exact.items()} == expected


def test_SW_MOR_05_morale_event_without_a_trigger_rolls_nothing() -> None:
    """High motivation: casualties are «Нет теста» — no roll, level unchanged."""
    session = TableSession(morale_event, (D10, 1, ST, None))
    session.supply([])
    assert session.result is not None
    assert session.result.outcome == MoraleEventOutcome(0, ST)
    assert session.result.rolls == []


def test_SW_MOR_05_morale_event_from_fleeing_stays_fleeing() -> None:
    session = TableSession(morale_event, (D6, 3, BE, 4))
    session.supply([1])
    assert session.result is not None
    assert session.result.outcome == MoraleEventOutcome(2, BE)
    events = [e.event.id for e in session.result.log if isinstance(e, EventEntry)]
    assert "steel_war.morale_event.level" in events


def test_SW_MOR_05_morale_event_odds_match_brute_force() -> None:
    """Medium, commander lost by artillery (T = 4), L = 2, recruits d6, starting Ст."""
    spec = get("steel_war.morale_event")
    model = spec.input_model.model_validate(
        {
            "quality": "d6",
            "leadership": 2,
            "motivation": "medium",
            "triggers": ["commander_lost"],
            "artillery": True,
            "level": "Ст",
        }
    )
    exact = OddsDriver().distribution(spec.function, (model,))
    expected: dict[MoraleEventOutcome, Fraction] = {}
    for (roll,) in product(range(1, 7)):
        drop = 0 if roll > 6 else (2 if 2 * roll <= 6 else 1)
        level = [ST, PO, RA][drop]
        key = MoraleEventOutcome(drop, level)
        expected[key] = expected.get(key, Fraction(0)) + Fraction(1, 6)
    assert dict(exact) == expected


def test_SW_MOR_05_public_inputs_accept_russian_abbreviations_and_reject_bad_levels() -> None:
    spec = get("steel_war.morale_event")
    model = spec.input_model.model_validate(
        {"quality": "к8", "leadership": 2, "motivation": "low", "triggers": [], "level": "Бе"}
    )
    assert model.level == "fleeing"  # type: ignore[attr-defined]
    with pytest.raises(ValidationError):
        spec.input_model.model_validate(
            {"quality": "d8", "leadership": 2, "motivation": "low", "triggers": [], "level": "Хх"}
        )
    with pytest.raises(ValidationError):
        spec.input_model.model_validate(
            {"quality": "d8", "leadership": 4, "motivation": "low", "triggers": []}
        )


def test_SW_MOR_05_morale_test_generator_signature_is_the_contract() -> None:
    session = TableSession(morale_test, (D8, 2, 6))
    session.supply([4])
    assert session.result is not None and session.result.outcome == MoraleTestOutcome(2)
