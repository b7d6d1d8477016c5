"""The faults a demanding Warhammer Fantasy player found in whole battles, each played
on a small table: marching and the 8" test, shooting after a march or a rally, Stand
and Shoot, impact hits and momentum, hatred of the named enemy, Fear for the whole
combat, who fights by base contact, panic after friends are lost, failed charges,
challenges, regeneration, a fleeing general's unit rallying, Killing blow's narration."""

from __future__ import annotations

from fractions import Fraction

from kubik.engine import OddsDriver
from kubik.engine.log import ChoiceEntry, EventEntry, RollEntry
from kubik.rulesets.fantasy.attacks import Blows, attacks
from kubik.rulesets.fantasy.battle import melee, shots
from kubik.rulesets.fantasy.battle.units import Fight, State, fight_key
from kubik.rulesets.fantasy.close_combat import (
    ChallengeChoice,
    Regiment,
    Round,
    RoundOutcome,
    close_combat_round,
)
from kubik.rulesets.fantasy.leadership import TestKind
from kubik.rulesets.fantasy.movement import may_charge
from kubik.rulesets.fantasy.profiles import Fighter
from kubik.rulesets.fantasy.psychology import may_act_while_stupid
from kubik.rulesets.fantasy.shooting import may_shoot
from tests.fantasy.positions import Dice, battle, drive, play, position, said, told

F = frozenset
TOUGH = "{ m = 4, ws = 3, bs = 3, s = 3, t = 10, w = 1, i = 3, a = 1, ld = 7 }"
HERO = (
    '{ name = "Hero", name_ru = "герой", m = 4, ws = 5, bs = 3, s = 4, t = 4, w = 2, i = 4,'
    " a = 2, ld = 9 }"
)


def _tests(log: list[object], kind: TestKind) -> list[EventEntry]:
    return [
        e
        for e in log
        if isinstance(e, EventEntry)
        and e.event.id == "fantasy.leadership.result"
        and dict(e.event.params)["test"] is kind
    ]


def _moved(log: list[object], unit: str) -> list[float]:
    return [
        float(dict(e.event.params)["inches"])
        for e in told(log, "fantasy.game.moved")
        if unit in str(e.event.params)
    ]


# -- marching (FB-ABSENT-14) -------------------------------------------------------------


def test_fb_absent_14_a_march_with_an_enemy_within_8_inches_needs_a_leadership_test() -> None:
    """The march block is asked: within 8" a unit takes the march test, and failing it
    moves at its normal pace; far from the enemy it marches without one."""
    near = position(
        {
            "id": "near",
            "side": "a",
            "models": 5,
            "front": [10, 20],
            "profile": TOUGH.replace("ld = 7", "ld = 2"),
        },
        {"id": "enemy", "side": "b", "models": 5, "front": [10, 26.5], "facing": "south"},
    )
    session = play(near, seed=3, a=("march",), b=("hold",))
    tested = _tests(session.log, TestKind.MARCH)
    assert tested and tested[0].rules[0] == "FB-ABSENT-06" and "FB-ABSENT-14" in tested[0].rules
    assert said(session, "fantasy.game.march_failed")
    assert all(inches <= 4.0 for inches in _moved(session.log, "near"))
    far = position(
        {"id": "far", "side": "a", "models": 5, "front": [10, 4]},
        {"id": "enemy", "side": "b", "models": 5, "front": [10, 34], "facing": "south"},
    )
    marched = play(far, a=("march",), b=("hold",))
    assert not _tests(marched.log, TestKind.MARCH)
    assert _moved(marched.log, "far") == [8.0]


def test_fb_absent_14_a_unit_that_marched_does_not_shoot() -> None:
    text = position(
        {
            "id": "archers",
            "side": "a",
            "models": 10,
            "front": [20, 4],
            "missile": "{ range = 30, strength = 3 }",
        },
        {"id": "enemy", "side": "b", "models": 10, "front": [20, 34], "facing": "south"},
    )
    session = play(text, a=("march", "shoot"), b=("hold",))
    assert _moved(session.log, "archers") == [8.0]
    assert not said(session, "fantasy.game.shot")
    advancing = play(text, a=("advance", "shoot"), b=("hold",))
    assert said(advancing, "fantasy.game.shot")  # a normal move leaves its shot


# -- rallying (FB-ABSENT-11) ---------------------------------------------------------------


