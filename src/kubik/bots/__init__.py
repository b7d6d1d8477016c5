"""Bots: players of any ruleset that answer the same ``Choose`` requests a person does.

A bot is a callable ``Choose -> option`` (:data:`kubik.game.Bot`); it sees only the
request (its options, default and forecasts), never the game state, so bots and
people are interchangeable per side. :func:`bot_for` builds one by name.
"""

from kubik.bots.fast import FastBot
from kubik.bots.heuristic import HeuristicBot
from kubik.bots.registry import BOT_NAMES, UnknownBotError, bot_for
from kubik.bots.simple import DefaultBot, RandomBot

__all__ = [
    "BOT_NAMES",
    "DefaultBot",
    "FastBot",
    "HeuristicBot",
    "RandomBot",
    "UnknownBotError",
    "bot_for",
]
