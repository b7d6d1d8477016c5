"""Facing, wheeling and flank and rear charges played on the table (FB-ABSENT-07,
FB-ABSENT-10, FB-ABSENT-19)."""

from __future__ import annotations

import pytest

from kubik.game import ScenarioError, parse_scenario
from kubik.rulesets.fantasy.close_combat import Facing, charged_face, ranks_cancelled
from kubik.rulesets.fantasy.movement import charge_distance, may_wheel, wheel_inches
from kubik.rulesets.fantasy.turns import check_scenario
from tests.fantasy.positions import play, position, rules, said

TARGET = {"id": "target", "side": "b", "models": 10, "files": 5}
KNIGHTS = {"id": "knights", "side": "a", "models": 5, "files": 5, "kind": "cavalry"}
KNIGHT = "{ m = 7, ws = 4, bs = 3, s = 4, t = 3, w = 1, i = 3, a = 1, ld = 8 }"


def test_fb_absent_19_a_wheel_costs_what_the_outer_corner_travels() -> None:
    """FB-ABSENT-19: frontage × angle in radians, rounded up to a tenth."""
    assert wheel_inches(5.5, 90) == 8.7  # 5.5 × π/2 = 8.639…
    assert wheel_inches(5.5, 0) == 0
    assert charge_distance(5.5, 45, 2.0) == 6.4  # 4.32 → 4.4, + 2
    assert may_wheel(8.7, 8.0, engaged=False, fleeing=False).allowed is False
    assert may_wheel(8.7, 9.0, engaged=False, fleeing=False).rules == ("FB-ABSENT-19",)
    assert may_wheel(1.0, 9.0, engaged=True, fleeing=False).allowed is False


def test_fb_absent_07_the_charged_face_is_read_from_the_arcs() -> None:
    """FB-ABSENT-07: the 90° front and rear arcs off the corners; the rest is flank."""
    assert charged_face(0.0, 5.0, 3.0, 2.0) is Facing.FRONT
    assert charged_face(7.9, 5.0, 3.0, 2.0) is Facing.FRONT  # on the 45° line
    assert charged_face(8.1, 5.0, 3.0, 2.0) is Facing.FLANK
    assert charged_face(-6.0, -1.0, 3.0, 2.0) is Facing.FLANK
    assert charged_face(2.0, -6.0, 3.0, 2.0) is Facing.REAR
    assert ranks_cancelled(Facing.FLANK, 5) and ranks_cancelled(Facing.REAR, 9)
    assert not ranks_cancelled(Facing.FLANK, 4) and not ranks_cancelled(Facing.FRONT, 20)


def test_fb_absent_19_a_regiment_wheels_to_face_its_enemy_as_it_marches() -> None:
    """FB-ABSENT-19: a march east-facing regiment wheels north toward the enemy first."""
    text = position(
        {"id": "mover", "side": "a", "models": 10, "files": 5, "front": [10, 6], "facing": 90},
        {**TARGET, "front": [10, 30], "facing": "south"},
    )
    session = play(text, a=("march",), b=("hold",))
    wheel = said(session, "fantasy.game.wheeled")
    # 5.4" frontage: a 90° wheel would cost 8.5"; a march of 8" pays for 84° (8.0")
    assert wheel and dict(wheel[0].event.params)["degrees"] == 84
    assert not said(session, "fantasy.game.moved")


@pytest.mark.parametrize(
    ("front", "facing", "face"),
    [([30, 11], "west", "flank"), ([20, 2], "north", "rear"), ([20, 20], "south", "front")],
)
def test_fb_absent_10_a_charge_strikes_the_face_its_front_lies_in(
    front: list[int], facing: str, face: str
) -> None:
    """FB-ABSENT-10/07: the charger wheels once to align with the face it lies in, and
    the combat scores the flank (+1) or rear (+2) bonus and cancels the rank bonus."""
    text = position(
        {**KNIGHTS, "profile": KNIGHT, "front": front, "facing": facing},
        {**TARGET, "front": [20, 12], "facing": "north"},
    )
    session = play(text, a=("charge",), b=("hold",))
    assert said(session, f"fantasy.game.engaged_{face}")
    if face == "front":
        assert not said(session, "fantasy.combat.ranks_cancelled")
        return
    bonus = said(session, f"fantasy.combat.{face}")
    game = session.state
    scored = {"side": game.name(KNIGHTS["id"]), "bonus": 1 if face == "flank" else 2}
    assert bonus and dict(bonus[0].event.params) == scored
    cancelled = said(session, "fantasy.combat.ranks_cancelled")
    assert cancelled and dict(cancelled[0].event.params)["side"] == game.name(TARGET["id"])
    assert rules(session)["FB-ABSENT-07"] > 0


def test_a_scenario_facing_is_a_compass_word_or_degrees() -> None:
    text = position({**TARGET, "front": [20, 12], "facing": "up"})
    with pytest.raises(ScenarioError, match=r"units\[0\]\.facing: 'up'; allowed: north, east"):
        check_scenario(parse_scenario(text, "bad.toml"))