def test_fb_absent_11_a_rallied_unit_neither_moves_nor_shoots_that_turn() -> None:
    text = position(
        {
            "id": "archers",
            "side": "a",
            "models": 10,
            "front": [20, 10],
            "missile": "{ range = 30, strength = 3 }",
        },
        {"id": "camp", "side": "a", "models": 5, "front": [40, 4]},
        {"id": "enemy", "side": "b", "models": 10, "front": [20, 34], "facing": "south"},
    )
    game = battle(text)
    game.unit("archers").state = State.FLEEING
    done = drive(game.turn, (2,), Dice(1, 1), wants=("march", "shoot"))
    assert told(done.log, "fantasy.game.rallied")
    assert not _moved(done.log, "archers")
    assert not told(done.log, "fantasy.game.shot")
    assert not may_shoot(
        has_missiles=True,
        engaged=False,
        fleeing=False,
        stupid=False,
        in_range=True,
        sees=True,
        rallied=True,
    ).allowed


def test_fb_cmd_01_a_fleeing_general_s_own_unit_rallies_on_his_leadership() -> None:
    text = position(
        {
            "id": "guard",
            "side": "a",
            "models": 10,
            "front": [20, 10],
            "character": HERO.replace("ld = 9", "ld = 9, general = true"),
        },
        {"id": "enemy", "side": "b", "models": 10, "front": [20, 34], "facing": "south"},
    )
    game = battle(text)
    game.unit("guard").state = State.FLEEING
    done = drive(game.try_rally, (game.unit("guard"),), Dice(4, 4))
    rally = _tests(done.log, TestKind.RALLY)
    assert rally and dict(rally[0].event.params)["leadership"] == 9
    assert told(done.log, "fantasy.game.rallied")  # 8 on Ld 9 (7 of the troops: fled)


# -- shooting ------------------------------------------------------------------------------


def test_fb_absent_10_stand_and_shoot_keeps_no_move_penalty_from_its_own_turn() -> None:
    text = position(
        {
            "id": "archers",
            "side": "a",
            "models": 10,
            "front": [20, 10],
            "missile": "{ range = 30, strength = 3 }",
        },
        {"id": "enemy", "side": "b", "models": 10, "front": [20, 18], "facing": "south"},
    )
    game = battle(text)
    archers, enemy = game.unit("archers"), game.unit("enemy")
    archers.moved = True  # it moved in its own turn; now it is charged in the enemy's
    stand = shots.volley_of(game, archers, enemy, stand=True)
    assert not stand.moved and stand.stand_and_shoot
    assert shots.volley_of(game, archers, enemy).moved  # its own Shooting phase: −1


# -- impact hits (FB-SR-14) ----------------------------------------------------------------


def _chariot(y: float) -> str:
    return position(
        {
            "id": "chariot",
            "side": "a",
            "models": 1,
            "files": 1,
            "kind": "chariot",
            "base": 2.0,
            "front": [20, y],
            "impact_hits": "d6+1",
            "special_rules": '["impact_hits"]',
            "profile": "{ m = 8, ws = 3, bs = 3, s = 5, t = 5, w = 4, i = 2, a = 3, ld = 8 }",
        },
        {"id": "enemy", "side": "b", "models": 10, "front": [20, 20], "facing": "south"},
    )


def test_fb_sr_14_impact_hits_only_with_momentum() -> None:
    """A chariot that charges from 3" away has not gained speed: no impact hits; from
    12" away (more than its Movement of 8") it has."""
    close = play(_chariot(16.5), a=("charge",), b=("hold",))
    assert said(close, "fantasy.combat.no_momentum")
    assert not [e for e in close.log if isinstance(e, RollEntry) and "FB-SR-14" in e.rules]
    far = play(_chariot(7.5), a=("charge",), b=("hold",))
    assert not said(far, "fantasy.combat.no_momentum")
    assert [e for e in far.log if isinstance(e, RollEntry) and "FB-SR-14" in e.rules]


# -- hatred (FB-PSY-06) --------------------------------------------------------------------


