"""Each action of an activation applied to the battle: the rule's procedure decides, the
battle measures the situation and applies the outcome (typed-in dice throughout), and the
menu offers only what the rules' permission functions allow."""

from __future__ import annotations

from typing import Any

import pytest

from kubik.cli.play import controllers_for
from kubik.engine import Choose, Verdict
from kubik.engine.odds import OddsCache
from kubik.game import GameSession, load_scenario
from kubik.game.battle import BattleGame, Posture, Presence
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.battle import actions, command, menu
from kubik.rulesets.steel_war.battle.menu import Offered, build
from kubik.rulesets.steel_war.battle.options import Act, Charge, Fire, Inspire, Kind, Move
from kubik.rulesets.steel_war.battle.state import Status
from kubik.rulesets.steel_war.morale_levels import MoraleLevel
from kubik.rulesets.steel_war.reaction import ReactionAction

from .builders import (
    event_ids,
    human_session,
    new_game,
    offered,
    options,
    pick,
    play,
    roll,
    rules_in,
    scenario,
    state,
    unit,
)

WOOD = """
[[terrain]]
id = "wood"
terrain = "light_wood"
cover = "light"
blocks_los = true
points = [[0, 0], [12, 0], [12, 9], [0, 9]]
"""


def test_the_battle_stands_on_the_layer_and_shows_its_models_as_pieces() -> None:
    """The game is a BattleGame; an unverified casualty is a DOWN marker, a killed man is
    removed, a squad riding a vehicle is aboard (SW-DMG-11)."""
    game = new_game(scenario([unit("s", "steel", (6, 4)), unit("l", "lianra", (6, 18))]))
    assert isinstance(game, BattleGame)
    squad = game.squad("s")
    squad.models[1].status = Status.UNVERIFIED
    squad.models[2].status = Status.KILLED
    squad.posture = Posture.PRONE
    pieces = {p.id: p for p in game.pieces()}
    assert pieces["s.2"].presence is Presence.DOWN and not pieces["s.2"].body
    assert pieces["s.3"].presence is Presence.REMOVED
    assert pieces["s.1"].presence is Presence.IN_PLAY and pieces["s.1"].posture is Posture.PRONE
    assert game.contact_violations() == ()


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
    squad = game.squad("p")
    squad.markers = 1
    assert Act(Kind.UNSUPPRESS) in options(game, "p")
    play(actions.rally, (game, squad), 1)
    assert squad.markers == 1
    play(actions.rally, (game, squad), 2)
    assert squad.markers == 0
    assert Act(Kind.UNSUPPRESS) not in options(game, "p")


def test_SW_SUP_01_a_suppressed_squad_may_not_fire_nor_advance_and_the_menu_says_why() -> None:
    game = new_game(scenario([unit("s", "steel", (6, 4)), unit("l", "lianra", (6, 16))]))
    game.squad("s").markers = 2
    menu = offered(game, "s").menu
    assert Act(Kind.UNSUPPRESS) in menu
    assert not any(isinstance(o, Fire | Charge) for o in menu.options)
    assert all(o.kind.value == "retreat" for o in menu.options if isinstance(o, Move))
    refused = [o for o in menu.refused if isinstance(o.option, Fire)]
    assert refused and all("SW-SUP-01" in o.verdict.rules for o in refused)
    assert "SW-SUP-01" in offered(game, "s").rules


def test_SW_FIRE_07_SW_REACT_02_going_to_ground_needs_a_reaction_test() -> None:
    """In the open the threat is 2 (d8, L 2: beat 4); in a wood it is 0 (beat 2). A squad
    gone to ground moves only after a reaction test (offered, SW-FIRE-07)."""
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
    open_ground, in_wood = game.squad("w"), game.squad("s")
    play(actions.go_to_ground, (game, open_ground), 4)
    assert not open_ground.prone
    assert not open_ground.failed.may_attempt(ReactionAction.GO_TO_GROUND_OPEN)
    assert Act(Kind.GO_TO_GROUND) not in options(game, "w")
    play(actions.go_to_ground, (game, in_wood), 3)
    assert in_wood.prone
    moves = [o for o in options(game, "s") if isinstance(o, Move)]
    assert moves and all(ReactionAction.MOVE_WHILE_DOWN in o.tests for o in moves)
    assert Act(Kind.GET_UP) in options(game, "s")


def test_SW_REACT_02_a_move_needing_two_reaction_tests_takes_them_in_order() -> None:
    """A Shaken (По) squad gone to ground in cover: to leave it it must pass the test for
    leaving cover and the one for moving without getting up — both offered, in order, and
    a failure of the first stops the move (SW-REACT-01)."""
    copse = WOOD.replace(
        "[[0, 0], [12, 0], [12, 9], [0, 9]]", "[[0, 5], [12, 5], [12, 11], [0, 11]]"
    )
    game = new_game(
        scenario(
            [unit("s", "steel", (6, 8)), unit("l", "lianra", (18, 22))],
            terrain=copse,
        )
    )
    squad = game.squad("s")
    squad.level, squad.posture = MoraleLevel.SHAKEN, Posture.PRONE
    twice = [o for o in options(game, "s") if isinstance(o, Move) and len(o.tests) == 2]
    assert twice and twice[0].tests == (
        ReactionAction.LEAVE_COVER_SHAKEN,
        ReactionAction.MOVE_WHILE_DOWN,
    )
    start = squad.centre
    session = play(actions.move, (game, squad, twice[0]), 2)  # 2 ≤ 2 + 2: the first fails
    assert session.finished and squad.centre == start
    assert not squad.failed.may_attempt(ReactionAction.LEAVE_COVER_SHAKEN)
    assert squad.failed.may_attempt(ReactionAction.MOVE_WHILE_DOWN)


