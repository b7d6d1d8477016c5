"""Observation and spotting in a battle (SW-ABSENT-03 default, SW-PSI-11/12).

A squad in cover or gone to ground hides from the enemy's fire until it gives itself
away by firing or charging (:func:`~kubik.rulesets.steel_war.observation.is_hidden`);
an enemy who sees it spends an action on «наблюдение» — its quality die against the
hiding squad's range die, as for shooting (SW-FIRE-09) — and once it rolls higher,
its side may fire at that squad until the end of the turn. A psionic observing may
first use psi-detection and roll his psi die (SW-PSI-11); a hiding squad whose
psionic averted the eyes rolls his psi die against observation (SW-PSI-12).
"""

from __future__ import annotations

from kubik.dice import Die
from kubik.engine import AnyForecast, Call, Procedure, Verdict, emit
from kubik.engine.requests import RuleIds
from kubik.rulesets.steel_war.activation import ActionType, actions_per_activation
from kubik.rulesets.steel_war.fire import max_zone, may_shoot, range_die, range_rules, range_zone
from kubik.rulesets.steel_war.observation import (
    ObservationOutcome,
    better_die,
    may_observe,
    observe,
)
from kubik.rulesets.steel_war.psionics import psi_die_at
from kubik.rulesets.steel_war.psionics_actions import PsiAttempt, PsiResult, psi_detection

from . import shooting
from .board import Battlefield
from .forecast import observe_forecast
from .options import Observe
from .state import Squad


def dice(
    game: Battlefield, observer: Squad, target: Squad, psi: bool
) -> tuple[Die, Die, tuple[RuleIds, RuleIds]]:
    """The observer's die and the hiding squad's, and the rules that chose them."""
    sight = game.sight(observer, target)
    hiding = range_die(observer.die, sight.distance, target.prone, sight.cover)
    hiding_rules = range_rules(target.prone, sight.cover)
    if target.averting and target.psi is not None:
        own = better_die(hiding, target.psi)
        if own != hiding:
            hiding, hiding_rules = own, (*hiding_rules, "SW-PSI-12")
    seeing, seeing_rules = observer.die, ("SW-CORE-02",)
    if psi and detects(observer, sight.distance):
        assert observer.psi is not None
        seeing, seeing_rules = better_die(seeing, observer.psi), ("SW-PSI-11",)
    return seeing, hiding, (seeing_rules, hiding_rules)


def detects(observer: Squad, distance: float) -> bool:
    """Whether the observer's psionic can use psi-detection at this distance (the psi
    action reaches, SW-PSI-06) to roll his psi die, better than the squad's quality die,
    instead of it (SW-PSI-11)."""
    psi = observer.psi
    if psi is None or psi_die_at(psi, distance) is None:
        return False
    return better_die(observer.die, psi) != observer.die


def observe_offers(
    game: Battlefield, squad: Squad, done: tuple[ActionType, ...], passed: bool = False
) -> list[tuple[Observe, Verdict, AnyForecast]]:
    """An observation of each hiding enemy the squad sees and has not spotted, with the
    rule's verdict (:func:`~kubik.rulesets.steel_war.observation.may_observe`) and the
    forecast: the observation, then the fire it allows when an action is left for it."""
    unit = game.situation(squad, done, passed=passed)
    verdict = may_observe(unit)
    out: list[tuple[Observe, Verdict, AnyForecast]] = []
    after = game.situation(squad, (*done, ActionType.OBSERVE), passed=passed)
    room = passed is False and len(done) + 1 < actions_per_activation()
    for enemy in game.enemies(squad):
        if squad.side in enemy.spotted_by or not game.hidden(enemy):
            continue
        sight = game.sight(squad, enemy)
        if not sight.visible or range_zone(squad.die, sight.distance) > max_zone():
            continue  # no range die beyond zone 5: nothing to observe against
        then = None
        if room and may_shoot(after, target_shot_at_us=enemy.id in squad.shot_by).allowed:
            weapons = shooting.choices(squad, sight.distance)
            plan = shooting.plan_fire(game, squad, enemy, sight, weapons[0]) if weapons else None
            if plan is not None:
                then = (plan.group, plan.target)
        friends = sum(1 for f in game.friends(squad) if _could_fire(game, f, enemy))
        for psi in (True, False) if detects(squad, sight.distance) else (False,):
            seeing, hiding, rules = dice(game, squad, enemy, psi)
            forecast = observe_forecast(seeing, hiding, rules, then, friends)
            out.append((Observe(enemy.id, psi), verdict, forecast))
    return out


def _could_fire(game: Battlefield, friend: Squad, enemy: Squad) -> bool:
    """Whether a friendly unit still to act this turn could fire at ``enemy`` once it is
    spotted: it sees it within reach and the fire rule lets it shoot."""
    if friend.activated or not game.sees(friend, enemy):
        return False
    if range_zone(friend.die, game.distance(friend, enemy)) > max_zone():
        return False
    unit = game.situation(friend)
    return may_shoot(unit, target_shot_at_us=enemy.id in friend.shot_by).allowed


def observation(game: Battlefield, squad: Squad, option: Observe) -> Procedure[None]:
    """«Наблюдение» (SW-ABSENT-03): psi-detection first if the psionic uses it (SW-PSI-11),
    then the observer's die against the hiding squad's; spotted, the squad's side may
    fire at it until the end of the turn."""
    target = game.squad(option.target)
    if range_zone(squad.die, game.distance(squad, target)) > max_zone():
        yield emit(
            "steel_war.game.no_fire",
            rules=("SW-ABSENT-03", "SW-FIRE-06"),
            shooter=game.name(squad.id),
            target=game.name(target.id),
        )
        return
    use_psi = option.psi
    if use_psi and squad.psionic() is not None and squad.psi is not None:
        psionic = squad.psionic()
        assert psionic is not None
        distance = game.distance(squad, target)
        attempt = PsiAttempt(squad.psi, distance, game.sees(squad, target))
        detected = yield Call(psi_detection, (attempt,))
        use_psi = detected.result is PsiResult.SUCCEEDED
        squad.detecting = use_psi
        yield emit(
            "steel_war.game.psi_detection",
            rules=("SW-PSI-11", "SW-PSI-05"),
            squad=game.name(squad.id),
            used=use_psi,
        )
    seeing, hiding, rules = dice(game, squad, target, use_psi)
    yield emit(
        "steel_war.game.observe",
        rules=("SW-ABSENT-03",),
        squad=game.name(squad.id),
        target=game.name(target.id),
    )
    seen: ObservationOutcome = yield Call(observe, (seeing, hiding, *rules))
    if seen.spotted and squad.side not in target.spotted_by:
        target.spotted_by.append(squad.side)
        yield emit(
            "steel_war.game.spotted",
            rules=("SW-ABSENT-03",),
            squad=game.name(target.id),
            side=game.name(squad.id),
        )


__all__ = ["dice", "observation", "observe_offers"]
