"""``kubik scenarios / play / load / replay / saves`` with the toy rulesets, in-process."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from kubik.cli.play import DEFAULT_SCENARIO
from kubik.game import GameStore
from tests.bots.cli_harness import Kubik, kubik, one_line_error, toy_home
from tests.cli.processes import kubik_process

__all__ = ["kubik", "toy_home"]  # fixtures, used by name below


def test_scenarios_json_lists_each_scenario_with_its_fields(kubik: Kubik) -> None:
    done = kubik("scenarios", "--json")
    assert done.code == 0, done.err
    rows = {row["id"]: row for row in json.loads(done.out)}
    duel = rows["toy_duel.demo"]
    assert duel["name"] == "Duel" and duel["name_ru"] == "Дуэль"
    assert duel["ruleset"] == "toy_duel"
    assert duel["description"] == "Two sides shoot it out."
    assert duel["source"] == "user"
    assert duel["playable"] is True and duel["error"] is None
    assert {"id", "name", "name_ru", "ruleset", "description", "source"} <= duel.keys()
    # every built-in scenario is listed too (playable or with the reason it is not)
    assert all(row["playable"] == (row["error"] is None) for row in rows.values())
    table = kubik("scenarios", "--lang", "ru")
    assert table.code == 0 and "Дуэль" in table.out and "toy_forecast.demo" in table.out


def test_play_json_is_byte_for_byte_reproducible_and_follows_the_contract(kubik: Kubik) -> None:
    first = kubik("play", "toy_duel.demo", "--seed", "3", "--json")
    second = kubik("play", "toy_duel.demo", "--seed", "3", "--json")
    assert first.code == 0, first.err
    assert first.out == second.out
    assert first.err == ""  # nothing but the JSON for a game of bots
    data = json.loads(first.out)
    assert {"scenario", "seed", "winner", "turns", "log"} <= data.keys()
    assert (data["scenario"], data["seed"], data["finished"]) == ("toy_duel.demo", 3, True)
    assert data["winner"] in {"steel", "lianra", None}
    assert data["log"][0]["id"] == "game.started"
    assert data["log"][-1]["id"] in {"game.ended.winner", "game.ended.draw"}
    # bots answered every decision; another seed is another game
    assert {e["origin"] for e in data["log"] if e["type"] == "choice"} == {"bot"}
    other = kubik("play", "toy_duel.demo", "--seed", "4", "--json")
    assert other.out != first.out


def test_play_without_a_seed_plays_a_new_game_and_says_its_seed(kubik: Kubik) -> None:
    seeds = {json.loads(kubik("play", "toy_duel.demo", "--json").out)["seed"] for _ in range(4)}
    assert len(seeds) > 1  # a new game each time
    seed = seeds.pop()
    shown = kubik("play", "toy_duel.demo", "--seed", str(seed), "--json").out
    assert json.loads(shown)["seed"] == seed  # ... and the one printed plays again
    header = kubik("play", "toy_duel.demo", "--quiet").out.splitlines()[0]
    printed = int(header.rsplit("seed ", 1)[1])
    again = kubik("play", "toy_duel.demo", "--seed", str(printed), "--quiet").out
    assert again == kubik("play", "toy_duel.demo", "--seed", str(printed), "--quiet").out


def test_play_defaults_the_scenario(kubik: Kubik) -> None:
    default = kubik("play", "--json", "--quiet")
    if default.code == 0:  # the demo exists: it is what plays
        assert json.loads(default.out)["scenario"] == DEFAULT_SCENARIO
    else:  # not yet: one clear line naming it
        assert DEFAULT_SCENARIO in one_line_error(default)


def flat(text: str) -> str:
    """Text with every run of whitespace as one space (lines wrap at the terminal's width)."""
    return " ".join(text.split())


def test_play_prints_the_narrated_log_and_a_summary(kubik: Kubik) -> None:
    done = kubik("play", "toy_duel.demo", "--seed", "3")
    assert done.code == 0, done.err
    data = json.loads(kubik("play", "toy_duel.demo", "--seed", "3", "--json").out)
    assert "seed 3" in done.out  # the header names the seed, so the game can be replayed
    assert "Turn 1" in done.out and "🎲 rolls d6:" in done.out
    for entry in data["log"]:
        assert flat(entry["text"]) in flat(done.out)
    winner = {"steel": "Winner: Steel.", "lianra": "Winner: Lianra.", None: "A draw"}[
        data["winner"]
    ]
    assert winner in done.out
    assert f"{data['turns']} turn" in done.out and "units left" in done.out
    ru = kubik("play", "toy_duel.demo", "--seed", "3", "--lang", "ru")
    assert "Ход 1" in ru.out and "бросок к6" in ru.out and "Итог" in ru.out
    assert "отрядов осталось" in ru.out
    quiet = kubik("play", "toy_duel.demo", "--seed", "3", "--quiet")
    assert "Turn 1" not in quiet.out and winner in quiet.out


def test_every_bot_plays_a_side_from_the_command_line(kubik: Kubik) -> None:
    """``--side`` takes every bot the registry builds, the fast bot of the balance lab
    included; an unknown name is refused in one line listing them all."""
    from kubik.bots import BOT_NAMES

    for name in BOT_NAMES:
        game = kubik(
            "play", "toy_forecast.demo", "--seed", "5", "--json", "--side", f"steel={name}"
        )
        assert game.code == 0, (name, game.err)
        log = json.loads(game.out)["log"]
        assert any(e["type"] == "choice" and e["side"] == "steel" for e in log), name
    refused = kubik("play", "toy_forecast.demo", "--side", "steel=clever")
    assert refused.code != 0
    assert refused.err.strip().endswith("allowed: human, heuristic, fast, random, default")


def test_side_option_chooses_the_bots(kubik: Kubik) -> None:
    random_game = kubik(
        "play", "toy_forecast.demo", "--seed", "5", "--json", "--side", "steel=random"
    )
    heuristic = kubik("play", "toy_forecast.demo", "--seed", "5", "--json")
    default = kubik(
        "play", "toy_forecast.demo", "--json", "--side", "steel=default", "--side", "lianra=default"
    )
    assert random_game.code == heuristic.code == default.code == 0
    answers = [
        e["answer"]
        for e in json.loads(default.out)["log"]
        if e["type"] == "choice" and e["side"] == "steel"
    ]
    assert answers and all(a == {"id": "hold"} for a in answers)
    heuristic_steel = {
        json.dumps(e["answer"])
        for e in json.loads(heuristic.out)["log"]
        if e["type"] == "choice" and e["side"] == "steel"
    }
    assert heuristic_steel == {'{"id": "volley"}'}


def test_save_load_replay_round_trip_gives_the_identical_game(kubik: Kubik, toy_home: Path) -> None:
    played = kubik("play", "toy_duel.demo", "--seed", "7", "--save", "duel-7", "--json")
    assert played.code == 0, played.err
    loaded = kubik("load", "duel-7", "--json")
    assert loaded.code == 0, loaded.err
    assert loaded.out == played.out
    replayed = kubik("replay", "duel-7", "--json")
    assert replayed.out == played.out
    text = kubik("replay", "duel-7")
    for entry in json.loads(played.out)["log"]:
        assert flat(entry["text"]) in flat(text.out)
    with GameStore(toy_home / "games.sqlite3") as store:
        assert [g.name for g in store.list()] == ["duel-7"]
    saves = json.loads(kubik("saves", "--json").out)
    assert [(s["name"], s["scenario"], s["seed"]) for s in saves] == [
        ("duel-7", "toy_duel.demo", 7)
    ]
    summary = kubik("load", "duel-7")
    assert summary.code == 0 and "Result" in summary.out


def test_replay_steps_one_entry_per_enter(kubik: Kubik) -> None:
    kubik("play", "toy_duel.demo", "--seed", "2", "--save", "g", "--quiet")
    stepped = kubik("replay", "g", "--step", stdin="\n\nq\n")
    assert stepped.code == 0
    assert stepped.out.count("Enter: next") == 3
    assert "The game begins" in stepped.out and "Result" not in stepped.out
    ru = kubik("replay", "g", "--lang", "ru")
    assert "Партия начинается" in ru.out


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (("play", "toy_duel.dem"), ("SCENARIO", "did you mean toy_duel.demo")),
        (("play", "nothing_like_it"), ("SCENARIO", "scenarios: ")),
        (("play", "toy_duel.demo", "--side", "steel"), ("--side", "SIDE=KIND")),
        (("play", "toy_duel.demo", "--side", "orks=human"), ("--side", "sides: steel, lianra")),
        (("play", "toy_duel.demo", "--side", "steel=clever"), ("--side", "allowed: human")),
        (("play", "toy_duel.demo", "--lang", "de"), ("--lang", "'en'")),
        (("play", "toy_duel.demo", "--save", "bad name!"), ("game name", "letters")),
        (("play", "toy_duel.demo", "--seed", "x"), ("--seed",)),
        (("load", "missing"), ("no saved game 'missing'",)),
        (("replay", "missing"), ("no saved game 'missing'",)),
        (("load", "../etc"), ("game name",)),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    kubik: Kubik, args: tuple[str, ...], names: tuple[str, ...]
) -> None:
    line = one_line_error(kubik(*args))
    for name in names:
        assert name in line, line


