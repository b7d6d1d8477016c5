"""A menu's moves are planned with shortcuts (models far from a way left out, a way with no
model beside it ending at its end, answers kept while nothing near moves); games are
compared byte for byte, so here each shortcut meets the plain measurement: every move
planned inside a menu's measuring stretch ends where the contact rule, asked outside
it with every other model on the table, says (SW-MOVE-01/02, the contact rule)."""

from __future__ import annotations

import math
import random

from kubik.game import ScenarioError
from kubik.rulesets.steel_war.battle import moves
from kubik.rulesets.steel_war.battle.formation import inches
from kubik.rulesets.steel_war.battle.game import SteelWarGame
from kubik.rulesets.steel_war.battle.options import MoveHow, MoveKind
from kubik.table.geometry import Point

from .builders import new_game, scenario, unit


def _crowded(seed: int) -> SteelWarGame:
    """Squads of both sides placed at random, close enough to bar each other's ways."""
    rng = random.Random(seed)
    while True:
        units = [
            unit(
                f"{side}_{n}",
                side,
                (round(rng.uniform(4, 20), 1), round(rng.uniform(4, 20), 1)),
                (("assault_rifle", rng.randint(1, 4)),),
            )
            for n in range(3)
            for side in ("steel", "lianra")
        ]
        try:
            return new_game(scenario(units))
        except ScenarioError:
            continue  # two squads on one spot: placed again


def _plans(game: SteelWarGame) -> list[tuple[str, MoveKind, MoveHow, moves.Plan | None]]:
    found = []
    for squad in game.squads:
        for kind, goal in moves.goals(game, squad):
            for how in (MoveHow.MOVE, MoveHow.MARCH):
                found.append((squad.id, kind, how, moves.plan(game, squad, kind, goal, how)))
    return found


def _plain_end(game: SteelWarGame, squad_id: str, kind: MoveKind, how: MoveHow) -> Point | None:
    """Where the contact rule ends the move's path (its way cut by its allowance), every
    other model on the table asked, on the grid within the allowance."""
    squad = game.squad(squad_id)
    goal = dict(moves.goals(game, squad))[kind]
    reach = moves.width_of(game, squad)
    near = game.nearest_enemy(squad)
    stop = None
    if kind is MoveKind.ADVANCE:
        stop = reach + (moves.width_of(game, near[0]) if near else 0.0) + 1.0
    course = moves._course(game, squad, goal, how, reach, stop)
    assert course is not None
    end = moves.settle_on(game, squad, course[2])
    return None if end is None else moves.inside(game, squad, course[2], end)


def test_SW_MOVE_02_a_menu_plans_each_move_where_the_contact_rule_ends_it() -> None:
    short = free = 0
    for seed in range(12):
        game = _crowded(seed)
        outside = _plans(game)  # measured afresh
        with game.unchanged():
            inside = _plans(game)  # the menu's shortcuts
            again = _plans(game)  # kept answers
        assert inside == outside == again
        for squad_id, kind, how, found in inside:
            if found is None:
                continue
            assert _plain_end(game, squad_id, kind, how) == found.end
            speed = game.speed(game.squad(squad_id))
            full = found.moved >= (speed if how is MoveHow.MOVE else 2 * speed) - 0.05
            short += not full
            free += full
    assert short > 5 and free > 5


def test_SW_MOVE_02_a_plan_kept_across_menus_holds_only_while_the_models_near_stand() -> None:
    """A plan is kept while the unit, the enemy it advances on and the models near it
    stand where they stood: after any squad moves (near or far), every plan a menu gives
    is the one measured afresh."""
    rng = random.Random(5)
    for seed in range(6):
        game = _crowded(100 + seed)
        with game.unchanged():
            _plans(game)
        for _ in range(4):
            moved = rng.choice(game.squads)
            x, y = moved.centre
            moved.shift((round(x + rng.uniform(-3, 3), 1), round(y + rng.uniform(-3, 3), 1)))
            fresh = _plans(game)
            with game.unchanged():
                assert _plans(game) == fresh


def test_SW_MOVE_01_a_menu_plans_a_march_only_beyond_a_move_of_full_speed() -> None:
    """:func:`moves.menu_plans` gives each move as :func:`moves.plan` plans it, and a
    march only where the move toward that goal went the unit's full speed and the march
    goes farther (SW-MOVE-01: twice the speed)."""
    marches = 0
    for seed in range(8):
        game = _crowded(200 + seed)
        with game.unchanged():
            for squad in game.squads:
                planned = moves.menu_plans(game, squad, game.nearest_enemy(squad))
                for kind, goal, how, found in planned:
                    assert moves.plan(game, squad, kind, goal, how) == found
                moved = {k: f.moved for k, _, h, f in planned if h is MoveHow.MOVE}
                for kind, _, how, found in planned:
                    if how is MoveHow.MARCH:
                        marches += 1
                        assert moved[kind] >= game.speed(squad) - 0.05
                        assert found.moved > moved[kind]
    assert marches > 5


def test_SW_MOVE_02_a_move_rounded_to_the_grid_never_ends_beyond_its_allowance() -> None:
    """A move of 2.9" north-east from (6, 4) ends at (8.0501, 6.0501); on the 0.1" grid
    that is (8.1, 6.1), which the tape reads 3.0" away — more than the move. The end is
    pulled onto the nearest grid point the tape reads within 2.9" (before, such a move
    was told as 2.9" and measured 3.0" at the table)."""
    game = new_game(scenario([unit("s", "steel", (6, 4)), unit("l", "lianra", (18, 20))]))
    squad = game.squad("s")
    path = ((6.0, 4.0), (8.0501, 6.0501))
    assert inches(math.dist((6.0, 4.0), (8.1, 6.1))) == 3.0
    spot = moves.inside(game, squad, path, (8.1, 6.1))
    assert spot in ((8.0, 6.1), (8.1, 6.0))
    assert inches(math.dist((6.0, 4.0), spot)) == 2.9
    assert moves.inside(game, squad, ((6.0, 4.0), (8.04, 6.04)), (8.0, 6.0)) == (8.0, 6.0)


def test_SW_MOVE_02_a_planned_move_measures_on_the_tape_what_it_is_told() -> None:
    """Every move a menu offers ends where the tape, from where the squad's centre stood,
    reads no more than the move is told to go (its way's length) nor its allowance: in
    crowded games a squad of seed 6 told to move 2.8" ended 2.864" away, 2.9" on the
    tape, before its end was kept inside on the 0.1" grid."""
    checked = 0
    for seed in range(8):
        game = _crowded(seed)
        for squad_id, _kind, how, found in _plans(game):
            if found is None:
                continue
            squad = game.squad(squad_id)
            allowance = game.speed(squad) * (2 if how is MoveHow.MARCH else 1)
            read = inches(math.dist(squad.centre, found.end))
            assert read <= found.moved <= allowance, (seed, squad_id, how, found)
            checked += 1
    assert checked > 100
