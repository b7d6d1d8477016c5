"""At a real table (issue 9, §6): people move the models and measure; the rules check what
they typed and the log marks it. And in referee mode both Heroes' Fame bids stay secret
until both are written (OW-HERO-03)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubik.core.errors import KubikError
from kubik.engine import Choose
from kubik.engine.log import ChoiceEntry
from kubik.game import GameSession
from kubik.game.battle import read_position
from kubik.rulesets.old_west.battle.options import MoveKind, MoveTo, Split
from kubik.text.i18n import render
from tests.bots.cli_harness import Kubik, kubik, toy_home

from .helpers import HEADER, battle, events, state_of, unit

__all__ = ["kubik", "toy_home"]  # fixtures, used by name below

INCH = "base_mm = 25.4"
TABLE = {"table": True}


def at_table(scenario_units: tuple[str, ...], dice: list[int], **kwargs: object) -> GameSession:
    """A game refereed at a real table, both posses people, played to the first decision
    after ``dice``."""
    session = GameSession(
        battle(*scenario_units, **kwargs),  # type: ignore[arg-type]
        1,
        controllers={"law": "human", "gang": "human"},
        dice="typed",
        options=TABLE,
    )
    pending = session.advance()
    for value in dice:
        assert pending is not None and not isinstance(pending, Choose), pending
        session.roll([value])
        pending = session.pending
    return session


def test_a_typed_spot_is_the_battle_layers_one_grammar_of_places() -> None:
    """Old West reads typed places as every ruleset does (the layer's grammar): where the
    centre ended, or a distance and a direction (sixteen compass points, or degrees)."""
    assert read_position("8, 12", (5.0, 12.0)) == (8.0, 12.0)
    assert read_position("8;12", (5.0, 12.0)) == (8.0, 12.0)
    assert read_position("3 e", (5.0, 12.0)) == (8.0, 12.0)
    assert read_position('3" ю', (5.0, 12.0)) == (5.0, 9.0)
    assert read_position("2 @270", (5.0, 12.0)) == (3.0, 12.0)
    with pytest.raises(KubikError):
        read_position("3 upwards", (5.0, 12.0))
    with pytest.raises(KubikError):
        read_position("over there", (5.0, 12.0))


def test_a_move_typed_at_the_table_is_checked_by_the_movement_rules_and_marked() -> None:
    session = at_table(
        (unit("sam", "law", "deputy", 5, 12), unit("joe", "gang", "outlaw", 20, 12)), [6, 1]
    )
    request = session.pending
    assert isinstance(request, Choose) and request.entry is not None
    errors = {
        "12, 12": 'that is 7.0" of move; the model has 6.0"',
        "30, 12": "(30.0, 12.0): the base does not fit there",
        "over there": "'over there' is not a place",
    }
    for text, expected in errors.items():
        with pytest.raises(KubikError) as refused:
            session.type_answer(text)
        assert expected in str(refused.value)
    session.type_answer("8, 12")
    state = state_of(session)
    assert state.figure("sam").base.centre == (8.0, 12.0)
    session.type_answer("3 w")  # Joe: 3" west
    assert state.figure("joe").base.centre == (17.0, 12.0)
    typed = [e for e in session.log if isinstance(e, ChoiceEntry) and e.typed]
    assert [e.typed for e in typed] == ["8, 12", "3 w"]
    assert isinstance(typed[0].answer, MoveTo) and typed[0].answer.kind is MoveKind.PLACED
    assert typed[0].rules == ("OW-ABSENT-02",)
    assert typed[0].label is not None and "(8.0, 12.0)" in render(typed[0].label, "en")


def test_at_the_table_a_move_into_an_enemys_control_zone_is_refused_and_contact_is_a_charge() -> (
    None
):
    session = at_table(
        (unit("sam", "law", "deputy", 5, 12), unit("joe", "gang", "outlaw", 10, 12)), [6, 1]
    )
    with pytest.raises(KubikError) as refused:
        session.type_answer("8.5, 12")  # 0.5" from Joe: his control zone
    assert "control zone" in str(refused.value)
    session.type_answer("9, 12")  # base to base with Joe: a charge
    state = state_of(session)
    assert state.contacts.engaged("sam", "joe")
    (charge,) = events(session, "old_west.game.charges")
    assert "OW-CC-01" in charge.rules


def test_measured_facts_are_confirmed_or_overridden_and_the_log_marks_them() -> None:
    """Sam shoots at Joe. The tape says 11.0" and a clear line of sight; the players
    confirm the distance (Enter), confirm the sight, and count one thing in the way
    that the tape missed: the shot then rolls for it."""
    session = at_table(
        (
            unit("sam", "law", "deputy", 2, 12, 'weapons = ["rifle"]'),
            unit("joe", "gang", "outlaw", 14, 12),
        ),
        [6, 1],
    )
    session.type_answer("2, 12")  # Sam stays
    session.type_answer("14, 12")  # Joe stays
    shot = session.pending
    assert isinstance(shot, Choose)
    session.answer(shot.options[0])  # shoot at Joe
    distance = session.pending
    assert isinstance(distance, Choose) and distance.options == (11.0,)
    assert distance.entry is not None and distance.rules == ("OW-ABSENT-04",)
    session.answer(11.0)
    session.type_answer("yes")
    session.type_answer("1")
    (override,) = events(session, "game.entry.differs")
    assert override.rules == ("OW-ABSENT-04",)
    assert render(override.event, "en").startswith("things in the way of Sam's shot at Joe")
    typed = [e.typed for e in session.log if isinstance(e, ChoiceEntry) and e.typed]
    assert typed == ["2, 12", "14, 12", "yes", "1"]
    session.roll([5])  # to hit
    roll = session.pending
    assert roll is not None and not isinstance(roll, Choose)
    assert roll.reason.id == "old_west.shoot.in_the_way"  # the thing the players counted


def test_a_shot_the_players_measure_out_of_range_is_refused_with_the_rule() -> None:
    session = at_table(
        (
            unit("sam", "law", "deputy", 2, 12, 'weapons = ["pistol"]'),
            unit("joe", "gang", "outlaw", 13, 12),
        ),
        [6, 1],
    )
    session.type_answer("2, 12")
    session.type_answer("13, 12")
    shot = session.pending
    assert isinstance(shot, Choose)
    session.answer(shot.options[0])
    session.type_answer('13"')  # the players measured 13": out of the pistol's 12"
    session.answer(True)
    session.answer(0)
    (refused,) = events(session, "old_west.game.shot_refused")
    assert refused.rules == ("OW-ABSENT-04",)
    assert refused.event.kwargs["why"].id == "old_west.permission.out_of_range"


SQUARE = (
    unit("wyatt", "law", "marshal", 10, 10, INCH),
    unit("joe", "gang", "outlaw", 11, 10, INCH),
    unit("doc", "law", "gunfighter", 11, 11, INCH),
    unit("pete", "gang", "outlaw", 10, 11, INCH),
)


def test_people_at_the_table_may_split_a_brawl_themselves_within_the_rules() -> None:
    """A split typed at the table must put every model in exactly one fight, one side of
    each fight a single model, whom the others touch (division_check)."""
    session = at_table(SQUARE, [6, 1])
    split = session.pending
    while isinstance(split, Choose) and not isinstance(split.options[0], Split):
        session.answer(split.default)
        split = session.pending
    assert isinstance(split, Choose) and split.entry is not None
    with pytest.raises(KubikError) as refused:
        session.type_answer("wyatt vs joe")
    assert "in base contact but in no fight: doc, pete" in str(refused.value)
    with pytest.raises(KubikError) as refused:
        session.type_answer("wyatt + doc vs joe + pete")
    assert "cannot be one fight" in str(refused.value)
    session.type_answer("Wyatt vs Joe; Doc против Pete")
    (entry,) = [
        e for e in session.log if isinstance(e, ChoiceEntry) and isinstance(e.answer, Split)
    ]
    assert entry.typed == "Wyatt vs Joe; Doc против Pete"
    assert [(f.a, f.b) for f in entry.answer.fights] == [
        (("wyatt",), ("joe",)),
        (("doc",), ("pete",)),
    ]


DUEL_OF_HEROES = (
    HEADER.format(width=24, height=24)
    + "\n[options]\nheroic_actions = false\n"
    + unit("wyatt", "law", "marshal", 10, 12, INCH)
    + unit("ike", "gang", "outlaw_boss", 11, 12, INCH)
    + "\n[end]\nturn_limit = 4\n"
)


def test_OW_HERO_03_a_sealed_bid_is_shown_to_nobody_until_both_are_written() -> None:
    session = GameSession(
        battle(
            unit("wyatt", "law", "marshal", 10, 12, INCH),
            unit("ike", "gang", "outlaw_boss", 11, 12, INCH),
        ),
        1,
        controllers={"law": "human", "gang": "human"},
        dice="typed",
    )
    pending = session.advance()
    for values in ([6], [1], [4, 2], [4, 1]):
        assert pending is not None and not isinstance(pending, Choose)
        session.roll(values)
        pending = session.pending
    assert isinstance(pending, Choose) and pending.sealed and pending.side == "law"
    session.answer(1)
    second = session.pending
    assert isinstance(second, Choose) and second.sealed and second.side == "gang"
    assert second.options == (0, 1, 2)  # Ike's whole pool: he cannot see Wyatt's bid
    bids = [
        e
        for e in session.log
        if isinstance(e, ChoiceEntry) and e.reason.id == "old_west.fame.spend_fight"
    ]
    assert bids == []  # the law's bid is written, and shown to nobody yet
    session.answer(0)
    bids = [
        e
        for e in session.log
        if isinstance(e, ChoiceEntry) and e.reason.id == "old_west.fame.spend_fight"
    ]
    assert [(e.side, e.answer) for e in bids] == [("law", 1), ("gang", 0)]
    reveal = events(session, "old_west.fame.bids_revealed")
    assert len(reveal) == 1 and session.log.index(reveal[0]) > session.log.index(bids[1])


def test_OW_HERO_03_in_referee_mode_the_second_bidder_does_not_see_the_first_bid(
    kubik: Kubik, tmp_path: Path
) -> None:
    path = tmp_path / "duel.toml"
    path.write_text(DUEL_OF_HEROES, encoding="utf-8")
    # advantage 6 / 1; Wyatt's dice 4 2, Ike's 4 1; the law bids 1 Fame (option 2), then
    # the gang is asked — and quits
    done = kubik("play", str(path), "--table", stdin="6\n1\n4 2\n4 1\n2\nquit\n")
    assert done.code == 0, done.err
    out = done.out
    first = out.index("Law decides: Law: spend Fame")
    second = out.index("Gang decides: Gang: spend Fame")
    assert first < second
    # between the law's answer and the gang's question nothing shows the law's bid
    assert "chooses" not in out[first:second]
    assert "chooses spend 1 Fame" not in out[:second]


def test_a_table_game_with_typed_moves_and_measures_replays_from_its_save() -> None:
    """A save keeps what people typed; loading reads it again with the same rules."""
    session = at_table(
        (
            unit("sam", "law", "deputy", 2, 12, 'weapons = ["rifle"]'),
            unit("joe", "gang", "outlaw", 14, 12),
        ),
        [6, 1],
    )
    session.type_answer("3 e")
    session.type_answer("14, 12")
    shot = session.pending
    assert isinstance(shot, Choose)
    session.answer(shot.options[0])
    session.type_answer('8.5"')
    session.type_answer("да")
    session.answer(0)
    loaded = GameSession.from_record(session.record)
    assert loaded.to_json() == session.to_json()
    assert state_of(loaded).figure("sam").base.centre == (5.0, 12.0)


def test_OW_CC_04_at_the_table_people_put_the_loser_where_he_backed_off() -> None:
    """Wyatt and Ike start in a fight; Ike loses. At a real table the program does not move
    him by itself: the gang is asked where he stands (its own place offered), and a place
    the back-off rule refuses — onto Wyatt, short of 1", too far — is refused with the
    rule's reason; the place typed is where he stands, out of the fight."""
    session = GameSession(
        battle(
            unit("wyatt", "law", "marshal", 10, 12, INCH),
            unit("ike", "gang", "outlaw", 11, 12, INCH),
        ),
        1,
        controllers={"law": "human", "gang": "human"},
        dice="typed",
        options=TABLE,
    )
    pending = session.advance()
    # advantage 6 / 1; the fight: Wyatt's two dice 6 and 5, Ike's one die 1; Wyatt's two
    # strikes miss (1, 1)
    for values in ([6], [1], [6, 5], [1]):
        assert pending is not None and not isinstance(pending, Choose), pending
        session.roll(values)
        pending = session.pending
        while isinstance(pending, Choose) and pending.entry is None:
            session.answer(pending.default)
            pending = session.pending
    while pending is not None:
        if isinstance(pending, Choose):
            if pending.reason.id == "old_west.game.place.back_off":
                break
            session.answer(pending.default)
        else:
            session.roll([1])
        pending = session.pending
    assert isinstance(pending, Choose) and pending.reason.id == "old_west.game.place.back_off"
    assert pending.side == "gang" and pending.entry is not None
    for typed, reason in (
        ("10.5, 12", "old_west.permission.back_off_touch"),
        ("11.5, 12", "old_west.permission.back_off_short"),
        ("14, 12", "old_west.permission.back_off_long"),
    ):
        with pytest.raises(KubikError) as refused:
            session.type_answer(typed)
        assert refused.value.message is not None and refused.value.message.id == reason, typed
    session.type_answer("12.1, 12.2")
    state = state_of(session)
    assert state.figure("ike").base.centre == (12.1, 12.2)
    assert not state.contacts.pairs()
    (backed,) = events(session, "old_west.game.backs_off")
    assert (backed.event.kwargs["x"], backed.event.kwargs["y"]) == (12.1, 12.2)
