"""Scenario data for Russian names: ``name_ru_cases`` and ``gender_ru`` on sides and units,
checked with one-line errors, and carried by every name the game layer builds."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kubik.engine.requests import Message, msg
from kubik.game import ScenarioError, load_scenario, parse_scenario, side_name
from kubik.game.turns import unit_name
from kubik.text.i18n import render
from tests.engine.test_russian_names import BUILT_IN
from tests.game.skirmish import SCENARIO, SkirmishGame

CASES = ("gen", "dat", "acc", "ins", "loc")


def _cases(name: Message) -> tuple[str, ...]:
    """The name in every oblique case and its gender, as Russian templates render them."""
    return tuple(render(msg("kubik.test.cases", name=name), "ru").split("|"))


def _with(text: str, after: str, lines: str) -> str:
    assert after in text
    return text.replace(after, after + lines, 1)


ANN = 'name_ru = "Анна"\n'
RED = 'name_ru = "Красные"\n'


@pytest.mark.parametrize(
    ("after", "lines", "error"),
    [
        (
            RED,
            'name_ru_cases = { abl = "Красными" }\n',
            "skirmish.toml: sides[0].name_ru_cases.abl: no such case; "
            "cases: gen, dat, acc, ins, loc (nom is name_ru)",
        ),
        (
            ANN,
            'name_ru_cases = { gen = " " }\n',
            "skirmish.toml: units[0].name_ru_cases.gen: empty; "
            "give the name in that case or leave it out",
        ),
        (
            ANN,
            'gender_ru = "female"\n',
            'skirmish.toml: units[0].gender_ru: "female" is not allowed; '
            'allowed: "m", "f", "n" or "pl"',
        ),
        (
            RED,
            "name_ru_cases = { gen = 3 }\n",
            "skirmish.toml: sides[0].name_ru_cases.gen: 3 is not text",
        ),
    ],
)
def test_bad_name_data_is_one_line_naming_the_field(after: str, lines: str, error: str) -> None:
    with pytest.raises(ScenarioError) as raised:
        parse_scenario(_with(SCENARIO, after, lines), "skirmish.toml", check_ruleset=False)
    assert str(raised.value) == error


def test_a_ruleset_never_sees_the_name_data_of_its_units() -> None:
    """Old West checks its units strictly (no unknown field), and still accepts them."""
    text = load_scenario("old_west.demo").text
    text = _with(
        text, 'name_ru = "Фрэнк"\n', 'gender_ru = "m"\nname_ru_cases = { ins = "Фрэнком" }\n'
    )
    scenario = parse_scenario(text, "demo.toml")
    frank = next(u for u in scenario.units if u.id == "frank")
    assert "gender_ru" not in frank.data and "name_ru_cases" not in frank.data
    assert unit_name(scenario, "frank").kwargs["ru_ins"] == "Фрэнком"


def test_side_and_unit_names_carry_the_forms_of_the_data() -> None:
    text = _with(SCENARIO, RED, 'gender_ru = "pl"\nname_ru_cases = { dat = "Красным бойцам" }\n')
    text = _with(text, ANN, 'name_ru_cases = { acc = "Аннушку" }\n')
    scenario = parse_scenario(text, "skirmish.toml", check_ruleset=False)
    assert _cases(side_name(scenario, "red")) == (
        "Красных",
        "Красным бойцам",
        "Красных",
        "Красными",
        "Красных",
        "pl",
    )
    assert _cases(unit_name(scenario, "r1")) == ("Анны", "Анне", "Аннушку", "Анной", "Анне", "f")
    assert render(unit_name(scenario, "r2"), "ru") == "r2"  # no name: the id, as written


@pytest.fixture
def skirmish_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("KUBIK_HOME", str(tmp_path / "home"))
    yield


def test_a_battle_knows_every_unit_name_and_keeps_the_data_forms(skirmish_home: None) -> None:
    text = _with(SCENARIO, ANN, 'name_ru_cases = { acc = "Аннушку" }\ngender_ru = "f"\n')
    scenario = parse_scenario(text, "skirmish.toml", check_ruleset=False)
    game = SkirmishGame(scenario, {})  # registers its names again, without forms
    anna = game.name("r1")
    assert anna.kwargs["ru_acc"] == "Аннушку" and anna.kwargs["ru_gender"] == "f"
    again = game.set_name("r1", "Ann", "Анна", cases={"ins": "Анною"}, gender="m")
    assert again.kwargs["ru_acc"] == "Аннушку" and again.kwargs["ru_ins"] == "Анною"
    assert again.kwargs["ru_gender"] == "f"  # the scenario's word wins
    renamed = game.set_name("r1", "Betty", "Бетти")  # another name: the old forms go
    assert "ru_acc" not in renamed.kwargs
    assert game.name("r2").kwargs == {"en": "r2", "ru": "r2"}
    assert game.name("nobody").kwargs == {"en": "nobody", "ru": "nobody"}


def _built_in_names() -> Iterator[tuple[str, str, Message]]:
    for scenario_id in ("steel_war.demo", "steel_war.convoy", "old_west.demo", "old_west.bank_job"):
        scenario = load_scenario(scenario_id)
        for side in scenario.side_ids:
            yield scenario_id, side, side_name(scenario, side)
        for unit in scenario.units:
            yield scenario_id, unit.id, unit_name(scenario, unit.id)


def test_the_built_in_scenarios_names_in_every_case() -> None:
    """Every side and unit name of the built-in scenarios, as the game renders it (the
    scenario's own forms included: Док is a man, «стреляет в Дока»)."""
    expected = dict(BUILT_IN)
    expected["Док"] = ("Дока", "Доку", "Дока", "Доком", "Доке", "m")
    checked = 0
    for scenario_id, key, name in _built_in_names():
        ru = render(name, "ru")
        if ru in expected:
            assert _cases(name) == expected[ru], (scenario_id, key)
            checked += 1
    assert checked >= 45  # the four scenarios of today: every side and unit has its row
