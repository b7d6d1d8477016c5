"""Rules battles never applied before the port (issue 9, §4), each played in a position
where it must happen: cliff edges and falls, prone losers trapped, riders struck off
their horses, the limit on Time for Whuppin', strikes that need a 6 and then more, a
weapon that cannot fire after moving, and the rules each decision names."""

from __future__ import annotations

from collections.abc import Hashable

from kubik.engine import Choose
from kubik.engine.log import ChoiceEntry, RollEntry
from kubik.game import GameSession
from kubik.game.battle import Trigger
from kubik.rulesets.old_west.battle.figures import Stance
from kubik.rulesets.old_west.battle.game import OldWestGame
from kubik.rulesets.old_west.battle.options import MoveKind, MoveTo, ShootAt
from kubik.rulesets.old_west.battle.shots import usable
from kubik.table import mm_to_inches

from .helpers import (
    FENCE,
    Script,
    battle,
    drive,
    event_ids,
    events,
    game_of,
    play,
    state_of,
    unit,
)

INCH = "base_mm = 25.4"
CLIFF = """
[[terrain]]
id = "mesa"
name = "the mesa"
elevation = 4
points = [[0, 12], [24, 12], [24, 24], [0, 24]]

[[terrain]]
id = "cliff"
name = "the cliff"
obstacle = true
shape = "line"
kind = "impassable"
points = [[0, 12], [24, 12]]
"""


def test_OW_CC_09_OW_ABSENT_05_a_loser_at_a_cliff_edge_takes_normal_strikes_and_falls() -> None:
    """Joe stands at the mesa's edge; Sam charges him from inside. Joe loses with nowhere
    to back off but over the edge: one strike, not two (1: no wound), then the fall of 4"
    — two Strength 3 hits (1, 1) — and he lies at the foot of the cliff, out of the fight."""
    scenario = battle(
        unit("sam", "law", "deputy", 12, 18),
        unit("joe", "gang", "outlaw", 12, 12.6),
        terrain=CLIFF,
    )
    script = Script(moves={"sam": (MoveKind.CHARGE, "joe")})
    session = play(scenario, [6, 1, 6, 2, 1, 1, 1], script)
    state = state_of(session)
    joe = state.figure("joe")
    (edge,) = events(session, "old_west.combat.at_edge")
    assert edge.rules == ("OW-CC-09",)
    wound_rolls = [
        e for e in session.log if isinstance(e, RollEntry) and e.reason.id == "old_west.wound.roll"
    ]
    assert len(wound_rolls) == 3  # one strike, two falling hits
    (hits,) = events(session, "old_west.falling.hits")
    assert hits.rules == ("OW-ABSENT-05",) and hits.event.kwargs["hits"] == 2
    (falls,) = events(session, "old_west.game.falls")
    assert set(falls.rules) == {"OW-CC-09", "OW-ABSENT-05"} and falls.event.kwargs["height"] == 4
    assert joe.in_action and joe.stance is Stance.PRONE
    assert joe.base.y < 12 and state.tape.elevation(joe.base.centre) == 0
    assert not state.contacts.pairs() and state.contact_violations() == ()


def test_OW_CC_10_a_prone_model_charged_cannot_stand_loses_trapped_and_stays_down() -> None:
    """Turn 1: Sam's shot at Joe behind the fence hits (4), clears the fence (5), does not
    wound (3); Joe fails to keep his nerve (1+2) and lies down behind the fence. Turn 2:
    Bill charges him as he lies there: Joe cannot get up in the Movement phase; he loses
    (2 against 6), counts as trapped — two strikes for Bill's one Attack (1, 1) — and,
    with the fence at his back, squeezes out of contact along it, still on the ground."""
    scenario = battle(
        unit("sam", "law", "deputy", 2, 12, 'weapons = ["rifle"]'),
        unit("bill", "law", "brawler", 19, 12),
        unit("joe", "gang", "outlaw", 13.3, 12),
        terrain=FENCE,
    )
    script = Script(shots={"sam": "joe"})
    session = GameSession(scenario, 1, controllers={"law": "human", "gang": "human"}, dice="typed")

    def decide(request: Choose) -> Hashable:
        first = request.options[0]
        if (
            isinstance(first, MoveTo)
            and first.model == "bill"
            and state_of(session).figure("joe").prone
        ):
            return next(
                o for o in request.options if isinstance(o, MoveTo) and o.kind is MoveKind.CHARGE
            )
        return script(request)

    drive(session, [6, 1, 4, 5, 3, 1, 2, 6, 1, 6, 2, 1, 1], decide)
    ids = event_ids(session)
    assert ids.index("old_west.game.lies_down") < ids.index("old_west.game.charged_prone")
    (charged,) = events(session, "old_west.game.charged_prone")
    assert charged.rules == ("OW-CC-10",)
    (cannot,) = events(session, "old_west.game.cannot_stand")
    assert cannot.rules == ("OW-CC-10",)
    (trapped,) = events(session, "old_west.combat.trapped")
    assert {"OW-CC-10", "OW-CC-09"} <= set(trapped.rules)
    # the fence is at his back: no 1" way back that neither jumps it nor ends on it, so
    # he squeezes out of contact along it (OW-CC-09), still on the ground
    (out,) = events(session, "old_west.game.squeezes_out")
    assert out.rules == ("OW-CC-09", "OW-CC-10")
    state = state_of(session)
    joe = state.figure("joe")
    assert joe.in_action and joe.prone and joe.base.x > 12.5 + joe.base.radius - 0.1
    assert not state.board.on_obstacle(joe, joe.base.centre)
    assert not state.contacts.pairs()


