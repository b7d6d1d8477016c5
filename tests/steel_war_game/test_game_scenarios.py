"""Bad Steel War scenarios: one line naming the field, what was given and what is allowed."""

from __future__ import annotations

import pytest

from kubik.game import ScenarioError, list_scenarios, load_scenario

from .builders import scenario, scenario_text, unit

POND = """
[[terrain]]
id = "pond"
kind = "impassable"
water = true
points = [[10, 10], [14, 10], [14, 14], [10, 14]]
"""


def problem(text_units: list[str], **kwargs: object) -> str:
    with pytest.raises(ScenarioError) as caught:
        scenario(text_units, **kwargs)
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_the_demo_is_listed_and_loads() -> None:
    ids = [s.id for s in list_scenarios()]
    assert "steel_war.demo" in ids
    demo = load_scenario("steel_war.demo")
    assert demo.ruleset == "steel_war" and demo.turn_limit == 8
    assert len(demo.units) >= 6 and len(demo.terrain) >= 5


def test_a_good_small_scenario_passes() -> None:
    sc = scenario([unit("a", "steel", (6, 4)), unit("b", "lianra", (6, 18))])
    assert [u.id for u in sc.units] == ["a", "b"]


def test_unknown_weapon_names_the_field_and_lists_weapons() -> None:
    message = problem([unit("a", "steel", (6, 4), weapons=(("laser", 2),))])
    assert "units[0].weapons[0].weapon: no weapon 'laser'; weapons: primitive, pistol" in message


def test_unknown_quality_names_the_field() -> None:
    message = problem([unit("a", "steel", (6, 4)), unit("b", "lianra", (6, 18), quality="heroes")])
    assert message.startswith("test.toml: units[1].quality: 'heroes'")
    assert "untrained" in message and "elite" in message


def test_leadership_out_of_range_names_the_field() -> None:
    message = problem([unit("a", "steel", (6, 4), leadership=4)])
    assert "units[0].leadership: 4" in message


def test_unknown_unit_field_is_an_error() -> None:
    message = problem([unit("a", "steel", (6, 4), stealth=True)])
    assert "units[0].stealth: unknown field" in message


def test_bad_armour_die() -> None:
    message = problem([unit("a", "steel", (6, 4), armour="d7")])
    assert "units[0].armour: 'd7' is not a man's armour (SW-DMG-04); allowed: d4 (a man)" in message


def test_unit_off_the_table() -> None:
    message = problem([unit("a", "steel", (0.5, 4))])
    assert "units[0].position: (0.5, 4) puts model 1 of 4 off the 24 x 24 table" in message


def test_unit_inside_impassable_terrain() -> None:
    message = problem([unit("a", "steel", (12, 12))], terrain=POND)
    assert "units[0].position: (12, 12) puts model" in message
    assert "inside terrain 'pond', impassable for it (SW-MOVE-03)" in message


def test_overlapping_squads() -> None:
    message = problem([unit("a", "steel", (6, 4)), unit("b", "lianra", (7, 4.5))])
    assert "units[1].position: its models overlap those of units[0] ('a')" in message


def test_bad_option_value_and_unknown_side() -> None:
    message = problem([unit("a", "steel", (6, 4))], options='motivation = "heroic"')
    assert message.startswith("test.toml: options.motivation: 'heroic'")
    message = problem([unit("a", "steel", (6, 4))], options='[options.sides.keno]\nedge = "east"')
    assert "options.sides.keno: no side 'keno'; sides: steel, lianra" in message


def test_two_sides_on_one_edge() -> None:
    options = '[options.sides.steel]\nedge = "north"\n[options.sides.lianra]\nedge = "north"'
    message = problem([unit("a", "steel", (6, 4))], options=options)
    assert "options.sides: two sides have the same table edge" in message


def test_officer_commands_checked() -> None:
    message = problem(
        [unit("a", "steel", (6, 4), officer=True, commands=("zz",))],
    )
    assert "units[0].commands[0]: no unit 'zz'; units: a" in message
    message = problem([unit("a", "steel", (6, 4)), unit("b", "steel", (16, 4), commands=("a",))])
    assert "units[1].commands: only an officer (officer = true) commands squads" in message


def test_bad_end_section() -> None:
    message = problem([unit("a", "steel", (6, 4))], end="turn_limit = 0")
    assert "end.turn_limit: 0" in message
    message = problem(
        [unit("a", "steel", (6, 4))],
        end='turn_limit = 3\nobjectives = [{ id = "hill", x = 30, y = 2 }]',
    )
    assert "end.objectives[0]: (30, 2) is off the 24 x 24 table" in message


def test_missing_table_and_bad_terrain() -> None:
    text = scenario_text([unit("a", "steel", (6, 4))]).replace(
        "[table]\nwidth = 24\nheight = 24\n", ""
    )
    from kubik.game import parse_scenario

    with pytest.raises(ScenarioError, match=r"table: missing \(required\)"):
        parse_scenario(text, "x.toml")
    bad = '[[terrain]]\nid = "w"\npoints = [[1, 1], [2, 2]]\n'
    assert "terrain[0].points: a polygon needs at least 3 points" in problem(
        [unit("a", "steel", (6, 4))], terrain=bad
    )
