"""How good an option looks before it is taken: the rules' own procedures on the measured
situation, valued for the side choosing; and plain positional scores for moves.

A heuristic bot takes the option with the highest expected value (the exact odds of
the forecast's procedure, memoised on its hashable arguments). What no dice decide
is a taste, ``[bot]`` in ``data/game.toml`` (:func:`kubik.game.battle.taste`).
Procedures defined here only chain rule procedures in the order the battle Calls
them (observe then fire, the charge then the defender's test then a round of
melee); they decide nothing themselves.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache, lru_cache

from kubik.core.keeping import Kept
from kubik.engine import AnyForecast, Call, Forecast, Procedure
from kubik.engine.dice import Die
from kubik.engine.memo import by_identity
from kubik.engine.requests import AnyCall, RuleIds
from kubik.game.battle import taste
from kubik.rulesets.steel_war.charge import (
    ChargeOutcome,
    DefenderMoraleOutcome,
    DefensiveFire,
    charge,
    defender_morale,
    same_charge_distance,
)
from kubik.rulesets.steel_war.damage import potential_casualties
from kubik.rulesets.steel_war.fire import (
    Cover,
    Effect,
    FireGroup,
    FireOutcome,
    FireTarget,
    fire_action,
    fire_target,
)
from kubik.rulesets.steel_war.inspiration import (
    CommunicationOutcome,
    Contact,
    Inspiration,
    InspirationOutcome,
    communication_test,
    inspire,
)
from kubik.rulesets.steel_war.melee_pairing import Bout
from kubik.rulesets.steel_war.melee_round import RoundLosses, melee_round
from kubik.rulesets.steel_war.morale_levels import MoraleLevel
from kubik.rulesets.steel_war.movement import TerrainClass, combat_move
from kubik.rulesets.steel_war.no_step_back import (
    NoStepBackOutcome,
    NoStepBackResult,
    Stand,
    no_step_back_test,
)
from kubik.rulesets.steel_war.observation import ObservationOutcome, observe
from kubik.rulesets.steel_war.reaction import ReactionOutcome, reaction_test
from kubik.rulesets.steel_war.reorganisation import Care, ReorganiseOutcome, reorganise
from kubik.rulesets.steel_war.unsuppressing import UnsuppressOutcome, unsuppress


@cache  # (the tastes are read once per process, as the layer reads them)
def weight(name: str) -> float:
    """A bot taste from ``[bot]`` (data/game.toml)."""
    return taste("steel_war", name)


# --- fire -----------------------------------------------------------------------------------


def fire_value(outcome: FireOutcome) -> float:
    """Enemy casualties, and a little for the suppression marker."""
    marker = weight("suppressed") if outcome.effect is not Effect.NONE else 0.0
    return outcome.killed * weight("killed") + outcome.wounded * weight("wounded") + marker


@by_identity
def odds_target(group: FireGroup, target: FireTarget) -> FireTarget:
    """The same target for the odds: a fire hits at most its potential casualties
    (SW-DMG-01), so models beyond them change nothing, and targets of every larger
    size share one memoised distribution.

    >>> from kubik.engine.dice import D4, D6, D8
    >>> odds_target(FireGroup((D8, D8), D8), FireTarget(D6, D4, 9)).models
    3
    """
    cap = potential_casualties(group.pool, target.range_die)
    return replace(target, models=min(target.models, cap))


def fire_forecast(group: FireGroup, target: FireTarget, score: float = 0.0) -> AnyForecast:
    """Fire at a target: the fire rule itself on the measured situation."""
    return Forecast(fire_action, (group, odds_target(group, target)), value=fire_value, score=score)


#: A fire that was not made.
NO_FIRE = FireOutcome(Effect.NONE, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class Spotting:
    """An observation and the fire that followed it (none when nothing was spotted)."""

    spotted: bool
    fire: FireOutcome = NO_FIRE


def observe_then_fire(
    observer: Die,
    hiding: Die,
    rules: tuple[RuleIds, RuleIds],
    then: tuple[FireGroup, FireTarget] | None,
) -> Procedure[Spotting]:
    """An observation (SW-ABSENT-03), then — the target spotted — the fire it allows the
    observer in the same activation, as the battle Calls them."""
    watch, fire = _observe_calls(observer, hiding, rules, then)
    seen: ObservationOutcome = yield watch
    if not seen.spotted or fire is None:
        return Spotting(seen.spotted)
    fired: FireOutcome = yield fire
    spotted: Spotting = fire.promised(fired)
    return spotted


@by_identity
def _observe_calls(
    observer: Die,
    hiding: Die,
    rules: tuple[RuleIds, RuleIds],
    then: tuple[FireGroup, FireTarget] | None,
) -> tuple[AnyCall, AnyCall | None]:
    """The observation's call and the fire's (built once: exact odds replay them often)."""
    watch = Call(observe, (observer, hiding, rules[0], rules[1]))
    if then is None:
        return watch, None
    group, target = then
    return watch, Call(fire_action, (group, odds_target(group, target)), tail=True, then=_fired)


def _fired(outcome: FireOutcome) -> Spotting:
    """A spotted target's fire, as the observation's outcome (the fire is the tail call)."""
    return Spotting(True, outcome)


@dataclass(frozen=True, slots=True)
class SpottingValue:
    """A spotted enemy is worth the observer's own fire at it, and something for each
    other unit of its side still to act this turn that can fire at it then (``friends``)."""

    friends: int

    def __call__(self, outcome: Spotting) -> float:
        if not outcome.spotted:
            return 0.0
        return (
            weight("spotted")
            + self.friends * weight("spotted_for_friend")
            + fire_value(outcome.fire)
        )


def observe_forecast(
    observer: Die,
    hiding: Die,
    rules: tuple[RuleIds, RuleIds],
    then: tuple[FireGroup, FireTarget] | None,
    friends: int = 0,
) -> AnyForecast:
    """Observe a hiding unit: worth the fire the squad can make at it once spotted (its
    other action), and what spotting it gives the rest of its side this turn."""
    return Forecast(
        observe_then_fire, (observer, hiding, rules, then), value=SpottingValue(friends)
    )


# --- charges --------------------------------------------------------------------------------


def odds_distance(distance: float) -> float:
    """The same charge distance for the odds: the charge rule's own equivalence
    (:func:`~kubik.rulesets.steel_war.charge.same_charge_distance`).

    >>> odds_distance(7.3), odds_distance(8.0), odds_distance(0.4)
    (8.0, 8.0, 1.0)
    """
    return same_charge_distance(distance)


def free_fire_at(
    group: FireGroup,
    shooter: Die,
    attackers: tuple[Die, int, bool],
    remaining: float,
) -> Procedure[FireOutcome]:
    """The defender's free fire at a charge that stopped ``remaining`` inches short, its
    range die measured from there (SW-CC-04, SW-FIRE-09): for the odds (the fire is its
    tail call, so its outcomes are this step's without a replay for each)."""
    fired: FireOutcome = yield _free_fire_call(group, shooter, attackers, remaining)
    return fired


#: :func:`_free_fire_call`'s calls by the ids of the fire's sides and the inches left
#: (the charge works those out anew each time its odds replay it), the sides kept alive.
_FREE_FIRES: Kept[tuple[int, int, int, float], tuple[tuple[object, ...], AnyCall]] = Kept(256)


def _free_fire_call(
    group: FireGroup, shooter: Die, attackers: tuple[Die, int, bool], remaining: float
) -> AnyCall:
    """:func:`free_fire_at`'s fire (built once per situation: exact odds replay it)."""
    key = (id(group), id(shooter), id(attackers), remaining)
    known = _FREE_FIRES.get(key)
    if known is not None:  # the kept sides are alive: ids equal, objects the same
        return known[1]
    armour, models, flak = attackers
    target = fire_target(shooter, remaining, False, Cover.NONE, armour, models, flak)
    made = Call(fire_action, (group, odds_target(group, target)), tail=True)
    _FREE_FIRES.keep(key, ((group, shooter, attackers), made))
    return made


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
    free_fire: tuple[FireGroup, Die, tuple[Die, int, bool]] | None,
    bouts: tuple[Bout, ...],
) -> Procedure[AssaultOutcome]:
    """The charge, the defender's morale test and the first melee round, in order, by the
    rules' procedures (nothing else): what a charge is likely to achieve."""
    went_call, stand_call, melee_call = _assault_calls(
        attacker, defender, distance, terrain, free_fire, bouts
    )
    went: ChargeOutcome = yield went_call
    if not went.reached:
        return AssaultOutcome(False, False, 0, 0)
    stand: DefenderMoraleOutcome = yield stand_call
    if not stand.melee:
        return AssaultOutcome(True, True, 0, 0)
    losses: RoundLosses = yield melee_call
    fought: AssaultOutcome = melee_call.promised(losses)
    return fought


