"""How good an option looks before it is taken: the rules' own procedures on the measured
situation, valued for the side choosing; and plain positional scores for moves.

A heuristic bot takes the option with the highest expected value (the exact odds of
the forecast's procedure, memoised on its hashable arguments). Weights live in
``data/game.toml`` (``[game_forecast]``): they are a bot's taste, not a rule.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

from kubik.dice import Die
from kubik.engine import (
    AnyForecast,
    Call,
    Forecast,
    Procedure,
)
from kubik.engine.requests import RuleIds
from kubik.rulesets.steel_war.charge import (
    ChargeOutcome,
    DefenderMoraleOutcome,
    DefensiveFire,
    charge,
    defender_morale,
    same_charge_distance,
)
from kubik.rulesets.steel_war.damage import potential_casualties
from kubik.rulesets.steel_war.fire import Effect, FireGroup, FireOutcome, FireTarget, fire_action
from kubik.rulesets.steel_war.inspiration import Inspiration, InspirationOutcome, inspire
from kubik.rulesets.steel_war.melee import Bout, RoundLosses, melee_round
from kubik.rulesets.steel_war.morale_levels import MoraleLevel
from kubik.rulesets.steel_war.movement import TerrainClass
from kubik.rulesets.steel_war.reaction import ReactionOutcome, reaction_test
from kubik.rulesets.steel_war.reorganisation import Care, ReorganiseOutcome, reorganise
from kubik.rulesets.steel_war.suppression import UnsuppressOutcome, unsuppress

from .field import game_data


@cache
def weight(name: str) -> float:
    """A forecast weight from ``[game_forecast]``."""
    return float(game_data()["game_forecast"][name])


def fire_value(outcome: FireOutcome) -> float:
    """Enemy casualties, and a little for the suppression marker."""
    marker = weight("suppressed") if outcome.effect is not Effect.NONE else 0.0
    return outcome.killed * weight("killed") + outcome.wounded * weight("wounded") + marker


def odds_target(group: FireGroup, target: FireTarget) -> FireTarget:
    """The same target for the odds: a fire hits at most its potential casualties
    (SW-DMG-01), so models beyond them change nothing, and targets of every larger
    size share one memoised distribution.

    >>> from kubik.dice import D4, D6, D8
    >>> odds_target(FireGroup((D8, D8), D8), FireTarget(D6, D4, 9)).models
    3
    """
    cap = potential_casualties(group.pool, target.range_die)
    return replace(target, models=min(target.models, cap))


def fire_forecast(group: FireGroup, target: FireTarget) -> AnyForecast:
    """Fire at a target: the fire rule itself on the measured situation."""
    return Forecast(fire_action, (group, odds_target(group, target)), value=fire_value)


def odds_distance(distance: float) -> float:
    """The same charge distance for the odds: the charge rule's own equivalence
    (:func:`~kubik.rulesets.steel_war.charge.same_charge_distance`), so one memoised
    distribution serves every distance that goes the same way.

    >>> odds_distance(7.3), odds_distance(8.0), odds_distance(0.4)
    (8.0, 8.0, 1.0)
    """
    return same_charge_distance(distance)


@dataclass(frozen=True, slots=True)
class AssaultOutcome:
    """A charge as a bot sees it: did it reach, did the defender give way, melee losses."""

    reached: bool
    routed: bool
    attacker_lost: int
    defender_lost: int


def assault_forecast(
    attacker: tuple[Die, int, MoraleLevel],
    defender: tuple[Die, int, int, RuleIds],
    distance: float,
    terrain: TerrainClass,
    free_fire: tuple[FireGroup, FireTarget] | None,
    bouts: tuple[Bout, ...],
) -> Procedure[AssaultOutcome]:
    """The charge, the defender's morale test and the first melee round, in order, by the
    rules' procedures (nothing else): what a charge is likely to achieve."""
    quality, leadership, morale = attacker
    d_quality, d_leadership, threat, threat_rules = defender
    fire: DefensiveFire | int = 0
    if free_fire is not None:
        fire = DefensiveFire(fire_action, free_fire)
    went: ChargeOutcome = yield Call(charge, (quality, leadership, morale, distance, terrain, fire))
    if not went.reached:
        return AssaultOutcome(False, False, 0, 0)
    stand: DefenderMoraleOutcome = yield Call(
        defender_morale, (d_quality, d_leadership, threat, threat_rules)
    )
    if not stand.melee:
        return AssaultOutcome(True, True, 0, 0)
    losses: RoundLosses = yield Call(melee_round, (bouts,))
    return AssaultOutcome(True, False, losses.attacker, losses.defender)


def assault_value(outcome: AssaultOutcome) -> float:
    """Enemy men lost and enemies routed, less own men lost."""
    value = weight("reached") if outcome.reached else 0.0
    if outcome.routed:
        value += weight("level_raised")
    return value + weight("killed") * (outcome.defender_lost - outcome.attacker_lost)


def unsuppress_value(outcome: UnsuppressOutcome) -> float:
    """Markers removed."""
    return outcome.removed * weight("marker_removed")


def unsuppress_forecast(quality: Die, leadership: int, markers: int) -> AnyForecast:
    """One unsuppress action (SW-SUP-03)."""
    return Forecast(unsuppress, (quality, leadership, markers, 1), value=unsuppress_value)


def reorganise_value(outcome: ReorganiseOutcome) -> float:
    """Men back in the ranks, and the threat of unverified casualties gone."""
    settled = outcome.died + outcome.stabilised + outcome.returned
    return outcome.returned * weight("returned") + settled * weight("unverified_settled")


def reorganise_forecast(casualties: int, care: Care) -> AnyForecast:
    """Reorganisation's fates of the unverified casualties (SW-REORG-02)."""
    return Forecast(reorganise, (casualties, care), value=reorganise_value)


def inspire_value(outcome: InspirationOutcome) -> float:
    """A morale level regained."""
    return weight("level_raised") if outcome.raised else 0.0


def inspire_forecast(attempt: Inspiration) -> AnyForecast:
    """The officer's inspiration attempt (SW-MOR-08..10)."""
    return Forecast(inspire, (attempt,), value=inspire_value)


@dataclass(frozen=True, slots=True)
class GroundValue:
    """What going to ground is worth: more the more enemies can shoot at the squad."""

    threatened: int

    def __call__(self, outcome: ReactionOutcome) -> float:
        return weight("go_to_ground") * self.threatened if outcome.passed else 0.0


def ground_forecast(
    quality: Die, leadership: int, threat: int, berserk: bool, threatened: int
) -> AnyForecast:
    """The reaction test of going to ground (SW-FIRE-07, SW-REACT-02)."""
    return Forecast(
        reaction_test, (quality, leadership, threat, berserk), value=GroundValue(threatened)
    )


__all__ = [
    "AssaultOutcome",
    "GroundValue",
    "assault_forecast",
    "assault_value",
    "fire_forecast",
    "fire_value",
    "ground_forecast",
    "inspire_forecast",
    "odds_distance",
    "odds_target",
    "reorganise_forecast",
    "unsuppress_forecast",
    "weight",
]
