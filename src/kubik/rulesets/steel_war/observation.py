"""Observation (наблюдение): a documented default, not from the seed (SW-ABSENT-03).

The seed names the action (suppressed squads may still observe; psionics roll
their psi die instead of "the quality die or the observation-means die", against
"the range die") but never describes it. Default: one action; the observer rolls
its quality die (or observation-means die) against the target's range die
computed as for shooting (SW-FIRE-09, by the caller); strictly higher spots the
target until the end of the turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cache, lru_cache

from kubik.engine import Call, Choose, Forecast, Procedure, Roll, Verdict, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import Die
from kubik.engine.memo import by_identity
from kubik.engine.requests import AnyCall, RuleIds
from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.psionics_actions import (
    PsiAction,
    PsiAttempt,
    PsiOutcome,
    PsiResult,
    has_psionic,
    psi_detection,
    reaches,
)
from kubik.rulesets.steel_war.situation import UnitSituation, all_of, basic_verdict


@dataclass(frozen=True, slots=True)
class ObservationOutcome:
    """Whether the target was spotted."""

    spotted: bool


def spots(observer_roll: int, target_roll: int) -> bool:
    """Strictly higher spots; a tie favours the target, as in shooting.

    >>> spots(5, 4), spots(4, 4)
    (True, False)
    """
    return observer_roll > target_roll


def spotting_lasts() -> str:
    """How long a spotted target stays spotted (default: until the end of the turn)."""
    return str(load_ruleset_data("steel_war")["observation"]["lasts"])


def observe(
    observer: Die,
    target: Die,
    observer_rules: RuleIds = (),
    target_rules: RuleIds = (),
) -> Procedure[ObservationOutcome]:
    """The observer's die, then the target's range die; higher observer spots.

    ``observer_rules``, ``target_rules``: what chose each die besides this rule (a
    psionic's psi die, SW-PSI-11/12; the range die's rules, SW-FIRE-09)."""
    (seen,) = yield _observer_roll(observer, observer_rules)
    against = _against_call(target, target_rules, seen)
    hidden: int = yield against
    outcome: ObservationOutcome = against.promised(hidden)
    yield emit(
        "steel_war.observe.result",
        rules="SW-ABSENT-03",
        observer=observer,
        observer_roll=seen,
        target=target,
        target_roll=hidden,
        spotted=outcome.spotted,
    )
    return outcome


def target_face(target: Die, rules: RuleIds) -> Procedure[int]:
    """The hiding squad's roll against an observation, its face: the last step of
    :func:`observe`, so the exact odds map its faces to the outcome instead of replaying
    the observer's roll for each."""
    faces: tuple[int, ...] = yield _target_roll(target, rules)
    return faces[0]


@dataclass(frozen=True, slots=True)
class _Spotted:
    """An observation's outcome from the target's face, the observer having rolled ``seen``."""

    seen: int

    def __call__(self, hidden: int) -> ObservationOutcome:
        return ObservationOutcome(spots(self.seen, hidden))


@by_identity
def _against_call(target: Die, rules: RuleIds, seen: int) -> AnyCall:
    """The target's roll as :func:`observe`'s tail step (logged as its own roll), promising
    the outcome against ``seen`` (built once: exact odds replay an observation often)."""
    return Call(target_face, (target, rules), inline=True, tail=True, then=_Spotted(seen))


@by_identity
def _observer_roll(observer: Die, rules: RuleIds) -> Roll:
    """The observer's roll (built once: exact odds replay an observation often)."""
    return Roll(
        observer, msg("steel_war.observe.roll"), roller="observer", rules=("SW-ABSENT-03", *rules)
    )


@by_identity
def _target_roll(target: Die, rules: RuleIds) -> Roll:
    """The hiding squad's roll against an observation (built once, as the observer's)."""
    return Roll(
        target, msg("steel_war.observe.range_roll"), roller="target", rules=("SW-ABSENT-03", *rules)
    )


@decides("SW-ABSENT-03")
@cache  # the data is read once per process, as every rule module does
def is_hidden(*, in_cover: bool, gone_to_ground: bool, revealed: bool) -> bool:
    """Whether a squad hides from enemy fire (SW-ABSENT-03 default, «укрывающийся»
    of SW-PSI-12): in cover or gone to ground, unless it gave itself away this turn
    (fired or charged). A hiding squad may be fired at only once spotted.

    >>> is_hidden(in_cover=True, gone_to_ground=False, revealed=False)
    True
    >>> is_hidden(in_cover=True, gone_to_ground=False, revealed=True)
    False
    """
    table = load_ruleset_data("steel_war")["observation"]
    hiding = (in_cover and bool(table["hidden_in_cover"])) or (
        gone_to_ground and bool(table["hidden_gone_to_ground"])
    )
    return hiding and not revealed


@decides("SW-ABSENT-03")
def gives_away(action: ActionType) -> bool:
    """Whether taking ``action`` reveals a hiding squad until the end of the turn.

    >>> gives_away(ActionType.SHOOT), gives_away(ActionType.MOVE)
    (True, False)
    """
    return action.value in load_ruleset_data("steel_war")["observation"]["revealed_by"]


