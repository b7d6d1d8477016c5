"""Backing off after a lost fight (OW-CC-04, OW-CC-09, OW-CC-10): how a loser goes back
1", when he is trapped or falls, and which ways back the table may offer him. The round
itself (:mod:`kubik.rulesets.old_west.combat`) asks these rules for each loser."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from kubik.engine import Verdict, msg
from kubik.engine.applied import decides, record
from kubik.rulesets.old_west.core import data, number


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
    away: bool = True  # ends farther from every opponent than he stood
    on_obstacle: bool = False  # ends standing on a fence or in a trough


#: How much more than the full 1" a loser's step back may measure (inches): the 0.1"
#: grid's rounding and a hand placing the model, never a second step.
BY_HAND = 0.2


@decides()
def back_off_path(path: BackOffPath) -> Verdict:
    """Is this a lawful way back for a loser? The full 1" away from his opponents
    (OW-CC-04; give or take a hand's placing, :data:`BY_HAND`), touching no other enemy —
    control zones do not stop him (OW-CC-04) — without jumping or climbing an obstacle to
    avoid being trapped (OW-CC-09), and never ending on one (OW-ABSENT-02).

    >>> back_off_path(BackOffPath(1.0)).allowed, back_off_path(BackOffPath(1.0, climbs=True)).rules
    (True, ('OW-CC-09',))
    >>> back_off_path(BackOffPath(2.0)).allowed, back_off_path(BackOffPath(1.0, away=False)).allowed
    (False, False)
    """
    if path.climbs:
        return Verdict.forbid(msg("old_west.permission.back_off_climb"), "OW-CC-09")
    if path.touches_enemy:
        return Verdict.forbid(msg("old_west.permission.back_off_touch"), "OW-CC-04")
    if path.on_obstacle:
        return Verdict.forbid(msg("old_west.permission.on_obstacle"), "OW-ABSENT-02")
    inches = number("close_combat", "back_off_inches")
    if not path.away:
        return Verdict.forbid(msg("old_west.permission.back_off_away", inches=inches), "OW-CC-04")
    if path.length < inches - 1e-9:
        return Verdict.forbid(msg("old_west.permission.back_off_short", inches=inches), "OW-CC-04")
    if path.length > inches + BY_HAND + 1e-9:
        return Verdict.forbid(msg("old_west.permission.back_off_long", inches=inches), "OW-CC-04")
    return Verdict.allow("OW-CC-04")


@dataclass(frozen=True, slots=True)
class MakingWay:
    """A model in the way of a trapped loser who must still get out of contact."""

    in_fight: bool = False  # it is in a fight (base contact a charge started)
    friend: bool = True  # of the loser's own side
    winner: bool = False  # one of the loser's own opponents, in no other fight


@decides()
def may_make_way(model: MakingWay) -> Verdict:
    """May this model shuffle aside a little to let a trapped loser out of contact? The
    loser «всё равно должен ... переместиться таким образом, чтобы его подставка более не
    касалась противника — если необходимо другие фигурки должны чуть-чуть сдвинуться»
    (OW-CC-09): any model not in a fight, friend or enemy; one of his own opponents whose
    only fight this was (when nothing else lets him out: the battle asks this last); a
    model in another fight holds its ground.

    >>> may_make_way(MakingWay()).allowed, may_make_way(MakingWay(friend=False)).allowed
    (True, True)
    >>> may_make_way(MakingWay(in_fight=True)).rules
    ('OW-CC-09',)
    >>> may_make_way(MakingWay(in_fight=True, friend=False, winner=True)).allowed
    True
    """
    if model.in_fight and not model.winner:
        return Verdict.forbid(msg("old_west.permission.make_way_fighting"), "OW-CC-09")
    return Verdict.allow("OW-CC-09")


@decides()
def out_of_contact(touches_enemy: bool, on_obstacle: bool = False, room: bool = True) -> Verdict:
    """Where may a trapped loser end? Anywhere he gets to without a jump or a climb that no
    longer touches the enemy (OW-CC-09), not on an obstacle (OW-ABSENT-02), where the
    models in his way can make room (``room``: they may shuffle aside, :func:`may_make_way`).

    >>> out_of_contact(False).allowed, out_of_contact(True).allowed
    (True, False)
    """
    if touches_enemy:
        return Verdict.forbid(msg("old_west.permission.still_touching"), "OW-CC-09")
    if not room:
        return Verdict.forbid(msg("old_west.permission.no_room_there"), "OW-CC-09")
    if on_obstacle:
        return Verdict.forbid(msg("old_west.permission.on_obstacle"), "OW-ABSENT-02")
    return Verdict.allow("OW-CC-09")


@decides("OW-CC-04")
def back_off_inches() -> float:
    """How far a loser backs off from his opponents, in inches (OW-CC-04)."""
    return float(number("close_combat", "back_off_inches"))


def back_off_turns() -> tuple[float, ...]:
    """The ways a loser tries to back off, in degrees from straight away from his
    opponents, in order: straight away first, then the data's angles (any way that takes
    him away from them is a way back, OW-CC-04/09)."""
    return (0.0, *(float(a) for a in data()["battle"]["back_off_angles"]))


@dataclass(frozen=True, slots=True)
class MakeWay:
    """Where a trapped loser may end out of contact, the others making way (OW-CC-09):
    places up to ``inches`` from where he stood, ``directions`` ways round."""

    inches: float
    directions: int


@decides("OW-CC-09")
def make_way_reach() -> MakeWay:
    """How far and in how many directions a trapped loser looks for room (OW-CC-09)."""
    table = data()["battle"]
    return MakeWay(float(table["make_way_inches"]), int(table["make_way_directions"]))
