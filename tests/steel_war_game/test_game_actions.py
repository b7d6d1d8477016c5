"""Each action of an activation applied to the battle state: the rule's procedure decides,
the adapter measures the situation and applies the outcome (typed-in dice throughout)."""

from __future__ import annotations

from kubik.engine import Choose, TableSession
from kubik.engine.log import EventEntry
from kubik.rulesets.steel_war.battle import actions
from kubik.rulesets.steel_war.battle.menu import menu
from kubik.rulesets.steel_war.battle.options import Act, Charge, Inspire, Kind, Move
from kubik.rulesets.steel_war.battle.state import Status
from kubik.rulesets.steel_war.morale_levels import MoraleLevel
from kubik.rulesets.steel_war.reaction import ReactionAction

from .builders import human_session, new_game, pick, roll, scenario, unit

WOOD = """
[[terrain]]
id = "wood"
kind = "difficult"
cover = "light"
blocks_los = true
points = [[0, 0], [12, 0], [12, 9], [0, 9]]
"""


def test_SW_SUP_03_unsuppress_removes_a_marker_on_roll_above_leadership() -> None:
    """The seed's partisans: recruits (d6), leadership 1, one marker; 1 fails, 2 succeeds."""
    game = new_game(
        scenario(
            [
                unit("p", "steel", (6, 4), quality="recruits", leadership=1),
                unit("e", "lianra", (6, 18)),
            ]
        )
    )
    squad = game.world.squad("p")
    squad.markers = 1
    TableSession(actions.rally, (squad,)).supply([1])
    assert squad.markers == 1
    TableSession(actions.rally, (squad,)).supply([2])
    assert squad.markers == 0
    options = menu(game.world, squad, ()).options
    assert Act(Kind.UNSUPPRESS) not in options


def test_SW_SUP_01_suppressed_squad_may_not_fire_nor_advance() -> None:
    game = new_game(scenario([unit("s", "steel", (6, 4)), unit("l", "lianra", (6, 16))]))
    squad = game.world.squad("s")
    squad.markers = 2
    options = menu(game.world, squad, ()).options
    assert Act(Kind.UNSUPPRESS) in options
    assert not any(type(o).__name__ in ("Fire", "Charge") for o in options)
    assert all(o.kind.value == "retreat" for o in options if isinstance(o, Move))


def test_SW_FIRE_07_SW_REACT_02_going_to_ground_needs_a_reaction_test() -> None:
    """In the open the threat is 2 (d8, L 2: beat 4); in a wood it is 0 (beat 2)."""
    game = new_game(
        scenario(
            [
                unit("s", "steel", (6, 4)),
                unit("w", "steel", (6, 15)),
                unit("l", "lianra", (18, 20)),
            ],
            terrain=WOOD,
        )
    )
    open_ground, in_wood = game.world.squad("w"), game.world.squad("s")
    TableSession(actions.go_to_ground, (game.world, open_ground)).supply([4])
    assert not open_ground.prone
    assert not open_ground.failed.may_attempt(ReactionAction.GO_TO_GROUND_OPEN)
    assert Act(Kind.GO_TO_GROUND) not in menu(game.world, open_ground, ()).options
    TableSession(actions.go_to_ground, (game.world, in_wood)).supply([3])
    assert in_wood.prone
    moves = [o for o in menu(game.world, in_wood, ()).options if isinstance(o, Move)]
    assert moves and all(o.test == ReactionAction.MOVE_WHILE_DOWN.value for o in moves)
    assert Act(Kind.GET_UP) in menu(game.world, in_wood, ()).options


def test_SW_REORG_01_SW_REORG_02_reorganisation_decides_every_unverified_casualty() -> None:
    """d6 per unverified casualty: 1-2 died, 3-5 stabilised, 6 back; a medic adds 1."""
    game = new_game(
        scenario([unit("s", "steel", (6, 4), medic=True), unit("l", "lianra", (6, 18))])
    )
    squad = game.world.squad("s")
    for model in squad.models[1:]:
        model.status = Status.UNVERIFIED
    assert Act(Kind.REORGANISE) in menu(game.world, squad, ()).options
    TableSession(actions.regroup, (game.world, squad)).supply([1, 4, 5])  # +1: 2, 5, 6
    assert [m.status for m in squad.models] == [
        Status.ACTIVE,
        Status.KILLED,
        Status.STABILISED,
        Status.ACTIVE,
    ]
    assert Act(Kind.REORGANISE) not in menu(game.world, squad, ()).options


