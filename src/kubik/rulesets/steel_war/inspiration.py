"""Communication (тест на связь) and inspiration (тест на воодушевление).

A superior officer inspires a squad in two stages (SW-MOR-08): he must get
through to it (SW-MOR-09: his quality die, one step worse per skipped link of the
chain of command, beating the worse leadership of the two; no test in line of
sight closer than 6"), then the *squad's* quality die must beat both leaderships
plus the squad's threat (SW-MOR-10). Success lifts morale one level, never above
the level the squad started at (SW-MOR-04).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from kubik.core.errors import InputError
from kubik.engine import Call, Procedure, Roll, Verdict, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import Die
from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.core import step_die
from kubik.rulesets.steel_war.morale_levels import MoraleLevel, Order, can_rise, raise_level
from kubik.rulesets.steel_war.psionics import telepathic_communication
from kubik.rulesets.steel_war.situation import UnitSituation, all_of, basic_verdict


@cache
def _comm() -> dict[str, Any]:
    return dict(load_ruleset_data("steel_war")["communication_test"])


@dataclass(frozen=True, slots=True)
class Contact:
    """Where the officer stands relative to the squad (plain facts from the table)."""

    distance: float | None = None  # inches; None = not measured / far away
    line_of_sight: bool = False
    radio: bool = True  # both parties have radio or telephone

    def waives_test(self) -> bool:
        """Contact is automatic in line of sight strictly closer than 6" (SW-MOR-09).

        >>> Contact(5.9, True).waives_test(), Contact(6.0, True).waives_test()
        (True, False)
        """
        limit = float(_comm()["waiver_below_inches"])
        return self.line_of_sight and self.distance is not None and self.distance < limit

    def possible(self) -> bool:
        """Any contact at all: radio on both sides, or within 6" in sight (SW-MOR-08).

        >>> Contact(7.0, True, radio=False).possible(), Contact(6.0, True, radio=False).possible()
        (False, True)
        """
        if self.radio:
            return True
        limit = float(_comm()["contact_within_inches"])
        return self.line_of_sight and self.distance is not None and self.distance <= limit


def skipped_links(officer: tuple[str, ...], squad: tuple[str, ...]) -> int | None:
    """Links of the chain of command an officer skips to reach a squad; ``None`` if he may not.

    Units are named by their path down the chain (battalion, company, platoon,
    squad). Only a superior in the squad's *direct* chain may inspire it (SW-MOR-08):
    his path must be a proper prefix of the squad's. The platoon leader skips no
    link, the company commander one, and so on.

    >>> squad = ("1bn", "3coy", "1plt", "sq2")
    >>> skipped_links(("1bn", "3coy", "1plt"), squad), skipped_links(("1bn", "3coy"), squad)
    (0, 1)
    >>> skipped_links(("1bn", "3coy", "2plt"), squad) is None
    True
    """
    if len(officer) >= len(squad) or squad[: len(officer)] != officer:
        return None
    return len(squad) - len(officer) - 1


def communication_die(quality: Die, skipped_links: int) -> Die:
    """The caller's quality die, one step worse per skipped link (clamped at d4, SW-MOR-09).

    >>> from kubik.engine.dice import D10
    >>> communication_die(D10, 1)
    Die(faces=8)
    """
    if skipped_links < 0:
        raise InputError(f"skipped_links must be 0 or more, not {skipped_links}")
    return step_die(quality, int(_comm()["steps_per_skipped_link"]) * skipped_links)


def communication_target(leadership: int, other_leadership: int) -> int:
    """The number to beat: the worse (higher) of the two leaderships.

    >>> communication_target(1, 3)
    3
    """
    return max(leadership, other_leadership)


@dataclass(frozen=True, slots=True)
class CommunicationOutcome:
    """Whether contact was made."""

    communicated: bool


def contact_possible(
    contact: Contact, psi: Die | None = None, other_psi: Die | None = None
) -> bool:
    """Whether the two can be in contact at all: radio on both sides or within 6" in sight
    (SW-MOR-08), or two psionics, who keep in touch telepathically (SW-PSI-04).

    >>> from kubik.engine.dice import D6
    >>> contact_possible(Contact(30.0, radio=False), D6, D6)
    True
    """
    telepathy = telepathic_communication(Die(4), psi, other_psi).automatic
    return telepathy or contact.possible()


def communication_test(
    quality: Die,
    leadership: int,
    other_leadership: int,
    skipped_links: int,
    contact: Contact,
    psi: Die | None = None,
    other_psi: Die | None = None,
) -> Procedure[CommunicationOutcome]:
    """The caller's (stepped) quality die must beat the worse leadership of the two.

    ``psi``, ``other_psi``: each party's psi die if it has a psionic (SW-PSI-04): two
    psionics always pass; a psionic and ordinary troops roll the better of the psi die
    and the quality die.
    """
    telepathy = telepathic_communication(quality, psi, other_psi)
    if telepathy.automatic:
        yield emit("steel_war.communication.telepathic", rules=("SW-PSI-04", "SW-MOR-09"))
        return CommunicationOutcome(True)
    if not contact.possible():
        yield emit(
            "steel_war.communication.no_contact", rules="SW-MOR-08", distance=contact.distance
        )
        return CommunicationOutcome(False)
    if contact.waives_test():
        yield emit("steel_war.communication.waived", rules="SW-MOR-09", distance=contact.distance)
        return CommunicationOutcome(True)
    die = communication_die(telepathy.die, skipped_links)
    target = communication_target(leadership, other_leadership)
    rules = ["SW-MOR-09", "SW-CORE-02"]
    if skipped_links:
        rules.append("SW-CORE-01")
    if telepathy.die != quality:
        rules.append("SW-PSI-04")
    (roll,) = yield Roll(
        die,
        msg("steel_war.communication.roll", target=target, die=die),
        roller="officer",
        rules=tuple(rules),
    )
    passed = roll > target
    yield emit(
        "steel_war.communication.result",
        rules="SW-MOR-09",
        die=die,
        roll=roll,
        target=target,
        skipped=skipped_links,
        passed=passed,
    )
    return CommunicationOutcome(passed)


@dataclass(frozen=True, slots=True)
class InspirationOutcome:
    """Whether the officer got through, and whether the squad's morale rose."""

    communicated: bool
    raised: bool


