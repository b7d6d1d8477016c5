"""Solving for a cost (``kubik sim --solve``): bisection with sequential probes, tested on
a toy whose win rate is known exactly (red wins ``edge / 6`` of its games)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kubik import api
from kubik.core.errors import InputError
from kubik.game import Scenario, parse_scenario, register_ruleset, unregister_ruleset
from kubik.game.coverage import game_seeds
from kubik.sim.solve import decision_z, most_games
from tests.sim.duel import DUEL, DUEL_ID, DUEL_SCENARIO

EDGE = "units[r1].edge=0..6"


@pytest.fixture
def duel() -> Iterator[Scenario]:
    register_ruleset(DUEL, replace=True)
    yield parse_scenario(DUEL_SCENARIO, "duel.toml")
    unregister_ruleset(DUEL_ID)


def _probe(result: dict[str, Any], value: int) -> dict[str, Any]:
    return next(p for p in result["probes"] if p["value"] == value)


def test_a_target_between_two_values_is_bracketed_by_neighbours(duel: Scenario) -> None:
    # red wins 2/6 = 0.333 with edge 2 and 3/6 = 0.5 with edge 3: 0.42 lies between
    found = api.sim_solve(duel, EDGE, 0.42, 0.03, seed=4, workers=1)["solve"]
    assert found["answer"] == {"between": [2, 3]}
    assert _probe(found, 2)["verdict"] == "below"
    assert _probe(found, 3)["verdict"] == "above"
    for value, chance in ((2, 2 / 6), (3, 3 / 6)):
        assert _probe(found, value)["p"] == pytest.approx(chance, abs=0.08)
    # far from the target a probe needs few games; next to it, more
    assert _probe(found, 0)["games"] == 100 and _probe(found, 6)["games"] == 100
    assert found["games"] == sum(p["games"] for p in found["probes"])
    assert found["games"] < 5 * most_games(0.03)  # not a fixed count per probe


def test_a_value_on_the_target_is_the_answer(duel: Scenario) -> None:
    found = api.sim_solve(duel, EDGE, 0.5, 0.05, seed=4, workers=1)["solve"]
    assert found["answer"] == {"value": 3}
    at = _probe(found, 3)
    assert at["verdict"] == "at" and at["games"] == most_games(0.05)
    low, high = at["interval"]
    assert high - low <= 2 * 0.05 + 1e-9


def test_a_falling_rate_is_solved_too(duel: Scenario) -> None:
    # blue wins 1 - edge/6: 0.5 at edge 3, 0.333 at edge 4
    found = api.sim_solve(duel, EDGE, 0.42, 0.03, seed=4, side="blue", workers=1)["solve"]
    assert found["answer"] == {"between": [3, 4]}


def test_every_probe_plays_the_same_seeds(duel: Scenario) -> None:
    from kubik.sim.backends import InProcess
    from kubik.sim.solve import Solver

    solver = Solver(
        duel,
        "units[r1].edge",
        "red",
        0.42,
        0.03,
        4,
        {"red": "random", "blue": "random"},
        InProcess(),
    )
    solver.solve(0, 6)
    seeds = game_seeds(4, most_games(0.03))
    for probe in solver.probes.values():
        assert [o.seed for o in probe.outcomes] == list(seeds[: probe.games])


def test_the_decision_level_covers_every_look() -> None:
    # 2401 games at most, in 25 looks: each look at 0.05/25, two-sided
    assert decision_z(0.02) == pytest.approx(3.0902, abs=1e-4)


@pytest.mark.parametrize(
    ("solve", "target", "line"),
    [
        (
            "units[r1].edge=0..2",
            0.6,
            "--solve units[r1].edge=0..2: the target 0.6 is not between the ends",
        ),
        ("units[r1].edge", 0.5, "--solve units[r1].edge: write PATH=LOW..HIGH"),
        ("units[r1].edge=4..1", 0.5, "--solve units[r1].edge=4..1: LOW must be below HIGH"),
        ("units[r1].edge=0..6", 1.5, "--target: 1.5; allowed: a share between 0 and 1"),
        ("units[r9].edge=0..6", 0.5, "--solve units[r9]: no element with id 'r9'"),
    ],
)
def test_a_search_that_cannot_be_made_is_one_line(
    duel: Scenario, solve: str, target: float, line: str
) -> None:
    with pytest.raises(InputError) as caught:
        api.sim_solve(duel, solve, target, 0.05, seed=4, workers=1)
    assert str(caught.value).startswith(line), str(caught.value)
    assert "\n" not in str(caught.value)


def test_kubik_sim_solve_prints_the_probes_and_the_answer(
    duel: Scenario, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from kubik.cli.app import main

    path = tmp_path / "duel.toml"
    path.write_text(duel.text, encoding="utf-8")
    solve = ["sim", str(path), "--solve", EDGE, "--target", "0.42", "--precision", "0.03"]
    main([*solve, "--workers", "1", "--seed", "4"])
    out = capsys.readouterr().out
    assert "Answer: between 2 (" in out and ") and 3 (" in out
    main([*solve, "--workers", "1", "--seed", "4", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["solve"]["answer"] == {"between": [2, 3]}
    main([*solve, "--workers", "1", "--seed", "4", "--lang", "ru"])
    assert "Ответ: между 2 (" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main([*solve, "--runs", "10"])
    assert "--runs: --solve plays as many games as each value needs" in capsys.readouterr().err