def test_SW_MOR_08_SW_MOR_10_officer_inspires_his_broken_squad() -> None:
    """Within 6 inches in sight no communication test is needed (SW-MOR-09); N = L(officer)
    1 + L(squad) 2 + threat 0 = 3; the squad's d8 rolls 4 → one level up, never past its start."""
    game = new_game(
        scenario(
            [
                unit("s", "steel", (6, 4)),
                unit(
                    "hq",
                    "steel",
                    (14, 4),
                    weapons=(("pistol", 1),),
                    quality="veterans",
                    leadership=1,
                    officer=True,
                    commands=("s",),
                ),
                unit("l", "lianra", (6, 20)),
            ]
        )
    )
    squad, officer = game.world.squad("s"), game.world.squad("hq")
    assert not any(isinstance(o, Inspire) for o in menu(game.world, officer, ()).options)
    squad.level = MoraleLevel.BROKEN
    options = menu(game.world, officer, ()).options
    assert Inspire("s", "s", "s") in options
    TableSession(actions.encourage, (game.world, officer, squad)).supply([4])
    assert squad.level is MoraleLevel.SHAKEN
    TableSession(actions.encourage, (game.world, officer, squad)).supply([3])
    assert squad.level is MoraleLevel.SHAKEN  # 3 is not above 3


def test_SW_CC_02_to_SW_CC_10_charge_melee_and_the_fate_of_the_lost() -> None:
    """A Steady squad charges (beat L 2 + 1), 2d6 reaches, the defender stands, four
    one-on-one fights, the defender loses more and falls back, the lost roll their fate."""
    session = human_session(scenario([unit("s", "steel", (6, 4)), unit("l", "lianra", (6, 12))]))
    roll(session, 6)
    roll(session, 1)
    request = session.pending
    assert isinstance(request, Choose)
    charge = next(o for o in request.options if isinstance(o, Charge))
    assert charge.distance == 7.0
    forecast = request.forecast(charge)
    assert forecast is not None and forecast.procedure is not None
    session.answer(charge)
    roll(session, 4)  # enhanced reaction test: 4 > 2 + 1
    roll(session, 3, 6)  # combat move 9" ≥ 7 - 2: reached
    roll(session, 5)  # defender's morale: equal numbers, threat 0: 5 > 2, stands
    for attacker, defender in ((8, 1), (8, 1), (8, 1), (1, 8)):
        roll(session, attacker)
        roll(session, defender)
    roll(session, 2)  # the defender lost 3 (threat 3): 2 ≤ 5 / 2 → two levels, falls back
    roll(session, 6)  # the attacker's one lost man: unhurt, back in the ranks
    roll(session, 1)  # defender's lost: killed
    roll(session, 3)  # wounded → prisoner
    roll(session, 5)  # unhurt → prisoner
    world = session.state.world  # type: ignore[attr-defined]
    steel, lianra = world.squad("s"), world.squad("l")
    assert [m.status for m in steel.models].count(Status.ACTIVE) == 4
    assert sorted(m.status.value for m in lianra.models) == [
        "active",
        "killed",
        "prisoner",
        "prisoner",
    ]
    assert lianra.level is MoraleLevel.BROKEN and steel.melee_with is None
    ids = [e.event.id for e in session.log if isinstance(e, EventEntry)]
    assert ids.index("steel_war.game.contact") < ids.index("steel_war.game.melee_over")
    assert "steel_war.game.fell_back" in ids


def test_SW_CC_02_failed_charge_test_loses_the_activation() -> None:
    session = human_session(scenario([unit("s", "steel", (6, 4)), unit("l", "lianra", (6, 12))]))
    roll(session, 6)
    roll(session, 1)
    pick(session, lambda o: isinstance(o, Charge))
    roll(session, 3)  # 3 is not above 2 + 1
    request = session.pending
    assert isinstance(request, Choose) and request.side == "lianra"
