"""The `kubik` command as a user runs it: subprocesses, exit codes, one-line errors."""

from __future__ import annotations

import json
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest

from tests.cli.processes import kubik_process

MORALE = '{"quality": "d8", "leadership": 2, "threat": 6}'


def kubik(*args: str) -> subprocess.CompletedProcess[str]:
    return kubik_process(*args)


def test_procedures_json_lists_every_procedure() -> None:
    done = kubik("procedures", "--json")
    assert done.returncode == 0, done.stderr
    names = {p["name"] for p in json.loads(done.stdout)}
    assert {"steel_war.morale_test", "old_west.wound"} <= names


def test_procedures_table_for_people() -> None:
    done = kubik("procedures")
    assert done.returncode == 0 and "steel_war.morale_test" in done.stdout


def test_SW_MOR_05_resolve_reproduces_the_seed_example_from_its_dice() -> None:
    """Seed 001: d8, L=2, threat 6 (4 + 2): a 6 drops one level, a 4 drops two."""
    done = kubik("resolve", "steel_war.morale_test", "--input", MORALE, "--dice", "6", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["outcome"] == {"drop": 1}
    assert out["rolls"] == [
        {**out["rolls"][0], "dice": ["d8"], "values": [6]},
    ]
    four = json.loads(
        kubik("resolve", "steel_war.morale_test", "-i", MORALE, "--dice", "4", "--json").stdout
    )
    assert four["outcome"] == {"drop": 2}


def test_resolve_narrates_in_english_and_russian() -> None:
    en = kubik("resolve", "steel_war.morale_test", "-i", MORALE, "--dice", "6")
    ru = kubik("resolve", "steel_war.morale_test", "-i", MORALE, "--dice", "6", "--lang", "ru")
    assert en.returncode == 0 and ru.returncode == 0
    assert "Morale test" in en.stdout and "Outcome: morale drop (levels): 1" in en.stdout
    assert "боевой дух" in ru.stdout and "к8" in ru.stdout
    assert "Исход: падение боевого духа (уровней): 1" in ru.stdout


def test_resolve_from_an_input_file(tmp_path: Path) -> None:
    path = tmp_path / "in.json"
    path.write_text('{"strength": 3, "toughness": 8}', encoding="utf-8")
    done = kubik("resolve", "old_west.wound", "--input", f"@{path}", "--dice", "6,4", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["outcome"] == {"wounded": True}


def test_resolve_with_a_seed_is_byte_for_byte_reproducible() -> None:
    args = ("resolve", "old_west.wound", "-i", '{"strength": 3, "toughness": 8}', "--seed", "9")
    assert kubik(*args, "--json").stdout == kubik(*args, "--json").stdout


def test_odds_json_contract() -> None:
    done = kubik("odds", "steel_war.morale_test", "--input", MORALE, "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["procedure"] == "steel_war.morale_test" and out["exact"] is True
    assert sum(Fraction(o["probability"]) for o in out["outcomes"]) == 1
    assert {json.dumps(o["outcome"]) for o in out["outcomes"]} == {'{"drop": 1}', '{"drop": 2}'}


def test_odds_for_people_are_sentences_above_the_exact_table() -> None:
    done = kubik("odds", "old_west.wound", "-i", '{"strength": 3, "toughness": 8}')
    assert done.returncode == 0
    assert "wounded: yes 8.3%, no 91.7%" in done.stdout  # a headline per field
    assert "1/12" not in done.stdout and "--full" in done.stdout  # the table on request
    full = kubik("odds", "old_west.wound", "-i", '{"strength": 3, "toughness": 8}', "--full")
    assert "1/12" in full.stdout and "11/12" in full.stdout  # the exact table
    fire = kubik(
        "odds",
        "steel_war.fire",
        "-i",
        '{"quality": "d6", "weapons": [{"weapon": "lmg", "count": 1}], "distance": 10,'
        ' "cover": "light", "prone": true}',
    )
    assert "hits: none 82.3% — at least 1: 17.7%; on average 0.18" in fire.stdout
    assert "effect: no effect" in fire.stdout and "=" not in fire.stdout


def test_the_full_fire_table_says_a_field_once_for_its_run_of_outcomes() -> None:
    fire = kubik(
        "odds",
        "steel_war.fire",
        "quality=d6",
        "weapons=lmg,smg*4",
        "distance=10",
        "cover=light",
        "--full",
    )
    assert fire.returncode == 0, fire.stderr
    rows = [line for line in fire.stdout.splitlines() if line.startswith("│")]
    assert sum("%" in row for row in rows) == 8  # one row an outcome, a column a field
    assert sum("suppressed and hit" in row for row in rows) == 1  # said once, not six times


def test_odds_simulate_json() -> None:
    done = kubik(
        "odds",
        "old_west.wound",
        "-i",
        '{"strength": 4, "toughness": 4}',
        "--simulate",
        "500",
        "--json",
    )
    out = json.loads(done.stdout)
    assert out["exact"] is False and sum(o["count"] for o in out["outcomes"]) == 500


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("resolve", "nope.x", "-i", "{}"), "unknown procedure 'nope.x'"),
        (("resolve", "steel_war.morale_tst", "-i", "{}"), "did you mean steel_war.morale_test"),
        (("resolve", "steel_war.morale_test", "-i", "{bad"), "--input: not valid JSON"),
        (("resolve", "steel_war.morale_test", "-i", "[1]"), "--input: must be a JSON object"),
        (("resolve", "steel_war.morale_test", "-i", "@/no/such/file.json"), "does not exist"),
        (("resolve", "steel_war.morale_test"), "Missing option '--input'"),
        (
            ("resolve", "steel_war.morale_test", "-i", '{"leadership": 2, "threat": 1}'),
            "input.quality: required field is missing",
        ),
        (
            ("resolve", "steel_war.morale_test", "-i", MORALE[:-1] + ', "mood": 1}'),
            "input.mood: unknown field",
        ),
        (
            (
                "resolve",
                "steel_war.morale_test",
                "-i",
                '{"quality": "d8", "leadership": 4, "threat": 1}',
            ),
            "input.leadership",
        ),
        (
            (
                "resolve",
                "steel_war.morale_test",
                "-i",
                '{"quality": "d9", "leadership": 2, "threat": 1}',
            ),
            "input.quality",
        ),
        (("resolve", "steel_war.morale_test", "-i", MORALE, "--dice", "9"), "a d8 cannot show 9"),
        (
            ("resolve", "steel_war.morale_test", "-i", MORALE, "--dice", "six"),
            "'six' is not a number",
        ),
        (("resolve", "steel_war.morale_test", "-i", MORALE, "--dice", "3,3"), "too many dice"),
        (
            ("resolve", "old_west.wound", "-i", '{"strength": 3, "toughness": 8}', "--dice", "6"),
            "too few dice: 1 given, the next roll needs d6",
        ),
        (("resolve", "steel_war.morale_test", "-i", MORALE, "--lang", "fr"), "--lang"),
        (("odds", "steel_war.morale_test", "-i", MORALE, "--simulate", "0"), "at least 1"),
        (("odds", "steel_war.morale_test", "-i", MORALE, "--simulate", "many"), "--simulate"),
        (("frobnicate",), "No such command"),
    ],
)
def test_bad_input_is_one_clear_line_and_a_nonzero_exit(args: tuple[str, ...], needle: str) -> None:
    done = kubik(*args)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert needle in lines[0]


