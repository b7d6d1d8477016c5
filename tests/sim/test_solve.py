"""Solving for a cost (``kubik sim --solve``): bisection with sequential probes, tested on
a toy whose win rate is known exactly (red wins ``edge / 6`` of its games; ``chance`` of
them, a share with decimals; ``(faces − 3) / faces`` with a die of its own)."""

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
from kubik.sim.solve import decision_z, most_games, parse_solve
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
        parse_solve(EDGE),
        "red",
        0.42,
        0.03,
        4,
        {"red": "random", "blue": "random"},
        InProcess(),
    )
    solver.solve()
    seeds = game_seeds(4, most_games(0.03))
    for probe in solver.probes.values():
        assert [o.seed for o in probe.outcomes] == list(seeds[: probe.games])


def test_a_decimal_value_is_searched_in_its_steps(duel: Scenario) -> None:
    # red wins 0.40 at chance 0.4 and 0.50 at 0.5: the target 0.45 lies between the two,
    # found to the step the range is written in (0.1)
    found = api.sim_solve(duel, "units[r1].chance=0.1..0.9", 0.45, 0.02, seed=4, workers=1)
    solved = found["solve"]
    assert solved["values"] == {"kind": "decimal", "step": 0.1, "count": 9}
    assert solved["answer"] == {"between": [0.4, 0.5]}
    assert [p["value"] for p in solved["probes"]] == [0.1, 0.3, 0.4, 0.5, 0.9]
    for value in (0.4, 0.5):
        probe = _probe(solved, value)
        assert probe["p"] == pytest.approx(value, abs=0.05)
        low, high = probe["interval"]
        assert low <= value <= high


def test_a_step_sets_the_precision_of_the_value(duel: Scenario) -> None:
    solved = api.sim_solve(duel, "units[r1].chance=0..1/0.25", 0.6, 0.03, seed=4, workers=1)
    assert solved["solve"]["values"] == {"kind": "decimal", "step": 0.25, "count": 5}
    assert solved["solve"]["answer"] == {"between": [0.5, 0.75]}


def test_a_die_size_is_an_ordered_choice(duel: Scenario) -> None:
    # a 4+ wins 1/4 on a d4, 1/2 on a d6, 5/8 on a d8: the target 0.4 lies between d4 and d6
    solve = "units[r1].die=d4,d6,d8,d10,d12"
    solved = api.sim_solve(duel, solve, 0.4, 0.03, seed=4, workers=1)["solve"]
    assert solved["values"] == {"kind": "choice", "step": None, "count": 5}
    assert solved["answer"] == {"between": ["d4", "d6"]}
    assert _probe(solved, "d4")["p"] == pytest.approx(0.25, abs=0.08)
    assert _probe(solved, "d6")["p"] == pytest.approx(0.5, abs=0.08)


@pytest.mark.parametrize(
    ("spec", "values"),
    [
        ("a=2..5", (2, 3, 4, 5)),
        ("a=0..6/2", (0, 2, 4, 6)),
        ("a=2.5..3.0", (2.5, 2.6, 2.7, 2.8, 2.9, 3.0)),
        ("a=-1..1/0.5", (-1.0, -0.5, 0.0, 0.5, 1.0)),
        ("a=1.00..1.05", (1.0, 1.01, 1.02, 1.03, 1.04, 1.05)),
        ("a=d6, d8, d10", ("d6", "d8", "d10")),
    ],
)
def test_the_values_a_search_takes(spec: str, values: tuple[object, ...]) -> None:
    assert parse_solve(spec).values == values


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
        (
            "units[r1].chance=0..1/0.3",
            0.5,
            "--solve units[r1].chance=0..1/0.3: 0..1 is not a whole number of steps of 0.3",
        ),
        ("units[r1].chance=0..1/0", 0.5, "--solve units[r1].chance=0..1/0: the step must be"),
        ("units[r1].chance=0..1000/0.001", 0.5, "--solve units[r1].chance=0..1000/0.001: at most"),
        ("units[r1].die=d6", 0.5, "--solve units[r1].die=d6: write PATH=LOW..HIGH"),
        ("units[r1].die=d6,d6", 0.5, "--solve units[r1].die: a value is given twice"),
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


def test_kubik_sim_solve_prints_a_decimal_bracket_and_a_choice(
    duel: Scenario, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from kubik.cli.app import main

    path = tmp_path / "duel.toml"
    path.write_text(duel.text, encoding="utf-8")
    chance = ["sim", str(path), "--solve", "units[r1].chance=0..1/0.25", "--target", "0.6"]
    main([*chance, "--precision", "0.03", "--workers", "1", "--seed", "4"])
    out = capsys.readouterr().out
    assert "Bisection over steps of 0.25;" in out
    assert "Answer: between 0.5 (" in out and ") and 0.75 (" in out
    assert "found to within one step of 0.25." in out
    main([*chance, "--precision", "0.03", "--workers", "1", "--seed", "4", "--lang", "ru"])
    out = capsys.readouterr().out
    assert "Деление пополам с шагом 0,25;" in out
    assert "Ответ: между 0,5 (" in out and ") и 0,75 (" in out
    assert "с точностью до шага 0,25." in out
    die = ["sim", str(path), "--solve", "units[r1].die=d4,d6,d8", "--target", "0.4"]
    main([*die, "--precision", "0.03", "--workers", "1", "--seed", "4"])
    out = capsys.readouterr().out
    assert "Bisection over the values in the order given;" in out
    assert "Answer: between d4 (" in out and ") and d6 (" in out
    assert "neighbours in the order given." in out


def test_kubik_sim_in_russian_gives_its_time_and_rate_with_a_decimal_comma(
    duel: Scenario, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import re

    from kubik.cli.app import main

    path = tmp_path / "duel.toml"
    path.write_text(duel.text, encoding="utf-8")
    main(["sim", str(path), "--runs", "5", "--workers", "1", "--no-store", "--lang", "ru"])
    out = " ".join(capsys.readouterr().out.split())
    assert re.search(r"Партий сыграно: 5 за \d+,\d с \(.*\), \d+,\d\d парт\./с\.", out), out
