"""Hiding (Маскировка), detection and shooting from ambush (seeds 000 and 003).

A warrior hides when he ends his move next to cover (RA-HIDE-01); in the activation
edition it costs FP. He cannot hide after charging (or, in the turn edition, running)
(RA-HIDE-04), nor within an enemy's detection radius: the enemy's Подвижность in the
activation edition, half of it in the turn edition (RA-HIDE-06). Hidden warriors cannot
be shot at (RA-HIDE-02); shooting or moving in sight reveals them (RA-HIDE-03), but a
hidden warrior may move stealthily where he might hide: behind cover (RA-HIDE-04). In the
activation edition, after a move the opponent rolls d6 + the Подвижность of his
warrior nearest to the hiders and finds them when the total reaches the distance
(RA-HIDE-05); in the turn edition a moving enemy finds a hidden model that comes within
his radius (RA-HIDE-07). A hidden shooter stays hidden after a silent shot that takes
the target out, unless one of the witnesses passes a Подвижность test (RA-AMB-01/02);
in the activation edition a squad shot at from ambush takes a panic test (RA-AMB-03).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from kubik.engine import Call, Procedure, Roll, Verdict, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import D6
from kubik.rulesets.apocalypse.checks import mobility_test
from kubik.rulesets.apocalypse.core import Edition, number


def detection_radius(mobility: int, edition: Edition) -> Fraction:
    """How close an enemy always finds a hidden warrior (RA-HIDE-06): the seeds' example,
    Подвижность 4, is 4 paces in the activation edition and 2 in the turn edition; odd
    values keep the exact half.

    >>> detection_radius(4, Edition.ACTIVATION), detection_radius(4, Edition.TURN)
    (Fraction(4, 1), Fraction(2, 1))
    >>> detection_radius(3, Edition.TURN)
    Fraction(3, 2)
    """
    key = edition.value
    return Fraction(
        mobility * number("hiding", f"{key}_radius_numerator"),
        number("hiding", f"{key}_radius_denominator"),
    )


@decides("RA-HIDE-06")
def auto_detected(distance: float, enemy_mobility: int, edition: Edition) -> bool:
    """Whether an enemy at ``distance`` paces finds a hidden warrior without a roll.

    >>> auto_detected(3.0, 4, Edition.ACTIVATION), auto_detected(3.0, 4, Edition.TURN)
    (True, False)
    """
    return distance <= detection_radius(enemy_mobility, edition)


@dataclass(frozen=True, slots=True)
class Hider:
    """What the permission to hide needs: next to cover, what he did this turn, the
    nearest enemy's distance and Подвижность, the side's FP (activation edition)."""

    edition: Edition
    next_to_cover: bool
    charged: bool = False
    ran: bool = False
    guarding: bool = False
    banned: bool = False  # revealed this turn and "can no longer hide" (RA-HIDE-07, RA-AMB-02)
    nearest_enemy: float = 99.0
    nearest_enemy_mobility: int = 0
    fp: int = 0
    staying: bool = False  # already hidden, moving stealthily: nothing more to pay (RA-HIDE-04)


@decides()
def may_hide(h: Hider) -> Verdict:
    """May he hide at the end of this move? (RA-HIDE-01, -04, -06, -07, RA-GUARD-01,
    RA-AMB-02)"""
    if not h.next_to_cover:
        return Verdict.forbid(msg("apocalypse.permission.no_cover"), "RA-HIDE-01")
    if h.charged or (h.ran and h.edition is Edition.TURN):
        return Verdict.forbid(msg("apocalypse.permission.charged_or_ran"), "RA-HIDE-04")
    if h.guarding:
        return Verdict.forbid(msg("apocalypse.permission.guard_cannot_hide"), "RA-GUARD-01")
    if h.banned:
        rule = "RA-HIDE-07" if h.edition is Edition.TURN else "RA-HIDE-05"
        return Verdict.forbid(msg("apocalypse.permission.found"), rule, "RA-AMB-02")
    if h.nearest_enemy_mobility and auto_detected(
        h.nearest_enemy, h.nearest_enemy_mobility, h.edition
    ):
        return Verdict.forbid(msg("apocalypse.permission.enemy_too_close"), "RA-HIDE-06")
    if h.edition is Edition.ACTIVATION and not h.staying:
        cost = number("hiding", "fp_cost")
        return Verdict.of(
            h.fp >= cost, msg("apocalypse.permission.no_fp"), "RA-HIDE-01", "RA-ABSENT-10"
        )
    return Verdict.allow("RA-HIDE-01")


@decides()
def may_sneak(h: Hider) -> Verdict:
    """May a hidden warrior stay hidden where he stands now on his way (RA-HIDE-04: «он так
    же может скрытно двигаться за укрытием»)? Where he might hide (:func:`may_hide`, with
    ``next_to_cover`` meaning behind cover from every enemy who sees him), with nothing
    more to pay: not after running (turn edition) or charging, not found, not within an
    enemy's detection radius.

    >>> may_sneak(Hider(Edition.TURN, next_to_cover=True)).rules
    ('RA-HIDE-04', 'RA-HIDE-01')
    >>> may_sneak(Hider(Edition.TURN, next_to_cover=True, ran=True)).allowed
    False
    """
    verdict = may_hide(replace(h, staying=True))
    rules = ("RA-HIDE-04", *(r for r in verdict.rules if r != "RA-HIDE-04"))
    if verdict.allowed:
        return Verdict.allow(*rules)
    return Verdict.forbid(verdict.reason or msg("apocalypse.permission.no_cover"), *rules)


@decides()
def may_target(hidden: bool) -> Verdict:
    """A hidden warrior cannot be the target of a shot (RA-HIDE-02).

    >>> may_target(True).allowed
    False
    """
    return Verdict.of(not hidden, msg("apocalypse.permission.hidden"), "RA-HIDE-02")


def detection_roll(mobility: int, distance: int, unseen_by: str = "") -> Procedure[bool]:
    """Activation edition (RA-HIDE-05): d6 + the nearest warrior's Подвижность against the
    distance in paces; the hiders are found when it is reached. ``unseen_by``: the side
    a battle keeps the roll from (it tells where the hiders are); the rule ignores it."""
    secret = {"unseen_by": unseen_by} if unseen_by else {}
    (value,) = yield Roll(
        D6,
        msg("apocalypse.hiding.detection_roll", mobility=mobility, distance=distance, **secret),
        rules=("RA-HIDE-05",),
    )
    found = value + mobility >= distance
    yield emit("apocalypse.hiding.detection", rules=("RA-HIDE-05",), found=found, **secret)
    return bool(found)


@decides()
def stays_unnoticed_possible(target_out: bool, silent: bool) -> Verdict:
    """Ambush (RA-AMB-01): a hidden shooter may stay hidden only when the target went out
    of action from the shot and the weapon is silent.

    >>> stays_unnoticed_possible(True, False).allowed
    False
    """
    if not silent:
        return Verdict.forbid(msg("apocalypse.permission.loud_weapon"), "RA-AMB-01", "RA-HIDE-03")
    return Verdict.of(
        target_out, msg("apocalypse.permission.target_survived"), "RA-AMB-01", "RA-HIDE-03"
    )


def witnesses(mobilities: Sequence[int]) -> Procedure[bool]:
    """Ambush (RA-AMB-02): every enemy who saw the target fall and sees the shooter takes a
    Подвижность test; one pass is enough to reveal the shooter. Returns "revealed"."""
    revealed = False
    for mobility in mobilities:
        if (yield Call(mobility_test, (mobility,))):
            revealed = True
            break
    yield emit("apocalypse.hiding.ambush", rules=("RA-AMB-02",), revealed=revealed)
    return revealed


@decides("RA-AMB-03")
def ambush_panic_applies(edition: Edition) -> bool:
    """Only the activation edition makes a squad shot at from ambush test for panic
    (RA-AMB-03); the turn edition has no such clause.

    >>> ambush_panic_applies(Edition.ACTIVATION), ambush_panic_applies(Edition.TURN)
    (True, False)
    """
    return edition is Edition.ACTIVATION


__all__ = [
    "Hider",
    "ambush_panic_applies",
    "auto_detected",
    "detection_radius",
    "detection_roll",
    "may_hide",
    "may_sneak",
    "may_target",
    "stays_unnoticed_possible",
    "witnesses",
]
