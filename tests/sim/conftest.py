"""Fixtures of the simulation tests: the toy skirmish (fast games with per-unit results),
an isolated data directory, and one local Ray shared by every Ray test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kubik.game import Scenario, parse_scenario, register_ruleset, unregister_ruleset
from tests.game.skirmish import GAME, SCENARIO, SKIRMISH_ID


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test keeps its stores in its own data directory."""
    folder = tmp_path / "home"
    monkeypatch.setenv("KUBIK_HOME", str(folder))
    return folder


@pytest.fixture
def skirmish() -> Iterator[Scenario]:
    """The toy skirmish (a ruleset on the battle layer that credits its kills)."""
    register_ruleset(GAME, replace=True)
    yield parse_scenario(SCENARIO, "skirmish.toml")
    unregister_ruleset(SKIRMISH_ID)


@pytest.fixture(scope="session")
def ray_local() -> Iterator[Any]:
    """A local Ray of 2 CPUs, started once for every test that needs it."""
    try:
        import ray
    except ImportError as error:
        pytest.skip(
            f"Ray cannot be installed on this platform ({error}); "
            "where it can, pip install 'kubik[ray]' runs these tests"
        )
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    if started:
        ray.shutdown()
