"""Bot robustness: the same job under each bot, and the conclusions that flip with it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kubik import api
from kubik.core.errors import InputError
from kubik.game import Scenario, parse_scenario, register_ruleset, unregister_ruleset
from kubik.sim.robustness import compare_bots, flag
from tests.sim.duel import DUEL, DUEL_ID, DUEL_SCENARIO


@pytest.fixture
def duel() -> Iterator[Scenario]:
    register_ruleset(DUEL, replace=True)
    yield parse_scenario(DUEL_SCENARIO, "duel.toml")
    unregister_ruleset(DUEL_ID)


def _sweep(red_difference: list[float]) -> dict[str, Any]:
    """A sweep report of two cells: red's paired difference is given by its interval."""
    return {
        "wins": {"red": 0, "blue": 0},
        "cells": [
            {"label": {"x": "1"}, "paired": None},
            {
                "label": {"x": "2"},
                "paired": {
                    "win_rate": {
                        "red": {"difference": sum(red_difference) / 2, "interval": red_difference},
                        "blue": {"difference": 0.0, "interval": [-0.1, 0.1]},
                    }
                },
            },
        ],
    }


def test_a_conclusion_that_changes_sign_with_the_bot_is_flagged() -> None:
    rows = compare_bots({"heuristic": _sweep([0.05, 0.15]), "random": _sweep([-0.2, -0.02])})
    red = next(r for r in rows if r["side"] == "red")
    assert red["bots"]["heuristic"]["conclusion"] == "up"
    assert red["bots"]["random"]["conclusion"] == "down"
    assert red["flag"] == "flips"
    blue = next(r for r in rows if r["side"] == "blue")
    assert blue["flag"] == "unclear"
    assert flag(["up", "unclear"]) == "depends" and flag(["down", "down"]) == "holds"


def test_the_same_sweep_under_each_bot(duel: Scenario) -> None:
    # the duel has no decision to make: every bot plays the same games, so every
    # conclusion holds (or is unclear) under both
    result = api.sim_bots(duel, 60, 2, workers=1, vary=["units[r1].edge=1,5"], store=False)
    assert result["bots"] == ["heuristic", "random"]
    assert set(result["reports"]) == {"heuristic", "random"}
    heuristic, random = (result["reports"][b]["cells"] for b in ("heuristic", "random"))
    assert [c["wins"] for c in heuristic] == [c["wins"] for c in random]  # same seeds
    red = next(r for r in result["conclusions"] if r["side"] == "red")
    assert red["label"] == {"units[r1].edge": "5"}
    assert red["bots"]["heuristic"]["conclusion"] == "up"  # 1/6 → 5/6
    assert red["flag"] == "holds"


def test_without_a_sweep_the_question_is_who_wins_more_than_half(duel: Scenario) -> None:
    result = api.sim_bots(duel, 60, 2, workers=1, bots="heuristic,default", store=False)
    assert [r["side"] for r in result["conclusions"]] == ["red", "blue"]
    assert {r["flag"] for r in result["conclusions"]} <= {"holds", "unclear"}


def test_kubik_sim_bots_prints_the_conclusions_side_by_side(
    duel: Scenario, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from kubik.cli.app import main

    path = tmp_path / "duel.toml"
    path.write_text(duel.text, encoding="utf-8")
    argv = ["sim", str(path), "--runs", "40", "--workers", "1", "--no-store"]
    main([*argv, "--vary", "units[r1].edge=1,5", "--bots", "heuristic,random"])
    out = capsys.readouterr().out
    assert "under each bot" in out and "holds" in out
    assert "0 conclusions flip with the bot." in out
    main([*argv, "--bots", "heuristic,random", "--json"])
    assert json.loads(capsys.readouterr().out)["bots"] == ["heuristic", "random"]


@pytest.mark.parametrize(
    ("bots", "line"),
    [
        ("heuristic", "--bots: give two or more different bots"),
        ("heuristic,heuristic", "--bots: give two or more different bots"),
        ("heuristic,clever", "--bots: unknown bot 'clever'"),
    ],
)
def test_bad_bots_are_one_line(duel: Scenario, bots: str, line: str) -> None:
    with pytest.raises(InputError, match=f"^{line}"):
        api.sim_bots(duel, 2, 2, workers=1, bots=bots, store=False)
