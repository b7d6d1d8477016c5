"""The web start page takes a BattleScribe roster for a side: ``POST /api/games`` with
``rosters: {side: {name, data (base64)}}``."""

from __future__ import annotations

import base64
from pathlib import Path

from fastapi.testclient import TestClient

from .conftest import new_table

POSSE = Path(__file__).parent.parent / "sim" / "rosters" / "earp_posse.ros"


def _upload(data: bytes, name: str = "earp_posse.ros") -> dict[str, str]:
    return {"name": name, "data": base64.b64encode(data).decode("ascii")}


def test_a_game_starts_with_a_side_s_roster(client: TestClient) -> None:
    table = new_table(
        client,
        scenario="old_west.demo",
        seed=5,
        bots={"outlaws": "heuristic"},
        rosters={"law": _upload(POSSE.read_bytes())},
    )
    game = table.get(table.spectator)
    law = [p for p in game["view"]["pieces"] if p.get("side") == "law"]
    assert len(law) == 4  # the marshal, two deputies and a gunfighter of the roster


def test_a_bad_roster_is_refused_naming_its_side(client: TestClient) -> None:
    text = POSSE.read_text(encoding="utf-8").replace('name="Shotgun"', 'name="Gatling Gun"')
    response = client.post(
        "/api/games",
        json={"scenario": "old_west.demo", "rosters": {"law": _upload(text.encode())}},
    )
    assert response.status_code == 422
    assert "rosters.law: earp_posse.ros:" in response.text and "'Gatling Gun'" in response.text
    response = client.post(
        "/api/games",
        json={"scenario": "old_west.demo", "rosters": {"law": {"name": "x.ros", "data": "%%"}}},
    )
    assert response.status_code == 422 and "not base64" in response.text
