"""Shared by the agents tests: the built-in scenarios (with a guard on their count), a
fresh KUBIK_HOME, and the ``slow`` mark (whole games of every scenario: ``make test``
runs them; ``pytest -m "not slow"`` leaves them out while working)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kubik.game import ScenarioSource, get_ruleset, known_rulesets, list_scenarios

#: Rulesets that can be played today; a new one joins by registering its adapter.
EXPECTED_RULESETS = {"apocalypse", "fantasy", "old_west", "steel_war"}


def _playable() -> list[str]:
    found = []
    for ruleset in known_rulesets():
        try:
            get_ruleset(ruleset)
        except LookupError:
            continue  # a ruleset with rules but no battles yet
        found.append(ruleset)
    return sorted(found)


RULESETS = _playable()
SCENARIOS = sorted(
    info.id
    for info in list_scenarios()
    if info.source is ScenarioSource.BUILT_IN and info.ruleset in RULESETS
)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: whole games of every scenario (tens of seconds)")


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("KUBIK_HOME", str(tmp_path / "home"))
    yield
