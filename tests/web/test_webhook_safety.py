"""A player's webhook cannot make the server call this computer or its network: loopback,
private, link-local, multicast and reserved addresses are refused when the hook is set and
again, resolved, when it is called (DNS rebinding), only http and https are called, and a
redirect is not followed; ``--allow-local-webhooks`` lets a receiver of one's own in."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kubik.web import waiting
from kubik.web.app import create_app
from kubik.web.guard import LOOPBACK_NAMES
from kubik.web.waiting import Notifier, address_problem, check_hook

from .conftest import LOCAL, Table, new_table
from .test_waiting import Receiver, receiver, settings

__all__ = ["receiver"]  # a fixture, used by name below

REFUSED = {
    "http://127.0.0.1:8000/hook": "loopback",
    "http://127.5.6.7/hook": "loopback",
    "http://[::1]/hook": "loopback",
    "http://localhost:9000/hook": "this computer",
    "http://game.localhost/hook": "this computer",
    "http://10.1.2.3/hook": "private",
    "http://192.168.0.10/hook": "private",
    "http://172.20.0.1/hook": "private",
    "http://169.254.169.254/latest/meta-data": "link-local",
    "http://[fe80::1]/hook": "link-local",
    "http://224.0.0.251/hook": "multicast",
    "http://0.0.0.0/hook": "unspecified",
    "http://[::ffff:127.0.0.1]/hook": "loopback",
    "http://100.64.0.1/hook": "not a public address",
}


@pytest.mark.parametrize(("url", "why"), REFUSED.items())
def test_a_webhook_naming_this_computer_or_its_network_is_refused_with_one_line(
    client: TestClient, url: str, why: str
) -> None:
    table = new_table(client, scenario="steel_war.demo", seed=3)
    refused = settings(table, "lianra", {"webhook": url})
    assert refused.status_code == 422
    body = refused.json()
    assert body["field"] == "webhook" and why in body["detail"]
    assert body["detail"].startswith("webhook: ") and "\n" not in body["detail"]
    assert "--allow-local-webhooks" in body["detail"]


@pytest.mark.parametrize("url", ["ftp://example.org/x", "file:///etc/passwd", "gopher://x", "x"])
def test_a_webhook_other_than_http_or_https_is_refused(client: TestClient, url: str) -> None:
    table = new_table(client, scenario="steel_war.demo", seed=3)
    refused = settings(table, "lianra", {"webhook": url})
    assert refused.status_code == 422 and refused.json()["field"] == "webhook"
    assert "http:// or https://" in refused.json()["detail"]


def test_public_addresses_and_names_are_allowed() -> None:
    assert address_problem("93.184.215.14") is None and address_problem("2606:4700::1") is None
    assert check_hook("https://hooks.example.org/kubik?x=1") is None
    assert check_hook("http://127.0.0.1:8000/hook", allow_local=True) is None


def resolving_to(monkeypatch: pytest.MonkeyPatch, address: str) -> list[str]:
    """Every name resolves to ``address`` (as a rebinding DNS server would answer);
    the names looked up are listed."""
    looked_up: list[str] = []

    def getaddrinfo(host: str, port: int, *_: Any, **__: Any) -> list[Any]:
        looked_up.append(host)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]

    monkeypatch.setattr(waiting.socket, "getaddrinfo", getaddrinfo)
    return looked_up


def wait_for_problem(notifier: Notifier, url: str) -> str:
    deadline = time.monotonic() + 20
    while url not in notifier.problems:
        assert time.monotonic() < deadline, "the webhook was never called"
        time.sleep(0.05)
    return notifier.problems[url]


def test_a_name_that_resolves_to_this_computer_when_called_gets_nowhere(
    monkeypatch: pytest.MonkeyPatch, receiver: Receiver
) -> None:
    port = receiver.url.split(":")[2].split("/")[0]
    url = f"http://hooks.example.org:{port}/hook"
    assert check_hook(url) is None  # a name passes when it is set ...
    looked_up = resolving_to(monkeypatch, "127.0.0.1")  # ... and is rebound to loopback
    notifier = Notifier()
    try:
        notifier.send(url, {"event": "your_turn"})
        problem = wait_for_problem(notifier, url)
    finally:
        notifier.close()
    assert looked_up == ["hooks.example.org"]  # resolved when called
    assert problem.startswith("webhook: hooks.example.org resolves to 127.0.0.1")
    assert "loopback" in problem and receiver.bodies == []


def test_the_call_goes_to_the_address_checked_under_the_name_given(
    monkeypatch: pytest.MonkeyPatch, receiver: Receiver
) -> None:
    port = receiver.url.split(":")[2].split("/")[0]
    url = f"http://hooks.example.org:{port}/hook"
    resolving_to(monkeypatch, "127.0.0.1")
    notifier = Notifier(allow_local=True)  # a receiver of one's own on this computer
    try:
        notifier.send(url, {"event": "your_turn"})
        assert receiver.wait_for(1) == [{"event": "your_turn"}]
    finally:
        notifier.close()
    assert notifier.sent == 1 and url not in notifier.problems


@pytest.fixture
def redirecting() -> Iterator[str]:
    """A receiver that answers every call with a redirect to another place."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.send_response(307)
            self.send_header("Location", "http://169.254.169.254/latest/meta-data")
            self.end_headers()

        def log_message(self, *_: Any) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hook"
    server.shutdown()


def test_a_redirect_is_not_followed_and_the_side_is_told_why(
    tmp_path: Path, redirecting: str
) -> None:
    app = create_app(tmp_path / "games.sqlite3", hosts=LOOPBACK_NAMES, allow_local_webhooks=True)
    with TestClient(app, base_url=LOCAL) as client:
        table: Table = new_table(client, scenario="steel_war.demo", seed=3)
        assert settings(table, "lianra", {"webhook": redirecting}).status_code == 200
        game = table.get(table.spectator)
        while game["waiting_for"] == "steel":
            game = table.answer(game, 0)
        deadline = time.monotonic() + 20
        while True:
            shown = client.get(
                f"/api/games/{table.id}/settings", headers=table.auth(table.tokens["lianra"])
            ).json()
            if shown["webhook_problem"]:
                break
            assert time.monotonic() < deadline, shown
            time.sleep(0.05)
    assert (
        shown["webhook_problem"]
        == "webhook: 127.0.0.1 answered 307; a webhook's redirect is not followed"
    )
