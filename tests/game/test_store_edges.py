"""Saves at the edges: corrupt rows, a store locked by another process, rename and
delete, how far each game came, and undoing one decision."""

from __future__ import annotations

import io
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from kubik.cli.console.prompt import Flow, PromptLoop
from kubik.cli.console.render import LogPrinter
from kubik.engine import ChoiceAnswer, Choose, Roll, RollAnswer
from kubik.game import (
    HUMAN,
    GameInputError,
    GameRecord,
    GameSession,
    GameStore,
    RecordError,
    Scenario,
    StoreError,
)
from kubik.game.store import StoreLockedError

FAST = 100  # ms a write waits for a locked store in these tests


def played(duel: Scenario, seed: int = 17) -> GameSession:
    session = GameSession(duel, seed, controllers={"steel": "bot", "lianra": "bot"})
    session.advance()
    return session


@pytest.fixture
def store(tmp_path: Path) -> Iterator[GameStore]:
    with GameStore(tmp_path / "games.sqlite3", lock_wait_ms=FAST) as opened:
        yield opened


def corrupt(store: GameStore, sql: str, *params: object) -> None:
    with sqlite3.connect(store.path) as other:
        other.execute(sql, params)


def test_a_corrupt_header_is_named_and_the_other_saves_still_list(
    store: GameStore, duel: Scenario
) -> None:
    record = played(duel).record
    store.save("good", record)
    store.save("bad", record)
    corrupt(store, "UPDATE games SET header = '{not json' WHERE name = 'bad'")
    listed = {game.name: game for game in store.list(progress=True)}
    assert listed["good"].error is None and listed["good"].finished is True
    assert listed["good"].turn == GameSession.from_record(record).turn
    assert "save 'bad': its header is corrupt" in str(listed["bad"].error)
    with pytest.raises(RecordError, match="save 'bad': its header is corrupt"):
        store.load("bad")
    corrupt(store, "UPDATE games SET header = '[1, 2]' WHERE name = 'bad'")
    with pytest.raises(RecordError, match="header is corrupt"):
        store.load("bad")
    corrupt(store, "UPDATE games SET header = '{}' WHERE name = 'bad'")
    with pytest.raises(RecordError, match="save 'bad': format_version: missing"):
        store.load("bad")
    assert "format_version" in str({g.name: g for g in store.list(progress=True)}["bad"].error)


def test_a_corrupt_answer_row_is_named_with_its_index(store: GameStore, duel: Scenario) -> None:
    store.save("g", played(duel).record)
    corrupt(store, "UPDATE answers SET answer = '{x' WHERE game = 'g' AND idx = 3")
    with pytest.raises(RecordError, match=r"save 'g': answers\[3\] is corrupt"):
        store.load("g")
    assert "answers[3]" in str(store.list(progress=True)[0].error)
    corrupt(store, """UPDATE answers SET answer = '{"roll": "six", "origin": "virtual"}'""")
    with pytest.raises(RecordError, match=r"save 'g': answers\[0\]"):
        store.load("g")
    corrupt(store, "DELETE FROM answers WHERE game = 'g' AND idx = 1")
    with pytest.raises(RecordError, match=r"answers\[1\] is missing"):
        store.load("g")


def test_a_damaged_store_file_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    path.write_bytes(b"this is not a database, just some bytes" * 100)
    with pytest.raises(StoreError, match=r"save store .*not a database"):
        GameStore(path)


def test_rename_and_delete(store: GameStore, duel: Scenario) -> None:
    record = played(duel).record
    store.save("a", record)
    store.save("b", record)
    store.list(progress=True)  # progress remembered under the old name ...
    store.rename("a", "c")
    assert store.names() == ["b", "c"]
    assert store.load("c").dumps() == record.dumps()
    assert store.list(progress=True)[1].finished is True  # ... and kept under the new one
    with pytest.raises(StoreError, match="'b' exists already"):
        store.rename("c", "b")
    with pytest.raises(StoreError, match="no saved game 'a'"):
        store.rename("a", "d")
    with pytest.raises(StoreError, match="use 1-64 letters"):
        store.rename("c", "bad name")
    store.delete("c")
    assert store.names() == ["b"]


