"""Turns, activations and fire in a whole (small) battle, with typed-in dice and human sides.

The duel: four «Стальные» regulars (d8, leadership 2, assault rifles) and four Lianrian
regulars, both in a row of four, 12 inches apart centre to centre (11 inches edge to
edge): zone 2 for a d8 shooter (SW-FIRE-06), so the target's range die is d6.
"""

from __future__ import annotations

from kubik.engine import Choose, Roll
from kubik.engine.dice import Die
from kubik.engine.log import ChoiceEntry, EventEntry, RollEntry
from kubik.game import GameSession
from kubik.rulesets.steel_war.battle.options import (
    Act,
    Activate,
    Fire,
    Kind,
    Move,
    MoveKind,
    Observe,
)
from kubik.rulesets.steel_war.battle.state import Status
from kubik.rulesets.steel_war.fire import Cover
from kubik.rulesets.steel_war.morale_levels import MoraleLevel

from .builders import human_session, new_game, pick, roll, scenario, state, unit

WOOD = """
[[terrain]]
id = "wood"
kind = "difficult"
cover = "light"
blocks_los = true
points = [[0, 14], [24, 14], [24, 20], [0, 20]]
"""


def duel(**kwargs: object):  # type: ignore[no-untyped-def]
    return scenario(
        [unit("s", "steel", (6, 4)), unit("l", "lianra", (6, 16))],
        **kwargs,
    )


def events(session: GameSession, message_id: str) -> list[EventEntry]:
    return [e for e in session.log if isinstance(e, EventEntry) and e.event.id == message_id]


def test_SW_ABSENT_01_roll_off_then_alternating_activations() -> None:
    """A d6 each (ties re-rolled); the winner activates first, then the sides alternate."""
    session = human_session(
        scenario(
            [
                unit("s1", "steel", (4, 3)),
                unit("s2", "steel", (16, 3)),
                unit("l1", "lianra", (4, 21)),
                unit("l2", "lianra", (16, 21)),
            ]
        )
    )
    roll(session, 3)  # steel
    roll(session, 3)  # lianra: a tie, both roll again
    roll(session, 2)
    roll(session, 5)  # lianra first
    assert [e.event.id for e in session.log if isinstance(e, EventEntry)][-2:] == [
        "steel_war.game.roll_off_tie",
        "steel_war.game.first",
    ]
    picks = []
    for _ in range(4):
        request = session.pending
        assert isinstance(request, Choose)
        if request.reason.id == "steel_war.game.choose_squad":
            assert all(isinstance(o, Activate) for o in request.options)
            picks.append(request.side)
            session.answer(request.options[0])
        pick(session, lambda o: o == Act(Kind.END))
    assert picks == ["lianra", "steel"]  # each side's last squad needs no choice
    activated = [
        e.event.kwargs["squad"].kwargs["en"] for e in events(session, "steel_war.game.activation")
    ]
    assert activated == ["l1", "s1", "l2", "s2"]
    assert session.finished


def test_SW_CORE_04_two_actions_per_activation() -> None:
    """The activation asks for an action twice, then the other side activates."""
    session = human_session(duel())
    roll(session, 6)
    roll(session, 1)
    first = session.pending
    assert isinstance(first, Choose) and first.side == "steel"
    assert first.reason.kwargs["n"] == 1
    pick(session, lambda o: isinstance(o, Move) and o.kind is MoveKind.ADVANCE)
    second = session.pending
    assert isinstance(second, Choose) and second.side == "steel" and second.reason.kwargs["n"] == 2
    pick(session, lambda o: isinstance(o, Move) and o.kind is MoveKind.RETREAT)
    third = session.pending
    assert isinstance(third, Choose) and third.side == "lianra" and third.reason.kwargs["n"] == 1


def test_SW_FIRE_06_SW_FIRE_09_distance_and_cover_measured_on_the_table() -> None:
    """The fire option carries the measured edge distance and the target's cover; the range
    die is the zone's die plus the cover's steps."""
    game = new_game(duel())
    steel, lianra = game.squads
    sight = game.sight(steel, lianra)
    assert (sight.distance, sight.visible, sight.cover) == (11.0, True, Cover.NONE)
    in_wood = new_game(duel(terrain=WOOD))
    steel, lianra = in_wood.squads
    sight = in_wood.sight(steel, lianra)
    assert sight.cover is Cover.LIGHT and all(sight.in_cover)
    session = human_session(duel(terrain=WOOD))
    roll(session, 6)
    roll(session, 1)
    # the target hides in the wood: it must be spotted first (SW-ABSENT-03 default)
    assert not any(isinstance(o, Fire) for o in session.pending.options)  # type: ignore[union-attr]
    pick(session, lambda o: isinstance(o, Observe))
    roll(session, 8)  # the observer's quality die ...
    roll(session, 1)  # ... beats the hiding squad's range die (d8): spotted
    pick(session, lambda o: isinstance(o, Fire))
    fire = events(session, "steel_war.game.fire")[0].event.kwargs
    assert fire["distance"] == 11.0 and fire["cover"] is Cover.LIGHT
    assert fire["dice"] == (Die(8), Die(8))  # quality d8 + four assault rifles (rate 2 each = 8)
    assert fire["range_die"] == Die(8)  # zone 2 → d6, light cover +1 step → d8