def test_SW_REORG_01_SW_REORG_02_reorganisation_decides_every_unverified_casualty() -> None:
    """d6 per unverified casualty: 1-2 died, 3-5 stabilised, 6 back; a medic adds 1."""
    game = new_game(
        scenario([unit("s", "steel", (6, 4), medic=True), unit("l", "lianra", (6, 18))])
    )
    squad = game.squad("s")
    for model in squad.models[1:]:
        model.status = Status.UNVERIFIED
    assert Act(Kind.REORGANISE) in options(game, "s")
    session = play(actions.regroup, (game, squad), 1, 4, 5)  # +1: 2, 5, 6
    assert [m.status for m in squad.models] == [
        Status.ACTIVE,
        Status.KILLED,
        Status.STABILISED,
        Status.ACTIVE,
    ]
    assert {"SW-REORG-01", "SW-REORG-02", "SW-ABSENT-09"} <= rules_in(session.result.log)
    assert Act(Kind.REORGANISE) not in options(game, "s")


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
    squad, officer = game.squad("s"), game.squad("hq")
    refused = [o for o in offered(game, "hq").menu.refused if isinstance(o.option, Inspire)]
    assert refused and "SW-MOR-04" in refused[0].verdict.rules  # at its starting level
    squad.level = MoraleLevel.BROKEN
    assert Inspire("s") in options(game, "hq")
    play(command.encourage, (game, officer, squad), 4)
    assert squad.level is MoraleLevel.SHAKEN
    play(command.encourage, (game, officer, squad), 3)
    assert squad.level is MoraleLevel.SHAKEN  # 3 is not above 3


def test_SW_CC_02_to_SW_CC_10_charge_melee_and_the_fate_of_the_lost() -> None:
    """A Steady squad charges (beat L 2 + 1), 2d6 reaches, the defender stands, four
    one-on-one fights, the defender loses more and falls back, the lost roll their fate;
    the charge is the only way into contact, and the fight is released when it ends."""
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
    game = state(session)
    assert game.contacts.engaged("s", "l") and game.contact_violations() == ()
    roll(session, 5)  # defender's morale: equal numbers, threat 0: 5 > 2, stands
    for attacker, defender in ((8, 1), (8, 1), (8, 1), (1, 8)):
        roll(session, attacker)
        roll(session, defender)
    roll(session, 2)  # the defender lost 3 (threat 3): 2 ≤ 5 / 2 → two levels, falls back
    roll(session, 6)  # the attacker's one lost man: unhurt, back in the ranks
    roll(session, 1)  # defender's lost: killed
    roll(session, 3)  # wounded → prisoner
    roll(session, 5)  # unhurt → prisoner
    roll(session, 4)  # their commander was among them: a new one, leadership kept (SW-DMG-06)
    steel, lianra = game.squad("s"), game.squad("l")
    assert [m.status for m in steel.models].count(Status.ACTIVE) == 4
    assert sorted(m.status.value for m in lianra.models) == [
        "active",
        "killed",
        "prisoner",
        "prisoner",
    ]
    assert lianra.level is MoraleLevel.BROKEN and not game.contacts.of("s")
    ids = event_ids(session.log)
    assert ids.index("steel_war.game.contact") < ids.index("steel_war.game.melee_over")
    assert "steel_war.game.fell_back" in ids
    assert game.contact_violations() == ()


def test_SW_CC_02_failed_charge_test_loses_the_activation() -> None:
    session = human_session(scenario([unit("s", "steel", (6, 4)), unit("l", "lianra", (6, 12))]))
    roll(session, 6)
    roll(session, 1)
    pick(session, lambda o: isinstance(o, Charge))
    roll(session, 3)  # 3 is not above 2 + 1
    request = session.pending
    assert isinstance(request, Choose) and request.side == "lianra"


def test_SW_CORE_04_a_whole_activation_act_comes_first_and_ends_it() -> None:
    game = new_game(scenario([unit("s", "steel", (6, 4)), unit("l", "lianra", (6, 12))]))
    assert any(isinstance(o, Charge) for o in options(game, "s"))
    later = offered(game, "s", (ActionType.MOVE,)).menu
    assert not any(isinstance(o, Charge) for o in later.options)
    assert any(
        "SW-CORE-04" in o.verdict.rules for o in later.refused if isinstance(o.option, Charge)
    )


def test_SW_CORE_04_a_spent_activation_offers_what_the_whole_menu_would_allow(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Once two actions are spent, the menu measures no way and no shot: the activation rule
    refuses every act that costs an action at once. Across whole games the short menu offers
    exactly what the full menu (every option measured and refused one by one) allows, with
    the same default, and names the rule that spent the activation."""
    seen: list[tuple[object, ...]] = []

    def checked(game: Any, squad: Any, done: Any, *, passed: bool = False) -> Offered:
        short = build(game, squad, done, passed=passed)
        if short.spent is None:
            return short
        with monkeypatch.context() as patched:
            patched.setattr(menu, "any_action_verdict", lambda *_, **__: Verdict.allow())
            full = build(game, squad, done, passed=passed)
        assert full.spent is None
        assert short.menu.options == full.menu.options
        assert short.default == full.default
        assert "SW-CORE-04" in short.rules
        seen.append(short.menu.options)
        return short

    monkeypatch.setattr(actions, "build", checked)
    scenario = load_scenario("steel_war.demo")
    for seed in (1, 2):
        bots = {side: "heuristic" for side in scenario.side_ids}
        session = GameSession(scenario, seed, controllers=controllers_for(bots, seed, OddsCache()))
        session.advance()
        assert session.finished
    assert len(seen) > 20
    assert any(len(options) > 1 for options in seen)  # «Ни шагу назад!» still on offer
