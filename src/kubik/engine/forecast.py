"""Weighing a decision's options by the exact odds of the rules they lead to.

A :class:`~kubik.engine.requests.Forecast` names a rule procedure and a value for
its outcomes; here the odds driver computes that procedure's exact distribution,
so bots and the odds shown to players use the rule itself.

>>> from kubik.dice import D6
>>> from kubik.engine.requests import Forecast, Roll
>>> def shot():
...     (v,) = yield Roll(D6, "to hit")
...     return v >= 4
>>> expected_value(Forecast(shot, (), value=int, score=0.25))
Fraction(3, 4)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from kubik.engine.distribution import Distribution
from kubik.engine.odds import OddsCache, OddsDriver, Policy, default_policy
from kubik.engine.requests import AnyForecast, Forecast


def forecast_distribution(
    forecast: AnyForecast, cache: OddsCache | None = None, policy: Policy = default_policy
) -> Distribution[Any] | None:
    """The exact distribution of the forecast's procedure (``None`` for a plain score)."""
    if forecast.procedure is None:
        return None
    return OddsDriver(policy, cache).distribution(forecast.procedure, forecast.args)


def expected_value(
    forecast: AnyForecast, cache: OddsCache | None = None, policy: Policy = default_policy
) -> Fraction:
    """The option's worth: the expected value of its outcomes plus its plain score.

    Exact (floats in values and scores are taken at their exact binary value), so
    comparing two options never depends on rounding order.
    """
    total = Fraction(forecast.score)
    distribution = forecast_distribution(forecast, cache, policy)
    if distribution is not None:
        assert forecast.value is not None
        total += sum(
            (p * Fraction(forecast.value(outcome)) for outcome, p in distribution.items()),
            Fraction(0),
        )
    return total


__all__ = ["Forecast", "expected_value", "forecast_distribution"]
