"""Vehicles in battle: embarking and disembarking (SW-MOVE-04), riding along, man-portable
weapons leaving with their squad (SW-MOVE-06), suppressed vehicles keeping their men in
(SW-SUP-01), vehicle fire (SW-FIRE-02, SW-ABSENT-05), hits on a vehicle, the scenario
checks and the built-in ``steel_war.convoy``."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from kubik.dice import D8
from kubik.engine import TableSession
from kubik.engine.log import EventEntry
from kubik.game import GameSession, Scenario, ScenarioError, load_scenario
from kubik.rulesets.steel_war.battle import carry
from kubik.rulesets.steel_war.battle.menu import menu
from kubik.rulesets.steel_war.battle.options import (
    Act,
    Charge,
    Disembark,
    Embark,
    Fire,
    Kind,
    Move,
)
from kubik.rulesets.steel_war.battle.shooting import plan_fire
from kubik.rulesets.steel_war.battle.state import Gone, Status
from kubik.rulesets.steel_war.battle.world import World
from kubik.rulesets.steel_war.transport import can_disembark

from .builders import new_game, scenario, unit

APC: dict[str, Any] = {"vehicle": "apc"}


def _apc_game(squad_at: tuple[float, float], **squad: Any) -> World:
    units = [
        unit("apc", "steel", (12, 4), (("hmg", 1),), **APC),
        unit("s", "steel", squad_at, **squad),
        unit("e", "lianra", (12, 30)),
    ]
    return new_game(scenario(units, width=24, height=36)).world


def test_SW_MOVE_04_embark_only_when_the_farthest_man_is_within_6_inches() -> None:
    """Four men in a row 1.5" apart around (12, 8.5); the APC at (12, 4). The end man
    at (14.25, 8.5): centres √(2.25² + 4.5²) = 5.03" apart, less two 0.5" radii = 4.0"."""
    near = _apc_game((12, 8.5))
    squad, apc = near.squad("s"), near.squad("apc")
    reach = carry.farthest(near, squad, apc)
    assert reach == 4.0
    offered = [o for o in menu(near, squad, ()).options if isinstance(o, Embark)]
    assert offered == [Embark("apc", "apc", "apc", 4.0)]
    far = _apc_game((12, 12))  # √(2.25² + 8²) − 1 = 7.3": too far to embark
    assert carry.farthest(far, far.squad("s"), far.squad("apc")) == 7.3
    assert not any(isinstance(o, Embark) for o in menu(far, far.squad("s"), ()).options)


def test_SW_MOVE_04_embarked_squad_rides_unseen_and_moves_with_the_vehicle() -> None:
    world = _apc_game((12, 8.5))
    squad, apc, enemy = world.squad("s"), world.squad("apc"), world.squad("e")
    option = next(o for o in menu(world, squad, ()).options if isinstance(o, Embark))
    TableSession(carry.embark, (world, squad, option)).supply([])
    assert squad.aboard == "apc" and squad.centre == apc.centre
    assert squad not in world.enemies(enemy)  # it cannot be seen, shot or charged
    rider_options = menu(world, squad, ()).options
    assert all(isinstance(o, Disembark) or o == Act(Kind.END) for o in rider_options)
    move = next(o for o in menu(world, apc, ()).options if isinstance(o, Move))
    from kubik.rulesets.steel_war.battle import actions

    TableSession(actions.move, (world, apc, move)).supply([])
    assert squad.centre == apc.centre == (move.x, move.y)


def test_SW_MOVE_04_disembark_takes_one_action_and_stays_within_6_inches() -> None:
    world = _apc_game((12, 8.5), aboard="apc")
    squad, apc = world.squad("s"), world.squad("apc")
    assert squad.aboard == "apc"
    # the rider's own action, or the vehicle's (catalogue default: in its activation)
    by_rider = [o for o in menu(world, squad, ()).options if isinstance(o, Disembark)]
    by_vehicle = [o for o in menu(world, apc, ()).options if isinstance(o, Disembark)]
    assert by_rider == by_vehicle and len(by_rider) == 1
    option = by_rider[0]
    assert option.action.value == "disembark"
    TableSession(carry.disembark, (world, squad, option)).supply([])
    assert squad.aboard is None and squad.on_table
    assert can_disembark(carry.farthest(world, squad, apc))
    # not toward the enemy (north of the APC): behind is off the table, so beside it
    assert squad.centre[1] <= apc.centre[1]


def test_SW_MOVE_06_man_portable_weapons_leave_with_their_squad() -> None:
    world = _apc_game((12, 8.5), aboard="apc")
    squad = world.squad("s")
    squad.models[1].weapon = "hmg"  # a heavy machine gun «считается людьми»
    option = next(o for o in menu(world, squad, ()).options if isinstance(o, Disembark))
    session = TableSession(carry.disembark, (world, squad, option))
    session.supply([])
    assert session.result is not None
    event = next(
        e.event
        for e in session.result.log
        if isinstance(e, EventEntry) and e.event.id == "steel_war.game.disembarked"
    )
    assert dict(event.params)["weapons"] == 1
    assert squad.models[1].status is Status.ACTIVE and squad.models[1].point != (12, 4)


