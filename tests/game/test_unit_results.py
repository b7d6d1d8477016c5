"""The battle layer's per-unit results: the default from the pieces, and kills the
ruleset credits (the toy skirmish credits every kill it makes)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kubik.engine.log import EventEntry
from kubik.game import GameSession, parse_scenario, register_ruleset, unregister_ruleset
from kubik.game.battle import BattleGame, Presence, UnitResult
from kubik.game.coverage import game_seeds
from tests.game.skirmish import GAME, SCENARIO, SKIRMISH_ID, SkirmishGame


@pytest.fixture(autouse=True)
def skirmish() -> Iterator[None]:
    """The toy skirmish is playable (tests/game/conftest.py gives a fresh KUBIK_HOME)."""
    register_ruleset(GAME, replace=True)
    yield
    unregister_ruleset(SKIRMISH_ID)


def _battle() -> SkirmishGame:
    return SkirmishGame(parse_scenario(SCENARIO, "skirmish.toml"), {})


def test_the_default_counts_models_losses_and_flight_from_the_pieces() -> None:
    game = _battle()
    fresh = game.unit_results()
    assert [r.unit for r in fresh] == ["r1", "r2", "b1", "b2"]  # scenario order
    assert fresh[0] == UnitResult("r1", "red", models=1)
    game.fighter("r1").presence = Presence.FLED
    game.fighter("r2").presence = Presence.REMOVED
    game.fighter("b1").presence = Presence.LEFT  # gone on purpose: not a loss
    results = {r.unit: r for r in game.unit_results()}
    assert results["r1"] == UnitResult("r1", "red", 1, lost=1, fled=1)
    assert results["r1"].routed and not results["r2"].routed
    assert (results["r2"].lost, results["r2"].fled) == (1, 0)
    assert (results["b1"].lost, results["b2"].lost) == (0, 0)
    assert results["b2"].to_json() == {
        "unit": "b2",
        "side": "blue",
        "models": 1,
        "lost": 0,
        "fled": 0,
        "kills": 0,
    }


def test_credit_kill_adds_up_and_refuses_what_is_not_a_unit_or_a_count() -> None:
    game = _battle()
    game.credit_kill("b1")
    game.credit_kill("b1", 2)
    game.credit_kill("r2", 0)
    kills = {r.unit: r.kills for r in game.unit_results()}
    assert kills == {"r1": 0, "r2": 0, "b1": 3, "b2": 0}
    with pytest.raises(ValueError, match="no unit 'x9'; units: b1, b2, r1, r2"):
        game.credit_kill("x9")
    with pytest.raises(ValueError, match="victims -1"):
        game.credit_kill("r1", -1)


@pytest.mark.parametrize("seed", game_seeds(3, 6))
def test_every_kill_of_a_toy_battle_is_credited_to_the_unit_that_made_it(seed: int) -> None:
    session = GameSession(parse_scenario(SCENARIO, "skirmish.toml"), seed)
    session.advance()
    game = session.state
    assert session.finished and isinstance(game, BattleGame)
    results = game.unit_results()
    for side in ("red", "blue"):
        mine = [r for r in results if r.side == side]
        theirs = [r for r in results if r.side != side]
        # every model the toy takes out is a kill, by shooting or in a fight
        assert sum(r.kills for r in mine) == sum(r.lost for r in theirs)
    killed = sum(
        isinstance(entry, EventEntry) and entry.event.id == "toy.killed" for entry in session.log
    )
    assert sum(r.kills for r in results) == killed
    # the kills are rebuilt by replaying the answers, as every other state is
    again = GameSession(parse_scenario(SCENARIO, "skirmish.toml"), seed, answers=session.answers)
    assert isinstance(again.state, BattleGame) and again.state.unit_results() == results
