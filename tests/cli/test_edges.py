"""No "internal error" for anything a user can cause, and bounded work, every time.

Each named case of issue 10 is one line on stderr naming the field, file or save and
what is wrong (in Russian under ``--lang ru``), exit 2; each engine limit is refused
up front naming the limit.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kubik import api
from kubik.core import limits
from kubik.game import ScenarioError, parse_scenario
from tests.bots.cli_harness import Kubik, kubik, one_line_error, toy_home
from tests.game.toy import SCENARIO

__all__ = ["kubik", "toy_home"]  # fixtures, used by name below

ROOT = Path(__file__).resolve().parents[2]
STRIKE = '{"strength": 3, "toughness": 8}'
DEMO = (ROOT / "src/kubik/rulesets/steel_war/scenarios/demo.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("odds", "old_west.wound", "-i", "[" * 200 + "]" * 200), "nested more than 32 levels"),
        (("odds", "old_west.wound", "-i", '{"a":' * 40 + "1" + "}" * 40), "nested more than 32"),
        (("odds", "old_west.wound", "-i", "@/dev/null"), "file '/dev/null' is empty"),
        (("odds", "old_west.wound", "-i", "@/"), "'/' is a directory, not a file"),
        (("odds", "old_west.wound", "-i", STRIKE, "--policy", ""), "no policy ''"),
        (
            ("odds", "old_west.wound", "-i", '{"strength": true, "toughness": 8}'),
            "input.strength: true is not a whole number",
        ),
        (
            ("odds", "old_west.wound", "-i", '{"strength": "3", "toughness": 8}'),
            'input.strength: "3" is not a whole number',
        ),
        (
            (
                "odds",
                "steel_war.fire",
                "-i",
                '{"quality": "d6", "weapons": [{"weapon": "lmg", "count": false}], "distance": 10}',
            ),
            "input.weapons[0].count: false is not a number",
        ),
        (("odds", "old_west.wound", "-i", '{"strength": NaN, "toughness": 8}'), "NaN"),
        (
            ("odds", "old_west.wound", "-i", '{"strength": ' + "9" * 5000 + "}"),
            "a number of more than",
        ),
        (("odds", "old_west.wound", "-i", ""), "--input: empty"),
        (
            ("play", "toy_duel.demo", "--side", "steel=human", "--side", "steel=random"),
            "side 'steel' is given twice",
        ),
        (
            ("odds", "old_west.wound", "-i", STRIKE, "--simulate", "10", "--compare"),
            "--simulate and --compare cannot be used together",
        ),
        (
            ("odds", "old_west.wound", "-i", STRIKE, "--simulate", str(10**10)),
            "10000000000 runs is more than the limit of 1000000",
        ),
        (("odds", "old_west.wound", "-i", STRIKE, "--simulate", "1e10"), "--simulate"),
        (("saves", "--delete", "nothing"), "no saved game 'nothing'"),
        (("saves", "--rename", "a", "b"), "no saved game 'a'"),
    ],
)
def test_a_named_bad_input_is_one_line(kubik: Kubik, args: tuple[str, ...], needle: str) -> None:
    line = one_line_error(kubik(*args))
    assert needle in line, line
    assert "internal error" not in line


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("odds", "old_west.wound", "-i", "@/"), "«/» — каталог, а не файл"),
        (("odds", "old_west.wound", "-i", '{"strength": true, "toughness": 8}'), "не целое число"),
        (("odds", "old_west.wound", "-i", '{"strength": 11, "toughness": 8}'), "не больше 10"),
        (("odds", "old_west.wound", "-i", '{"toughness": 8}'), "обязательное поле не задано"),
        (("odds", "old_west.wond", "-i", STRIKE), "old_west.wond"),
        (("play", "toy_duel.dem"), "нет сценария «toy_duel.dem»"),
        (("load", "missing"), "нет сохранённой партии «missing»"),
        (("play", "toy_duel.demo", "--side", "orks=human"), "нет стороны «orks»"),
        (("play", "toy_duel.demo", "--seed", "x"), "не целое число"),
        (("play", "toy_duel.demo", "--colour"), "нет такого параметра: --colour"),
        (("frobnicate",), "нет такой команды"),
        (("odds", "old_west.wound", "-i", STRIKE, "--simulate", "0"), "не меньше одного"),
    ],
)
def test_errors_under_lang_ru_are_in_russian(
    kubik: Kubik, args: tuple[str, ...], needle: str
) -> None:
    done = kubik(*args, "--lang", "ru")
    assert done.code == 2, (done.code, done.err)
    lines = done.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ошибка: "), done.err
    assert needle in lines[0], lines[0]


# -- KUBIK_DATA_DIR ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("file", "text", "needle"),
    [
        ("old_west.toml", "[close_combat]\nnope = 1\n", "close_combat.nope: no such setting"),
        ("old_west.toml", "[close_combat\n", "old_west.toml: not valid TOML"),
        ("old_west.toml", "close_combat = 3\n", "this setting is a table"),
        (
            "old_west.toml",
            "[close_combat]\nobstacle_reach = true\n",
            "obstacle_reach: true is the wrong kind of value; this setting is a whole number",
        ),
        ("old_west.toml", "[pluck]\npass_total = 10.5\n", "pass_total: 10.5 is the wrong kind"),
        (
            "old_west.toml",
            "[close_combat]\nmax_dice_per_side = 100000\n",
            "max_dice_per_side: an engine limit",
        ),
        ("steel_war.toml", "[fire_pool_limit]\nmax_dice = 500\n", "an engine limit"),
        ("oldwest.toml", "x = 1\n", "no ruleset 'oldwest'"),
        ("steel_war.toml", b"\xff\xfe".decode("latin-1") + "x", "steel_war.toml"),
    ],
)
def test_bad_override_files_are_one_line_before_any_work(
    kubik: Kubik,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    file: str,
    text: str,
    needle: str,
) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / file).write_text(text, encoding="utf-8")
    monkeypatch.setenv("KUBIK_DATA_DIR", str(folder))
    for args in (("odds", "old_west.wound", "-i", STRIKE), ("play", "toy_duel.demo")):
        line = one_line_error(kubik(*args))
        assert needle in line and "internal error" not in line, line


def test_a_data_dir_that_is_not_a_directory(kubik: Kubik, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KUBIK_DATA_DIR", "/no/such/dir")
    assert "KUBIK_DATA_DIR: '/no/such/dir' is not a directory" in one_line_error(
        kubik("odds", "old_west.wound", "-i", STRIKE)
    )


def test_a_good_override_is_applied_not_ignored(tmp_path: Path) -> None:
    env = {**os.environ, "KUBIK_HOME": str(tmp_path / "home")}
    args = [sys.executable, "-m", "kubik", "odds", "old_west.pluck_test", "-i", '{"pluck": 4}']
    plain = subprocess.run([*args, "--json"], capture_output=True, text=True, env=env, timeout=120)
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "old_west.toml").write_text("[pluck]\npass_total = 12\n")
    env["KUBIK_DATA_DIR"] = str(tmp_path / "data")
    harder = subprocess.run([*args, "--json"], capture_output=True, text=True, env=env, timeout=120)
    assert plain.returncode == harder.returncode == 0, harder.stderr
    assert json.loads(plain.stdout)["outcomes"] != json.loads(harder.stdout)["outcomes"]


# -- scenarios past the engine limits ------------------------------------------------


def _with_units(count: int) -> str:
    units = "".join(
        f'\n[[units]]\nid = "x{i}"\nside = "{"steel" if i % 2 else "lianra"}"\nhp = 1\n'
        for i in range(count)
    )
    head = SCENARIO.split("[[units]]")[0]
    return head + units


def _circle(points: int) -> str:
    return ", ".join(
        f"[{10 + 3 * math.cos(2 * math.pi * k / points):.3f}, "
        f"{10 + 3 * math.sin(2 * math.pi * k / points):.3f}]"
        for k in range(points)
    )


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        (_with_units(5000), "units: 5000 units is more than the limit of 100"),
        (
            DEMO.replace("width = 48", "width = 1000000000"),
            "table.width: 1000000000 inches is more than the limit of 1000",
        ),
        (
            DEMO.replace(
                "points = [[38, 9], [45, 9], [45, 15], [38, 15]]", f"points = [{_circle(1500)}]"
            ),
            "terrain[7].points: 1500 corner points is more than the limit of 1000",
        ),
        (
            DEMO.replace(
                "[[sides]]",
                "".join(
                    f'[[terrain]]\nid = "rock{i}"\npoints = [[1, 1], [2, 1], [2, 2]]\n\n'
                    for i in range(250)
                )
                + "[[sides]]",
                1,
            ),
            "terrain: 258 terrain features is more than the limit of 200",
        ),
        (SCENARIO.replace("turn_limit = 6", "turn_limit = 500"), "end.turn_limit: 500 turns"),
        (
            DEMO.replace(
                "points = [[38, 9], [45, 9], [45, 15], [38, 15]]", f"points = [{_circle(50_000)}]"
            ),
            "terrain[7].points: 50000 corner points is more than the limit of 1000",
        ),
        (
            SCENARIO.replace('description = "', 'description = "' + "x" * 1_100_000),
            "bytes is more than the limit of 1000000 bytes for a scenario",
        ),
        (SCENARIO + "\n[options.deep]\nx = " + "[" * 60 + "]" * 60 + "\n", "nested more than"),
    ],
)
def test_a_scenario_past_an_engine_limit_is_refused_up_front(text: str, needle: str) -> None:
    with pytest.raises(ScenarioError) as error:
        parse_scenario(text, "big.toml")
    assert needle in str(error.value) and str(error.value).startswith("big.toml: ")


def test_a_scenario_of_100000_models_is_refused_naming_the_limit(
    kubik: Kubik, tmp_path: Path
) -> None:
    weapons = ", ".join(['{ weapon = "assault_rifle", count = 20 }'] * 5000)
    text = DEMO.replace(
        'weapons = [{ weapon = "assault_rifle", count = 7 }, { weapon = "lmg", count = 1 }]',
        f"weapons = [{weapons}]",
        1,
    )
    path = tmp_path / "horde.toml"
    path.write_text(text, encoding="utf-8")
    line = one_line_error(kubik("play", str(path)))
    assert "horde.toml: units: 100038 models is more than the limit of 1000 models" in line
    ru = kubik("play", str(path), "--lang", "ru")
    assert "100038 моделей — больше предела" in ru.err


def test_a_scenario_without_a_turn_limit_still_ends(kubik: Kubik, tmp_path: Path) -> None:
    endless = SCENARIO.replace("turn_limit = 6", "").replace("hit_on = 4", "hit_on = 6")
    path = tmp_path / "endless.toml"
    path.write_text(endless.replace('id = "toy_duel.demo"', 'id = "toy_duel.endless"'))
    data = json.loads(kubik("play", str(path), "--json").out)
    assert data["finished"] is True and data["turns"] <= limits.TURNS


def test_interrupting_is_one_line_and_exit_130(
    kubik: Kubik, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(api, "estimates", interrupted)
    done = kubik("odds", "old_west.wound", "-i", STRIKE, "--simulate", "100")
    assert done.code == 130 and done.err.strip() == "error: interrupted"


def test_a_bug_is_still_one_line_with_exit_3(kubik: Kubik, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(api, "odds", broken)
    monkeypatch.setattr(api, "exact_distribution", broken)  # (what plain text asks)
    done = kubik("odds", "old_west.wound", "-i", STRIKE)
    assert done.code == 3 and done.err.count("\n") == 1 and "internal error" in done.err


def test_every_limit_is_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for limit in limits.LIMITS.values():
        assert f"| {limit.what} | {limit.value:,} |" in readme, limit