def test_fb_psy_06_hatred_of_the_named_enemy_only_in_the_first_round() -> None:
    text = position(
        {
            "id": "dwarfs",
            "side": "a",
            "models": 10,
            "front": [20, 10],
            "race": "dwarfs",
            "special_rules": '["hatred"]',
        },
        {"id": "goblins", "side": "b", "models": 10, "front": [12, 30], "race": "goblins"},
        {"id": "ghouls", "side": "b", "models": 10, "front": [30, 30], "race": "undead"},
    )
    game = battle(text)
    dwarfs = game.unit("dwarfs")
    assert game.hates(dwarfs, game.unit("goblins"))  # dwarfs hate greenskins (the seed)
    assert not game.hates(dwarfs, game.unit("ghouls"))
    # the blows say whom they hate: a re-roll of misses in the first round only
    blows = Blows(
        attacks=4,
        weapon_skill=3,
        strength=3,
        target_weapon_skill=3,
        target_toughness=3,
        rules=F({"hatred"}),
    )
    odds = OddsDriver()
    hated = dict(odds.distribution(attacks, (blows,)))
    cold = dict(odds.distribution(attacks, (Blows(**{**_fields(blows), "hates_target": False}),)))
    later = dict(odds.distribution(attacks, (Blows(**{**_fields(blows), "round_number": 2}),)))
    assert hated != cold and cold == later


def _fields(blows: Blows) -> dict[str, object]:
    return {name: getattr(blows, name) for name in Blows.__dataclass_fields__}


# -- Fear (FB-PSY-01) ----------------------------------------------------------------------


def test_fb_psy_01_an_afraid_unit_is_struck_as_weapon_skill_one() -> None:
    """An enemy of WS 3 hits an afraid unit (WS 1) on 3+, not 4+."""
    a = Regiment(Fighter(ws=3, a=1), models=1, files=1)
    b = Regiment(Fighter(ws=3, a=0, ld=10), models=1, files=1, afraid=True)
    dist = dict(
        OddsDriver().distribution(close_combat_round, (Round(a, b, 2, ChallengeChoice.NONE),))
    )
    lost = sum((p for o, p in dist.items() if o.b_lost == 1), Fraction(0))
    assert lost == Fraction(4, 6) * Fraction(1, 2)


def test_fb_psy_01_fear_lasts_the_whole_combat_both_ways() -> None:
    """A unit that failed its Fear test fights at WS 1 and is struck as WS 1 in every
    later round of the combat too."""
    text = position(
        {
            "id": "ghosts",
            "side": "a",
            "models": 5,
            "front": [20, 10],
            "profile": TOUGH,
            "special_rules": '["fear"]',
        },
        {
            "id": "men",
            "side": "b",
            "models": 5,
            "front": [20, 17.5],
            "facing": "south",
            "profile": TOUGH.replace("ld = 7", "ld = 2"),
        },
        turns=2,
    )
    session = play(text, seed=2, a=("charge",), b=("hold",))
    fights = said(session, "fantasy.game.fight")
    assert len(fights) >= 2
    later = session.log[session.log.index(fights[1]) :]
    strikes = [
        e for e in later if isinstance(e, EventEntry) and e.event.id == "fantasy.combat.strike"
    ]
    assert strikes and all("FB-PSY-01" in e.rules for e in strikes)
    fight = session.state.fights[fight_key(session.state.unit("ghosts"), session.state.unit("men"))]
    assert fight.afraid["men"] and not fight.afraid["ghosts"]


# -- who fights (FB-ABSENT-13) -------------------------------------------------------------


def _strikes(session: object, side_unit: str) -> list[int]:
    return [
        int(dict(e.event.params)["attacks"])
        for e in said(session, "fantasy.combat.strike")  # type: ignore[arg-type]
        if side_unit in str(e.event.params)
    ]


def test_fb_absent_13_five_knights_do_not_all_fight_one_troll() -> None:
    """Against a single model on a 2" base only the knights in base contact (corners
    counting) fight: three of five."""
    text = position(
        {
            "id": "knights",
            "side": "a",
            "models": 5,
            "files": 5,
            "kind": "cavalry",
            "front": [20, 10],
            "profile": TOUGH,
        },
        {
            "id": "troll",
            "side": "b",
            "models": 1,
            "files": 1,
            "kind": "monster",
            "base": 2.0,
            "front": [20, 16],
            "facing": "south",
            "profile": TOUGH,
        },
    )
    session = play(text, a=("charge",), b=("hold",))
    assert said(session, "fantasy.game.engaged_front")
    assert _strikes(session, "knights")[0] == 3


