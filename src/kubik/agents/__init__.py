"""Agents: every kubik battle for learning and planning programs (``pip install 'kubik[agents]'``).

* :func:`env` — a PettingZoo AEC environment of any scenario, one agent per side
  (:mod:`kubik.agents.environment`); observations from :mod:`kubik.agents.encoding`,
  action spaces from :mod:`kubik.agents.spaces`.
* :func:`chance_game` — the same battle seen as OpenSpiel sees a game: every roll a
  chance node whose outcomes and probabilities are the odds driver's
  (:mod:`kubik.agents.chance`).
* :func:`trajectories` — saved games as (observation, mask, action) per side
  (:mod:`kubik.agents.export`).
* :mod:`kubik.agents.learning` — a small numpy policy that learns to beat the random bot.

The environment needs PettingZoo and Gymnasium (the ``agents`` extra); the chance
view, the export and the learning code need only numpy. Names are loaded on first use,
so ``import kubik.agents`` works without the extra and says what is missing when a
name needs it. See ``docs/agents.md``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kubik.agents.chance import ChanceGame, ChanceState, chance_game
    from kubik.agents.encoding import Encoder, Layout
    from kubik.agents.environment import IllegalActionError, KubikEnv, Snapshot, env
    from kubik.agents.export import Step, Trajectory, trajectories
    from kubik.agents.spaces import MAX_ACTIONS, ActionSpaceError, max_actions_for

#: Names loaded on first use, by the module that defines them.
_LAZY: dict[str, str] = {
    **dict.fromkeys(("ChanceGame", "ChanceState", "chance_game"), "kubik.agents.chance"),
    **dict.fromkeys(("Encoder", "Layout"), "kubik.agents.encoding"),
    **dict.fromkeys(
        ("IllegalActionError", "KubikEnv", "Snapshot", "env"), "kubik.agents.environment"
    ),
    **dict.fromkeys(("Step", "Trajectory", "trajectories"), "kubik.agents.export"),
    **dict.fromkeys(("MAX_ACTIONS", "ActionSpaceError", "max_actions_for"), "kubik.agents.spaces"),
}
#: What the ``agents`` extra installs, by the module name a missing one is reported under.
_EXTRA = frozenset({"pettingzoo", "gymnasium"})


class MissingExtraError(ImportError):
    """The environment was asked for without the ``agents`` extra installed."""


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'kubik.agents' has no attribute '{name}'")
    try:
        loaded = importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name not in _EXTRA:
            raise
        raise MissingExtraError(
            f"kubik.agents.{name} needs {error.name}: pip install 'kubik[agents]'"
        ) from None
    value = getattr(loaded, name)
    globals()[name] = value
    return value


__all__ = [
    "MAX_ACTIONS",
    "ActionSpaceError",
    "ChanceGame",
    "ChanceState",
    "Encoder",
    "IllegalActionError",
    "KubikEnv",
    "Layout",
    "MissingExtraError",
    "Snapshot",
    "Step",
    "Trajectory",
    "chance_game",
    "env",
    "max_actions_for",
    "trajectories",
]
