"""Observation and spotting in a battle (SW-ABSENT-03 default, SW-PSI-11/12).

A squad in cover or gone to ground hides from the enemy's fire until it gives itself
away by firing or charging (:func:`~kubik.rulesets.steel_war.observation.is_hidden`);
an enemy who sees it spends an action on «наблюдение» — its quality die against the
hiding squad's range die, as for shooting (SW-FIRE-09) — and once it rolls higher,
its side may fire at that squad until the end of the turn. A psionic observing may
first use psi-detection and then, at his choice, roll his psi die instead of the
quality die (SW-PSI-11, the rule's own
:func:`~kubik.rulesets.steel_war.observation.psionic_observe`); a hiding squad whose
psionic averted the eyes rolls his psi die against observation (SW-PSI-12).
"""

from __future__ import annotations

from collections.abc import Callable

from kubik.engine import AnyForecast, Call, Procedure, Verdict, emit
from kubik.engine.dice import Die
from kubik.engine.requests import RuleIds
from kubik.game.battle.menu import LazyForecast
from kubik.rulesets.steel_war.activation import ActionType, actions_per_activation
from kubik.rulesets.steel_war.fire import max_zone, range_die, range_rules, range_zone
from kubik.rulesets.steel_war.observation import (
    ObservationOutcome,
    PsionicObservation,
    better_die,
    may_observe,
    may_psi_detect,
    observe,
    psionic_observe,
)
from kubik.rulesets.steel_war.psionics_actions import PsiAttempt

from . import shooting
from .field import Battlefield
from .forecast import observe_forecast
from .options import Observe
from .state import Squad

#: The rules of the die a squad observes with when nobody's psi die replaces it.
QUALITY_DIE_RULES: RuleIds = ("SW-CORE-02",)


def hiding_die(game: Battlefield, observer: Squad, target: Squad) -> tuple[Die, RuleIds]:
    """The hiding squad's die against an observation, and the rules that chose it: the
    range die as for shooting (SW-FIRE-09), or its psionic's psi die while he averts
    the eyes, when that is better (SW-PSI-12)."""
    sight = game.sight(observer, target)
    hiding = range_die(observer.die, sight.distance, target.prone, sight.cover)
    rules = range_rules(target.prone, sight.cover)
    if target.averting and target.psi is not None:
        own = better_die(hiding, target.psi)
        if own != hiding:
            return own, (*rules, "SW-PSI-12")
    return hiding, rules


def dice(
    game: Battlefield, observer: Squad, target: Squad, psi: bool
) -> tuple[Die, Die, tuple[RuleIds, RuleIds]]:
    """The observer's die and the hiding squad's, and the rules that chose them; ``psi``:
    the observer's psionic used psi-detection and rolls the better of his psi die and
    the squad's quality die, as his choice takes it (SW-PSI-11)."""
    hiding, hiding_rules = hiding_die(game, observer, target)
    seeing, seeing_rules = observer.die, QUALITY_DIE_RULES
    if psi and observer.psi is not None and better_die(seeing, observer.psi) != seeing:
        seeing, seeing_rules = observer.psi, ("SW-PSI-11",)
    return seeing, hiding, (seeing_rules, hiding_rules)


def observe_offers(
    game: Battlefield, squad: Squad, done: tuple[ActionType, ...], passed: bool = False
) -> list[tuple[Observe, Verdict, AnyForecast]]:
    """An observation of each hiding enemy the squad sees and has not spotted, with the
    rule's verdict (:func:`~kubik.rulesets.steel_war.observation.may_observe`) and the
    forecast: the observation, then the fire it allows when an action is left for it."""
    unit = game.situation(squad, done, passed=passed)
    verdict = may_observe(unit)
    out: list[tuple[Observe, Verdict, AnyForecast]] = []
    psionic = squad.psi
    if psionic is not None and better_die(squad.die, psionic) == squad.die:
        psionic = None  # a psi die no better than the quality die: nothing to choose between
    room = passed is False and len(done) + 1 < actions_per_activation()
    for enemy in game.board.enemies(squad):
        if squad.side in enemy.spotted_by or not game.hidden(enemy):
            continue
        if not game.board.sees(squad, enemy):
            continue
        distance = game.board.gap(squad, enemy)
        if range_zone(squad.die, distance) > max_zone():
            continue  # no range die beyond zone 5: nothing to observe against
        if psionic is not None:  # psi-detection, with the rule's own verdict (SW-PSI-11)
            attempt = PsiAttempt(psionic, distance, True)
            psi_verdict = may_psi_detect(unit, attempt)
            make = _forecast(game, squad, enemy, done, passed, room, True)
            forecast = make() if psi_verdict.allowed else LazyForecast(make)
            out.append((Observe(enemy.id, True), psi_verdict, forecast))
        make = _forecast(game, squad, enemy, done, passed, room, False)
        out.append((Observe(enemy.id), verdict, make() if verdict.allowed else LazyForecast(make)))
    return out


