"""A web table on a temporary store, driven in-process through its HTTP API."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kubik.web.app import create_app
from kubik.web.guard import LOOPBACK_NAMES

#: The address the in-process client calls (a loopback name: the server refuses others).
LOCAL = "http://localhost"


class Table:
    """One game on the web table: its id and tokens, and calls made with a token."""

    def __init__(self, client: TestClient, created: dict[str, Any]) -> None:
        self.client = client
        self.id: str = created["game"]
        self.tokens: dict[str, str] = created["sides"]
        self.spectator: str = created["spectator"]

    def auth(self, token: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"}

    def get(self, token: str, **params: Any) -> dict[str, Any]:
        response = self.client.get(f"/api/games/{self.id}", headers=self.auth(token), params=params)
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body

    def post(self, token: str, body: dict[str, Any], what: str = "answers") -> Any:
        return self.client.post(f"/api/games/{self.id}/{what}", headers=self.auth(token), json=body)

    def answer(self, game: dict[str, Any], answer: Any, **params: Any) -> dict[str, Any]:
        """Answer the pending request with the token of the side it waits for."""
        side = game["waiting_for"] or next(iter(self.tokens))
        body = {"seq": game["seq"], "answer": answer}
        response = self.client.post(
            f"/api/games/{self.id}/answers",
            headers=self.auth(self.tokens[side]),
            json=body,
            params=params,
        )
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(tmp_path / "games.sqlite3", hosts=LOOPBACK_NAMES)  # as kubik serve
    with TestClient(app, base_url=LOCAL) as test_client:
        yield test_client


def new_table(client: TestClient, **body: Any) -> Table:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return Table(client, response.json())
