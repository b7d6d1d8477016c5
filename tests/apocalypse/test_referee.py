"""What a referee holding seeds 000 and 003 checks in a battle, one situation per fault
the battles once had (issue 28): the turn edition's phases, the guard's −1, charges and
fear tests only where the walked way reaches, outnumbering, joining a fight, the order of
strikes, a shield's hand, detection, and what each side may read."""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from pathlib import Path
from typing import Any

import pytest

from kubik.engine import Choose
from kubik.engine.log import ChoiceEntry, ChoiceOrigin, EventEntry, LogEntry, RollEntry
from kubik.game.battle import Moment, Trigger, touching
from kubik.rulesets.apocalypse.battle import (
    actions,
    charges,
    fights,
    heights,
    nerve,
    psyche,
    shots,
    songs,
)
from kubik.rulesets.apocalypse.battle.game import ApocalypseGame
from kubik.rulesets.apocalypse.battle.warriors import Condition, Morale, Sight, Watch
from kubik.rulesets.apocalypse.melee import Fighter, melee
from kubik.rulesets.apocalypse.melody import Jamming, jam
from kubik.rulesets.apocalypse.shooting import Reaction
from kubik.text.i18n import render
from tests.apocalypse.helpers import resolve, terrain
from tests.apocalypse.test_battle import game, unit
from tests.apocalypse.test_moves import events, play


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("KUBIK_HOME", str(tmp_path / "home"))
    yield


class Picks:
    """Answers decisions by their reason's message id (``pick(request)``), else the
    default; remembers every request."""

    origin = ChoiceOrigin.HUMAN

    def __init__(self, **picks: Any) -> None:
        self.picks = {key.replace("__", "."): pick for key, pick in picks.items()}
        self.asked: list[Choose] = []

    def choose(self, request: Choose) -> Hashable:
        self.asked.append(request)
        pick = self.picks.get(request.reason.id)
        if pick is None:
            return request.default
        found = pick(request)
        return request.default if found is None else found

    def of(self, reason_id: str) -> list[Choose]:
        return [r for r in self.asked if r.reason.id == reason_id]


def first(kind: str) -> Any:
    """Pick the first option of this kind (a movement's ``Act.kind``)."""
    return lambda r: next((o for o in r.options if getattr(o, "kind", None) == kind), None)


def a_shot(request: Choose) -> Any:
    return next((o for o in request.options if getattr(o, "target", "")), None)


def unit_of(entry: LogEntry) -> str:
    """The English name of the warrior an event is about."""
    assert isinstance(entry, EventEntry)
    return str(entry.event.kwargs["unit"].kwargs["en"])


# -- 1. the turn edition plays in phases (RA-GUARD-01, seed 003's phases) -----------------


def test_RA_GUARD_01_the_turn_edition_moves_everyone_before_anyone_shoots() -> None:
    battle = game(
        "turn",
        unit("runner", "a", 5, 5),
        unit("archer", "a", 8, 5),
        unit("foe", "b", 6, 16),
        unit("other", "b", 9, 16),
    )
    chooser = Picks(apocalypse__reason__move=first("advance"), apocalypse__reason__fire=a_shot)
    log = play(battle.turn(1), [4] * 60, chooser)
    mine = [e for e in log if isinstance(e, EventEntry) and e.event.kwargs.get("unit")]
    own = {"Runner", "Archer"}
    moves = [i for i, e in enumerate(mine) if e.event.id == "apocalypse.game.moves"]
    shots_ = [i for i, e in enumerate(mine) if e.event.id == "apocalypse.game.shoots"]
    own_moves = [i for i in moves if unit_of(mine[i]) in own]
    own_shots = [i for i in shots_ if unit_of(mine[i]) in own]
    assert len(own_moves) == 2 and own_shots
    assert max(own_moves) < min(own_shots)  # every move of side a before its first shot
    phases = [e.event.kwargs["phase"].id for e in events(log, "apocalypse.game.phase")]
    assert phases[:3] == [
        "apocalypse.phase.movement",
        "apocalypse.phase.shooting",
        "apocalypse.phase.close_combat",
    ]


