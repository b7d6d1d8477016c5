"""The exact odds of a decision's options, as the table page shows them, remembered by the
server across games.

An option's odds are its rules' own forecast (:func:`~kubik.engine.forecast.forecast_distribution`,
as the console shows them) summarised by :func:`kubik.api.marginals` and the console's
sentences. A forecast is a procedure and its input, the same whichever game asks, so
every game of one server shares one :class:`~kubik.engine.odds.OddsCache` and one memory
of summaries: fifty games at the same crossroads work out a squad's fire once.
Both are bounded (a server runs for days): past their limits they are forgotten and
worked out again on demand.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

from kubik import api
from kubik.api.odds_words import field_sentences
from kubik.engine.forecast import expected_value, forecast_distribution
from kubik.engine.jsonify import outcome_json, outcome_order
from kubik.engine.odds import OddsCache
from kubik.engine.requests import AnyForecast

#: Entries the shared odds cache may hold before it is emptied.
CACHE_ENTRIES = 200_000
#: Summaries (a forecast's outcomes, fields and sentences in one language) remembered.
SUMMARIES = 4_096


class ForecastOdds:
    """Options' odds for every game of a server: exact, worked out once per forecast."""

    def __init__(self) -> None:
        self.cache = OddsCache()
        self._summaries: OrderedDict[Hashable, dict[str, Any] | None] = OrderedDict()

    def of(self, forecast: AnyForecast, lang: str) -> dict[str, Any]:
        """The option's worth (``expected``) and, when its forecast names a procedure,
        every outcome exactly, each numeric field's marginals and sentences for people."""
        result: dict[str, Any] = {"expected": round(float(expected_value(forecast, self.cache)), 4)}
        summary = self._summary(forecast, lang)
        if summary is not None:
            result.update(summary)
        if len(self.cache) > CACHE_ENTRIES:
            self.cache.clear()
        return result

    def _summary(self, forecast: AnyForecast, lang: str) -> dict[str, Any] | None:
        if forecast.procedure is None:
            return None
        key = (forecast.procedure, forecast.args, lang)
        try:
            if key in self._summaries:
                self._summaries.move_to_end(key)
                return self._summaries[key]
        except TypeError:  # an input without a hash: worked out each time
            return _summary(forecast, self.cache, lang)
        summary = _summary(forecast, self.cache, lang)
        self._summaries[key] = summary
        if len(self._summaries) > SUMMARIES:
            self._summaries.popitem(last=False)
        return summary


def _summary(forecast: AnyForecast, cache: OddsCache, lang: str) -> dict[str, Any] | None:
    distribution = forecast_distribution(forecast, cache)
    if distribution is None:
        return None
    ordered = sorted(distribution.items(), key=lambda kv: outcome_order(kv[0]))
    return {
        "outcomes": [
            {"outcome": outcome_json(o), "probability": str(p), "p": round(float(p), 4)}
            for o, p in ordered
        ],
        "fields": api.marginals(distribution),  # the API's own summary
        "sentences": field_sentences([(o, float(p)) for o, p in ordered], lang),
    }


__all__ = ["CACHE_ENTRIES", "SUMMARIES", "ForecastOdds"]