def test_OW_CC_10_a_prone_winner_stands_up_from_the_rounds_outcome_and_does_not_strike() -> None:
    """Sam, lying on the ground, is charged by Joe and wins (6 against 2): the round's
    outcome says he stood up, so he stands — and strikes nobody; Joe backs off."""
    scenario = battle(
        unit("sam", "law", "deputy", 5, 12),
        unit("joe", "gang", "outlaw", 10, 12),
    )

    def lying(game: OldWestGame) -> None:
        game.figure("sam").stance = Stance.PRONE  # he dived for cover last turn

    script = Script(moves={"joe": (MoveKind.CHARGE, "sam")})
    session = play(scenario, [1, 6, 6, 2], script, setup=lying)
    ids = event_ids(session)
    assert "old_west.combat.stands_up" in ids and "old_west.wound.roll" not in [
        e.reason.id for e in session.log if isinstance(e, RollEntry)
    ]
    sam = state_of(session).figure("sam")
    assert sam.stance is Stance.STANDING
    assert "old_west.game.backs_off" in ids


def test_OW_HERO_11_a_whuppin_benefit_does_not_extend_to_a_hero_who_benefited_already() -> None:
    """Wyatt and Doc both call Time for Whuppin'. Wyatt's fight comes first: he puts Joe
    out (5) and, moving again, charges Pete, who is fighting Doc. Doc's Whuppin' fight —
    Wyatt and Doc against Pete — puts Pete out (5): Doc may move again, but Wyatt, who
    already moved under his own Whuppin', does not (OW-HERO-11)."""
    scenario = battle(
        unit("wyatt", "law", "marshal", 10, 12, INCH),
        unit("joe", "gang", "outlaw", 11, 12, INCH),
        unit("doc", "law", "gunfighter", 10, 16, INCH),
        unit("pete", "gang", "outlaw", 11, 16, INCH),
        unit("ike", "gang", "outlaw", 22, 3),
        options="heroic_actions = true",
    )
    script = Script(
        heroics={"wyatt:whuppin", "doc:whuppin"},
        moves={"wyatt": (MoveKind.CHARGE, "pete")},
    )
    session = play(scenario, [6, 1, 6, 5, 2, 5, 6, 6, 3, 1, 5], script)
    (again_wyatt, again_doc) = events(session, "old_west.game.move_again")
    assert [dict(n.params)["en"] for n in again_wyatt.event.kwargs["models"]] == ["Wyatt"]
    assert [dict(n.params)["en"] for n in again_doc.event.kwargs["models"]] == ["Doc"]
    (limit,) = events(session, "old_west.game.benefited_already")
    assert limit.rules == ("OW-HERO-11",)
    assert [dict(n.params)["en"] for n in limit.event.kwargs["models"]] == ["Wyatt"]
    fights = events(session, "old_west.game.fight")
    assert [len(f.event.kwargs["a"]) for f in fights] == [1, 2]  # Wyatt fought twice


def test_OW_CC_07_a_pistol_needs_a_six_and_then_four_against_a_grizzly() -> None:
    """Strength 3 against the grizzly's Toughness 8 is 6/4: Sam passes his Fearsome test
    (6+6), hits (4), rolls the 6 and then the 4: one wound of three."""
    scenario = battle(
        unit("sam", "law", "deputy", 2, 12, 'weapons = ["pistol"]'),
        unit("bear", "gang", "grizzly", 12, 12),
        options="heroic_actions = false\ndiving_for_cover = false",
    )
    session = play(scenario, [6, 1, 6, 6, 4, 6, 4], Script(shots={"sam": "bear"}))
    seconds = [
        e
        for e in session.log
        if isinstance(e, RollEntry) and e.reason.id == "old_west.wound.second_roll"
    ]
    assert [e.values for e in seconds] == [(4,)] and seconds[0].rules == ("OW-CC-07",)
    (result,) = events(session, "old_west.wound.result")
    assert "OW-CC-07" in result.rules and result.event.kwargs["cell"] == "6/4"
    assert state_of(session).figure("bear").wounds_left == 2


