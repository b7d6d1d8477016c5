"""The heuristic bot: optimal inside a rule, and by exact forecasts between rules.

A decision made inside a rule procedure that declares goals for the deciding side
(Fame on a wound roll, inside a close-combat round, inside a battle) is answered by
the engine's optimal policy (:class:`~kubik.engine.optimal.Optimal`): solved exactly
from the position — the procedures running, each with the answers it has received —
for the outermost of them with a goal for that side. A sealed bid is drawn from its
mixed strategy, from a counter-based stream of the bot's seed.

Any other decision (where to move, whom to shoot) is judged by its options'
:class:`~kubik.engine.requests.Forecast`: the rule procedure it leads to, on the
situation it would meet, and what each outcome is worth to the side choosing. The
bot asks the odds driver (:func:`kubik.engine.forecast.expected_value`) for the exact
expected worth, so it judges moves by the rules themselves and never by a private
copy of one.

>>> from kubik.engine.dice import D6
>>> from kubik.engine.requests import Choose, Forecast, Roll
>>> def shot(hit_on):
...     (v,) = yield Roll(D6, "to hit")
...     return v >= hit_on
>>> request = Choose(("far", "near"), "steel", "target",
...     forecasts=(Forecast(shot, (6,), value=int), Forecast(shot, (3,), value=int)))
>>> HeuristicBot()(request)
'near'
>>> HeuristicBot().values(request)
(Fraction(1, 6), Fraction(2, 3))
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from fractions import Fraction
from typing import ClassVar

from kubik.core.limits import BOT_SOLVE_POSITIONS
from kubik.engine.expectimax import TooMuchWork
from kubik.engine.forecast import expected_value
from kubik.engine.odds import OddsCache
from kubik.engine.optimal import Optimal, draw
from kubik.engine.requests import Choose
from kubik.engine.stepper import Position


class HeuristicBot:
    """Optimal inside rules with goals; elsewhere the option whose forecast is worth most.

    Ties go to the earlier option (option order is the rule writer's preference).
    An option without a forecast (where nothing can be foreseen) is worth 0, a
    neutral move; a request with no forecasts at all gets its default. The odds
    cache is shared across decisions, so a rule's distribution on one situation is
    computed once per game (or once per cache the caller passes in). ``seed`` and
    ``side`` name the stream mixed strategies are drawn from.
    """

    __slots__ = ("cache", "decisions", "optimal", "seed", "side")
    name: ClassVar[str] = "heuristic"
    #: Positions one decision inside a rule may take to solve exactly (past it: forecasts).
    solve_positions: ClassVar[int] = BOT_SOLVE_POSITIONS

    def __init__(self, cache: OddsCache | None = None, seed: int = 0, side: str = "") -> None:
        self.cache = cache if cache is not None else OddsCache()
        self.optimal = Optimal()
        self.seed = seed
        self.side = side
        self.decisions = 0

    def choose_at(self, request: Choose, position: Position) -> Hashable:
        """The decision given the procedures it is part of: optimal where they declare a
        goal for the deciding side, else by forecasts (also where solving it exactly would
        look at more than :attr:`solve_positions` positions: a game never waits on one
        decision)."""
        try:
            mix = self.optimal.strategy(request, position, self.cache, self.solve_positions)
        except TooMuchWork:
            mix = None
        if mix is None:
            return self(request)
        rng = random.Random(f"kubik-bot:{self.name}:{self.seed}:{self.side}:{self.decisions}")
        self.decisions += 1
        return draw(mix, rng)

    def values(self, request: Choose) -> tuple[Fraction | None, ...]:
        """Each option's exact expected worth (``None`` where it has no forecast)."""
        if not request.forecasts:
            return tuple(None for _ in request.options)
        return tuple(
            None if forecast is None else expected_value(forecast, self.cache)
            for forecast in request.forecasts
        )

    def __call__(self, request: Choose) -> Hashable:
        values = self.values(request)
        if all(value is None for value in values):
            return request.default
        best_index = 0
        best_value: Fraction | None = None
        for index, value in enumerate(values):
            worth = Fraction(0) if value is None else value
            if best_value is None or worth > best_value:
                best_index, best_value = index, worth
        return request.options[best_index]


__all__ = ["HeuristicBot"]
