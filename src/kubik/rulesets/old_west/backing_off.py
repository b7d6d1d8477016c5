"""Backing off after a lost fight (OW-CC-04, OW-CC-09, OW-CC-10): how a loser goes back
1", when he is trapped or falls, and which ways back the table may offer him. The round
itself (:mod:`kubik.rulesets.old_west.combat`) asks these rules for each loser."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from kubik.engine import Verdict, msg
from kubik.engine.applied import decides, record
from kubik.rulesets.old_west.core import number


class BackOff(StrEnum):
    """What backing off 1" does to a loser (OW-CC-04, OW-CC-09, OW-CC-10)."""

    BACKED_OFF = "backed_off"
    TRAPPED = "trapped"  # strikes on him are doubled; he still ends out of contact
    FALLS = "falls"  # at a cliff edge: normal strikes, then he falls

    @property
    def msgid(self) -> str:
        """Message id of its description."""
        return f"old_west.back_off.{self.value}"

    @property
    def others_make_way(self) -> bool:
        """A trapped loser still ends the round no longer touching the enemy: other models
        shuffle aside to let him out (OW-CC-09)."""
        return self is BackOff.TRAPPED


@dataclass(frozen=True, slots=True)
class Loser:
    """A model that lost a fight, as the table measures its way back.

    ``room``: a way 1" back exists that touches no other enemy and needs no jump or
    climb (:func:`back_off_path`; against several enemies, through a gap between them
    wide enough, OW-CC-13); ``cliff_drop``: inches, when it stands at the edge of a drop.
    """

    room: bool = True
    prone: bool = False
    cliff_drop: int = 0


def back_off(loser: Loser) -> BackOff:
    """How a loser backs off: one at a cliff edge takes normal strikes and falls (OW-CC-09);
    a prone loser stays down and counts as trapped (OW-CC-10); one with no room for the
    full 1" is trapped (OW-CC-09); the others back off 1" (OW-CC-04).

    >>> back_off(Loser()).value, back_off(Loser(room=False)).value
    ('backed_off', 'trapped')
    >>> back_off(Loser(prone=True)).value, back_off(Loser(room=False, cliff_drop=3)).value
    ('trapped', 'falls')
    """
    if loser.cliff_drop > 0:
        record("OW-CC-09", "OW-ABSENT-05")
        return BackOff.FALLS
    if loser.prone or not loser.room:
        record(*(("OW-CC-10", "OW-CC-09") if loser.prone else ("OW-CC-09",)))
        return BackOff.TRAPPED
    record("OW-CC-04")
    return BackOff.BACKED_OFF


@decides()
def may_back_off(loser: Loser) -> Verdict:
    """May the loser back off the full 1"? Forbidden means trapped — strikes on him
    doubled (OW-CC-09), lying on the ground (OW-CC-10) or with no way back; at a cliff
    edge he goes over it and falls (OW-CC-09, OW-ABSENT-05)."""
    move = back_off(loser)
    if move is BackOff.FALLS:
        return Verdict.allow("OW-CC-09", "OW-ABSENT-05")
    if move is BackOff.BACKED_OFF:
        return Verdict.allow("OW-CC-04")
    if loser.prone:
        return Verdict.forbid(msg("old_west.permission.prone_trapped"), "OW-CC-10", "OW-CC-09")
    return Verdict.forbid(msg("old_west.permission.trapped"), "OW-CC-09")


@dataclass(frozen=True, slots=True)
class BackOffPath:
    """One way a loser might back off, as the table measures it."""

    length: float  # inches it takes him away from his opponents
    touches_enemy: bool = False  # ends touching (or passes through) another enemy
    climbs: bool = False  # jumps or climbs an obstacle on the way


@decides()
def back_off_path(path: BackOffPath) -> Verdict:
    """Is this a lawful way back for a loser? The full 1" (OW-CC-04), touching no other
    enemy — control zones do not stop him (OW-CC-04) — and without jumping or climbing
    an obstacle to avoid being trapped (OW-CC-09).

    >>> back_off_path(BackOffPath(1.0)).allowed, back_off_path(BackOffPath(1.0, climbs=True)).rules
    (True, ('OW-CC-09',))
    """
    if path.climbs:
        return Verdict.forbid(msg("old_west.permission.back_off_climb"), "OW-CC-09")
    if path.touches_enemy:
        return Verdict.forbid(msg("old_west.permission.back_off_touch"), "OW-CC-04")
    inches = number("close_combat", "back_off_inches")
    if path.length < inches - 1e-9:
        return Verdict.forbid(msg("old_west.permission.back_off_short", inches=inches), "OW-CC-04")
    return Verdict.allow("OW-CC-04")
