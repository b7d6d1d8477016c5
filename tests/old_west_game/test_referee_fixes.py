"""What battles got wrong, played as a referee would (issue 9, §3): each fix in a position
where it must happen, and the log that shows it did, naming the rule."""

from __future__ import annotations

from collections.abc import Hashable

from kubik.engine import Choose
from kubik.engine.log import ChoiceEntry, EventEntry
from kubik.rulesets.old_west.battle.options import MoveKind, MoveTo
from kubik.rulesets.old_west.division import Fight
from kubik.table import in_base_contact
from kubik.text.i18n import render

from .helpers import Script, battle, event_ids, events, play, state_of, unit

INCH = "base_mm = 25.4"
STORE = """
[[terrain]]
id = "store"
name = "the store"
name_ru = "лавка"
kind = "impassable"
cover = "hard"
blocks_los = true
points = [[10.6, 8], [14, 8], [14, 16], [10.6, 16]]
"""


def test_OW_CC_09_a_trapped_loser_still_ends_out_of_contact_the_others_making_way() -> None:
    """Joe has the store's wall behind him and friends at his sides: he cannot back off
    1", so Sam's one Attack strikes twice (1, 1: no wound); he still ends the round out
    of contact — Pete shuffles aside to let him out — and the fight is over."""
    scenario = battle(
        unit("sam", "law", "deputy", 5, 12),
        unit("joe", "gang", "outlaw", 10, 12),
        unit("pete", "gang", "outlaw", 10, 13.1),
        unit("ike", "gang", "outlaw", 10, 10.9),
        terrain=STORE,
    )
    session = play(scenario, [6, 1, 6, 2, 1, 1], Script(moves={"sam": (MoveKind.CHARGE, "joe")}))
    state = state_of(session)
    sam, joe, pete = state.figure("sam"), state.figure("joe"), state.figure("pete")
    (trapped,) = events(session, "old_west.combat.trapped")
    assert "OW-CC-09" in trapped.rules
    (out,) = events(session, "old_west.game.squeezes_out_past")
    assert out.rules == ("OW-CC-09",)
    assert [dict(n.params)["en"] for n in out.event.kwargs["others"]] == ["Pete"]
    assert joe.in_action and not in_base_contact(joe.base, sam.base)
    assert pete.base.centre != (10.0, 13.1)  # he made way
    assert not state.contacts.engaged("sam", "joe")
    assert state.contact_violations() == ()


def test_OW_CC_04_a_fight_is_not_fought_again_without_a_new_charge() -> None:
    """Sam's charge starts the fight; Joe loses, survives (the strike rolls 1) and backs off
    1": the fight is over. Next turn neither charges, so nobody fights."""
    scenario = battle(unit("sam", "law", "deputy", 5, 12), unit("joe", "gang", "outlaw", 10, 12))

    class ChargeOnce(Script):
        def __call__(self, request: Choose) -> Hashable:
            if isinstance(request.options[0], MoveTo) and self.moves.get("sam"):
                picked = super().__call__(request)
                self.moves.pop("sam")
                return picked
            return super().__call__(request)

    script = ChargeOnce(moves={"sam": (MoveKind.CHARGE, "joe")})
    session = play(scenario, [6, 1, 6, 2, 1, 1, 6], script)
    state = state_of(session)
    assert event_ids(session).count("old_west.game.fight") == 1
    assert event_ids(session).count("game.turn") == 3  # turn 2 was played without a fight
    (engaged,) = events(session, "old_west.game.charges")
    assert "OW-CC-01" in engaged.rules
    assert not state.contacts.pairs()


#: Wyatt - Joe, Doc - Pete, Bat - Ike: three fights, one model each side.
THREE_FIGHTS = (
    unit("wyatt", "law", "deputy", 4, 12, INCH),
    unit("joe", "gang", "outlaw", 5, 12, INCH),
    unit("doc", "law", "deputy", 10, 12, INCH),
    unit("pete", "gang", "outlaw", 11, 12, INCH),
    unit("bat", "law", "deputy", 16, 12, INCH),
    unit("ike", "gang", "outlaw", 17, 12, INCH),
)


def test_OW_CC_02_the_advantage_player_picks_each_next_fight_once_the_last_is_resolved() -> None:
    """The law (advantage) picks Bat's fight, sees it resolved (the wound roll 1), then
    picks Doc's; the last fight needs no decision. Every pick comes after the previous
    fight's result, and names the fights by their models."""

    class Picks(Script):
        def __call__(self, request: Choose) -> Hashable:
            if isinstance(request.options[0], Fight):
                self.asked.append(request)
                wanted = "bat" if len(request.options) == 3 else "doc"
                return next(o for o in request.options if isinstance(o, Fight) and wanted in o.a)
            return super().__call__(request)

    # advantage; Bat 6 v Ike 1, wound 1; Doc 6 v Pete 1, wound 1; Wyatt 6 v Joe 1, wound 1
    session = play(battle(*THREE_FIGHTS), [6, 1, 6, 1, 1, 6, 1, 1, 6, 1, 1], Picks())
    order = [
        e.event.id if isinstance(e, EventEntry) else "pick"
        for e in session.log
        if (isinstance(e, ChoiceEntry) and isinstance(e.answer, Fight))
        or (isinstance(e, EventEntry) and e.event.id == "old_west.combat.result")
    ]
    result = "old_west.combat.result"
    assert order == ["pick", result, "pick", result, result]
    picks = [e for e in session.log if isinstance(e, ChoiceEntry) and isinstance(e.answer, Fight)]
    assert [e.side for e in picks] == ["law", "law"]
    assert all("OW-CC-02" in e.rules and "OW-CC-08" in e.rules for e in picks)
    assert picks[0].label is not None
    assert render(picks[0].label, "en") == "fight next: Bat against Ike"