def test_the_list_says_how_far_each_game_came_and_how_it_is_played(
    store: GameStore, duel: Scenario
) -> None:
    live = GameSession(duel, 3, controllers={"steel": HUMAN})
    store.attach("live", live)
    live.advance()
    live.answer("aim")
    table = GameSession(duel, 3, dice="typed")
    store.attach("table", table)
    store.save("done", played(duel).record)
    games = {g.name: g for g in store.list(progress=True)}
    assert (games["live"].mode, games["live"].finished, games["live"].turn) == ("people", False, 2)
    assert (games["table"].mode, games["table"].turn) == ("table", 1)
    assert (games["done"].mode, games["done"].finished) == ("bots", True)
    assert games["done"].to_json()["finished"] is True


def test_a_write_to_a_locked_store_waits_then_says_so(store: GameStore, duel: Scenario) -> None:
    store.save("g", played(duel).record)
    holder = sqlite3.connect(store.path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreLockedError, match=r"locked by another program .waited 0.1 s."):
            store.truncate("g", 1)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    store.truncate("g", 1)
    assert len(store.load("g").answers) == 1


def test_a_locked_store_never_loses_an_answer(store: GameStore, duel: Scenario) -> None:
    session = GameSession(duel, 5, controllers={"steel": HUMAN, "lianra": HUMAN})
    keeper = store.attach("live", session)
    session.advance()
    holder = sqlite3.connect(store.path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    session.answer("aim")  # written? no: the store is locked; kept
    assert keeper.problem is not None and keeper.unsaved >= 1
    assert len(session.answers) >= 2  # the game went on
    holder.execute("ROLLBACK")
    holder.close()
    session.answer("volley")
    keeper.flush()
    assert keeper.problem is None and keeper.unsaved == 0
    assert store.load("live").dumps() == session.record.dumps()


def test_the_prompt_says_in_one_line_that_the_save_is_behind_and_keeps_going(
    tmp_path: Path,
    duel: Scenario,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr("kubik.game.store.RETRY_AFTER", 0.0)
    path = tmp_path / "games.sqlite3"
    session = GameSession(duel, 5, controllers={"steel": HUMAN, "lianra": HUMAN})
    out = io.StringIO()
    console = Console(file=out, width=80, highlight=False)
    printer = LogPrinter(console, "en", session.side_names, duel.side_ids)
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    script = iter(["1", "LOCK", "2", "1", "UNLOCK", "2", "quit"])

    def read(prompt: str) -> str | None:
        line = next(script)
        if line == "LOCK":
            holder.execute("BEGIN IMMEDIATE")
            return next(script)
        if line == "UNLOCK":
            holder.execute("ROLLBACK")
            return next(script)
        return line

    loop = PromptLoop(session, printer, read, open_store=lambda: GameStore(path, lock_wait_ms=FAST))
    loop.attach("live")
    assert loop.run() is Flow.QUIT
    loop.close()
    holder.close()
    # the warning goes to stderr, apart from the game's log (seen under --quiet and --json)
    text = " ".join(capsys.readouterr().err.split())
    assert "is behind" not in out.getvalue()
    assert text.count("Save 'live' is behind: the save store") == 1
    assert "locked by another program" in text and "Every answer is kept" in text
    assert "Save 'live' is up to date again." in text
    with GameStore(path) as store:
        assert store.load("live").dumps() == session.record.dumps()


def test_undo_decision_steps_back_one_decision_of_a_person(duel: Scenario) -> None:
    session = GameSession(duel, 4, controllers={"steel": HUMAN, "lianra": HUMAN})
    session.advance()
    with pytest.raises(GameInputError, match="no decision of a person to undo"):
        session.undo_decision()
    session.answer("aim")  # steel aims: the shot is rolled, then lianra decides
    session.answer("volley")  # lianra volleys: two shots, then steel's turn 2 decision
    before = list(session.answers)
    assert isinstance(before[-1], RollAnswer)
    dropped = session.undo_decision()
    assert dropped == len(before) - 2  # back to before lianra's volley, steel's roll kept
    assert session.answers == before[:2]
    assert isinstance(session.pending, Choose) and session.pending.side == "lianra"
    session.answer("aim")
    assert isinstance(session.answers[2], ChoiceAnswer)
    session.undo()  # to the last roll, as before
    assert isinstance(session.pending, Roll)


def test_a_save_with_too_many_answers_is_refused_naming_the_limit(
    store: GameStore, duel: Scenario, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kubik.core import limits

    store.save("g", played(duel).record)
    monkeypatch.setattr(limits, "SAVE_ANSWERS", 3)
    with pytest.raises(RecordError, match="answers is more than the limit of 3"):
        store.load("g")


def test_a_record_read_back_matches(store: GameStore, duel: Scenario) -> None:
    record = played(duel).record
    store.save("g", record)
    assert GameRecord.loads(store.load("g").dumps()).dumps() == record.dumps()