def _fought(losses: RoundLosses) -> AssaultOutcome:
    """The first melee round of a charge that reached a defender who stood, as the
    charge's outcome (the round is :func:`assault_forecast`'s tail call: its odds map the
    round's outcomes instead of replaying the charge and the morale test for each)."""
    return AssaultOutcome(True, False, losses.attacker, losses.defender)


@by_identity
def _assault_calls(
    attacker: tuple[Die, int, MoraleLevel],
    defender: tuple[Die, int, int, RuleIds],
    distance: float,
    terrain: TerrainClass,
    free_fire: tuple[FireGroup, Die, tuple[Die, int, bool]] | None,
    bouts: tuple[Bout, ...],
) -> tuple[AnyCall, AnyCall, AnyCall]:
    """:func:`assault_forecast`'s three calls (built once: exact odds replay them often)."""
    quality, leadership, morale = attacker
    d_quality, d_leadership, threat, threat_rules = defender
    fire: DefensiveFire | int = 0
    if free_fire is not None:
        fire = DefensiveFire(free_fire_at, free_fire)
    return (
        Call(charge, (quality, leadership, morale, distance, terrain, fire)),
        Call(defender_morale, (d_quality, d_leadership, threat, threat_rules)),
        Call(melee_round, (bouts,), tail=True, then=_fought),
    )


