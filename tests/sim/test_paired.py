"""Paired comparisons: a sweep's cells play the same seeds, and each cell's difference from
a baseline cell comes with the 95% interval of its game-by-game differences; distributions
give percentiles, not only means."""

from __future__ import annotations

import math
import statistics
from pathlib import Path

import numpy as np
import pytest

from kubik import api
from kubik.core.errors import InputError
from kubik.game import Scenario

SWEEP = ["end.turn_limit=8,2,4"]


def _by_hand(cell: list[float], base: list[float]) -> tuple[float, float, float]:
    diffs = [a - b for a, b in zip(cell, base, strict=True)]
    mean = statistics.fmean(diffs)
    half = 1.959964 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    return mean, mean - half, mean + half


def test_each_cell_is_compared_game_by_game_with_the_baseline(skirmish: Scenario) -> None:
    result = api.sim_battles(skirmish, 40, 3, workers=1, vary=SWEEP, store=False)
    cells = result.report["cells"]
    assert cells[0]["paired"] is None
    assert result.report["sweep"]["baseline"] == {"cell": 0, "label": {"end.turn_limit": "8"}}
    games = {
        c: sorted((o for o in result.outcomes if o.cell == c), key=lambda o: o.game)
        for c in range(3)
    }
    assert [o.seed for o in games[0]] == [o.seed for o in games[1]]  # the same seeds
    for index in (1, 2):
        paired = cells[index]["paired"]
        for side in ("red", "blue", None):
            mine = [float(o.winner == side) for o in games[index]]
            base = [float(o.winner == side) for o in games[0]]
            mean, low, high = _by_hand(mine, base)
            got = paired["win_rate"][side] if side else paired["draw_rate"]
            assert got["difference"] == pytest.approx(mean, abs=1e-6)
            assert got["interval"] == pytest.approx([low, high], abs=1e-5)
            assert got["pairs"] == 40
        mean, low, high = _by_hand([o.turns for o in games[index]], [o.turns for o in games[0]])
        assert paired["turns"]["difference"] == pytest.approx(mean, abs=1e-6)
    # two turns instead of eight: the games end sooner, and the interval says so
    assert cells[1]["paired"]["turns"]["interval"][1] < 0


def test_another_baseline_turns_the_differences_round(skirmish: Scenario) -> None:
    first = api.sim_battles(skirmish, 20, 3, workers=1, vary=SWEEP, store=False)
    second = api.sim_battles(skirmish, 20, 3, workers=1, vary=SWEEP, store=False, baseline=1)
    there = first.report["cells"][1]["paired"]["turns"]["difference"]
    back = second.report["cells"][0]["paired"]["turns"]["difference"]
    assert back == pytest.approx(-there)
    assert second.report["cells"][1]["paired"] is None
    with pytest.raises(InputError, match=r"^--baseline: 3; allowed: a cell of the sweep, 0 to 2$"):
        api.sim_battles(skirmish, 2, 3, workers=1, vary=SWEEP, store=False, baseline=3)


def test_turns_and_losses_have_percentiles(skirmish: Scenario) -> None:
    result = api.sim_battles(skirmish, 30, 4, workers=1, store=False)
    turns = [o.turns for o in result.outcomes]
    shares = result.report["turns"]["percentiles"]
    expected = np.percentile(turns, [10, 25, 50, 75, 90])
    assert list(shares.values()) == pytest.approx(list(expected))
    for side in ("red", "blue"):
        assert set(result.report["losses"][side]["percentiles"]) == {
            "p10",
            "p25",
            "p50",
            "p75",
            "p90",
        }


def test_kubik_sim_prints_the_paired_table(
    skirmish: Scenario, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from kubik.cli.app import main

    path = tmp_path / "skirmish.toml"
    path.write_text(skirmish.text, encoding="utf-8")
    main(["sim", str(path), "--runs", "6", "--workers", "1", "--no-store", "--vary", SWEEP[0]])
    out = capsys.readouterr().out
    assert "game by game on the same seeds" in out
    assert "Δ turns" in out
    main(["sim", str(path), "--runs", "6", "--workers", "1", "--no-store", "--lang", "ru"])
    assert "Ходы по процентилям: 10 %" in capsys.readouterr().out


def test_kubik_sim_in_russian_writes_every_figure_with_a_decimal_comma(
    skirmish: Scenario,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Percents, means, intervals and paired differences alike: ``41,7% [19,3%; 68,0%]``.
    An interval's ends are parted by a semicolon, as the comma is the decimal sign."""
    import re

    from kubik.cli.app import main

    path = tmp_path / "skirmish.toml"
    path.write_text(skirmish.text, encoding="utf-8")
    monkeypatch.setenv("COLUMNS", "240")  # no interval wrapped across lines
    command = ["sim", str(path), "--runs", "6", "--workers", "1", "--no-store"]
    main([*command, "--vary", SWEEP[0]])
    english = capsys.readouterr().out
    main([*command, "--vary", SWEEP[0], "--lang", "ru"])
    russian = capsys.readouterr().out
    assert re.search(r"\d\.\d", english)
    assert not re.search(r"\d\.\d", russian), russian
    assert re.search(r"\[\d+,\d%; \d+,\d%\]", russian)
    assert re.search(r"\[[+-]\d+,\d; [+-]\d+,\d\]", russian)