FAME_STRIKE = '{"strength": 3, "toughness": 8, "fame": 3}'


def test_OW_HERO_05_odds_under_fame_policies_side_by_side() -> None:
    """No Fame spent: a 6 then a 4 (1/12); just enough Fame to lift each roll (2/3); here
    the optimal policy does no better than just enough."""
    done = kubik("odds", "old_west.wound", "-i", FAME_STRIKE)
    assert done.returncode == 0, done.stderr
    assert "default" in done.stdout and "just_enough" in done.stdout
    assert "1/12" in done.stdout and "2/3" in done.stdout
    compared = json.loads(
        kubik("odds", "old_west.wound", "-i", FAME_STRIKE, "--compare", "--json").stdout
    )
    assert compared["policies"] == ["default", "just_enough", "optimal"]
    wounded = next(o for o in compared["outcomes"] if o["outcome"] == {"wounded": True})
    assert wounded["probabilities"] == {"default": "1/12", "just_enough": "2/3", "optimal": "2/3"}


def test_odds_json_names_the_policy_and_rejects_unknown_ones() -> None:
    out = json.loads(
        kubik(
            "odds", "old_west.wound", "-i", FAME_STRIKE, "--policy", "just_enough", "--json"
        ).stdout
    )
    assert out["policy"] == "just_enough"
    assert sum(Fraction(o["probability"]) for o in out["outcomes"]) == 1
    bad = kubik("odds", "old_west.wound", "-i", FAME_STRIKE, "--policy", "greedy")
    assert bad.returncode != 0
    assert (
        bad.stderr.strip()
        == "error: policy: no policy 'greedy'; policies: default, just_enough, optimal"
    )
