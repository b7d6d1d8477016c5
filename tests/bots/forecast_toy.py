"""A test-local variant of the toy duel whose decisions carry forecasts.

Each turn a side chooses ``hold`` (no shot: the default, worth 0), ``aim`` (one
shot) or ``volley`` (two shots, and 1 hp of strain when both miss). The shots are
the same rule procedures the game then plays (``shot`` from tests/game/toy.py and
``volley`` below), so the forecasts judge each option by the rule itself. With
``hit_on = 4``: aim is worth 1/2 expected damage, volley 2 × 1/2 - 1/4 = 3/4.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kubik.engine.requests import Call, Choose, Forecast, Procedure, emit, msg
from kubik.game import Scenario
from tests.game.toy import SCENARIO, DuelGame, DuelRuleset, count_hits, shot

FORECAST_ID = "toy_forecast"


@dataclass(frozen=True, slots=True)
class Stance:
    """An option with a label, as real rulesets offer them."""

    id: str

    @property
    def label(self) -> Any:
        return msg("console.value", value=self.id)


HOLD, AIM, VOLLEY = Stance("hold"), Stance("aim"), Stance("volley")


@dataclass(frozen=True, slots=True)
class VolleyResult:
    hits: int
    strain: bool


def volley(hit_on: int) -> Procedure[VolleyResult]:
    """Two shots; the shooter strains (1 hp) when both miss."""
    hits = int((yield Call(shot, (hit_on,), times=2, reduce=count_hits)))
    return VolleyResult(hits, hits == 0)


def volley_worth(result: VolleyResult) -> int:
    return result.hits - int(result.strain)


class ForecastDuel(DuelGame):
    def turn(self, number: int) -> Procedure[None]:
        for side in self.scenario.side_ids:
            enemy = next(s for s in self.scenario.side_ids if s != side)
            if not self.living(side) or not self.living(enemy):
                return
            forecasts = (
                Forecast(score=0.0),
                Forecast(shot, (self.hit_on,), value=int),
                Forecast(volley, (self.hit_on,), value=volley_worth),
            )
            stance = yield Choose(
                (HOLD, AIM, VOLLEY), side, msg("toy.stance", turn=number), HOLD, forecasts
            )
            hits = 0
            if stance == AIM:
                hits = int((yield Call(shot, (self.hit_on,))))
            elif stance == VOLLEY:
                outcome: VolleyResult = yield Call(volley, (self.hit_on,))
                hits = outcome.hits
                if outcome.strain:
                    own = self.living(side)[0]
                    self.hp[own] -= 1
                    yield emit("toy.strain", unit=own)
            if hits:
                target = self.living(enemy)[0]
                self.hp[target] -= hits
                yield emit("toy.damage", unit=target, hits=hits, hp=self.hp[target])


@dataclass(frozen=True)
class ForecastRuleset(DuelRuleset):
    id: str = FORECAST_ID

    def new_game(self, scenario: Scenario, options: Mapping[str, Any]) -> ForecastDuel:
        return ForecastDuel(scenario, options)


FORECAST_GAME = ForecastRuleset()
FORECAST_SCENARIO = SCENARIO.replace('id = "toy_duel.demo"', 'id = "toy_forecast.demo"').replace(
    'ruleset = "toy_duel"', 'ruleset = "toy_forecast"'
)