@dataclass(frozen=True, slots=True)
class Inspiration:
    """One inspiration attempt: the officer, the squad, and where they stand."""

    officer_quality: Die
    officer_leadership: int
    squad_quality: Die
    squad_leadership: int
    threat: int
    skipped_links: int = 0
    contact: Contact = Contact()
    level: MoraleLevel | None = None
    start_level: MoraleLevel | None = None
    officer_psi: Die | None = None
    squad_psi: Die | None = None


def inspiration_target(officer_leadership: int, squad_leadership: int, threat: int) -> int:
    """N = officer's leadership + squad commander's leadership + squad's threat (SW-MOR-10).

    >>> inspiration_target(2, 2, 2)
    6
    """
    return officer_leadership + squad_leadership + threat


def inspire(attempt: Inspiration) -> Procedure[InspirationOutcome]:
    """Communication test, then the squad's quality die must beat N (one commander action).

    When both levels are given and the squad is already at its starting level, no
    test is taken: morale cannot rise above the start (SW-MOR-04).
    """
    if (
        attempt.level is not None
        and attempt.start_level is not None
        and not can_rise(attempt.level, attempt.start_level)
    ):
        yield emit(
            "steel_war.inspiration.at_start_level",
            rules="SW-MOR-04",
            level=attempt.level,
            start=attempt.start_level,
        )
        return InspirationOutcome(communicated=False, raised=False)
    contact: CommunicationOutcome = yield Call(
        communication_test,
        (
            attempt.officer_quality,
            attempt.officer_leadership,
            attempt.squad_leadership,
            attempt.skipped_links,
            attempt.contact,
            attempt.officer_psi,
            attempt.squad_psi,
        ),
    )
    if not contact.communicated:
        yield emit("steel_war.inspiration.no_contact", rules="SW-MOR-08")
        return InspirationOutcome(communicated=False, raised=False)
    target = inspiration_target(
        attempt.officer_leadership, attempt.squad_leadership, attempt.threat
    )
    rules = ("SW-MOR-10", "SW-CORE-02", *(("SW-MOR-06", "SW-MOR-03") if attempt.threat else ()))
    (roll,) = yield Roll(
        attempt.squad_quality,
        msg("steel_war.inspiration.roll", target=target),
        roller="squad",
        rules=rules,
    )
    raised = roll > target
    yield emit(
        "steel_war.inspiration.result",
        rules="SW-MOR-10",
        die=attempt.squad_quality,
        roll=roll,
        officer=attempt.officer_leadership,
        squad=attempt.squad_leadership,
        threat=attempt.threat,
        target=target,
        raised=raised,
    )
    if raised and attempt.level is not None:
        start = attempt.start_level if attempt.start_level is not None else MoraleLevel.CONFIDENT
        levels = int(load_ruleset_data("steel_war")["inspiration"]["levels_raised"])
        yield emit(
            "steel_war.inspiration.level",
            rules=("SW-MOR-10", "SW-MOR-04", "SW-MOR-01"),
            before=attempt.level,
            after=raise_level(attempt.level, start, levels),
        )
    return InspirationOutcome(communicated=True, raised=raised)


