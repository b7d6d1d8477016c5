"""Who can play a side: a person or a bot, by the name the command line, scenarios and
saves use. One list for every place that reads or offers a name (``--side`` and its
completion, ``--bot``, the bot registry); it imports nothing, so a Tab press stays quick.
"""

from __future__ import annotations

#: Every bot :func:`kubik.bots.bot_for` builds, strongest first.
BOT_NAMES: tuple[str, ...] = ("heuristic", "fast", "random", "default")

#: Who can play a side: a person (``human``, as :data:`kubik.game.session.HUMAN`), or
#: one of the bots.
CONTROLLER_KINDS: tuple[str, ...] = ("human", *BOT_NAMES)

__all__ = ["BOT_NAMES", "CONTROLLER_KINDS"]
