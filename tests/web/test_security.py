"""The web table opened to a network: what no page of ours sends is refused before it
touches a game (Host, body size, JSON shape, coerced answers), the answers carry the
headers that keep pages from being framed or sniffed, the event stream opens without a
token in its URL, and a side's log tells nothing of what it did not see."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kubik.web import guard
from kubik.web.app import create_app

from .conftest import LOCAL, Table, new_table
from .test_pages import hidden_from_a_side


def test_a_request_naming_another_host_is_refused(client: TestClient) -> None:
    refused = client.get("/api/scenarios", headers={"Host": "evil.example"})
    assert refused.status_code == 400 and refused.json()["field"] == "host"
    rebound = client.post(
        "/api/games", json={"scenario": "steel_war.demo"}, headers={"Host": "evil.example:8000"}
    )
    assert rebound.status_code == 400
    for name in ("localhost:8000", "127.0.0.1", "[::1]:8000"):
        assert client.get("/api/scenarios", headers={"Host": name}).status_code == 200


def test_a_server_on_a_network_answers_to_the_names_it_was_given(tmp_path: Path) -> None:
    app = create_app(tmp_path / "games.sqlite3", hosts=["table.example", "192.0.2.7"])
    with TestClient(app, base_url="http://table.example") as client:
        assert client.get("/api/scenarios").status_code == 200
        assert client.get("/", headers={"Host": "192.0.2.7:8000"}).status_code == 200
        assert client.get("/", headers={"Host": "localhost"}).status_code == 400


def test_every_answer_keeps_the_page_from_being_framed_or_sniffed(client: TestClient) -> None:
    for path in ("/", "/play/abc", "/static/table.js", "/api/scenarios", "/docs"):
        headers = client.get(path).headers
        assert headers["x-content-type-options"] == "nosniff", path
        assert "frame-ancestors 'none'" in headers["content-security-policy"], path
    page = client.get("/play/abc").headers["content-security-policy"]
    assert "default-src 'self'" in page and "script-src" not in page  # scripts: ours only


def test_a_body_over_the_limit_is_refused_before_it_is_read(client: TestClient) -> None:
    huge = b'{"scenario": "' + b"x" * (guard.BODY_LIMIT + 10) + b'"}'
    for headers in ({"Content-Type": "application/json"}, {"Transfer-Encoding": "chunked"}):
        refused = client.post("/api/games", content=huge, headers=headers)
        assert refused.status_code == 413 and refused.json()["field"] == "body"

    def pieces() -> Any:  # a body sent in parts, with no length announced
        for _ in range(12):
            yield b" " * 100_000

    streamed = client.post("/api/games", content=pieces())
    assert streamed.status_code == 413


def test_deep_or_huge_json_is_refused_naming_its_field(client: TestClient) -> None:
    table = new_table(client, scenario="steel_war.demo", seed=3)
    token = table.tokens["steel"]
    seq = table.get(token)["seq"]
    url = f"/api/games/{table.id}/answers"
    headers = {**table.auth(token), "Content-Type": "application/json"}
    cases = [
        (f'{{"seq": 1{"0" * 5000}, "answer": 0}}', "seq"),
        (f'{{"seq": {seq}, "answer": 1e999}}', "answer"),
        (f'{{"seq": {seq}, "answer": NaN}}', "answer"),
        (f'{{"seq": {seq}, "answer": {"[" * 100}0{"]" * 100}}}', "answer.0.0.0.0"),
        ("[" * 100_000 + "]" * 100_000, "body"),
        (f'{{"seq": {seq}, "answer": tr', "body"),  # not JSON: no character position
    ]
    for body, field in cases:
        refused = client.post(url, content=body, headers=headers)
        assert refused.status_code == 422, (body[:40], refused.text)
        assert refused.json()["field"].startswith(field), refused.json()
        assert refused.json()["detail"].startswith(refused.json()["field"])
    odds = client.post(
        "/api/odds", json={"procedure": "steel_war.fire", "input": {"n": 10**30}}
    ).json()
    assert odds["field"] == "input.n"
    seed = client.post("/api/games", json={"scenario": "steel_war.demo", "seed": 2**70}).json()
    assert seed["field"] == "seed"
    assert table.get(token)["seq"] == seq


def test_answers_are_never_coerced_into_option_indices(client: TestClient) -> None:
    table = new_table(client, scenario="steel_war.demo", seed=3)
    token = table.tokens["steel"]
    seq = table.get(token)["seq"]
    for answer in (True, "0", 1.0, [1.0], "[1]"):
        refused = table.post(token, {"seq": seq, "answer": answer})
        assert refused.status_code == 422, (answer, refused.text)
        assert refused.json()["field"] == "answer", refused.json()
    for bad_seq in (str(seq), float(seq), True):
        refused = table.post(token, {"seq": bad_seq, "answer": 0})
        assert refused.status_code == 422 and refused.json()["field"] == "seq"
    assert table.get(token)["seq"] == seq


def test_a_sequence_number_from_the_future_is_refused_as_such(client: TestClient) -> None:
    table = new_table(client, scenario="steel_war.demo", seed=3)
    token = table.tokens["steel"]
    game = table.get(token)
    ahead = table.post(token, {"seq": game["seq"] + 5, "answer": 0})
    assert ahead.status_code == 409 and ahead.json()["field"] == "seq"
    assert "ahead" in ahead.json()["detail"] and "stale" not in ahead.json()["detail"]
    table.answer(game, 0)
    stale = table.post(token, {"seq": game["seq"], "answer": 0})
    assert stale.status_code == 409 and "stale" in stale.json()["detail"]


def test_the_event_stream_opens_with_a_ticket_never_the_token_in_its_url(
    client: TestClient,
) -> None:
    table = new_table(client, scenario="steel_war.demo", seed=3)
    url = f"/api/games/{table.id}"
    token = table.tokens["steel"]
    assert client.get(f"{url}/events", params={"token": token}).status_code == 401
    assert client.get(f"{url}/events", params={"ticket": "made-up"}).status_code == 401
    assert client.post(f"{url}/tickets").status_code == 401
    other = new_table(client, scenario="steel_war.demo", seed=3)
    theirs = client.post(f"/api/games/{other.id}/tickets", headers=table.auth(other.spectator))
    ticket = theirs.json()["ticket"]
    assert 0 < theirs.json()["expires_in"] <= 60
    # a ticket opens only its own game's stream
    assert client.get(f"{url}/events", params={"ticket": ticket}).status_code == 401


def test_the_event_stream_follows_the_game_through_a_ticket(tmp_path: Path) -> None:
    httpx = pytest.importorskip("httpx")
    from .browser import Server

    with Server(tmp_path / "games.sqlite3") as server:
        created = httpx.post(f"{server.url}/api/games", json={"scenario": "steel_war.demo"})
        game = created.json()
        auth = {"Authorization": f"Bearer {game['sides']['lianra']}"}
        url = f"{server.url}/api/games/{game['game']}"
        ticket = httpx.post(f"{url}/tickets", headers=auth).json()["ticket"]
        with httpx.stream("GET", f"{url}/events", params={"ticket": ticket}, timeout=20) as events:
            assert events.status_code == 200
            first = next(line for line in events.iter_lines() if line.startswith("data:"))
        assert '"version"' in first
        with httpx.stream("GET", f"{url}/events", headers=auth, timeout=20) as events:
            assert events.status_code == 200  # a client that sends headers needs no ticket


def test_each_side_reads_a_log_numbered_on_its_own(tmp_path: Path) -> None:
    found = hidden_from_a_side()
    assert found is not None, "Roads of the Apocalypse hides warriors: a game must show one"
    record, blind, _ = found
    with TestClient(create_app(tmp_path / "games.sqlite3"), base_url=LOCAL) as client:
        created = client.post("/api/games", json={"record": record})
        table = Table(client, created.json())
        seer = next(side for side in table.tokens if side != blind)
        game = table.get(table.spectator)
        for _ in range(400):  # play on until the two sides' logs differ in length
            seen = {side: table.get(token)["log_length"] for side, token in table.tokens.items()}
            if seen[seer] != seen[blind] or game["finished"]:
                break
            game = table.answer(game, 0)
        # (each side reads what it saw: the hidden side its own moves, the other side an
        # unseen enemy's deeds told without his name)
        assert seen[seer] != seen[blind], "one side saw something the other did not"
        for token in table.tokens.values():
            whole = table.get(token)
            assert [entry["index"] for entry in whole["log"]] == list(range(whole["log_length"]))
            tail = table.get(token, since=3)
            assert tail["log"] == whole["log"][3:] and tail["log_start"] == 3


#: Still minutes of work: a Hero at a cliff edge against six Heroes at the same edge,
#: each with Fame and Fortune, every loser falling (the round's outcomes are counted per
#: model, and six falling Heroes have more of them than a second can list).
HEAVY_HERO = {
    "fight": 5,
    "attacks": 3,
    "strength": 4,
    "toughness": 4,
    "wounds": 3,
    "fame": 3,
    "fortune": 3,
    "cliff_drop": 20,
    "mounted": True,
}
#: Too large to answer exactly: refused at once, past the steps one question may take.
HEAVY_FIGHT: dict[str, Any] = {
    "procedure": "old_west.combat",
    "policy": "optimal",
    "input": {"a": [HEAVY_HERO], "b": [HEAVY_HERO] * 6},
}
_RIVAL = {"fight": 5, "attacks": 2, "strength": 4, "toughness": 4, "wounds": 2, "fame": 2}
_RIVAL |= {"fortune": 2}
#: Long work of many questions, each answered: a Hero against two Heroes under the optimal
#: policy at every Fight of one of them (ten questions of over half a second each).
HEAVY_SWEEP: dict[str, Any] = {
    "procedure": "old_west.combat",
    "policy": "optimal",
    "input": {"a": [{**HEAVY_HERO, "cliff_drop": 0, "mounted": False}], "b": [_RIVAL] * 2},
    "over": "b.1.fight=1..10",
}
SMALL_FIGHT: dict[str, Any] = {
    "procedure": "old_west.fight",
    "input": {"a": [{"fight": 4, "attacks": 1}], "b": [{"fight": 3, "attacks": 1}]},
}


def test_odds_past_their_time_limit_are_refused_and_never_hold_up_a_game(
    tmp_path: Path,
) -> None:
    httpx = pytest.importorskip("httpx")
    import threading
    import time

    from .browser import Server

    with Server(tmp_path / "games.sqlite3", odds_seconds=3.0) as server:
        warm = httpx.post(f"{server.url}/api/odds", json=SMALL_FIGHT, timeout=120)
        assert warm.status_code == 200  # the odds process is up
        too_large = httpx.post(f"{server.url}/api/odds", json=HEAVY_FIGHT, timeout=120)
        assert too_large.status_code == 422 and too_large.json()["field"] == "input"
        assert "steps of exact work" in too_large.json()["detail"]
        answers: list[httpx.Response] = []
        heavy = threading.Thread(
            target=lambda: answers.append(
                httpx.post(f"{server.url}/api/odds/sweep", json=HEAVY_SWEEP, timeout=120)
            )
        )
        began = time.monotonic()
        heavy.start()
        time.sleep(0.5)
        created = httpx.post(f"{server.url}/api/games", json={"scenario": "steel_war.demo"})
        assert created.status_code == 201 and heavy.is_alive()  # a game meanwhile
        heavy.join(60)
        assert time.monotonic() - began < 30
        refused = answers[0]
        assert refused.status_code == 422 and refused.json()["field"] == "input"
        assert "longer than 3 s" in refused.json()["detail"]
        again = httpx.post(f"{server.url}/api/odds", json=SMALL_FIGHT, timeout=120)
        assert again.json() == warm.json()  # remembered (the killed process is replaced)
        fresh = dict(SMALL_FIGHT, input={**SMALL_FIGHT["input"], "advantage": "b"})
        assert httpx.post(f"{server.url}/api/odds", json=fresh, timeout=120).status_code == 200


def test_kubik_serve_stops_at_once_on_sigterm_while_odds_are_being_worked_out(
    tmp_path: Path,
) -> None:
    httpx = pytest.importorskip("httpx")
    import signal
    import threading
    import time

    from .browser import serving

    with serving(tmp_path / "games.sqlite3") as (url, server):
        asked = threading.Thread(
            target=lambda: httpx.post(f"{url}/api/odds/sweep", json=HEAVY_SWEEP, timeout=120),
            daemon=True,
        )
        asked.start()
        time.sleep(3)  # the odds process is at work
        stopping = time.monotonic()
        server.send_signal(signal.SIGTERM)
        server.wait(15)
        assert time.monotonic() - stopping < 10


def test_kubik_serve_answers_to_loopback_names_and_on_a_network_to_its_own_and_given_names() -> (
    None
):
    import socket

    from kubik.cli.serve import LOOPBACK, served_names

    assert served_names("127.0.0.1", []) == set(LOOPBACK)
    opened = served_names("0.0.0.0", ["table.example"])
    assert {"localhost", "127.0.0.1", "table.example", socket.gethostname()} <= opened
    assert "0.0.0.0" not in opened and "evil.example" not in opened
