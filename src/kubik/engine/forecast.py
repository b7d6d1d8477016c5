"""Weighing a decision's options by the exact odds of the rules they lead to.

A :class:`~kubik.engine.requests.Forecast` names a rule procedure and a value for
its outcomes; here the odds driver computes that procedure's exact distribution,
so bots and the odds shown to players use the rule itself.

>>> from kubik.engine.dice import D6
>>> from kubik.engine.requests import Forecast, Roll
>>> def shot():
...     (v,) = yield Roll(D6, "to hit")
...     return v >= 4
>>> expected_value(Forecast(shot, (), value=int, score=0.25))
Fraction(3, 4)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from kubik.core.keeping import Kept
from kubik.engine.distribution import Distribution
from kubik.engine.odds import OddsCache, OddsDriver, Policy, default_policy
from kubik.engine.requests import AnyForecast, Forecast

#: Expected worths by the ids of what was asked, with those objects (kept alive).
_Worths = dict[tuple[int, ...], tuple[tuple[Any, ...], Fraction]]


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
    total = _exact(forecast.score)
    if forecast.procedure is None:
        return total
    value = forecast.value
    assert value is not None
    args = forecast.args
    same: _Worths | None = None
    if cache is not None:  # the very objects asked about before: no hashing them again
        same = cache.worths_by_ids
        ids = (id(policy), id(forecast.procedure), id(value), *map(id, args))
        found = same.get(ids)
        if found is not None:
            return total + found[1] if total else found[1]
    key = (policy, forecast.procedure, args, value)
    try:
        known = cache.values.get(key) if cache is not None else None
    except TypeError:  # a value without a hash (a closure over a list): not kept
        cache, known, same = None, None, None
    if known is None:
        # integer weights over their common total: one Fraction per worth, none per outcome
        over, pairs = OddsDriver(policy, cache).counted(forecast.procedure, forecast.args)
        known = _mean(value, pairs, over)
        if cache is not None:
            cache.values[key] = known
    if same is not None:
        if len(same) >= 4096:
            same.clear()
        same[ids] = ((policy, forecast.procedure, value, *args), known)  # kept: ids stay theirs
    return total + known if total else known


def _mean(value: Callable[[Any], Any], pairs: tuple[tuple[Any, int], ...], over: int) -> Fraction:
    """The exact mean of ``value`` over outcomes weighed by counts over ``over``: whole
    worths summed as integers, the others by their denominators, one ``Fraction`` at the
    end (the same number ``Σ Fraction(worth) · count / over`` is)."""
    whole = 0
    by_denominator: dict[int, int] = {}  # worths with a denominator: numerators summed
    for outcome, count in pairs:
        worth = value(outcome)
        if type(worth) is int:
            whole += worth * count
            continue
        if type(worth) is float:
            numerator, denominator = worth.as_integer_ratio()
        else:
            exact = Fraction(worth)
            numerator, denominator = exact.numerator, exact.denominator
        if denominator == 1:
            whole += numerator * count
        else:
            by_denominator[denominator] = by_denominator.get(denominator, 0) + numerator * count
    if not by_denominator:
        return Fraction(whole, over)
    common = math.lcm(*by_denominator)
    scaled = sum(n * (common // d) for d, n in by_denominator.items())
    return Fraction(whole * common + scaled, over * common)


#: Plain scores as exact fractions (menus offer the same few scores again and again).
_EXACT: Kept[float, Fraction] = Kept(4096)


def _exact(score: float) -> Fraction:
    """``Fraction(score)``, remembered."""
    found = _EXACT.get(score)
    if found is None:
        found = _EXACT.keep(score, Fraction(score))
    return found


__all__ = ["Forecast", "expected_value", "forecast_distribution"]
