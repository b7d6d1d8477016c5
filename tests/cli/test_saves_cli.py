"""``kubik saves`` and saved games at the edges, as a user meets them."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.bots.cli_harness import Kubik, kubik, one_line_error, toy_home

__all__ = ["kubik", "toy_home"]  # fixtures, used by name below

TABLE = ("play", "toy_forecast.demo", "--seed", "1", "--table", "--side", "lianra=heuristic")


def flat(text: str) -> str:
    return " ".join(text.split())


def test_an_empty_list_says_how_to_make_a_save(kubik: Kubik) -> None:
    assert "No saved games yet. Save one with: kubik play --save NAME" in flat(kubik("saves").out)
    assert "Сохранённых партий пока нет" in kubik("saves", "--lang", "ru").out
    assert json.loads(kubik("saves", "--json").out) == []


def test_the_list_shows_scenario_turn_finished_and_mode(kubik: Kubik) -> None:
    assert kubik("play", "toy_duel.demo", "--seed", "2", "--save", "done", "--quiet").code == 0
    assert kubik(*TABLE, "--save", "table", stdin="3\n2\n6\n1\nquit\n").code == 0
    started = kubik("play", "toy_duel.demo", "--side", "steel=human", "--save", "mine", stdin="2\n")
    assert started.code == 1  # the input ran out: saved, to be continued
    text = kubik("saves").out
    rows = {line.split()[1]: line for line in text.splitlines() if line.startswith("│")}
    assert "toy_duel.demo" in rows["done"] and "finished after" in rows["done"]
    assert "bots" in rows["done"]
    assert "turn 1, going on" in rows["table"] and "table" in rows["table"]
    assert "people" in rows["mine"]
    data = {game["name"]: game for game in json.loads(kubik("saves", "--json").out)}
    assert data["done"]["finished"] is True and data["done"]["mode"] == "bots"
    assert data["table"] | {"answers": 0, "updated": ""} == {
        "name": "table",
        "scenario": "toy_forecast.demo",
        "seed": 1,
        "answers": 0,
        "updated": "",
        "mode": "table",
        "turn": 1,
        "finished": False,
        "error": None,
    }
    ru = kubik("saves", "--lang", "ru").out
    assert "окончена после" in ru and "за столом" in ru


def test_delete_and_rename(kubik: Kubik) -> None:
    kubik("play", "toy_duel.demo", "--save", "one", "--quiet")
    kubik("play", "toy_duel.demo", "--save", "two", "--quiet")
    done = kubik("saves", "--rename", "one", "first")
    assert done.code == 0 and "'one' is now 'first'" in done.out
    assert json.loads(kubik("load", "first", "--json").out)["finished"] is True
    assert "'two' exists already" in one_line_error(kubik("saves", "--rename", "first", "two"))
    assert "game name" in one_line_error(kubik("saves", "--rename", "first", "no good"))
    deleted = kubik("saves", "--delete", "two", "--lang", "ru")
    assert deleted.code == 0 and "«two» удалена" in deleted.out
    assert [g["name"] for g in json.loads(kubik("saves", "--json").out)] == ["first"]


def test_a_corrupt_save_is_marked_and_named_the_others_still_work(
    kubik: Kubik, toy_home: Path
) -> None:
    kubik("play", "toy_duel.demo", "--save", "good", "--quiet")
    kubik("play", "toy_duel.demo", "--save", "bad", "--quiet")
    kubik("play", "toy_duel.demo", "--save", "row", "--quiet")
    with sqlite3.connect(toy_home / "games.sqlite3") as db:
        db.execute("UPDATE games SET header = 'garbage' WHERE name = 'bad'")
        db.execute("UPDATE answers SET answer = 'garbage' WHERE game = 'row' AND idx = 2")
    listed = kubik("saves")
    assert listed.code == 0, listed.err
    text = flat(listed.out)
    assert "good" in text and "finished after" in text
    assert text.count("⚠") == 2
    games = {g["name"]: g for g in json.loads(kubik("saves", "--json").out)}
    assert games["good"]["error"] is None and games["good"]["finished"] is True
    assert "save 'bad': its header is corrupt" in games["bad"]["error"]
    assert "save 'row': answers[2] is corrupt" in games["row"]["error"]
    for command in ("load", "replay"):
        assert "save 'bad': its header is corrupt" in one_line_error(kubik(command, "bad"))
        assert "save 'row': answers[2] is corrupt" in one_line_error(kubik(command, "row"))
    assert "сохранение «row»: answers[2] испорчен" in kubik("load", "row", "--lang", "ru").err
    assert kubik("load", "good", "--json").code == 0


def test_a_store_locked_when_a_game_starts_is_one_line(
    kubik: Kubik, toy_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("kubik.core.limits.STORE_LOCK_WAIT_MS", 100)
    kubik("saves")  # creates the store
    holder = sqlite3.connect(toy_home / "games.sqlite3", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        line = one_line_error(kubik("play", "toy_duel.demo", "--save", "g"))
        assert "locked by another program (waited 0.1 s)" in line
        assert kubik("saves").code == 0  # reading is not blocked
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_undo_decision_at_the_prompt(kubik: Kubik) -> None:
    # steel volleys (3), types 2 and 6; lianra's bot plays; turn 2: steel aims (2), then
    # "undo decision" takes back the aim (and nothing before it); hold (1) instead
    done = kubik(*TABLE, stdin="3\n2\n6\n1\n1\n2\nundo decision\n1\nquit\n")
    assert done.code == 0, done.err
    out = flat(done.out)
    assert "Undone: 1 answer dropped; back to before your last decision." in out
    after = out[out.index("Undone") :]
    assert "Steel chooses hold" in after
    ru = kubik(*TABLE, "--lang", "ru", stdin="undo decision\nquit\n")
    assert "ещё нет решения человека" in flat(ru.out)


def test_a_save_whose_answers_do_not_replay_names_the_save_and_the_answer(
    kubik: Kubik, toy_home: Path
) -> None:
    kubik("play", "toy_duel.demo", "--save", "odd", "--quiet")
    with sqlite3.connect(toy_home / "games.sqlite3") as db:
        db.execute(
            """UPDATE answers SET answer = '{"roll": [9], "origin": "virtual"}'"""
            " WHERE game = 'odd' AND idx = 1"
        )
    for command in ("load", "replay"):
        line = one_line_error(kubik(command, "odd"))
        assert "save 'odd': answers[1]: a d6 cannot show 9" in line, line
        russian = kubik(command, "odd", "--lang", "ru")
        assert russian.code == 2
        assert russian.err == "ошибка: сохранение «odd»: answers[1]: на к6 не выпадает 9\n"
