"""Psionics in battle (SW-PSI-05..17): the psi actions a squad's psionic may take, the
situation each meets as measured on the table, its forecast, and its outcome applied.

The psionic is the squad's first model (``psionic`` in the scenario). A psi action is
one action of the squad's activation, at most two per activation, not while
suppressed and only at a morale level that allows it (SW-PSI-05, SW-CORE-04,
SW-SUP-01). Range is measured from the psionic to the closest fighting model of the
target, in fixed 12" zones (:func:`~kubik.rulesets.steel_war.psionics.psi_zone`); beyond
the first zone the psionic must see the target. Support actions (remove suppression,
inspiration, «Ни шагу назад!») go to friendly squads, attacks (strike, panic,
confusion, blast, murder) to enemies. An option whose roll cannot succeed (the
zone-degraded die cannot reach the threshold) is not offered.

Psi-detection and avert eyes (SW-PSI-11/12) only change the observation action, which
this game does not have (SW-ABSENT-03): they could never change anything, so they are
not offered.

The rule procedures of :mod:`kubik.rulesets.steel_war.psionics_actions` decide; what
their outcome asks of the game (an inspiration roll, a panic test, the murder's hit) is
the inspiration, panic and armour rules' procedures, Called here in the same order as
in the forecast.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from kubik.dice import Die
from kubik.engine import (
    AnyCall,
    AnyForecast,
    Call,
    Forecast,
    Procedure,
    emit,
)
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.damage import Injury, armour_test, hit_armour
from kubik.rulesets.steel_war.fire_weapons import Special, weapon
from kubik.rulesets.steel_war.inspiration import Contact, Inspiration, InspirationOutcome, inspire
from kubik.rulesets.steel_war.morale_levels import raise_level
from kubik.rulesets.steel_war.no_step_back import enter_berserk
from kubik.rulesets.steel_war.panic import PanicEvent, PanicOutcome, panic_test
from kubik.rulesets.steel_war.psionics import (
    psi_data,
    psi_die_at,
    psi_zone,
    psionic_leadership,
    success_faces,
)
from kubik.rulesets.steel_war.psionics_actions import (
    BlastChoice,
    PsiAction,
    PsiAttempt,
    PsiEffect,
    PsiOutcome,
    PsiResult,
    PsiTarget,
    may_use_psi,
    psi_blast,
    psi_confusion,
    psi_inspiration,
    psi_murder,
    psi_no_step_back,
    psi_panic,
    psi_remove_suppression,
    psi_strike,
    too_few_for_murder,
)
from kubik.rulesets.steel_war.threat import PlusFactor, Trigger, persistent_threat, plus_threat
from kubik.rulesets.steel_war.threat import threat_level as morale_threat

from . import effects, field
from .forecast import weight
from .options import Psi
from .state import Squad, Status
from .world import World

#: Actions on friendly squads, and on enemies, in the order they are offered.
SUPPORT = (PsiAction.REMOVE_SUPPRESSION, PsiAction.INSPIRATION, PsiAction.NO_STEP_BACK)
ATTACKS = (
    PsiAction.STRIKE,
    PsiAction.PANIC,
    PsiAction.CONFUSION,
    PsiAction.BLAST,
    PsiAction.MURDER,
)


@dataclass(frozen=True, slots=True)
class PsiSituation:
    """What one psi action on one target meets, as measured (hashable, for the odds).

    ``threat``: the strike's other threat ("+" rows), or the murder's "commander lost"
    threat; ``hit``: the murder's hit (victim's armour die, shooter's power die, flame).
    """

    action: PsiAction
    attempt: PsiAttempt
    target: PsiTarget
    threat: int = 0
    models: int = 0
    choice: BlastChoice = BlastChoice.LOSE_MORALE
    inspiration: Inspiration | None = None
    panic_over: bool = False
    berserk: bool = False
    hit: tuple[Die, Die, bool] | None = None


def measure(world: World, squad: Squad, target: Squad) -> PsiAttempt | None:
    """The attempt as the table gives it: psi die, distance from the psionic to the
    closest fighting model of the target (0.1"), his line of sight to any of them."""
    psionic, psi = squad.psionic(), squad.psi
    if psionic is None or psi is None:
        return None
    points = [m.point for m in target.active()]
    distance = field.inches(world.measure.closest([psionic.point], points))
    return PsiAttempt(psi, distance, world.measure.sees(psionic.point, points))


def murder_pair(target: Squad) -> tuple[str, str]:
    """The psionic's choice for a murder (SW-PSI-17 default): the commander is hit by the
    comrade with the most powerful weapon (the first such)."""
    living = target.active()
    victim = target.commander if target.model(target.commander) in living else living[0].id
    others = [m for m in living if m.id != victim]
    shooter = max(others, key=lambda m: weapon(m.weapon).power.faces)
    return victim, shooter.id


def situation(
    world: World,
    squad: Squad,
    target: Squad,
    action: PsiAction,
    attempt: PsiAttempt,
    choice: BlastChoice = BlastChoice.LOSE_MORALE,
) -> PsiSituation:
    """The psi action's whole situation: the attempt, the target squad, the threat of
    its morale test, and what the follow-up rule (inspiration, panic, hit) needs."""
    resisting = PsiTarget(target.die, target.leadership)
    plus = {
        PlusFactor.UNVERIFIED_CASUALTY: len(target.with_status(Status.UNVERIFIED)),
        PlusFactor.WOUNDED_LEFT_BEHIND: int(target.wounded_left_behind),
    }
    sit = PsiSituation(
        action,
        attempt,
        resisting,
        models=len(target.active()),
        choice=choice,
        panic_over=target.panic_over,
        berserk=target.berserk,
    )
    if action is PsiAction.STRIKE:
        return replace(sit, threat=plus_threat(target.motivation, plus))
    if action is PsiAction.MURDER:
        lost = morale_threat(target.motivation, (Trigger.COMMANDER_LOST,), plus)
        threat = lost if lost is not None else plus_threat(target.motivation, plus)
        hit = None
        if not too_few_for_murder(len(target.active())):
            _victim, shooter = murder_pair(target)
            arm = weapon(target.model(shooter).weapon)
            armour = hit_armour(
                target.armour, target.spec.flak_vest, arm.has(Special.FRAGMENTATION)
            )
            hit = (armour, arm.power, arm.has(Special.FLAME))
        return replace(sit, threat=threat, hit=hit)
    if action is PsiAction.INSPIRATION:
        own = squad.leadership if squad.spec.officer else None
        inspiration = Inspiration(
            officer_quality=squad.die,
            officer_leadership=psionic_leadership(own),
            squad_quality=target.die,
            squad_leadership=target.leadership,
            threat=persistent_threat(
                target.motivation,
                unverified=len(target.with_status(Status.UNVERIFIED)),
                wounded_left_behind=target.wounded_left_behind,
            ),
            contact=Contact(0.0, True, True),  # as if his direct commander nearby (SW-PSI-09)
            level=target.level,
            start_level=target.start_level,
        )
        return replace(sit, inspiration=inspiration)
    return sit


def rule_call(sit: PsiSituation) -> AnyCall:
    """The psi action's rule procedure on the situation."""
    attempt = sit.attempt
    if sit.action is PsiAction.STRIKE:
        return Call(psi_strike, (attempt, sit.target, sit.threat))
    if sit.action is PsiAction.PANIC:
        return Call(psi_panic, (attempt, sit.target.quality, sit.target.android))
    if sit.action is PsiAction.BLAST:
        return Call(psi_blast, (attempt, sit.choice))
    if sit.action is PsiAction.MURDER:
        return Call(psi_murder, (attempt, sit.target, sit.threat, sit.models))
    plain = {
        PsiAction.REMOVE_SUPPRESSION: psi_remove_suppression,
        PsiAction.INSPIRATION: psi_inspiration,
        PsiAction.NO_STEP_BACK: psi_no_step_back,
        PsiAction.CONFUSION: psi_confusion,
    }
    return Call(plain[sit.action], (attempt,))


# --- forecast -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PsiForecastOutcome:
    """A psi action as a bot sees it: success, levels the target lost, panic, a rise, a man hit."""

    result: PsiResult
    drop: int = 0
    panicked: bool = False
    raised: bool = False
    casualty: bool = False


def psi_forecast(sit: PsiSituation) -> Procedure[PsiForecastOutcome]:
    """The psi rule, then the rule its outcome calls for (inspiration, panic test, the
    murder's armour test), in the order the game rolls them; nothing else."""
    outcome: PsiOutcome = yield rule_call(sit)
    if outcome.result is not PsiResult.SUCCEEDED:
        return PsiForecastOutcome(outcome.result)
    if outcome.effect is PsiEffect.INSPIRATION_TEST and sit.inspiration is not None:
        inspired: InspirationOutcome = yield Call(inspire, (sit.inspiration,))
        return PsiForecastOutcome(outcome.result, raised=inspired.raised)
    if outcome.effect is PsiEffect.PANIC_TEST:
        test: PanicOutcome = yield Call(
            panic_test,
            (
                sit.target.quality,
                sit.target.leadership,
                PanicEvent.PSIONIC,
                sit.panic_over,
                sit.berserk,
            ),
        )
        return PsiForecastOutcome(outcome.result, drop=test.drop, panicked=test.panicked)
    casualty = False
    if outcome.effect is PsiEffect.MURDER and sit.hit is not None:
        injury: Injury = yield Call(armour_test, sit.hit)
        casualty = injury is not Injury.UNHARMED
    return PsiForecastOutcome(
        outcome.result,
        drop=outcome.morale_drop,
        panicked=outcome.effect is PsiEffect.PANICKED,
        casualty=casualty,
    )


@dataclass(frozen=True, slots=True)
class PsiValue:
    """How good a psi outcome is for the psionic's side (weights: ``[game_forecast]``)."""

    action: PsiAction
    markers: int  # the target's suppression markers (removed by support actions)

    def __call__(self, outcome: PsiForecastOutcome) -> float:
        if outcome.result is not PsiResult.SUCCEEDED:
            return 0.0
        if self.action is PsiAction.REMOVE_SUPPRESSION:
            return self.markers * weight("marker_removed")
        if self.action is PsiAction.NO_STEP_BACK:
            return self.markers * weight("marker_removed") + weight("psi_stand_fast")
        if self.action is PsiAction.INSPIRATION:
            return weight("level_raised") if outcome.raised else 0.0
        if self.action is PsiAction.CONFUSION:
            return weight("psi_confusion")
        value = outcome.drop * weight("level_lowered")
        if outcome.panicked:
            value += weight("psi_panicked")
        if outcome.casualty:
            value += weight("killed")
        if self.action is PsiAction.MURDER:
            value += weight("suppressed")
        return value


def odds_situation(sit: PsiSituation) -> PsiSituation:
    """The same situation for the odds: every distance of a psi zone rolls the same die
    and needs the same sight, so one memoised distribution serves the whole zone.

    >>> from kubik.dice import D8
    >>> a = PsiSituation(PsiAction.CONFUSION, PsiAttempt(D8, 13.2), PsiTarget(D8, 2))
    >>> odds_situation(a).attempt.distance
    24.0
    """
    inches = float(psi_data()["psi_range"]["zone_inches"])
    far = psi_zone(sit.attempt.distance) * inches
    return replace(sit, attempt=replace(sit.attempt, distance=far))


def psi_forecast_of(sit: PsiSituation, markers: int) -> AnyForecast:
    """The option's forecast: the psi rule and its follow-up on the measured situation."""
    return Forecast(psi_forecast, (odds_situation(sit),), value=PsiValue(sit.action, markers))


# --- what is offered ----------------------------------------------------------------------


def _can_succeed(action: PsiAction, attempt: PsiAttempt) -> bool:
    """The zone-degraded die can reach the threshold (an attempt that cannot is not offered)."""
    die = psi_die_at(attempt.psi, attempt.distance)
    return die is not None and success_faces(die, action.threshold) > 0


def _wanted(action: PsiAction, target: Squad) -> bool:
    """Whether the action can change anything for this target."""
    if action is PsiAction.REMOVE_SUPPRESSION:
        return target.markers > 0
    if action is PsiAction.INSPIRATION:
        return target.level.rank > target.start_level.rank
    if action is PsiAction.NO_STEP_BACK:
        return not target.berserk
    if action is PsiAction.MURDER:
        return not too_few_for_murder(len(target.active()))
    return True


def psi_options(
    world: World, squad: Squad, done: tuple[ActionType, ...] = ()
) -> list[tuple[Psi, AnyForecast]]:
    """Every psi action the squad's psionic may take now (the rule's
    :func:`~kubik.rulesets.steel_war.psionics_actions.may_use_psi`), nearest targets first."""
    if squad.psi is None or squad.is_vehicle:
        return []
    unit = world.situation(squad, done)
    found: list[tuple[float, int, Psi, AnyForecast]] = []
    friends = [squad, *world.friends(squad)]
    groups = ((SUPPORT, friends), (ATTACKS, world.enemies(squad)))
    for actions, targets in groups:
        for target in targets:
            attempt = measure(world, squad, target)
            if attempt is None or not target.present:
                continue
            en, ru = target.spec.display_name
            for action in actions:
                if not _wanted(action, target) or not _can_succeed(action, attempt):
                    continue
                if not may_use_psi(unit, action, attempt, len(target.active())).allowed:
                    continue
                choices: tuple[BlastChoice | None, ...] = (None,)
                if action is PsiAction.BLAST:
                    choices = tuple(
                        c for c in BlastChoice if not (c is BlastChoice.PANIC and target.panicked)
                    )
                for choice in choices:
                    sit = situation(
                        world, squad, target, action, attempt, choice or BlastChoice.LOSE_MORALE
                    )
                    option = Psi(action, target.id, en, ru, attempt.distance, choice)
                    forecast = psi_forecast_of(sit, target.markers)
                    found.append((attempt.distance, len(found), option, forecast))
    found.sort(key=lambda item: (item[0], item[1]))
    return [(option, forecast) for _, _, option, forecast in found]


# --- applying the outcome -----------------------------------------------------------------


def use_psi(world: World, squad: Squad, option: Psi) -> Procedure[None]:
    """The psi action as measured now: the rule decides, its effect lands on the target."""
    target = world.squad(option.target)
    attempt = measure(world, squad, target)
    if attempt is None:
        return
    sit = situation(
        world, squad, target, option.act, attempt, option.choice or BlastChoice.LOSE_MORALE
    )
    yield emit(
        "steel_war.game.psi",
        squad=squad.name,
        act=option.act,
        target=target.name,
        distance=attempt.distance,
        zone=psi_zone(attempt.distance),
    )
    outcome: PsiOutcome = yield rule_call(sit)
    if outcome.result is PsiResult.SUCCEEDED:
        yield from _apply(world, target, sit, outcome)


def _apply(world: World, target: Squad, sit: PsiSituation, outcome: PsiOutcome) -> Procedure[None]:
    effect = outcome.effect
    if effect is PsiEffect.REMOVE_SUPPRESSION:
        removed, target.markers = target.markers, 0
        yield emit("steel_war.game.psi_unsuppressed", squad=target.name, markers=removed)
    elif effect is PsiEffect.INSPIRATION_TEST and sit.inspiration is not None:
        inspired: InspirationOutcome = yield Call(inspire, (sit.inspiration,))
        if inspired.raised:
            level = raise_level(target.level, target.start_level, 1)
            yield from effects.set_level(world, target, level)
    elif effect is PsiEffect.NO_STEP_BACK:
        state = enter_berserk(target.markers, target.panicked)
        target.berserk, target.markers, target.panicked = True, state.markers, state.panicked
        yield emit("steel_war.game.berserk", squad=target.name)
    elif effect is PsiEffect.LOSE_ACTIVATION:
        if target.activated:
            target.confused = True
            yield emit("steel_war.game.psi_confused_next", squad=target.name)
        else:
            target.activated = True
            yield emit("steel_war.game.psi_confused", squad=target.name)
    elif effect is PsiEffect.PANIC_TEST:
        yield from effects.panic(world, target, PanicEvent.PSIONIC)
    elif effect is PsiEffect.PANICKED:
        if not target.panicked:
            yield emit("steel_war.game.panicked", squad=target.name)
        target.panicked = True
    elif effect is PsiEffect.MURDER:
        yield from _murder(world, target, sit, outcome)
    else:
        yield from _morale(world, target, outcome.morale_drop)


def _morale(world: World, target: Squad, drop: int) -> Procedure[None]:
    if drop:
        yield from effects.drop_levels(world, target, drop)
    else:
        yield emit("steel_war.game.psi_held", squad=target.name)


def _murder(world: World, target: Squad, sit: PsiSituation, outcome: PsiOutcome) -> Procedure[None]:
    """A comrade shoots a comrade (SW-PSI-17): the hit, the marker, the morale drop."""
    if sit.hit is not None:
        victim, shooter = murder_pair(target)
        yield emit("steel_war.game.psi_murder", squad=target.name, shooter=shooter, victim=victim)
        injury: Injury = yield Call(armour_test, sit.hit)
        if injury is not Injury.UNHARMED:
            model = target.model(victim)
            model.status = Status.KILLED if injury is Injury.KILLED else Status.UNVERIFIED
            yield emit(
                "steel_war.game.casualty",
                squad=target.name,
                model=victim,
                fate=effects.msg_status(model.status),
            )
            if victim == target.commander:
                yield from effects.new_commander(target)
            world.update_left_behind(target)
    for _ in range(outcome.suppression):
        placed, _first = effects.place_marker(target)
        if placed:
            yield emit("steel_war.game.psi_suppressed", squad=target.name, markers=target.markers)
    yield from _morale(world, target, outcome.morale_drop)
    yield from effects.check_destroyed(target)


__all__ = [
    "ATTACKS",
    "SUPPORT",
    "PsiForecastOutcome",
    "PsiSituation",
    "PsiValue",
    "measure",
    "murder_pair",
    "psi_forecast",
    "psi_options",
    "situation",
    "use_psi",
]
