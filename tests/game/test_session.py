"""Playing games: reproducible bots, typed dice, human decisions, undo."""

from __future__ import annotations

import json
from collections.abc import Hashable
from typing import Any

import pytest

from kubik.core.errors import DiceAnswerError, KubikError
from kubik.engine import ChoiceAnswer, ChoiceOrigin, Choose, DiceOrigin, Roll, RollAnswer
from kubik.engine.log import ChoiceEntry, EventEntry, RollEntry
from kubik.game import (
    HUMAN,
    CounterDice,
    DiceMode,
    GameInputError,
    GameResult,
    GameSession,
    Scenario,
    play_game,
)


def alternating_bot(request: Choose) -> Hashable:
    """Volley on odd turns, aim on even ones."""
    return "volley" if request.reason.kwargs["turn"] % 2 else "aim"


def snapshot(session: GameSession) -> tuple[str, str]:
    """The record and the JSON log, as text (what must match byte for byte)."""
    return session.record.dumps(), json.dumps(session.to_json(), ensure_ascii=False)


def finished(scenario: Scenario, seed: int, **kwargs: Any) -> GameSession:
    session = play_game(scenario, seed, **kwargs)
    assert session.finished
    return session


def test_a_bot_game_is_reproducible_byte_for_byte(duel: Scenario) -> None:
    bots = {"steel": alternating_bot, "lianra": "bot"}
    first = finished(duel, 11, controllers=bots)
    second = finished(duel, 11, controllers=bots)
    assert snapshot(first) == snapshot(second)
    assert isinstance(first.result, GameResult)
    assert first.result.turns >= 1
    # another seed plays another game
    others = {snapshot(finished(duel, seed, controllers=bots))[0] for seed in range(5)}
    assert len(others) > 1


def test_the_play_json_summary_has_the_contract_fields(duel: Scenario) -> None:
    session = finished(duel, 3)
    data = session.to_json()
    assert {"scenario", "seed", "winner", "turns", "log"} <= data.keys()
    assert data["scenario"] == "toy_duel.demo"
    assert data["seed"] == 3
    assert session.result is not None
    assert (data["winner"], data["turns"]) == (session.result.winner, session.result.turns)
    assert data["log"][0]["id"] == "game.started"
    assert data["log"][-1]["id"] in {"game.ended.winner", "game.ended.draw"}
    kinds = {e["type"] for e in data["log"]}
    assert kinds == {"event", "roll", "choice"}
    json.dumps(data)  # JSON-ready


def test_the_log_nests_sub_procedures_by_depth(duel: Scenario) -> None:
    session = finished(duel, 2, controllers={"steel": "bot", "lianra": lambda r: "volley"})
    turn = next(e for e in session.log if isinstance(e, ChoiceEntry))
    roll = next(e for e in session.log if isinstance(e, RollEntry))
    assert (turn.depth, roll.depth) == (1, 2)
    # the volley (two repeated shots) rolls twice per decision of lianra
    lianra_turns = [
        i for i, e in enumerate(session.log) if isinstance(e, ChoiceEntry) and e.side == "lianra"
    ]
    first = lianra_turns[0]
    assert all(isinstance(e, RollEntry) for e in session.log[first + 1 : first + 3])


def test_virtual_dice_are_counter_based(duel: Scenario) -> None:
    session = finished(duel, 9)
    dice = CounterDice(9)
    rolls = [e for e in session.log if isinstance(e, RollEntry)]
    for k, entry in enumerate(rolls):
        assert entry.values == dice.values_for(k, Roll(entry.dice, "again"))
        assert entry.origin is DiceOrigin.VIRTUAL


def test_undo_then_the_same_answers_gives_the_identical_game(duel: Scenario) -> None:
    bots = {"steel": alternating_bot, "lianra": alternating_bot}
    reference = finished(duel, 21, controllers=bots)
    session = finished(duel, 21, controllers=bots)
    answers = list(session.answers)
    last_roll = max(i for i, a in enumerate(answers) if isinstance(a, RollAnswer))
    dropped = session.undo()
    assert dropped == len(answers) - last_roll
    assert session.answers == answers[:last_roll]
    assert not session.finished
    assert isinstance(session.pending, Roll)
    session.undo()
    session.undo()
    session.advance()
    assert snapshot(session) == snapshot(reference)


