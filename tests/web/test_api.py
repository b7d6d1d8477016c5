"""The web API's contract: tokens, sides (403), sequence numbers (409), bad answers (422),
per-side views and secret bids, persistence, undo with consent."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kubik import api
from kubik.api.variants import compare_inputs, sweep
from kubik.game import GameStore, known_rulesets
from kubik.web import games
from kubik.web.app import create_app
from tests.old_west_game.helpers import battle, unit

from .conftest import LOCAL, Table, new_table

INCH = "base_mm = 25.4"


def test_a_game_is_created_with_one_secret_token_per_side_and_one_for_spectators(
    client: TestClient,
) -> None:
    table = new_table(client, scenario="steel_war.demo", seed=3, dice="virtual")
    assert set(table.tokens) == {"steel", "lianra"}
    assert len({*table.tokens.values(), table.spectator}) == 3
    game = table.get(table.tokens["steel"])
    assert game["seq"] >= 0 and game["you"] == "steel"
    assert game["pending"]["kind"] == "choose" and game["pending"]["side"] == "steel"
    assert game["waiting_for"] == "steel"
    assert game["table"]["width"] > 0 and game["view"]["pieces"]


def test_only_the_deciding_side_sees_the_options_and_their_labels(client: TestClient) -> None:
    table = new_table(client, scenario="steel_war.demo", seed=3)
    mine = table.get(table.tokens["steel"])["pending"]
    theirs = table.get(table.tokens["lianra"])["pending"]
    spectator = table.get(table.spectator)["pending"]
    labels = [o["label"] for o in mine["options"]]
    assert labels[0] == "activate Steel, 1st squad"
    assert theirs["options"] is None and spectator["options"] is None
    assert mine["reason"] and theirs["reason"] is None and spectator["reason"] is None
    assert theirs["side"] == spectator["side"] == "steel" and not theirs["yours"]


def test_tokens_are_checked(client: TestClient) -> None:
    table = new_table(client, scenario="steel_war.demo", seed=3)
    other = new_table(client, scenario="steel_war.demo", seed=3)
    url = f"/api/games/{table.id}"
    assert client.get(url).status_code == 401
    assert client.get(url, headers=table.auth("nonsense")).status_code == 401
    assert client.get(url, headers=table.auth(other.tokens["steel"])).status_code == 401
    missing = client.get("/api/games/feedfeed", headers=table.auth("x"))
    assert missing.status_code == 404 and missing.json()["field"] == "game"


def test_a_token_acts_only_for_its_side_and_a_spectator_never(client: TestClient) -> None:
    table = new_table(client, scenario="steel_war.demo", seed=3)
    game = table.get(table.spectator)
    for token in (table.tokens["lianra"], table.spectator):
        refused = table.post(token, {"seq": game["seq"], "answer": 0})
        assert refused.status_code == 403 and refused.json()["field"] == "token"
    assert table.get(table.spectator)["seq"] == game["seq"]


def test_a_stale_answer_is_refused_by_its_sequence_number(client: TestClient) -> None:
    table = new_table(client, scenario="steel_war.demo", seed=3)
    game = table.get(table.tokens["steel"])
    after = table.answer(game, 0)
    assert after["seq"] > game["seq"]
    stale = table.post(table.tokens["steel"], {"seq": game["seq"], "answer": 0})
    assert stale.status_code == 409 and stale.json()["field"] == "seq"
    assert table.get(table.spectator)["seq"] == after["seq"]


def test_a_bad_answer_names_the_field_and_changes_nothing(
    client: TestClient, tmp_path: Path
) -> None:
    table = new_table(client, scenario="steel_war.demo", seed=3)
    game = table.get(table.tokens["steel"])
    token = table.tokens["steel"]
    bad: list[tuple[dict[str, Any], str]] = [
        ({"seq": game["seq"], "answer": 99}, "answer"),
        ({"seq": game["seq"], "answer": -1}, "answer"),
        ({"seq": game["seq"], "answer": [3, 4]}, "answer"),
        ({"seq": game["seq"]}, "answer"),
        ({"answer": 0}, "seq"),
        ({"seq": "x", "answer": 0}, "seq"),
        ({"seq": game["seq"], "answer": 0, "colour": "red"}, "colour"),
    ]
    for body, field in bad:
        response = table.post(token, body)
        assert response.status_code == 422, (body, response.text)
        assert response.json()["field"] == field
        assert response.json()["detail"].startswith(field)
    assert table.get(token)["seq"] == game["seq"]
    with GameStore(tmp_path / "games.sqlite3") as store:
        assert len(store.load("web-" + table.id).answers) == game["seq"]


def test_bad_new_games_name_the_field_and_save_nothing(client: TestClient, tmp_path: Path) -> None:
    for body, field in [
        ({"scenario": "steel_war.nowhere"}, "scenario"),
        ({"scenario": "/etc/passwd.toml"}, "scenario"),
        ({"scenario": "steel_war.demo", "dice": "loaded"}, "dice"),
        ({"scenario": "steel_war.demo", "seed": -1}, "seed"),
        ({"scenario": "steel_war.demo", "bots": {"keno": "heuristic"}}, "bots.keno"),
        ({"scenario": "steel_war.demo", "bots": {"steel": "genius"}}, "bots.steel"),
        ({}, "scenario"),
        ({"record": {"format_version": 99}}, "record"),
    ]:
        response = client.post("/api/games", json=body)
        assert response.status_code == 422, (body, response.text)
        assert response.json()["field"] == field, response.json()
    with GameStore(tmp_path / "games.sqlite3") as store:
        assert store.names() == []


def test_links_keep_working_after_the_server_restarts(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with TestClient(create_app(path), base_url=LOCAL) as first:
        table = new_table(first, scenario="old_west.demo", seed=5)
        game = table.answer(table.get(table.spectator), 1)
    with TestClient(create_app(path), base_url=LOCAL) as second:
        again = Table(second, {"game": table.id, "sides": table.tokens, "spectator": ""})
        seen = again.get(table.tokens["law"])
        assert seen["seq"] == game["seq"] and seen["pending"]["side"] == game["pending"]["side"]
        assert seen["log_length"] == game["log_length"]


def test_typed_dice_are_answered_as_the_values_rolled(client: TestClient) -> None:
    table = new_table(client, scenario="old_west.demo", seed=5, dice="typed")
    game = table.get(table.spectator)
    while game["pending"]["kind"] != "roll":
        game = table.answer(game, 0)
    dice = game["pending"]["dice"]
    side = game["waiting_for"] or "law"
    too_big = table.post(table.tokens[side], {"seq": game["seq"], "answer": [7] * len(dice)})
    assert too_big.status_code == 422 and too_big.json()["field"] == "answer"
    assert "d6" in too_big.json()["detail"]
    after = table.answer(game, [3] * len(dice))
    typed = [e for e in after["log"] if e["type"] == "roll"]
    assert typed[-1]["origin"] == "typed" and typed[-1]["values"] == [3] * len(dice)


def test_undo_in_a_game_of_two_people_needs_the_other_sides_consent(client: TestClient) -> None:
    table = new_table(client, scenario="steel_war.demo", seed=3)
    game = table.get(table.spectator)
    for _ in range(4):
        game = table.answer(game, 0)
    seq = game["seq"]
    asked = table.post(table.tokens["steel"], {"seq": seq}, "undo")
    assert asked.status_code == 200 and asked.json()["undone"] == 0
    assert asked.json()["waiting_for"] == ["lianra"]
    assert table.get(table.spectator)["seq"] == seq
    spectator = table.post(table.spectator, {"seq": seq}, "undo")
    assert spectator.status_code == 403
    consent = table.post(table.tokens["lianra"], {"seq": seq}, "undo")
    assert consent.status_code == 200 and consent.json()["undone"] > 0
    assert table.get(table.spectator)["seq"] < seq


def test_a_side_takes_back_its_own_last_decision_alone_while_no_die_was_rolled(
    client: TestClient,
) -> None:
    table = new_table(client, scenario="steel_war.demo", seed=3)
    steel, lianra = table.tokens["steel"], table.tokens["lianra"]
    first = table.get(steel)
    assert first["take_back"] is False  # nothing decided yet
    after = table.answer(first, 0)  # steel activates its first squad
    assert table.get(steel)["take_back"] and not table.get(lianra)["take_back"]
    assert not table.get(table.spectator)["take_back"]
    for token, status, field in ((lianra, 422, "to"), (table.spectator, 403, "token")):
        refused = table.post(token, {"seq": after["seq"], "to": "decision"}, "undo")
        assert refused.status_code == status and refused.json()["field"] == field
    stale = table.post(steel, {"seq": first["seq"], "to": "decision"}, "undo")
    assert stale.status_code == 409
    taken = table.post(steel, {"seq": after["seq"], "to": "decision"}, "undo")
    assert taken.status_code == 200 and taken.json()["undone"] >= 1
    assert taken.json()["seq"] == first["seq"] and table.get(lianra)["seq"] == first["seq"]
    game = table.get(table.spectator)
    for _ in range(60):  # once dice are rolled after a decision, taking it back needs consent
        game = table.answer(game, 0)
        kinds = [e["type"] for e in table.get(table.spectator)["log"]]
        if "roll" in kinds[len(kinds) - kinds[::-1].index("choice") :]:
            break
    else:
        raise AssertionError("no die was rolled in 60 answers")
    assert not table.get(steel)["take_back"] and not table.get(lianra)["take_back"]
    for token in (steel, lianra):
        refused = table.post(token, {"seq": game["seq"], "to": "decision"}, "undo")
        assert refused.status_code == 422 and refused.json()["field"] == "to"


def test_a_secret_fame_bid_reaches_nobody_until_both_are_written(client: TestClient) -> None:
    scenario = battle(
        unit("wyatt", "law", "marshal", 10, 12, INCH),
        unit("ike", "gang", "outlaw_boss", 11, 12, INCH),
    )
    record = {
        "format_version": 3,
        "scenario": scenario.id,
        "scenario_toml": scenario.text,
        "seed": 1,
        "dice": "typed",
        "controllers": {"law": "human", "gang": "human"},
        "answers": [],
    }
    table = new_table(client, record=record)
    game = table.get(table.spectator)
    for values in ([6], [1], [4, 2], [4, 1]):
        game = table.answer(game, values)
    assert game["pending"]["sealed"] and game["waiting_for"] == "law"
    table.answer(table.get(table.tokens["law"]), 1)  # the law bids 1 Fame (index 1)
    for token in (table.tokens["gang"], table.spectator):
        seen = table.get(token)
        assert seen["pending"]["sealed"] and seen["waiting_for"] == "gang"
        # the kind of the gang's own decision (a standing order's key) names the bid's kind,
        # never the law's bid
        pending = {k: v for k, v in seen["pending"].items() if k != "order_key"}
        text = json.dumps({**seen, "pending": pending}, ensure_ascii=False)
        assert "spend_fight" not in text and "bids" not in text
        assert not [e for e in seen["log"] if e["type"] == "choice" and e["side"] == "law"]
    gang = table.get(table.tokens["gang"])
    assert [o["value"] for o in gang["pending"]["options"]] == [0, 1, 2]
    assert not table.get(table.tokens["law"])["take_back"]  # a sealed bid stays made
    after = table.answer(gang, 0)
    bids = [e for e in after["log"] if e["type"] == "choice" and e["depth"] >= 0]
    assert {"law", "gang"} <= {e["side"] for e in bids}
    # once both are revealed, neither bid is taken back alone (the other's is known)
    assert not any(table.get(token)["take_back"] for token in table.tokens.values())


def test_the_odds_of_a_procedure_are_the_apis(client: TestClient) -> None:
    body = {"procedure": "old_west.wound", "input": {"strength": 3, "toughness": 8}}
    response = client.post("/api/odds", json=body)
    assert response.status_code == 200
    assert response.json() == api.odds("old_west.wound", {"strength": 3, "toughness": 8})
    bad = client.post("/api/odds", json={**body, "input": {"strength": 99, "toughness": 8}})
    assert bad.status_code == 422 and "strength" in bad.json()["detail"]


def test_variants_and_sweeps_of_a_question_are_the_apis(client: TestClient) -> None:
    wound = {"strength": 3, "toughness": 4}
    body = {"procedure": "old_west.wound", "input": wound, "variants": ["strength=5"]}
    compared = client.post("/api/odds/compare", json=body)
    assert compared.status_code == 200
    assert compared.json() == compare_inputs("old_west.wound", wound, [["strength=5"]])
    swept = client.post(
        "/api/odds/sweep", json={"procedure": "old_west.wound", "input": wound, "over": "fame=0..2"}
    )
    assert swept.json() == sweep("old_west.wound", wound, "fame=0..2")
    asked = client.get(
        "/api/odds/question", params={"procedure": "steel_war.fire", "words": "weapons=lmg,smg*4"}
    )
    assert asked.json() == {
        "weapons": [{"weapon": "lmg", "count": 1}, {"weapon": "smg", "count": 4}]
    }
    bad = client.post("/api/odds/sweep?lang=ru", json={**body, "variants": None, "over": "x"})
    assert bad.status_code == 422
    wrong = client.post(
        "/api/odds/sweep?lang=ru",
        json={"procedure": "old_west.wound", "input": wound, "over": "toughness=9..1"},
    )
    assert wrong.status_code == 422 and "не ПОЛЕ=ОТ..ДО" in wrong.text


def test_marginals_give_each_field_at_least_and_expected_exactly() -> None:
    wound = {"strength": 3, "toughness": 8}
    fields = api.marginals(api.exact_distribution("old_west.wound", wound))
    wounded = fields["wounded"]
    assert [(row["value"], row["probability"], row["at_least"]) for row in wounded["values"]] == [
        (0, "11/12", "1"),
        (1, "1/12", "1/12"),
    ]
    assert wounded["expected"] == "1/12"
    assert fields == api.odds("old_west.wound", wound)["fields"]  # the API's own summary


def odds_of(table: Table, token: str) -> dict[str, Any]:
    """The game as ``token`` sees it, once its options' odds are worked out (the first
    answer may come while the odds process is still at them)."""
    for _ in range(200):
        mine = table.get(token)
        options = (mine["pending"] or {}).get("options") or []
        if not any((o.get("odds") or {}).get("pending") for o in options):
            return mine
        time.sleep(0.1)
    raise AssertionError("the options' odds never came")


def test_the_options_odds_are_the_rules_forecasts(client: TestClient) -> None:
    table = new_table(client, scenario="steel_war.demo", seed=3)
    game = table.get(table.spectator)
    for _ in range(60):
        side = game["waiting_for"]
        mine = odds_of(table, table.tokens[side])
        odds = [o["odds"] for o in mine["pending"]["options"] if o.get("odds")]
        if any("outcomes" in o for o in odds):
            found = next(o for o in odds if "outcomes" in o)
            total = sum(float(o["p"]) for o in found["outcomes"])
            assert abs(total - 1) < 1e-3 and found["sentences"]
            return
        game = table.answer(mine, 0)
    raise AssertionError("no decision with a forecast in 60 answers")


@pytest.mark.parametrize("ruleset", known_rulesets())
def test_a_whole_game_of_each_ruleset_is_played_to_the_end_through_the_api(
    client: TestClient, ruleset: str
) -> None:
    table = new_table(client, scenario=f"{ruleset}.demo", seed=2)
    game = table.get(table.spectator)
    for _ in range(2000):
        if game["finished"]:
            break
        side = game["waiting_for"]
        mine = table.get(table.tokens[side], since=game["log_length"], odds=False)
        assert mine["pending"]["yours"] and mine["pending"]["options"]
        assert "odds" not in mine["pending"]["options"][0]
        game = table.answer(mine, 0, since=mine["log_length"], odds=False)
    assert game["finished"] and game["result"]["turns"] >= 1
    units = {u["id"] for u in game["view"].get("units", [])}  # rulesets with unit markers
    assert units <= {p["unit"] for p in game["view"]["pieces"]}
    record = client.get(f"/api/games/{table.id}/record", headers=table.auth(table.spectator))
    assert record.status_code == 200 and len(record.json()["answers"]) == game["seq"]
    first = table.get(table.spectator, at=0)  # the replay's first step
    assert first["seq"] == 0 and first["log_length"] < game["log_length"]


def test_games_let_go_from_memory_come_back_from_their_saves(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(games, "LIVE_GAMES", 1)
    first = new_table(client, scenario="old_west.demo", seed=4)
    seen = first.answer(first.get(first.spectator), 0)
    second = new_table(client, scenario="old_west.demo", seed=4)
    assert second.get(second.spectator)["seq"] < seen["seq"]
    again = first.get(first.spectator)  # rebuilt from its save, answer by answer
    assert again["seq"] == seen["seq"] and again["log_length"] == seen["log_length"]
    assert first.answer(again, 0)["seq"] > seen["seq"]
