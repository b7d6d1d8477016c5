"""Moves in a battle of Дороги Апокалипсиса as the enemy sees them: guards fire at any
moment of a move (RA-GUARD-02), hidden warriors are found when a moving enemy comes
near at any point of his way (RA-HIDE-07), a hidden warrior creeps on behind cover
and stays hidden (RA-HIDE-04)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kubik.engine import Roll
from kubik.engine.log import ChoiceEntry, ChoiceOrigin, DiceOrigin, EventEntry, LogEntry, RollEntry
from kubik.engine.run import run
from kubik.game.battle import Menu, Posture
from kubik.game.coverage import rules_named
from kubik.rulesets.apocalypse.battle import actions, fights, shots, songs
from kubik.rulesets.apocalypse.battle.game import ApocalypseGame
from kubik.rulesets.apocalypse.battle.warriors import Condition, Ground, Sight, Watch
from kubik.rulesets.apocalypse.core import Edition
from kubik.rulesets.apocalypse.psychology import Stupor
from kubik.rulesets.apocalypse.shooting import Reaction
from tests.apocalypse.helpers import terrain
from tests.apocalypse.test_battle import game, unit

# a wall across the table with a gap in the middle: a guard south of the gap sees
# only what crosses in front of it
WALL = terrain(
    "wall_west", [[0, 10], [11, 10], [11, 11], [0, 11]], kind="impassable", blocks_los=True
) + terrain(
    "wall_east", [[13, 10], [24, 10], [24, 11], [13, 11]], kind="impassable", blocks_los=True
)


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("KUBIK_HOME", str(tmp_path / "home"))
    yield


class Dice:
    """These dice in turn (then 4s), one die at a time."""

    origin = DiceOrigin.TYPED

    def __init__(self, values: list[int]) -> None:
        self.values = list(values)

    def roll(self, request: Roll) -> tuple[int, ...]:
        return tuple(self.values.pop(0) if self.values else 4 for _ in request.dice)


def play(procedure: Any, dice: list[int], chooser: Any = None) -> tuple[LogEntry, ...]:
    """Resolve ``procedure`` with these dice and the chooser's (default: every default)
    decisions."""
    return tuple(run(lambda: procedure, (), dice=Dice(dice), chooser=chooser).log)


def events(log: tuple[LogEntry, ...], message_id: str) -> list[EventEntry]:
    return [e for e in log if isinstance(e, EventEntry) and e.event.id == message_id]


def crossing(*extra: str) -> ApocalypseGame:
    """A guard of side a at (12, 4) behind the gap; a warrior of side b at (6, 14)
    about to run past the gap to (18, 14), out of the guard's sight at both ends."""
    battle = game("turn", unit("guard", "a", 12, 4), unit("runner", "b", 6, 14), *extra, WALL)
    battle.warrior("guard").watch = Watch.ON_GUARD
    assert not battle.sees(battle.warrior("guard"), battle.warrior("runner"))
    return battle


def test_RA_GUARD_02_a_guard_fires_at_a_warrior_crossing_his_view() -> None:
    battle = crossing()
    runner = battle.warrior("runner")
    # the shot misses (1 + 2 against 6 + 4): the runner goes on to the end of his move
    log = play(actions._step(battle, runner, (18.0, 14.0), 12.0), [1, 6])
    fired = events(log, "apocalypse.game.guard_fires_at")
    assert len(fired) == 1 and "RA-GUARD-02" in fired[0].rules
    assert fired[0].event.kwargs["paces"] < 10  # mid-way, in front of the gap
    assert runner.base.centre == (18.0, 14.0)
    assert not battle.sees(battle.warrior("guard"), runner)  # unseen where he stopped
    assert battle.warrior("guard").watch is Watch.NONE  # he has shot (RA-GUARD-03)
    assert "RA-GUARD-03" in rules_named(log)


def test_RA_GUARD_02_a_warrior_struck_down_mid_move_stops_there() -> None:
    battle = crossing()
    runner = battle.warrior("runner")
    runner.wounds = 3  # one Стойкость left
    # 6 + 2 against 1 + 4: a hit, no armour, the last wound; the injury die 1: knocked down
    log = play(actions._step(battle, runner, (18.0, 14.0), 12.0), [6, 1, 1])
    assert runner.condition is not Condition.STANDING
    assert 8.0 < runner.base.x < 16.0  # where the shot caught him, in the gap
    assert events(log, "apocalypse.game.stopped")


