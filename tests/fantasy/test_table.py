"""A Warhammer Fantasy battle at a real table (``kubik play --table``): people move the
regiments and type where each one ended — the centre of its front rank, or how far and
which way it went — and the movement rules check the place as they check a bot's move."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from kubik.engine import EntryError
from kubik.game import parse_scenario
from kubik.game.battle import read_position
from kubik.rulesets.fantasy.battle.game import FantasyBattle
from kubik.rulesets.fantasy.battle.table import Placed, facing_after, move_problem
from tests.bots.cli_harness import Kubik, kubik, toy_home
from tests.fantasy.positions import position

__all__ = ["kubik", "toy_home"]  # fixtures, used by name below

WOOD = {"id": "wood", "ground": "difficult", "points": "[[18, 10], [30, 10], [30, 14], [18, 14]]"}
TEXT = position(
    {"id": "guard", "side": "a", "models": 10, "files": 5, "front": [24, 4], "facing": "north"},
    {"id": "orcs", "side": "b", "models": 10, "files": 5, "front": [24, 34], "facing": "south"},
    terrain=[WOOD],
)


def _battle() -> FantasyBattle:
    return FantasyBattle(parse_scenario(TEXT, "table.toml"), {"table": True})


def test_fb_absent_19_a_typed_place_is_checked_by_the_movement_rules() -> None:
    """FB-ABSENT-19/14: straight ahead within the move, a wheel's outer corner counted,
    half pace in the wood, never touching another model."""
    game = _battle()
    guard = game.unit("guard")
    start, facing = guard.front, guard.facing
    assert move_problem(game, guard, start, facing, (24.0, 8.0), 4.0) is None
    assert move_problem(game, guard, start, facing, (24.0, 8.5), 4.0) is not None  # 4.5"
    assert move_problem(game, guard, start, facing, (24.0, 12.0), 8.0) is not None  # the wood
    # a wheel of 45° costs its outer corner's arc (a 5.4" front: 4.3"), so 4" ahead
    # north-east is within a march of 8.3" and not within one of 8"
    ne = (round(24 + 4 * math.sqrt(0.5), 1), round(4 + 4 * math.sqrt(0.5), 1))
    assert facing_after(start, facing, ne) == 45
    assert move_problem(game, guard, start, facing, ne, 8.4) is None
    assert move_problem(game, guard, start, facing, ne, 8.0) is not None
    # touching the enemy without a charge is refused (the contact rule)
    assert move_problem(game, guard, start, facing, (24.0, 30.0), 40.0) is not None


def test_fb_absent_19_a_regiment_moves_where_the_players_put_it(
    kubik: Kubik, tmp_path: Path
) -> None:
    scenario = tmp_path / "table.toml"
    scenario.write_text(TEXT, encoding="utf-8")
    # the guard's orders: 2 = advance (march, advance, hold); then where it ended:
    # 9" north is beyond its 4" (refused, asked again); then its front rank's centre
    # 3.5" straight ahead; the orcs are a bot's
    stdin = "2\n9 n\n24; 7,5\nquit\n"
    done = kubik("play", str(scenario), "--table", "--side", "b=default", stdin=stdin)
    assert done.code in (0, 1), done.err
    flat = " ".join(done.out.split())
    assert "The centre of the front rank, or how far and which way it went" in flat
    assert "Not accepted: the wheel and the move are longer than the move allows" in flat
    assert "types «24; 7,5»" in flat and 'guard moves 3.5"' in flat


def test_the_typed_place_reads_back_as_the_option_it_makes() -> None:
    game = _battle()
    guard = game.unit("guard")
    placed = Placed(24.0, 7.0, 0)
    assert placed == Placed(*(24.0, 7.0), facing_after(guard.front, guard.facing, (24.0, 7.0)))
    with pytest.raises(EntryError):
        read_position("north a bit", guard.front)
