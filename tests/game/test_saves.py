"""Saves: the record format and its migration, the SQLite store, replays."""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

import pytest

from kubik.engine import ChoiceAnswer, ChoiceOrigin, Choose, DiceOrigin, RollAnswer
from kubik.game import (
    FORMAT_VERSION,
    HUMAN,
    GameRecord,
    GameSession,
    GameStore,
    RecordError,
    Scenario,
    StoreError,
    rebuild,
    replay,
)
from kubik.game.record import migrate


def volley_bot(request: Choose) -> Hashable:
    return "volley"


def played(scenario: Scenario, seed: int = 17) -> GameSession:
    session = GameSession(scenario, seed, controllers={"steel": volley_bot})
    session.advance()
    assert session.finished
    return session


def as_v1(record: GameRecord) -> dict[str, Any]:
    """The record as version 1 wrote it: bare answers, no origins."""
    data = record.to_json()
    data["format_version"] = 1
    data["answers"] = [a.get("roll", a.get("choice")) for a in data["answers"]]
    return data


def test_a_record_round_trips_through_json(duel: Scenario) -> None:
    session = played(duel)
    record = session.record
    assert record.format_version == FORMAT_VERSION == 4
    text = record.dumps()
    again = GameRecord.loads(text)
    assert again.dumps() == text
    data = json.loads(text)
    assert data["scenario_toml"] == duel.text  # self-contained
    assert data["answers"][0] == {"choice": "volley", "origin": "bot"}
    assert data["answers"][1]["origin"] == "virtual"


def test_save_load_replay_gives_the_identical_game(duel: Scenario) -> None:
    session = played(duel)
    loaded = GameSession.from_record(GameRecord.loads(session.record.dumps()))
    assert loaded.finished and loaded.result == session.result
    assert loaded.record.dumps() == session.record.dumps()
    assert json.dumps(loaded.to_json()) == json.dumps(session.to_json())
    steps = list(replay(session.record))
    assert [s.text for s in steps] == session.narrate()
    assert [s.entry for s in steps] == session.log
    assert steps[0].to_json()["id"] == "game.started"


def test_a_replay_narrates_in_russian(duel: Scenario) -> None:
    session = played(duel)
    texts = [s.text for s in replay(session.record, lang="ru")]
    assert texts[0] == "Партия начинается: Дуэль."
    assert texts[1] == "Ход 1"
    assert texts[2].strip().startswith("Сталь выбирает: volley")
    assert texts[-1].startswith("Партия окончена после ")


def test_a_half_played_save_resumes_where_it_stopped(duel: Scenario) -> None:
    reference = played(duel)
    half = reference.record.with_answers(reference.record.answers[:9])
    session = GameSession.from_record(half, bots={"steel": volley_bot})
    assert not session.finished and len(session.answers) == 9
    session.advance()
    assert session.record.dumps() == reference.record.dumps()


def test_migration_from_version_1(duel: Scenario) -> None:
    session = played(duel)
    old = as_v1(session.record)
    assert old["answers"][0] == "volley" and isinstance(old["answers"][1], list)
    record = GameRecord.from_json(old)
    assert record.format_version == FORMAT_VERSION == 4
    assert all(
        a.origin is (DiceOrigin.VIRTUAL if isinstance(a, RollAnswer) else ChoiceOrigin.DEFAULT)
        for a in record.answers
    )
    assert migrate(old)["answers"][0] == {"choice": "volley", "origin": "default"}
    loaded = GameSession.from_record(record)
    assert loaded.result == session.result
    assert [e.values for e in loaded.log if hasattr(e, "values")] == [
        e.values for e in session.log if hasattr(e, "values")
    ]


