"""Scenario files: one clear line naming the file and the field for every mistake."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict, ValidationError

from kubik.game import (
    Scenario,
    ScenarioError,
    ScenarioSource,
    UnknownRulesetError,
    field_error,
    get_ruleset,
    list_scenarios,
    load_scenario,
    load_scenario_file,
    parse_scenario,
)
from kubik.game.paths import store_path, user_scenarios_dir
from tests.game.toy import SCENARIO


def error_of(text: str, origin: str = "demo.toml") -> str:
    with pytest.raises(ScenarioError) as error:
        parse_scenario(text, origin)
    message = str(error.value)
    assert "\n" not in message, message
    return message


def test_a_scenario_exposes_its_parts(duel: Scenario) -> None:
    assert duel.id == "toy_duel.demo"
    assert (duel.name, duel.name_ru, duel.ruleset) == ("Duel", "Дуэль", "toy_duel")
    assert duel.side_ids == ("steel", "lianra")
    assert duel.side("lianra").controller == "bot"
    assert duel.table == {"width": 24, "depth": 24}
    assert duel.terrain == ()
    assert duel.units[0].data == {"id": "s1", "side": "steel", "hp": 3}
    assert duel.options == {"hit_on": 4}
    assert duel.turn_limit == 6
    assert duel.text == SCENARIO


def test_bad_toml_names_the_line() -> None:
    text = SCENARIO.replace('name = "Duel"', 'name = "Duel', 1)
    message = error_of(text)
    assert message.startswith("demo.toml: line 3: not valid TOML (")


def test_a_missing_field_is_named() -> None:
    text = SCENARIO.replace('name = "Duel"\n', "", 1)
    assert error_of(text) == "demo.toml: scenario.name: required field is missing"


def test_an_unknown_header_field_is_named() -> None:
    text = SCENARIO.replace('name = "Duel"\n', 'name = "Duel"\nauthor = "me"\n', 1)
    assert error_of(text) == "demo.toml: scenario.author: unknown field"


def test_an_unknown_side_is_named_with_the_sides() -> None:
    text = SCENARIO.replace('id = "l1"\nside = "lianra"', 'id = "l1"\nside = "keno"')
    assert error_of(text) == "demo.toml: units[2].side: no side 'keno'; sides: steel, lianra"


def test_an_unknown_ruleset_is_named() -> None:
    text = SCENARIO.replace('ruleset = "toy_duel"', 'ruleset = "chess"')
    message = error_of(text)
    assert message.startswith("demo.toml: scenario.ruleset: unknown ruleset 'chess'; rulesets: ")
    assert "toy_duel" in message


def test_a_duplicate_unit_id_is_named() -> None:
    text = SCENARIO.replace('id = "s2"', 'id = "s1"')
    assert error_of(text) == "demo.toml: units[1].id: unit 's1' is given twice (also units[0])"


def test_a_duplicate_side_id_is_named() -> None:
    text = SCENARIO.replace('id = "lianra"', 'id = "steel"').replace('"lianra"', '"steel"')
    assert error_of(text) == "demo.toml: sides[1].id: side 'steel' is given twice"


def test_a_unit_without_a_side_is_named() -> None:
    text = SCENARIO.replace('id = "s2"\nside = "steel"\n', 'id = "s2"\n')
    assert error_of(text) == "demo.toml: units[1].side: required field is missing"


def test_the_ruleset_checks_the_rest_and_the_file_is_named() -> None:
    text = SCENARIO.replace("hp = 2", "hp = 0")
    assert error_of(text) == "demo.toml: units[1].hp: 0; a whole number 1 or more"
    text = SCENARIO.replace("hit_on = 4", "hit_on = 9")
    assert error_of(text) == "demo.toml: options.hit_on: 9; allowed: 2..6"


def test_a_bad_controller_and_a_bad_id_are_named() -> None:
    text = SCENARIO.replace('name_ru = "Лианра"', 'name_ru = "Лианра"\ncontroller = "cat"')
    assert error_of(text).startswith("demo.toml: sides[1].controller: ")
    text = SCENARIO.replace('id = "toy_duel.demo"', 'id = "Toy Duel"')
    assert error_of(text).startswith('demo.toml: scenario.id: "Toy Duel" is not a valid id')


def test_a_ruleset_without_a_game_adapter_is_a_clear_error() -> None:
    with pytest.raises(UnknownRulesetError, match="unknown ruleset 'nope'"):
        get_ruleset("nope")


def test_user_scenarios_are_found_in_kubik_home(tmp_path: Path) -> None:
    folder = user_scenarios_dir()
    assert folder == tmp_path / "home" / "scenarios"
    assert store_path() == tmp_path / "home" / "games.sqlite3"
    folder.mkdir(parents=True)
    (folder / "duel.toml").write_text(SCENARIO, encoding="utf-8")
    (folder / "broken.toml").write_text("[scenario\n", encoding="utf-8")
    found = {info.id: info for info in list_scenarios()}
    duel = found["toy_duel.demo"]
    assert (duel.name, duel.ruleset, duel.source) == ("Duel", "toy_duel", ScenarioSource.USER)
    assert duel.error is None
    broken = found["broken"]
    assert broken.error is not None and broken.error.startswith("broken.toml: line 1:")
    assert duel.to_json()["source"] == "user"
    loaded = load_scenario("toy_duel.demo")
    assert loaded.source is ScenarioSource.USER and loaded.id == "toy_duel.demo"
    by_path = load_scenario(str(folder / "duel.toml"))
    assert by_path.source is ScenarioSource.FILE


def test_built_in_scenarios_are_listed_as_built_in() -> None:
    for info in list_scenarios():
        if info.source is ScenarioSource.BUILT_IN:
            assert info.error is None, info.error
            assert info.id.startswith(f"{info.ruleset}.")


def test_an_unknown_scenario_lists_the_known_ones(tmp_path: Path) -> None:
    folder = user_scenarios_dir()
    folder.mkdir(parents=True)
    (folder / "duel.toml").write_text(SCENARIO, encoding="utf-8")
    with pytest.raises(
        ScenarioError, match=r"unknown scenario 'nope'; scenarios: .*toy_duel\.demo"
    ):
        load_scenario("nope")


def test_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match=r"^absent\.toml: cannot be read"):
        load_scenario_file(tmp_path / "absent.toml")


def test_a_scenario_needs_two_sides() -> None:
    start = SCENARIO.index('[[sides]]\nid = "lianra"')
    end = SCENARIO.index("[options]")
    text = SCENARIO[:start] + SCENARIO[end:]
    text = text.replace('side = "lianra"', 'side = "steel"')
    assert error_of(text) == "demo.toml: sides: needs at least 2 items"


@pytest.mark.parametrize(
    ("old", "new", "russian"),
    [
        ('name = "Duel"\n', "", "demo.toml: scenario.name: обязательное поле не задано"),
        (
            'name = "Duel"\n',
            'name = "Duel"\nauthor = "me"\n',
            "demo.toml: scenario.author: такого поля нет",
        ),
        (
            'id = "l1"\nside = "lianra"',
            'id = "l1"\nside = "keno"',
            "demo.toml: units[2].side: нет стороны «keno»; стороны: steel, lianra",
        ),
        (
            'id = "s2"',
            'id = "s1"',
            "demo.toml: units[1].id: отряд «s1» указан дважды (он уже есть в units[0])",
        ),
        (
            'ruleset = "toy_duel"',
            'ruleset = "chess"',
            "demo.toml: scenario.ruleset: нет свода правил «chess»; своды правил: ",
        ),
        (
            'name = "Duel"',
            'name = "Duel',
            "demo.toml: строка 3: это не TOML (",
        ),
        (
            'id = "toy_duel.demo"',
            'id = "Toy Duel"',
            'demo.toml: scenario.id: "Toy Duel" — недопустимый идентификатор '
            "(строчные латинские буквы, цифры и «_», части через «.»)",
        ),
    ],
)
def test_a_scenario_error_is_told_in_russian_too(old: str, new: str, russian: str) -> None:
    with pytest.raises(ScenarioError) as error:
        parse_scenario(SCENARIO.replace(old, new, 1), "demo.toml")
    assert error.value.text("ru").startswith(russian), error.value.text("ru")


def test_field_error_names_a_rulesets_own_fields() -> None:
    class Weapon(BaseModel):
        model_config = ConfigDict(extra="forbid")
        range: int

    class Unit(BaseModel):
        weapons: tuple[Weapon, ...]

    with pytest.raises(ValidationError) as error:
        Unit.model_validate({"weapons": [{"range": 3}, {"range": 2, "ammo": 1}]})
    assert str(field_error(error.value, "units[2]")) == "units[2].weapons[1].ammo: unknown field"
    assert str(field_error(error.value)) == "weapons[1].ammo: unknown field"
