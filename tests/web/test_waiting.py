"""Games that wait days, through the API: a webhook told when the game waits for its side,
standing orders that answer a side's decisions of one kind at once (the default, or a
sealed bid "up to N"), and a clock that takes the rules' default for a side that ran out."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kubik.web.app import create_app
from kubik.web.guard import LOOPBACK_NAMES
from tests.old_west_game.helpers import battle, unit

from .conftest import LOCAL, Table, new_table


class Receiver:
    """A webhook receiver on loopback: every JSON body posted to it, in order."""

    def __init__(self) -> None:
        bodies: list[dict[str, Any]] = []
        self.bodies = bodies

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers["Content-Length"])
                bodies.append(json.loads(self.rfile.read(length)))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *_: Any) -> None:
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait_for(self, count: int, timeout: float = 20.0) -> list[dict[str, Any]]:
        deadline = time.monotonic() + timeout
        while len(self.bodies) < count:
            assert time.monotonic() < deadline, f"the webhook got {self.bodies}"
            time.sleep(0.05)
        return self.bodies


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    hook = Receiver()
    yield hook
    hook.server.shutdown()


@pytest.fixture
def local_client(tmp_path: Path) -> Iterator[TestClient]:
    """A table whose webhooks may reach this computer (the receivers here listen on it)."""
    app = create_app(tmp_path / "games.sqlite3", hosts=LOOPBACK_NAMES, allow_local_webhooks=True)
    with TestClient(app, base_url=LOCAL) as test_client:
        yield test_client


def settings(table: Table, side: str, body: dict[str, Any]) -> Any:
    return table.post(table.tokens[side], body, what="settings")


def test_a_side_is_told_through_its_webhook_when_the_game_waits_for_it(
    local_client: TestClient, receiver: Receiver
) -> None:
    table = new_table(local_client, scenario="steel_war.demo", seed=3)
    changed = settings(table, "lianra", {"webhook": receiver.url})
    assert changed.status_code == 200 and changed.json()["webhook"] == receiver.url
    game = table.get(table.spectator)
    while game["waiting_for"] == "steel":
        game = table.answer(game, 0)
    told = receiver.wait_for(1)[0]
    assert told == {
        "event": "your_turn",
        "game": table.id,
        "side": "lianra",
        "seq": game["seq"],
        "scenario": "steel_war.demo",
    }
    for bad in ("ftp://example.org/x", "not a url", 5):
        refused = settings(table, "lianra", {"webhook": bad})
        assert refused.status_code == 422 and refused.json()["field"] == "webhook"
    spectator = table.post(table.spectator, {"webhook": receiver.url}, what="settings")
    assert spectator.status_code == 403


def test_a_standing_order_answers_decisions_of_its_kind_at_once(client: TestClient) -> None:
    table = new_table(client, scenario="steel_war.demo", seed=3)
    game = table.get(table.tokens["steel"])
    kind = game["pending"]["order_key"]
    assert kind == "steel_war.game.choose_squad"
    changed = settings(table, "steel", {"orders": {kind: "default"}})
    assert changed.json()["orders"] == {kind: "default"}
    after = table.get(table.tokens["steel"])
    assert after["seq"] > game["seq"]  # the decision waiting was taken at once
    for _ in range(60):  # and every later one of its kind
        pending = after["pending"]
        assert not (pending["side"] == "steel" and pending.get("order_key") == kind)
        after = table.answer(after, 0)
        after = table.get(table.tokens[after["waiting_for"]])
    refused = settings(table, "steel", {"orders": {kind: "sometimes"}})
    assert refused.status_code == 422 and refused.json()["field"] == f"orders.{kind}"
    dropped = settings(table, "steel", {"orders": {kind: None}})
    assert dropped.json()["orders"] == {}


def test_a_sealed_bid_up_to_n_is_made_by_standing_order(client: TestClient) -> None:
    scenario = battle(
        unit("wyatt", "law", "marshal", 10, 12, "base_mm = 25.4"),
        unit("ike", "gang", "outlaw_boss", 11, 12, "base_mm = 25.4"),
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
    law = table.get(table.tokens["law"])
    assert law["pending"]["sealed"]
    kind = law["pending"]["order_key"]
    settings(table, "gang", {"orders": {kind: {"at_most": 1}}})  # the gang sleeps
    table.answer(law, 2)  # the law bids 2 Fame; the gang's order bids at most 1 at once
    after = table.get(table.spectator)
    assert not (after["pending"] or {}).get("sealed")
    bids = [e for e in after["log"] if e["type"] == "choice" and e["side"] == "gang"]
    assert bids, "the gang's bid was made by its standing order"


def test_a_side_whose_clock_runs_out_has_the_rules_default_taken(tmp_path: Path) -> None:
    app = create_app(tmp_path / "games.sqlite3", clock_min=0.5, clock_tick=0.1)
    with TestClient(app, base_url=LOCAL) as client:
        for clock, field in (({"per_answer": 0.1}, "clock.per_answer"), ({"then": "x"}, "clock")):
            refused = client.post("/api/games", json={"scenario": "steel_war.demo", "clock": clock})
            assert refused.status_code == 422 and refused.json()["field"] == field
        clock = {"per_answer": 1, "then": "default"}
        table = new_table(client, scenario="steel_war.demo", seed=3, clock=clock)
        game = table.get(table.tokens["steel"])
        assert game["clock"]["side"] == "steel" and game["clock"]["deadline"] > time.time()
        default = next(o["label"] for o in game["pending"]["options"] if o["default"])
        deadline = time.monotonic() + 20
        while table.get(table.spectator)["seq"] == game["seq"]:
            assert time.monotonic() < deadline, "the clock never ran out"
            time.sleep(0.1)
        log = table.get(table.tokens["steel"])["log"]
        assert any(default.split(",")[0] in entry["text"] for entry in log[-5:])
