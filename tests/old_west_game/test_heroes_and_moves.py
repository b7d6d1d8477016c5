"""Moving over the town and Heroes' actions in the game (OW-ABSENT-02/07/10, OW-HERO-09/10)."""

from __future__ import annotations

from kubik.engine.log import EventEntry
from kubik.rulesets.old_west.battle.figures import Stance
from kubik.rulesets.old_west.battle.options import MoveKind, MoveTo, ShootAt

from .helpers import FENCE, Script, battle, event_ids, play, state_of, unit


def test_OW_ABSENT_02_a_failed_jump_stops_the_model_short_of_the_fence() -> None:
    scenario = battle(
        unit("sam", "law", "deputy", 8, 12), unit("joe", "gang", "outlaw", 20, 12), terrain=FENCE
    )
    session = play(scenario, [6, 1, 1], Script(moves={"sam": MoveKind.ADVANCE}))
    sam = state_of(session).figure("sam")
    assert 11.5 < sam.base.x < 12.5 - sam.base.radius  # stopped before the fence at x = 12.5
    assert "old_west.game.jump" in event_ids(session)


def test_OW_ABSENT_10_a_prone_model_stands_up_for_half_its_move() -> None:
    """Sam lies on the ground: his move is 3", half of 6" (OW-ABSENT-10)."""
    scenario = battle(unit("sam", "law", "deputy", 8, 12), unit("joe", "gang", "outlaw", 20, 12))
    from kubik.rulesets.old_west.battle.moves import options
    from kubik.rulesets.old_west.battle.situations import mover
    from kubik.rulesets.old_west.movement import allowance, may_move

    from .helpers import game_of

    game = game_of(scenario)
    sam = game.figure("sam")
    sam.stance = Stance.PRONE
    assert allowance(mover(game, sam)) == 3  # half of the 6" move is left
    assert may_move(mover(game, sam)).rules == ("OW-ABSENT-02", "OW-ABSENT-10")
    advance = next(o for o in options(game, sam, 3.0, None).options if o.kind is MoveKind.ADVANCE)
    assert advance.distance == 3.0


def test_OW_ABSENT_02_moves_are_measured_from_the_nearest_enemy_not_the_first_listed() -> None:
    """Joe is listed first but stands far off; Ike, listed second, is nearest: Sam advances
    on Ike, straight along the street, and falls back straight away from him."""
    scenario = battle(
        unit("sam", "law", "deputy", 4, 12),
        unit("joe", "gang", "outlaw", 20, 22),
        unit("ike", "gang", "outlaw", 14, 12),
    )
    from kubik.rulesets.old_west.battle.moves import options

    from .helpers import game_of

    game = game_of(scenario)
    sam = game.figure("sam")
    assert [e.id for e in game.board.enemies(sam)] == ["joe", "ike"]
    nearest = game.board.nearest(sam)
    assert nearest is not None and nearest.id == "ike"
    menu = options(game, sam, 6.0, None).options
    advance = next(o for o in menu if o.kind is MoveKind.ADVANCE)
    back = next(o for o in menu if o.kind is MoveKind.BACK)
    assert advance.x > 4 and advance.y == 12.0  # toward Ike, not up the table to Joe
    assert back.x < 4 and back.y == 12.0  # straight away from Ike


def test_OW_ABSENT_07_fortune_saves_a_hero_from_a_wound() -> None:
    """Ike (Fearsome, T4, 2 Fortune): Sam passes the fear test 6+6, hits 4, wounds 5; the
    Fortune die 4 saves it; hit but unhurt, Ike passes Diving for cover 6+6."""
    scenario = battle(
        unit("sam", "law", "deputy", 2, 12, 'weapons = ["rifle"]'),
        unit("ike", "gang", "outlaw_boss", 16, 12, 'weapons = ["pistol"]'),
    )
    session = play(scenario, [6, 1, 6, 6, 4, 5, 4, 6, 6], Script(shots={"sam": "ike"}))
    ike = state_of(session).figure("ike")
    assert (ike.fortune, ike.wounds_taken, ike.in_action) == (1, 0, True)
    assert "old_west.game.fortune_spent" in event_ids(session)
    assert "old_west.fortune.saved" in event_ids(session)


