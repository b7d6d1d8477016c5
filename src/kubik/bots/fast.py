"""The fast bot: the heuristic bot's judgement, with small decisions inside rules only.

For large sweeps. Between rules it judges every option exactly as the heuristic bot does
(the rule's own exact odds of the situation each option leads to, remembered per
situation for the whole sweep of a worker). Inside a rule with goals it solves a
decision exactly only when that takes at most :data:`FAST_BOT_SOLVE_POSITIONS` positions
(the heuristic bot looks at up to :data:`~kubik.core.limits.BOT_SOLVE_POSITIONS`); a
larger one is judged by its options' forecasts, as any other decision. The positions a
decision needs do not depend on the game's history, so the same seed still gives the
same game. ``docs/balance-lab.md`` gives its speed and win rates beside the heuristic
bot's, scenario by scenario.

>>> from kubik.engine.dice import D6
>>> from kubik.engine.requests import Choose, Forecast, Roll
>>> def shot(hit_on):
...     (v,) = yield Roll(D6, "to hit")
...     return v >= hit_on
>>> FastBot()(Choose(("far", "near"), "steel", "target",
...     forecasts=(Forecast(shot, (6,), value=int), Forecast(shot, (3,), value=int))))
'near'
"""

from __future__ import annotations

from typing import ClassVar

from kubik.bots.heuristic import HeuristicBot
from kubik.core.limits import FAST_BOT_SOLVE_POSITIONS


class FastBot(HeuristicBot):
    """The heuristic bot with a smaller budget for decisions inside rules."""

    __slots__ = ()
    name: ClassVar[str] = "fast"
    solve_positions: ClassVar[int] = FAST_BOT_SOLVE_POSITIONS


__all__ = ["FastBot"]
