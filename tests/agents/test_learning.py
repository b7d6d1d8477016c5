"""The proof that it learns: a numpy policy gradient beats the random bot on a small battle.

The Barrow Field cut to one unit a side and four turns: the undead's spirits against
the dwarfs' Longbeards. Played at random against kubik's random bot the undead win
about a third of their games; after 200 games of REINFORCE (fixed seeds) the policy,
taking its likeliest option, must win most of 100 games it has never seen.
"""

from __future__ import annotations

import pytest

from kubik.agents import env
from kubik.agents.learning import LinearPolicy, cut_down, evaluate, train

#: Seeds of the games judged (the training games are seeds 0-199).
JUDGED = 10_000


@pytest.mark.slow
def test_a_tiny_policy_gradient_beats_the_random_bot() -> None:
    battle = env(cut_down("fantasy.barrow", 1, turn_limit=4), opponents={"dwarfs": "random"})
    features = battle.encoder.layout.shapes["actions"][1]
    untrained = evaluate(battle, LinearPolicy.fresh(features, 99), 60, first_game=JUDGED)
    policy, _ = train(battle, 200, seed=1, rate=0.05)
    learned = evaluate(battle, policy, 100, first_game=JUDGED, greedy=True)
    assert learned.wins > learned.games / 2, learned
    assert learned.wins / learned.games > untrained.wins / untrained.games + 0.15, (
        untrained,
        learned,
    )


def test_the_policy_is_a_softmax_over_legal_options_only() -> None:
    import numpy as np

    policy = LinearPolicy.fresh(3, 0)
    policy.weights[:] = (1.0, 0.0, -1.0)
    actions = np.array([[1, 0, 0], [0, 0, 1], [2, 0, 0], [0, 0, 0]], dtype=np.float32)
    mask = np.array([1, 1, 0, 0], dtype=np.int8)
    chances = policy.probabilities(actions, mask)
    assert chances[2] == chances[3] == 0.0
    assert chances[0] == pytest.approx(np.e / (np.e + np.exp(-1)))
    gradient = policy.score_gradient(actions, mask, 0)
    assert gradient == pytest.approx(actions[0] - chances @ actions)


def test_cut_down_keeps_the_first_units_of_each_side() -> None:
    small = cut_down("old_west.demo", {"law": 1, "outlaws": 2}, turn_limit=3)
    assert [(u.id, u.side) for u in small.units] == [
        ("wyatt", "law"),
        ("ike", "outlaws"),
        ("billy", "outlaws"),
    ]
    assert small.turn_limit == 3
    assert small.id == "old_west.demo_cut"
