"""Checks every registered procedure with decisions must pass under the optimal policy.

On each registered example that asks a decision: the procedure declares a goal for
every deciding side; the optimal policy's distribution and values equal the flat
brute force (tests/optimal_oracle.py); ``explain`` lists its decisions with text in
English and Russian (no message id left unrendered).
"""

from __future__ import annotations

from typing import Any

import pytest

import kubik.api as api
from kubik.engine import OddsCache, OddsDriver
from kubik.engine.objectives import objectives_for
from kubik.engine.optimal import Optimal
from kubik.engine.registry import ProcedureSpec, all_specs
from kubik.text.i18n import catalogue
from tests.optimal_oracle import as_worths, brute_optimal


def _with_decisions() -> list[Any]:
    cases = []
    for spec in all_specs():
        for index, example in enumerate(spec.examples):
            inp = spec.input_model.model_validate(example)
            if OddsDriver(cache=OddsCache()).has_decisions(spec.function, (inp,)):
                cases.append(pytest.param(spec, example, id=f"{spec.name}[{index}]"))
    return cases


CASES = _with_decisions()


def test_some_procedures_have_decisions() -> None:
    names = {case.values[0].name for case in CASES}
    assert {"old_west.fight", "old_west.wound", "steel_war.psi_blast"} <= names


@pytest.mark.parametrize(("spec", "example"), CASES)
def test_optimal_policy_matches_brute_force(spec: ProcedureSpec, example: dict[str, Any]) -> None:
    inp = spec.input_model.model_validate(example)
    goals = objectives_for(spec.function, (inp,))
    assert goals, f"{spec.name} asks decisions but declares no goals"
    sides, node = Optimal().solution(spec.function, (inp,), OddsCache())
    dist, value, cost = brute_optimal(spec.function, (inp,), as_worths(goals))
    assert node.dist == dist
    n = len(sides)
    assert {s: node.value[i] for i, s in enumerate(sides)} == value
    assert {s: node.value[n + i] for i, s in enumerate(sides)} == cost


@pytest.mark.parametrize(("spec", "example"), CASES)
def test_explain_reads_in_english_and_russian(spec: ProcedureSpec, example: dict[str, Any]) -> None:
    for lang in ("en", "ru"):
        out = api.odds(spec.name, example, policy="optimal", explain=True, lang=lang)
        assert out["explain"], spec.name
        for row in out["explain"]:
            assert row["situation_id"] in catalogue(lang), (lang, row["situation_id"])
            assert row["situation"] and "{" not in row["situation"]
            assert all(c["label"] for c in row["choice"])
        for goal in out["objectives"].values():
            assert "goal." not in goal["goal"]