def test_fb_absent_13_a_unit_charged_in_the_flank_fights_with_the_models_in_contact() -> None:
    text = position(
        {
            "id": "chargers",
            "side": "a",
            "models": 5,
            "files": 5,
            "front": [29, 19],
            "facing": "west",
            "profile": TOUGH,
        },
        {
            "id": "block",
            "side": "b",
            "models": 15,
            "files": 5,
            "front": [20, 20],
            "facing": "north",
            "profile": TOUGH,
        },
    )
    session = play(text, a=("charge",), b=("hold",))
    assert said(session, "fantasy.game.engaged_flank")
    assert 0 < _strikes(session, "block")[0] < 5  # its side file, not its whole front


def test_fb_absent_13_a_character_takes_a_place_in_the_front_rank() -> None:
    text = position(
        {
            "id": "guard",
            "side": "a",
            "models": 10,
            "files": 5,
            "front": [20, 10],
            "profile": TOUGH,
            "character": HERO,
        },
        {
            "id": "enemy",
            "side": "b",
            "models": 10,
            "files": 5,
            "front": [20, 17.5],
            "facing": "south",
            "profile": TOUGH,
        },
    )
    session = play(text, a=("charge", "no_challenge"), b=("hold", "no_challenge"))
    assert said(session, "fantasy.game.engaged_front")
    troops = [
        e
        for e in said(session, "fantasy.combat.strike")
        if "guard" in str(e.event.params) and "Hero" not in str(e.event.params)
    ]
    assert int(dict(troops[0].event.params)["attacks"]) == 4  # four beside the hero, not five


# -- panic (FB-ABSENT-09) ------------------------------------------------------------------


def test_fb_absent_09_a_unit_tests_for_panic_when_a_friend_nearby_is_destroyed() -> None:
    text = position(
        {
            "id": "knights",
            "side": "a",
            "models": 5,
            "files": 5,
            "kind": "cavalry",
            "front": [20, 10],
            "profile": "{ m = 8, ws = 5, bs = 3, s = 6, t = 4, w = 1, i = 5, a = 3, ld = 8 }",
        },
        {
            "id": "scouts",
            "side": "b",
            "models": 1,
            "files": 1,
            "front": [20, 17.5],
            "facing": "south",
            "profile": "{ m = 4, ws = 1, bs = 3, s = 1, t = 1, w = 1, i = 1, a = 0, ld = 2 }",
        },
        {
            "id": "friends",
            "side": "b",
            "models": 5,
            "files": 5,
            "front": [27, 20],
            "facing": "south",
            "profile": TOUGH.replace("ld = 7", "ld = 2"),
        },
    )
    session = play(text, a=("charge",), b=("hold",))
    lost = said(session, "fantasy.game.friend_lost")
    assert lost and "friends" in str(lost[0].event.params)
    assert _tests(session.log, TestKind.PANIC)


# -- failed charges (FB-ABSENT-10) ---------------------------------------------------------


def test_fb_absent_10_a_failed_charge_moves_toward_its_target() -> None:
    """The target flees off the table's edge before the charge reaches it: the charge
    fails and the chargers move their normal Movement (they do not stand still)."""
    text = position(
        {"id": "chargers", "side": "a", "models": 5, "front": [20, 26]},
        {"id": "target", "side": "b", "models": 5, "front": [20, 33.5], "facing": "south"},
    )
    session = play(text, seed=4, a=("charge",), b=("flee",))
    assert said(session, "fantasy.game.fled_table")
    failed = said(session, "fantasy.game.charge_failed")
    assert failed
    after = session.log[session.log.index(failed[0]) :]
    moved = _moved(after, "chargers")
    assert moved and 0 < moved[0] <= 4.0


def test_fb_absent_10_a_charge_blocked_by_other_models_is_not_offered() -> None:
    """A wall of the charger's own army stands between it and the enemy: no charge is
    offered (the movement rules refuse it), so none falls short turn after turn."""
    text = position(
        {"id": "chargers", "side": "a", "models": 5, "files": 5, "front": [20, 6]},
        {"id": "wall", "side": "a", "models": 10, "files": 10, "front": [20, 9]},
        {"id": "target", "side": "b", "models": 5, "front": [20, 13.5], "facing": "south"},
        turns=3,
    )
    session = play(text, a=("charge", "hold"), b=("hold",))
    assert not said(session, "fantasy.game.charge_failed")
    orders = [e for e in session.log if isinstance(e, ChoiceEntry)]
    assert not any(
        getattr(o, "target", "") == "target" and getattr(o, "kind", "") == "charge"
        for e in orders
        for o in e.options
        if "chargers" in str(e.reason)
    )
    assert not may_charge(3, 8, engaged=False, fleeing=False, stupid=False, way_clear=False).allowed


