"""The PettingZoo environment: PettingZoo's own API and seed tests over every built-in
scenario, and that a game in it is the kubik game (same answers, same saves)."""

from __future__ import annotations

import contextlib
import io
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from kubik.agents import ActionSpaceError, IllegalActionError, KubikEnv, env, max_actions_for
from kubik.agents.environment import random_policy
from kubik.bots import RandomBot
from kubik.engine import Answer, RollAnswer
from kubik.game import GameInputError, GameSession, load_scenario
from tests.agents.conftest import EXPECTED_RULESETS, RULESETS, SCENARIOS


def test_the_registry_is_what_we_expect() -> None:
    """A guard: a ruleset that silently stops registering would skip these tests."""
    assert set(RULESETS) >= EXPECTED_RULESETS
    for ruleset in RULESETS:
        assert f"{ruleset}.demo" in SCENARIOS, f"{ruleset} ships no built-in demo scenario"
    assert len(SCENARIOS) >= 2 * len(RULESETS)


def _quietly(check: object, *args: object, **kwargs: object) -> None:
    """Run a PettingZoo check without its prints and its advice (agents are named by
    side, not ``player_0``; the observation is a dict of arrays, as chess's is)."""
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        check(*args, **kwargs)  # type: ignore[operator]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_api_and_seed_tests_pass(scenario: str) -> None:
    """PettingZoo's api_test and seed_test, over the first sixty-odd actions."""
    _quietly(api_test, env(scenario, seed=1), num_cycles=30)
    _quietly(seed_test, lambda: env(scenario, seed=1), num_cycles=15)


@pytest.mark.slow
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_api_and_seed_tests_pass_over_whole_games(scenario: str) -> None:
    """The same checks to the end of a game (PettingZoo's own lengths)."""
    _quietly(api_test, env(scenario, seed=2), num_cycles=1000)
    _quietly(seed_test, lambda: env(scenario, seed=2))


def _play_out(game: KubikEnv, seed: int) -> list[int]:
    """Play the environment to its end with random legal actions; the actions taken."""
    act = random_policy(seed)
    taken: list[int] = []
    for _ in game.agent_iter():
        observation, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        action = act(observation["action_mask"])
        taken.append(action)
        game.step(action)
    return taken


def test_a_game_in_the_environment_is_the_kubik_game() -> None:
    """Driven by the random bot's own choices, the environment plays exactly the game
    `kubik play` plays with random bots: the same answers, so the same save."""
    scenario = load_scenario("old_west.feud")
    bots = {side: RandomBot(5, side) for side in scenario.side_ids}
    played = GameSession(scenario, 5, controllers=dict(bots))
    played.advance()
    game = env(scenario, seed=5)
    game.reset()
    mirror = {side: RandomBot(5, side) for side in scenario.side_ids}
    for agent in game.agent_iter():
        _, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        request = game.decision
        assert request is not None
        game.step(game.action_of(mirror[agent](request)))
    assert game.session is not None and played.result is not None
    assert game.session.result == played.result
    assert [_given(a) for a in game.session.answers] == [_given(a) for a in played.answers]


def _given(answer: Answer) -> object:
    """What an answer gave the game (dice or an option), whoever gave it."""
    return answer.values if isinstance(answer, RollAnswer) else answer.value


def test_rewards_are_the_result_and_the_shaping_sums_to_the_losses() -> None:
    game = env("fantasy.barrow", seed=3, shaping=0.5)
    game.reset()
    totals = dict.fromkeys(game.possible_agents, 0.0)
    act = random_policy(3)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _ = game.last()
        totals[agent] += reward
        if terminated or truncated:
            game.step(None)
            continue
        game.step(act(observation["action_mask"]))
    assert game.session is not None and game.session.result is not None
    winner = game.session.result.winner
    lost: dict[str, float] = {}
    models: dict[str, int] = {}
    for unit in game.battle.unit_results():
        lost[unit.side] = lost.get(unit.side, 0) + unit.lost
        models[unit.side] = models.get(unit.side, 0) + unit.models
    share = {side: lost[side] / models[side] for side in models}
    one, other = game.possible_agents
    for me, them in ((one, other), (other, one)):
        final = 0.0 if winner is None else (1.0 if winner == me else -1.0)
        assert totals[me] == pytest.approx(final + 0.5 * (share[them] - share[me]))


def test_the_mask_marks_the_options_and_an_illegal_action_is_refused() -> None:
    game = env("apocalypse.demo", seed=1)
    game.reset()
    observation, *_ = game.last()
    request = game.decision
    assert request is not None
    mask = observation["action_mask"]
    assert mask.shape == (max_actions_for("apocalypse"),)
    assert int(mask.sum()) == len(request.options) and mask[: len(request.options)].all()
    assert game.option(0) == request.options[0]
    with pytest.raises(IllegalActionError, match=r"has options 0-"):
        game.step(len(request.options))
    with pytest.raises(IllegalActionError, match="not a whole number"):
        game.step("advance")