def _forecast(
    game: Battlefield,
    squad: Squad,
    enemy: Squad,
    done: tuple[ActionType, ...],
    passed: bool,
    room: bool,
    psi: bool,
) -> Callable[[], AnyForecast]:
    """An observation's forecast, to be measured when read (a refused observation's is
    not: only its verdict is shown, so its sight's cover is not measured either): the
    observation, then the fire it allows when an action is left for it and the friends
    who could fire once the enemy is spotted."""

    def make() -> AnyForecast:
        sight = game.sight(squad, enemy)
        then = None
        if (
            room
            and shooting.shoot_verdict(
                game,
                squad,
                (*done, ActionType.OBSERVE),
                passed=passed,
                shot_at_us=enemy.id in squad.shot_by,
            ).allowed
        ):
            weapons = shooting.choices(squad, sight.distance)
            plan = shooting.plan_fire(game, squad, enemy, sight, weapons[0]) if weapons else None
            if plan is not None:
                then = (plan.group, plan.target)
        friends = sum(1 for f in game.board.friends(squad) if _could_fire(game, f, enemy))
        seeing, hiding, rules = dice(game, squad, enemy, psi)
        return observe_forecast(seeing, hiding, rules, then, friends)

    return make


def _could_fire(game: Battlefield, friend: Squad, enemy: Squad) -> bool:
    """Whether a friendly unit still to act this turn could fire at ``enemy`` once it is
    spotted: it sees it within reach and the fire rule lets it shoot."""
    if friend.activated or not game.board.sees(friend, enemy):
        return False
    if range_zone(friend.die, game.board.gap(friend, enemy)) > max_zone():
        return False
    return shooting.shoot_verdict(game, friend, shot_at_us=enemy.id in friend.shot_by).allowed


def observation(game: Battlefield, squad: Squad, option: Observe) -> Procedure[None]:
    """«Наблюдение» (SW-ABSENT-03): psi-detection first if the psionic uses it (SW-PSI-11),
    then the observer's die against the hiding squad's; spotted, the squad's side may
    fire at it until the end of the turn."""
    with game.rolling(game.squad(option.target), observer=squad):
        return (yield from _observation(game, squad, option))


def _observation(game: Battlefield, squad: Squad, option: Observe) -> Procedure[None]:
    target = game.squad(option.target)
    if range_zone(squad.die, game.board.gap(squad, target)) > max_zone():
        yield emit(
            "steel_war.game.no_fire",
            rules=("SW-ABSENT-03", "SW-FIRE-06"),
            shooter=game.name(squad.id),
            target=game.name(target.id),
        )
        return
    hiding, hiding_rules = hiding_die(game, squad, target)
    yield emit(
        "steel_war.game.observe",
        rules=("SW-ABSENT-03",),
        squad=game.name(squad.id),
        target=game.name(target.id),
    )
    seen: ObservationOutcome | PsionicObservation
    if option.psi and squad.psi is not None:
        attempt = PsiAttempt(
            squad.psi, game.board.gap(squad, target), game.board.sees(squad, target)
        )
        psionic: PsionicObservation = yield Call(
            psionic_observe,
            (
                squad.die,
                attempt,
                hiding,
                QUALITY_DIE_RULES,
                hiding_rules,
                squad.side,
                squad.detecting,
            ),
        )
        squad.detecting, seen = psionic.detected, psionic
    else:
        seen = yield Call(observe, (squad.die, hiding, QUALITY_DIE_RULES, hiding_rules))
    if seen.spotted and squad.side not in target.spotted_by:
        target.spotted_by.append(squad.side)
        yield emit(
            "steel_war.game.spotted",
            rules=("SW-ABSENT-03",),
            squad=game.name(target.id),
            side=game.name(squad.id),
        )


__all__ = ["QUALITY_DIE_RULES", "dice", "hiding_die", "observation", "observe_offers"]