def assault_value(outcome: AssaultOutcome) -> float:
    """Enemy men lost and enemies routed, less own men lost."""
    value = weight("reached") if outcome.reached else 0.0
    if outcome.routed:
        value += weight("routed")
    return value + weight("killed") * (outcome.defender_lost - outcome.attacker_lost)


# --- the squad's own actions -----------------------------------------------------------------


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


def reorganise_forecast(casualties: int, care: Care, score: float = 0.0) -> AnyForecast:
    """Reorganisation's fates of the unverified casualties (SW-REORG-02)."""
    return Forecast(reorganise, (casualties, care), value=reorganise_value, score=score)


def inspire_value(outcome: InspirationOutcome) -> float:
    """A morale level regained."""
    return weight("level_raised") if outcome.raised else 0.0


def inspire_forecast(attempt: Inspiration) -> AnyForecast:
    """The officer's inspiration attempt (SW-MOR-08..10)."""
    return Forecast(inspire, (attempt,), value=inspire_value)


def _passed_on(outcome: CommunicationOutcome) -> float:
    return weight("extra_action") if outcome.communicated else 0.0


def pass_forecast(
    quality: Die,
    leadership: int,
    other: int,
    contact: Contact,
    psi: tuple[Die | None, Die | None],
    score: float,
) -> AnyForecast:
    """Passing an action: the communication test (SW-MOR-09, SW-PSI-04) that decides
    whether the squad gets it, worth what an extra action is to it."""
    return Forecast(
        communication_test,
        (quality, leadership, other, 0, contact, *psi),
        value=_passed_on,
        score=score,
    )


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


@dataclass(frozen=True, slots=True)
class StandValue:
    """What «Ни шагу назад!» is worth to a squad facing ``enemies`` squads with ``men``
    men: berserk against them, or the whole squad lost."""

    enemies: int
    men: int

    def __call__(self, outcome: NoStepBackOutcome) -> float:
        if outcome.result is NoStepBackResult.BERSERK:
            return weight("stand_fast_per_enemy") * self.enemies
        if outcome.result is NoStepBackResult.NOT_ALLOWED:
            return 0.0
        return -weight("squad_lost_per_man") * self.men


def stand_forecast(stand: Stand, men: int) -> AnyForecast:
    """The voluntary «Ни шагу назад!» test (SW-NSN-01..03)."""
    return Forecast(
        no_step_back_test, (stand,), value=StandValue(len(stand.enemy_levels_in_sight), men)
    )


@dataclass(frozen=True, slots=True)
class CombatMoveValue:
    """A combat move toward a goal: each rolled inch worth ``per_inch``."""

    per_inch: float

    def __call__(self, moved: int) -> float:
        return self.per_inch * moved


@lru_cache(maxsize=256)  # (an immutable forecast: every menu offers the same few again)
def combat_move_forecast(terrain: TerrainClass, per_inch: float, score: float) -> AnyForecast:
    """The combat move's rolled inches (SW-ABSENT-02, SW-MOVE-02)."""
    return Forecast(combat_move, (terrain,), value=CombatMoveValue(per_inch), score=score)


__all__ = [
    "AssaultOutcome",
    "CombatMoveValue",
    "GroundValue",
    "Spotting",
    "SpottingValue",
    "StandValue",
    "assault_forecast",
    "assault_value",
    "combat_move_forecast",
    "fire_forecast",
    "fire_value",
    "free_fire_at",
    "ground_forecast",
    "inspire_forecast",
    "observe_forecast",
    "observe_then_fire",
    "odds_distance",
    "odds_target",
    "pass_forecast",
    "reorganise_forecast",
    "stand_forecast",
    "unsuppress_forecast",
    "weight",
]