def test_RA_GUARD_01_watch_is_taken_at_the_start_of_the_turn_only() -> None:
    battle = game("turn", unit("sentry", "a", 5, 5), unit("foe", "b", 6, 20))
    chooser = Picks(apocalypse__reason__watch=lambda r: True)
    log = play(battle.turn(1), [4] * 40, chooser)
    asked = [e for e in log if isinstance(e, ChoiceEntry) and e.side == "a"]
    assert asked[0].reason.id == "apocalypse.reason.watch"  # before anything else he does
    assert battle.warrior("sentry").watch is Watch.NONE  # stood through b's turn, quiet
    stood = events(log, "apocalypse.game.stands.watch")
    assert stood and "RA-GUARD-01" in stood[0].rules
    # on watch he gives up his whole turn: no movement, no shot
    assert not chooser.of("apocalypse.reason.move") or all(
        r.side != "a" for r in chooser.of("apocalypse.reason.move")
    )
    # and a warrior who acts is never offered the watch in mid-turn
    battle = game("turn", unit("sentry", "a", 5, 5), unit("foe", "b", 6, 20))
    chooser = Picks()
    play(battle.turn(1), [4] * 40, chooser)
    for request in chooser.of("apocalypse.reason.move"):
        assert all(getattr(o, "kind", "") != "watch" for o in request.options)


# -- 2. the guard's −1 only when he himself is charged (RA-GUARD-04) -------------------------


def _charge_past_the_guard(at_guard: bool) -> tuple[ApocalypseGame, tuple[LogEntry, ...]]:
    battle = game(
        "turn",
        unit("guard", "a", 12, 10),
        unit("comrade", "a", 16, 10),
        unit("raider", "b", 14, 16),
    )
    guard = battle.warrior("guard")
    guard.watch = Watch.ON_GUARD
    target = guard if at_guard else battle.warrior("comrade")
    return battle, play(charges.charge(battle, battle.warrior("raider"), target), [1, 6] + [3] * 20)


def test_RA_GUARD_04_no_minus_one_when_the_charge_is_at_someone_else() -> None:
    _, log = _charge_past_the_guard(at_guard=False)
    fired = events(log, "apocalypse.game.fires_from_post.watch")
    assert len(fired) == 1
    assert fired[0].event.kwargs["why"] == "" and "RA-GUARD-04" not in fired[0].rules


def test_RA_GUARD_04_minus_one_when_the_guard_himself_is_charged() -> None:
    _, log = _charge_past_the_guard(at_guard=True)
    fired = events(log, "apocalypse.game.fires_from_post.watch")
    assert len(fired) == 1 and "RA-GUARD-04" in fired[0].rules
    assert fired[0].event.kwargs["why"].id == "apocalypse.guard.why.charged"


def test_RA_GUARD_04_the_shot_itself_is_one_worse_at_a_charger_of_the_guard() -> None:
    battle = game("turn", unit("guard", "a", 12, 10), unit("raider", "b", 14, 16))
    guard, raider = battle.warrior("guard"), battle.warrior("raider")
    bow = next(w for w in guard.weapons if w.id == "bow")
    at_him = shots.shot_situation(battle, guard, raider, bow, shots.Firing(True, True))
    at_other = shots.shot_situation(battle, guard, raider, bow, shots.Firing(True, False))
    assert at_him.modifier == at_other.modifier - 1


# -- 3. and 4. charges only where the walked way reaches; fear tests then --------------------

#: A wall between the charger (west) and his enemy (east): 7 paces apart in a line, a
#: long way round.
WALL = terrain("wall", [[10, 2], [11, 2], [11, 22], [10, 22]], kind="impassable")


def _movement_menu(battle: ApocalypseGame, who: str) -> Choose:
    chooser = Picks()
    play(actions._movement(battle, battle.warrior(who)), [4] * 10, chooser)
    return chooser.of("apocalypse.reason.move")[0]


