"""Turn structure: advantage, heroic actions, Head for the Hills, the ending (OW-ABSENT-01,
OW-HERO-06..08, OW-PLK-02..05), and a whole scripted game with typed dice."""

from __future__ import annotations

from kubik.engine.log import EventEntry
from kubik.rulesets.old_west.battle.game import OldWestGame
from kubik.rulesets.old_west.battle.options import MoveKind, MoveTo, ShootAt
from kubik.rulesets.old_west.core import Side

from .helpers import FENCE, Script, battle, event_ids, play, state_of, unit


def test_OW_ABSENT_01_advantage_roll_decides_who_moves_first() -> None:
    scenario = battle(unit("sam", "law", "deputy", 3, 12), unit("joe", "gang", "outlaw", 20, 12))
    script = Script()
    session = play(scenario, [2, 5], script)  # the gang rolls higher
    state = session.state
    assert isinstance(state, OldWestGame)
    assert state.advantage is Side.B and state.advantage_side == "gang"
    movers = [r.options[0].model for r in script.asked if isinstance(r.options[0], MoveTo)]
    assert movers == ["joe", "sam"]


def test_OW_HERO_08_yee_haw_moves_the_hero_and_his_friends_before_the_advantage() -> None:
    """The gang has advantage, but both Heroes declare Yee Haw! (1 Fame each); the order
    die 5 (4-6: the side without advantage first) lets Wyatt and Sam move first, then Ike
    with Joe (within 6" of him)."""
    scenario = battle(
        unit("wyatt", "law", "marshal", 3, 12),
        unit("sam", "law", "deputy", 3, 15),
        unit("ike", "gang", "outlaw_boss", 45, 15),
        unit("joe", "gang", "outlaw", 45, 12),
        options="heroic_actions = true",
        width=48,
    )
    script = Script(
        heroics={"wyatt:yee_haw", "ike:yee_haw"},
        moves={"wyatt": MoveKind.ADVANCE, "sam": MoveKind.ADVANCE},
    )
    session = play(scenario, [1, 6, 5], script)
    movers = [r.options[0].model for r in script.asked if isinstance(r.options[0], MoveTo)]
    assert movers == ["wyatt", "sam", "ike", "joe"]
    state = state_of(session)
    assert state.figure("wyatt").fame == 2 and state.figure("ike").fame == 1
    ids = event_ids(session)
    assert ids.count("old_west.game.heroic.declared") == 2 and "old_west.heroic.order" in ids
    wyatt, sam = state.figure("wyatt"), state.figure("sam")
    assert wyatt.base.x == 9.0  # a full 6" advance
    from kubik.table import edge_distance

    assert edge_distance(wyatt.base, sam.base) <= 6.0  # followers end within 6"


def test_OW_PLK_05_a_failed_fearsome_test_stops_the_shot() -> None:
    scenario = battle(
        unit("sam", "law", "deputy", 2, 12, 'weapons = ["rifle"]'),
        unit("ike", "gang", "outlaw_boss", 16, 12),
    )
    # advantage; Pluck 3: 1+2+3 = 6 fails, so Sam is scared and never rolls to hit
    session = play(scenario, [6, 1, 1, 2, 6, 6], Script(shots={"sam": "ike"}))
    ids = event_ids(session)
    assert "old_west.game.scared" in ids and "old_west.shoot.result" not in ids


def test_OW_PLK_02_a_whole_scripted_game_ends_when_the_gang_heads_for_the_hills() -> None:
    """Turn 1: Sam shoots Joe behind the fence (hit 4, fence 5, wound 5): out. Pete has no
    target. Turn 2: the gang has lost 1 of 2, half: Joe (the leader by Pluck) is out, so
    Pete tests Pluck 2 and rolls 1+1: the gang flees and the law wins."""
    scenario = battle(
        unit("sam", "law", "deputy", 2, 12, 'weapons = ["rifle"]'),
        unit("joe", "gang", "outlaw", 13.3, 12, 'weapons = ["pistol"]'),
        unit("pete", "gang", "outlaw", 20, 22, 'weapons = ["pistol"]'),
        terrain=FENCE,
    )
    script = Script(shots={"sam": "joe"})
    session = play(scenario, [6, 1, 4, 5, 5, 1, 1], script)
    assert session.finished and session.result is not None
    assert (session.result.winner, session.result.turns) == ("law", 2)
    gang, law = session.result.side("gang"), session.result.side("law")
    assert (gang.count("models_lost"), gang.count("models_fled"), gang.count("models_left")) == (
        1,
        1,
        0,
    )
    assert (law.count("models_left"), law.count("wounds_taken")) == (1, 0)
    end = session.log[-1]
    assert isinstance(end, EventEntry) and end.event.kwargs["reason"].id == "old_west.game.end.fled"
    ids = event_ids(session)
    assert ids.index("old_west.game.out_of_action") < ids.index("old_west.game.posse_flees")
    assert not any(isinstance(r.options[0], ShootAt) and r.side == "gang" for r in script.asked)


def test_OW_PLK_04_voluntary_flight_needs_no_dice() -> None:
    scenario = battle(
        unit("sam", "law", "deputy", 2, 12, 'weapons = ["rifle"]'),
        unit("joe", "gang", "outlaw", 13.3, 12),
        unit("pete", "gang", "outlaw", 20, 22),
        terrain=FENCE,
    )
    session = play(scenario, [6, 1, 4, 5, 5], Script(shots={"sam": "joe"}, flee=True))
    assert session.result is not None and session.result.winner == "law"
    assert "old_west.head_for_the_hills.voluntary" in event_ids(session)


def test_turn_limit_compares_models_then_fame_else_a_draw() -> None:
    with_hero = battle(
        unit("wyatt", "law", "marshal", 3, 12),
        unit("joe", "gang", "outlaw", 45, 12),
        width=48,
        turn_limit=1,
    )
    session = play(with_hero, [6, 1])
    assert session.result is not None and session.result.winner == "law"  # 3 Fame to 0
    even = battle(
        unit("sam", "law", "deputy", 3, 12),
        unit("joe", "gang", "outlaw", 45, 12),
        width=48,
        turn_limit=1,
    )
    session = play(even, [6, 1])
    assert session.result is not None and session.result.is_draw
