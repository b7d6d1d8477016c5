"""Bots by name, for the command line and scenarios: ``heuristic``, ``fast``, ``random``,
``default``.

>>> from kubik.engine.requests import Choose
>>> bot_for("default", seed=1, side="steel")(Choose(("a", "b"), "steel", "x", default="b"))
'b'
>>> bot_for("clever", seed=1, side="steel")
Traceback (most recent call last):
...
kubik.bots.registry.UnknownBotError: bot 'clever': unknown; bots: heuristic, fast, random, default
"""

from __future__ import annotations

from kubik.bots.fast import FastBot
from kubik.bots.heuristic import HeuristicBot
from kubik.bots.simple import DefaultBot, RandomBot
from kubik.core.controllers import BOT_NAMES
from kubik.core.errors import KubikError
from kubik.engine.odds import OddsCache
from kubik.game.session import Bot


class UnknownBotError(KubikError, LookupError):
    """A bot name that does not exist (the message lists the ones that do)."""


def bot_for(name: str, seed: int, side: str, cache: OddsCache | None = None) -> Bot:
    """The bot called ``name`` for ``side`` of a game played with ``seed``.

    ``cache`` is shared by heuristic and fast bots (one per game is plenty); the random
    bot draws from ``seed`` and ``side`` only.
    """
    if name == "heuristic":
        return HeuristicBot(cache, seed, side)
    if name == "fast":
        return FastBot(cache, seed, side)
    if name == "random":
        return RandomBot(seed, side)
    if name == "default":
        return DefaultBot()
    raise UnknownBotError(f"bot '{name}': unknown; bots: {', '.join(BOT_NAMES)}")


__all__ = ["BOT_NAMES", "UnknownBotError", "bot_for"]