def test_RA_GUARD_02_the_guard_may_hold_fire() -> None:
    battle = crossing()
    runner = battle.warrior("runner")
    log = play(actions._step(battle, runner, (18.0, 14.0), 12.0), [], _Holding())
    assert not events(log, "apocalypse.game.guard_fires_at")
    assert battle.warrior("guard").watch is Watch.ON_GUARD


class _Holding:
    """Every guard holds fire."""

    origin = ChoiceOrigin.HUMAN

    def choose(self, request: Any) -> Any:
        return next(o for o in request.options if not getattr(o, "target", "x"))


def test_RA_HIDE_07_a_hidden_warrior_passed_on_the_way_is_found() -> None:
    # a hidden warrior of side a at (12, 16): the runner passes 2 paces from his
    # centre (1 pace between the bases, within half of Подвижность 4) and ends 6 away
    battle = game("turn", unit("runner", "b", 6, 14), unit("hider", "a", 12, 16))
    hider = battle.warrior("hider")
    hider.sight = Sight.HIDDEN
    log = play(actions._step(battle, battle.warrior("runner"), (18.0, 14.0), 12.0), [])
    assert hider.sight is Sight.FOUND
    assert battle.gap(battle.warrior("runner"), hider) > 2.0
    revealed = events(log, "apocalypse.game.revealed")
    assert revealed and {"RA-HIDE-07", "RA-HIDE-06"} <= set(revealed[0].rules)


def test_RA_HIDE_07_a_hidden_warrior_the_way_never_comes_near_stays_hidden() -> None:
    battle = game("turn", unit("runner", "b", 6, 14), unit("hider", "a", 12, 18))
    hider = battle.warrior("hider")
    hider.sight = Sight.HIDDEN
    play(actions._step(battle, battle.warrior("runner"), (18.0, 14.0), 12.0), [])
    assert hider.sight is Sight.HIDDEN


# -- В укрытие! (RA-SHOOT-05) ---------------------------------------------------------------


class _Diving:
    """The target dives for cover; every other decision its default."""

    origin = ChoiceOrigin.HUMAN

    def choose(self, request: Any) -> Any:
        if Reaction.TAKE_COVER in request.options:
            return Reaction.TAKE_COVER
        return request.default


LOW_WALL = terrain("low_wall", [[14, 4], [14, 8]], obstacle=True, shape="line", cover="light")


def shot_at(target_x: float, *extra: str) -> tuple[ApocalypseGame, tuple[LogEntry, ...]]:
    """A shooter at (4, 6) fires his bow at a warrior at (target_x, 6), who dives for
    cover; 4 + 2 − modifiers against 1 + 4: a hit only without the dive's penalty."""
    battle = game("turn", unit("shooter", "a", 4, 6), unit("target", "b", target_x, 6), *extra)
    battle.turn_side = "a"
    shooter, target = battle.warrior("shooter"), battle.warrior("target")
    bow = next(x for x in shooter.weapons if x.id == "bow")
    log = play(shots.fire(battle, shooter, target, bow), [4, 1], _Diving())
    return battle, log


def test_RA_SHOOT_05_prone_in_the_open_small_target() -> None:
    battle, log = shot_at(10.0)
    target = battle.warrior("target")
    assert target.ground is Ground.PRONE and target.base.centre == (10.0, 6.0)
    assert battle.piece(target).posture is Posture.PRONE
    assert events(log, "apocalypse.game.goes_prone")[0].rules == ("RA-SHOOT-05",)
    shot = next(e for e in log if isinstance(e, RollEntry) and "skill" in e.reason.kwargs)
    assert shot.reason.kwargs["modifier"] == -1  # the small target (in range, not moved)
    assert target.wounds == 0  # 4 + 2 − 1 = 5 against 1 + 4 = 5: no hit


