"""Steel War psionic actions (SW-PSI-05..18): the psi roll and what each action does.

Every action is the same roll — the psionic's psi die, one step down per 12" zone
beyond the first, against the action's threshold (SW-PSI-06) — followed by its
effect (SW-PSI-07). Effects that belong to other rules (suppression markers,
inspiration, "Not one step back!", panic, activations) come back as a structured
:class:`PsiOutcome` for the game layer to apply; the morale tests that a psi strike
or a murder forces are rolled here through the shared :func:`morale_test`, on d6
for androids (SW-PSI-18).

A roll whose result is certain (threshold 1 under "≥", or a threshold above the
die's faces) is not asked for: the action simply succeeds or fails.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cache

from kubik.engine import Call, Choose, Procedure, Roll, Verdict, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import Die
from kubik.engine.requests import RuleIds
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.morale import MoraleTestOutcome, morale_test
from kubik.rulesets.steel_war.morale_levels import Order
from kubik.rulesets.steel_war.psionics import (
    PsiReading,
    PsiSuccess,
    lowest_success,
    needs_line_of_sight,
    psi_data,
    psi_die_at,
    psi_zone,
    resisting_die,
    success_faces,
)
from kubik.rulesets.steel_war.situation import UnitSituation, all_of, basic_verdict


class PsiAction(Enum):
    """The psi action list (SW-PSI-07); thresholds and magnitudes come from data."""

    REMOVE_SUPPRESSION = "remove_suppression"
    INSPIRATION = "inspiration"
    NO_STEP_BACK = "no_step_back"
    DETECTION = "detection"
    AVERT_EYES = "avert_eyes"
    STRIKE = "strike"
    PANIC = "panic"
    CONFUSION = "confusion"
    BLAST = "blast"
    MURDER = "murder"

    def number(self, key: str) -> int:
        """A number of this action's data table (``threshold``, ``extra_threat`` ...)."""
        return int(psi_data()["psi_actions"][self.value][key])

    @property
    def threshold(self) -> int:
        """The score the psi die must reach (SW-PSI-07).

        >>> PsiAction.BLAST.threshold, PsiAction.DETECTION.threshold
        (7, 1)
        """
        return self.number("threshold")

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"steel_war.psi_action.{self.value}"


class PsiResult(Enum):
    """Whether the action could be attempted, and whether it worked."""

    IMPOSSIBLE = "impossible"
    FAILED = "failed"
    SUCCEEDED = "succeeded"


class PsiEffect(Enum):
    """What the game layer applies to the target after a successful action."""

    NONE = "none"
    REMOVE_SUPPRESSION = "remove_suppression"  # every suppression marker removed (SW-PSI-08)
    INSPIRATION_TEST = "inspiration_test"  # inspiration roll, psionic as commander (SW-PSI-09)
    NO_STEP_BACK = "no_step_back"  # enters «Ни шагу назад!» at once (SW-PSI-10)
    PSI_DETECTION = "psi_detection"  # psi die for this activation's observation (SW-PSI-11)
    AVERT_EYES = "avert_eyes"  # psi die against observation until end of turn (SW-PSI-12)
    MORALE_TEST = "morale_test"  # took a morale test here: ``morale_drop`` levels (SW-PSI-13)
    PANIC_TEST = "panic_test"  # must take a panic test on ``test_die`` (SW-PSI-14)
    LOSE_ACTIVATION = "lose_activation"  # counts as already activated (SW-PSI-15)
    LOSE_MORALE = "lose_morale"  # loses ``morale_drop`` levels, no test (SW-PSI-16)
    PANICKED = "panicked"  # falls into panic, no test (SW-PSI-16)
    MURDER = "murder"  # a model hit by a comrade's weapon, + markers, morale test (SW-PSI-17)


class Impossible(Enum):
    """Why a psi action cannot be attempted (reported in the log)."""

    NOT_A_PERSON = "not_a_person"
    NO_LINE_OF_SIGHT = "no_line_of_sight"
    OUT_OF_RANGE = "out_of_range"
    ONE_MAN_SQUAD = "one_man_squad"

    @property
    def msgid(self) -> str:
        """Message id of the explanation."""
        return f"steel_war.psi_impossible.{self.value}"