# -- challenges (FB-CHAL-01/02) ------------------------------------------------------------


def _duelists() -> str:
    return position(
        {
            "id": "guard",
            "side": "a",
            "models": 10,
            "files": 5,
            "front": [20, 10],
            "profile": TOUGH,
            "character": HERO,
        },
        {
            "id": "boyz",
            "side": "b",
            "models": 10,
            "files": 5,
            "front": [20, 17.5],
            "facing": "south",
            "profile": TOUGH,
            "character": HERO.replace("Hero", "Boss"),
        },
        turns=2,
    )


def test_fb_chal_02_the_challenged_side_refuses_and_pays_for_it() -> None:
    """The challenged side decides: refusing, its character stands in the rear rank
    for the rest of the combat (he strikes no blow) and the unit loses his Leadership."""
    session = play(_duelists(), seed=5, a=("charge", "challenge"), b=("hold", "refuse"))
    assert said(session, "fantasy.duel.refused") and not said(session, "fantasy.duel.accepted")
    boss = [e for e in said(session, "fantasy.combat.strike") if "Boss" in str(e.event.params)]
    assert not boss  # in the rear rank, round after round
    fight = next(iter(session.state.fights.values()))
    assert fight.refused == "boyz" and fight.rounds >= 2
    boyz = session.state.unit("boyz")
    reg = melee.regiment(session.state, boyz, session.state.unit("guard"), False, fight=fight)
    assert reg.refused


def test_fb_chal_02_the_challenged_side_may_accept() -> None:
    session = play(_duelists(), seed=5, a=("charge", "challenge"), b=("hold", "accept"))
    assert said(session, "fantasy.duel.accepted") and not said(session, "fantasy.duel.refused")


def test_fb_chal_02_a_surrounded_unit_may_not_refuse() -> None:
    """Enemies on all four faces: the refusal is not offered, the challenge accepted."""
    text = position(
        {
            "id": "centre",
            "side": "b",
            "models": 10,
            "files": 5,
            "front": [24, 20],
            "profile": TOUGH,
            "character": HERO,
        },
        {
            "id": "north",
            "side": "a",
            "models": 5,
            "files": 5,
            "front": [24, 21.0],
            "facing": "south",
            "profile": TOUGH,
            "champion": True,
        },
        {
            "id": "south",
            "side": "a",
            "models": 5,
            "files": 5,
            "front": [24, 16.8],
            "facing": "north",
            "profile": TOUGH,
        },
        {
            "id": "west",
            "side": "a",
            "models": 5,
            "files": 5,
            "front": [20.8, 18.9],
            "facing": "east",
            "profile": TOUGH,
        },
        {
            "id": "east",
            "side": "a",
            "models": 5,
            "files": 5,
            "front": [27.2, 18.9],
            "facing": "west",
            "profile": TOUGH,
        },
    )
    game = battle(text)
    centre = game.unit("centre")
    for other in ("north", "south", "west", "east"):
        game.contacts.engage(other, "centre", ("FB-ABSENT-10",))
    assert melee.sides_engaged(game, centre) == melee.ALL_SIDES
    north = game.unit("north")
    fight = Fight()
    ra = melee.regiment(game, north, centre, True, fight=fight)
    rb = melee.regiment(game, centre, north, False, fight=fight)
    done = drive(
        melee.challenge, (game, fight, north, centre, ra, rb, 1), wants=("challenge", "refuse")
    )
    assert done.outcome == (ChallengeChoice.ACCEPT, "a")
    asked = [e for e in done.log if isinstance(e, ChoiceEntry) and e.side == "b"]
    assert not asked  # accepting is all the rules leave it


# -- stupidity (FB-PSY-07) -----------------------------------------------------------------


def test_fb_psy_07_a_stupid_unit_s_charge_and_shot_are_refused_by_the_stupidity_rule() -> None:
    stupid = may_act_while_stupid(True)
    assert may_charge(1, 8, engaged=False, fleeing=False, stupid=True) == stupid
    assert (
        may_shoot(
            has_missiles=True, engaged=False, fleeing=False, stupid=True, in_range=True, sees=True
        )
        == stupid
    )