def test_RA_SHOOT_05_into_cover_within_a_pace() -> None:
    battle, log = shot_at(15.3, LOW_WALL)  # his base's edge 0.8 paces from the wall
    target = battle.warrior("target")
    assert target.ground is Ground.COVER
    assert target.base.centre != (15.3, 6.0) and battle.next_to_cover(target, 0.3)
    assert events(log, "apocalypse.game.take_cover")
    assert target.wounds == 0  # the cover penalty: no hit


def test_RA_SHOOT_05_the_same_shot_without_a_dive_hits() -> None:
    battle = game("turn", unit("shooter", "a", 4, 6), unit("target", "b", 10, 6))
    shooter, target = battle.warrior("shooter"), battle.warrior("target")
    bow = next(x for x in shooter.weapons if x.id == "bow")
    play(shots.fire(battle, shooter, target, bow), [4, 1, 6])
    assert target.wounds == 1


def test_RA_SHOOT_05_down_for_the_turn_only_shooting_at_the_penalty() -> None:
    battle, _ = shot_at(10.0)
    target, shooter = battle.warrior("target"), battle.warrior("shooter")
    bow = next(x for x in target.weapons if x.id == "bow")
    # he may not dive a second time this turn, and shoots only at «Залегание»
    assert shots.shooter_verdict(battle, target, shooter).rules == ("RA-ABSENT-04", "RA-SHOOT-05")
    assert shots.shot_situation(battle, target, shooter, bow).modifier == -1
    # the activation edition: his activation later in the round is a shot or nothing
    battle.edition = Edition.ACTIVATION
    log = play(actions.activate(battle, target), [])
    reasons = {e.reason.id for e in log if isinstance(e, ChoiceEntry)}
    assert "apocalypse.reason.move" not in reasons and "apocalypse.reason.fire" in reasons
    # the shooter's turn ends: he gets up
    battle.edition = Edition.TURN
    play(actions.end_of_turn(battle, "a"), [])
    assert target.ground is Ground.NONE


# -- Тупость: straight forward (RA-PSY-12) ---------------------------------------------------


def stupid(x: float, y: float, facing: float, *others: str) -> ApocalypseGame:
    battle = game("turn", unit("dolt", "a", x, y, 'abilities = ["stupidity"]'), *others)
    dolt = battle.warrior("dolt")
    dolt.stupor = Stupor.SHUFFLE
    dolt.facing = facing
    return battle


def test_RA_PSY_12_he_shuffles_the_way_he_faces_not_toward_the_enemy() -> None:
    battle = stupid(5, 5, 0.0, unit("foe", "b", 5, 15))  # facing east, the foe north
    log = play(actions.activate(battle, battle.warrior("dolt")), [])
    assert battle.warrior("dolt").base.centre == (7.0, 5.0)  # half of Подвижность 4
    assert "RA-PSY-12" in rules_named(log)


def test_RA_PSY_12_he_stops_a_pace_short_of_an_enemy_ahead() -> None:
    battle = stupid(5, 5, 0.0, unit("foe", "b", 8, 5))  # 2 paces between the bases
    play(actions.activate(battle, battle.warrior("dolt")), [])
    dolt, foe = battle.warrior("dolt"), battle.warrior("foe")
    assert battle.gap(dolt, foe) == pytest.approx(1.0)
    assert not battle.contacts.of("dolt")


def test_RA_PSY_12_he_bumps_into_an_obstacle_and_stops() -> None:
    wall = terrain("wall", [[6.5, 3], [6.5, 7]], obstacle=True, shape="line")
    battle = stupid(5, 5, 0.0, unit("foe", "b", 20, 20), wall)
    play(actions.activate(battle, battle.warrior("dolt")), [])
    assert battle.warrior("dolt").base.x == pytest.approx(6.0, abs=0.11)


def test_RA_PSY_12_he_walks_off_a_roof_and_falls() -> None:
    roof = terrain("roof", [[2, 2], [6, 2], [6, 8], [2, 8]], kind="impassable", elevation=2.0)
    battle = stupid(5, 5, 0.0, unit("foe", "b", 20, 20), roof)
    assert battle.roof_under(battle.warrior("dolt")) is not None
    log = play(actions.activate(battle, battle.warrior("dolt")), [1, 1])
    dolt = battle.warrior("dolt")
    assert battle.roof_under(dolt) is None and dolt.fallen_turn == battle.turn_number
    assert {"RA-PSY-12", "RA-MAN-06"} <= rules_named(log)


