"""kubik.api returns the JSON shapes the design fixes."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

import kubik.api as api
from kubik.api import probabilities
from kubik.core.errors import DiceAnswerError, InputError, UnknownProcedureError

MORALE = {"quality": "d8", "leadership": 2, "threat": 6}


def test_procedures_lists_name_rules_and_schema() -> None:
    listed = {p["name"]: p for p in api.procedures()}
    assert {"steel_war.morale_test", "old_west.wound"} <= set(listed)
    morale = listed["steel_war.morale_test"]
    assert "SW-MOR-05" in morale["rules"]
    assert set(morale["input_schema"]["properties"]) >= {"quality", "leadership", "threat"}
    json.dumps(api.procedures())


def test_resolve_json_shape_with_typed_dice() -> None:
    out = api.resolve("steel_war.morale_test", MORALE, dice=[6])
    assert set(out) >= {"procedure", "outcome", "rolls", "log"}
    assert out["procedure"] == "steel_war.morale_test"
    assert out["outcome"] == {"drop": 1}
    assert out["rolls"][0]["dice"] == ["d8"] and out["rolls"][0]["values"] == [6]
    assert isinstance(out["rolls"][0]["reason"], str)
    assert out["rolls"][0]["origin"] == "typed"
    json.dumps(out)


def test_resolve_with_a_seed_replays_exactly() -> None:
    first = api.resolve("old_west.wound", {"strength": 3, "toughness": 8}, seed=5)
    again = api.resolve("old_west.wound", {"strength": 3, "toughness": 8}, seed=5)
    assert first == again and first["seed"] == 5
    fresh = api.resolve("old_west.wound", {"strength": 3, "toughness": 8})
    assert isinstance(fresh["seed"], int)  # reported, so it can be replayed


def test_resolve_accepts_json_text_and_russian_dice_names() -> None:
    out = api.resolve("steel_war.morale_test", json.dumps({**MORALE, "quality": "к8"}), dice=["4"])
    assert out["outcome"] == {"drop": 2}


def test_odds_json_shape_and_exact_sum() -> None:
    out = api.odds("steel_war.morale_test", MORALE)
    assert out["procedure"] == "steel_war.morale_test" and out["exact"] is True
    assert sum(Fraction(o["probability"]) for o in out["outcomes"]) == 1
    assert len({json.dumps(o["outcome"]) for o in out["outcomes"]}) == len(out["outcomes"])
    for o in out["outcomes"]:
        assert abs(o["p"] - float(Fraction(o["probability"]))) < 1e-4
    assert out["fields"]["drop"]["values"][0]["at_least"] == "1"


def test_odds_with_simulation_reports_intervals() -> None:
    out = api.odds("steel_war.morale_test", MORALE, simulate=2000, seed=1)
    assert out["exact"] is False and out["runs"] == 2000
    assert sum(o["count"] for o in out["outcomes"]) == 2000
    for o in out["outcomes"]:
        low, high = o["interval"]
        assert low <= o["p"] <= high


def test_clear_cache_forgets_memoised_distributions() -> None:
    api.odds("old_west.wound", {"strength": 2, "toughness": 2})
    api.clear_cache()
    assert len(probabilities._CACHE) == 0


@pytest.mark.parametrize(
    ("name", "data", "dice", "error", "text"),
    [
        ("nope.x", {}, None, UnknownProcedureError, "unknown procedure"),
        (
            "steel_war.morale_test",
            {"quality": "d7", "leadership": 1, "threat": 0},
            None,
            InputError,
            "input.quality",
        ),
        (
            "steel_war.morale_test",
            {"leadership": 1, "threat": 0},
            None,
            InputError,
            "input.quality: required",
        ),
        ("steel_war.morale_test", {**MORALE, "extra": 1}, None, InputError, "input.extra: unknown"),
        (
            "steel_war.morale_test",
            {**MORALE, "leadership": 0},
            None,
            InputError,
            "input.leadership",
        ),
        ("steel_war.morale_test", "{not json", None, InputError, "not valid JSON"),
        ("steel_war.morale_test", MORALE, [], DiceAnswerError, "too few dice"),
        ("steel_war.morale_test", MORALE, [9], DiceAnswerError, "a d8 cannot show 9"),
        ("steel_war.morale_test", MORALE, [3, 3], DiceAnswerError, "too many dice"),
    ],
)
def test_bad_input_raises_one_clear_error(name, data, dice, error, text) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error, match=text) as info:
        api.resolve(name, data, dice=dice)
    assert "\n" not in str(info.value)
