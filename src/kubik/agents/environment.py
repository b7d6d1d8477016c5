"""Every kubik battle as a PettingZoo AEC environment: one agent per side.

The environment is a :class:`~kubik.game.GameSession` whose sides are played by the
agents: every die is rolled by the session's counter-based virtual dice, every
decision of a side that is an agent waits for :meth:`KubikEnv.step`, and the sides
given to bots (``opponents``) are played inside the session, as ``kubik play`` plays
them. So a game in the environment is a kubik game like any other: its
:attr:`~KubikEnv.session` gives the save (``session.record``), the narrated log and
the replay, and the same seed and actions give the same game, byte for byte.

The action is the index of an option of the pending decision; the ``action_mask`` of
the observation marks the options there are. The observation is the side's own view
as the arrays of :class:`~kubik.agents.encoding.Encoder`; the raw view (what the
battle shows that side, JSON-ready) and the options' JSON forms are in the acting
agent's ``infos``. Rewards come at the end: +1 to the winner, -1 to the others, 0 to
all in a draw; ``shaping`` adds, after every action, that much times the change in
the share of the enemy's models lost minus the share of one's own (the battle's own
count of losses, :meth:`~kubik.game.battle.BattleGame.unit_results`).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np
from numpy.typing import NDArray
from pettingzoo import AECEnv

from kubik.agents.encoding import GRID, LIMIT, Encoder, fresh_battle
from kubik.agents.spaces import max_actions_for
from kubik.bots import bot_for
from kubik.engine import Choose, OddsCache
from kubik.game import (
    HUMAN,
    Bot,
    Controller,
    GameInputError,
    GameRecord,
    GameSession,
    Scenario,
    load_scenario,
)
from kubik.game.battle import BattleGame

#: An opponent: a bot's name (``random``, ``heuristic``, ``default``) or a bot function.
Opponent = str | Bot
#: What :meth:`KubikEnv.observe` returns: the arrays and the action mask.
Observation = dict[str, Any]


class IllegalActionError(GameInputError):
    """An action that is no option of the pending decision."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """An environment's game at one moment: its save, and the counters around it."""

    record: GameRecord
    steps: int
    losses: tuple[float, ...]