def test_RA_PSY_12_a_warband_faces_the_enemy_at_the_start() -> None:
    battle = game("turn", unit("x", "a", 5, 5), unit("y", "b", 5, 15))
    assert battle.view(None)["pieces"][0]["facing"] == 90  # north, toward side b


# -- Парное оружие: the weapons of a fight (RA-CC-07) --------------------------------------


class _Knife:
    """He holsters the pistol and fights with sword and knife."""

    origin = ChoiceOrigin.HUMAN

    def choose(self, request: Any) -> Any:
        if request.rules == ("RA-CC-07",):
            return next(o for o in request.options if o == (0, 2))
        return request.default


def test_RA_CC_07_he_declares_his_weapons_before_the_fight_and_keeps_them() -> None:
    battle = game(
        "turn",
        unit("duellist", "a", 5, 5, 'weapons = ["sword", "pistol", "knife"]').replace(
            'weapons = ["sword", "bow"]\n', ""
        ),
        unit("foe", "b", 6.0, 5),
    )
    battle.contacts.engage("duellist", "foe", ("RA-CC-01",))
    duellist = battle.warrior("duellist")
    assert duellist.loadouts() == ((0, 1), (0, 2), (1, 2))  # two hands, three weapons
    log = play(fights.close_combat(battle, "a"), [6, 1], _Knife())
    asked = [e for e in log if isinstance(e, ChoiceEntry) and e.rules == ("RA-CC-07",)]
    assert len(asked) == 1 and asked[0].side == "a"
    assert [x.id for x in duellist.melee_weapons()] == ["sword", "knife"]
    blows = events(log, "apocalypse.game.blows")[0]
    assert "RA-CC-14" in blows.rules
    # the next round of the same fight: no new choice, the same weapons
    again = play(fights.close_combat(battle, "b"), [1, 1], _Knife())
    assert not [e for e in again if isinstance(e, ChoiceEntry) and e.rules == ("RA-CC-07",)]
    assert [x.id for x in duellist.melee_weapons()] == ["sword", "knife"]


def test_RA_CC_07_a_bulky_gun_leaves_one_hand() -> None:
    battle = game(
        "turn",
        unit("gunner", "a", 5, 5, 'weapons = ["rifle", "sword", "knife"]').replace(
            'weapons = ["sword", "bow"]\n', ""
        ),
    )
    assert battle.warrior("gunner").loadouts() == ((1,), (2,))


# -- Melodies with templates in a battle (RA-MEL-07) ----------------------------------------


def test_RA_MEL_07_a_template_melody_strikes_everyone_under_it() -> None:
    battle = game(
        "turn",
        unit("singer", "a", 5, 5, 'singer = ["howl"]'),
        unit("target", "b", 12, 5),
        unit("beside", "b", 13.5, 5),  # partly under the 1.5-pace template
    )
    singer, target, beside = (battle.warrior(x) for x in ("singer", "target", "beside"))
    # 4 + 5 = 9 against difficulty 8; the warrior partly under it: 4, struck (4+)
    log = play(songs.sing(battle, singer, songs.Song("howl", "target")), [4, 5, 4])
    assert "RA-MEL-07" in events(log, "apocalypse.game.template")[0].rules
    assert target.wounds == 1 and beside.wounds == 1
    # the bot weighs the Melody by what the rules give: two enemies under it
    menu: Menu[Any] = Menu()
    songs.song_menu(battle, singer, menu)
    forecast = menu.offer_of(songs.Song("howl", "target")).forecast
    assert forecast is not None and forecast.procedure is songs.template_song
    assert forecast.args[2:] == (1, 1, 0, 0)