class BlastChoice(Enum):
    """The psionic's choice after a successful psi blast (SW-PSI-16)."""

    LOSE_MORALE = "lose_morale"
    PANIC = "panic"

    @property
    def msgid(self) -> str:
        """Message id of the option."""
        return f"steel_war.psi_blast_choice.{self.value}"


@dataclass(frozen=True, slots=True)
class PsiAttempt:
    """Who tries and at what: the psi die, the distance in inches, what the target is.

    ``target_machine``: the target is a vehicle or robot itself — psi only affects
    people, including vehicle crews (SW-PSI-05).
    """

    psi: Die
    distance: float = 0.0
    line_of_sight: bool = True
    target_machine: bool = False


@dataclass(frozen=True, slots=True)
class PsiTarget:
    """The squad that resists: its quality die, its commander's leadership, android or not."""

    quality: Die
    leadership: int
    android: bool = False

    @property
    def resisting_die(self) -> Die:
        """The die of its tests against psi (d6 for androids, SW-PSI-18)."""
        return resisting_die(self.quality, self.android)


@dataclass(frozen=True, slots=True)
class PsiOutcome:
    """The result of a psi action and the effect for the game layer to apply.

    ``morale_drop``: morale levels the target loses now; ``suppression``: suppression
    markers it receives; ``test_die``: the die of the test the game layer must still
    roll (panic), as a die name.
    """

    result: PsiResult
    effect: PsiEffect = PsiEffect.NONE
    morale_drop: int = 0
    suppression: int = 0
    test_die: str | None = None


#: The rule of each psi action (SW-PSI-08 .. SW-PSI-17).
ACTION_RULES: dict[PsiAction, str] = {
    PsiAction.REMOVE_SUPPRESSION: "SW-PSI-08",
    PsiAction.INSPIRATION: "SW-PSI-09",
    PsiAction.NO_STEP_BACK: "SW-PSI-10",
    PsiAction.DETECTION: "SW-PSI-11",
    PsiAction.AVERT_EYES: "SW-PSI-12",
    PsiAction.STRIKE: "SW-PSI-13",
    PsiAction.PANIC: "SW-PSI-14",
    PsiAction.CONFUSION: "SW-PSI-15",
    PsiAction.BLAST: "SW-PSI-16",
    PsiAction.MURDER: "SW-PSI-17",
}

_IMPOSSIBLE_RULES: dict[Impossible, tuple[str, ...]] = {
    Impossible.NOT_A_PERSON: ("SW-PSI-05",),
    Impossible.NO_LINE_OF_SIGHT: ("SW-PSI-05",),
    Impossible.OUT_OF_RANGE: ("SW-PSI-06", "SW-CORE-01"),
    Impossible.ONE_MAN_SQUAD: ("SW-PSI-17",),
}


def blocked(action: PsiAction, attempt: PsiAttempt, men: int | None = None) -> Impossible | None:
    """Why the psi action cannot be attempted at all, or None: psi works only on people,
    crews included (SW-PSI-05); beyond the first 12" zone only in sight (SW-PSI-05); not
    where the zone-degraded die would fall below d4 (SW-PSI-06); murder never in a one-man
    squad (``men``: its men, a man-sized weapon counting as one, SW-PSI-17).

    >>> from kubik.engine.dice import D6
    >>> blocked(PsiAction.STRIKE, PsiAttempt(D6, 30.0))
    <Impossible.OUT_OF_RANGE: 'out_of_range'>
    >>> blocked(PsiAction.MURDER, PsiAttempt(D6), men=1)
    <Impossible.ONE_MAN_SQUAD: 'one_man_squad'>
    """
    if attempt.target_machine:
        return Impossible.NOT_A_PERSON
    if psi_die_at(attempt.psi, attempt.distance) is None:
        return Impossible.OUT_OF_RANGE
    if needs_line_of_sight(attempt.distance) and not attempt.line_of_sight:
        return Impossible.NO_LINE_OF_SIGHT
    if action is PsiAction.MURDER and men is not None and too_few_for_murder(men):
        return Impossible.ONE_MAN_SQUAD
    return None