def test_RA_ABSENT_08_a_charge_is_offered_only_where_the_walked_way_reaches() -> None:
    battle = game("turn", unit("charger", "a", 6, 12), unit("foe", "b", 15, 12), WALL)
    assert battle.board.gap(battle.warrior("charger"), battle.warrior("foe")) <= 8.0
    menu = _movement_menu(battle, "charger")
    assert all(getattr(o, "kind", "") != "charge" for o in menu.options)
    # without the wall the same charge is offered, its way and odds with it
    battle = game("turn", unit("charger", "a", 6, 12), unit("foe", "b", 15, 12))
    menu = _movement_menu(battle, "charger")
    charge = next(o for o in menu.options if getattr(o, "kind", "") == "charge")
    label = menu.label(charge)
    assert label is not None and label.id == "apocalypse.option.charge_way"
    forecast = menu.forecast(charge)
    assert forecast is not None and forecast.procedure is charges.charge_bout


def test_RA_ABSENT_08_an_offered_charge_ends_in_base_contact() -> None:
    battle = game("turn", unit("charger", "a", 6, 12), unit("foe", "b", 13, 13.5))
    charger, foe = battle.warrior("charger"), battle.warrior("foe")
    log = play(charges.charge(battle, charger, foe), [4] * 10)
    assert battle.contacts.engaged("charger", "foe") and touching(charger.base, foe.base)
    assert not events(log, "apocalypse.game.charge_short")


def test_RA_PSY_07_no_fear_test_for_a_charge_that_cannot_reach() -> None:
    fearsome = 'abilities = ["fear"]'
    battle = game("turn", unit("beast", "a", 6, 12, fearsome), unit("foe", "b", 15, 12), WALL)
    log = play(charges.charge(battle, battle.warrior("beast"), battle.warrior("foe")), [1] * 10)
    assert not events(log, "apocalypse.psy.fear") and not events(log, "apocalypse.game.charges")
    assert battle.warrior("foe").turn.afraid_of == ""


def test_RA_PSY_07_the_target_tests_fear_once_the_charge_is_declared_and_reaches() -> None:
    fearsome = 'abilities = ["fear"]'
    battle = game("turn", unit("beast", "a", 6, 12, fearsome), unit("foe", "b", 12, 12))
    log = play(charges.charge(battle, battle.warrior("beast"), battle.warrior("foe")), [6] * 10)
    ids = [e.event.id for e in log if isinstance(e, EventEntry)]
    assert ids.index("apocalypse.game.charges") < ids.index("apocalypse.game.fear_of_charger")
    assert ids.index("apocalypse.game.fear_of_charger") < ids.index("apocalypse.psy.fear")
    assert battle.warrior("foe").turn.afraid_of == "beast"  # a 6 fails Spirit 4
    assert battle.contacts.engaged("beast", "foe")


# -- 5. outnumbering counts knocked-down fighters (RA-CC-18) -----------------------------------


def _attack_dice(log: tuple[LogEntry, ...]) -> list[int]:
    return [
        int(e.reason.kwargs["dice"])
        for e in log
        if isinstance(e, RollEntry) and e.reason.id == "apocalypse.melee.attack_dice"
    ]


def test_RA_CC_18_no_outnumbering_against_a_lone_enemy_on_the_ground() -> None:
    battle = game("turn", unit("victor", "a", 5, 5), unit("down", "b", 6, 5))
    battle.contacts.engage("victor", "down", ("RA-CC-01",))
    battle.warrior("down").condition = Condition.KNOCKED_DOWN
    log = play(fights.close_combat(battle, "a"), [4] * 10)
    assert _attack_dice(log) == [1]  # one die, his own: one against one, not one against none


def test_RA_CC_18_two_against_one_adds_a_die_and_one() -> None:
    battle = game(
        "turn", unit("left", "a", 5, 5), unit("right", "a", 7, 5), unit("lone", "b", 6, 5)
    )
    battle.contacts.engage("left", "lone", ("RA-CC-01",))
    battle.contacts.engage("right", "lone", ("RA-CC-01",))
    log = play(fights.close_combat(battle, "a"), [3] * 20)
    assert _attack_dice(log)[:2] == [2, 1]


