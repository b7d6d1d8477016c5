"""The game loop's corners: sub-procedures, repeated calls, rich options, messages, a crash."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

import pytest

from kubik.core.errors import ProcedureError
from kubik.engine import Call, Choose, Roll, emit, msg
from kubik.engine.dice import D6
from kubik.engine.requests import Procedure
from kubik.engine.tally import Tally
from kubik.game import (
    GameRecord,
    GameResult,
    GameSession,
    GameStore,
    Scenario,
    parse_scenario,
    register_ruleset,
    unregister_ruleset,
)
from kubik.text.i18n import catalogue, render


class Order(Enum):
    HOLD = "hold"
    ADVANCE = "advance"


def pair(_: int) -> Procedure[int]:
    a, b = yield Roll((D6, D6), "pair", unordered=True)
    return int(a + b)


class Corners:
    """A one-turn game exercising the loop: enum and tuple options, empty and repeated calls."""

    def __init__(self, broken: bool) -> None:
        self.broken = broken
        self.seen: list[Any] = []

    def play(self) -> Procedure[GameResult]:
        order = yield Choose((Order.HOLD, Order.ADVANCE), "a", "order", default=Order.ADVANCE)
        where = yield Choose(((1, 2), (3, 4)), "b", "where")
        none = yield Call(pair, (0,), times=0)
        total = yield Call(pair, (0,), times=3, reduce=lambda t: sum(k * n for k, n in t.items()))
        self.seen = [order, where, none, total]
        yield emit("corner.done", total=total)
        if self.broken:
            return "not a result"  # type: ignore[return-value]
        return GameResult("a" if total > 21 else "b", 1)


@dataclass(frozen=True)
class CornersRuleset:
    id: str = "corners"
    broken: bool = False

    def validate(self, scenario: Scenario) -> None:
        return None

    def new_game(self, scenario: Scenario, options: Mapping[str, Any]) -> Corners:
        return Corners(self.broken)


CORNERS = """\
[scenario]
id = "corners.test"
name = "Corners"
ruleset = "corners"

[[sides]]
id = "a"
name = "A"

[[sides]]
id = "b"
name = "B"
"""


@pytest.fixture
def corners() -> Iterator[Scenario]:
    register_ruleset(CornersRuleset(), replace=True)
    yield parse_scenario(CORNERS, "corners.toml")
    unregister_ruleset("corners")


def test_rich_options_survive_a_save(corners: Scenario) -> None:
    session = GameSession(corners, 6, controllers={"a": "human", "b": "human"})
    session.advance()
    session.answer("hold")  # the JSON form of an option is accepted
    session.answer([3, 4])
    assert session.finished
    game = session.state
    assert isinstance(game, Corners)
    assert game.seen[:3] == [Order.HOLD, (3, 4), Tally(())]
    assert session.narrate()[:2] == ["A chooses hold — order", "B chooses 3, 4 — where"]
    assert session.narrate("ru")[0] == "A выбирает: hold — order"
    loaded = GameSession.from_record(GameRecord.loads(session.record.dumps()))
    assert isinstance(loaded.state, Corners)
    assert loaded.state.seen == game.seen
    assert loaded.record.dumps() == session.record.dumps()
    rolls = [a for a in session.record.to_json()["answers"] if "roll" in a]
    assert len(rolls) == 3 and all(len(r["roll"]) == 2 for r in rolls)


def test_a_game_must_return_a_game_result(corners: Scenario) -> None:
    register_ruleset(CornersRuleset(broken=True), replace=True)
    session = GameSession(corners, 1)
    with pytest.raises(ProcedureError, match="not a GameResult"):
        session.advance()


def test_every_game_message_exists_in_english_and_russian() -> None:
    ids = {m for m in catalogue("en") if m.startswith("game.")}
    assert ids == {m for m in catalogue("ru") if m.startswith("game.")}
    assert {"game.started", "game.turn", "game.ended.winner", "game.ended.draw"} <= ids


def test_the_end_of_a_game_reads_well_in_both_languages() -> None:
    winner = msg("game.name", en="Steel", ru="Сталь")
    reason = msg("game.turn_limit", n=5)
    end = msg("game.ended.winner", winner=winner, turns=5, reason=reason)
    assert render(end, "en") == (
        "The game is over after 5 turns: Steel wins (the turn limit (5 turns) is reached)."
    )
    assert render(end, "ru") == (
        "Партия окончена после 5 ходов: побеждает Сталь (истёк лимит в 5 ходов)."
    )
    assert render(msg("game.turn", n=2), "ru") == "Ход 2"


def test_a_killed_process_loses_no_confirmed_answer(tmp_path: Path, duel: Scenario) -> None:
    """The player's process dies (os._exit: no close, no flush by Python) mid-game."""
    db = tmp_path / "crash.sqlite3"
    script = textwrap.dedent(
        f"""
        import os
        from kubik.game import GameSession, GameStore, parse_scenario, register_ruleset
        from tests.game.toy import GAME, SCENARIO
        register_ruleset(GAME)
        session = GameSession(parse_scenario(SCENARIO, "duel.toml"), 3,
                              controllers={{"steel": "human"}})
        store = GameStore({str(db)!r})
        store.attach("crash", session)
        session.advance()
        for stance in ("aim", "volley", "aim", "volley"):
            session.answer(stance)
        print(session.record.dumps(), end="")
        os._exit(0)
        """
    )
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=root
    )
    assert done.returncode == 0, done.stderr
    with GameStore(db) as store:
        assert store.load("crash").dumps() == done.stdout
