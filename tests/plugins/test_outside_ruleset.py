"""A ruleset installed from outside kubik's tree works like one kubik ships.

``tests/plugins/brawl`` holds a small ruleset, Brawl (its own rule module with a
procedure and permission functions, data with provenance, a rule catalogue, a scenario,
a glossary, English and Russian messages, and a battle on ``kubik.game.battle``). The
test copies it into a folder of its own and installs it there as a distribution that
declares the ``kubik.rulesets`` entry point (a ``.dist-info`` beside the package, on the
path of child processes only), then plays it through ``kubik play``, ``kubik odds``,
``kubik coverage`` and the conformance suite. Nothing in kubik names it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULESET = Path(__file__).resolve().parent / "brawl" / "brawl_rules"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the ruleset's package and its distribution's metadata."""
    site = tmp_path_factory.mktemp("site")
    shutil.copytree(RULESET, site / "brawl_rules")
    meta = site / "brawl-0.1.dist-info"
    meta.mkdir()
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: brawl\nVersion: 0.1\n")
    (meta / "entry_points.txt").write_text("[kubik.rulesets]\nbrawl = brawl_rules\n")
    return site


def run(
    site: Path, *args: str, module: str = "kubik", **env: str
) -> subprocess.CompletedProcess[str]:
    """``python -m MODULE ARGS`` with the ruleset installed (and this repository, for the
    conformance suite, on the path)."""
    done = subprocess.run(
        [sys.executable, "-m", module, *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env={
            **os.environ,
            "PYTHONPATH": os.pathsep.join((str(site), str(ROOT))),
            "KUBIK_HOME": str(site / "home"),
            "COLUMNS": "100",
            **env,
        },
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done


def test_kubik_plays_its_scenario_in_english_and_russian(installed: Path) -> None:
    listed = json.loads(run(installed, "scenarios", "--json").stdout)
    brawl = [s for s in listed if s["id"] == "brawl.demo"]
    assert [s["ruleset"] for s in brawl] == ["brawl"]

    game = json.loads(run(installed, "play", "brawl.demo", "--seed", "1", "--json").stdout)
    assert game["finished"] and game["result"]["winner"] in {"sailors", "dockers"}
    texts = [entry["text"] for entry in game["log"]]
    assert any(text.startswith("Strike («Удар»): rolled ") for text in texts), texts

    russian = run(installed, "play", "brawl.demo", "--seed", "1", "--lang", "ru").stdout
    assert "Удар: выпало" in russian and "Что делает Билл?" in russian


def test_kubik_odds_answers_its_procedure_from_its_data_and_the_users_override(
    installed: Path,
) -> None:
    listed = json.loads(run(installed, "procedures", "--json").stdout)
    assert "brawl.strike" in {p["name"] for p in listed}

    odds = json.loads(run(installed, "odds", "brawl.strike", "-i", "{}", "--json").stdout)
    assert [o["probability"] for o in odds["outcomes"]] == ["1/2", "1/2"]

    overrides = installed / "overrides"
    overrides.mkdir(exist_ok=True)
    (overrides / "brawl.toml").write_text("[strike]\nneed = 5\n")
    harder = run(
        installed, "odds", "brawl.strike", "-i", "{}", "--json", KUBIK_DATA_DIR=str(overrides)
    )
    assert [o["probability"] for o in json.loads(harder.stdout)["outcomes"]] == ["2/3", "1/3"]

    said = run(
        installed, "odds", "brawl.strike", "-i", '{"need": 6}', "--lang", "ru", "--full"
    ).stdout
    assert "точные шансы" in said and "1/6" in said


def test_kubik_coverage_counts_its_catalogue(installed: Path) -> None:
    found = json.loads(run(installed, "coverage", "brawl.demo", "--runs", "2", "--json").stdout)
    assert set(found["rules"]) == {
        "BR-STRIKE-01",
        "BR-REACH-01",
        "BR-WALK-01",
        "BR-WAIT-01",
        "BR-ABSENT-01",
    }
    assert found["rules"]["BR-STRIKE-01"] == 2
    assert found["not_in_battle"] == {"BR-ABSENT-01": "A brawl is fought with bare fists."}


def test_it_passes_the_conformance_suite(installed: Path) -> None:
    done = run(installed, "brawl", module="tests.test_conformance")
    assert done.stdout.strip() == "brawl: conforms (4 battles)"
