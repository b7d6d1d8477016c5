"""The statistics of a report, and one procedure's simulation checked against its exact odds."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
import pytest
from scipy import stats as scipy_stats

from kubik import api
from kubik.cli.app import main
from kubik.engine import registry
from kubik.engine.odds import default_policy
from kubik.sim.exact import simulate_procedure
from kubik.sim.stats import chi2_sf, chi_square, distribution, rate


@pytest.mark.parametrize("dof", [1, 2, 3, 7, 20, 61])
@pytest.mark.parametrize("statistic", [0.01, 0.5, 1.0, 3.84, 10.0, 35.0, 90.0])
def test_chi_square_tail_matches_scipy(statistic: float, dof: int) -> None:
    assert chi2_sf(statistic, dof) == pytest.approx(scipy_stats.chi2.sf(statistic, dof), abs=1e-9)


def test_chi_square_pools_rare_outcomes_and_tests_the_rest() -> None:
    statistic, dof, p = chi_square([50, 30, 18, 2], [50.0, 30.0, 18.0, 2.0])
    assert (statistic, dof, p) == (0.0, 2, 1.0)  # the 2 joins the 18: three categories
    _, _, far = chi_square([90, 10], [50.0, 50.0])
    assert far < 1e-10
    assert chi_square([3], [3.0]) == (0.0, 0, 1.0)


def test_rates_and_distributions_carry_95_percent_intervals() -> None:
    assert rate(0, 10)["interval"][0] == 0.0 and rate(10, 10)["interval"][1] == 1.0
    d = distribution([2, 2, 3, 5, 8])
    assert (
        d["mean"] == 4.0 and d["median"] == 3.0 and d["counts"] == {"2": 2, "3": 1, "5": 1, "8": 1}
    )
    low, high = d["interval"]
    assert 2 <= low < 4.0 < high <= 8  # kept within what was seen
    assert distribution([])["mean"] is None


@pytest.mark.parametrize(
    ("name", "inputs"),
    [
        ("old_west.wound", {"strength": 3, "toughness": 8}),
        (
            "steel_war.fire",
            {
                "quality": "d8",
                "weapons": [{"weapon": "assault_rifle", "count": 3}],
                "distance": 12,
                "cover": "light",
                "prone": False,
                "target_models": 4,
            },
        ),
    ],
)
def test_a_procedure_simulated_agrees_with_its_exact_odds(
    name: str, inputs: dict[str, Any]
) -> None:
    result = api.sim_procedure(name, inputs, runs=4000, seed=5)
    check = result["exact_check"]
    assert check["agrees"] and check["impossible"] == []
    assert check["p_value"] >= check["alpha"]
    total = sum(row["count"] for row in result["outcomes"])
    assert total == 4000
    exact = {
        json.dumps(o["outcome"], sort_keys=True): o["probability"]
        for o in api.odds(name, inputs)["outcomes"]
    }
    assert {
        json.dumps(r["outcome"], sort_keys=True): r["exact"]
        for r in result["outcomes"]
        if r["exact"] != "0"
    } == exact


def test_a_wrong_batch_form_is_caught_by_the_cross_check() -> None:
    spec = registry.get("old_west.wound")
    honest = api.sim_procedure("old_west.wound", {"strength": 3, "toughness": 8}, 3000, 2)
    assert honest["exact_check"]["agrees"] and honest["batch"] is False
    outcomes = list(api.exact_distribution("old_west.wound", {"strength": 3, "toughness": 8}))

    def evens(inp: Any, rng: np.random.Generator, n: int) -> Sequence[Hashable]:
        """A batch form that forgot the odds: every outcome equally likely."""
        return [outcomes[i] for i in rng.integers(0, len(outcomes), n)]

    broken = dataclasses.replace(spec, batch=evens)
    inp = spec.input_model.model_validate({"strength": 3, "toughness": 8})
    result = simulate_procedure(broken, inp, 3000, 2, default_policy)
    assert result["batch"] and not result["exact_check"]["agrees"]
    assert result["exact_check"]["p_value"] < 1e-6


def test_kubik_sim_on_a_procedure_says_it_cross_checked(capsys: pytest.CaptureFixture[str]) -> None:
    main(["sim", "old_west.wound", "--input", '{"strength": 4, "toughness": 4}', "--runs", "2000"])
    out = capsys.readouterr().out
    assert "Cross-checked against the exact distribution: they agree" in out
    main(
        [
            "sim",
            "old_west.wound",
            "-i",
            '{"strength": 4, "toughness": 4}',
            "--runs",
            "500",
            "--lang",
            "ru",
        ]
    )
    assert "Сверено с точным распределением: совпадает" in capsys.readouterr().out
    main(
        [
            "sim",
            "old_west.wound",
            "-i",
            '{"strength": 4, "toughness": 4}',
            "--runs",
            "300",
            "--json",
        ]
    )
    data = json.loads(capsys.readouterr().out)
    assert data["procedure"] == "old_west.wound" and data["runs"] == 300
    assert data["exact_check"]["agrees"] is True


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["sim", "old_west.wound", "--runs", "10"],
            "'old_west.wound' is a procedure; give its --input",
        ),
        (
            ["sim", "old_west.wound", "-i", "{}", "--runs", "10"],
            "input.strength: required field is missing",
        ),
        (
            [
                "sim",
                "old_west.wound",
                "-i",
                '{"strength": 4, "toughness": 4}',
                "--runs",
                "10",
                "--workers",
                "2",
            ],
            "--workers: a procedure is simulated in this process",
        ),
        (
            ["sim", "old_west.wound", "-i", '{"strength": 4, "toughness": 4}', "--runs", "0"],
            "--runs: 0",
        ),
    ],
)
def test_bad_procedure_input_is_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as code:
        main(argv)
    assert code.value.code != 0
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
