"""Vehicles and terrain by kind of unit, played on the table: the seed's terrain table for
every mover (SW-MOVE-02/03), embarking and disembarking (SW-MOVE-04), man-portable
weapons (SW-MOVE-06), towed cargo (SW-MOVE-05), hits on a vehicle (SW-ABSENT-05), medical
vehicles and field surgeons (SW-REORG-02), and vehicles' footprints."""

from __future__ import annotations

from typing import Any

import pytest

from kubik.game import ScenarioError
from kubik.game.battle import Piece
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.battle import actions, carry, effects, moves, shooting
from kubik.rulesets.steel_war.battle.menu import care, casualty_kind
from kubik.rulesets.steel_war.battle.options import (
    Act,
    Disembark,
    Embark,
    Fire,
    Kind,
    Move,
    MoveHow,
    MoveKind,
    Unload,
)
from kubik.rulesets.steel_war.battle.state import Gone, Status
from kubik.rulesets.steel_war.movement import Terrain, TerrainClass, terrain_move
from kubik.rulesets.steel_war.movers import MoverType
from kubik.rulesets.steel_war.reorganisation import Care, CasualtyKind

from .builders import events, new_game, offered, options, play, rules_in, scenario, unit

APC: dict[str, Any] = {"vehicle": "apc"}
WOOD = """
[[terrain]]
id = "wood"
terrain = "light_wood"
cover = "light"
blocks_los = true
points = [[0, 10], [24, 10], [24, 16], [0, 16]]
"""


def _apc_game(squad_at: tuple[float, float], **squad: Any):  # type: ignore[no-untyped-def]
    units = [
        unit("apc", "steel", (12, 4), (("hmg", 1),), **APC),
        unit("s", "steel", squad_at, **squad),
        unit("e", "lianra", (12, 30)),
    ]
    return new_game(scenario(units, width=24, height=36))


def test_SW_ABSENT_05_a_vehicle_stands_on_its_hull_s_footprint() -> None:
    """The БТР's hull is a 3" round base: distances, contact and the contact rule measure
    from its edge, not from a man's 1" base."""
    game = _apc_game((12, 9))
    hull = next(p for p in game.pieces() if p.id == "apc.1")
    assert isinstance(hull, Piece) and hull.base.diameter == 3.0
    # the nearest man at (11.25, 9): √(0.75² + 5²) = 5.06", less the 1.5" and 0.5" radii
    assert game.distance(game.squad("apc"), game.squad("s")) == 3.1
    assert game.contact_violations() == ()


def test_SW_MOVE_04_embark_only_when_the_farthest_man_is_within_6_inches() -> None:
    """Four men in a row 1.5" apart around (12, 8.5); the hull (3") at (12, 4). The end man
    at (14.25, 8.5): centres √(2.25² + 4.5²) = 5.03" apart, less the 1.5" and 0.5" radii."""
    near = _apc_game((12, 8.5))
    assert carry.farthest(near, near.squad("s"), near.squad("apc")) == 3.0
    assert Embark("apc", 3.0) in options(near, "s")
    far = _apc_game((12, 14))
    refused = [o for o in offered(far, "s").menu.refused if isinstance(o.option, Embark)]
    assert refused and "SW-MOVE-04" in refused[0].verdict.rules


def test_SW_MOVE_04_an_embarked_squad_rides_unseen_and_moves_with_the_vehicle() -> None:
    game = _apc_game((12, 8.5))
    squad, apc, enemy = game.squad("s"), game.squad("apc"), game.squad("e")
    play(carry.embark, (game, squad, Embark("apc", 3.0)))
    assert squad.aboard == "apc" and squad.centre == apc.centre
    assert squad not in game.enemies(enemy)  # it cannot be seen, shot or charged
    rider = options(game, "s")
    assert all(isinstance(o, Disembark) or o == Act(Kind.END) for o in rider)
    move = next(o for o in options(game, "apc") if isinstance(o, Move))
    play(actions.move, (game, apc, move))
    assert squad.centre == apc.centre == (move.x, move.y)


