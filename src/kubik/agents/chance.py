"""A battle as OpenSpiel sees a game: decisions by players, and rolls as exact chance nodes.

Tree search and expectimax agents plan through dice only if they know every roll's
outcomes and their probabilities. Here a roll is a chance node whose outcomes are
the answers the game receives — for a roll with a reducer (successes, the highest
die, a total) its few results, not every face — weighed exactly by the odds driver
(:func:`~kubik.engine.roll_branches`); a decision is a node of the player (the side)
whose options are its actions. The names follow OpenSpiel's ``pyspiel.State``:
:meth:`ChanceState.current_player`, :meth:`~ChanceState.chance_outcomes`,
:meth:`~ChanceState.legal_actions`, :meth:`~ChanceState.apply_action`,
:meth:`~ChanceState.clone`, :meth:`~ChanceState.returns`.

A state is its history: the action taken at every node since the start (an outcome's
index at a chance node, an option's index at a decision). The live game behind it is
kept while the state is played forward; a :meth:`~ChanceState.clone` copies only the
history (microseconds) and replays it the first time the clone is asked anything
(the cost of replaying the game so far: see ``docs/agents.md`` for the figures).
A decision of a side that no player is (a rule's own chooser) takes its default, as
in every kubik game.

>>> game = chance_game("old_west.demo")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), sum(p for _, p in state.exact_chance_outcomes())
(True, Fraction(1, 1))
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from kubik.agents.encoding import Encoder, fresh_battle
from kubik.agents.spaces import max_actions_for
from kubik.engine import Choose, Roll, roll_branches
from kubik.engine.log import LogEntry
from kubik.engine.stepper import Stepper
from kubik.game import GameInputError, GameResult, Scenario, load_scenario
from kubik.game.battle import BattleGame

#: The player of a chance node (as OpenSpiel numbers it).
CHANCE_PLAYER = -1
#: The player of a finished game (as OpenSpiel numbers it).
TERMINAL_PLAYER = -4
#: Rolls whose branches are kept (an engine limit: past it they are worked out afresh).
_BRANCHES_KEPT = 4096
_branches: dict[Hashable, tuple[tuple[Any, Fraction], ...]] = {}


def chance_branches(request: Roll) -> tuple[tuple[Any, Fraction], ...]:
    """Every answer the game can receive for ``request``, with its exact probability
    (the odds driver's own count, memoised by the dice, their order and the reducer)."""
    key = (request.dice, request.unordered, request.reduce)
    found = _branches.get(key)
    if found is None:
        found = tuple(roll_branches(request))
        if len(_branches) >= _BRANCHES_KEPT:
            _branches.clear()
        _branches[key] = found
    return found


class ChanceGame:
    """A scenario as a game of chance and decisions (OpenSpiel's ``pyspiel.Game``).

    Players are the scenario's sides, numbered in its order. ``max_actions``: the size
    of a decision's action space (the ruleset's, :mod:`kubik.agents.spaces`);
    ``forecasts``: observations carry the options' worths by the exact odds.
    """

    def __init__(
        self,
        scenario: str | Scenario,
        *,
        options: Mapping[str, Any] | None = None,
        max_actions: int | None = None,
        forecasts: bool = False,
    ) -> None:
        self.scenario = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
        self.players: tuple[str, ...] = self.scenario.side_ids
        self.options: dict[str, Any] = {**self.scenario.options, **(options or {})}
        self.max_actions = max_actions or max_actions_for(self.scenario.ruleset)
        self._forecasts = forecasts
        self._encoder: Encoder | None = None

    def num_players(self) -> int:
        """How many players (sides) there are."""
        return len(self.players)

    def num_distinct_actions(self) -> int:
        """The size of a decision's action space."""
        return self.max_actions

    def new_battle(self) -> BattleGame:
        """A fresh battle of the scenario."""
        return fresh_battle(self.scenario, self.options)

    @property
    def encoder(self) -> Encoder:
        """The observation encoder (made on first use)."""
        if self._encoder is None:
            self._encoder = Encoder(
                self.scenario, self.new_battle(), self.max_actions, forecasts=self._forecasts
            )
        return self._encoder

    def new_initial_state(self) -> ChanceState:
        """The game before anything is rolled or decided."""
        return ChanceState(self)

    def state_from_history(self, history: Sequence[int]) -> ChanceState:
        """The state reached by ``history`` (every node's action, from the start)."""
        state = ChanceState(self)
        for action in history:
            state.apply_action(action)
        return state


@dataclass(slots=True)
class _Live:
    """The running game behind a state: the battle, its procedure and what it asks."""

    battle: BattleGame
    stepper: Stepper
    log: list[LogEntry]
    players: tuple[str, ...]
    request: Roll | Choose | None = None
    branches: tuple[tuple[Any, Fraction], ...] = ()
    result: GameResult | None = None
    defaulted: int = field(default=0)  # decisions of no player, taken by default

    def send(self, answer: Any) -> None:
        """Answer the pending request and run on to the next node."""
        self.settle(self.stepper.advance(answer))

    def settle(self, request: Roll | Choose | None) -> None:
        while isinstance(request, Choose) and request.side not in self.players:
            self.defaulted += 1
            request = self.stepper.advance(request.default)
        self.request = request
        self.branches = chance_branches(request) if isinstance(request, Roll) else ()
        if request is None:
            outcome = self.stepper.outcome
            if not isinstance(outcome, GameResult):
                raise GameInputError(f"a game returned {outcome!r}, not a GameResult")
            self.result = outcome


class ChanceState:
    """One point of a game: a chance node, a player's decision, or the end."""

    def __init__(self, game: ChanceGame, history: Sequence[int] = ()) -> None:
        self.game = game
        self._history: list[int] = list(history)
        self._live: _Live | None = None

    # -- the live game ------------------------------------------------------------

    def _running(self) -> _Live:
        live = self._live
        if live is None:
            battle = self.game.new_battle()
            log: list[LogEntry] = []
            stepper = Stepper(battle.play(), log)
            live = _Live(battle, stepper, log, self.game.players)
            live.settle(stepper.advance())
            for action in self._history:
                live.send(_answer(live, action))
            self._live = live
        return live

    @property
    def battle(self) -> BattleGame:
        """The battle at this point (ask it, never change it)."""
        return self._running().battle

    @property
    def request(self) -> Roll | Choose | None:
        """What the game asks now: a roll, a decision, or nothing (the end)."""
        return self._running().request

    @property
    def log(self) -> tuple[LogEntry, ...]:
        """Every event logged so far (rolls and decisions are in the history)."""
        return tuple(self._running().log)

    @property
    def result(self) -> GameResult | None:
        """How the game ended (``None`` until it has)."""
        return self._running().result

    # -- OpenSpiel's questions ------------------------------------------------------

    def current_player(self) -> int:
        """The deciding side's number; :data:`CHANCE_PLAYER` at a roll,
        :data:`TERMINAL_PLAYER` at the end."""
        request = self.request
        if request is None:
            return TERMINAL_PLAYER
        if isinstance(request, Roll):
            return CHANCE_PLAYER
        return self.game.players.index(request.side)

    def is_chance_node(self) -> bool:
        """Whether a roll is pending."""
        return isinstance(self.request, Roll)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.request is None

    def exact_chance_outcomes(self) -> list[tuple[int, Fraction]]:
        """Each outcome of the pending roll with its exact probability (they sum to 1)."""
        live = self._running()
        if not isinstance(live.request, Roll):
            raise GameInputError("not a chance node: no roll is pending")
        return [(index, p) for index, (_, p) in enumerate(live.branches)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """:meth:`exact_chance_outcomes` as floats (what OpenSpiel gives)."""
        return [(index, float(p)) for index, p in self.exact_chance_outcomes()]

    def outcome(self, action: int) -> Any:
        """What the game receives for chance outcome ``action`` (the roll's answer)."""
        live = self._running()
        if not isinstance(live.request, Roll):
            raise GameInputError("not a chance node: no roll is pending")
        return live.branches[action][0]

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The actions at this node (outcomes at a chance node, options at a decision);
        none for a ``player`` who is not to act, nor at the end."""
        live = self._running()
        request = live.request
        if request is None:
            return []
        if isinstance(request, Roll):
            return list(range(len(live.branches))) if player in (None, CHANCE_PLAYER) else []
        if player is not None and player != self.current_player():
            return []
        count = len(request.options)
        if count > self.game.max_actions:
            self.game.encoder.fits(request)  # raises, naming the decision
        return list(range(count))

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        """1 for every legal action of a decision, over the whole action space."""
        legal = set(self.legal_actions(player)) if not self.is_chance_node() else set()
        return [int(a in legal) for a in range(self.game.max_actions)]

    def apply_action(self, action: int) -> None:
        """Take ``action`` at this node (an outcome's index, or an option's)."""
        live = self._running()
        live.send(_answer(live, int(action)))
        self._history.append(int(action))

    def child(self, action: int) -> ChanceState:
        """A new state: this one after ``action`` (this one is left as it is)."""
        made = self.clone()
        made.apply_action(action)
        return made

    def clone(self) -> ChanceState:
        """A copy of this state: its history now, its game replayed when first asked."""
        return ChanceState(self.game, self._history)

    def history(self) -> list[int]:
        """The action taken at every node since the start."""
        return list(self._history)

    def returns(self) -> list[float]:
        """Each player's return: +1 the winner, -1 the others, 0 in a draw or before the end."""
        result = self.result
        if result is None or result.winner is None:
            return [0.0] * len(self.game.players)
        return [1.0 if side == result.winner else -1.0 for side in self.game.players]

    def sample_chance(self, rng: random.Random) -> int:
        """A chance outcome drawn by its probability."""
        outcomes = self.exact_chance_outcomes()
        draw = Fraction(rng.random())
        for action, p in outcomes:
            draw -= p
            if draw < 0:
                return action
        return outcomes[-1][0]

    def observation(self, player: int) -> dict[str, Any]:
        """Player ``player``'s observation: the environment's arrays and action mask."""
        side = self.game.players[player]
        request = self.request
        facing = request if isinstance(request, Choose) and request.side == side else None
        encoder = self.game.encoder
        return {
            "observation": encoder.observe(self.battle, side, facing),
            "action_mask": encoder.mask(facing),
        }

    def observation_tensor(self, player: int) -> NDArray[np.float32]:
        """The observation's arrays flattened into one vector (planes, pieces, globals,
        actions, in that order)."""
        arrays = self.observation(player)["observation"]
        return np.concatenate([arrays[name].ravel() for name in sorted(arrays)])

    def __str__(self) -> str:
        request = self.request
        if request is None:
            result = self.result
            return f"the end: {result.to_json() if result else ''}"
        if isinstance(request, Roll):
            return f"roll {request.reason.id}: {len(self._running().branches)} outcomes"
        return f"{request.side} decides {request.reason.id}: {len(request.options)} options"


def _answer(live: _Live, action: int) -> Any:
    """What the game receives for ``action`` at the live node."""
    request = live.request
    if request is None:
        raise GameInputError("the game is over: no action can be taken")
    if isinstance(request, Roll):
        if not 0 <= action < len(live.branches):
            raise GameInputError(
                f"chance outcome {action}: the roll has outcomes 0-{len(live.branches) - 1}"
            )
        return live.branches[action][0]
    if not 0 <= action < len(request.options):
        raise GameInputError(
            f"action {action}: the decision of side '{request.side}' ({request.reason.id}) "
            f"has options 0-{len(request.options) - 1}"
        )
    return request.options[action]


def chance_game(scenario: str | Scenario, **settings: Any) -> ChanceGame:
    """The chance view of ``scenario`` (see :class:`ChanceGame` for the settings)."""
    return ChanceGame(scenario, **settings)


__all__ = [
    "CHANCE_PLAYER",
    "TERMINAL_PLAYER",
    "ChanceGame",
    "ChanceState",
    "chance_branches",
    "chance_game",
]
