"""Ground on the table: difficult ground and water at half pace, impassable ground
refused, Aquatic units at home in water (FB-MOV-04), flyers over it all (FB-MOV-02)."""

from __future__ import annotations

import pytest

from kubik.engine.log import ChoiceEntry
from kubik.game import parse_scenario
from kubik.game.errors import ScenarioError
from kubik.rulesets.fantasy.battle.charges import charge_plan, charge_verdict
from kubik.rulesets.fantasy.battle.game import FantasyBattle
from kubik.rulesets.fantasy.battle.ground import way
from kubik.rulesets.fantasy.movement import Ground, may_charge, may_cross, may_march, pace
from tests.fantasy.positions import play, position, said

F = frozenset
RIVER = {"id": "river", "ground": "water", "points": "[[0, 8], [48, 8], [48, 20], [0, 20]]"}
ENEMY = {"id": "enemy", "side": "b", "models": 5, "files": 5, "front": [24, 34], "facing": "south"}


def regiment(front: list[float], **fields: object) -> dict[str, object]:
    return {"id": "wading", "side": "a", "models": 10, "files": 5, "front": front, **fields}


def marched(text: str) -> tuple[float, tuple[str, ...]]:
    """How far the wading regiment marched in its first move, and the rules it cited."""
    session = play(text, a=("march",), b=("hold",))
    moved = [e for e in said(session, "fantasy.game.moved") if "wading" in str(e.event.params)]
    assert moved
    return float(dict(moved[0].event.params)["inches"]), moved[0].rules


def test_fb_absent_19_ground_paces_are_the_movement_rules_answers() -> None:
    """FB-ABSENT-19 (default, absent from the seeds): difficult ground and water cost two
    inches an inch; FB-MOV-04: water is open to Aquatic units; FB-MOV-02 / FB-SR-06:
    flyers in the air and ethereal units ignore ground."""
    assert pace(F(), F()) == (1, ())
    assert pace(F(), F({Ground.DIFFICULT})) == (2, ("FB-ABSENT-19",))
    assert pace(F(), F({Ground.WATER})) == (2, ("FB-ABSENT-19",))
    assert pace(F({"aquatic"}), F({Ground.WATER})) == (1, ("FB-MOV-04",))
    assert pace(F({"aquatic"}), F({Ground.WATER, Ground.DIFFICULT}))[0] == 2
    assert pace(F({"fly"}), F({Ground.DIFFICULT}), flying=True) == (1, ("FB-MOV-02",))
    assert pace(F({"ethereal"}), F({Ground.WATER})) == (1, ("FB-SR-06",))


def test_fb_absent_19_impassable_ground_is_refused_with_its_rule() -> None:
    """No unit goes into impassable ground; flyers and ethereal ones pass over or
    through it but end no move in it (FB-MOV-02, FB-SR-06)."""
    refused = may_cross(F(), F({Ground.IMPASSABLE}), F())
    assert not refused.allowed and refused.rules == ("FB-ABSENT-19",)
    assert may_cross(F({"fly"}), F({Ground.IMPASSABLE}), F(), flying=True).allowed
    ends = may_cross(F({"ethereal"}), F({Ground.IMPASSABLE}), F({Ground.IMPASSABLE}))
    assert not ends.allowed and ends.rules == ("FB-SR-06",)
    assert may_cross(F({"aquatic"}), F({Ground.WATER}), F()).rules == ("FB-MOV-04",)
    charge = may_charge(
        4, 8, engaged=False, fleeing=False, stupid=False, inch_cost=pace(F(), F({Ground.WATER}))
    )
    assert charge.allowed and charge.rules == ("FB-ABSENT-10", "FB-ABSENT-19")
    too_far = may_charge(
        5, 8, engaged=False, fleeing=False, stupid=False, inch_cost=pace(F(), F({Ground.WATER}))
    )
    assert not too_far.allowed and too_far.rules == ("FB-ABSENT-14", "FB-ABSENT-19")
    assert not may_charge(1, 8, engaged=False, fleeing=False, stupid=False, ground=refused).allowed


def test_a_regiment_crossing_water_goes_at_half_pace() -> None:
    """FB-ABSENT-19: a march of 8" into the river goes 4"."""
    text = position(regiment([24, 6]), ENEMY, terrain=[RIVER])
    inches, cited = marched(text)
    assert inches == 4.0 and "FB-ABSENT-19" in cited
    dry, _ = marched(position(regiment([24, 6]), ENEMY))
    assert dry == 8.0


def test_fb_mov_04_an_aquatic_regiment_crosses_water_at_full_pace() -> None:
    """FB-MOV-04: in the river an Aquatic regiment marches its full 8" (water is open
    ground to it, and it is not on land); the same regiment without the rule wades 4"."""
    aquatic = regiment([24, 12], special_rules='["aquatic"]')
    inches, cited = marched(position(aquatic, ENEMY, terrain=[RIVER]))
    assert inches == 8.0 and "FB-MOV-04" in cited
    wading, _ = marched(position(regiment([24, 12]), ENEMY, terrain=[RIVER]))
    assert wading == 4.0


