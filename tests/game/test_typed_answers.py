"""At a real table a person may type what happened instead of picking an option.

A decision with an :class:`~kubik.engine.Entry` (where the model now stands, what
the players measured) takes typed text; the rules read and check it, a text they
refuse is one clear line and changes nothing, the log marks it as typed, and a
save keeps the text so a replay (and a load) reads it again to the same game.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from kubik.engine import Choose, Entry, EntryError, Procedure, emit, msg
from kubik.game import (
    Ending,
    GameInputError,
    GameRecord,
    GameSession,
    RecordError,
    Scenario,
    TurnLoop,
    parse_scenario,
    register_ruleset,
    unregister_ruleset,
)


@dataclass(frozen=True, slots=True)
class Spot:
    x: float
    y: float


def _read_spot(text: str) -> Spot:
    try:
        x, y = (float(part) for part in text.split(","))
    except ValueError:
        raise EntryError(msg("x.not_a_spot", text=text)) from None
    if not (0 <= x <= 12 and 0 <= y <= 12):
        raise EntryError(msg("x.off_table", text=text))
    return Spot(x, y)


class WalkGame(TurnLoop):
    def __init__(self, scenario: Scenario, options: Mapping[str, Any]) -> None:
        super().__init__(scenario)
        self.at = Spot(0.0, 0.0)

    def turn(self, number: int) -> Procedure[None]:
        options = (Spot(1.0, 1.0), Spot(2.0, 2.0))
        self.at = yield Choose(
            options, "walker", msg("x.where"), entry=Entry(msg("x.hint"), _read_spot)
        )
        yield emit("x.moved", x=self.at.x, y=self.at.y)

    def ending(self) -> Ending | None:
        return None


@dataclass(frozen=True)
class WalkRuleset:
    id: str = "toy_walk"

    def validate(self, scenario: Scenario) -> None:
        pass

    def new_game(self, scenario: Scenario, options: Mapping[str, Any]) -> WalkGame:
        return WalkGame(scenario, options)


SCENARIO = """\
[scenario]
id = "toy_walk.demo"
name = "Walk"
ruleset = "toy_walk"

[table]
width = 12
height = 12

[[sides]]
id = "walker"
name = "Walker"
controller = "human"

[[sides]]
id = "watcher"
name = "Watcher"

[end]
turn_limit = 2
"""


@pytest.fixture(autouse=True)
def walk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("KUBIK_HOME", str(tmp_path / "home"))
    register_ruleset(WalkRuleset(), replace=True)
    yield
    unregister_ruleset("toy_walk")


def test_a_typed_answer_is_read_checked_logged_and_replayed() -> None:
    scenario = parse_scenario(SCENARIO, "walk.toml")
    session = GameSession(scenario, 1)
    session.advance()
    with pytest.raises(GameInputError, match=r"x\.off_table"):
        session.type_answer("30, 2")
    assert session.answers == [] and isinstance(session.pending, Choose)
    session.type_answer("7.5, 3")
    session.answer({"x": 2.0, "y": 2.0})  # the second turn: an option, by its JSON form
    assert session.finished
    log = session.to_json()["log"]
    typed = [e for e in log if e.get("typed")]
    assert [e["typed"] for e in typed] == ["7.5, 3"]
    assert typed[0]["answer"] == {"x": 7.5, "y": 3.0}
    assert any("types «7.5, 3»" in line for line in session.narrate("en"))
    assert any("«7.5, 3»:" in line and "вводит" in line for line in session.narrate("ru"))

    record = GameRecord.loads(session.record.dumps())
    assert record.to_json()["answers"][0] == {"typed": "7.5, 3", "origin": "human"}
    again = GameSession.from_record(record)
    assert again.to_json() == session.to_json()


def test_a_typed_answer_where_none_is_asked_for_is_refused() -> None:
    scenario = parse_scenario(SCENARIO, "walk.toml")
    record = GameRecord("toy_walk.demo", scenario.text, 1).to_json()
    record["answers"] = [{"typed": "99, 99", "origin": "human"}]
    with pytest.raises(RecordError, match="answers\\[0\\]"):
        GameSession.from_record(GameRecord.from_json(record))
