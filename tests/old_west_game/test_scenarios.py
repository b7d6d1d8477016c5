"""Bad Old West scenarios: one clear line naming the field, for every kind of mistake."""

from __future__ import annotations

import pytest

from kubik.core.errors import KubikError
from kubik.game import ScenarioError

from .helpers import battle, unit

GOOD_GANG = unit("joe", "gang", "outlaw", 20, 12)


def error_of(*units: str, **kwargs: object) -> str:
    with pytest.raises(ScenarioError) as caught:
        battle(*units, **kwargs)  # type: ignore[arg-type]
    text = str(caught.value)
    assert "\n" not in text and isinstance(caught.value, KubikError)
    return text


def test_unknown_weapon_names_the_field_and_the_choices() -> None:
    text = error_of(unit("sam", "law", "deputy", 3, 12, 'weapons = ["pistol", "laser"]'), GOOD_GANG)
    assert "units[0].weapons[1]: no weapon 'laser'; weapons: pistol, carbine, rifle" in text


def test_unknown_profile_names_the_field() -> None:
    text = error_of(unit("sam", "law", "sheriff", 3, 12), GOOD_GANG)
    assert "units[0].profile: no profile 'sheriff'; profiles: brawler, deputy" in text


def test_unknown_or_out_of_range_unit_field() -> None:
    assert "units[1].horse: unknown field" in error_of(
        unit("sam", "law", "deputy", 3, 12), unit("joe", "gang", "outlaw", 20, 12, "horse = 1")
    )
    assert "units[0].shoot:" in error_of(
        unit("sam", "law", "deputy", 3, 12, "shoot = 9"), GOOD_GANG
    )
    assert "units[0].position:" in error_of(
        '[[units]]\nid = "sam"\nside = "law"\nprofile = "deputy"\n', GOOD_GANG
    )


def test_a_unit_off_the_table() -> None:
    text = error_of(unit("sam", "law", "deputy", 30, 12), GOOD_GANG)
    assert text.startswith("test.toml: units[0].position: (30, 12) puts the")
    assert "off the 24 x 24 table" in text


def test_a_unit_inside_impassable_terrain_or_on_another() -> None:
    house = """
[[terrain]]
id = "house"
kind = "impassable"
points = [[2, 10], [6, 10], [6, 14], [2, 14]]
"""
    text = error_of(unit("sam", "law", "deputy", 4, 12), GOOD_GANG, terrain=house)
    assert "units[0].position: (4, 12) is inside impassable terrain" in text
    text = error_of(unit("sam", "law", "deputy", 20.5, 12), GOOD_GANG)
    assert "units[1].position: the base overlaps 'sam'" in text


def test_bad_options_name_the_option() -> None:
    sam = unit("sam", "law", "deputy", 3, 12)
    assert "options.leaders.law: 'joe' is not a model of side 'law'" in error_of(
        sam, GOOD_GANG, options='leaders = { law = "joe" }'
    )
    assert "options.fame.sam: 20; allowed: 0..10" in error_of(
        sam, GOOD_GANG, options="fame = { sam = 20 }"
    )
    assert "units[0].fame: only a Hero" in error_of(sam, GOOD_GANG, options="fame = { sam = 2 }")
    assert "options.speed: unknown field" in error_of(sam, GOOD_GANG, options="speed = 3")
    assert "options.heroic_actions:" in error_of(sam, GOOD_GANG, options='heroic_actions = "x"')


def test_bad_end_and_leaders() -> None:
    sam = unit("sam", "law", "deputy", 3, 12, "leader = true")
    assert "end.turn_limit:" in error_of(sam, GOOD_GANG, turn_limit=0)
    two = error_of(sam, unit("bob", "law", "deputy", 3, 16, "leader = true"), GOOD_GANG)
    assert "units: side 'law' has 2 leaders (sam, bob); at most 1" in two