# -- 6. joining a fight (RA-CC-02) -----------------------------------------------------------


def test_RA_CC_02_a_warrior_is_drawn_in_only_where_a_pace_brings_him_into_contact() -> None:
    wall = terrain("wall", [[7.0, 3], [7.4, 3], [7.4, 7], [7.0, 7]], kind="impassable")
    battle = game(
        "turn",
        unit("fighter", "a", 5, 5),
        unit("foe", "b", 6, 5),
        unit("helper", "a", 7.9, 5),
        wall,
    )
    battle.contacts.engage("fighter", "foe", ("RA-CC-01",))
    helper = battle.warrior("helper")
    assert battle.board.gap(helper, battle.warrior("foe")) <= 1.0  # within a pace...
    chooser = Picks()
    play(fights.close_combat(battle, "a"), [4] * 20, chooser)
    assert not chooser.of("apocalypse.reason.drawn_in")  # ...but the wall keeps him out
    assert helper.base.centre == (7.9, 5.0) and not battle.contacts.of("helper")


def test_RA_CC_02_a_warrior_drawn_in_ends_in_base_contact() -> None:
    battle = game(
        "turn", unit("fighter", "a", 5, 5), unit("foe", "b", 6, 5), unit("helper", "a", 6, 6.8)
    )
    battle.contacts.engage("fighter", "foe", ("RA-CC-01",))
    log = play(fights.close_combat(battle, "a"), [4] * 20)
    helper, foe = battle.warrior("helper"), battle.warrior("foe")
    assert events(log, "apocalypse.game.drawn_in")
    assert battle.contacts.engaged("helper", "foe") and touching(helper.base, foe.base)


# -- 7. the outnumbering player orders the strikes (RA-CC-18) ----------------------------------


def test_RA_CC_18_the_outnumbering_player_picks_who_strikes_first() -> None:
    battle = game(
        "turn", unit("left", "a", 5, 5), unit("right", "a", 7, 5), unit("lone", "b", 6, 5)
    )
    battle.contacts.engage("left", "lone", ("RA-CC-01",))
    battle.contacts.engage("right", "lone", ("RA-CC-01",))
    chooser = Picks(apocalypse__reason__strike_order=lambda r: r.options[-1])
    log = play(fights.close_combat(battle, "b"), [2] * 30, chooser)  # b's phase, a outnumbers
    asked = chooser.of("apocalypse.reason.strike_order")
    assert asked and asked[0].side == "a" and asked[0].rules == ("RA-CC-18",)
    assert len(asked[0].options) == 2 and all(asked[0].forecast(o) for o in asked[0].options)
    bouts = events(log, "apocalypse.game.bout")
    picked = asked[0].options[-1]
    assert isinstance(picked, tuple)
    first_bout = {str(bouts[0].event.kwargs[k].kwargs["en"]) for k in ("a", "b")}
    assert first_bout == {picked[0].title(), picked[1].title()}


# -- 8. a shield takes a hand (RA-CC-07, RA-CC-13) -------------------------------------------


def test_RA_CC_07_a_shield_takes_a_hand() -> None:
    kit = 'weapons = ["axe", "pistol"]\nshield = true'
    battle = game(
        "turn",
        unit("bearer", "a", 5, 5, kit).replace('weapons = ["sword", "bow"]\n', ""),
        unit("foe", "b", 6, 5),
    )
    bearer, foe = battle.warrior("bearer"), battle.warrior("foe")
    held = [(o.weapons, o.shield) for o in bearer.loadouts()]
    assert held == [((0,), True), ((1,), True), ((0, 1), False)]  # never all three
    battle.contacts.engage("bearer", "foe", ("RA-CC-01",))
    log = play(fights.close_combat(battle, "a"), [5] * 20)  # default: axe and shield
    assert _attack_dice(log)[0] == 1  # one weapon in hand: one die
    assert events(log, "apocalypse.game.arms_shield")
    fighter = fights.fighter(battle, bearer, foe, "a")
    assert fighter.shield and fighter.extra_weapons == 0