def test_SW_MOVE_04_SW_MOVE_06_getting_off_is_one_action_of_the_squad_or_the_vehicle() -> None:
    """The squad's own action, or the vehicle's after it moved (the seed's truck); a heavy
    machine gun team takes its gun with it at no cost; the farthest man ends within 6"."""
    game = new_game(
        scenario(
            [
                unit("apc", "steel", (12, 4), (("hmg", 1),), **APC),
                unit("hmg", "steel", (12, 4), (("rifle", 2), ("hmg", 1)), aboard="apc"),
                unit("e", "lianra", (12, 30)),
            ],
            width=24,
            height=36,
        )
    )
    own = [o for o in options(game, "hmg") if isinstance(o, Disembark)]
    by_vehicle = [o for o in options(game, "apc", (ActionType.MOVE,)) if isinstance(o, Disembark)]
    assert own and by_vehicle and own[0].squad == by_vehicle[0].squad == "hmg"
    run = play(carry.disembark, (game, by_vehicle[0]))
    team = game.squad("hmg")
    assert team.aboard is None and len(team.active()) == 3
    assert carry.farthest(game, team, game.squad("apc")) <= 6.0
    assert run.result is not None and {"SW-MOVE-04", "SW-MOVE-06"} <= rules_in(run.result.log)
    assert game.contact_violations() == ()


def test_SW_MOVE_02_SW_MOVE_03_the_terrain_table_for_every_kind_of_unit() -> None:
    """Through a light wood: infantry moves 3" (6 ÷ 2), a tank 4" (12 ÷ 3, the seed's own
    example); a БТР cannot enter it at all — its way goes round, or nowhere."""
    game = new_game(
        scenario(
            [
                unit("s", "steel", (4, 13)),
                unit("tank", "steel", (12, 13), (("uragan", 1),), vehicle="tank"),
                unit("apc", "steel", (20, 4), (("hmg", 1),), **APC),
                unit("e", "lianra", (12, 34)),
            ],
            terrain=WOOD,
            width=24,
            height=36,
        )
    )
    assert terrain_move(MoverType.TRACKED, [Terrain.LIGHT_WOOD]) == 4
    for squad, expected in (("s", 3.0), ("tank", 4.0)):
        found = moves.plan(game, game.squad(squad), MoveKind.ADVANCE, (12.0, 34.0), MoveHow.MOVE)
        assert (
            found is not None
            and found.moved == expected
            and found.terrain
            in (
                TerrainClass.DIFFICULT,
                TerrainClass.VERY_DIFFICULT,
            )
        )
    way = game.tape.way((20.0, 4.0), (20.0, 13.0), "high_mobility_wheeled", 1.5)
    assert way is None  # the wood spans the table: no way into or round it
    apc_moves = [o for o in options(game, "apc") if isinstance(o, Move)]
    assert all(o.y < 10 - 1.5 for o in apc_moves if o.how is not MoveHow.COMBAT)


def test_SW_MOVE_03_a_scenario_may_not_contradict_the_seed_s_terrain_table() -> None:
    bad = WOOD.replace('terrain = "light_wood"', 'terrain = "light_wood"\nkind = "open"')
    with pytest.raises(ScenarioError, match=r"terrain\[0\]\.kind: set by its terrain type"):
        new_game(
            scenario(
                [unit("s", "steel", (4, 4)), unit("e", "lianra", (12, 30))], terrain=bad, height=36
            )
        )


