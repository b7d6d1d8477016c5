"""The last faults a referee found in Old West battles (issue 30), each played as it arose:
a move past its allowance, a model standing on a fence or in a trough, a trapped loser
left in contact, Fortune spent with no decision, a Yee Haw! follower left beyond 6", and
kills nobody was credited with."""

from __future__ import annotations

import math
from collections.abc import Hashable
from fractions import Fraction

from kubik.engine import Choose
from kubik.engine.forecast import expected_value
from kubik.engine.log import ChoiceEntry
from kubik.engine.odds import OddsCache
from kubik.game.battle import touching
from kubik.rulesets.old_west.battle.moves import options
from kubik.rulesets.old_west.battle.options import MoveKind, MoveTo

from .helpers import FENCE, Script, battle, events, game_of, play, state_of, unit

INCH = "base_mm = 25.4"
#: A trough (an obstacle models cross, never stand in) that also gives cover.
TROUGH = """
[[terrain]]
id = "trough"
name = "the water trough"
obstacle = true
cover = "light"
points = [[12, 10], [13, 10], [13, 14], [12, 14]]
"""
#: A corridor between two walls, shut at its west end.
CORRIDOR = """
[[terrain]]
id = "north"
name = "the north wall"
kind = "impassable"
points = [[6, 12.6], [16, 12.6], [16, 15], [6, 15]]

[[terrain]]
id = "south"
name = "the south wall"
kind = "impassable"
points = [[6, 9], [16, 9], [16, 11.4], [6, 11.4]]

[[terrain]]
id = "end"
name = "the end wall"
kind = "impassable"
points = [[4, 9], [8, 9], [8, 15], [4, 15]]
"""


def test_OW_ABSENT_02_every_move_offered_ends_inside_its_allowance() -> None:
    """Seed 002 default (OW-ABSENT-02): Move 6". Sam advances at a slant on Joe: the place
    offered lies on the 0.1" grid and never farther than 6" — it was 6.04" away, narrated
    as a 6.0" move."""
    game = game_of(
        battle(unit("sam", "law", "deputy", 4.2, 4.3), unit("joe", "gang", "outlaw", 13.85, 21.9))
    )
    sam = game.figure("sam")
    menu = options(game, sam, 6.0, None).options
    assert any(o.kind is MoveKind.ADVANCE for o in menu)
    for option in menu:
        assert math.dist(option.spot, (4.2, 4.3)) <= 6.0 + 1e-9, option
        assert option.distance <= 6.0 and option.spot == (round(option.x, 1), round(option.y, 1))


def test_OW_ABSENT_02_a_charge_reaches_its_target_inside_the_allowance() -> None:
    """Joe stands 6" and a hair off: no contact place on the grid lies within Sam's 6", so no
    charge is offered (one ended 6.03" from where Sam stood)."""
    game = game_of(
        battle(unit("sam", "law", "deputy", 10, 10), unit("joe", "gang", "outlaw", 16.98, 10.74))
    )
    sam = game.figure("sam")
    for option in options(game, sam, 6.0, None).options:
        assert math.dist(option.spot, (10.0, 10.0)) <= 6.0 + 1e-9, option


def test_OW_ABSENT_02_a_jump_that_ends_the_move_lands_clear_of_the_fence() -> None:
    """Sam advances at a slant across the fence at x = 12.5 and rolls 3 for the jump: he
    makes it and his move ends — beside the fence on the far side, his base clear of it
    (he was set down 0.3" from the fence line, his base over it)."""
    scenario = battle(
        unit("sam", "law", "deputy", 10, 10), unit("joe", "gang", "outlaw", 19, 22), terrain=FENCE
    )
    session = play(scenario, [6, 1, 3], Script(moves={"sam": MoveKind.ADVANCE}))
    (jump,) = events(session, "old_west.game.jump")
    assert jump.event.kwargs["result"].value == "stop"
    state = state_of(session)
    sam = state.figure("sam")
    assert sam.base.x - sam.base.radius >= 12.5 - 0.1  # over it, not on it
    assert not state.board.on_obstacle(sam, sam.base.centre)


def test_OW_ABSENT_02_no_move_is_offered_into_a_trough() -> None:
    """The trough gives cover but nobody stands in it: Sam's advance stops beside it (it
    ended in it, at (13, 12)), and no place offered puts his base over its rim."""
    game = game_of(
        battle(
            unit("sam", "law", "deputy", 7, 12, 'weapons = ["rifle"]'),
            unit("joe", "gang", "outlaw", 20, 12, 'weapons = ["rifle"]'),
            terrain=TROUGH,
        )
    )
    sam = game.figure("sam")
    menu = options(game, sam, 6.0, None).options
    advance = next(o for o in menu if o.kind is MoveKind.ADVANCE)
    assert advance.x + sam.base.radius <= 12.0 + 0.1  # beside the trough's near rim
    for option in menu:
        assert not game.board.on_obstacle(sam, option.spot), option


