"""The chance view: rolls as exact chance nodes from the odds driver, the same game as
kubik plays, OpenSpiel's questions, and clones."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from scipy.stats import chisquare

from kubik.agents import chance_game
from kubik.agents.chance import CHANCE_PLAYER, TERMINAL_PLAYER, ChanceState, chance_branches
from kubik.agents.learning import cut_down
from kubik.bots import RandomBot
from kubik.engine import Choose, Roll, roll_branches
from kubik.game import CounterDice, GameInputError, GameSession, load_scenario


def _small() -> ChanceState:
    """A small battle: two gunmen a side from Showdown on Main Street, four turns."""
    return chance_game(cut_down("old_west.demo", 2, turn_limit=4)).new_initial_state()


def test_every_chance_node_sums_to_one_and_matches_sampling() -> None:
    """Along a whole game of a small scenario every roll's outcomes sum to exactly 1;
    the answers of real dice (drawn 3000 times) fit the exact probabilities."""
    state = _small()
    rng = random.Random(11)
    nodes = tested = 0
    while not state.is_terminal():
        if not state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        outcomes = state.exact_chance_outcomes()
        assert sum(p for _, p in outcomes) == Fraction(1)
        assert all(p > 0 for _, p in outcomes)
        nodes += 1
        request = state.request
        assert isinstance(request, Roll)
        if len(outcomes) >= 3 and tested < 6:
            answers = [state.outcome(action) for action, _ in outcomes]
            seen = dict.fromkeys(range(len(answers)), 0)
            draws = 3000
            for _ in range(draws):
                values = tuple(rng.randint(1, die.faces) for die in request.dice)
                seen[answers.index(request.answer(values))] += 1
            expected = [float(p) * draws for _, p in outcomes]
            assert chisquare(list(seen.values()), expected).pvalue > 1e-3, request.reason
            tested += 1
        state.apply_action(state.sample_chance(rng))
    assert nodes > 10 and tested == 6


def test_reduced_rolls_branch_over_their_outcomes_not_their_faces() -> None:
    state = chance_game("fantasy.demo").new_initial_state()
    rng = random.Random(3)
    widest = 0
    while not state.is_terminal() and widest == 0:
        request = state.request
        if isinstance(request, Roll) and request.reduce is not None and len(request.dice) >= 5:
            faces = math.prod(die.faces for die in request.dice)
            outcomes = len(state.exact_chance_outcomes())
            assert outcomes < faces / 100
            widest = outcomes
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert widest > 0, "no roll of five dice or more with a reducer in this game"


@pytest.mark.parametrize("scenario", ["old_west.feud", "steel_war.keno"])
def test_the_chance_view_is_the_game_kubik_plays(scenario: str) -> None:
    """Given the dice the game rolled and the decisions its bots took, the chance view
    walks the same game to the same end (a rule's own chooser takes its default)."""
    loaded = load_scenario(scenario)
    played = GameSession(
        loaded, 7, controllers={side: RandomBot(7, side) for side in loaded.side_ids}
    )
    played.advance()
    state = chance_game(loaded).new_initial_state()
    dice = CounterDice(7)
    bots = {side: RandomBot(7, side) for side in loaded.side_ids}
    rolls = 0
    while not state.is_terminal():
        request = state.request
        if isinstance(request, Roll):
            answer = request.answer(dice.values_for(rolls, request))
            rolls += 1
            answers = [state.outcome(action) for action, _ in state.exact_chance_outcomes()]
            state.apply_action(answers.index(answer))
        else:
            assert isinstance(request, Choose)
            assert state.current_player() == loaded.side_ids.index(request.side)
            state.apply_action(request.options.index(bots[request.side](request)))
    assert state.current_player() == TERMINAL_PLAYER
    assert state.result == played.result
    assert state.battle.view(None) == played.state.view(None)  # type: ignore[attr-defined]
    winner = played.result.winner if played.result else None
    assert state.returns() == [
        0.0 if winner is None else (1.0 if side == winner else -1.0) for side in loaded.side_ids
    ]


def test_openspiel_questions_at_each_kind_of_node() -> None:
    state = chance_game("old_west.demo").new_initial_state()
    assert state.current_player() == CHANCE_PLAYER
    assert state.legal_actions() == [a for a, _ in state.chance_outcomes()]
    assert state.legal_actions(0) == []
    assert not any(state.legal_actions_mask())
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    player = state.current_player()
    request = state.request
    assert isinstance(request, Choose) and player >= 0
    assert state.legal_actions() == list(range(len(request.options)))
    assert state.legal_actions(1 - player) == []
    assert sum(state.legal_actions_mask()) == len(request.options)
    observation = state.observation(player)
    assert observation["action_mask"].sum() == len(request.options)
    assert state.observation_tensor(player).ndim == 1
    with pytest.raises(GameInputError, match="not a chance node"):
        state.chance_outcomes()
    with pytest.raises(GameInputError, match="has options 0-"):
        state.apply_action(len(request.options))
    assert "decides" in str(state)


def test_a_clone_is_cheap_and_independent() -> None:
    state = _small()
    rng = random.Random(5)
    for _ in range(25):
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    twin = state.clone()
    assert twin.history() == state.history()
    assert twin._live is None  # nothing replayed yet
    assert twin.current_player() == state.current_player()
    assert str(twin) == str(state)
    action = twin.legal_actions()[0]
    child = twin.child(action)
    assert child.history() == [*state.history(), action]
    assert twin.history() == state.history()
    rebuilt = state.game.state_from_history(child.history())
    assert str(rebuilt) == str(child)


def test_branches_are_the_odds_drivers_and_kept() -> None:
    state = chance_game("old_west.demo").new_initial_state()
    request = state.request
    assert isinstance(request, Roll)
    assert chance_branches(request) == roll_branches(request)
    assert chance_branches(request) is chance_branches(request)
