"""At a real table (``[options] table = true``): people move the models and measure, the
rules check what they type, and the log marks it (issue 9 §6)."""

from __future__ import annotations

import pytest

from kubik.engine import Choose
from kubik.engine.dice import D4, D8
from kubik.engine.log import ChoiceEntry, RollEntry
from kubik.engine.narration import narrate
from kubik.game import GameInputError
from kubik.rulesets.steel_war.battle.options import Fire, Move, MoveHow, MoveKind, Spot
from kubik.rulesets.steel_war.fire import Cover
from kubik.text.i18n import render

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
    # told as it went (north-north-west, 2.5" by the way it took), not as the menu aimed it
    assert not events(session.log, "steel_war.game.moved")
    placed = events(session.log, "steel_war.game.moved_placed")[-1].event
    assert placed.kwargs["x"] == 5.5 and placed.kwargs["inches"] == 2.5
    assert render(placed, "en").startswith("s: move north-north-west through easy")
    assert "на северо-северо-запад" in render(placed, "ru")


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


def test_a_squad_is_put_in_a_line_at_the_table_then_moved_model_by_model() -> None:
    """The referee types where the squad stands and the formation it was put in
    (``2 n line``: a line across the way it went, its commander in the middle), then
    single models (``4 1 e``: model 4 one inch east): each place is checked by the board
    and the rules — a model beyond the move's 6" allowance, one in contact with another,
    one out of coherency is refused — and the log says where everything stands, in words."""
    session = _at_table()
    pick(session, lambda o: isinstance(o, Move) and o.how is MoveHow.MOVE)
    session.type_answer("2 n line")
    squad = state(session).squad("s")
    assert squad.centre == (6.0, 6.0)
    assert sorted(round(m.x, 2) for m in squad.models) == [3.75, 5.25, 6.75, 8.25]
    assert {m.y for m in squad.models} == {6.0}
    models = session.pending
    assert isinstance(models, Choose) and models.entry is not None
    with pytest.raises(GameInputError, match=r"would have gone 8\.\d\""):
        session.type_answer("4 8 e")  # 8" from where it stood: beyond the 6" move
    with pytest.raises(GameInputError, match="touching another model"):
        session.type_answer("4 0.5 w")  # onto its neighbour's base
    with pytest.raises(GameInputError, match="coherency"):
        session.type_answer("4 4 e")  # 4" east of the line: more than 2" from anyone
    with pytest.raises(GameInputError, match="model's number"):
        session.type_answer("9 1 e")
    session.type_answer("4 1 e")
    moved = squad.model("s.4")
    assert (moved.x, moved.y) == (9.2, 6.0)  # (typed places are on the 0.1" grid)
    assert events(session.log, "steel_war.game.model_placed")
    done = session.pending
    assert isinstance(done, Choose)
    session.answer(done.options[0])  # every model stands as placed
    text = [render(e.event, "en") for e in events(session.log, "steel_war.game.moved_placed")]
    assert text and "north" in text[0] and "in a line" in text[0]
    said = [narrate(e, "en", {}) for e in session.log if isinstance(e, ChoiceEntry) and e.typed]
    assert any("in a line, as placed at the table" in line for line in said)
    assert not any("{" in line for line in said)
    assert state(session).contact_violations() == ()
