"""Fixtures of the game-layer tests: the toy ruleset is registered for every test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kubik.game import Scenario, parse_scenario, register_ruleset, unregister_ruleset
from tests.game.toy import GAME, SCENARIO, TOY_ID


@pytest.fixture(autouse=True)
def toy_ruleset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy duel is playable, and KUBIK_HOME points at a fresh directory."""
    monkeypatch.setenv("KUBIK_HOME", str(tmp_path / "home"))
    register_ruleset(GAME, replace=True)
    yield
    unregister_ruleset(TOY_ID)


@pytest.fixture
def duel() -> Scenario:
    """The toy duel scenario."""
    return parse_scenario(SCENARIO, "duel.toml")
