"""Steel War transport: embarking, disembarking, unloading cargo (SW-MOVE-04..06)."""

from __future__ import annotations

import pytest

from kubik.core.errors import InputError
from kubik.rulesets.steel_war.activation import ActionType, Cost, action_rule
from kubik.rulesets.steel_war.movers import MoverType
from kubik.rulesets.steel_war.situation import UnitSituation
from kubik.rulesets.steel_war.transport import (
    can_disembark,
    can_embark,
    may_disembark,
    may_embark,
    may_unload,
    unload_cost,
    unloads_with_squad,
)

TRUCK = UnitSituation(kind=MoverType.WHEELED)


def test_SW_MOVE_04_embark_and_disembark_within_six_inches_one_action() -> None:
    """«Выгрузка или погрузка пехоты на технику занимает одно действие … не больше 6 дюймов»."""
    assert can_embark(6) and not can_embark(6.1)
    assert can_disembark(0) and can_disembark(6) and not can_disembark(7)
    assert action_rule(ActionType.EMBARK).cost is Cost.ACTION
    assert action_rule(ActionType.DISEMBARK).cost is Cost.ACTION
    with pytest.raises(InputError, match="farthest"):
        can_embark(-1)
    squad = UnitSituation()
    assert may_embark(squad, 6, room=10, men=8).allowed
    assert not may_embark(squad, 6.5, room=10, men=8).allowed
    assert not may_embark(squad, 3, room=4, men=8).allowed  # «если у неё хватает грузоподъёмности»
    assert "SW-MOVE-04" in may_embark(squad, 3, room=10, men=8).rules
    assert may_disembark(UnitSituation(aboard=True), TRUCK, 5.5).allowed
    assert not may_disembark(UnitSituation(aboard=True), TRUCK, 7).allowed


def test_SW_MOVE_05_worked_example_truck_gun_and_crew() -> None:
    """The truck moves, then the crew jumps off (one action, the truck's); next turn
    unhitching the gun takes the crew's whole activation."""
    moved = (ActionType.MOVE,)
    truck = UnitSituation(kind=MoverType.WHEELED, done=moved)
    crew = UnitSituation(aboard=True)
    assert may_disembark(crew, truck, 4, by_vehicle=True).allowed
    spent = UnitSituation(kind=MoverType.WHEELED, done=(*moved, ActionType.DISEMBARK))
    assert not may_disembark(crew, spent, 4, by_vehicle=True).allowed
    assert unload_cost("towed_gun") is Cost.ACTIVATION
    on_foot = UnitSituation()
    assert may_unload(on_foot, truck, "towed_gun").rules[-1] == "SW-MOVE-05"
    assert may_unload(on_foot, truck, "towed_gun").allowed
    assert not may_unload(UnitSituation(done=(ActionType.MOVE,)), truck, "towed_gun").allowed


def test_SW_MOVE_06_man_portable_weapons_unload_with_their_squad() -> None:
    """«Лёгкие миномёты, противотанковые ружья, станковые пулемёты, безоткатные орудия …
    разгружается вместе с десантом»."""
    for weapon in ("light_mortar", "slon", "hmg", "recoilless_gun"):
        assert unloads_with_squad(weapon)
        assert unload_cost(weapon) is None
        verdict = may_unload(UnitSituation(), TRUCK, weapon)
        assert not verdict.allowed and verdict.rules == ("SW-MOVE-06",)
    assert not unloads_with_squad("towed_gun")
    assert not unloads_with_squad("lmg")


def test_SW_SUP_01_a_suppressed_vehicle_lets_nobody_out() -> None:
    """«Подавленная техника не может совершать никаких действий, которые потребуют от
    экипажа или десанта выйти наружу»."""
    suppressed = UnitSituation(kind=MoverType.HIGH_MOBILITY_WHEELED, markers=1)
    verdict = may_disembark(UnitSituation(aboard=True), suppressed, 3)
    assert not verdict.allowed and "SW-SUP-01" in verdict.rules
    assert not may_unload(UnitSituation(), suppressed, "towed_gun").allowed