def test_OW_HERO_09_quickdraw_lets_the_hero_and_his_friends_shoot_first() -> None:
    """The gang has advantage, but Wyatt's Quickdraw (1 Fame) lets him and Sam (within 6")
    shoot before Joe; every shot rolls a 1 and misses."""
    scenario = battle(
        unit("wyatt", "law", "marshal", 2, 12, 'weapons = ["rifle"]'),
        unit("sam", "law", "deputy", 2, 15, 'weapons = ["rifle"]'),
        unit("joe", "gang", "outlaw", 12, 12, 'weapons = ["pistol"]'),
        options="heroic_actions = true",
    )
    script = Script(
        heroics={"wyatt:quickdraw"}, shots={"wyatt": "joe", "sam": "joe", "joe": "wyatt"}
    )
    session = play(scenario, [1, 6, 1, 1, 1], script)
    shooters = [r.options[0].model for r in script.asked if isinstance(r.options[0], ShootAt)]
    assert shooters == ["wyatt", "sam", "joe"]
    state = state_of(session)
    assert state.figure("wyatt").fame == 2
    assert "old_west.game.quickdraw" in event_ids(session)


def test_OW_HERO_10_time_for_whuppin_fights_first_and_the_winner_moves_again() -> None:
    """Wyatt (2 Attacks, Fame) starts in contact with Joe and calls Time for Whuppin':
    his dice 6,5 beat Joe's 2, his first strike (5) takes Joe out and his second is not
    rolled (the target is out); with no opponent left he may move again."""
    inch = "base_mm = 25.4"
    scenario = battle(
        unit("wyatt", "law", "marshal", 10, 12, inch),
        unit("joe", "gang", "outlaw", 11, 12, inch),
        unit("pete", "gang", "outlaw", 22, 22),
        options="heroic_actions = true",
    )
    script = Script(heroics={"wyatt:whuppin"})
    session = play(scenario, [6, 1, 6, 5, 2, 5], script)
    ids = event_ids(session)
    assert "old_west.combat.overkill" in ids
    assert ids.index("old_west.game.whuppin") < ids.index("old_west.game.fight")
    assert ids.index("old_west.game.out_of_action") < ids.index("old_west.game.move_again")
    state = state_of(session)
    assert state.figure("wyatt").fame == 2
    moves = [r.options[0].model for r in script.asked if isinstance(r.options[0], MoveTo)]
    # Pete moves in the Movement phase; Wyatt, in a fight then, only after his Whuppin'
    assert moves == ["pete", "wyatt"]


def test_OW_HERO_11_a_model_near_two_yee_haw_heroes_moves_only_once() -> None:
    """Wyatt and Doc both shout Yee Haw! (1 Fame each); Sam stands within 6" of both, so
    both could take him along, but he moves once in the phase (OW-HERO-11)."""
    scenario = battle(
        unit("wyatt", "law", "marshal", 4, 4),
        unit("sam", "law", "deputy", 9, 4),
        unit("doc", "law", "gunfighter", 14, 4),
        unit("joe", "gang", "outlaw", 20, 20),
        options="heroic_actions = true",
    )
    script = Script(heroics={"wyatt:yee_haw", "doc:yee_haw"})
    session = play(scenario, [6, 1], script)
    moves = [r.options[0].model for r in script.asked if isinstance(r.options[0], MoveTo)]
    assert sorted(moves) == ["doc", "joe", "sam", "wyatt"]
    state = state_of(session)
    assert state.figure("wyatt").fame == 2 and state.figure("doc").fame == 1
    assert event_ids(session).count("old_west.game.yee_haw") == 2


def test_OW_HERO_10_a_paid_time_for_whuppin_is_never_dropped_silently() -> None:
    """Wyatt and Ike, in contact, both call Time for Whuppin' (1 Fame each); the d6 2 lets
    the law (advantage) act first: Wyatt's 6 beats Ike's 2, both strikes (1, 1) fail. Ike's
    own Whuppin' has no fight left to fight first: the log says so, with the rule."""
    inch = "base_mm = 25.4"
    scenario = battle(
        unit("wyatt", "law", "marshal", 10, 12, inch),
        unit("ike", "gang", "outlaw_boss", 11, 12, inch),
        options="heroic_actions = true",
    )
    script = Script(heroics={"wyatt:whuppin", "ike:whuppin"})
    session = play(scenario, [6, 1, 2, 6, 5, 2, 1, 1, 1], script)
    lost = [
        e
        for e in session.log
        if isinstance(e, EventEntry) and e.event.id == "old_west.game.heroic_lost"
    ]
    assert len(lost) == 1
    assert lost[0].event.kwargs["why"].id == "old_west.permission.fought_already"
    assert "OW-HERO-10" in lost[0].rules
    state = state_of(session)
    assert state.figure("ike").fame == 1  # paid for, and the log says why it did nothing
    assert event_ids(session).count("old_west.game.fight") == 1
