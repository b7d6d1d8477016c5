"""Steel War transport: embarking, disembarking, unloading cargo (SW-MOVE-04..06)."""

from __future__ import annotations

import pytest

from kubik.errors import InputError
from kubik.rulesets.steel_war.transport import (
    ActionCost,
    TransportAction,
    action_cost,
    can_disembark,
    can_embark,
    unloading_cost,
    unloads_with_squad,
)


def test_SW_MOVE_04_embark_and_disembark_within_six_inches_one_action() -> None:
    assert can_embark(6) and not can_embark(6.1)
    assert can_disembark(0) and can_disembark(6) and not can_disembark(7)
    assert action_cost(TransportAction.EMBARK) is ActionCost.ACTION
    assert action_cost(TransportAction.DISEMBARK) is ActionCost.ACTION
    with pytest.raises(InputError, match="farthest"):
        can_embark(-1)


def test_SW_MOVE_05_worked_example_truck_gun_and_crew() -> None:
    """The truck moves, the crew jumps off (one action); next turn unhitching takes the crew's
    whole activation."""
    actions = 2
    actions -= 1  # the truck's move
    assert action_cost(TransportAction.DISEMBARK) is ActionCost.ACTION
    actions -= 1  # the crew jumps off in the truck's activation
    assert actions == 0
    assert action_cost(TransportAction.UNLOAD) is ActionCost.ACTIVATION
    assert unloading_cost("towed_gun") is ActionCost.ACTIVATION


def test_SW_MOVE_06_man_portable_weapons_unload_with_their_squad() -> None:
    for weapon in ("light_mortar", "slon", "hmg", "recoilless_gun"):
        assert unloads_with_squad(weapon)
        assert unloading_cost(weapon) is None
    assert not unloads_with_squad("towed_gun")