# -- 9. detection only when an enemy moves, at any distance (RA-HIDE-05) ----------------------


def _hiders() -> ApocalypseGame:
    battle = game(
        "activation",
        unit("hider", "a", 3, 3),
        unit("comrade", "a", 5, 3),
        unit("seeker", "b", 20, 20),
    )
    battle.warrior("hider").sight = Sight.HIDDEN
    return battle


def test_RA_HIDE_05_a_comrade_moving_finds_nobody() -> None:
    battle = _hiders()
    log = play(shots.detection(battle, Moment(Trigger.MOVED, "a", "comrade")), [6])
    assert not [e for e in log if isinstance(e, RollEntry)]
    assert battle.warrior("hider").sight is Sight.HIDDEN


def test_RA_HIDE_05_an_enemy_moving_far_off_still_rolls() -> None:
    battle = _hiders()  # the seeker is some 22 paces off: no cut-off in the seed
    log = play(shots.detection(battle, Moment(Trigger.MOVED, "b", "seeker")), [6])
    rolls = [e for e in log if isinstance(e, RollEntry)]
    assert len(rolls) == 1 and "RA-HIDE-05" in rolls[0].rules
    assert events(log, "apocalypse.game.detection")
    assert battle.warrior("hider").sight is Sight.HIDDEN  # 6 + 4 does not reach 22


# -- hidden information ------------------------------------------------------------------------


def test_RA_HIDE_02_which_warrior_acts_is_kept_from_the_enemy_while_one_is_hidden() -> None:
    battle = game(
        "activation", unit("bor", "a", 3, 3), unit("grif", "a", 6, 3), unit("fang", "b", 20, 20)
    )
    battle.warrior("bor").sight = Sight.HIDDEN
    for side in battle.sides:
        battle.fp[side] = 1
    battle.warrior("fang").turn.acted = True
    chooser = Picks(apocalypse__reason__activate=lambda r: "bor")
    log = play(actions.activations(battle), [4] * 10, chooser)
    picked = next(e for e in log if isinstance(e, ChoiceEntry) and e.side == "a")
    assert picked.answer == "bor"
    assert picked not in battle.narrated_for("b", log)
    assert all("bor" not in repr(e) for e in battle.narrated_for("b", log))
    assert picked in battle.narrated_for("a", log)


def test_RA_HIDE_02_a_seen_warrior_activated_among_hidden_ones_is_told_to_the_enemy() -> None:
    battle = game(
        "activation", unit("bor", "a", 3, 3), unit("grif", "a", 6, 3), unit("fang", "b", 20, 20)
    )
    battle.warrior("bor").sight = Sight.HIDDEN
    for side in battle.sides:
        battle.fp[side] = 1
    battle.warrior("fang").turn.acted = True
    chooser = Picks(apocalypse__reason__activate=lambda r: "grif")
    log = play(actions.activations(battle), [4] * 10, chooser)
    told = [e.event.id for e in battle.narrated_for("b", log) if isinstance(e, EventEntry)]
    assert "apocalypse.game.activates" in told


# -- what else a referee found ---------------------------------------------------------------


def test_RA_PSY_06_a_fleer_runs_toward_the_nearest_edge() -> None:
    battle = game("turn", unit("coward", "a", 10, 3.5), unit("foe", "b", 10, 20))
    coward = battle.warrior("coward")
    coward.morale = Morale.FLEEING
    play(nerve.run_away(battle, coward, None), [2])  # 2 paces toward the edge at y = 0
    assert coward.base.centre == pytest.approx((10.0, 1.5))
    play(nerve.run_away(battle, coward, None), [6])
    assert coward.condition is Condition.FLED


