"""Riders on the table (OW-CC-16, OW-PLK-07, OW-ABSENT-04/06) and honest Fame and Fortune
accounting: the game marks off exactly what the rule outcomes report, on the model
that spent it (OW-HERO-02, OW-ABSENT-07)."""

from __future__ import annotations

import pytest

from kubik.core.errors import ScenarioError
from kubik.engine.log import RollEntry
from kubik.rulesets.old_west.battle.moves import options
from kubik.rulesets.old_west.battle.options import MoveKind
from kubik.rulesets.old_west.battle.spec import foot_base_inches
from kubik.rulesets.old_west.core import Status
from kubik.rulesets.old_west.turns import GAME
from kubik.table import mm_to_inches

from .helpers import FENCE, Script, battle, event_ids, game_of, play, state_of, unit


def rolls(session: object, reason: str) -> list[tuple[int, ...]]:
    log = getattr(session, "log", [])
    return [e.values for e in log if isinstance(e, RollEntry) and e.reason.id == reason]


def test_OW_ABSENT_06_a_shot_that_kills_the_horse_throws_the_rider() -> None:
    """Advantage 6-1; Sam's rifle hits on 4, the horse-or-rider die 2 hits the horse,
    5 wounds its Toughness 3 and kills it; the fall die 3 leaves Joe unhurt but prone;
    hit and not removed, he tests Pluck (1+2+2, failed) and finds no cover."""
    scenario = battle(
        unit("sam", "law", "deputy", 2, 12, 'weapons = ["rifle"]'),
        unit("joe", "gang", "outlaw", 14, 12, 'mounted = "horse"'),
    )
    session = play(scenario, [6, 1, 4, 2, 5, 3, 1, 2], Script(shots={"sam": "joe"}))
    joe = state_of(session).figure("joe")
    assert not joe.mounted and joe.prone and joe.in_action and joe.wounds_taken == 0
    assert joe.base.diameter == pytest.approx(foot_base_inches())
    ids = event_ids(session)
    assert ids.index("old_west.game.mount_killed") < ids.index("old_west.game.thrown")
    assert rolls(session, "old_west.fall_from_horse.roll") == [(3,)]


def test_OW_PLK_07_a_rider_behind_cover_dismounts_instead_of_lying_down() -> None:
    """The shot clears the fence (5), hits the rider (horse-or-rider 5) and fails to wound
    (1); Joe tests with his own Pluck 2 (1+2: failed) and, behind the fence, dismounts."""
    scenario = battle(
        unit("sam", "law", "deputy", 2, 12, 'weapons = ["rifle"]'),
        unit("joe", "gang", "outlaw", 14, 12, 'mounted = "horse"'),
        terrain=FENCE,
    )
    session = play(scenario, [6, 1, 4, 5, 5, 1, 1, 2], Script(shots={"sam": "joe"}))
    joe = state_of(session).figure("joe")
    assert not joe.mounted and not joe.prone and joe.in_action
    assert "old_west.game.dismounts" in event_ids(session)
    assert "old_west.game.lies_down" not in event_ids(session)


def test_OW_CC_16_the_winner_strikes_the_mount_and_its_rider_is_thrown() -> None:
    """Sam (on foot) and Joe (on a horse, 40 mm base) start in base contact. Sam wins 5
    to 2 and puts his one strike on the horse (wound 4 kills it); the fall die 3 leaves
    Joe prone on a foot base; he backs off 1"."""
    reach = (mm_to_inches(25) + mm_to_inches(40)) / 2
    scenario = battle(
        unit("sam", "law", "deputy", 9, 12),
        unit("joe", "gang", "outlaw", round(9 + reach, 3), 12, 'mounted = "horse"'),
    )
    script = Script(fame=[1])  # the rider-or-mount decision: 1 strike at the mount
    session = play(scenario, [6, 1, 5, 2, 4, 3], script)
    mount_asks = [r for r in script.asked if r.reason.id == "old_west.combat.at_mount"]
    assert [r.side for r in mount_asks] == ["law"] and mount_asks[0].options == (0, 1)
    joe = state_of(session).figure("joe")
    assert not joe.mounted and joe.prone and joe.in_action and joe.wounds_taken == 0
    assert "old_west.game.mount_killed" in event_ids(session)


