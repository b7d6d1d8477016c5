"""The exact odds of a decision's options, as the table page shows them, worked out in the
odds process (:mod:`kubik.web.odds_pool`) and remembered there across games.

An option's odds are its rules' own forecast: the exact distribution of the procedure it
leads to (:meth:`~kubik.engine.odds.OddsDriver.distribution`, as the console shows them),
summarised by :func:`kubik.api.marginals` and the console's sentences. A forecast is a
procedure and its input, the same whichever game asks, so the odds process keeps one
:class:`~kubik.engine.odds.OddsCache` and one memory of summaries for every game of the
server: fifty games at the same crossroads work out a squad's fire once. Both are bounded
(a server runs for days): past their limits they are forgotten and worked out again.

What an option is worth to the side choosing (``expected``: the bot's measure, its value
of each outcome plus its score) needs the forecast's ``value``, a function the game made
that cannot cross to another process: the odds process sends the outcomes back with their
exact weights, and :func:`worth` sums them where the forecast is, the same fraction
:func:`~kubik.engine.forecast.expected_value` gives.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any

from kubik import api
from kubik.api.odds_words import field_sentences
from kubik.engine.jsonify import distribution_outcome_json, outcome_order
from kubik.engine.odds import OddsCache, OddsDriver, default_policy
from kubik.engine.requests import AnyForecast

#: Entries the odds process's cache may hold before it is emptied.
CACHE_ENTRIES = 200_000
#: Summaries (a forecast's outcomes, fields and sentences in one language) remembered.
SUMMARIES = 4_096


class ForecastOdds:
    """In the odds process: options' odds for every game of a server, exact, worked out
    once per forecast."""

    def __init__(self) -> None:
        self.cache = OddsCache()
        self._summaries: OrderedDict[Hashable, dict[str, Any]] = OrderedDict()

    def of(self, procedure: Callable[..., Any], args: tuple[Any, ...], lang: str) -> dict[str, Any]:
        """``summary``: every outcome exactly, each numeric field's marginals and sentences
        for people; ``over`` and ``pairs``: each outcome's whole weight over the total
        (for :func:`worth`)."""
        key = (procedure, args, lang)
        try:
            found = self._summaries.get(key)
        except TypeError:  # an input without a hash: worked out each time
            return self._work(procedure, args, lang)
        if found is None:
            found = self._summaries[key] = self._work(procedure, args, lang)
            if len(self._summaries) > SUMMARIES:
                self._summaries.popitem(last=False)
        else:
            self._summaries.move_to_end(key)
        if len(self.cache) > CACHE_ENTRIES:
            self.cache.clear()
        return found

    def _work(
        self, procedure: Callable[..., Any], args: tuple[Any, ...], lang: str
    ) -> dict[str, Any]:
        driver = OddsDriver(default_policy, self.cache)
        over, pairs = driver.counted(procedure, args)
        distribution = driver.distribution(procedure, args)
        ordered = sorted(distribution.items(), key=lambda kv: outcome_order(kv[0]))
        summary = {
            "outcomes": [
                {
                    "outcome": distribution_outcome_json(o),
                    "probability": str(p),
                    "p": round(float(p), 4),
                }
                for o, p in ordered
            ],
            "fields": api.marginals(distribution),  # the API's own summary
            "sentences": field_sentences([(o, float(p)) for o, p in ordered], lang),
        }
        return {"summary": summary, "over": over, "pairs": tuple(pairs)}


def worth(forecast: AnyForecast, over: int = 1, pairs: tuple[tuple[Any, int], ...] = ()) -> float:
    """What the option is worth to the side choosing, rounded as the page shows it: its
    value of each outcome weighed by the outcome's ``count / over``, plus its score (exact,
    as :func:`~kubik.engine.forecast.expected_value`; ``value`` reads only its outcome)."""
    total = Fraction(forecast.score)
    value = forecast.value
    if value is not None and pairs:
        total += sum((Fraction(value(o)) * count for o, count in pairs), Fraction(0)) / over
    return round(float(total), 4)


__all__ = ["CACHE_ENTRIES", "SUMMARIES", "ForecastOdds", "worth"]
