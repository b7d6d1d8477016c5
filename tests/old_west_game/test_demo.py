"""The built-in battle ``old_west.demo``: bots play it to the end, reproducibly, in English
and Russian; a save rebuilds the identical game."""

from __future__ import annotations

import json
import re

import pytest

from kubik.engine.log import ChoiceEntry, EventEntry, RollEntry
from kubik.game import GameSession, Scenario, list_scenarios, load_scenario
from kubik.text.i18n import missing_messages

RAW_ID = re.compile(r"\b(old_west|game|kubik)\.[a-z_]+\.[a-z_.]+")
CYRILLIC = re.compile("[а-яА-ЯёЁ]")


@pytest.fixture(scope="module")
def demo() -> Scenario:
    return load_scenario("old_west.demo")


@pytest.fixture(scope="module")
def games(demo: Scenario) -> dict[int, GameSession]:
    out = {}
    for seed in (1, 2, 3):
        session = GameSession(demo, seed)
        session.advance()
        out[seed] = session
    return out


def test_the_demo_is_listed_and_is_a_real_battle(demo: Scenario) -> None:
    assert "old_west.demo" in {s.id for s in list_scenarios() if s.error is None}
    assert demo.ruleset == "old_west" and len(demo.terrain) >= 8
    for side in demo.side_ids:
        assert 4 <= sum(1 for u in demo.units if u.side == side) <= 6


def test_bots_play_the_demo_to_the_end(games: dict[int, GameSession]) -> None:
    for session in games.values():
        assert session.finished and session.result is not None
        assert 1 <= session.result.turns <= 8
        kinds = {type(e) for e in session.log}
        assert kinds == {EventEntry, RollEntry, ChoiceEntry}
        sides = {e.side for e in session.log if isinstance(e, ChoiceEntry)}
        assert sides == {"law", "outlaws"}  # every decision goes to a posse of the scenario


def test_the_same_seed_gives_the_same_game_byte_for_byte(
    demo: Scenario, games: dict[int, GameSession]
) -> None:
    again = GameSession(demo, 2)
    again.advance()
    first = json.dumps(games[2].to_json(), ensure_ascii=False)
    assert json.dumps(again.to_json(), ensure_ascii=False) == first
    assert again.record.dumps() == games[2].record.dumps()
    assert first != json.dumps(games[3].to_json(), ensure_ascii=False)


def test_every_line_reads_in_russian_and_english(games: dict[int, GameSession]) -> None:
    ids: set[str] = set()
    for session in games.values():
        for entry in session.log:
            if isinstance(entry, EventEntry):
                ids.add(entry.event.id)
            else:
                ids.add(entry.reason.id)
        for lang in ("en", "ru"):
            for line in session.narrate(lang):
                assert not RAW_ID.search(line), line
                if lang == "ru":
                    assert CYRILLIC.search(line), line
    assert missing_messages(ids) == {"en": set(), "ru": set()}


def test_a_save_rebuilds_the_identical_game(games: dict[int, GameSession]) -> None:
    session = games[1]
    rebuilt = GameSession.from_record(session.record)
    assert rebuilt.finished and rebuilt.result == session.result
    assert json.dumps(rebuilt.to_json()) == json.dumps(session.to_json())
