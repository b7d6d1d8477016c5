"""The cycle collector paced for heavy work: set while exact odds are worked out, put
back after, and no answer depends on it."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from kubik import api
from kubik.core.collector import HEAVY_WORK_GC_THRESHOLD, fewer_collections


def test_fewer_collections_sets_the_young_threshold_and_puts_it_back() -> None:
    before = gc.get_threshold()
    with fewer_collections():
        assert gc.get_threshold() == (max(HEAVY_WORK_GC_THRESHOLD, before[0]), *before[1:])
        with fewer_collections():  # nested: the outer pace stays
            assert gc.get_threshold()[0] == max(HEAVY_WORK_GC_THRESHOLD, before[0])
        assert gc.get_threshold()[0] == max(HEAVY_WORK_GC_THRESHOLD, before[0])
    assert gc.get_threshold() == before


def test_exact_odds_are_worked_out_with_fewer_collections_and_the_same_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from kubik.engine import registry
    from kubik.engine.odds import OddsDriver

    question = {
        "attacks": 12,
        "weapon_skill": 4,
        "strength": 4,
        "target_weapon_skill": 3,
        "target_toughness": 3,
    }
    before = gc.get_threshold()
    paces: list[int] = []
    counted = OddsDriver.counted

    def watched(self: OddsDriver, *args: Any) -> Any:
        paces.append(gc.get_threshold()[0])
        return counted(self, *args)

    monkeypatch.setattr(OddsDriver, "counted", watched)
    api.probabilities.clear_cache()
    paced = api.odds("fantasy.attacks", question)
    assert paces and set(paces) == {max(HEAVY_WORK_GC_THRESHOLD, before[0])}
    assert gc.get_threshold() == before
    spec = registry.get("fantasy.attacks")
    plain = OddsDriver().distribution(spec.function, (spec.input_model.model_validate(question),))
    assert sorted(row["probability"] for row in paced["outcomes"]) == sorted(
        f"{p.numerator}/{p.denominator}" for p in plain.values()
    )
