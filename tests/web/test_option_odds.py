"""The options' odds of a game are worked out in the odds process: the same figures as the
rules' own forecasts give where the game is, and a slow forecast holds up no game."""

from __future__ import annotations

import pickle
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kubik import api
from kubik.api.odds_words import field_sentences
from kubik.engine.dice import D6
from kubik.engine.forecast import expected_value, forecast_distribution
from kubik.engine.jsonify import distribution_outcome_json, outcome_order
from kubik.engine.odds import OddsCache
from kubik.engine.requests import AnyForecast, Choose, Forecast, Roll
from kubik.game import known_rulesets
from kubik.game.scenario import load_scenario
from kubik.game.session import HUMAN, GameSession
from kubik.web import option_odds
from kubik.web.app import create_app
from kubik.web.forecasts import ForecastOdds
from kubik.web.guard import LOOPBACK_NAMES

from .conftest import LOCAL, new_table


def odds_where_the_game_is(forecast: AnyForecast, cache: OddsCache, lang: str) -> dict[str, Any]:
    """An option's odds worked out in the game's own process, as the table did before."""
    found: dict[str, Any] = {"expected": round(float(expected_value(forecast, cache)), 4)}
    distribution = forecast_distribution(forecast, cache)
    assert distribution is not None
    ordered = sorted(distribution.items(), key=lambda kv: outcome_order(kv[0]))
    found["outcomes"] = [
        {"outcome": distribution_outcome_json(o), "probability": str(p), "p": round(float(p), 4)}
        for o, p in ordered
    ]
    found["fields"] = api.marginals(distribution)
    found["sentences"] = field_sentences([(o, float(p)) for o, p in ordered], lang)
    return found


@pytest.mark.parametrize("ruleset", known_rulesets())
def test_the_odds_process_gives_the_figures_the_rules_forecast_gives_in_the_game(
    ruleset: str,
) -> None:
    scenario = load_scenario(f"{ruleset}.demo")
    session = GameSession(scenario, 4, controllers=dict.fromkeys(scenario.side_ids, HUMAN))
    session.advance()
    apart, here = ForecastOdds(), OddsCache()
    compared = 0
    for _ in range(120):
        request = session.pending
        if request is None:
            break
        if isinstance(request, Choose):
            for option in request.options:
                forecast = request.forecast(option)
                if forecast is None or forecast.procedure is None:
                    continue
                # across the process boundary and back, as the server sends it
                procedure, args = pickle.loads(pickle.dumps((forecast.procedure, forecast.args)))
                found = pickle.loads(pickle.dumps(apart.of(procedure, args, "ru")))
                assert option_odds.odds_json(forecast, found) == odds_where_the_game_is(
                    forecast, here, "ru"
                )
                compared += 1
            session.answer(request.default if request.default is not None else request.options[0])
        else:  # virtual dice roll themselves: only decisions wait
            break
        session.advance()
    assert compared > 0


def many_dice() -> Generator[Any, Any, tuple[int, ...]]:
    """Eight dice whose every order is an outcome of its own: millions of paths."""
    values = []
    for _ in range(8):
        (value,) = yield Roll(D6, "die")
        values.append(value)
    return tuple(values)


def test_a_slow_forecast_holds_up_neither_its_game_nor_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    slow = Forecast(many_dice, (), value=len)
    named = option_odds.option_forecasts

    def slow_in_the_first_game(game: Any, side: str | None) -> Any:
        asks = named(game, side)
        if asks is None or game.id != first_game[0]:
            return asks
        return [(i, slow, pickle.dumps((slow.procedure, slow.args))) for i, _, _ in asks]

    monkeypatch.setattr(option_odds, "option_forecasts", slow_in_the_first_game)
    first_game: list[str] = [""]
    app = create_app(tmp_path / "games.sqlite3", hosts=LOOPBACK_NAMES, odds_seconds=3.0)
    with TestClient(app, base_url=LOCAL) as client:
        stuck, other = (new_table(client, scenario="steel_war.demo", seed=s) for s in (3, 4))
        first_game[0] = stuck.id
        start = time.monotonic()
        seen = stuck.get(stuck.tokens["steel"])
        assert time.monotonic() - start < 2.5  # answered without its odds
        assert all(o["odds"] == {"pending": True} for o in seen["pending"]["options"])
        game = other.get(other.spectator)
        for _ in range(6):  # the other game is played on meanwhile
            start = time.monotonic()
            game = other.answer(other.get(other.tokens[game["waiting_for"]]), 0)
            assert time.monotonic() - start < 2.5
        deadline = time.monotonic() + 60
        while True:  # past its time limit, the slow forecast says why it has no odds
            seen = stuck.get(stuck.tokens["steel"])
            odds = seen["pending"]["options"][0]["odds"]
            if "unavailable" in odds:
                break
            assert time.monotonic() < deadline, odds
            time.sleep(0.2)
        assert "longer than 3 s" in odds["unavailable"]
        deadline = time.monotonic() + 60
        while True:  # and the odds process, started again, works out the other game's
            mine = other.get(other.tokens[game["waiting_for"]])
            found = [o["odds"] for o in mine["pending"]["options"] if o["odds"]]
            if not any(o.get("pending") for o in found):
                break
            assert time.monotonic() < deadline, found
            time.sleep(0.2)
        assert not any("unavailable" in o for o in found)