def test_full_scripted_duel_reaches_its_expected_final_state() -> None:
    """SW-FIRE-01, SW-DMG-01/02/03, SW-DMG-06, SW-MOR-05..07, SW-SUP-01, SW-MOR-01:
    one volley with every die typed in, then the broken target's restricted options."""
    session = human_session(duel())
    roll(session, 6)  # steel's roll-off
    roll(session, 1)  # lianra's: steel first
    pick(session, lambda o: isinstance(o, Fire) and o.target == "l")
    roll(session, 8, 7)  # pool d8 (quality), d8 (rate): both beat ...
    roll(session, 2)  # ... the d6 range die: hits; (8 + 8) / 6 = 2.67 → 3 potential casualties
    # every hit lands on a model first (SW-DMG-02), then each model's armour test (SW-DMG-03)
    roll(session, 1)  # d4 over 4 exposed models: the 1st (the commander)
    roll(session, 3)  # d3 over the 3 left: the 3rd of them (model 4)
    roll(session, 1)  # d4 over the 2 left: model 2
    roll(session, 8, 1)  # the commander: power 8 ≥ 3 × armour 1: killed
    roll(session, 3, 2)  # model 4: 3 > 2: wounded
    roll(session, 1, 4)  # model 2: unharmed
    roll(session, 6)  # new commander's d6: 6 → leadership 2 - 1 = 1
    # threat (medium): max(first suppressed 1, casualties 2, commander lost 3) = 3 → beat 1 + 3
    roll(session, 2)  # 2 ≤ 4 / 2: two levels, Ст → Ра
    lianra = state(session).squad("l")
    assert [m.status for m in lianra.models] == [
        Status.KILLED,
        Status.ACTIVE,
        Status.ACTIVE,
        Status.UNVERIFIED,
    ]
    assert (lianra.markers, lianra.leadership, lianra.commander) == (1, 1, "l.2")
    assert lianra.level is MoraleLevel.BROKEN
    # steel's second action: nothing left to fire with (each weapon fires once, SW-FIRE-05)
    request = session.pending
    assert isinstance(request, Choose) and request.side == "steel"
    assert not any(isinstance(o, Fire) for o in request.options)
    session.answer(Act(Kind.END))
    # the Broken, suppressed target may only move away; no fire, no unsuppress (SW-MOR-01)
    request = session.pending
    assert isinstance(request, Choose) and request.side == "lianra"
    kinds = {type(o).__name__ for o in request.options}
    assert "Fire" not in kinds and Act(Kind.UNSUPPRESS) not in request.options
    moves = [o for o in request.options if isinstance(o, Move)]
    assert moves and all(o.kind is MoveKind.RETREAT for o in moves)
    session.answer(Act(Kind.END))
    assert session.finished and session.result is not None
    assert session.result.winner == "steel"  # 4 men fighting against 2 at the turn limit
    assert session.result.side("lianra").count("killed") == 1
    assert session.result.side("lianra").count("unverified") == 1
    assert session.result.side("steel").count("models_left") == 4
    rolls = [e for e in session.log if isinstance(e, RollEntry)]
    assert all(r.origin.value == "typed" for r in rolls)
    assert not any(isinstance(e, ChoiceEntry) and e.origin.value != "human" for e in session.log)
    text = "\n".join(session.narrate("ru"))
    assert "steel_war.game" not in text and "Ра" in text


def test_SW_PANIC_02_recruits_test_panic_the_first_time_they_are_shot_at() -> None:
    """Recruits (d6) shot at for the first time take a reaction test at threat 0;
    failing, they panic and lose a level (SW-PANIC-01)."""
    sc = scenario([unit("s", "steel", (6, 4)), unit("l", "lianra", (6, 16), quality="recruits")])
    session = human_session(sc)
    roll(session, 6)
    roll(session, 1)
    pick(session, lambda o: isinstance(o, Fire))
    roll(session, 1, 1)  # pool misses
    roll(session, 5)  # range die: no effect
    roll(session, 2)  # panic test on d6: 2 ≤ leadership 2 → panicked, Ст → По
    lianra = state(session).squad("l")
    assert lianra.panicked and lianra.level is MoraleLevel.SHAKEN and lianra.markers == 0
    session.answer(Act(Kind.END))
    # its activation is the attempt to end the panic (the whole activation), no decision
    request = session.pending
    assert isinstance(request, Roll) and request.reason.id == "steel_war.panic_test.roll"
    roll(session, 3)  # 3 > 2: the panic is over for the battle
    assert not lianra.panicked and lianra.panic_over
    assert session.finished
