"""Skirmishers, flyers, scouts and Vanguard, breath weapons with "Look out, Sir!",
Snipers and shots at a ridden monster, played on the table."""

from __future__ import annotations

from kubik.engine.log import ChoiceEntry, RollEntry
from kubik.rulesets.fantasy.battle.formation import under_flame
from kubik.rulesets.fantasy.battle.melee import regiment
from kubik.rulesets.fantasy.battle.shots import volley_of
from kubik.table import Base
from tests.fantasy.positions import play, position, rules, said

ELF = "{ m = 5, ws = 4, bs = 5, s = 3, t = 3, w = 1, i = 5, a = 1, ld = 8 }"
BOW = "{ range = 30, strength = 3 }"
HERO = (
    '{ name = "Boss", name_ru = "босс", m = 4, ws = 5, bs = 3, s = 4, t = 4, w = 2, i = 3, a = 2,'
    " ld = 8 }"
)
ORCS = {"id": "orcs", "side": "b", "models": 10, "files": 5, "front": [20, 24], "facing": "south"}


def test_fb_mov_05_scouts_deploy_on_a_flank_not_within_12_inches() -> None:
    """FB-MOV-05: before the first turn the scouts take a place on the enemy's flank."""
    text = position(
        {
            "id": "scouts",
            "side": "a",
            "models": 6,
            "files": 3,
            "front": [10, 3],
            "formation": "skirmish",
            "special_rules": '["scouts"]',
            "profile": ELF,
        },
        ORCS,
    )
    session = play(text, a=("scout", "hold"), b=("hold",))
    assert said(session, "fantasy.game.scouted") and rules(session)["FB-MOV-05"] > 0
    game = session.state
    scouts, orcs = game.unit("scouts"), game.unit("orcs")
    assert scouts.front != (10.0, 3.0)
    assert game.board.gap(scouts, orcs) >= 12


def test_fb_mov_01_light_cavalry_makes_the_vanguard_move() -> None:
    """FB-MOV-01: up to 12" before the first turn, regardless of Movement."""
    text = position(
        {
            "id": "riders",
            "side": "a",
            "models": 5,
            "files": 5,
            "front": [20, 3],
            "kind": "cavalry",
            "special_rules": '["light_cavalry"]',
        },
        ORCS,
    )
    session = play(text, a=("vanguard", "hold"), b=("hold",))
    moved = said(session, "fantasy.game.moved")
    assert moved and moved[0].rules == ("FB-MOV-01",)
    assert dict(moved[0].event.params)["inches"] == 12


def test_fb_mov_02_flyers_fly_over_a_regiment_in_their_way() -> None:
    """FB-MOV-02: a flyer marches 20" through the air, over the models between."""
    text = position(
        {
            "id": "hawks",
            "side": "a",
            "models": 3,
            "files": 3,
            "front": [20, 2],
            "kind": "cavalry",
            "base": 1.5,
            "special_rules": '["fly"]',
        },
        {"id": "wall", "side": "a", "models": 10, "files": 10, "front": [20, 8]},
        {**ORCS, "front": [20, 34]},
        height=40,
    )
    session = play(text, a=("march",), b=("hold",))
    hawks = [e for e in said(session, "fantasy.game.moved") if e.rules == ("FB-MOV-02",)]
    assert hawks and dict(hawks[0].event.params)["inches"] == 20
    assert session.state.unit("hawks").front[1] > 20


def test_fb_mov_03_hoverers_never_march_in_the_air() -> None:
    """FB-MOV-03: 10" in the air, no more."""
    text = position(
        {
            "id": "bats",
            "side": "a",
            "models": 4,
            "files": 4,
            "front": [20, 2],
            "special_rules": '["hover"]',
        },
        {**ORCS, "front": [20, 34]},
        height=40,
    )
    session = play(text, a=("march",), b=("hold",))
    moved = [e for e in said(session, "fantasy.game.moved") if e.rules == ("FB-MOV-03",)]
    assert moved and dict(moved[0].event.params)["inches"] == 10


def test_fb_absent_02_skirmishers_are_hit_at_minus_one_and_have_no_ranks() -> None:
    """FB-ABSENT-02 (a skirmishing target −1) and FB-ABSENT-07 (no rank bonus)."""
    text = position(
        {
            "id": "archers",
            "side": "a",
            "models": 10,
            "files": 5,
            "front": [20, 6],
            "profile": ELF,
            "missile": BOW,
        },
        {
            "id": "skirmishers",
            "side": "b",
            "models": 10,
            "files": 5,
            "front": [20, 24],
            "facing": "south",
            "formation": "skirmish",
        },
    )
    session = play(text, a=("shoot", "hold"), b=("hold",))
    game = session.state
    spread = game.unit("skirmishers").bases()
    assert abs(spread[0].centre[0] - spread[1].centre[0]) >= 2.0  # the loose formation
    volley = volley_of(game, game.unit("archers"), game.unit("skirmishers"))
    assert volley.single_target and said(session, "fantasy.shooting.hits")
    skirmishers = regiment(game, game.unit("skirmishers"), game.unit("archers"), False)
    assert skirmishers.skirmish


