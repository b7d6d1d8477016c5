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

Psi-detection and avert eyes (SW-PSI-11/12) change the observation (SW-ABSENT-03):
psi-detection is part of an observation (:mod:`.observation`); averting the eyes is a
psi action on the psionic's own hiding squad, until the end of the turn.

The rule procedures of :mod:`kubik.rulesets.steel_war.psionics_actions` decide; what
their outcome asks of the game (an inspiration roll, a panic test, the murder's hit) is
the inspiration, panic and armour rules' procedures, Called here in the same order as
in the forecast.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from kubik.engine import AnyCall, AnyForecast, Call, Forecast, Procedure, Verdict, emit
from kubik.engine.dice import Die, parse_die
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.damage import (
    Injury,
    TargetKind,
    armour_die,
    armour_test,
    counts_for_morale,
    hit_armour,
    hit_effect,
    kind_after_hit,
)
from kubik.rulesets.steel_war.damage_models import ModelHit
from kubik.rulesets.steel_war.fire_weapons import Special, weapon
from kubik.rulesets.steel_war.inspiration import Contact, Inspiration, InspirationOutcome, inspire
from kubik.rulesets.steel_war.morale_levels import MoraleLevel, raise_level
from kubik.rulesets.steel_war.no_step_back import enter_berserk
from kubik.rulesets.steel_war.panic import PanicEvent, PanicOutcome, panic_test
from kubik.rulesets.steel_war.psionics import (
    psi_die_at,
    psi_zone,
    psionic_leadership,
    success_faces,
    zone_inches,
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
    psi_avert_eyes,
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

from . import effects
from .field import Battlefield
from .forecast import weight
from .formation import inches
from .options import Psi
from .state import Panic, Squad, Stance, Status, Turn

#: What psi cannot touch: robots are not people (SW-PSI-05).
ROBOTS = (TargetKind.ROBOT, TargetKind.DAMAGED_ROBOT, TargetKind.MAN_SIZED_WEAPON)

#: Actions on friendly squads, and on enemies, in the order they are offered.
SUPPORT = (
    PsiAction.REMOVE_SUPPRESSION,
    PsiAction.INSPIRATION,
    PsiAction.NO_STEP_BACK,
    PsiAction.AVERT_EYES,
)
ATTACKS = (
    PsiAction.PANIC,
    PsiAction.STRIKE,
    PsiAction.CONFUSION,
    PsiAction.BLAST,
    PsiAction.MURDER,
)


@dataclass(frozen=True, slots=True)
class PsiSituation:
    """What one psi action on one target meets, as measured (hashable, for the odds).

    ``threat``: the strike's other threat ("+" rows), or the murder's "commander lost"
    threat; ``hit``: the murder's hit (victim's armour die, shooter's power die, flame);
    ``side``: the psionic's side, who picks a blast's effect (SW-PSI-16).
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
    side: str = "psionic"


def measure(game: Battlefield, squad: Squad, target: Squad) -> PsiAttempt | None:
    """The attempt as the table gives it: psi die, distance from the psionic to the
    closest fighting model of the target (0.1"), his line of sight to any of them; psi
    works only on people — a robot is not one, a vehicle's crew is (SW-PSI-05)."""
    psionic, psi = squad.psionic(), squad.psi
    if psionic is None or psi is None:
        return None
    eye = [psionic.base()]
    distance = inches(game.board.gap_from(eye, target))
    sees = game.board.sees_from(eye, target)
    robots = all(m.kind in ROBOTS for m in target.active())
    return PsiAttempt(psi, distance, sees, target_machine=robots)


def murder_pair(target: Squad) -> tuple[str, str]:
    """The psionic's choice for a murder (SW-PSI-17 default): the commander is hit by the
    comrade with the most powerful weapon (the first such); a man-sized weapon counts as
    a man and may shoot or be hit (SW-DMG-07)."""
    living = target.active()
    victim = target.commander if target.model(target.commander) in living else living[0].id
    others = [m for m in living if m.id != victim]
    shooter = max(others, key=lambda m: weapon(m.weapon).power.faces)
    return victim, shooter.id


def situation(
    game: Battlefield,
    squad: Squad,
    target: Squad,
    action: PsiAction,
    attempt: PsiAttempt,
    choice: BlastChoice = BlastChoice.LOSE_MORALE,
) -> PsiSituation:
    """The psi action's whole situation: the attempt, the target squad (androids resist
    on d6, SW-PSI-18), the threat of its morale test, and what the follow-up rule
    (inspiration, panic, hit) needs."""
    resisting = PsiTarget(target.die, target.leadership, android=target.spec.android)
    left_behind = game.left_behind(target)
    plus = {
        PlusFactor.UNVERIFIED_CASUALTY: len(target.with_status(Status.UNVERIFIED)),
        PlusFactor.WOUNDED_LEFT_BEHIND: int(left_behind),
    }
    sit = PsiSituation(
        action,
        attempt,
        resisting,
        models=len(target.active()),
        choice=choice,
        panic_over=target.panic_over,
        berserk=target.berserk,
        side=squad.side,
    )
    if action is PsiAction.STRIKE:
        return replace(sit, threat=plus_threat(target.motivation, plus))
    if action is PsiAction.MURDER:
        lost = morale_threat(target.motivation, (Trigger.COMMANDER_LOST,), plus)
        threat = lost if lost is not None else plus_threat(target.motivation, plus)
        hit = None
        if not too_few_for_murder(len(target.active())):
            victim, shooter = murder_pair(target)
            arm = weapon(target.model(shooter).weapon)
            hurt = effects.target_model(target, target.model(victim))
            armour = hit_armour(
                armour_die(hurt.kind), hurt.flak_vest, arm.has(Special.FRAGMENTATION)
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
                wounded_left_behind=left_behind,
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
        return Call(psi_blast, (attempt, sit.choice, sit.side))
    if sit.action is PsiAction.MURDER:
        return Call(psi_murder, (attempt, sit.target, sit.threat, sit.models))
    plain = {
        PsiAction.REMOVE_SUPPRESSION: psi_remove_suppression,
        PsiAction.INSPIRATION: psi_inspiration,
        PsiAction.NO_STEP_BACK: psi_no_step_back,
        PsiAction.CONFUSION: psi_confusion,
        PsiAction.AVERT_EYES: psi_avert_eyes,
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
                sit.target.resisting_die,
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
    """How good a psi outcome is for the psionic's side (tastes: ``[bot]``)."""

    action: PsiAction
    markers: int  # the target's suppression markers (removed by support actions)
    levels_left: int = 4  # morale levels the target can still lose (to Бегущий)
    watchers: int = 1  # enemy units that see the squad and have yet to act (avert eyes)

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
        if self.action is PsiAction.AVERT_EYES:
            return weight("avert_eyes") * self.watchers
        value = min(outcome.drop, self.levels_left) * weight("level_lowered")
        if outcome.panicked:
            value += weight("psi_panicked")
        if outcome.casualty:
            value += weight("killed")
            if self.action is PsiAction.MURDER:
                value += weight("commander_lost")  # the psionic's victim is the commander
        if self.action is PsiAction.MURDER:
            value += weight("suppressed")
        return value


def odds_situation(sit: PsiSituation) -> PsiSituation:
    """The same situation for the odds: every distance of a psi zone rolls the same die
    and needs the same sight, so one memoised distribution serves the whole zone.

    >>> from kubik.engine.dice import D8
    >>> a = PsiSituation(PsiAction.CONFUSION, PsiAttempt(D8, 13.2), PsiTarget(D8, 2))
    >>> odds_situation(a).attempt.distance
    24.0
    """
    far = float(psi_zone(sit.attempt.distance) * zone_inches())
    return replace(sit, attempt=replace(sit.attempt, distance=far))


def psi_forecast_of(
    sit: PsiSituation, markers: int, levels_left: int = 4, watchers: int = 1
) -> AnyForecast:
    """The option's forecast: the psi rule and its follow-up on the measured situation; a
    level the target cannot lose any more is worth nothing; averting the eyes is worth
    more the more enemies are about to look."""
    return Forecast(
        psi_forecast,
        (odds_situation(sit),),
        value=PsiValue(sit.action, markers, levels_left, watchers),
    )


# --- what is offered ----------------------------------------------------------------------


def _can_succeed(action: PsiAction, attempt: PsiAttempt) -> bool:
    """The zone-degraded die can reach the threshold (an attempt that cannot is not offered)."""
    die = psi_die_at(attempt.psi, attempt.distance)
    return die is not None and success_faces(die, action.threshold) > 0


def _wanted(game: Battlefield, squad: Squad, action: PsiAction, target: Squad) -> bool:
    """Whether the action can change anything for this target."""
    if action is PsiAction.REMOVE_SUPPRESSION:
        return target.markers > 0
    if action is PsiAction.INSPIRATION:
        return target.level.rank > target.start_level.rank
    if action is PsiAction.NO_STEP_BACK:
        return not target.berserk
    if action is PsiAction.AVERT_EYES:
        return target is squad and not squad.averting and game.hidden(squad)
    if action is PsiAction.MURDER:
        return not too_few_for_murder(len(target.active()))
    return True


def psi_offers(
    game: Battlefield, squad: Squad, done: tuple[ActionType, ...] = (), passed: bool = False
) -> list[tuple[Psi, Verdict, AnyForecast]]:
    """Every psi action the squad's psionic could take now, nearest targets first, each
    with the rule's verdict (:func:`~kubik.rulesets.steel_war.psionics_actions.may_use_psi`)
    and its forecast. Actions that cannot change anything, or whose zone-degraded die can
    never reach the threshold, are not listed."""
    if squad.psi is None or squad.is_vehicle:
        return []
    unit = game.situation(squad, done, passed=passed)
    watchers = sum(
        1 for e in game.board.enemies(squad) if not e.activated and game.board.sees(e, squad)
    )
    found: list[tuple[float, int, Psi, Verdict, AnyForecast]] = []
    friends = [squad, *game.board.friends(squad)]
    groups = ((SUPPORT, friends), (ATTACKS, game.board.enemies(squad)))
    for actions, targets in groups:
        for target in targets:
            attempt = measure(game, squad, target)
            if attempt is None or not target.present:
                continue
            for action in actions:
                if not _wanted(game, squad, action, target) or not _can_succeed(action, attempt):
                    continue
                verdict = may_use_psi(unit, action, attempt, len(target.active()))
                choices: tuple[BlastChoice | None, ...] = (None,)
                if action is PsiAction.BLAST:
                    choices = tuple(
                        c for c in BlastChoice if not (c is BlastChoice.PANIC and target.panicked)
                    )
                for choice in choices:
                    sit = situation(
                        game, squad, target, action, attempt, choice or BlastChoice.LOSE_MORALE
                    )
                    option = Psi(action, target.id, attempt.distance, choice)
                    left = MoraleLevel.FLEEING.rank - target.level.rank
                    forecast = psi_forecast_of(sit, target.markers, left, watchers)
                    found.append((attempt.distance, len(found), option, verdict, forecast))
    found.sort(key=lambda item: (item[0], item[1]))
    return [(option, verdict, forecast) for _, _, option, verdict, forecast in found]


# --- applying the outcome -----------------------------------------------------------------


def use_psi(game: Battlefield, squad: Squad, option: Psi) -> Procedure[None]:
    """The psi action as measured now: the rule decides, its effect lands on the target."""
    with game.rolling(game.squad(option.target), psionic=squad, officer=squad):
        return (yield from _use_psi(game, squad, option))


def _use_psi(game: Battlefield, squad: Squad, option: Psi) -> Procedure[None]:
    target = game.squad(option.target)
    attempt = measure(game, squad, target)
    if attempt is None:
        return
    sit = situation(
        game, squad, target, option.act, attempt, option.choice or BlastChoice.LOSE_MORALE
    )
    yield emit(
        "steel_war.game.psi",
        rules=("SW-PSI-01", "SW-PSI-02", "SW-PSI-05"),
        squad=game.name(squad.id),
        act=option.act,
        target=game.name(target.id),
        distance=attempt.distance,
        zone=psi_zone(attempt.distance),
    )
    outcome: PsiOutcome = yield rule_call(sit)
    if outcome.result is PsiResult.SUCCEEDED:
        yield from _apply(game, squad, target, sit, outcome)


def _apply(
    game: Battlefield, squad: Squad, target: Squad, sit: PsiSituation, outcome: PsiOutcome
) -> Procedure[None]:
    effect = outcome.effect
    name = game.name(target.id)
    if effect is PsiEffect.REMOVE_SUPPRESSION:
        removed, target.markers = target.markers, 0
        yield emit(
            "steel_war.game.psi_unsuppressed", rules="SW-PSI-08", squad=name, markers=removed
        )
    elif effect is PsiEffect.INSPIRATION_TEST and sit.inspiration is not None:
        inspired: InspirationOutcome = yield Call(inspire, (sit.inspiration,))
        if inspired.raised:
            level = raise_level(target.level, target.start_level, 1)
            yield from effects.set_level(game, target, level)
    elif effect is PsiEffect.NO_STEP_BACK:
        state = enter_berserk(target.markers, target.panicked)
        target.stance = Stance.BERSERK
        target.markers = state.markers
        if not state.panicked and target.panicked:
            target.panic = Panic.OVER
        yield emit("steel_war.game.berserk", rules=("SW-PSI-10", "SW-NSN-03"), squad=name)
    elif effect is PsiEffect.AVERT_EYES:
        target.averting = True
        yield emit("steel_war.game.averting", rules="SW-PSI-12", squad=name)
    elif effect is PsiEffect.LOSE_ACTIVATION:
        if target.activated:
            target.turn = Turn.DONE_LOSES_NEXT
            yield emit("steel_war.game.psi_confused_next", rules="SW-PSI-15", squad=name)
        else:
            target.turn = Turn.DONE
            yield emit("steel_war.game.psi_confused", rules="SW-PSI-15", squad=name)
    elif effect is PsiEffect.PANIC_TEST:
        die = parse_die(outcome.test_die) if outcome.test_die else None
        yield from effects.panic(game, target, PanicEvent.PSIONIC, die)
    elif effect is PsiEffect.PANICKED:
        if not target.panicked:
            yield emit("steel_war.game.panicked", rules=("SW-PSI-16", "SW-PANIC-01"), squad=name)
        target.panic = Panic.PANICKED
    elif effect is PsiEffect.MURDER:
        yield from _murder(game, squad, target, sit, outcome)
    else:
        yield from _morale(game, target, outcome.morale_drop)


def _morale(game: Battlefield, target: Squad, drop: int) -> Procedure[None]:
    if drop:
        yield from effects.drop_levels(game, target, drop)
    else:
        yield emit("steel_war.game.psi_held", rules="SW-MOR-05", squad=game.name(target.id))


def _murder(
    game: Battlefield, squad: Squad, target: Squad, sit: PsiSituation, outcome: PsiOutcome
) -> Procedure[None]:
    """A comrade shoots a comrade (SW-PSI-17): the hit, the marker, the morale drop; the
    psionic's squad is credited with the man it took out."""
    if sit.hit is not None:
        victim, shooter = murder_pair(target)
        yield emit(
            "steel_war.game.psi_murder",
            rules="SW-PSI-17",
            squad=game.name(target.id),
            shooter=game.name(shooter),
            victim=game.name(victim),
        )
        injury: Injury = yield Call(armour_test, sit.hit)
        model = target.model(victim)
        kind = model.kind or TargetKind.MAN
        result = hit_effect(kind, injury)
        hit = ModelHit(
            victim,
            result,
            injury,
            kind_after_hit(kind, result),
            counts_for_morale(kind, result),
        )
        losses = yield from effects.apply_hits(game, target, (hit,), by=squad)
        del losses
    for _ in range(outcome.suppression):
        placed, _first = effects.place_marker(target)
        if placed:
            yield emit(
                "steel_war.game.psi_suppressed",
                rules=("SW-PSI-17", "SW-SUP-01"),
                squad=game.name(target.id),
                markers=target.markers,
            )
    yield from _morale(game, target, outcome.morale_drop)
    yield from effects.check_destroyed(game, target)


__all__ = [
    "ATTACKS",
    "SUPPORT",
    "PsiForecastOutcome",
    "PsiSituation",
    "PsiValue",
    "measure",
    "murder_pair",
    "psi_forecast",
    "psi_offers",
    "situation",
    "use_psi",
]