def test_OW_CC_09_a_trapped_loser_still_ends_out_of_contact_and_passes_through_nobody() -> None:
    """Sam fights Joe in a corridor shut behind him, with Ike (not in the fight) at his
    back: no 1" back, so he is trapped (two strikes for Joe's one Attack); he still ends out
    of contact — as far back as there is room, never through Joe (he was put on Joe's far
    side) nor through Ike."""
    scenario = battle(
        unit("sam", "law", "deputy", 10, 12, INCH),
        unit("joe", "gang", "outlaw", 11, 12, INCH),
        unit("ike", "gang", "outlaw", 8.6, 12, INCH),
        terrain=CORRIDOR,
    )
    session = play(scenario, [6, 1, 1, 6, 1, 1])
    assert events(session, "old_west.combat.trapped")
    (out,) = events(session, "old_west.game.squeezes_out")
    assert out.rules == ("OW-CC-09",)
    state = state_of(session)
    sam, joe, ike = (state.figure(m) for m in ("sam", "joe", "ike"))
    assert ike.base.x < sam.base.x < joe.base.x  # between them, where he was
    assert not state.board.touching(sam, joe) and not state.board.touching(sam, ike)
    assert not state.contacts.pairs()


def test_OW_CC_09_enemies_not_in_a_fight_shuffle_aside_for_a_trapped_loser() -> None:
    """Seed: «если необходимо другие фигурки должны чуть-чуть сдвинуться так, чтобы дать ему
    дорогу» — any model not in a fight, an enemy too, makes way (the rule:
    backing_off.may_make_way); a model in a fight does not."""
    from kubik.rulesets.old_west.battle.backing import make_way

    # Sam fights Joe against the table's west edge; Ike and Pete, idle enemies, stand at
    # his sides, so every place out of contact touches one of them
    game = game_of(
        battle(
            unit("sam", "law", "deputy", 0.5, 12, INCH),
            unit("joe", "gang", "outlaw", 1.5, 12, INCH),
            unit("ike", "gang", "outlaw", 0.5, 13.2, INCH),
            unit("pete", "gang", "outlaw", 0.5, 10.8, INCH),
            unit("al", "gang", "outlaw", 1.7, 13.4, INCH),
            unit("bo", "gang", "outlaw", 1.7, 10.6, INCH),
        )
    )
    sam, joe = game.figure("sam"), game.figure("joe")
    assert game.contacts.engaged("sam", "joe")
    made = make_way(game, sam, [joe])
    assert made is not None and made.shuffles
    for moved, _ in made.shuffles:
        assert moved.side == "gang" and not game.board.is_engaged(moved)
    assert not touching(sam.base.moved_to(made.spot), joe.base)


def _fortune_duel(answers: list[bool]) -> tuple[object, list[Choose]]:
    """Sam shoots Ike (2 Fortune): fear test 6+6, hit 4, wound 5; then Fortune as told."""
    scenario = battle(
        unit("sam", "law", "deputy", 2, 12, 'weapons = ["rifle"]'),
        unit("ike", "gang", "outlaw_boss", 16, 12, 'weapons = ["pistol"]'),
    )
    script = Script(shots={"sam": "ike"}, fortune=list(answers))
    asked: list[Choose] = []

    def decide(request: Choose) -> Hashable:
        if isinstance(request.options[0], bool):
            asked.append(request)
        return script(request)

    dice = [6, 1, 6, 6, 4, 5] + ([4] if answers and answers[0] else []) + [6, 6]
    return play(scenario, dice, decide), asked


def test_OW_HERO_01_fortune_is_spent_only_when_its_owner_decides_with_the_odds_shown() -> None:
    """Seed: «Игрок может сам решить, в какой именно момент использовать то или иное очко
    Славы или Удачи» — before a Fortune die is rolled its owner is asked, with the odds of
    the roll (4+ on a d6: a half); declining keeps the point and takes the wound."""
    session, asked = _fortune_duel([False])
    (question,) = asked
    assert question.side == "gang" and question.default is True
    assert question.rules == ("OW-ABSENT-07", "OW-HERO-01")
    assert question.forecasts and question.forecasts[0] is not None
    assert expected_value(question.forecasts[0], OddsCache()) == Fraction(1, 2)
    ike = state_of(session).figure("ike")
    assert (ike.fortune, ike.wounds_taken) == (2, 1)
    assert not events(session, "old_west.fortune.saved")
    spent, _ = _fortune_duel([True])
    ike = state_of(spent).figure("ike")  # type: ignore[arg-type]
    assert (ike.fortune, ike.wounds_taken) == (1, 0)
    decisions = [e for e in spent.log if isinstance(e, ChoiceEntry) and e.answer is True]  # type: ignore[attr-defined]
    assert decisions and decisions[0].reason.id == "old_west.fortune.ask"


def _yee_haw(wyatt_move: MoveKind, doc_answer: MoveKind) -> object:
    """Wyatt (Fame 3) shouts Yee Haw! with Doc 4" behind him; Wyatt moves as told and Doc
    answers as told."""
    scenario = battle(
        unit("wyatt", "law", "marshal", 8, 12),
        unit("doc", "law", "gunfighter", 3, 12),
        unit("ike", "gang", "outlaw", 30, 12),
        options="heroic_actions = true",
        width=36,
    )
    script = Script(moves={"wyatt": wyatt_move}, heroics={"wyatt:yee_haw"})

    def decide(request: Choose) -> Hashable:
        first = request.options[0]
        if isinstance(first, MoveTo) and first.model == "doc":
            kinds = [o for o in request.options if isinstance(o, MoveTo)]
            wanted = doc_answer if any(o.kind is MoveKind.WAIT for o in kinds) else MoveKind.STAY
            return next(o for o in kinds if o.kind is wanted)
        return script(request)

    return play(scenario, [6, 1], decide)