def test_RA_MAN_04_a_giant_leap_lands_in_contact_with_its_target() -> None:
    leaper = 'giant_leap = 3\nabilities = ["giant_leap"]'
    battle = game("turn", unit("dog", "a", 5, 5, leaper), unit("foe", "b", 8.5, 5))
    dog, foe = battle.warrior("dog"), battle.warrior("foe")
    assert battle.board.gap(dog, foe) == pytest.approx(2.5)
    log = play(heights.giant_leap_at(battle, dog, foe), [1] * 10)
    assert battle.contacts.engaged("dog", "foe") and touching(dog.base, foe.base)
    assert events(log, "apocalypse.game.leap_attack")


def test_RA_SHOOT_05_every_reaction_is_the_shooting_rule_s_verdict() -> None:
    battle = game("turn", unit("shooter", "a", 5, 5), unit("target", "b", 5, 12))
    chooser = Picks()
    play(
        shots.fire(battle, battle.warrior("shooter"), battle.warrior("target"), _bow(battle)),
        [4] * 10,
        chooser,
    )
    reaction = chooser.of("apocalypse.reason.reaction")[0]
    assert set(reaction.options) == {Reaction.DUCK, Reaction.TAKE_COVER, Reaction.PRE_EMPT}


def _bow(battle: ApocalypseGame) -> Any:
    return next(w for w in battle.warrior("shooter").weapons if w.id == "bow")


# -- what the narration tells a referee -------------------------------------------------------


def test_RA_MEL_05_a_jam_failed_on_two_ones_says_so() -> None:
    outcome, log = resolve(jam, (Jamming(3, 0),), [1, 1])
    said = events(log, "apocalypse.jam.result")[0]
    assert not outcome.jammed and said.event.kwargs["natural"].id == "apocalypse.jam.natural.ones"
    assert "2 natural 1s" in render(said.event, "en")
    _, log = resolve(jam, (Jamming(3, 0),), [4, 2])
    assert events(log, "apocalypse.jam.result")[0].event.kwargs["natural"] == ""


def test_RA_PSY_07_the_log_shows_fear_halving_the_die_and_each_total() -> None:
    afraid = Fighter(4, 4, 4, afraid=True)
    _, log = resolve(melee, (Fighter(3, 3, 3, charging=True), afraid), [2, 5])
    halves = events(log, "apocalypse.melee.fear_halves")
    assert len(halves) == 1 and halves[0].event.kwargs["halved"] == 3
    read = events(log, "apocalypse.melee.total")
    totals = {e.event.kwargs["side"].value: e.event.kwargs["total"] for e in read}
    assert totals == {"a": 2 + 3 + 3 + 1, "b": 3 + 4 + 4}


def test_RA_CC_08_a_win_on_mobility_says_so() -> None:
    # 11 against 11 (3 + 4 + 4 and 5 + 3 + 3): the higher Подвижность wins, one hit
    _, log = resolve(melee, (Fighter(4, 4, 5), Fighter(3, 3, 3)), [3, 5])
    said = events(log, "apocalypse.melee.result_mobility")
    assert said and "wins on Mobility" in render(said[0].event, "en")


def test_RA_PSY_11_and_RA_PSY_06_the_tests_name_the_warrior() -> None:
    battle = game(
        "turn",
        unit("dolt", "a", 5, 5, 'abilities = ["stupidity"]'),
        unit("coward", "a", 9, 5),
        unit("foe", "b", 5, 20),
    )
    battle.warrior("coward").morale = Morale.FLEEING
    log = play(psyche.start_of_turn(battle, "a"), [1, 1, 1, 1])
    assert [unit_of(e) for e in events(log, "apocalypse.game.stupidity_test")] == ["Dolt"]
    assert [unit_of(e) for e in events(log, "apocalypse.game.flight_test")] == ["Coward"]


def test_RA_ABSENT_08_a_run_is_told_as_a_run_of_the_paces_walked() -> None:
    battle = game("turn", unit("runner", "a", 5, 5), unit("foe", "b", 5, 20))
    chooser = Picks(apocalypse__reason__move=first("run"))
    log = play(actions._movement(battle, battle.warrior("runner")), [], chooser)
    ran = events(log, "apocalypse.game.runs")
    assert len(ran) == 1 and ran[0].event.kwargs["paces"] == pytest.approx(8.0)
    assert not events(log, "apocalypse.game.moves")
    assert render(ran[0].event, "ru").startswith("Runner пробегает 8")


