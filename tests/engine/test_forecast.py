"""Forecasts: options weighed by the exact odds of the procedure they lead to."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from kubik.core.errors import ProcedureError
from kubik.engine import Choose, Forecast, Roll, expected_value, forecast_distribution, msg
from kubik.engine.dice import D6, D8
from kubik.engine.odds import OddsCache
from kubik.engine.requests import Procedure, option_label


def best_of_two(target: int) -> Procedure[int]:
    """Hits: how many of a d6 and a d8 reach ``target``."""
    values = yield Roll((D6, D8), "shots")
    return sum(1 for v in values if v >= target)


def test_expected_value_equals_brute_force_enumeration() -> None:
    forecast = Forecast(best_of_two, (5,), value=lambda hits: hits * 2, score=0.5)
    brute = Fraction(
        sum(2 * ((a >= 5) + (b >= 5)) for a, b in itertools.product(range(1, 7), range(1, 9))),
        48,
    )
    assert expected_value(forecast, OddsCache()) == brute + Fraction(1, 2)


def test_distribution_sums_to_one_and_plain_scores_have_none() -> None:
    distribution = forecast_distribution(Forecast(best_of_two, (5,), value=int))
    assert distribution is not None and sum(distribution.values()) == 1
    assert forecast_distribution(Forecast(score=1.0)) is None
    assert expected_value(Forecast(score=1.5)) == Fraction(3, 2)


def test_a_choose_gives_one_forecast_per_option() -> None:
    near, far = Forecast(best_of_two, (3,), value=int), Forecast(best_of_two, (6,), value=int)
    request = Choose(("near", "far", "wait"), "a", "target?", forecasts=(near, far, None))
    assert request.forecast("far") is far and request.forecast("wait") is None
    assert Choose(("x",), "a", "r").forecast("x") is None
    with pytest.raises(ProcedureError, match="2 options but 1 forecasts"):
        Choose(("x", "y"), "a", "r", forecasts=(near,))
    with pytest.raises(ProcedureError, match="needs a value"):
        Forecast(best_of_two, (3,))  # type: ignore[call-overload]


def test_option_labels_are_messages_only() -> None:
    class Labelled:
        label = msg("game.name", en="x", ru="х")

    assert option_label(Labelled()) == msg("game.name", en="x", ru="х")
    assert option_label("plain") is None
