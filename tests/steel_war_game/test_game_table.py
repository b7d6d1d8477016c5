"""At a real table (``[options] table = true``): people move the models and measure, the
rules check what they type, and the log marks it (issue 9 §6)."""

from __future__ import annotations

import pytest

from kubik.dice import D4, D8
from kubik.engine import Choose
from kubik.engine.log import ChoiceEntry, RollEntry
from kubik.game import GameInputError
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
    with pytest.raises(GameInputError, match="off the table's edge"):
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
    assert isinstance(sight, Choose) and sight.options == (True,) and sight.entry is not None
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
    given = events(session.log, "game.entry.differs")
    assert given and given[0].event.kwargs["measured"].kwargs["inches"] == 15.0
    typed = [e for e in session.log if isinstance(e, ChoiceEntry) and e.typed]
    assert typed and typed[0].typed == '7.5"'