def test_RA_HIDE_02_a_shot_from_hiding_does_not_tell_the_target_who_fired() -> None:
    battle = game("turn", unit("sniper", "a", 4, 6), unit("target", "b", 12, 6))
    sniper, target = battle.warrior("sniper"), battle.warrior("target")
    sniper.sight = Sight.HIDDEN
    bow = next(x for x in sniper.weapons if x.id == "bow")
    # a miss from a bow: the loud/silent test reveals him only after the shot (RA-HIDE-03)
    log = play(shots.fire(battle, sniper, target, bow), [1, 6])
    told = battle.narrated_for("b", log)
    assert not [e for e in told if isinstance(e, ChoiceEntry)]  # no reaction to a shot unseen
    assert not [
        e for e in told if isinstance(e, EventEntry) and e.event.id == "apocalypse.game.shoots"
    ]
    assert [e for e in told if isinstance(e, RollEntry)]  # the shot itself is felt
    assert battle.narrated_for("a", log) == log


def test_RA_HIDE_03_a_hidden_singer_who_plays_a_melody_is_revealed() -> None:
    battle = game(
        "turn", unit("singer", "a", 5, 5, 'singer = ["storm_chord"]'), unit("x", "b", 9, 5)
    )
    singer = battle.warrior("singer")
    singer.sight = Sight.HIDDEN
    log = play(songs.sing(battle, singer, songs.Song("storm_chord", "x")), [1, 2])
    assert singer.sight is Sight.SEEN
    assert "RA-HIDE-03" in events(log, "apocalypse.game.revealed")[0].rules
    assert events(battle.narrated_for("b", log), "apocalypse.game.sings")


# -- moving stealthily (RA-HIDE-04) -------------------------------------------------------


def sneaking(edition: str = "turn") -> ApocalypseGame:
    """A hidden warrior of side b at (3, 14), north of the wall, and an enemy of side a at
    (12, 4), south of it, who sees across only through the gap (x 11–13)."""
    battle = game(edition, unit("watcher", "a", 12, 4), unit("sneak", "b", 3, 14), WALL)
    battle.warrior("sneak").sight = Sight.HIDDEN
    return battle


def test_RA_HIDE_04_a_hidden_warrior_creeping_behind_the_wall_stays_hidden() -> None:
    battle = sneaking()
    sneak = battle.warrior("sneak")
    log = play(actions._step(battle, sneak, (9.0, 14.0), 6.0), [])
    assert sneak.base.centre == (9.0, 14.0)
    assert sneak.sight is Sight.HIDDEN
    assert not events(log, "apocalypse.game.revealed")
    crept = events(log, "apocalypse.game.creeps")
    assert crept and "RA-HIDE-04" in crept[0].rules


def test_RA_HIDE_04_stepping_into_the_open_reveals_him() -> None:
    # through the gap in the wall the watcher sees him in the open: found there
    battle = sneaking()
    sneak = battle.warrior("sneak")
    sneak.base = sneak.base.moved_to((8.0, 14.0))
    log = play(actions._step(battle, sneak, (14.0, 14.0), 6.0), [])
    assert sneak.sight is Sight.SEEN
    revealed = events(log, "apocalypse.game.revealed")
    assert revealed and {"RA-HIDE-03", "RA-HIDE-04", "RA-HIDE-01"} <= set(revealed[0].rules)
    assert not events(log, "apocalypse.game.creeps")


def test_RA_HIDE_04_a_guard_may_fire_only_once_the_creeper_shows() -> None:
    battle = sneaking()
    battle.warrior("watcher").watch = Watch.ON_GUARD
    sneak = battle.warrior("sneak")
    sneak.base = sneak.base.moved_to((8.0, 14.0))
    # the shot misses (1 + 2 against 6 + 4); it is at a fleeting target (RA-GUARD-04)
    log = play(actions._step(battle, sneak, (14.0, 14.0), 6.0), [1, 6])
    fired = events(log, "apocalypse.game.guard_fires_at")
    assert len(fired) == 1 and "RA-GUARD-04" in fired[0].rules
    shown = events(log, "apocalypse.game.revealed")[0]
    assert log.index(shown) < log.index(fired[0])


def test_RA_HIDE_04_a_runner_cannot_stay_hidden_in_the_turn_edition() -> None:
    battle = sneaking()
    sneak = battle.warrior("sneak")
    sneak.turn.ran = True
    log = play(actions._step(battle, sneak, (9.0, 14.0), 6.0), [])
    assert sneak.sight is Sight.SEEN
    assert "RA-HIDE-04" in events(log, "apocalypse.game.revealed")[0].rules