def test_fb_absent_12_the_flame_template_covers_fully_and_partly() -> None:
    """FB-ABSENT-12: models fully under the teardrop, and those its edge touches."""
    bases = [Base(0.0, 6.0, 1.0), Base(1.6, 6.0, 1.0), Base(0.0, 12.0, 1.0)]
    assert under_flame((0.0, 0.0), 0, bases) == (1, 1)


def test_fb_sr_01_a_drake_breathes_and_fb_cmd_02_the_champion_looks_out() -> None:
    """FB-SR-01/FB-ABSENT-12 in the Shooting phase; FB-CMD-02 for the champion of a
    unit of more than five infantry under the template."""
    text = position(
        {
            "id": "drake",
            "side": "a",
            "models": 1,
            "files": 1,
            "front": [20, 14],
            "kind": "monster",
            "base": 2.0,
            "special_rules": '["breath_weapon"]',
            "breath_strength": 3,
            "profile": "{ m = 1, ws = 3, bs = 1, s = 4, t = 5, w = 4, i = 2, a = 2, ld = 5 }",
        },
        {**ORCS, "front": [20, 20], "champion": True, "models": 15},
    )
    session = play(text, a=("breathe",), b=("hold",))
    assert said(session, "fantasy.game.breathes")
    seen = rules(session)
    assert seen["FB-SR-01"] and seen["FB-ABSENT-12"] and seen["FB-CMD-02"]


def test_fb_shoot_03_a_sniper_picks_out_the_character() -> None:
    """FB-SHOOT-03: the Sniper shoots the character, ignoring the lone-target −1."""
    text = position(
        {
            "id": "watchers",
            "side": "a",
            "models": 6,
            "files": 3,
            "front": [20, 6],
            "profile": ELF,
            "missile": BOW,
            "special_rules": '["sniper"]',
            "formation": "skirmish",
        },
        {**ORCS, "character": HERO},
    )
    session = play(text, a=("snipe_hero", "hold"), b=("hold",))
    picked = [e for e in session.log if getattr(e, "rules", ()) and "FB-SHOOT-03" in e.rules]
    assert picked


def test_fb_shoot_06_shots_at_a_ridden_monster_split_rider_and_mount() -> None:
    """FB-SHOOT-06: each hit on a ridden monster strikes the rider on a 5 or 6."""
    text = position(
        {
            "id": "archers",
            "side": "a",
            "models": 10,
            "files": 5,
            "front": [20, 6],
            "profile": ELF,
            "missile": BOW,
        },
        {
            "id": "wyvern",
            "side": "b",
            "models": 1,
            "files": 1,
            "front": [20, 24],
            "facing": "south",
            "kind": "ridden_monster",
            "base": 2.0,
            "character": HERO,
            "profile": "{ m = 1, ws = 5, bs = 1, s = 5, t = 4, w = 5, i = 3, a = 3, ld = 6 }",
        },
        turns=2,
    )
    session = play(text, a=("shoot", "hold"), b=("hold",))
    assert rules(session)["FB-SHOOT-06"] > 0


def test_fb_shoot_02_slow_to_fire_has_no_stand_and_shoot_when_charged() -> None:
    """FB-SHOOT-02: the charge reaction of crossbowmen offers no Stand and Shoot."""
    text = position(
        {
            "id": "knights",
            "side": "a",
            "models": 5,
            "files": 5,
            "front": [20, 8],
            "kind": "cavalry",
            "profile": "{ m = 7, ws = 4, bs = 3, s = 4, t = 3, w = 1, i = 3, a = 1, ld = 8 }",
        },
        {**ORCS, "front": [20, 16], "missile": BOW, "special_rules": '["slow_to_fire"]'},
    )
    session = play(text, a=("charge",), b=("stand_and_shoot", "hold"))
    reaction = [e for e in session.log if isinstance(e, ChoiceEntry) and "FB-SHOOT-02" in e.rules]
    assert reaction and not said(session, "fantasy.shooting.hits")


def test_fb_shoot_05_multiple_shots_in_the_shooting_phase() -> None:
    """FB-SHOOT-05: each model shoots twice, each shot at −1."""
    text = position(
        {
            "id": "wolves",
            "side": "a",
            "models": 5,
            "files": 5,
            "front": [20, 8],
            "kind": "cavalry",
            "missile": "{ range = 24, strength = 3, multiple = 2 }",
            "special_rules": '["multiple_shots"]',
        },
        ORCS,
    )
    session = play(text, a=("shoot", "hold"), b=("hold",))
    rolls = [e for e in session.log if isinstance(e, RollEntry) and "FB-SHOOT-05" in e.rules]
    assert rolls and len(rolls[0].values) == 10