@decides()
def may_fire_at(hidden: bool, spotted: bool) -> Verdict:
    """May a squad be fired at, as far as seeing it goes (SW-ABSENT-03 default)? A hiding
    squad only once an observation spotted it this turn.

    >>> may_fire_at(True, False).allowed, may_fire_at(True, True).rules
    (False, ('SW-ABSENT-03',))
    """
    if not hidden:
        return Verdict.allow()
    return Verdict.of(spotted, msg("steel_war.permission.hidden"), "SW-ABSENT-03")


def better_die(usual: Die, psi: Die | None) -> Die:
    """The die a psionic rolls in an observation, on either side: his psi die instead of
    the usual one when it is better (psi-detection SW-PSI-11, avert eyes SW-PSI-12).

    >>> from kubik.engine.dice import D6, D8
    >>> better_die(D6, D8), better_die(D8, D6), better_die(D8, None)
    (Die(faces=8), Die(faces=8), Die(faces=8))
    """
    return usual if psi is None or psi.faces <= usual.faces else psi


@decides()
@lru_cache(maxsize=4096)  # (a menu asks it of every situation again)
def may_observe(unit: UnitSituation) -> Verdict:
    """May ``unit`` spend an action on «наблюдение» (SW-ABSENT-03 default: one action)?
    One of a suppressed squad's five actions (SW-SUP-01)."""
    return all_of(basic_verdict(unit, ActionType.OBSERVE), Verdict.allow("SW-ABSENT-03"))


@decides()
def may_psi_detect(unit: UnitSituation, attempt: PsiAttempt) -> Verdict:
    """May ``unit`` observe with psi-detection (ПСИ-ОБНАРУЖЕНИЕ, SW-PSI-11) on the target
    ``attempt`` describes? An observation it may make (:func:`may_observe`), a psionic in
    the squad (SW-PSI-02), and a target the psi action reaches (SW-PSI-05, SW-PSI-06).
    Psi-detection is part of the observation, not an action of its own (the catalogue's
    default), so it spends no psi action.

    >>> from kubik.engine.dice import D8
    >>> may_psi_detect(UnitSituation(psi=D8), PsiAttempt(D8, 20.0)).allowed
    True
    >>> may_psi_detect(UnitSituation(), PsiAttempt(D8, 20.0)).rules[-2:]
    ('SW-PSI-02', 'SW-PSI-11')
    """
    return all_of(
        may_observe(unit),
        has_psionic(unit),
        Verdict.allow("SW-PSI-11"),
        reaches(PsiAction.DETECTION, attempt),
    )


class ObservationDie(Enum):
    """The die a psionic who used psi-detection observes with, at his choice (SW-PSI-11):
    his psi die, or the usual one (the squad's quality or observation-means die)."""

    PSI = "psi"
    USUAL = "usual"


@dataclass(frozen=True, slots=True)
class PsionicObservation:
    """A psionic's observation: whether psi-detection worked (it lasts the activation),
    which die he rolled and whether the target was spotted."""

    detected: bool
    die: ObservationDie
    spotted: bool


def _spotted(outcome: ObservationOutcome) -> int:
    """What an observation is worth to the observer choosing his die: spotting."""
    return int(outcome.spotted)


def psionic_observe(
    usual: Die,
    attempt: PsiAttempt,
    hiding: Die,
    usual_rules: RuleIds = (),
    hiding_rules: RuleIds = (),
    side: str = "psionic",
    detected: bool = False,
) -> Procedure[PsionicObservation]:
    """An observation by a squad whose psionic uses psi-detection (SW-PSI-11): the psi
    action first (threshold 1, :func:`~.psionics_actions.psi_detection`) unless it already
    worked this activation (``detected``); if it worked, ``side`` chooses the die to
    observe with — the psi die or the ``usual`` one, each offered with the exact odds of
    spotting — and the observation (:func:`observe`) is rolled with it against the
    hiding squad's die."""
    if not detected:
        tried: PsiOutcome = yield Call(psi_detection, (attempt,))
        detected = tried.result is PsiResult.SUCCEEDED
    die, rules = usual, usual_rules
    chosen = ObservationDie.USUAL
    if detected:
        psi_rules: RuleIds = ("SW-PSI-11",)
        chosen = yield Choose(
            (ObservationDie.PSI, ObservationDie.USUAL),
            side=side,
            reason=msg("steel_war.observe.choose_die", psi=attempt.psi, usual=usual),
            default=ObservationDie.PSI if attempt.psi.faces > usual.faces else ObservationDie.USUAL,
            forecasts=(
                Forecast(observe, (attempt.psi, hiding, psi_rules, hiding_rules), value=_spotted),
                Forecast(observe, (usual, hiding, usual_rules, hiding_rules), value=_spotted),
            ),
            labels=(
                msg("steel_war.observe.die.psi", die=attempt.psi),
                msg("steel_war.observe.die.usual", die=usual),
            ),
            rules=psi_rules,
        )
        if chosen is ObservationDie.PSI:
            die, rules = attempt.psi, psi_rules
    seen: ObservationOutcome = yield Call(observe, (die, hiding, rules, hiding_rules))
    return PsionicObservation(detected, chosen, seen.spotted)