def test_SW_SUP_01_suppressed_vehicle_keeps_its_men_inside_but_may_move() -> None:
    world = _apc_game((12, 8.5), aboard="apc")
    apc, squad = world.squad("apc"), world.squad("s")
    apc.markers = 1
    assert not any(isinstance(o, Disembark) for o in menu(world, apc, ()).options)
    assert not any(isinstance(o, Disembark) for o in menu(world, squad, ()).options)
    assert any(isinstance(o, Move) for o in menu(world, apc, ()).options)


def test_SW_FIRE_02_SW_ABSENT_05_vehicle_fires_quality_and_guidance_dice() -> None:
    world = _apc_game((4, 8.5))
    apc, enemy = world.squad("apc"), world.squad("e")
    plan = plan_fire(apc, enemy, world.sight(apc, enemy))
    assert plan is not None
    assert plan.group.pool == (D8, D8)  # regulars d8 + the APC's guidance d8
    assert plan.group.power.faces == 10  # the heavy machine gun's power
    # and fire at it rolls power against its armour die (d12), one "model"
    back = plan_fire(enemy, apc, world.sight(enemy, apc))
    assert back is not None and back.target.armour.faces == 12 and back.target.models == 1
    assert any(isinstance(o, Fire) and o.target == "apc" for o in menu(world, enemy, ()).options)


def test_SW_ABSENT_05_a_wound_immobilises_the_next_destroys_and_riders_bail_out() -> None:
    world = _apc_game((12, 8.5), aboard="apc")
    apc, squad = world.squad("apc"), world.squad("s")
    TableSession(carry.hit_vehicle, (world, apc, 1, 0)).supply([])
    assert apc.immobilised and apc.present
    assert not any(isinstance(o, Move) for o in menu(world, apc, ()).options)
    TableSession(carry.hit_vehicle, (world, apc, 1, 0)).supply([])
    assert apc.gone is Gone.DESTROYED and not apc.present
    assert squad.aboard is None and squad.on_table
    # a killing hit destroys at once
    fresh = _apc_game((4, 8.5))
    TableSession(carry.hit_vehicle, (fresh, fresh.squad("apc"), 0, 1)).supply([])
    assert fresh.squad("apc").gone is Gone.DESTROYED


def test_vehicles_neither_charge_nor_are_charged() -> None:
    world = _apc_game((12, 14))
    enemy = world.squad("e")
    enemy.centre = (12, 12)
    enemy.move_to((12, 12))
    assert not any(
        isinstance(o, Charge) and o.target == "apc" for o in menu(world, enemy, ()).options
    )


@pytest.mark.parametrize(
    ("extra", "units_extra", "expected"),
    [
        ({"vehicle": "hovercraft"}, {}, "units[0].vehicle: no vehicle profile 'hovercraft'"),
        ({}, {"aboard": "apc"}, "units[1].aboard: 'apc' is not a vehicle"),
        (APC, {"aboard": "nowhere"}, "units[1].aboard: no unit 'nowhere'"),
    ],
)
def test_bad_vehicle_fields_name_the_field(
    extra: dict[str, Any], units_extra: dict[str, Any], expected: str
) -> None:
    units = [
        unit("apc", "steel", (12, 4), (("hmg", 1),), **extra),
        unit("s", "steel", (12, 9), **units_extra),
        unit("e", "lianra", (12, 30)),
    ]
    with pytest.raises(ScenarioError) as error:
        new_game(scenario(units, width=24, height=36))
    assert expected in str(error.value)
    assert "\n" not in str(error.value)


def test_vehicle_capacity_and_one_weapon_are_checked() -> None:
    too_many = [
        unit("apc", "steel", (12, 4), (("hmg", 1),), **APC),
        unit("s", "steel", (12, 9), (("assault_rifle", 11),), aboard="apc"),
        unit("e", "lianra", (12, 30)),
    ]
    with pytest.raises(ScenarioError, match=r"units\[1\]\.aboard: 'apc' carries 10 men"):
        new_game(scenario(too_many, width=24, height=36))
    two_guns = [
        unit("apc", "steel", (12, 4), (("hmg", 2),), **APC),
        unit("e", "lianra", (12, 30)),
    ]
    with pytest.raises(ScenarioError, match=r"units\[0\]\.weapons: a vehicle has one"):
        new_game(scenario(two_guns, width=24, height=36))


@cache
def convoy() -> Scenario:
    return load_scenario("steel_war.convoy")


@pytest.mark.parametrize("seed", [1, 2])
def test_the_convoy_plays_to_the_end_reproducibly(seed: int) -> None:
    session = GameSession(convoy(), seed)
    session.advance()
    assert session.finished and session.result is not None
    again = GameSession(convoy(), seed)
    again.advance()
    assert json.dumps(session.to_json(), sort_keys=True, default=str) == json.dumps(
        again.to_json(), sort_keys=True, default=str
    )
    names = {e.event.id for e in session.log if isinstance(e, EventEntry)}
    # the БТР's squad gets out: it disembarks, or bails out of the wreck
    assert {"steel_war.game.disembarked", "steel_war.game.bailed_out"} & names
    text = "\n".join(session.narrate("ru"))
    assert "steel_war.game." not in text