def test_a_menu_larger_than_the_action_space_is_a_clear_error_not_a_cut() -> None:
    game = env("steel_war.demo", seed=1, max_actions=2)
    with pytest.raises(ActionSpaceError, match=r"has \d+ options; the action space of steel_war"):
        game.reset()
        _play_out(game, 1)


def test_opponents_play_inside_the_game_and_only_agents_act() -> None:
    game = env("old_west.demo", seed=4, opponents={"outlaws": "random"})
    assert game.possible_agents == ["law"]
    game.reset()
    _play_out(game, 4)
    assert game.session is not None and game.session.finished
    assert dict(game.session.record.controllers)["outlaws"] == "bot:random"
    with pytest.raises(GameInputError, match="no side 'sheriffs'"):
        env("old_west.demo", opponents={"sheriffs": "random"})
    with pytest.raises(GameInputError, match="every side is a bot"):
        env("old_west.demo", opponents={"law": "random", "outlaws": "random"})


def test_the_observation_shows_only_what_the_side_may_see() -> None:
    """Apocalypse hides a hidden warrior from the enemy: his row stays dark for them."""
    game = env("apocalypse.ambush", seed=2)
    game.reset()
    act = random_policy(2)
    checked = 0
    for agent in game.agent_iter(300):
        observation, _, terminated, truncated, info = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        seen = {entry["id"] for entry in info["view"]["pieces"]}
        visible = observation["observation"]["pieces"][:, 0]
        for row, piece in enumerate(game.encoder.piece_ids):
            assert bool(visible[row]) == (piece in seen), (agent, piece)
        hidden = [p for p in game.battle.view(None)["pieces"] if p.get("hidden")]
        for piece in hidden:
            if piece["side"] != agent:
                assert piece["id"] not in seen
                checked += 1
        game.step(act(observation["action_mask"]))
    assert checked > 0, "no warrior hid in this game: the check saw nothing"


def test_observations_fit_the_space_and_name_their_columns() -> None:
    game = env("steel_war.demo", seed=1, forecasts=True)
    game.reset()
    while not (game.decision and any(game.decision.forecasts)):
        game.step(0)
    observation, *_ = game.last()
    space = game.observation_space(game.agent_selection)
    assert space.contains(observation)
    layout = game.encoder.layout
    arrays = observation["observation"]
    for name, shape in layout.shapes.items():
        assert arrays[name].shape == shape
    assert len(layout.pieces) == arrays["pieces"].shape[1]
    assert any(column.startswith("unit.morale#") for column in layout.pieces)
    worth = layout.actions.index("has_worth")
    assert arrays["actions"][:, worth].any(), "forecasts asked for but no option has a worth"


def test_snapshot_restore_and_clone_give_the_same_game() -> None:
    game = env("fantasy.pass", seed=6)
    game.reset()
    act = random_policy(6)
    for _ in range(15):
        observation, *_ = game.last()
        game.step(act(observation["action_mask"]))
    snapshot = game.snapshot()
    twin = game.clone()
    before, *_ = game.last()
    again, *_ = twin.last()
    assert twin.agent_selection == game.agent_selection
    for name, array in before["observation"].items():
        np.testing.assert_array_equal(array, again["observation"][name])
    rest = _play_out(game, 60)
    replayed = twin
    for action in rest:
        agent = replayed.agent_selection
        assert not replayed.terminations[agent]
        replayed.step(action)
    assert replayed.session is not None and game.session is not None
    assert replayed.session.result == game.session.result
    game.restore(snapshot)
    assert game.session is not None and len(game.session.answers) == len(snapshot.record.answers)
    assert not any(game.terminations.values())


def test_render_tells_the_game_so_far() -> None:
    game = env("old_west.demo", seed=1, render_mode="ansi")
    game.reset()
    text = game.render()
    assert text is not None and "Showdown on Main Street" in text
    assert game.render() == ""
    with pytest.raises(GameInputError, match="render_mode"):
        env("old_west.demo", render_mode="human")


def test_engaged_models_are_those_of_the_units_in_a_fight() -> None:
    """Charges engage units; every model of an engaged unit is marked engaged."""
    game = env("fantasy.barrow", seed=1)
    game.reset()
    act = random_policy(1)
    column = game.encoder.layout.pieces.index("engaged")
    met = 0
    for agent in game.agent_iter():
        observation, _, terminated, truncated, info = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        view = info["view"]
        fighting = {unit for pair in view["engagements"] for unit in pair}
        units = {entry["id"]: entry["unit"] for entry in view["pieces"]}
        rows = observation["observation"]["pieces"]
        for row, piece in enumerate(game.encoder.piece_ids):
            expected = piece in units and (units[piece] in fighting or piece in fighting)
            assert rows[row, column] == float(expected), (agent, piece)
            met += expected
        game.step(act(observation["action_mask"]))
    assert met > 0, "no fight in this game: the check saw nothing"