def test_OW_ABSENT_04_a_move_or_fire_weapon_cannot_fire_after_moving() -> None:
    """The buffalo rifle fires only from a model that has not moved this turn: standing
    still Pat may shoot Joe; after 3" of move the rule forbids it, saying why."""
    scenario = battle(
        unit("pat", "law", "deputy", 2, 12, 'weapons = ["buffalo_rifle"]'),
        unit("joe", "gang", "outlaw", 30, 12),
        width=36,
    )
    game = game_of(scenario)
    pat, joe = game.figure("pat"), game.figure("joe")
    weapon, verdict = usable(game, pat, joe)
    assert weapon is not None and weapon.id == "buffalo_rifle" and verdict.allowed
    pat.moved = 3.0
    weapon, verdict = usable(game, pat, joe)
    assert weapon is None and not verdict.allowed
    assert verdict.reason is not None and verdict.reason.id == "old_west.permission.moved_too_far"
    script = Script(moves={"pat": MoveKind.ADVANCE})
    play(scenario, [6, 1], script)
    assert not [r for r in script.asked if isinstance(r.options[0], ShootAt)]  # no shot offered


def test_every_move_and_shot_decision_names_its_verdicts_rules() -> None:
    """The move decision names the movement rule (and standing up, for a prone model); the
    shot decision the shooting rule; a charge records the rule that let it touch."""
    scenario = battle(
        unit("sam", "law", "deputy", 2, 12, 'weapons = ["rifle"]'),
        unit("joe", "gang", "outlaw", 14, 12),
    )
    script = Script(shots={"sam": "joe"})
    session = play(scenario, [6, 1, 1], script)
    moves = [e for e in session.log if isinstance(e, ChoiceEntry) and isinstance(e.answer, MoveTo)]
    assert moves and all(e.rules == ("OW-ABSENT-02",) for e in moves)
    shots = [e for e in session.log if isinstance(e, ChoiceEntry) and isinstance(e.answer, ShootAt)]
    assert shots and shots[0].rules == ("OW-ABSENT-04",)
    charge = battle(unit("sam", "law", "deputy", 5, 12), unit("joe", "gang", "outlaw", 10, 12))
    charged = play(charge, [6, 1], Script(moves={"sam": (MoveKind.CHARGE, "joe")}))
    (fight,) = state_of(charged).contacts.pairs()
    assert "OW-CC-01" in fight.rules


def test_OW_CC_16_by_default_a_winner_strikes_the_mount_when_it_is_easier_to_wound() -> None:
    """The Marshal (Toughness 4) rides a horse (Toughness 3): the striking player's default
    puts Sam's strike on the horse (5 kills it), and the fall (3) leaves the Marshal prone."""
    reach = (mm_to_inches(25) + mm_to_inches(40)) / 2
    scenario = battle(
        unit("sam", "law", "deputy", 9, 12),
        unit("wyatt", "gang", "marshal", round(9 + reach, 3), 12, 'mounted = "horse"'),
        options="heroic_actions = false",
    )

    class Defaults(Script):
        def __call__(self, request):  # type: ignore[no-untyped-def]
            if request.reason.id == "old_west.combat.at_mount":
                self.asked.append(request)
                return request.default
            return super().__call__(request)

    script = Defaults()
    # advantage; Sam 5, the Marshal 2 and 1 (a Hero rolls his own dice; he spends no Fame)
    session = play(scenario, [6, 1, 5, 2, 1, 5, 3], script)
    (mount,) = [r for r in script.asked if r.reason.id == "old_west.combat.at_mount"]
    assert mount.default == 1 and mount.options == (0, 1)
    wyatt = state_of(session).figure("wyatt")
    assert not wyatt.mounted and wyatt.prone
    assert "old_west.game.mount_killed" in event_ids(session)


def test_diving_for_cover_is_an_interrupt_in_the_shooters_turn() -> None:
    """The target's Pluck test is its reaction out of turn: registered once, for shots."""
    game = game_of(
        battle(unit("sam", "law", "deputy", 2, 12), unit("joe", "gang", "outlaw", 9, 12))
    )
    assert game.interrupts.names(Trigger.SHOT_AT) == ("diving_for_cover",)
