"""Simulated battles: the report, per-unit statistics, the same results however the games
are split, resuming an interrupted sweep, stores, exports and plots."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from kubik import api
from kubik.core.errors import InputError
from kubik.engine.requests import Message, msg
from kubik.game import Scenario
from kubik.sim import (
    GameOutcome,
    GameTask,
    InProcess,
    LocalProcesses,
    SimError,
    SimJob,
    SimStore,
    build_job,
    simulate_battles,
)
from kubik.sim.plot import write_plot
from kubik.sim.store import export_csv, export_parquet, rows
from kubik.sim.vary import parse_parameter
from tests.bots.cli_harness import toy_home  # noqa: F401 (a fixture)


def _bots(scenario: Scenario, bot: str = "heuristic") -> dict[str, str]:
    return dict.fromkeys(scenario.side_ids, bot)


def _without_run(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k != "run"}


@dataclass
class Recording:
    """A backend that plays in this process and remembers what it was asked to play."""

    asked: list[GameTask] = field(default_factory=list)

    @property
    def workers(self) -> int:
        return 1

    def describe(self) -> Message:
        return msg("sim.backend.this_process")

    def run(self, job: SimJob, tasks: Sequence[GameTask]) -> Iterator[GameOutcome]:
        self.asked.extend(tasks)
        yield from InProcess().run(job, tasks)


def test_a_simulation_reports_rates_turns_losses_and_units(skirmish: Scenario) -> None:
    result = simulate_battles(skirmish, 12, 7, _bots(skirmish), InProcess(), store=False)
    report = result.to_json()
    assert {"scenario", "runs", "wins", "draws", "win_rate"} <= set(report)
    assert report["scenario"] == "toy_skirmish.demo" and report["runs"] == 12
    assert sum(report["wins"].values()) + report["draws"] == 12
    for side, (low, high) in report["win_rate"].items():
        assert 0 <= low <= report["wins"][side] / 12 <= high <= 1
    assert report["per_unit"] == "battle"
    units = report["units"]
    assert list(units) == ["r1", "r2", "b1", "b2"]
    assert all(u["models"] == 1 for u in units.values())
    # every loss in the toy is somebody's kill: the means add up side against side
    red_kills = sum(units[u]["kills"]["mean"] for u in ("r1", "r2"))
    blue_lost = sum(units[u]["lost"]["mean"] for u in ("b1", "b2"))
    assert red_kills == pytest.approx(blue_lost)
    assert report["losses"]["blue"]["mean"] == pytest.approx(blue_lost)
    assert sum(report["turns"]["counts"].values()) == 12
    assert report["run"]["played"] == 12 and report["run"]["store"] is None


def test_a_ruleset_not_on_the_battle_layer_reports_side_counts_only(
    toy_home: Path,  # noqa: F811
) -> None:
    """The toy duel is a plain turn loop (no pieces): its report has the summary's
    counts per side and no per-unit statistics; old_west.demo, on the layer, has both."""
    report = api.sim("toy_duel.demo", 2, 3, bot="default", workers=1, store=False)
    assert report["per_unit"] == "summary" and report["units"] is None
    assert set(report["counts"]) == {"steel", "lianra"}
    assert "units_left" in report["counts"]["steel"]
    battle = api.sim("old_west.demo", 2, 3, bot="default", workers=1, store=False)
    assert battle["per_unit"] == "battle" and battle["units"]
    assert set(battle["losses"]) == {"law", "outlaws"}


def test_more_runs_only_add_games(skirmish: Scenario) -> None:
    few = simulate_battles(skirmish, 4, 2, _bots(skirmish), InProcess(), store=False)
    more = simulate_battles(skirmish, 7, 2, _bots(skirmish), InProcess(), store=False)
    assert more.outcomes[:4] == few.outcomes


def test_one_process_and_two_give_the_same_results(skirmish: Scenario) -> None:
    sweep = ["end.turn_limit=3,8"]
    one = simulate_battles(skirmish, 6, 11, _bots(skirmish), InProcess(), vary=sweep, store=False)
    two = simulate_battles(
        skirmish, 6, 11, _bots(skirmish), LocalProcesses(2), vary=sweep, store=False
    )
    assert two.run.played == 12 and two.run.workers == 2
    assert one.outcomes == two.outcomes
    assert one.report == two.report


def test_an_interrupted_sweep_resumes_without_redoing_or_losing_games(
    skirmish: Scenario, tmp_path: Path
) -> None:
    store = tmp_path / "sweep.sqlite3"
    sweep = ["units[r1].x=3,6", "end.turn_limit=4,8"]
    stop_after = 9

    def interrupt(done: int, total: int) -> None:
        if done >= stop_after:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate_battles(
            skirmish,
            8,
            5,
            _bots(skirmish),
            LocalProcesses(2),
            vary=sweep,
            store=store,
            progress=interrupt,
        )
    job = build_job(skirmish, 5, _bots(skirmish), [parse_parameter(v) for v in sweep])
    kept = SimStore(store, job)
    stored = kept.done()
    kept.close()
    assert len(stored) >= stop_after  # nothing that finished was lost

    again = Recording()
    resumed = simulate_battles(skirmish, 8, 5, _bots(skirmish), again, vary=sweep, store=store)
    asked = {(t.cell, t.game) for t in again.asked}
    assert not asked & stored  # nothing redone
    assert len(asked) + len(stored) == 32 and len(again.asked) == len(asked)
    assert resumed.run.resumed == len(stored) and resumed.run.played == len(asked)

    whole = simulate_battles(skirmish, 8, 5, _bots(skirmish), InProcess(), vary=sweep, store=False)
    assert resumed.outcomes == whole.outcomes
    assert resumed.report == whole.report

    third = Recording()
    simulate_battles(skirmish, 8, 5, _bots(skirmish), third, vary=sweep, store=store)
    assert third.asked == []  # all there: nothing to play


def test_a_store_keeps_to_its_own_job(skirmish: Scenario, tmp_path: Path) -> None:
    path = tmp_path / "one.sqlite3"
    simulate_battles(skirmish, 3, 1, _bots(skirmish), InProcess(), store=path)
    with pytest.raises(SimError, match="holds another simulation \\(its seed differ"):
        simulate_battles(skirmish, 3, 2, _bots(skirmish), InProcess(), store=path)
    fresh = Recording()
    simulate_battles(skirmish, 3, 2, _bots(skirmish), fresh, store=path, fresh=True)
    assert len(fresh.asked) == 3
    default = simulate_battles(skirmish, 2, 1, _bots(skirmish), InProcess())
    assert default.run.store is not None and default.run.store.parent.name == "sims"


def test_exports_hold_a_row_per_game(skirmish: Scenario, tmp_path: Path) -> None:
    result = simulate_battles(
        skirmish, 3, 4, _bots(skirmish), InProcess(), vary=["end.turn_limit=2,6"], store=False
    )
    table = rows(result.job, result.outcomes)
    export_csv(tmp_path / "games.csv", table)
    with open(tmp_path / "games.csv", encoding="utf-8") as handle:
        read = list(csv.DictReader(handle))
    assert len(read) == 6
    assert read[0]["end.turn_limit"] == "2" and read[5]["end.turn_limit"] == "6"
    assert {"cell", "game", "seed", "winner", "turns", "unit.r1.kills", "unit.b2.lost"} <= set(
        read[0]
    )
    assert [int(r["seed"]) for r in read[:3]] == [o.seed for o in result.outcomes[:3]]
    pq = pytest.importorskip("pyarrow.parquet")
    export_parquet(tmp_path / "games.parquet", table)
    parquet = pq.read_table(tmp_path / "games.parquet").to_pylist()
    assert len(parquet) == 6 and parquet[4]["unit.r1.kills"] == table[4]["unit.r1.kills"]
    with pytest.raises(InputError, match="--csv: cannot write"):
        export_csv(tmp_path / "no" / "such" / "dir.csv", table)


def _png(path: Path) -> bool:
    return path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10_000


def test_plots_of_a_run_a_sweep_and_a_heatmap(skirmish: Scenario, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    rosters = tmp_path / "red.toml"
    rosters.write_text(
        'side = "red"\n'
        '[[rosters]]\nid = "near"\n[[rosters.units]]\nid = "r1"\nx = 8\ny = 8\n'
        '[[rosters]]\nid = "far"\n[[rosters.units]]\nid = "r1"\nx = 2\ny = 2\n'
        '[[rosters.units]]\nid = "r2"\nx = 2\ny = 6\n',
        encoding="utf-8",
    )
    single = simulate_battles(skirmish, 4, 1, _bots(skirmish), InProcess(), store=False)
    write_plot(tmp_path / "one.png", single.to_json())
    sweep = simulate_battles(
        skirmish, 3, 1, _bots(skirmish), InProcess(), vary=["end.turn_limit=2,6"], store=False
    )
    write_plot(tmp_path / "sweep.png", sweep.to_json())
    vs = simulate_battles(
        skirmish,
        3,
        1,
        _bots(skirmish),
        InProcess(),
        vary=["end.turn_limit=2,6"],
        vs=[rosters],
        store=False,
    )
    report = vs.to_json()
    assert report["sweep"] == {"vary": ["end.turn_limit"], "vs": {"red": ["near", "far"]}}
    assert [c["label"] for c in report["cells"]][:2] == [
        {"end.turn_limit": "2", "vs.red": "near"},
        {"end.turn_limit": "2", "vs.red": "far"},
    ]
    assert list(report["cells"][0]["units"]) == ["r1", "b1", "b2"]
    write_plot(tmp_path / "vs.png", report)
    assert all(_png(tmp_path / name) for name in ("one.png", "sweep.png", "vs.png"))


def test_kubik_sim_prints_the_contracts_json_and_a_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from kubik.cli.app import main

    main(["sim", "old_west.demo", "--runs", "2", "--bot", "default", "--workers", "1", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["scenario"] == "old_west.demo" and data["runs"] == 2
    assert set(data["wins"]) == {"law", "outlaws"} and isinstance(data["draws"], int)
    assert all(len(pair) == 2 for pair in data["win_rate"].values())
    main(
        [
            "sim",
            "old_west.demo",
            "--runs",
            "2",
            "--bot",
            "default",
            "--workers",
            "1",
            "--lang",
            "ru",
        ]
    )
    out = capsys.readouterr().out
    assert "Итоги (95-процентные интервалы)" in out
    assert "Ещё партий взято из прошлого запуска: 2." in out  # the same job, resumed from its store
    assert "Статистики по отрядам нет" not in out  # Old West is on the battle layer


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--runs", "0"], "--runs: 0; allowed: 1 to 100000"),
        (["--runs", "2", "--workers", "0"], "--workers: 0; allowed: a whole number 1 or more"),
        (["--runs", "2", "--bot", "clever"], "bot: unknown bot 'clever'"),
        (["--runs", "2", "--side", "law=human"], "--side law=human: kubik sim plays bots only"),
        (["--runs", "2", "--vary", "units[nobody].fight=3"], "no element with id 'nobody'"),
        (["--runs", "2", "--vs", "nowhere.toml"], "--vs: file 'nowhere.toml' does not exist"),
        (["--runs", "2", "--no-store", "--fresh"], "--no-store: keeps nothing"),
        (["--runs", "2", "--policy", "best_response"], "--policy: only for a procedure"),
        (["--runs", "2", "--seed", "-1"], "--seed: -1; allowed: a whole number 0 or more"),
    ],
)
def test_bad_input_is_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from kubik.cli.app import main

    with pytest.raises(SystemExit) as code:
        main(["sim", "old_west.demo", *argv])
    assert code.value.code != 0
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err


def test_an_unknown_scenario_suggests_one(capsys: pytest.CaptureFixture[str]) -> None:
    from kubik.cli.app import main

    with pytest.raises(SystemExit):
        main(["sim", "old_west.dem", "--runs", "2"])
    assert "did you mean old_west.demo" in capsys.readouterr().err


def test_the_same_seed_gives_the_same_results_on_ray(ray_local: Any) -> None:
    scenario = "old_west.demo"
    one = api.sim_battles(scenario, 3, 9, workers=1, store=False)
    two = api.sim_battles(scenario, 3, 9, workers=2, store=False)
    on_ray = api.sim_battles(scenario, 3, 9, ray="local", store=False)
    assert on_ray.run.workers == 2 and "Ray" in on_ray.to_json()["run"]["backend"]
    assert one.outcomes == two.outcomes == on_ray.outcomes
    assert (
        _without_run(one.to_json()) == _without_run(two.to_json()) == _without_run(on_ray.to_json())
    )


def test_a_ray_sweep_streams_into_the_store_and_resumes(ray_local: Any, tmp_path: Path) -> None:
    store = tmp_path / "ray.sqlite3"
    first = api.sim_battles(
        "old_west.demo", 2, 4, bot="default", ray="local", vary=["end.turn_limit=3,5"], store=store
    )
    assert first.run.played == 4
    again = api.sim_battles(
        "old_west.demo", 3, 4, bot="default", ray="local", vary=["end.turn_limit=3,5"], store=store
    )
    assert (again.run.resumed, again.run.played) == (4, 2)
    assert again.outcomes[:2] == first.outcomes[:2]


@pytest.mark.parametrize(
    ("kind", "error", "message"),
    [
        ("die", SimError, "a worker process died"),
        ("fail", RuntimeError, "a bug in the toy's second turn"),
    ],
)
def test_a_worker_that_dies_or_fails_stops_the_run_with_its_reason(
    kind: str, error: type[Exception], message: str
) -> None:
    from kubik.game import parse_scenario, register_ruleset, unregister_ruleset
    from tests.game.skirmish import SCENARIO
    from tests.sim.crashing import CRASH, CRASH_ID

    text = SCENARIO.replace('ruleset = "toy_skirmish"', f'ruleset = "{CRASH_ID}"')
    text = text.replace("[table]", f'[options]\ncrash = "{kind}"\n\n[table]')
    register_ruleset(CRASH, replace=True)
    try:
        scenario = parse_scenario(text, "crash.toml")
        with pytest.raises(error, match=message):
            simulate_battles(scenario, 4, 1, _bots(scenario), LocalProcesses(2), store=False)
    finally:
        unregister_ruleset(CRASH_ID)