@decides("SW-PSI-17")
def too_few_for_murder(men: int) -> bool:
    """Murder does not work on a one-man squad; a man-sized weapon counts as a man (SW-PSI-17).

    >>> too_few_for_murder(1), too_few_for_murder(2)
    (True, False)
    """
    return men < PsiAction.MURDER.number("min_models")


@decides()
def may_use_psi(
    psionic: UnitSituation, action: PsiAction, attempt: PsiAttempt, men: int | None = None
) -> Verdict:
    """May the squad's psionic use ``action`` on a target as ``attempt`` describes it?

    A psi attack or support is an ordinary action, twice an activation at most, with the
    same restrictions as shooting: not while suppressed (SW-PSI-05, SW-SUP-01), only at
    a morale level that allows it (SW-MOR-01); the squad needs a psionic (SW-PSI-02);
    the target must be within reach (:func:`blocked`). Whether the roll can succeed at
    all is the odds', not a question of legality.
    """
    return all_of(
        has_psionic(psionic),
        basic_verdict(psionic, ActionType.PSI, Order(ActionType.PSI)),
        Verdict.allow("SW-PSI-05"),
        reaches(action, attempt, men),
    )


def has_psionic(unit: UnitSituation) -> Verdict:
    """Whether the unit has a psionic to act (SW-PSI-02)."""
    return Verdict.of(unit.psi is not None, msg("steel_war.permission.not_psionic"), "SW-PSI-02")


@decides()
def reaches(action: PsiAction, attempt: PsiAttempt, men: int | None = None) -> Verdict:
    """Whether the psi action can be attempted on the target at all (:func:`blocked`),
    with the rules of the reason when it cannot.

    >>> from kubik.engine.dice import D6
    >>> reaches(PsiAction.DETECTION, PsiAttempt(D6, 30.0)).rules
    ('SW-PSI-06', 'SW-CORE-01')
    """
    reason = blocked(action, attempt, men)
    if reason is None:
        return Verdict.allow()
    return Verdict.forbid(msg(reason.msgid), *_IMPOSSIBLE_RULES[reason])


@cache
def roll_rules(action: PsiAction, zone: int) -> RuleIds:
    """A psi roll's rules: using psi (SW-PSI-05), the roll and its zones (SW-PSI-06, die
    steps SW-CORE-01 beyond the first zone), the list (SW-PSI-07), the action's own rule.

    >>> roll_rules(PsiAction.STRIKE, 2)
    ('SW-PSI-05', 'SW-PSI-06', 'SW-PSI-07', 'SW-PSI-13', 'SW-CORE-01')
    """
    stepped = ("SW-CORE-01",) if zone > 1 else ()
    return ("SW-PSI-05", "SW-PSI-06", "SW-PSI-07", ACTION_RULES[action], *stepped)


@cache
def _resisting_rules(rule: str, android: bool) -> RuleIds:
    """The action's rule, and the androids' d6 when the target is androids (SW-PSI-18)."""
    return (rule, "SW-PSI-18") if android else (rule,)


def psi_roll(action: PsiAction, attempt: PsiAttempt) -> Procedure[PsiResult]:
    """The psi roll (SW-PSI-05, SW-PSI-06): the zone-degraded psi die against the threshold.

    Impossible when the target is not a person, is beyond the first zone and out of
    sight, or is so far that the die would fall below d4.
    """
    die = psi_die_at(attempt.psi, attempt.distance)
    zone = psi_zone(attempt.distance)
    reason = blocked(action, attempt)
    if reason is not None or die is None:
        impossible = reason or Impossible.OUT_OF_RANGE
        yield emit(
            "steel_war.psi.impossible",
            rules=_IMPOSSIBLE_RULES[impossible],
            action=action,
            reason=reason,
            zone=zone,
        )
        return PsiResult.IMPOSSIBLE
    threshold = action.threshold
    reading = PsiReading.from_data()
    faces = success_faces(die, threshold, reading)
    rules = roll_rules(action, zone)
    if faces in (0, die.faces):
        succeeded = faces == die.faces
        yield emit(
            "steel_war.psi.certain",
            rules=rules,
            action=action,
            die=die,
            zone=zone,
            threshold=threshold,
            succeeded=succeeded,
        )
    else:
        succeeded = yield Roll(
            die,
            msg(
                "steel_war.psi.roll",
                action=action,
                die=die,
                zone=zone,
                need=lowest_success(threshold, reading),
            ),
            roller="psionic",
            reduce=PsiSuccess(threshold, reading),
            rules=rules,
        )
        yield emit(
            "steel_war.psi.result",
            rules=rules,
            action=action,
            die=die,
            threshold=threshold,
            succeeded=succeeded,
        )
    return PsiResult.SUCCEEDED if succeeded else PsiResult.FAILED