# -- regeneration (FB-SR-12) ---------------------------------------------------------------


def test_fb_sr_12_regeneration_with_no_value_saves_on_4_up() -> None:
    base = Blows(
        attacks=3,
        weapon_skill=4,
        strength=4,
        target_weapon_skill=3,
        target_toughness=4,
        target_rules=F({"regeneration"}),
    )
    odds = OddsDriver()
    given = {**_fields(base), "target_regeneration": 4}
    assert dict(odds.distribution(attacks, (base,))) == dict(
        odds.distribution(attacks, (Blows(**given),))  # type: ignore[arg-type]
    )
    none = {**_fields(base), "target_rules": F()}
    assert dict(odds.distribution(attacks, (base,))) != dict(
        odds.distribution(attacks, (Blows(**none),))  # type: ignore[arg-type]
    )


def test_fb_sr_12_a_model_that_did_nothing_all_turn_regenerates_a_wound() -> None:
    text = position(
        {
            "id": "troll",
            "side": "a",
            "models": 1,
            "files": 1,
            "kind": "monster",
            "base": 2.0,
            "front": [20, 4],
            "special_rules": '["regeneration"]',
            "profile": "{ m = 6, ws = 3, bs = 1, s = 5, t = 4, w = 3, i = 1, a = 3, ld = 4 }",
        },
        {"id": "enemy", "side": "b", "models": 5, "front": [20, 34], "facing": "south"},
    )
    game = battle(text)
    game.unit("troll").wounds = 1
    done = drive(game.turn, (2,), Dice(6), wants=("hold",))
    assert told(done.log, "fantasy.game.regenerates")
    assert game.unit("troll").wounds == 0
    moving = battle(text)
    moving.unit("troll").wounds = 1
    walked = drive(moving.turn, (2,), Dice(6), wants=("march",))
    assert not told(walked.log, "fantasy.game.regenerates")


# -- Killing blow (FB-SR-13) ---------------------------------------------------------------


def test_fb_sr_13_killing_blows_on_one_chariot_slay_one_model_of_four_wounds() -> None:
    blows = Blows(
        attacks=3,
        weapon_skill=5,
        strength=4,
        target_weapon_skill=3,
        target_toughness=5,
        target_wounds=4,
        target_wounds_left=4,
        rules=F({"killing_blow"}),
        auto_hit=True,
    )
    done = drive(attacks, (blows,), Dice(6, 6, 6))
    slain = told(done.log, "fantasy.attacks.killing_blow")
    assert slain and dict(slain[0].event.params)["slain"] == 1
    assert done.outcome.wounds == 4
    result = told(done.log, "fantasy.attacks.result")
    assert dict(result[0].event.params)["wounds"] == 4


def test_a_round_reports_what_lasts_for_the_combat() -> None:
    a = Regiment(Fighter(a=1), models=5)
    b = Regiment(Fighter(a=1), models=5, afraid=True)
    dist = dict(
        OddsDriver().distribution(close_combat_round, (Round(a, b, 2, ChallengeChoice.NONE),))
    )
    assert all(isinstance(o, RoundOutcome) and o.b_afraid and not o.a_afraid for o in dist)


# -- what a game applied (coverage) ----------------------------------------------------------


def test_a_fight_without_riders_breath_or_light_cavalry_applies_none_of_their_rules() -> None:
    """Knights charge a regiment of foot; neither has a rider, a breath weapon or light
    cavalry: the game applied the close-combat rules, but not the rider's lost wounds
    (FB-SR-16), the breath weapon (FB-SR-01) or the Vanguard move (FB-MOV-01)."""
    text = position(
        {
            "id": "knights",
            "side": "a",
            "models": 5,
            "files": 5,
            "kind": "cavalry",
            "front": [20, 10],
            "profile": "{ m = 8, ws = 5, bs = 3, s = 6, t = 4, w = 1, i = 5, a = 3, ld = 8 }",
        },
        {
            "id": "spears",
            "side": "b",
            "models": 10,
            "files": 5,
            "front": [20, 17.5],
            "facing": "south",
            "profile": TOUGH,
        },
    )
    session = play(text, a=("charge",), b=("hold",))
    assert said(session, "fantasy.game.fight")
    assert "FB-ABSENT-07" in session.applied
    assert not {"FB-SR-16", "FB-SR-01", "FB-MOV-01"} & session.applied