def test_a_newer_or_unknown_format_is_an_error_never_misread(duel: Scenario) -> None:
    data = played(duel).record.to_json()
    with pytest.raises(RecordError, match=r"format_version: 5 is newer than this kubik reads"):
        GameRecord.from_json({**data, "format_version": 5})
    with pytest.raises(RecordError, match="format_version: missing"):
        GameRecord.from_json({k: v for k, v in data.items() if k != "format_version"})
    with pytest.raises(RecordError, match="format_version: 0 is not"):
        GameRecord.from_json({**data, "format_version": 0})
    with pytest.raises(RecordError, match=r"answers\[0\]\.origin: 'psychic'"):
        GameRecord.from_json({**data, "answers": [{"choice": "aim", "origin": "psychic"}]})
    with pytest.raises(RecordError, match=r"^seed: "):
        GameRecord.from_json({**data, "seed": "abc"})
    with pytest.raises(RecordError, match="line 1: not valid JSON"):
        GameRecord.loads("{")


def test_answers_that_do_not_fit_the_game_are_an_error(duel: Scenario) -> None:
    record = played(duel).record
    swapped = record.with_answers((RollAnswer((3,)), *record.answers[1:]))
    with pytest.raises(RecordError, match=r"answers\[0\]: a roll of \[3\] does not fit"):
        rebuild(swapped)
    bad_option = record.with_answers((ChoiceAnswer("retreat"), *record.answers[1:]))
    with pytest.raises(RecordError, match=r"answers\[0\]: the decision 'retreat' is not an option"):
        rebuild(bad_option)
    too_many = record.with_answers((*record.answers, RollAnswer((1,))))
    with pytest.raises(RecordError, match="the game ended before its recorded answers"):
        rebuild(too_many)


def test_a_save_that_does_not_read_is_told_in_russian_too(duel: Scenario) -> None:
    data = played(duel).record.to_json()
    record = played(duel).record
    cases: list[tuple[Callable[[], object], str]] = [
        (
            lambda: GameRecord.from_json({**data, "format_version": 5}),
            "format_version: 5 — новее, чем умеет читать эта версия kubik",
        ),
        (lambda: GameRecord.from_json({**data, "seed": "abc"}), 'seed: "abc" — не целое число'),
        (lambda: GameRecord.loads("{"), "строка 1, столбец 2: это не JSON"),
        (
            lambda: rebuild(record.with_answers((RollAnswer((3,)), *record.answers[1:]))),
            "answers[0]: бросок [3] не подходит к решению стороны «steel»",
        ),
        (
            lambda: rebuild(record.with_answers((*record.answers, RollAnswer((1,))))),
            "партия окончилась раньше, чем записанные ответы (лишних ответов: 1)",
        ),
    ]
    for load, russian in cases:
        with pytest.raises(RecordError) as error:
            load()
        assert russian in error.value.text("ru"), error.value.text("ru")


def test_the_store_saves_lists_loads_and_deletes(tmp_path: Path, duel: Scenario) -> None:
    session = played(duel)
    with GameStore(tmp_path / "games.sqlite3") as store:
        store.save("duel-1", session.record)
        store.save("duel-2", session.record.with_answers(()))
        listed = store.list()
        assert [(g.name, g.scenario, g.seed) for g in listed] == [
            ("duel-1", "toy_duel.demo", 17),
            ("duel-2", "toy_duel.demo", 17),
        ]
        assert listed[0].answers == len(session.answers) and listed[1].answers == 0
        assert store.load("duel-1").dumps() == session.record.dumps()
        store.delete("duel-2")
        assert [g.name for g in store.list()] == ["duel-1"]
        with pytest.raises(StoreError, match="no saved game 'duel-2'; saved games: duel-1"):
            store.load("duel-2")
        for bad in ("", "a b", "../x", "-x", "x" * 65):
            with pytest.raises(StoreError, match="use 1-64 letters"):
                store.save(bad, session.record)
        mode = store._db.execute("PRAGMA journal_mode").fetchone()[0]
        assert mode == "wal"


def test_the_store_default_path_is_under_kubik_home(tmp_path: Path) -> None:
    with GameStore() as store:
        assert store.path == tmp_path / "home" / "games.sqlite3"
        assert store.list() == []


