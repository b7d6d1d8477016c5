"""Every built-in scenario reads, is playable, and says what it is in both languages."""

from __future__ import annotations

import pytest

from kubik.game import ScenarioInfo, ScenarioSource, list_scenarios, load_scenario

BUILT_IN = [info for info in list_scenarios() if info.source is ScenarioSource.BUILT_IN]


def test_every_ruleset_with_a_game_ships_its_demo() -> None:
    ids = {info.id for info in BUILT_IN}
    assert {"steel_war.demo", "old_west.demo"} <= ids


@pytest.mark.parametrize("info", BUILT_IN, ids=lambda info: info.path)
def test_a_built_in_scenario_loads_and_is_described_in_english_and_russian(
    info: ScenarioInfo,
) -> None:
    assert info.error is None, info.error
    scenario = load_scenario(info.id)  # the full load: the ruleset checks it can play it
    assert scenario.ruleset == info.ruleset and info.id.startswith(f"{info.ruleset}.")
    assert scenario.name and scenario.model.scenario.name_ru
    assert scenario.description and scenario.model.scenario.description_ru
