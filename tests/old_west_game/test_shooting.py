"""The Shooting phase measured on the table and applied (OW-ABSENT-04, OW-PLK-06, OW-HERO-05)."""

from __future__ import annotations

import itertools
from collections.abc import Generator
from fractions import Fraction
from typing import Any

from kubik.engine import Choose
from kubik.engine.forecast import expected_value
from kubik.rulesets.old_west.battle.figures import Figure, Nerve, Stance
from kubik.rulesets.old_west.battle.game import OldWestGame
from kubik.rulesets.old_west.battle.line_of_fire import Blocker, in_the_way
from kubik.rulesets.old_west.battle.options import ShootAt
from kubik.rulesets.old_west.battle.shots import shoot_with

from .helpers import FENCE, Script, battle, event_ids, game_of, play, state_of, unit


def targets(game: OldWestGame, figure: Figure) -> list[ShootAt]:
    """The shots the model is offered (the first decision of its shot), nearest first."""
    steps: Generator[Any, Any, bool] = shoot_with(game, figure)
    try:
        request = next(steps)
    except StopIteration:
        return []
    assert isinstance(request, Choose)
    return [o for o in request.options if isinstance(o, ShootAt)]


BEHIND_FENCE = (
    unit("sam", "law", "deputy", 2, 12, 'weapons = ["rifle"]'),
    unit("joe", "gang", "outlaw", 13.3, 12, 'weapons = ["pistol"]'),
)


def game_with(*units: str, terrain: str = FENCE) -> OldWestGame:
    return game_of(battle(*units, terrain=terrain))


def test_OW_ABSENT_04_shot_situation_is_measured_on_the_table() -> None:
    """Edge-to-edge distance (11.3" between centres less two 25 mm bases), the fence 0.3"
    in front of the target is in the way; a friend standing on the line is too."""
    game = game_with(*BEHIND_FENCE)
    sam, joe = game.figure("sam"), game.figure("joe")
    (option,) = targets(game, sam)
    assert (option.target, option.weapon, option.distance, option.in_the_way) == (
        "joe",
        "rifle",
        10.3,
        1,
    )
    assert in_the_way(game, sam, joe) == (Blocker("fence", False),)
    crowded = game_with(*BEHIND_FENCE, unit("pete", "gang", "outlaw", 7, 12.2))
    sam, joe = crowded.figure("sam"), crowded.figure("joe")
    # nearest the shooter first: Pete (7") before the fence (12.5")
    assert [(b.id, b.model) for b in in_the_way(crowded, sam, joe)] == [
        ("pete", True),
        ("fence", False),
    ]
    # out of the pistol's 12" the outlaw has no target; in the open nothing is in the way
    far = game_with(
        unit("sam", "law", "deputy", 2, 12, 'weapons = ["rifle"]'),
        unit("joe", "gang", "outlaw", 16, 12, 'weapons = ["pistol"]'),
        terrain="",
    )
    assert targets(far, far.figure("joe")) == []
    (shot,) = targets(far, far.figure("sam"))
    assert (shot.distance, shot.in_the_way) == (13.0, 0)


def test_OW_ABSENT_04_shot_forecast_is_the_rule_odds() -> None:
    """The forecast of a shot is the shoot rule on the measured situation: hit on 4+, the
    fence stops it on 1-3, Strength 3 wounds Toughness 3 on 4+ (brute force: 1/8)."""
    game = game_with(*BEHIND_FENCE)
    sam = game.figure("sam")
    script = Script(shots={"sam": "joe"})
    play(battle(*BEHIND_FENCE, terrain=FENCE), [6, 1], script)  # stops at the to-hit roll
    request = next(r for r in script.asked if isinstance(r.options[0], ShootAt))
    forecast = request.forecasts[0]
    assert forecast is not None
    wounds = sum(
        1
        for hit, way, wound in itertools.product(range(1, 7), repeat=3)
        if hit >= 4 and way >= 4 and wound >= 4
    )
    assert expected_value(forecast) == Fraction(wounds, 216) == Fraction(1, 8)
    assert targets(game, sam)[0] == request.options[0]


def test_OW_PLK_06_hit_but_unhurt_behind_cover_lies_down_and_cannot_shoot_back() -> None:
    script = Script(shots={"sam": "joe", "joe": "sam"})
    # advantage 6-1 law; hit 4, the fence 5 (passes), wound 3 (fails); Pluck 1+2+2 fails
    session = play(battle(*BEHIND_FENCE, terrain=FENCE), [6, 1, 4, 5, 3, 1, 2], script)
    joe = state_of(session).figure("joe")
    assert joe.stance is Stance.PRONE and joe.in_action and joe.wounds_taken == 0
    assert "old_west.game.lies_down" in event_ids(session)
    shooters = [r.options[0].model for r in script.asked if isinstance(r.options[0], ShootAt)]
    assert shooters == ["sam"]  # joe, pinned, had no shot


def test_OW_ABSENT_04_a_wounding_shot_takes_a_one_wound_model_out_and_ends_the_game() -> None:
    session = play(
        battle(*BEHIND_FENCE, terrain=FENCE), [6, 1, 4, 5, 5], Script(shots={"sam": "joe"})
    )
    assert session.finished and session.result is not None
    assert (session.result.winner, session.result.turns) == ("law", 1)
    assert session.result.side("gang").count("models_lost") == 1
    assert "old_west.game.out_of_action" in event_ids(session)


def test_OW_HERO_05_fame_on_a_to_hit_roll_is_asked_of_the_posse_and_marked_off() -> None:
    scenario = battle(
        unit("wyatt", "law", "marshal", 2, 12, 'weapons = ["rifle"]'),
        unit("joe", "gang", "outlaw", 14, 12),
    )
    # advantage; to hit 2 (needs 3): 1 Fame makes it 3; wound 4 on S3 v T3
    script = Script(shots={"wyatt": "joe"}, fame=[1])
    session = play(scenario, [6, 1, 2, 4], script)
    fame_asks = [r for r in script.asked if r.reason.id == "old_west.fame.spend_hit"]
    assert [r.side for r in fame_asks] == ["law"]
    wyatt = state_of(session).figure("wyatt")
    assert wyatt.fame == 2
    assert "old_west.game.fame_spent" in event_ids(session)
    assert session.result is not None and session.result.winner == "law"


def test_OW_PLK_05_scared_in_the_movement_phase_a_model_may_shoot_in_the_next() -> None:
    """«Более в эту фазу боец делать ничего не может»: a model scared by a Fearsome
    Reputation in the Movement phase is free again in the Shooting phase."""
    from kubik.rulesets.old_west.battle.shots import shooting_phase

    game = game_with(*BEHIND_FENCE, terrain="")
    sam = game.figure("sam")
    sam.nerve, sam.tested_fearsome = Nerve.SCARED, ("joe",)
    steps = shooting_phase(game)
    request = next(steps)
    while not isinstance(request, Choose):
        request = steps.send(None)
    assert isinstance(request.options[0], ShootAt) and request.options[0].model == "sam"
    assert sam.nerve is Nerve.STEADY
    assert not sam.tested_fearsome