def test_fb_mov_04_on_land_an_aquatic_regiment_does_not_march() -> None:
    """FB-MOV-04: on land it moves its Movement, never twice it: the march is not
    offered (the movement rules refuse it), and it goes at its normal pace."""
    text = position(regiment([24, 2], special_rules='["aquatic"]'), ENEMY)
    session = play(text, a=("march", "advance"), b=("hold",))
    orders = [e for e in session.log if isinstance(e, ChoiceEntry) and e.side == "a"]
    assert orders and all(getattr(o, "kind", "") != "march" for o in orders[0].options)
    moved = [e for e in said(session, "fantasy.game.moved") if "wading" in str(e.event.params)]
    assert moved and float(dict(moved[0].event.params)["inches"]) == 4.0
    assert not may_march(None, rules=F({"aquatic"})).allowed
    assert may_march(None, rules=F({"aquatic"}), on_land=False).allowed


def test_impassable_ground_stops_a_march_and_refuses_a_charge() -> None:
    """FB-ABSENT-19: a march stops short of a crag; a charge through it is refused by
    the movement rules' verdict (the menu offers it forbidden)."""
    crag = {
        "id": "crag",
        "ground": "impassable",
        "points": "[[10, 9], [38, 9], [38, 11], [10, 11]]",
    }
    text = position(regiment([24, 6]), ENEMY, terrain=[crag])
    session = play(text, a=("march",), b=("hold",))
    game = session.state
    assert isinstance(game, FantasyBattle)
    wading = game.unit("wading")
    assert 6 < wading.front[1] <= 9 - wading.spec.size / 2  # up to the crag, not into it
    close = dict(ENEMY, front=[24, 14])
    text = position(regiment([24, 6]), close, terrain=[crag])
    game = FantasyBattle(parse_scenario(text, "crag.toml"), {})
    wading, enemy = game.unit("wading"), game.unit("enemy")
    verdict = charge_verdict(game, wading, charge_plan(game, wading, enemy), 8.0)
    assert not verdict.allowed and verdict.rules == ("FB-ABSENT-19",)
    session = play(text, a=("charge",), b=("hold",))
    assert not said(session, "fantasy.game.charge")
    first = next(e for e in session.log if isinstance(e, ChoiceEntry))
    assert "charge" not in [getattr(o, "kind", None) for o in first.options]
    open_text = position(regiment([24, 6]), close)
    game = FantasyBattle(parse_scenario(open_text, "open.toml"), {})
    wading, enemy = game.unit("wading"), game.unit("enemy")
    assert charge_verdict(game, wading, charge_plan(game, wading, enemy), 8.0).allowed


def test_each_feature_is_found_as_its_own_ground() -> None:
    """A way over the wood meets difficult ground only, one into the crag impassable
    ground only, one through the river water only."""
    wood = {"id": "wood", "ground": "difficult", "points": "[[0, 8], [48, 8], [48, 10], [0, 10]]"}
    crag = {"id": "crag", "kind": "impassable", "points": "[[0, 14], [48, 14], [48, 16], [0, 16]]"}
    pond = {"id": "pond", "ground": "water", "points": "[[0, 20], [48, 20], [48, 22], [0, 22]]"}
    text = position(regiment([24, 4]), ENEMY, terrain=[wood, crag, pond])
    game = FantasyBattle(parse_scenario(text, "grounds.toml"), {})
    unit = game.unit("wading")

    def met(y0: float, y1: float) -> frozenset[Ground]:
        return way(game.tape, unit, (24, y0), (24, y1), 0)[0]

    assert met(4, 6) == F()
    assert met(6, 11) == F({Ground.DIFFICULT})
    assert met(12, 15) == F({Ground.IMPASSABLE})
    assert met(18, 21) == F({Ground.WATER})
    assert met(6, 21) == F(Ground) - {Ground.OPEN}


def test_a_flyer_flies_over_the_river_at_full_pace() -> None:
    """FB-MOV-02: ground is ignored in the air."""
    hawks = regiment([24, 6], special_rules='["fly"]', models=3, files=3)
    inches, cited = marched(position(hawks, ENEMY, terrain=[RIVER]))
    assert inches == 20.0 and cited == ("FB-MOV-02",)


def test_a_terrain_ground_that_is_not_one_names_the_field() -> None:
    """Bad input: one line naming the field and what is allowed."""
    bad = {"id": "bog", "ground": "swamp", "points": "[[0, 8], [4, 8], [4, 12]]"}
    scenario = parse_scenario(position(regiment([24, 2]), ENEMY, terrain=[bad]), "bad.toml")
    with pytest.raises(ScenarioError, match=r"terrain\[0\]\.ground: 'swamp' is not one of"):
        FantasyBattle(scenario, {})
