"""Train a tiny numpy policy on a small battle and pit it against kubik's random bot.

    python examples/agents_learn.py                     # 200 training games, 100 judged
    python examples/agents_learn.py --episodes 50 --games 20

The battle is the Barrow Field cut to one unit a side and four turns; the policy
plays the undead (kubik's random bot the dwarfs). It prints the record of the
untrained policy (random play), of the trained one, and what it learned to like.
Needs the agents extra: pip install 'kubik[agents]'.
"""

from __future__ import annotations

import argparse

import numpy as np

from kubik.agents import env
from kubik.agents.encoding import KIND_BUCKETS, bucket
from kubik.agents.learning import LinearPolicy, cut_down, evaluate, train

#: Seeds of the judged games (the training games are seeds 0 onwards).
JUDGED = 10_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=200, help="training games")
    parser.add_argument("--games", type=int, default=100, help="games judged")
    parser.add_argument("--seed", type=int, default=1, help="the policy's own seed")
    arguments = parser.parse_args()
    battle = env(cut_down("fantasy.barrow", 1, turn_limit=4), opponents={"dwarfs": "random"})
    features = battle.encoder.layout.shapes["actions"][1]
    untrained = LinearPolicy.fresh(features, arguments.seed)
    print("untrained:", evaluate(battle, untrained, arguments.games, first_game=JUDGED))
    policy, record = train(battle, arguments.episodes, seed=arguments.seed)
    print("training: ", record)
    print("trained:  ", evaluate(battle, policy, arguments.games, first_game=JUDGED, greedy=True))
    labels = _labels_met(battle)
    columns = battle.encoder.layout.actions
    for column in np.argsort(-np.abs(policy.weights))[:5]:
        name = columns[column]
        if name.startswith("label#"):
            met = [label for label in labels if bucket(label, KIND_BUCKETS) == int(name[6:])]
            name = " or ".join(met) or name
        print(f"  {policy.weights[column]:+.2f}  {name}")


def _labels_met(battle: object) -> set[str]:
    """The option labels of a few games, to name the columns the policy weighs."""
    from kubik.agents import KubikEnv

    assert isinstance(battle, KubikEnv)
    found: set[str] = set()
    for seed in range(10):
        battle.reset(seed=seed)
        for agent in battle.agent_iter():
            if battle.terminations[agent] or battle.truncations[agent]:
                battle.step(None)
                continue
            request = battle.decision
            assert request is not None
            for option in request.options:
                label = request.label(option)
                if label is not None:
                    found.add(label.id)
            battle.step(0)
    return found


if __name__ == "__main__":
    main()
