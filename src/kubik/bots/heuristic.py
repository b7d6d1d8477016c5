"""The heuristic bot: takes the option whose forecast is worth most, by exact odds.

Each option of a ``Choose`` may carry a :class:`~kubik.engine.requests.Forecast`:
the rule procedure it leads to, on the situation it would meet, and what each
outcome is worth to the side choosing. The bot asks the odds driver
(:func:`kubik.engine.forecast.expected_value`) for the exact expected worth, so it
judges moves by the rules themselves and never by a private copy of one.

>>> from kubik.dice import D6
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

from collections.abc import Hashable
from fractions import Fraction
from typing import ClassVar

from kubik.engine.forecast import expected_value
from kubik.engine.odds import OddsCache
from kubik.engine.requests import Choose


class HeuristicBot:
    """Picks the option with the highest exact expected value of its forecast.

    Ties go to the earlier option (option order is the rule writer's preference).
    An option without a forecast (where nothing can be foreseen) is worth 0, a
    neutral move; a request with no forecasts at all gets its default. The odds
    cache is shared across decisions, so a rule's distribution on one situation is
    computed once per game (or once per cache the caller passes in).
    """

    __slots__ = ("cache",)
    name: ClassVar[str] = "heuristic"

    def __init__(self, cache: OddsCache | None = None) -> None:
        self.cache = cache if cache is not None else OddsCache()

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
