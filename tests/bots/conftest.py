"""Fixtures of the bot tests: the toy duel and its forecast variant are playable."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kubik.game import Scenario, parse_scenario, register_ruleset, unregister_ruleset
from tests.bots.forecast_toy import FORECAST_GAME, FORECAST_ID, FORECAST_SCENARIO
from tests.game.toy import GAME, SCENARIO, TOY_ID


@pytest.fixture(autouse=True)
def toy_rulesets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Both toy rulesets are registered, and KUBIK_HOME points at a fresh directory."""
    monkeypatch.setenv("KUBIK_HOME", str(tmp_path / "home"))
    register_ruleset(GAME, replace=True)
    register_ruleset(FORECAST_GAME, replace=True)
    yield
    unregister_ruleset(TOY_ID)
    unregister_ruleset(FORECAST_ID)


@pytest.fixture
def duel() -> Scenario:
    """The toy duel (no forecasts)."""
    return parse_scenario(SCENARIO, "duel.toml")


@pytest.fixture
def forecast_duel() -> Scenario:
    """The toy duel whose stances carry forecasts."""
    return parse_scenario(FORECAST_SCENARIO, "forecast_duel.toml")