@decides()
def may_inspire(
    officer: UnitSituation,
    level: MoraleLevel,
    start_level: MoraleLevel,
    skipped_links: int | None,
    contact: Contact,
    squad_psi: Die | None = None,
) -> Verdict:
    """May ``officer`` spend an action to inspire a squad at ``level`` now (SW-MOR-08)?

    Only a superior in the squad's direct chain of command (``skipped_links`` from
    :func:`skipped_links`, None when he is not), on the table and in contact with it
    (radio on both sides, or within 6" in sight; two psionics always, SW-PSI-04); one of
    his actions, twice an activation at most; and only while the squad is below the
    level it started the battle at (SW-MOR-04).
    """
    reachable = contact_possible(contact, officer.psi, squad_psi)
    return _may_inspire(officer, level, start_level, skipped_links is not None, reachable)


@lru_cache(maxsize=4096)
def _may_inspire(
    officer: UnitSituation,
    level: MoraleLevel,
    start_level: MoraleLevel,
    in_chain: bool,
    reachable: bool,
) -> Verdict:
    """:func:`may_inspire` once the chain of command and the contact are read: remembered,
    as every menu of an officer asks it of each of his squads."""
    verdicts = [basic_verdict(officer, ActionType.INSPIRE, Order(ActionType.INSPIRE))]
    verdicts.append(
        Verdict.of(officer.officer, msg("steel_war.permission.not_officer"), "SW-MOR-08")
    )
    verdicts.append(Verdict.of(in_chain, msg("steel_war.permission.not_in_chain"), "SW-MOR-08"))
    verdicts.append(Verdict.of(reachable, msg("steel_war.permission.no_contact"), "SW-MOR-08"))
    verdicts.append(
        Verdict.of(
            can_rise(level, start_level),
            msg("steel_war.permission.at_start_level", level=level, start=start_level),
            "SW-MOR-04",
        )
    )
    return all_of(*verdicts)


@decides()
def may_pass_action(
    officer: UnitSituation,
    skipped_links: int | None,
    contact: Contact,
    squad_psi: Die | None = None,
) -> Verdict:
    """May ``officer`` spend one of his actions to give a squad an extra action now?

    Not in the seed, which only mentions it («командир „передаст действие“»); the
    default (SW-ABSENT-01): a commander passes one of his actions to a squad of his in
    contact with him; the squad takes it at once, even if it has already activated this
    turn, but never to retry a reaction test it failed this turn (SW-REACT-01) — its
    own questions with ``passed=True`` say what it may do with it.
    """
    reachable = contact_possible(contact, officer.psi, squad_psi)
    return _may_pass_action(officer, skipped_links is not None, reachable)


@lru_cache(maxsize=4096)
def _may_pass_action(officer: UnitSituation, in_chain: bool, reachable: bool) -> Verdict:
    """:func:`may_pass_action` once the chain of command and the contact are read
    (remembered: every menu of an officer asks it of each of his squads)."""
    return all_of(
        basic_verdict(officer, ActionType.PASS_ACTION, Order(ActionType.PASS_ACTION)),
        Verdict.of(officer.officer, msg("steel_war.permission.not_officer"), "SW-ABSENT-01"),
        Verdict.of(in_chain, msg("steel_war.permission.not_in_chain"), "SW-ABSENT-01"),
        Verdict.of(
            reachable, msg("steel_war.permission.no_contact"), "SW-ABSENT-01", "SW-ABSENT-04"
        ),
    )


@decides()
@lru_cache(maxsize=4096)  # (a menu asks it of every situation again)
def may_communicate(unit: UnitSituation) -> Verdict:
    """May ``unit`` spend an action «выход на связь» (SW-ABSENT-04 default: one action)?
    One of a suppressed squad's five actions (SW-SUP-01)."""
    return all_of(basic_verdict(unit, ActionType.COMMUNICATE), Verdict.allow("SW-ABSENT-04"))