def _plain(action: PsiAction, attempt: PsiAttempt, effect: PsiEffect) -> Procedure[PsiOutcome]:
    """An action whose whole effect is applied by the game layer."""
    result = yield from psi_roll(action, attempt)
    if result is not PsiResult.SUCCEEDED:
        return PsiOutcome(result)
    yield emit(f"steel_war.psi.effect.{effect.value}", rules=ACTION_RULES[action], action=action)
    return PsiOutcome(result, effect)


def psi_remove_suppression(attempt: PsiAttempt) -> Procedure[PsiOutcome]:
    """СНЯТИЕ ПОДАВЛЕНИЯ (SW-PSI-08): the target loses every suppression marker."""
    return (yield from _plain(PsiAction.REMOVE_SUPPRESSION, attempt, PsiEffect.REMOVE_SUPPRESSION))


def psi_inspiration(attempt: PsiAttempt) -> Procedure[PsiOutcome]:
    """ВООДУШЕВЛЕНИЕ (SW-PSI-09): the target takes an inspiration roll at once.

    As if the psionic were its direct commander nearby: no chain of command, no
    communication test; his leadership is :func:`psionic_leadership`.
    """
    return (yield from _plain(PsiAction.INSPIRATION, attempt, PsiEffect.INSPIRATION_TEST))


def psi_no_step_back(attempt: PsiAttempt) -> Procedure[PsiOutcome]:
    """«НИ ШАГУ НАЗАД!» (SW-PSI-10): the target enters the state, no test, no preconditions."""
    return (yield from _plain(PsiAction.NO_STEP_BACK, attempt, PsiEffect.NO_STEP_BACK))


def psi_detection(attempt: PsiAttempt) -> Procedure[PsiOutcome]:
    """ПСИ-ОБНАРУЖЕНИЕ (SW-PSI-11): the psi die may replace the observation die this activation."""
    return (yield from _plain(PsiAction.DETECTION, attempt, PsiEffect.PSI_DETECTION))


def psi_avert_eyes(attempt: PsiAttempt) -> Procedure[PsiOutcome]:
    """ОТВЕСТИ ГЛАЗА (SW-PSI-12): the psi die may replace the distance die against observation."""
    return (yield from _plain(PsiAction.AVERT_EYES, attempt, PsiEffect.AVERT_EYES))


def psi_confusion(attempt: PsiAttempt) -> Procedure[PsiOutcome]:
    """ЗАМЕШАТЕЛЬСТВО (SW-PSI-15): the target loses its activation."""
    return (yield from _plain(PsiAction.CONFUSION, attempt, PsiEffect.LOSE_ACTIVATION))


def psi_panic(attempt: PsiAttempt, quality: Die, android: bool = False) -> Procedure[PsiOutcome]:
    """ПАНИКА (SW-PSI-14): the target must take a panic test now, whatever its quality.

    The panic test is the panic rule's (SW-PANIC-01); the outcome names its die: the
    target's ``quality`` die, or d6 for androids.
    """
    result = yield from psi_roll(PsiAction.PANIC, attempt)
    if result is not PsiResult.SUCCEEDED:
        return PsiOutcome(result)
    die = resisting_die(quality, android)
    yield emit(
        "steel_war.psi.effect.panic_test",
        rules=_resisting_rules("SW-PSI-14", android),
        die=die,
        android=android,
    )
    return PsiOutcome(result, PsiEffect.PANIC_TEST, test_die=die.name)