class KubikEnv(AECEnv):  # type: ignore[misc]
    """A kubik battle as a PettingZoo AEC environment (see the module docstring).

    ``scenario``: a scenario id or a :class:`~kubik.game.Scenario`. ``seed``: the
    first game's seed (each later :meth:`reset` without a seed plays the next seed).
    ``opponents``: sides played by bots inside the game (not agents). ``max_actions``:
    the action space (default: the ruleset's, :mod:`kubik.agents.spaces`).
    ``forecasts``: fill each option's worth by the rules' exact odds (slower).
    ``shaping``: the weight of the losses reward. ``max_steps``: truncate a game after
    that many actions. ``options``: the scenario's game options, overridden.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads it from the class)
        "name": "kubik_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        scenario: str | Scenario,
        *,
        seed: int = 0,
        opponents: Mapping[str, Opponent] | None = None,
        max_actions: int | None = None,
        forecasts: bool = False,
        shaping: float = 0.0,
        max_steps: int | None = None,
        options: Mapping[str, Any] | None = None,
        lang: str = "en",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.scenario = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
        sides = self.scenario.side_ids
        self.opponents: dict[str, Opponent] = dict(opponents or {})
        for side in self.opponents:
            if side not in sides:
                raise GameInputError(f"opponents: no side '{side}'; sides: {', '.join(sides)}")
        self.possible_agents: list[str] = [s for s in sides if s not in self.opponents]
        if not self.possible_agents:
            raise GameInputError("opponents: every side is a bot; leave at least one to an agent")
        if render_mode not in (None, "ansi"):
            raise GameInputError(f"render_mode: {render_mode!r}; allowed: ansi, or none")
        if max_actions is not None and max_actions < 1:
            raise GameInputError(f"max_actions: {max_actions}; allowed: a whole number 1 or more")
        if max_steps is not None and max_steps < 1:
            raise GameInputError(f"max_steps: {max_steps}; allowed: a whole number 1 or more")
        self.render_mode = render_mode
        self.game_options: dict[str, Any] = dict(options or {})
        self.lang = lang
        self.shaping = float(shaping)
        self.max_steps = max_steps
        self.max_actions = max_actions or max_actions_for(self.scenario.ruleset)
        battle = fresh_battle(self.scenario, self.game_options)
        self.encoder = Encoder(self.scenario, battle, self.max_actions, forecasts=forecasts)
        self._models = self._models_per_side(battle)
        space = self._observation_space()
        self._observation_spaces = {agent: space for agent in self.possible_agents}
        self._action_spaces = {
            agent: gymnasium.spaces.Discrete(self.max_actions) for agent in self.possible_agents
        }
        self._seed = seed
        self._games = 0
        self._rendered = 0
        self._observed: dict[tuple[int, str], Observation] = {}
        self._views: dict[tuple[int, str], dict[str, Any]] = {}
        self.session: GameSession | None = None
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection: str = self.possible_agents[0]
        self._steps = 0
        self._losses: tuple[float, ...] = ()

    # -- spaces -------------------------------------------------------------------

    def _observation_space(self) -> gymnasium.spaces.Dict:
        shapes = self.encoder.layout.shapes
        boxes: dict[str, gymnasium.spaces.Space[Any]] = {
            name: gymnasium.spaces.Box(
                low=0.0 if name == "planes" else -LIMIT,
                high=float(len(self.encoder.piece_ids)) if name == "planes" else LIMIT,
                shape=shape,
                dtype=np.float32,
            )
            for name, shape in shapes.items()
        }
        assert shapes["planes"][1:] == (GRID, GRID)
        return gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Dict(boxes),
                "action_mask": gymnasium.spaces.Box(0, 1, (self.max_actions,), dtype=np.int8),
            }
        )

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The observation space of ``agent`` (one object per agent, as PettingZoo asks)."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """``Discrete(max_actions)``: the index of an option of the pending decision."""
        return self._action_spaces[agent]

    # -- a game -------------------------------------------------------------------

    def _controllers(self, seed: int) -> dict[str, Controller]:
        cache = OddsCache()
        controllers: dict[str, Controller] = {agent: HUMAN for agent in self.possible_agents}
        for side, bot in self.opponents.items():
            controllers[side] = bot_for(bot, seed, side, cache) if isinstance(bot, str) else bot
        return controllers

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: with ``seed``, that seed's game (and the next seeds after it);
        without, the next seed. ``options`` is accepted as PettingZoo passes it and
        not read (game options are the constructor's)."""
        if seed is not None:
            self._seed, self._games = int(seed), 0
        game_seed = self._seed + self._games
        self._games += 1
        session = GameSession(
            self.scenario,
            game_seed,
            controllers=self._controllers(game_seed),
            lang=self.lang,
            options=self.game_options,
        )
        self._begin(session, steps=0)

    def _begin(self, session: GameSession, steps: int) -> None:
        session.advance()
        self.session = session
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._steps = steps
        self._rendered = 0
        self._observed = {}
        self._views = {}
        self._losses = self._loss_shares()
        self._settle()

    @property
    def battle(self) -> BattleGame:
        """The battle being played (its state: ask it, never change it)."""
        state = self._session().state
        assert isinstance(state, BattleGame)
        return state

    @property
    def decision(self) -> Choose | None:
        """The decision the selected agent faces (``None`` once the game is over)."""
        pending = self._session().pending
        return pending if isinstance(pending, Choose) else None

    def _session(self) -> GameSession:
        if self.session is None:
            raise GameInputError("no game yet: call reset() first")
        return self.session

    def option(self, action: int) -> Hashable:
        """The option ``action`` stands for in the pending decision."""
        request = self.decision
        if request is None:
            raise IllegalActionError("the game is over: there is no decision to act on")
        return request.options[self._index(action, request)]

    def action_of(self, option: Hashable) -> int:
        """The action that stands for ``option`` of the pending decision."""
        request = self.decision
        if request is None or option not in request.options:
            raise IllegalActionError(f"{option!r} is not an option of the pending decision")
        return request.options.index(option)

    def _index(self, action: Any, request: Choose) -> int:
        try:
            index = operator.index(action)
        except TypeError:
            raise IllegalActionError(
                f"action {action!r}: not a whole number; the decision has options "
                f"0-{len(request.options) - 1}"
            ) from None
        if not 0 <= index < len(request.options):
            raise IllegalActionError(
                f"action {index}: the decision of side '{request.side}' ({request.reason.id}) "
                f"has options 0-{len(request.options) - 1}"
            )
        return index

    # -- stepping -----------------------------------------------------------------

    def step(self, action: Any) -> None:
        """Answer the selected agent's decision with option ``action`` and play on to
        the next decision of an agent (rolls and bots answered by the game)."""
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        session = self._session()
        request = self.decision
        assert request is not None and request.side == agent
        index = self._index(action, request)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        session.answer(request.options[index])
        self._steps += 1
        if self.shaping:
            self._shape()
        self._settle()
        self._accumulate_rewards()

    def _settle(self) -> None:
        """After an action: select the agent to act next, or end the game."""
        session = self._session()
        result = session.result
        for agent in self.agents:
            self.infos[agent] = {}
        if result is not None:
            for agent in self.agents:
                if result.winner is not None:
                    self.rewards[agent] += 1.0 if result.winner == agent else -1.0
                self.terminations[agent] = True
                self.infos[agent] = {"result": result.to_json()}
            return
        request = self.decision
        if request is None or request.side not in self.agents:  # (a session waits only on agents)
            raise GameInputError(f"the game waits for {session.pending!r}, which no agent answers")
        self.agent_selection = request.side
        self.infos[request.side] = {
            "view": self.view(request.side),
            "options": self.encoder.forms(request),
            "reason": request.reason.id,
        }
        if self.max_steps is not None and self._steps >= self.max_steps:
            for agent in self.agents:
                self.truncations[agent] = True

    def _models_per_side(self, battle: BattleGame) -> dict[str, int]:
        counts: dict[str, int] = {}
        for piece in battle.pieces():
            counts[piece.side] = counts.get(piece.side, 0) + 1
        return counts

    def _loss_shares(self) -> tuple[float, ...]:
        """Each side's share of its models lost, in the scenario's order of sides."""
        if not self.shaping:
            return ()
        lost: dict[str, int] = {}
        for unit in self.battle.unit_results():
            lost[unit.side] = lost.get(unit.side, 0) + unit.lost
        return tuple(
            lost.get(side, 0) / self._models[side] if self._models.get(side) else 0.0
            for side in self.scenario.side_ids
        )

    def _shape(self) -> None:
        now = self._loss_shares()
        change = {side: now[i] - self._losses[i] for i, side in enumerate(self.scenario.side_ids)}
        self._losses = now
        for agent in self.agents:
            enemies = [c for side, c in change.items() if side != agent]
            inflicted = sum(enemies) / len(enemies) if enemies else 0.0
            self.rewards[agent] += self.shaping * (inflicted - change.get(agent, 0.0))

    # -- observing ----------------------------------------------------------------

    def observe(self, agent: str) -> Observation:
        """``{"observation": {planes, pieces, globals, actions}, "action_mask"}`` of
        ``agent``; the actions and the mask are empty unless it is to act."""
        session = self._session()
        key = (len(session.answers), agent)
        found = self._observed.get(key)
        if found is not None:
            return found
        request = self.decision
        facing = request if request is not None and request.side == agent else None
        made = {
            "observation": self.encoder.observe(self.battle, agent, facing, self.view(agent)),
            "action_mask": self.encoder.mask(facing),
        }
        if len(self._observed) > 8:
            self._observed.clear()
        self._observed[key] = made
        return made

    def view(self, agent: str) -> dict[str, Any]:
        """The raw view of ``agent``'s side: what the battle shows it, JSON-ready (made
        once per point of the game; do not change it)."""
        key = (len(self._session().answers), agent)
        found = self._views.get(key)
        if found is None:
            if len(self._views) > 8:
                self._views.clear()
            found = self._views[key] = self.battle.view(agent)
        return found

    def render(self) -> str | None:
        """``ansi``: the narrated log (as the referee sees it) since the last render."""
        if self.render_mode is None:
            return None
        session = self._session()
        lines = session.narrate(self.lang)[self._rendered :]
        self._rendered += len(lines)
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release: the game lives in memory."""

    # -- clone and restore --------------------------------------------------------

    def snapshot(self) -> Snapshot:
        """The game as it stands, cheaply (its answers so far, no replay)."""
        return Snapshot(self._session().record, self._steps, self._losses)

    def restore(self, snapshot: Snapshot) -> None:
        """Go back (or over) to a snapshot's game: rebuilt by replaying its answers.
        Opponent bots start afresh; rewards gathered before are not given again."""
        record = snapshot.record
        if record.scenario_toml != self.scenario.text:
            raise GameInputError(f"snapshot: a game of '{record.scenario}', not of this scenario")
        session = GameSession(
            self.scenario,
            record.seed,
            controllers=self._controllers(record.seed),
            lang=self.lang,
            options=dict(record.options),
            answers=record.answers,
        )
        self._begin(session, snapshot.steps)
        self._losses = snapshot.losses

    def clone(self) -> KubikEnv:
        """Another environment at this very point of this game (sharing the encoder)."""
        twin: KubikEnv = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin._observed, twin._views = {}, {}
        twin.restore(self.snapshot())
        return twin


def env(scenario: str | Scenario, **settings: Any) -> KubikEnv:
    """The environment of ``scenario`` (see :class:`KubikEnv` for the settings).

    >>> game = env("old_west.demo", seed=3)
    >>> game.reset()
    >>> game.agent_selection in game.possible_agents
    True
    """
    return KubikEnv(scenario, **settings)


def random_policy(seed: int) -> Callable[[NDArray[np.int8]], int]:
    """A uniformly random legal action from a numpy generator seeded with ``seed``."""
    rng = np.random.default_rng(seed)

    def act(mask: NDArray[np.int8]) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    return act


__all__ = [
    "IllegalActionError",
    "KubikEnv",
    "Observation",
    "Opponent",
    "Snapshot",
    "env",
    "random_policy",
]