def test_SW_MOVE_05_a_towed_gun_is_unloaded_in_a_whole_activation_and_then_fires_twice() -> None:
    """The seed's truck: the crew gets off, then unhitches the gun in its whole activation;
    the gun stands as one more model of the crew and, set up on the ground, fires twice an
    activation (SW-FIRE-05)."""
    game = new_game(
        scenario(
            [
                unit("truck", "steel", (12, 4), (), vehicle="truck", cargo=("field_gun",)),
                unit("crew", "steel", (12, 4), (("assault_rifle", 3),), aboard="truck"),
                unit("e", "lianra", (12, 30)),
            ],
            width=24,
            height=36,
        )
    )
    leave = next(o for o in options(game, "crew") if isinstance(o, Disembark))
    play(carry.disembark, (game, leave))
    crew = game.squad("crew")
    assert Unload("truck", "field_gun") in options(game, "crew")
    later = offered(game, "crew", (ActionType.MOVE,)).menu
    refused = [o for o in later.refused if isinstance(o.option, Unload)]
    assert refused and "SW-CORE-04" in refused[0].verdict.rules  # the whole activation
    run = play(carry.unload, (game, crew, Unload("truck", "field_gun")))
    assert run.result is not None and "SW-MOVE-05" in rules_in(run.result.log)
    gun = crew.models[-1]
    assert gun.weapon == "field_gun" and game.squad("truck").cargo == []
    crew.new_activation()
    fires = [o for o in options(game, "crew") if isinstance(o, Fire)]
    assert Fire("e", ("field_gun",)) in fires
    play(shooting.fire, (game, crew, game.squad("e"), ("field_gun",)), 1, 1, 8)
    assert Fire("e", ("field_gun",)) in options(game, "crew", (ActionType.SHOOT,))
    assert game.contact_violations() == ()


def test_SW_ABSENT_05_a_destroyed_vehicle_s_riders_bail_out() -> None:
    game = _apc_game((12, 4), aboard="apc")
    run = play(carry.hit_vehicle, (game, game.squad("apc"), 0, 1))
    assert run.result is not None
    assert game.squad("apc").gone is Gone.DESTROYED
    assert game.squad("s").aboard is None and game.squad("s").on_table
    assert events(run.result.log, "steel_war.game.bailed_out")
    assert game.contact_violations() == ()


def test_SW_MOR_01_riders_share_the_fate_of_a_vehicle_that_surrenders_or_routs() -> None:
    """A Fleeing vehicle with an enemy within 12" surrenders (SW-MOR-01) and its riders are
    taken with it, as a vehicle routed off its edge takes them along: riders never stay
    aboard a vehicle that has left the battle (the riders kept acting before)."""
    game = _apc_game((12, 4), aboard="apc")
    run = play(effects.remove, (game, game.squad("apc"), Gone.SURRENDERED, ("SW-MOR-01",)))
    assert run.result is not None
    riders = game.squad("s")
    assert riders.gone is Gone.SURRENDERED and not riders.present
    assert all(m.status is Status.PRISONER for m in riders.models)
    assert [e.event.kwargs["why"] for e in events(run.result.log, "steel_war.game.gone")] == [
        Gone.SURRENDERED,
        Gone.SURRENDERED,
    ]
    routed = _apc_game((12, 4), aboard="apc")
    play(effects.remove, (routed, routed.squad("apc"), Gone.ROUTED, ("SW-MOR-01",)))
    assert routed.squad("s").gone is Gone.ROUTED


def test_SW_REORG_02_medical_help_a_medical_vehicle_a_field_surgeon_androids() -> None:
    """A medical vehicle within 6" counts as a medic (+1), a field surgeon +2; androids
    get no medical bonus."""
    game = new_game(
        scenario(
            [
                unit("amb", "steel", (12, 4), (), vehicle="ambulance"),
                unit("near", "steel", (12, 9)),
                unit("far", "steel", (4, 22), field_surgeon=True),
                unit("droids", "steel", (20, 22), android=True),
                unit("e", "lianra", (12, 33)),
            ],
            width=24,
            height=36,
        )
    )
    assert care(game, game.squad("near")) is Care.MEDIC
    assert care(game, game.squad("far")) is Care.SURGEON
    assert casualty_kind(game.squad("droids")) is CasualtyKind.ANDROID
    squad = game.squad("near")
    squad.models[1].status = Status.UNVERIFIED
    assert Act(Kind.REORGANISE) in options(game, "near")
    run = play(actions.regroup, (game, squad), 5)  # 5 + 1 = 6: back in the ranks
    assert squad.models[1].status is Status.ACTIVE
    assert run.result is not None and "SW-REORG-02" in rules_in(run.result.log)
