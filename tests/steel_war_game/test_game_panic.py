"""Panic and «Ни шагу назад!» in a battle, out of turn through the layer's interrupts
(SW-PANIC-01/02, SW-CC-11, SW-NSN-01..04)."""

from __future__ import annotations

from kubik.engine.dice import D6, D8
from kubik.engine.log import RollEntry
from kubik.game.battle import Moment, Trigger
from kubik.rulesets.steel_war.battle import actions, assault
from kubik.rulesets.steel_war.battle.options import Act, Kind
from kubik.rulesets.steel_war.battle.state import Gone, Stance
from kubik.rulesets.steel_war.morale_levels import MoraleLevel

from .builders import events, human_session, new_game, options, play, roll, rules_in, scenario, unit

WALL = """
[[terrain]]
id = "wall"
kind = "impassable"
blocks_los = true
points = [[0, 12], [16, 12], [16, 14], [0, 14]]
"""
RUINS = """
[[terrain]]
id = "ruins"
kind = "difficult"
cover = "hard"
points = [[0, 0], [10, 0], [10, 8], [0, 8]]
"""


def test_SW_PANIC_02_recruits_panic_the_first_time_they_see_enemy_armour() -> None:
    """Recruits see an enemy tank as the battle begins: a reaction test at threat 0; a 2
    fails — panicked, and a level lost (SW-PANIC-01)."""
    session = human_session(
        scenario(
            [
                unit("tank", "steel", (6, 4), (("uragan", 1),), vehicle="tank"),
                unit("r", "lianra", (6, 18), quality="recruits"),
            ]
        )
    )
    first = events(session.log, "steel_war.game.first_sight")
    assert first and first[0].event.kwargs["event"].value == "first_armour_seen"
    roll(session, 2)
    game = session.state
    recruits = game.squad("r")  # type: ignore[attr-defined]
    assert recruits.panicked and recruits.level is MoraleLevel.SHAKEN
    assert {"SW-PANIC-01", "SW-PANIC-02"} <= rules_in(session.log)


def test_SW_PANIC_02_the_first_sight_is_an_interrupt_when_a_unit_comes_into_view() -> None:
    """Untrained troops behind a wall see nobody; when a bronescaf squad steps round it the
    move's interrupt gives them their first sight of the enemy — and of armour."""
    game = new_game(
        scenario(
            [
                unit("b", "steel", (6, 4), kind="bronescaf"),
                unit("u", "lianra", (18, 20), quality="untrained"),
            ],
            terrain=WALL,
        )
    )
    militia = game.squad("u")
    assert not game.sees(militia, game.squad("b"))
    game.squad("b").shift((20, 6))
    run = play(game.interrupts.fire, (Moment(Trigger.MOVED, "steel", "b"),), 1)
    assert run.result is not None
    assert militia.panicked
    sights = events(run.result.log, "steel_war.game.first_sight")
    assert [e.event.kwargs["event"].value for e in sights] == ["first_enemy_in_sight"]


def test_SW_CC_11_SW_PANIC_02_regulars_panic_when_the_keno_guard_charges_them() -> None:
    game = new_game(
        scenario(
            [
                unit("k", "steel", (6, 4), keno_guard=True),
                unit("l", "lianra", (6, 6.5)),
            ]
        )
    )
    guard, regulars = game.squad("k"), game.squad("l")
    assert assault.frightening(guard, charging=True)
    game.contacts.engage("k", "l", ("SW-CC-03",))
    # the panic test first (a 1 fails), then its morale test with the threat doubled
    run = play(assault.receive, (game, guard, regulars), 1, 1)
    assert run.result is not None
    tests = [e.reason.id for e in run.result.log if isinstance(e, RollEntry)]
    assert tests[:2] == ["steel_war.panic_test.roll", "steel_war.morale_test.roll"]
    assert "SW-CC-11" in rules_in(run.result.log)


def _last_stand(keno: bool):  # type: ignore[no-untyped-def]
    """A lone squad in the ruins, no friend within 12", three enemy squads in sight."""
    return new_game(
        scenario(
            [
                unit("k", "steel", (5, 4), keno_guard=keno),
                unit("a", "lianra", (4, 20)),
                unit("b", "lianra", (12, 21)),
                unit("c", "lianra", (20, 20)),
            ],
            terrain=RUINS,
        )
    )


def test_SW_NSN_01_SW_NSN_02_the_keno_guard_stands_fast_on_a_d8() -> None:
    """Every precondition holds: the test is offered (it costs no action); the Keno Guard
    rolls d8 and a 7 succeeds — berserk (SW-NSN-03)."""
    game = _last_stand(keno=True)
    assert Act(Kind.NO_STEP_BACK) in options(game, "k")
    run = play(actions.no_step_back, (game, game.squad("k")), 7)
    assert run.result is not None
    rolled = [e for e in run.result.log if isinstance(e, RollEntry)]
    assert rolled[0].dice == (D8,)
    assert game.squad("k").stance is Stance.BERSERK
    assert Act(Kind.NO_STEP_BACK) not in options(game, "k")


def test_SW_NSN_02_SW_NSN_03_others_roll_a_d6_and_a_failure_loses_the_squad() -> None:
    game = _last_stand(keno=False)
    run = play(actions.no_step_back, (game, game.squad("k")), 5)
    assert run.result is not None
    rolled = [e for e in run.result.log if isinstance(e, RollEntry)]
    assert rolled[0].dice == (D6,)
    assert game.squad("k").gone is Gone.SCATTERED  # no enemy within 12": scattered


def test_SW_NSN_04_the_state_ends_when_only_broken_enemies_are_in_view() -> None:
    game = _last_stand(keno=True)
    play(actions.no_step_back, (game, game.squad("k")), 8)
    for enemy in ("a", "b", "c"):
        game.squad(enemy).level = MoraleLevel.BROKEN
    run = play(game._stand_fast_ends, ())
    assert run.result is not None and events(run.result.log, "steel_war.game.berserk_over")
    squad = game.squad("k")
    assert squad.stance is Stance.NORMAL and squad.level is MoraleLevel.STEADY
