"""Panic in a fantasy battle (FB-ABSENT-09): a unit that lost a quarter of its models
to shooting, and every unit near a friendly unit that is destroyed or breaks, tests
its nerve, and flees if it fails. Units in close combat, fleeing ones and those that
tested already this phase do not test."""

from __future__ import annotations

from collections.abc import Sequence

from kubik.engine import Call, Procedure, emit
from kubik.rulesets.fantasy.battle.moves import run_away
from kubik.rulesets.fantasy.battle.state import FantasyState
from kubik.rulesets.fantasy.battle.units import Unit
from kubik.rulesets.fantasy.psychology import Panic, panic_from_friend, panic_test
from kubik.table import Base


def test_panic(game: FantasyState, unit: Unit, threat: Unit | None) -> Procedure[None]:
    """``unit`` tests for panic (once a phase), and flees from ``threat`` (or the
    nearest enemy) when it fails."""
    if not unit.fighting or game.board.is_engaged(unit) or unit.id in game.panicked:
        return
    game.panicked.append(unit.id)
    passed = yield Call(
        panic_test, (Panic(unit.rules(), game.leadership(unit), game.command_for(unit)),)
    )
    if not passed:
        yield from run_away(game, unit, threat)


def friends_panic(game: FantasyState, lost: Unit, where: Sequence[Base]) -> Procedure[None]:
    """Every friendly unit near ``lost`` — destroyed, or broken from combat — tests for
    panic (FB-ABSENT-09), nearest first; ``where``: its models as they stood then."""
    board = game.board
    near = [
        (board.gap_from(where, friend), friend)
        for friend in board.friends(lost)
        if friend.fighting and not board.is_engaged(friend)
    ]
    near = [(gap, friend) for gap, friend in near if panic_from_friend(gap)]
    for _, friend in sorted(near, key=lambda pair: pair[0]):
        yield emit(
            "fantasy.game.friend_lost",
            rules=("FB-ABSENT-09",),
            unit=game.name(friend.id),
            friend=game.name(lost.id),
        )
        yield from test_panic(game, friend, None)
