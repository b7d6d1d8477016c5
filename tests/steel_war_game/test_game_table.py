"""At a real table (``[options] table = true``): people move the models and measure, the
rules check what they type, and the log marks it (issue 9 §6)."""

from __future__ import annotations

import pytest

from kubik.engine import Choose, EntryError
from kubik.engine.dice import D4, D8
from kubik.engine.log import ChoiceEntry, RollEntry
from kubik.game import GameInputError
from kubik.rulesets.steel_war.battle.entry import read_spot
from kubik.rulesets.steel_war.battle.options import Fire, Move, MoveHow, MoveKind, Spot
from kubik.rulesets.steel_war.fire import Cover

from .builders import events, human_session, pick, roll, rolls, scenario, state, unit

WOOD = """
[[terrain]]
id = "wood"
terrain = "light_wood"
cover = "light"
points = [[0, 8], [24, 8], [24, 12], [0, 12]]
"""


def _at_table(**kwargs: object):  # type: ignore[no-untyped-def]
    session = human_session(
        scenario([unit("s", "steel", (6, 4)), unit("l", "lianra", (6, 20))], **kwargs),
        table=True,
    )
    rolls(session, 6, 1)  # the roll-off: steel first
    return session


def test_a_typed_spot_reads_coordinates_or_a_distance_and_a_direction() -> None:
    assert read_spot("12,5; 30", (0.0, 0.0)) == (12.5, 30.0)
    assert read_spot("(3, 4)", (0.0, 0.0)) == (3.0, 4.0)
    assert read_spot("6 с", (10.0, 10.0)) == (10.0, 16.0)
    assert read_spot("4 e", (10.0, 10.0)) == (14.0, 10.0)
    with pytest.raises(EntryError) as refused:
        read_spot("over there", (0.0, 0.0))
    assert refused.value.message.id == "steel_war.game.entry.not_a_spot"


def test_SW_MOVE_02_a_move_at_the_table_ends_where_the_players_put_the_squad() -> None:
    """The program proposes where the move ends; the players type where the squad's centre
    stands. The rules check it: into the wood a move is 3" (SW-MOVE-02), so a spot in it
    6" away is refused with the reason; one in reach is taken and marked as typed."""
    session = _at_table(terrain=WOOD)
    move = pick(
        session,
        lambda o: isinstance(o, Move) and o.how is MoveHow.MOVE and o.kind is MoveKind.ADVANCE,
    )
    request = session.pending
    assert isinstance(request, Choose) and request.entry is not None
    assert request.options == (Spot(move.x, move.y),)
    with pytest.raises(GameInputError, match=r'that is 6\.0" away'):
        session.type_answer("6, 10")
    with pytest.raises(GameInputError, match="off the table"):
        session.type_answer("0, 4")
    session.type_answer("5.5, 6.5")  # 2.5" forward and a little aside
    assert state(session).squad("s").centre == (5.5, 6.5)
    typed = [e for e in session.log if isinstance(e, ChoiceEntry) and e.typed]
    assert typed and typed[0].typed == "5.5, 6.5" and "SW-MOVE-03" in typed[0].rules
    moved = events(session.log, "steel_war.game.moved")
    assert moved[-1].event.kwargs["x"] == 5.5


def test_the_contact_rule_holds_at_the_table_too() -> None:
    """A typed spot in base contact with an enemy is refused: only a charge reaches one."""
    session = human_session(
        scenario([unit("s", "steel", (6, 4)), unit("l", "lianra", (6, 11))]), table=True
    )
    rolls(session, 6, 1)
    pick(session, lambda o: isinstance(o, Move) and o.how is MoveHow.MOVE)
    with pytest.raises(GameInputError, match="only a charge reaches an enemy"):
        session.type_answer("6, 10")


def test_SW_FIRE_06_SW_FIRE_08_the_players_confirm_or_correct_what_was_measured() -> None:
    """Before a fire the players confirm the line of sight, the distance and the cover: here
    they measured 7.5" (zone 1 for a d8 shooter: range die d4, not the d6 of the 15" the
    program measured) and judge the target out of cover."""
    session = _at_table()
    pick(session, lambda o: isinstance(o, Fire))
    sight = session.pending
    assert isinstance(sight, Choose) and sight.options == (True, False)
    session.answer(True)
    distance = session.pending
    assert isinstance(distance, Choose) and distance.options == (15.0,)
    assert distance.entry is not None
    with pytest.raises(GameInputError, match="not a distance"):
        session.type_answer("far")
    session.type_answer('7.5"')
    cover = session.pending
    assert isinstance(cover, Choose) and cover.default is Cover.NONE
    session.answer(Cover.NONE)
    roll(session, 1, 1)  # the pool: d8, d8
    ranged = [e for e in session.log if isinstance(e, RollEntry)][-1]
    assert ranged.dice == (D8, D8)
    roll(session, 4)
    range_die = [e for e in session.log if isinstance(e, RollEntry)][-1]
    assert range_die.dice == (D4,)
    given = events(session.log, "steel_war.game.entry.distance_given")
    assert given and given[0].event.kwargs["inches"] == 7.5
    typed = [e for e in session.log if isinstance(e, ChoiceEntry) and e.typed]
    assert typed and typed[0].typed == '7.5"'