def test_the_store_survives_a_crash(tmp_path: Path, duel: Scenario) -> None:
    path = tmp_path / "games.sqlite3"
    session = GameSession(duel, 5, controllers={"steel": HUMAN})
    store = GameStore(path)
    store.attach("live", session)
    session.advance()
    session.answer("aim")
    session.answer("volley")
    session.answer("aim")
    confirmed = session.record
    # a crash: no save, no close; another process opens the file
    other = GameStore(path)
    assert other.load("live").dumps() == confirmed.dumps()
    # an undo is written as well, and answers after it replace the dropped ones
    assert session.undo() >= 1
    assert other.load("live").dumps() == session.record.dumps()
    session.advance()
    session.answer("volley")
    assert other.load("live").dumps() == session.record.dumps()
    resumed = GameSession.from_record(other.load("live"))
    assert resumed.record.dumps() == session.record.dumps()
    assert resumed.pending == session.pending
    other.close()
    store.close()


def test_a_stored_typed_game_keeps_its_origins(tmp_path: Path, duel: Scenario) -> None:
    session = GameSession(duel, 2, dice="typed", controllers={"lianra": HUMAN})
    with GameStore(tmp_path / "g.sqlite3") as store:
        store.attach("table", session)
        session.advance()
        session.roll([4])
        session.answer("aim")
        session.roll([6])
        record = store.load("table")
    assert [a.origin.value for a in record.answers] == [
        "default",  # steel's bot decides
        "typed",
        "human",  # lianra is played by a person
        "typed",
        "default",  # turn 2: steel's bot again, then the session waits for dice
    ]
    assert record.dice == "typed"
    loaded = GameSession.from_record(record)
    assert loaded.dice_mode.value == "typed" and loaded.controllers["lianra"] == HUMAN


class NamedVolleyBot:
    """A bot with a name: saves record which bot played the side."""

    name = "volley"

    def __call__(self, request: Choose) -> Hashable:
        return "volley"


def test_a_save_names_the_bot_that_played_each_side(duel: Scenario) -> None:
    session = GameSession(duel, 5, controllers={"steel": NamedVolleyBot(), "lianra": HUMAN})
    session.advance()
    record = session.record
    assert dict(record.controllers) == {"steel": "bot:volley", "lianra": HUMAN}
    assert record.bot_name("steel") == "volley" and record.bot_name("lianra") is None
    again = GameRecord.from_json(record.to_json())
    assert again.bot_name("steel") == "volley"
    unnamed = GameSession(duel, 5, controllers={"steel": volley_bot}).record
    assert dict(unnamed.controllers)["steel"] == "bot" and unnamed.bot_name("steel") is None
    broken = {**record.to_json(), "controllers": {"steel": "robot"}}
    with pytest.raises(RecordError, match="controllers"):
        GameRecord.from_json(broken)


def test_a_saved_decision_keeps_its_kind_when_two_options_read_the_same_in_json() -> None:
    """Steel War offers ``Inspire(target='a')`` and ``PassAction(target='a')``: both are
    ``{"target": "a"}`` in JSON, so a save names the option's kind; a version 3 save
    (no kind) still takes the first option of that form."""
    from dataclasses import dataclass

    from kubik.game.record import JsonChoice, answer_to_json
    from kubik.game.session import _match_option

    @dataclass(frozen=True)
    class Inspire:
        target: str

    @dataclass(frozen=True)
    class PassAction:
        target: str

    request = Choose((Inspire("a"), PassAction("a")), "steel", "action")
    saved = answer_to_json(ChoiceAnswer(PassAction("a"), ChoiceOrigin.BOT))
    assert saved == {"choice": {"target": "a"}, "kind": "PassAction", "origin": "bot"}
    text = json.dumps(saved["choice"])
    assert _match_option(request, JsonChoice(text.replace(" ", ""), "PassAction")) == PassAction(
        "a"
    )
    assert _match_option(request, JsonChoice(text.replace(" ", ""))) == Inspire("a")
    assert answer_to_json(ChoiceAnswer(3, ChoiceOrigin.HUMAN)) == {"choice": 3, "origin": "human"}
