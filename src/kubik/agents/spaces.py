"""The fixed action space of each ruleset: how many options one decision may have.

An agent's action is the index of an option of the pending decision, so the action
space must hold the largest menu a battle of the ruleset ever offers. The figures
below were measured over many bot games of every built-in scenario (30 games with
random bots and 5 with heuristic bots on both sides, every decision counted;
``docs/agents.md`` lists the largest menus met) and set at about twice the largest.
A decision with more options than its ruleset's figure stops the game with
:class:`ActionSpaceError` naming the decision: it is never cut short silently.
``env(..., max_actions=N)`` widens the space for one environment.

>>> max_actions_for("old_west")
16
>>> max_actions_for("a_ruleset_of_tomorrow") == DEFAULT_MAX_ACTIONS
True
"""

from __future__ import annotations

from kubik.game import GameInputError

#: Ruleset id → the most options one of its decisions may have.
MAX_ACTIONS: dict[str, int] = {
    "apocalypse": 32,
    "fantasy": 16,
    "old_west": 16,
    "steel_war": 96,
}
#: The action space of a ruleset not in :data:`MAX_ACTIONS`.
DEFAULT_MAX_ACTIONS = 64


class ActionSpaceError(GameInputError):
    """A decision with more options than the environment's fixed action space holds."""


def max_actions_for(ruleset: str) -> int:
    """The size of the action space of ``ruleset``'s battles."""
    return MAX_ACTIONS.get(ruleset, DEFAULT_MAX_ACTIONS)


__all__ = ["DEFAULT_MAX_ACTIONS", "MAX_ACTIONS", "ActionSpaceError", "max_actions_for"]
