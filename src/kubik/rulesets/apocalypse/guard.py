"""Guard (Караул, seed 000) and Watch (Дозор, seed 003): shooting out of turn.

Only foot warriors not in a fight may stand guard (RA-GUARD-01). In the turn edition
it is declared at the start of his turn and costs the whole turn; in the activation
edition during his activation, after which he neither moves nor shoots in it. During
the enemy's turn he may shoot at any target he sees, before, during or after its move
(RA-GUARD-02), at −1 against a fleeting target and −1 against a charger (RA-GUARD-04,
they stack). He leaves guard once he has shot, at the end of an enemy turn without a
shot, and at once when he is hit or forced to move (RA-GUARD-03).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from kubik.engine import Verdict, msg
from kubik.engine.applied import decides
from kubik.rulesets.apocalypse.core import Edition


class GuardEnd(StrEnum):
    """Why a warrior left guard (RA-GUARD-03)."""

    SHOT = "shot"
    QUIET_TURN = "quiet_turn"
    HARMED = "harmed"
    MOVED = "moved"

    @property
    def msgid(self) -> str:
        """Message id of its name."""
        return f"apocalypse.guard.end.{self.value}"


@dataclass(frozen=True, slots=True)
class Sentry:
    """What the permission to stand guard needs."""

    edition: Edition
    on_foot: bool = True
    in_combat: bool = False
    start_of_turn: bool = True  # turn edition: only at the start of his turn
    moved_or_shot: bool = False


@decides()
def may_guard(s: Sentry) -> Verdict:
    """May he stand guard now? (RA-GUARD-01)

    >>> may_guard(Sentry(Edition.TURN, start_of_turn=False)).allowed
    False
    >>> may_guard(Sentry(Edition.ACTIVATION, start_of_turn=False)).allowed
    True
    """
    if not s.on_foot:
        return Verdict.forbid(msg("apocalypse.permission.not_on_foot"), "RA-GUARD-01")
    if s.in_combat:
        return Verdict.forbid(msg("apocalypse.permission.in_combat"), "RA-GUARD-01")
    if s.edition is Edition.TURN and (not s.start_of_turn or s.moved_or_shot):
        return Verdict.forbid(msg("apocalypse.permission.watch_at_start"), "RA-GUARD-01")
    return Verdict.allow("RA-GUARD-01")


@decides()
def may_guard_fire(guarding: bool, sees: bool, target_hidden: bool) -> Verdict:
    """May a guard shoot at this enemy now? (RA-GUARD-02, RA-HIDE-02)"""
    if not guarding:
        return Verdict.forbid(msg("apocalypse.permission.not_guarding"), "RA-GUARD-02")
    if target_hidden:
        return Verdict.forbid(msg("apocalypse.permission.hidden"), "RA-HIDE-02")
    return Verdict.of(sees, msg("apocalypse.permission.unseen"), "RA-GUARD-02")


def guard_ends(shot: bool, turn_over: bool, harmed: bool, moved: bool) -> GuardEnd | None:
    """Whether guard ends now, and why (RA-GUARD-03).

    >>> guard_ends(False, True, False, False)
    <GuardEnd.QUIET_TURN: 'quiet_turn'>
    """
    if harmed:
        return GuardEnd.HARMED
    if moved:
        return GuardEnd.MOVED
    if shot:
        return GuardEnd.SHOT
    if turn_over:
        return GuardEnd.QUIET_TURN
    return None


__all__ = ["GuardEnd", "Sentry", "guard_ends", "may_guard", "may_guard_fire"]