def test_a_bad_scenario_file_names_the_file_and_the_field(kubik: Kubik, tmp_path: Path) -> None:
    bad = tmp_path / "broken.toml"
    from tests.game.toy import SCENARIO

    bad.write_text(SCENARIO.replace("hp = 4", "hp = 0"), encoding="utf-8")
    line = one_line_error(kubik("play", str(bad)))
    assert "broken.toml" in line and "units[2].hp" in line
    missing = one_line_error(kubik("play", str(tmp_path / "nope.toml")))
    assert "nope.toml" in missing


def test_a_save_name_in_use_is_not_overwritten(kubik: Kubik) -> None:
    assert kubik("play", "toy_duel.demo", "--seed", "1", "--save", "mine", "--quiet").code == 0
    line = one_line_error(kubik("play", "toy_duel.demo", "--seed", "9", "--save", "mine"))
    assert "--save" in line and "kubik load mine" in line
    loaded = json.loads(kubik("load", "mine", "--json").out)
    assert loaded["seed"] == 1


@pytest.mark.parametrize("demo", ["steel_war.demo", "old_west.demo"])
def test_the_built_in_demos_play_reproducibly_when_present(kubik: Kubik, demo: str) -> None:
    listed = {row["id"]: row for row in json.loads(kubik("scenarios", "--json").out)}
    if demo not in listed or not listed[demo]["playable"]:
        pytest.skip(f"{demo} is not playable yet")
    first = kubik("play", demo, "--seed", "2", "--json")
    assert first.code == 0, first.err
    assert kubik("play", demo, "--seed", "2", "--json").out == first.out
    data = json.loads(first.out)
    assert (data["scenario"], data["seed"], data["finished"]) == (demo, 2, True)
    assert data["turns"] >= 1 and "log" in data


def test_listing_scenarios_loads_no_rulesets_battle_and_check_asks_each_ruleset(
    tmp_path: Path,
) -> None:
    """``kubik scenarios`` reads the files alone (a ruleset's refusal waits for a play
    or ``--check``); a file that cannot be read still has its one line in the list."""
    import subprocess
    import sys

    code = (
        "import sys; from kubik.cli.scenario_list import answer_plain; "
        "assert answer_plain(['scenarios', '--json']); "
        "print(sorted(m for m in sys.modules if '.battle' in m or m.startswith('shapely')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False,
        env={**os.environ, "KUBIK_HOME": str(tmp_path)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"  # no battle code, no shapely
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "torn.toml").write_text("[scenario\nid = ", encoding="utf-8")
    listed = kubik_process("scenarios", env={"KUBIK_HOME": str(tmp_path)})
    assert listed.returncode == 0 and "⚠" in listed.stdout and "torn" in listed.stdout
    checked = kubik_process("scenarios", "--check", "--json", env={"KUBIK_HOME": str(tmp_path)})
    rows = {row["id"]: row for row in json.loads(checked.stdout)}
    assert rows["torn"]["playable"] is False and rows["steel_war.demo"]["playable"] is True
