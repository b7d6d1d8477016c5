"""A unit's card on the web table: the short label its models carry is the terminal map's,
one per unit; its state is told in words in the player's language, as the map legend
tells it."""

from __future__ import annotations

from fastapi.testclient import TestClient

from kubik.api.drawing import board_scene
from kubik.game.scenario import load_scenario
from kubik.game.session import GameSession

from .conftest import new_table


def test_every_units_label_is_its_own_and_the_terminal_maps(client: TestClient) -> None:
    # fantasy.demo has Halberdiers and Handgunners: their initials alone would both be H
    table = new_table(client, scenario="fantasy.demo", seed=2)
    roster = table.get(table.spectator)["roster"]
    labels = {unit: card["label"] for unit, card in roster.items()}
    assert len(set(labels.values())) == len(labels)
    session = GameSession(load_scenario("fantasy.demo"), seed=2)
    terminal = {key.unit: key.label for key in board_scene(session, "en").units}
    assert labels == terminal
    names = {card["name"]: card["label"] for card in roster.values()}
    assert names["Halberdiers"] != names["Handgunners"]


def test_a_units_state_is_told_in_the_players_words(client: TestClient) -> None:
    table = new_table(client, scenario="old_west.demo", seed=3)
    roster = table.get(table.spectator, lang="ru")["roster"]
    session = GameSession(load_scenario("old_west.demo"), seed=3)
    legend = {key.unit: list(key.markers) for key in board_scene(session, "ru").units}
    assert {unit: card["state"] for unit, card in roster.items()} == legend
    told = [mark for card in roster.values() for mark in card["state"]]
    assert told and all("_" not in mark for mark in told)  # words, not field names