def test_OW_CC_01_one_fight_each_and_a_paid_whuppin_is_never_lost_silently() -> None:
    """Wyatt and Ike, in contact, both call Time for Whuppin' (1 Fame each); the order die 2
    lets the law (advantage) act first: Wyatt's fight is fought, once. Ike's Whuppin' finds
    his fight fought already: the log says so, with the rules, and he keeps no Fame."""
    scenario = battle(
        unit("wyatt", "law", "marshal", 10, 12, INCH),
        unit("ike", "gang", "outlaw_boss", 11, 12, INCH),
        options="heroic_actions = true",
    )
    script = Script(heroics={"wyatt:whuppin", "ike:whuppin"})
    session = play(scenario, [6, 1, 2, 6, 5, 2, 1, 1, 1], script)
    assert event_ids(session).count("old_west.game.fight") == 1
    (lost,) = events(session, "old_west.game.heroic_lost")
    assert lost.event.kwargs["why"].id == "old_west.permission.fought_already"
    assert {"OW-CC-01", "OW-HERO-10"} <= set(lost.rules)
    assert state_of(session).figure("ike").fame == 1


def test_OW_HERO_09_a_paid_quickdraw_that_fires_no_shot_is_logged_with_the_reason() -> None:
    """Wyatt pays for a Quickdraw, then holds fire: the action does not work, and the log
    says why (OW-HERO-09)."""
    scenario = battle(
        unit("wyatt", "law", "marshal", 2, 12, 'weapons = ["rifle"]'),
        unit("joe", "gang", "outlaw", 14, 12),
        options="heroic_actions = true",
    )
    session = play(scenario, [6, 1], Script(heroics={"wyatt:quickdraw"}))
    (lost,) = events(session, "old_west.game.heroic_lost")
    assert lost.event.kwargs["why"].id == "old_west.permission.quickdraw_no_shot"
    assert lost.rules == ("OW-HERO-09",)
    assert state_of(session).figure("wyatt").fame == 2


def test_OW_HERO_09_quickdraw_is_offered_only_to_a_hero_with_a_target() -> None:
    """Out of range of every enemy, a Hero is not offered Quickdraw (it could do nothing)."""
    scenario = battle(
        unit("wyatt", "law", "marshal", 2, 12, 'weapons = ["pistol"]'),
        unit("joe", "gang", "outlaw", 22, 12),
        options="heroic_actions = true",
    )
    script = Script()
    play(scenario, [6, 1], script)
    asked = [r.options[0].action.value for r in script.asked if hasattr(r.options[0], "action")]
    assert asked == ["yee_haw"]  # Yee Haw! yes (he can move), Quickdraw no


def test_OW_HERO_08_a_paid_yee_haw_that_cannot_move_is_logged_with_the_reason() -> None:
    """Both Heroes shout Yee Haw!; the order die 5 lets the gang (without advantage) act
    first: Ike charges Wyatt, who is then in a fight and cannot move — his paid Yee Haw!
    is lost, and the log says why."""
    scenario = battle(
        unit("wyatt", "law", "marshal", 6, 12),
        unit("ike", "gang", "outlaw_boss", 11, 12),
        options="heroic_actions = true",
    )
    script = Script(
        heroics={"wyatt:yee_haw", "ike:yee_haw"}, moves={"ike": (MoveKind.CHARGE, "wyatt")}
    )
    session = play(scenario, [6, 1, 5], script)
    (lost,) = events(session, "old_west.game.heroic_lost")
    assert dict(lost.event.kwargs["model"].params)["en"] == "Wyatt"
    assert lost.event.kwargs["why"].id == "old_west.permission.engaged_move"
    assert "OW-CC-01" in lost.rules


def test_OW_CC_12_overkill_strikes_stop_and_targets_are_named() -> None:
    """Wyatt (2 Attacks) beats Joe and Pete together: he picks a target for each Attack —
    by name, never "1"; once his first strike takes Joe out, only Pete is offered."""
    scenario = battle(
        unit("wyatt", "law", "marshal", 10, 12, INCH),
        unit("joe", "gang", "outlaw", 11, 12, INCH),
        unit("pete", "gang", "outlaw", 9, 12, INCH),
    )
    script = Script()
    # advantage; Wyatt (a Hero with Fame) rolls 6, 5; the gang 2, 1; first strike at Joe: 5
    session = play(scenario, [6, 1, 6, 5, 2, 1, 5, 1], script)
    targets = [r for r in script.asked if r.reason.id == "old_west.combat.choose_target"]
    assert targets, "a target was chosen"
    names = [[render(label, "en") for o in r.options if (label := r.label(o))] for r in targets]
    assert names == [["Joe", "Pete"], ["Pete"]]
    assert state_of(session).figure("joe").wounds_left == 0