def test_undo_drops_the_last_roll_and_everything_after_it(duel: Scenario) -> None:
    session = GameSession(duel, 4, controllers={"steel": HUMAN, "lianra": HUMAN})
    session.advance()
    session.answer("aim")  # steel aims, the shot is rolled, then lianra must decide
    assert isinstance(session.pending, Choose) and session.pending.side == "lianra"
    assert [type(a) for a in session.answers] == [ChoiceAnswer, RollAnswer]
    assert session.undo() == 1
    assert [type(a) for a in session.answers] == [ChoiceAnswer]
    assert isinstance(session.pending, Roll)
    with pytest.raises(GameInputError, match="no decision is pending"):
        session.answer("aim")
    session.advance()  # the same virtual die again
    assert isinstance(session.pending, Choose) and session.pending.side == "lianra"
    assert session.undo() == 1
    assert session.undo() == 1  # no roll left: back to the start
    with pytest.raises(GameInputError, match="nothing to undo"):
        session.undo()


def test_human_decisions_wait_on_pending_and_answer(duel: Scenario) -> None:
    session = GameSession(duel, 5, controllers={"steel": HUMAN})
    pending = session.advance()
    assert isinstance(pending, Choose)
    assert pending.side == "steel" and pending.options == ("aim", "volley")
    assert session.waiting_for_person
    with pytest.raises(GameInputError) as error:
        session.answer("charge")
    assert 'options: "aim", "volley"' in str(error.value)
    assert "\n" not in str(error.value)
    assert session.answers == []
    while not session.finished:
        session.answer("volley")
    origins = {a.origin for a in session.answers if isinstance(a, ChoiceAnswer)}
    assert origins == {ChoiceOrigin.HUMAN, ChoiceOrigin.DEFAULT}
    human = [
        e for e in session.log if isinstance(e, ChoiceEntry) and e.origin is ChoiceOrigin.HUMAN
    ]
    assert human and all(e.side == "steel" and e.answer == "volley" for e in human)


def test_the_scenario_controller_makes_a_side_human(duel: Scenario) -> None:
    text = duel.text.replace('name_ru = "Лианра"', 'name_ru = "Лианра"\ncontroller = "human"')
    from kubik.game import parse_scenario

    scenario = parse_scenario(text, "duel.toml")
    session = GameSession(scenario, 1)
    pending = session.advance()
    assert isinstance(pending, Choose) and pending.side == "lianra"
    assert dict(session.record.controllers) == {"steel": "bot", "lianra": "human"}


def test_typed_dice_stop_at_each_roll_and_are_marked_typed(duel: Scenario) -> None:
    session = GameSession(duel, 1, dice=DiceMode.TYPED)
    pending = session.advance()
    assert isinstance(pending, Roll)
    session.roll([6])
    session.roll(["3"])
    rolls = [e for e in session.log if isinstance(e, RollEntry)]
    assert [e.values for e in rolls] == [(6,), (3,)]
    assert all(e.origin is DiceOrigin.TYPED for e in rolls)
    assert session.record.to_json()["answers"][1] == {"roll": [6], "origin": "typed"}
    assert "at the table" in session.narrate()[3]


def test_a_bad_typed_die_is_a_clear_error_and_loses_nothing(duel: Scenario) -> None:
    session = GameSession(duel, 1, dice="typed")
    session.advance()
    session.roll([5])
    kept = list(session.answers)
    pending = session.pending
    for bad, words in (([7], "a d6 cannot show 7"), (["x"], "'x' is not a number")):
        with pytest.raises(DiceAnswerError) as error:
            session.roll(bad)
        assert words in str(error.value) and "die 1" in str(error.value)
        assert "\n" not in str(error.value)
        assert session.answers == kept and session.pending is pending
    with pytest.raises(DiceAnswerError, match="too many dice"):
        session.roll([2, 3])
    with pytest.raises(DiceAnswerError, match="too few dice"):
        session.roll([])
    assert session.answers == kept
    with pytest.raises(GameInputError, match="no decision is pending"):
        session.answer("aim")
    session.roll([2])
    assert len(session.answers) == len(kept) + 2  # the roll, and the next bot decision