def test_RA_HIDE_04_a_runner_may_creep_in_the_activation_edition() -> None:
    # seed 000 forbids hiding only to a charger («Боец, который нападает…»)
    battle = sneaking("activation")
    sneak = battle.warrior("sneak")
    sneak.turn.ran = True
    log = play(actions._step(battle, sneak, (9.0, 14.0), 6.0), [1])  # detection roll 1 + 4 < 8
    assert sneak.sight is Sight.HIDDEN
    assert "RA-HIDE-05" in rules_named(log)


def test_RA_HIDE_04_a_charger_cannot_stay_hidden() -> None:
    battle = game("turn", unit("target", "a", 10, 14), unit("sneak", "b", 4, 14), WALL)
    sneak = battle.warrior("sneak")
    sneak.sight = Sight.HIDDEN
    log = play(actions._charge(battle, sneak, battle.warrior("target")), [4] * 12)
    assert sneak.sight is not Sight.HIDDEN
    assert "RA-HIDE-04" in events(log, "apocalypse.game.revealed")[0].rules


def test_RA_HIDE_04_the_enemy_is_not_told_of_the_creep() -> None:
    battle = sneaking()
    sneak = battle.warrior("sneak")
    log = play(actions._step(battle, sneak, (9.0, 14.0), 6.0), [])
    moved = [e for e in log if isinstance(e, EventEntry)]
    assert moved and all(battle.visible_to("b", e) for e in moved)
    assert not any(battle.visible_to("a", e) for e in moved)
    assert all(p["id"] != "sneak" for p in battle.view("a")["pieces"])


RAMPART = terrain("rampart", [[1, 12], [11, 12]], obstacle=True, shape="line", cover="light")


def test_RA_HIDE_04_a_hidden_warrior_may_creep_nearer_along_a_low_wall() -> None:
    # the watcher at (10, 2) sees him over the low wall, but he is in cover from him
    battle = game("turn", unit("watcher", "a", 10, 2), unit("sneak", "b", 2, 12.7), RAMPART)
    sneak = battle.warrior("sneak")
    sneak.sight = Sight.HIDDEN
    menu: Menu[actions.Act] = Menu()
    actions._creep_offer(battle, sneak, menu, battle.warrior("watcher"))
    offer = menu.offer_of(actions.Act("creep", "watcher"))
    assert offer.verdict.allowed and "RA-HIDE-04" in offer.verdict.rules
    assert offer not in menu.refused
    before = math.dist(sneak.base.centre, (10.0, 2.0))
    log = play(actions._do(battle, sneak, offer.option, None), [])
    assert math.dist(sneak.base.centre, (10.0, 2.0)) <= before - 1.0
    assert sneak.sight is Sight.HIDDEN
    assert events(log, "apocalypse.game.creeps")


def test_RA_HIDE_04_a_found_warrior_is_offered_no_creep() -> None:
    battle = game("turn", unit("watcher", "a", 10, 2), unit("sneak", "b", 2, 12.7), RAMPART)
    sneak = battle.warrior("sneak")
    sneak.sight = Sight.FOUND
    menu: Menu[actions.Act] = Menu()
    actions._creep_offer(battle, sneak, menu, battle.warrior("watcher"))
    assert not menu.offers


def test_RA_HIDE_06_creeping_into_an_enemy_detection_radius_reveals_him() -> None:
    # out of the watcher's sight behind the wall all the way, but at the end within his
    # half Подвижность (2 paces, turn edition): found there
    battle = game("turn", unit("watcher", "a", 5.5, 9.3), unit("sneak", "b", 1, 12), WALL)
    sneak = battle.warrior("sneak")
    sneak.sight = Sight.HIDDEN
    log = play(actions._step(battle, sneak, (5.0, 12.0), 4.0), [])
    assert sneak.sight is Sight.SEEN
    shown = events(log, "apocalypse.game.revealed")[0]
    assert {"RA-HIDE-04", "RA-HIDE-06"} <= set(shown.rules)
    assert battle.gap(sneak, battle.warrior("watcher")) <= 2.0