def test_RA_CC_19_an_advance_into_contact_is_fought_in_the_next_phase() -> None:
    battle = game(
        "turn", unit("victor", "a", 5, 5), unit("victim", "b", 6, 5), unit("next", "b", 5, 6.9)
    )
    battle.contacts.engage("victor", "victim", ("RA-CC-01",))
    battle.warrior("victim").condition = Condition.KNOCKED_DOWN  # every blow lands: out
    chooser = Picks(
        apocalypse__reason__advance=lambda r: True,
        apocalypse__reason__drawn_in=lambda r: "",  # "next" keeps out of the fight
    )
    log = play(fights.close_combat(battle, "a"), [4] * 20, chooser)
    assert battle.warrior("victim").condition is Condition.OUT_OF_ACTION
    assert events(log, "apocalypse.game.advances_into")
    assert battle.contacts.engaged("victor", "next")
    fought = [unit_of_pair(e) for e in events(log, "apocalypse.game.bout")]
    assert fought == [("Victor", "Victim")]  # «не отрабатывайте схватку в этот ход»


def unit_of_pair(entry: EventEntry) -> tuple[str, str]:
    names = entry.event.kwargs
    return str(names["a"].kwargs["en"]), str(names["b"].kwargs["en"])


# -- hidden warriors and fights (found by the referee's check of the per-side logs) ---------


def test_RA_HIDE_03_a_hidden_warrior_drawn_into_a_fight_is_seen() -> None:
    battle = game(
        "turn", unit("fighter", "a", 5, 5), unit("foe", "b", 6, 5), unit("helper", "a", 6, 6.8)
    )
    battle.contacts.engage("fighter", "foe", ("RA-CC-01",))
    helper = battle.warrior("helper")
    helper.sight = Sight.HIDDEN
    log = play(fights.close_combat(battle, "a"), [4] * 20)
    assert battle.contacts.engaged("helper", "foe") and helper.sight is Sight.SEEN
    ids = [e.event.id for e in battle.narrated_for("b", log) if isinstance(e, EventEntry)]
    assert ids.index("apocalypse.game.revealed") < ids.index("apocalypse.game.drawn_in")


def test_RA_HIDE_06_a_warrior_in_a_fight_cannot_hide() -> None:
    wall = terrain("wall", [[4, 6], [7, 6]], obstacle=True, shape="line", cover="light")
    battle = game("turn", unit("fighter", "a", 5, 5), unit("foe", "b", 6, 5), wall)
    battle.contacts.engage("fighter", "foe", ("RA-CC-01",))
    battle.warrior("foe").condition = Condition.KNOCKED_DOWN  # down, but still in the fight
    log = play(actions.movement_phase(battle, "a"), [4] * 10)
    assert battle.warrior("fighter").sight is Sight.SEEN
    assert not events(log, "apocalypse.game.hides")


def test_RA_HIDE_03_a_hidden_singer_who_jams_is_heard() -> None:
    singer = 'profile = "singer"\nsinger = ["storm_chord"]'
    battle = game(
        "turn",
        unit("caster", "a", 5, 5, singer).replace('profile = "ratnik"\n', ""),
        unit("jammer", "b", 5, 15, singer).replace('profile = "ratnik"\n', ""),
    )
    jammer = battle.warrior("jammer")
    jammer.sight = Sight.HIDDEN
    log = play(songs._jam(battle, battle.warrior("caster"), Jamming(7, 7)), [3, 3])
    asked = [e for e in log if isinstance(e, ChoiceEntry) and e.side == "b"]
    assert asked and asked[0] not in battle.narrated_for("a", log)  # his decision: unseen
    told = [e.event.id for e in battle.narrated_for("a", log) if isinstance(e, EventEntry)]
    assert "apocalypse.game.revealed" in told and jammer.sight is Sight.SEEN
