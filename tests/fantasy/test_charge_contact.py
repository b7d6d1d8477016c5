"""A charge whose way crosses its target's models (FB-ABSENT-10, FB-ABSENT-07): the
regiment moves straight at its final facing, and a flank charge begun beside the
target's front corner slides along the flank so close that, on the table's 0.1" grid,
its way cuts into the corner model. The contact rule stops it where it first meets the
target; the charge has reached, into the face it really touches, with that face's bonus.
"""

from __future__ import annotations

import random

from kubik.engine.log import EventEntry
from kubik.engine.run import play
from kubik.game import parse_scenario
from kubik.game.battle import clear_of, overlapping, touching
from kubik.rulesets.fantasy.battle import charges
from kubik.rulesets.fantasy.battle.charges import charge_plan
from kubik.rulesets.fantasy.battle.game import FantasyBattle
from kubik.rulesets.fantasy.battle.melee import round_of
from kubik.rulesets.fantasy.battle.units import ChargePlan
from kubik.rulesets.fantasy.close_combat import Facing
from tests.fantasy.positions import position
from tests.game.ways import overlaps, up_to

ENEMY = {"id": "enemy", "side": "b", "models": 10, "files": 5, "front": [24, 20], "facing": "south"}
#: In the enemy's right flank arc, just ahead of its front corner.
CHARGER = {"id": "charger", "side": "a", "models": 5, "files": 5, "front": [28, 18.5]}


def _game(**charger: object) -> FantasyBattle:
    text = position({**CHARGER, "facing": "west", **charger}, ENEMY)
    return FantasyBattle(parse_scenario(text, "crossing.toml"), {})


def test_fb_absent_10_a_flank_charge_stops_where_its_way_meets_the_target() -> None:
    game = _game()
    charger, enemy = game.unit("charger"), game.unit("enemy")
    plan = charge_plan(game, charger, enemy)
    assert plan.face is Facing.FLANK
    start, theirs = charger.front, enemy.bases()

    def rank(p: tuple[float, float]) -> list[object]:
        return charger.bases(p, plan.facing)

    # the natural way, straight to the planned place, cuts into the target's corner
    assert overlaps([start, plan.goal], rank, theirs)  # type: ignore[arg-type]

    # the charge itself, the target holding (the reaction's default)
    log = play(charges.charge, (game, charger, enemy), random.Random(1)).log
    end = charger.front
    assert end != plan.goal and charger.facing == plan.facing
    # no spot of the way it walked overlaps a model of the target
    walked = up_to([start, plan.goal], end)
    assert not overlaps(walked, rank, theirs)  # type: ignore[arg-type]
    # it touches the target where it stopped: the charge reached, into the flank
    mine = charger.bases()
    assert any(touching(a, b) for a in mine for b in theirs)
    assert not any(overlapping(a, b) for a in mine for b in theirs)
    engaged = [
        e
        for e in log
        if isinstance(e, EventEntry) and e.event.id.startswith("fantasy.game.engaged")
    ]
    assert [e.event.id for e in engaged] == ["fantasy.game.engaged_flank"]
    assert "FB-ABSENT-07" in engaged[0].rules
    assert game.contacts.engaged("charger", "enemy")
    # the face is the rule's own answer from where it met the target (FB-ABSENT-07),
    # and the round it starts scores the flank bonus
    assert charge_plan(game, charger, enemy).face is Facing.FLANK
    assert charger.faces["enemy"] is Facing.FLANK
    assert (
        round_of(game, charger, enemy, 1, charge_plan(game, charger, enemy)).a.facing
        is Facing.FLANK
    )


def test_fb_absent_07_a_charge_meeting_another_face_is_aligned_to_it() -> None:
    """A flank charge that met the target where its front lies in the front arc charges
    the front: the charger is aligned to the front (its wheel and touching place from
    where it met the target), and the front is the face its bonus is scored for."""
    game = _game(front=[24.4, 18.4], facing="north")
    charger, enemy = game.unit("charger"), game.unit("enemy")
    flank = charge_plan(game, game.unit("charger"), enemy)
    assert flank.face is Facing.FRONT  # (from here a charge goes into the front)
    planned = ChargePlan(Facing.FLANK, 270, flank.goal, flank.distance)
    met = charges.align(game, charger, enemy, planned)
    assert met.face is Facing.FRONT and met != planned
    assert charger.facing == met.facing == 0 and charger.front == met.goal
    mine, theirs = charger.bases(), enemy.bases()
    assert clear_of(mine, (), may_touch=theirs) and not clear_of(mine, theirs)
    # on the planned face it stands where it met the target, as it is
    again = _game(front=[24.4, 18.4], facing="north")
    same = charge_plan(again, again.unit("charger"), again.unit("enemy"))
    assert charges.align(again, again.unit("charger"), again.unit("enemy"), same) is same