def test_OW_ABSENT_02_a_rider_moves_ten_inches_a_man_on_foot_six() -> None:
    scenario = battle(
        unit("sam", "law", "deputy", 2, 12, 'mounted = "mule"'),
        unit("joe", "gang", "outlaw", 22, 12),
    )
    game = game_of(scenario)
    sam = game.figure("sam")
    assert sam.move == 10 and sam.mount is not None and sam.mount.toughness == 4
    advance = next(o for o in options(game, sam, 10.0, None).options if o.kind is MoveKind.ADVANCE)
    assert advance.distance == pytest.approx(10.0, abs=0.1)


def test_OW_ABSENT_06_a_scenario_names_a_known_mount() -> None:
    scenario_text = unit("sam", "law", "deputy", 2, 12, 'mounted = "camel"')
    with pytest.raises(ScenarioError, match=r"units\[0\]\.mounted: no mount 'camel'"):
        GAME.validate(battle(scenario_text, unit("joe", "gang", "outlaw", 22, 12)))


def test_OW_HERO_02_fame_is_marked_off_the_hero_who_spent_it() -> None:
    """Wyatt (3 Fame) and Doc (2 Fame) fight Joe; each Hero rolls his own dice (5, 4 and
    3 against 2). Wyatt's strikes (1, 2) stay unhelped; Doc lifts his 3 to 4 with one
    Fame: Joe is out. The point comes off Doc, not off Wyatt who has more Fame."""
    scenario = battle(
        unit("wyatt", "law", "marshal", 9.0, 12),
        unit("doc", "law", "gunfighter", 11.0, 12),
        unit("joe", "gang", "outlaw", 10, 12),
    )
    session = play(scenario, [6, 1, 5, 4, 3, 2, 1, 2, 3], Script(fame=[0, 0, 1]))
    battle_state = state_of(session)
    assert battle_state.figure("wyatt").fame == 3
    assert battle_state.figure("doc").fame == 1
    assert battle_state.figure("joe").status is Status.OUT_OF_ACTION
    assert session.result is not None and session.result.winner == "law"


def test_OW_ABSENT_07_fortune_in_a_fight_is_spent_by_the_rule_and_marked_off() -> None:
    """Ike (outlaw boss: 2 Wounds, 2 Fortune) loses to Sam (5 against 2+1), is struck
    (wound 6 on S3 v T4) and saves it with his first Fortune roll (4): the Fortune roll
    is part of the close-combat rule, and exactly one point is marked off."""
    scenario = battle(
        unit("sam", "law", "deputy", 9, 12),
        unit("ike", "gang", "outlaw_boss", 10, 12),
    )
    session = play(scenario, [6, 1, 5, 2, 1, 6, 4], Script())
    ike = state_of(session).figure("ike")
    assert (ike.fortune, ike.wounds_taken, ike.in_action) == (1, 0, True)
    assert rolls(session, "old_west.fortune.roll") == [(4,)]
    assert "old_west.game.fortune_spent" in event_ids(session)


def test_OW_ABSENT_04_a_model_in_the_way_is_hit_and_wounded() -> None:
    """Pete stands on Sam's line of fire to Joe: the shot hits (4), the in-the-way die 2
    hits Pete instead, and the wound roll 5 (S3 v T3) takes him out of action."""
    scenario = battle(
        unit("sam", "law", "deputy", 2, 12, 'weapons = ["rifle"]'),
        unit("pete", "gang", "outlaw", 7, 12.2),
        unit("joe", "gang", "outlaw", 14, 12),
    )
    session = play(scenario, [6, 1, 4, 2, 5], Script(shots={"sam": "joe"}))
    battle_state = state_of(session)
    assert battle_state.figure("pete").status is Status.OUT_OF_ACTION
    assert battle_state.figure("joe").in_action
    assert "old_west.game.hit_in_the_way" in event_ids(session)