def test_a_mistyped_die_is_corrected_with_undo(duel: Scenario) -> None:
    typed = GameSession(duel, 1, dice="typed")
    typed.advance()
    typed.roll([1])
    typed.undo()
    typed.roll([6])
    fresh = GameSession(duel, 1, dice="typed")
    fresh.advance()
    fresh.roll([6])
    assert snapshot(typed) == snapshot(fresh)


def test_a_typed_game_played_with_the_virtual_values_is_the_same_game(duel: Scenario) -> None:
    virtual = finished(duel, 13)
    typed = GameSession(duel, 13, dice="typed")
    typed.advance()
    for answer in virtual.answers:
        if isinstance(answer, RollAnswer):
            typed.roll(answer.values)
    assert typed.finished and typed.result == virtual.result


def test_bad_controllers_are_errors(duel: Scenario) -> None:
    with pytest.raises(GameInputError, match="no side 'keno'; sides: steel, lianra"):
        GameSession(duel, 1, controllers={"keno": HUMAN})
    with pytest.raises(GameInputError, match=r"controllers\.steel"):
        GameSession(duel, 1, controllers={"steel": "robot"})  # type: ignore[dict-item]
    assert issubclass(GameInputError, KubikError)


def test_the_result_summarises_each_side(duel: Scenario) -> None:
    session = finished(duel, 8)
    result = session.result
    assert result is not None
    steel, lianra = result.side("steel"), result.side("lianra")
    assert steel.count("hp_left") + lianra.count("hp_left") < 9
    if result.winner is None:
        assert steel.count("hp_left") == lianra.count("hp_left")
    else:
        loser = lianra if result.winner == "steel" else steel
        winner = steel if result.winner == "steel" else lianra
        assert winner.count("hp_left") > loser.count("hp_left")


def test_a_side_wiped_out_ends_the_game_before_the_turn_limit(duel: Scenario) -> None:
    from kubik.game import parse_scenario

    text = duel.text.replace("hit_on = 4", "hit_on = 2").replace("hp = 4", "hp = 1")
    scenario = parse_scenario(text, "duel.toml")
    for seed in range(40):
        session = finished(scenario, seed)
        assert session.result is not None
        if session.result.turns < 6:
            break
    else:
        raise AssertionError("no seed ended the game early")
    end = session.log[-1]
    assert isinstance(end, EventEntry) and end.event.id == "game.ended.winner"
    assert session.result.winner == "steel"
    assert session.result.side("lianra").count("units_left") == 0
    assert session.narrate()[-1].startswith("The game is over after ")
    assert "Steel wins" in session.narrate()[-1]
    assert "побеждает Сталь" in session.narrate("ru")[-1]


def test_a_sealed_answer_is_shown_to_nobody_until_the_sealed_decisions_are_all_made(
    duel: Scenario,
) -> None:
    """Each side writes its stance in secret: the first answer stays out of the log (what
    people are shown) while the other side decides, then both join it where they were
    made, before the reveal."""
    session = GameSession(
        duel, 5, controllers={"steel": HUMAN, "lianra": HUMAN}, options={"sealed": True}
    )
    first = session.advance()
    assert isinstance(first, Choose) and first.sealed and first.side == "steel"
    before = len(session.log)
    session.answer("volley")
    second = session.pending
    assert isinstance(second, Choose) and second.sealed and second.side == "lianra"
    assert len(session.log) == before  # steel's stance: written, not shown
    assert "volley" not in json.dumps(session.to_json())
    session.answer("aim")
    kinds = [
        (e.side, e.answer) if isinstance(e, ChoiceEntry) else e.event.id
        for e in session.log[before:]
        if isinstance(e, ChoiceEntry | EventEntry)
    ]
    assert kinds[:3] == [("steel", "volley"), ("lianra", "aim"), "toy.revealed"]
    replay = GameSession(
        duel,
        5,
        controllers={"steel": HUMAN, "lianra": HUMAN},
        options={"sealed": True},
        answers=session.answers,
    )
    assert replay.to_json() == session.to_json()
