"""``kubik coverage``: in-process on the toy ruleset with its catalogue, and once as a
subprocess on a built-in scenario."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

import pytest

import kubik.api as api
from kubik.game import load_scenario, register_ruleset, unregister_ruleset
from kubik.game.coverage import MAX_RUNS
from kubik.game.rule_catalogue import load_rule_catalogue
from tests.bots.cli_harness import Done, one_line_error, run_kubik
from tests.game.rules_toy import GAME, SCENARIO, TOY_RULES_ID, TYPO_SCENARIO


class Kubik(Protocol):
    def __call__(self, *args: str) -> Done: ...


@pytest.fixture
def kubik(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Iterator[Kubik]:
    """``kubik ARGS`` in-process, with the rules toy's scenarios as the user's own."""
    home = tmp_path / "home"
    monkeypatch.setenv("KUBIK_HOME", str(home))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "200")
    (home / "scenarios").mkdir(parents=True)
    (home / "scenarios" / "rules_toy.toml").write_text(SCENARIO, encoding="utf-8")
    (home / "scenarios" / "rules_typo.toml").write_text(TYPO_SCENARIO, encoding="utf-8")
    register_ruleset(GAME, replace=True)
    yield lambda *args: run_kubik(capsys, monkeypatch, *args)
    unregister_ruleset(TOY_RULES_ID)


def test_json_is_the_api_dict_and_the_same_for_the_same_seed(kubik: Kubik) -> None:
    args = ("coverage", "toy_rules.demo", "--runs", "6", "--seed", "4", "--bot", "random")
    first = kubik(*args, "--json")
    assert first.code == 0, first.err
    assert first.err == ""  # no progress bar with --json
    data = json.loads(first.out)
    assert data == api.coverage([load_scenario("toy_rules.demo")], 6, 4, bot="random")
    assert kubik(*args, "--json").out == first.out
    assert {"scenarios", "runs", "rules", "never"} <= data.keys()
    assert data["rules"]["TR-SHOT-01"] == 6 and "TR-NEVER-01" in data["never"]


def test_the_report_for_people_in_english_and_russian(kubik: Kubik) -> None:
    args = ("coverage", "toy_rules.demo", "toy_rules.typo", "--runs", "3", "--bot", "random")
    en = kubik(*args)
    assert en.code == 0, en.err
    assert "Rules duel (toy_rules): rules applied in 6 games" in en.out
    assert "TR-SHOT-01" in en.out and "6/6" in en.out and "A shot" in en.out
    assert "Never applied, though a battle can apply them (2):\n  TR-START-01" in en.out
    assert "only narrates (1):\n  TR-START-01  The duel begins: in 6 games" in en.out
    assert "Cannot arise in a battle (1):" in en.out
    assert "TR-SETUP-01  Hit points before the duel: Set by the scenario before the duel." in en.out
    assert "a mistyped rule ID is a bug (1):\n  TR-TYPO-99  in 3 games" in en.out
    ru = kubik(*args, "--lang", "ru")
    assert ru.code == 0, ru.err
    assert "Дуэль по правилам (toy_rules): правила, применённые в 6 партиях" in ru.out
    assert "Выстрел" in ru.out and "по 3 партии на сценарий" in ru.out
    assert "TR-SETUP-01  Очки здоровья до дуэли: Задаются сценарием до дуэли." in ru.out
    assert "TR-TYPO-99  в 3 партиях" in ru.out
    assert "только упоминает (1):\n  TR-START-01  Начало дуэли: в 6 партиях" in ru.out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--runs", "0"), f"--runs: 0; allowed: 1 to {MAX_RUNS} games per scenario"),
        (("--runs", str(MAX_RUNS + 1)), f"allowed: 1 to {MAX_RUNS} games"),
        (("--runs", "many"), "Invalid value for '--runs'"),
        ((), "Missing option '--runs'"),
        (("--runs", "2", "--seed", "-1"), "--seed: -1; allowed: a whole number 0 or more"),
        (("--runs", "2", "--bot", "clever"), "--bot: unknown bot 'clever'; bots: heuristic"),
        (("--runs", "2", "--side", "steel=human"), "--side steel=human: coverage plays bots"),
        (("--runs", "2", "--side", "blue=random"), "--side blue=random: no side 'blue'"),
        (("--runs", "2", "toy_rules.demo"), "'toy_rules.demo' is named twice"),
        (("--runs", "2", "toy_rulez.demo"), "unknown scenario 'toy_rulez.demo'"),
    ],
)
def test_bad_input_is_one_line_and_a_non_zero_exit(
    kubik: Kubik, args: tuple[str, ...], message: str
) -> None:
    done = kubik("coverage", "toy_rules.demo", *args)
    assert message in one_line_error(done)
    assert done.out == ""


def test_no_scenario_is_one_line(kubik: Kubik) -> None:
    assert one_line_error(kubik("coverage", "--runs", "1")) == "error: Missing argument 'SCENARIO'."


def test_one_game_of_a_built_in_scenario_as_a_subprocess() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kubik", "coverage", "old_west.demo", "--runs", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["scenarios"] == ["old_west.demo"] and data["runs"] == 1
    assert list(data["rules"]) == list(load_rule_catalogue("old_west").ids)
    assert set(data["rules"].values()) <= {0, 1}
    assert data["unknown"] == {}