def test_OW_HERO_08_a_follower_ends_within_6_inches_of_the_hero_or_moves_in_turn() -> None:
    """Seed: «все дружественные фигурки в пределах 6" от него могут передвигаться вместе с
    ним. При этом они должны закончить своё движение в пределах 6" от Героя». Wyatt runs 6"
    on; Doc, 4" behind, may no longer stay put with him (he would end 9" off): he follows,
    ending within 6", or waits for his turn — a decision, not a silent "holds his ground"."""
    session = _yee_haw(MoveKind.ADVANCE, MoveKind.WAIT)
    asks = [
        e
        for e in session.log  # type: ignore[attr-defined]
        if isinstance(e, ChoiceEntry) and isinstance(e.answer, MoveTo) and e.answer.model == "doc"
    ]
    first = asks[0]
    kinds = {o.kind for o in first.options}
    assert MoveKind.WAIT in kinds and MoveKind.STAY not in kinds  # staying put ends 9" away
    assert first.answer.kind is MoveKind.WAIT
    assert len(asks) == 2  # he waited, and moved in his turn
    assert events(session, "old_west.game.waits")
    followed = _yee_haw(MoveKind.ADVANCE, MoveKind.ADVANCE)
    state = state_of(followed)  # type: ignore[arg-type]
    wyatt, doc = state.figure("wyatt"), state.figure("doc")
    assert state.board.gap(doc, wyatt) <= 6.0


def test_kills_are_credited_to_the_model_that_made_them() -> None:
    """A shot that puts Joe out of action is Sam's kill (kubik sim counts kills per unit)."""
    scenario = battle(
        unit("sam", "law", "deputy", 2, 12, 'weapons = ["rifle"]'),
        unit("joe", "gang", "outlaw", 14, 12),
    )
    session = play(scenario, [6, 1, 6, 6], Script(shots={"sam": "joe"}))
    state = state_of(session)
    assert not state.figure("joe").in_action
    kills = {r.unit: r.kills for r in state.unit_results()}
    assert kills == {"sam": 1, "joe": 0}


def test_a_rider_killed_by_the_fall_when_a_shot_kills_his_horse_is_the_shooters_kill() -> None:
    """Sam's rifle hits (4), the horse-or-rider die 2 hits Joe's horse and 5 kills it; the
    fall die 1 is a Strength 3 hit that wounds (6) and puts Joe out of action: the shot
    did it, so the kill is Sam's (it was credited to nobody)."""
    scenario = battle(
        unit("sam", "law", "deputy", 2, 12, 'weapons = ["rifle"]'),
        unit("joe", "gang", "outlaw", 14, 12, 'mounted = "horse"'),
    )
    session = play(scenario, [6, 1, 4, 2, 5, 1, 6], Script(shots={"sam": "joe"}))
    state = state_of(session)
    assert not state.figure("joe").in_action
    assert events(session, "old_west.game.mount_killed")
    kills = {r.unit: r.kills for r in state.unit_results()}
    assert kills == {"sam": 1, "joe": 0}


def test_OW_CC_09_boxed_in_by_his_winners_and_a_wall_the_loser_still_parts() -> None:
    """Ike loses against Wyatt and Doc with the saloon's wall at his back and no gap wide
    enough between them: he was left in contact, the fight going on. Now his winners —
    whose only fight this was — step back a little (backing_off.may_make_way), and he
    ends touching nobody (a seed-512 battle of old_west.demo)."""
    from kubik.rulesets.old_west.battle.backing import make_way

    wall = """
[[terrain]]
id = "saloon"
name = "the saloon"
kind = "impassable"
points = [[3, 13], [11, 13], [11, 23], [3, 23]]
"""
    game = game_of(
        battle(
            unit("ike", "gang", "outlaw", 11.6, 22.0),
            unit("wyatt", "law", "marshal", 12.3, 21.3),
            unit("doc", "law", "gunfighter", 11.7, 23.0),
            terrain=wall,
        )
    )
    ike, wyatt, doc = (game.figure(m) for m in ("ike", "wyatt", "doc"))
    assert game.contacts.engaged("ike", "wyatt") and game.contacts.engaged("ike", "doc")
    made = make_way(game, ike, [wyatt, doc])
    assert made is not None
    moved = {model.id for model, _ in made.shuffles}
    assert moved & {"wyatt", "doc"}
    end = ike.base.moved_to(made.spot)
    for model, aside in made.shuffles:
        assert not touching(end, model.base.moved_to(aside))
        assert math.dist(aside, model.base.centre) <= 2.0  # a little way
    for other in (wyatt, doc):
        if other.id not in moved:
            assert not touching(end, other.base)
