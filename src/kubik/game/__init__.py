"""The game layer: scenarios, whole games as procedures, sessions, saves and replays.

It knows no particular ruleset: a ruleset plugs in with a
:class:`~kubik.game.registry.GameRuleset` exported as ``GAME`` from its ``turns``
module, and its game object is a procedure (``play()`` yields the engine's
requests and returns a :class:`GameResult`). A game is event-sourced: the
scenario, the seed and the ordered answers rebuild it exactly.
"""

from kubik.game.core import Game, GameResult, SideSummary
from kubik.game.dice import CounterDice
from kubik.game.errors import (
    GameInputError,
    RecordError,
    ScenarioError,
    StoreError,
    UnknownRulesetError,
)
from kubik.game.narrate import entry_json, entry_text, narrate
from kubik.game.record import FORMAT_VERSION, GameRecord, migrate
from kubik.game.registry import (
    GameRuleset,
    get_ruleset,
    known_rulesets,
    register_ruleset,
    unregister_ruleset,
)
from kubik.game.replay import ReplayStep, rebuild, replay
from kubik.game.scenario import (
    Scenario,
    ScenarioInfo,
    ScenarioSource,
    SideSpec,
    UnitSpec,
    field_error,
    list_scenarios,
    load_scenario,
    load_scenario_file,
    parse_scenario,
)
from kubik.game.session import (
    HUMAN,
    Bot,
    Controller,
    DiceMode,
    GameSession,
    default_bot,
    play_game,
)
from kubik.game.store import GameStore, SavedGame
from kubik.game.turns import Ending, TurnLoop, side_name

__all__ = [
    "FORMAT_VERSION",
    "HUMAN",
    "Bot",
    "Controller",
    "CounterDice",
    "DiceMode",
    "Ending",
    "Game",
    "GameInputError",
    "GameRecord",
    "GameResult",
    "GameRuleset",
    "GameSession",
    "GameStore",
    "RecordError",
    "ReplayStep",
    "SavedGame",
    "Scenario",
    "ScenarioError",
    "ScenarioInfo",
    "ScenarioSource",
    "SideSpec",
    "SideSummary",
    "StoreError",
    "TurnLoop",
    "UnitSpec",
    "UnknownRulesetError",
    "default_bot",
    "entry_json",
    "entry_text",
    "field_error",
    "get_ruleset",
    "known_rulesets",
    "list_scenarios",
    "load_scenario",
    "load_scenario_file",
    "migrate",
    "narrate",
    "parse_scenario",
    "play_game",
    "rebuild",
    "register_ruleset",
    "replay",
    "side_name",
    "unregister_ruleset",
]
