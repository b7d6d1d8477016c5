"""Sweep inputs: parameters addressing scenario fields, roster lists, variants written
back as TOML — every mistake one line naming what is wrong."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from kubik.core.errors import InputError
from kubik.game import Scenario, list_scenarios, load_scenario, parse_scenario
from kubik.sim.job import build_job
from kubik.sim.rosters import apply_roster, load_roster_list, parse_roster_list
from kubik.sim.toml_text import dumps
from kubik.sim.vary import parse_parameter, set_field

RED_ROSTERS = """\
side = "red"

[[rosters]]
id = "pair"
name = "A pair"
name_ru = "Пара"

[[rosters.units]]
id = "r1"
x = 3
y = 3

[[rosters.units]]
id = "r2"
x = 3
y = 8

[[rosters]]
id = "trio"
name = "Three"

[[rosters.units]]
id = "r1"
x = 3
y = 3

[[rosters.units]]
id = "r2"
x = 3
y = 8

[[rosters.units]]
id = "r3"
x = 8
y = 3
"""


def test_every_built_in_scenario_survives_being_written_back_as_toml() -> None:
    built_in = [info.id for info in list_scenarios() if info.source.value == "built-in"]
    assert len(built_in) >= 4
    for scenario_id in built_in:
        scenario = load_scenario(scenario_id)
        data = tomllib.loads(scenario.text)
        text = dumps(data)
        assert tomllib.loads(text) == data
        assert parse_scenario(text, "again.toml").model == scenario.model


def test_parameters_address_fields_by_id_index_and_table() -> None:
    data = tomllib.loads(load_scenario("steel_war.demo").text)
    set_field(data, parse_parameter("units[steel_1].quality=veterans"), "veterans")
    set_field(data, parse_parameter("units[lianra_2].weapons[1].count=2"), 2)
    set_field(data, parse_parameter("options.sides.steel.motivation=high"), "high")
    set_field(data, parse_parameter("end.turn_limit=5"), 5)
    steel_1 = next(u for u in data["units"] if u["id"] == "steel_1")
    lianra_2 = next(u for u in data["units"] if u["id"] == "lianra_2")
    assert steel_1["quality"] == "veterans"
    assert lianra_2["weapons"][1] == {"weapon": "uragan", "count": 2}
    assert data["options"]["sides"]["steel"] == {"edge": "south", "motivation": "high"}
    assert data["end"]["turn_limit"] == 5


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("units[steel_1].quality", "write FIELD=VALUE,VALUE"),
        ("units[steel_9].quality=veterans", "no element with id 'steel_9'; steel_1, steel_2"),
        ("units[12].quality=veterans", "no element 12; 8 in all"),
        ("scenario.name=x", "[scenario] cannot be swept"),
        ("units[steel_1].id=x", "not an id, a side or a whole element"),
        ("units[steel_1]=x", "not an id, a side or a whole element"),
        ("units[steel_1].quality=a,,b", "an empty value"),
        ("units[steel_1].quality=a,a", "a value is given twice"),
        ("units[steel_1].qu ality=a", "is not a field name"),
        ("terrain[nowhere].cover=hard", "no element with id 'nowhere'"),
    ],
)
def test_a_bad_parameter_is_one_line_naming_the_field(spec: str, message: str) -> None:
    scenario = load_scenario("steel_war.demo")
    with pytest.raises(InputError) as error:
        parameter = parse_parameter(spec)
        set_field(tomllib.loads(scenario.text), parameter, parameter.values[0])
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_a_value_the_ruleset_refuses_is_its_own_one_line_error() -> None:
    scenario = load_scenario("steel_war.demo")
    bots = dict.fromkeys(scenario.side_ids, "default")
    with pytest.raises(InputError) as error:
        build_job(scenario, 1, bots, [parse_parameter("units[steel_1].quality=regulars,heroes")])
    text = str(error.value)
    assert "units[steel_1].quality=heroes" in text and "units[0].quality" in text
    with pytest.raises(InputError, match=re.escape("units[0].colour: unknown field")):
        build_job(scenario, 1, bots, [parse_parameter("units[steel_1].colour=red")])


def test_a_grid_makes_every_combination_in_order(skirmish: Scenario) -> None:
    bots = dict.fromkeys(skirmish.side_ids, "default")
    job = build_job(
        skirmish,
        3,
        bots,
        [parse_parameter("end.turn_limit=2,4"), parse_parameter("units[r1].x=3,5,7")],
    )
    assert [c.label_json() for c in job.cells][:2] == [
        {"end.turn_limit": "2", "units[r1].x": "3"},
        {"end.turn_limit": "2", "units[r1].x": "5"},
    ]
    assert len(job.cells) == 6 and job.cells[5].label_json()["units[r1].x"] == "7"
    assert tomllib.loads(job.cells[5].scenario_toml)["end"]["turn_limit"] == 4
    assert job.parameters == ("end.turn_limit", "units[r1].x")
    with pytest.raises(InputError, match="the field is swept twice"):
        build_job(
            skirmish,
            3,
            bots,
            [parse_parameter("end.turn_limit=2"), parse_parameter("end.turn_limit=4")],
        )


def test_roster_lists_replace_their_side_in_place(skirmish: Scenario, tmp_path: Path) -> None:
    rosters = parse_roster_list(RED_ROSTERS, "red.toml")
    assert rosters.side == "red" and rosters.ids == ("pair", "trio")
    assert rosters.rosters[1].name_ru == "Three"  # the English name when none is given
    data = apply_roster(tomllib.loads(skirmish.text), "red", rosters.rosters[1])
    assert [(u["id"], u["side"]) for u in data["units"]] == [
        ("r1", "red"),
        ("r2", "red"),
        ("r3", "red"),
        ("b1", "blue"),
        ("b2", "blue"),
    ]
    path = tmp_path / "red.toml"
    path.write_text(RED_ROSTERS, encoding="utf-8")
    job = build_job(
        skirmish, 1, dict.fromkeys(skirmish.side_ids, "default"), [], [load_roster_list(path)]
    )
    assert [c.label_json() for c in job.cells] == [{"vs.red": "pair"}, {"vs.red": "trio"}]
    assert job.vs == ("red",)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("side = 'red'\n", "red.toml: rosters: at least one [[rosters]] is required"),
        ("[[rosters]]\nid = 'a'\n", "red.toml: side: missing (required)"),
        ("side = 'red'\ncolour = 1\n", "red.toml: colour: unknown field"),
        ("side = 'red'\n[[rosters]]\nid = 'A b'\n", "rosters[0].id: 'A b' is not a valid id"),
        ("side = 'red'\n[[rosters]]\nid = 'a'\n", "rosters[0].units: at least one"),
        (
            "side = 'red'\n[[rosters]]\nid = 'a'\n[[rosters.units]]\nid = 'x'\nside = 'blue'\n",
            "rosters[0].units[0].side: 'blue'; the list's side is 'red'",
        ),
        ("side = 'red\n", "red.toml: not valid TOML"),
    ],
)
def test_a_bad_roster_list_is_one_line_naming_the_field(text: str, message: str) -> None:
    with pytest.raises(InputError) as error:
        parse_roster_list(text, "red.toml")
    assert message in str(error.value)


def test_roster_lists_must_fit_the_scenarios_sides(skirmish: Scenario) -> None:
    bots = dict.fromkeys(skirmish.side_ids, "default")
    green = parse_roster_list(RED_ROSTERS.replace('side = "red"', 'side = "green"'), "g.toml")
    no_green = re.escape("g.toml: side: the scenario has no side 'green'")
    with pytest.raises(InputError, match=no_green):
        build_job(skirmish, 1, bots, [], [green])
    red = parse_roster_list(RED_ROSTERS, "red.toml")
    with pytest.raises(InputError, match="both lists are for side 'red'"):
        build_job(skirmish, 1, bots, [], [red, red])
    with pytest.raises(InputError, match=re.escape("--vs: file 'nowhere.toml' does not exist")):
        load_roster_list("nowhere.toml")


def test_the_documented_roster_lists_are_valid_for_the_demo() -> None:
    docs = Path(__file__).resolve().parents[2] / "docs" / "sim"
    scenario = load_scenario("steel_war.demo")
    lists = [
        load_roster_list(docs / "steel_rosters.toml"),
        load_roster_list(docs / "lianra_rosters.toml"),
    ]
    job = build_job(scenario, 1, dict.fromkeys(scenario.side_ids, "heuristic"), [], lists)
    assert len(job.cells) == 6
    assert job.cells[-1].label_json() == {"vs.steel": "recruits", "vs.lianra": "heavy"}


def test_the_code_left_out_of_the_fingerprint_exists_and_decides_no_game() -> None:
    from importlib import resources

    from kubik.sim.job import RESULT_FREE, code_fingerprint

    root = Path(str(resources.files("kubik")))
    files = [p.relative_to(root).as_posix() for p in root.rglob("*.py")]
    for prefix in RESULT_FREE:
        assert any(f.startswith(prefix) for f in files), f"{prefix} names no file"
    for deciding in ("engine/odds.py", "game/session.py", "sim/outcome.py", "bots/heuristic.py"):
        assert not deciding.startswith(RESULT_FREE)
    assert len(code_fingerprint()) == 16
