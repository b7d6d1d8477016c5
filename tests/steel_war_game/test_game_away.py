"""Where a Shaken, Broken or suppressed squad may go, judged on where it actually ends
(SW-MOR-01: «кроме тех, что приближают его к противнику», «без приближения к врагу»;
SW-SUP-01: «движение в направлении от противника»): on every place a rolled combat move
may end, measured from the nearest enemy model edge to edge, for its own actions and
for an action its commander hands over (SW-ABSENT-01)."""

from __future__ import annotations

from typing import Any

import pytest

from kubik.rulesets.steel_war.battle import moves
from kubik.rulesets.steel_war.battle.menu import build
from kubik.rulesets.steel_war.battle.options import Move, MoveHow, MoveKind
from kubik.rulesets.steel_war.morale_levels import MoraleLevel
from kubik.rulesets.steel_war.movement import may_move

from .builders import new_game, scenario, unit


def _retreat_past_the_enemy() -> Any:
    """A «Стальные» squad 14" from its own (south) edge, a Lianrian squad to its south-west:
    straight back to the edge it first passes the enemy (2" to 7" on: nearer than now) and
    only then leaves it behind (12" on, at the edge: farther than now)."""
    return new_game(
        scenario([unit("s", "steel", (12, 14)), unit("l", "lianra", (4, 9))], width=24, height=24)
    )


def _offers(game: Any, **state: Any) -> dict[tuple[MoveKind, MoveHow], Any]:
    squad = game.squad("s")
    passed = state.pop("passed", False)
    for key, value in state.items():
        setattr(squad, key, value)
    offered = build(game, squad, (), passed=passed)
    found: dict[tuple[MoveKind, MoveHow], Any] = {}
    for offer in (*offered.menu.offers, *offered.menu.refused):
        if isinstance(offer.option, Move):
            found.setdefault((offer.option.kind, offer.option.how), offer.verdict)
    return found


@pytest.mark.parametrize(
    ("state", "rule"),
    [
        ({"markers": 1}, "SW-SUP-01"),
        ({"level": MoraleLevel.BROKEN}, "SW-MOR-01"),
        ({"level": MoraleLevel.SHAKEN}, "SW-MOR-01"),
    ],
)
def test_SW_SUP_01_SW_MOR_01_a_combat_move_is_judged_on_every_place_its_dice_may_leave_it(
    state: dict[str, Any], rule: str
) -> None:
    """Its longest roll would take the squad to the edge, farther from the enemy than it
    stands; a shorter one leaves it nearer. A squad that may not approach the enemy (or
    must move away from it) is refused the combat move (it was offered, judged on the
    longest roll alone); the march, which ends at the edge whatever happens, is offered."""
    game = _retreat_past_the_enemy()
    squad = game.squad("s")
    plan = moves.plan(game, squad, MoveKind.RETREAT, (12.0, 0.0), MoveHow.COMBAT)
    assert plan is not None
    ends = moves.combat_ends(game, squad, plan)
    now = game.board.gap(squad, game.squad("l"))
    nearer = [end for end in ends if game.board.gap_at(squad, end) < now]
    assert nearer and game.board.gap_at(squad, ends[-1]) > now  # short rolls: nearer
    verdicts = _offers(game, **state)
    combat = verdicts[(MoveKind.RETREAT, MoveHow.COMBAT)]
    assert not combat.allowed and rule in combat.rules
    assert verdicts[(MoveKind.RETREAT, MoveHow.MARCH)].allowed


def test_SW_ABSENT_01_an_action_handed_over_is_judged_the_same_way() -> None:
    """The commander passes an action to the suppressed squad: its menu is the squad's own,
    asked as a passed action, and the rolled move is refused there too."""
    game = _retreat_past_the_enemy()
    verdicts = _offers(game, markers=1, passed=True)
    assert not verdicts[(MoveKind.RETREAT, MoveHow.COMBAT)].allowed
    assert verdicts[(MoveKind.RETREAT, MoveHow.MARCH)].allowed


def test_SW_MOR_01_nearer_is_the_nearest_models_edge_to_edge_not_the_squads_centre() -> None:
    """A Shaken squad in a row of four, a lone enemy to its south-west: 1.5" east and 1.5"
    south its centre goes farther from the enemy (8.5" to 8.7"), yet its westmost man comes
    nearer (6.1" to 5.9" edge to edge) — a move closer to the enemy, which a Shaken squad
    may not make (the rules measure between the closest models; it was judged by the
    squad's centre)."""
    game = new_game(
        scenario(
            [
                unit("s", "steel", (10, 10)),
                unit("l", "lianra", (4, 4), weapons=(("assault_rifle", 1),)),
            ],
            width=24,
        )
    )
    squad = game.squad("s")
    squad.level = MoraleLevel.SHAKEN
    end = (11.5, 8.5)
    assert game.board.gap(squad, game.squad("l")) == 6.1
    assert game.board.gap_at(squad, end) == 5.9
    order = moves.order_for(game, squad, (end,), MoveKind.OBJECTIVE, MoveHow.MOVE)
    assert order.approaches_enemy and not order.away_from_enemy
    verdict = may_move(game.situation(squad), order)
    assert not verdict.allowed and "SW-MOR-01" in verdict.rules