def psi_strike(attempt: PsiAttempt, target: PsiTarget, threat: int = 0) -> Procedure[PsiOutcome]:
    """ПСИ-УДАР (SW-PSI-13): the target takes a morale test with threat + 3.

    ``threat``: any other threat that applies ("+" rows); the strike adds its own.
    Rolls: the psi die, then the target's die (d6 for androids).
    """
    result = yield from psi_roll(PsiAction.STRIKE, attempt)
    if result is not PsiResult.SUCCEEDED:
        return PsiOutcome(result)
    total = threat + PsiAction.STRIKE.number("extra_threat")
    die = target.resisting_die
    rules = _resisting_rules("SW-PSI-13", target.android)
    yield emit(
        "steel_war.psi.effect.morale_test",
        rules=rules,
        die=die,
        threat=total,
        android=target.android,
    )
    test: MoraleTestOutcome = yield Call(morale_test, (die, target.leadership, total, rules))
    return PsiOutcome(result, PsiEffect.MORALE_TEST, morale_drop=test.drop)


def psi_blast(
    attempt: PsiAttempt,
    preferred: BlastChoice = BlastChoice.LOSE_MORALE,
    side: str = "psionic",
) -> Procedure[PsiOutcome]:
    """ПСИ-ВЗРЫВ (SW-PSI-16): the psionic chooses — two morale levels lost, or panic
    («на выбор псионика»): his ``side`` decides once the blast has worked (a battle
    passes the psionic's side; alone, the rule calls it "psionic").

    ``preferred`` is the choice's default (taken by bots, odds and the CLI).
    """
    result = yield from psi_roll(PsiAction.BLAST, attempt)
    if result is not PsiResult.SUCCEEDED:
        return PsiOutcome(result)
    levels = PsiAction.BLAST.number("morale_levels")
    choice = yield Choose(
        tuple(BlastChoice),
        side=side,
        reason=msg("steel_war.psi.blast.choose", levels=levels),
        default=preferred,
        labels=tuple(msg(option.msgid) for option in BlastChoice),
        rules="SW-PSI-16",
    )
    if choice is BlastChoice.PANIC:
        yield emit("steel_war.psi.effect.panicked", rules=("SW-PSI-16", "SW-PANIC-01"))
        return PsiOutcome(result, PsiEffect.PANICKED)
    yield emit("steel_war.psi.effect.lose_morale", rules=("SW-PSI-16", "SW-MOR-01"), levels=levels)
    return PsiOutcome(result, PsiEffect.LOSE_MORALE, morale_drop=levels)


def psi_murder(
    attempt: PsiAttempt, target: PsiTarget, threat: int, models: int
) -> Procedure[PsiOutcome]:
    """УБИЙСТВО (SW-PSI-17): a controlled soldier shoots a comrade.

    ``threat``: the "commander lost" threat at the target's motivation (SW-MOR-06);
    ``models``: men in the target squad, a man-sized weapon counting as a man — a
    one-man squad cannot be targeted. On success the game layer resolves the hit
    (victim and shooter chosen by the psionic, armour against the shooter's weapon);
    the suppression marker and the morale test (d6 for androids) are given here.
    Rolls: the psi die, then the target's morale die.
    """
    if too_few_for_murder(models):
        yield emit(
            "steel_war.psi.impossible",
            rules=_IMPOSSIBLE_RULES[Impossible.ONE_MAN_SQUAD],
            action=PsiAction.MURDER,
            reason=Impossible.ONE_MAN_SQUAD,
            zone=psi_zone(attempt.distance),
        )
        return PsiOutcome(PsiResult.IMPOSSIBLE)
    result = yield from psi_roll(PsiAction.MURDER, attempt)
    if result is not PsiResult.SUCCEEDED:
        return PsiOutcome(result)
    markers = PsiAction.MURDER.number("suppression_markers")
    die = target.resisting_die
    rules = (
        *_resisting_rules("SW-PSI-17", target.android),
        "SW-MOR-06",
        "SW-MOR-03",
        "SW-SUP-01",
    )
    yield emit(
        "steel_war.psi.effect.murder",
        rules=rules,
        markers=markers,
        die=die,
        threat=threat,
        android=target.android,
    )
    test: MoraleTestOutcome = yield Call(morale_test, (die, target.leadership, threat, rules))
    return PsiOutcome(result, PsiEffect.MURDER, morale_drop=test.drop, suppression=markers)
