"""Who may shoot, and at whom (OW-ABSENT-04 default; OW-PLK-05, OW-PLK-06, OW-HERO-11).

The shooting rules are absent from the seed (the shot itself is
:func:`~kubik.rulesets.old_west.absent.shoot`). Our defaults, from the data: a model
shoots once a phase with a weapon it carries, at an enemy it sees within the weapon's
range (edge to edge), neither of them in a fight (``shooting.shoot_into_fights``), and
a "move or fire" weapon only if the model moved little enough this turn (the weapon's
``max_move_fraction``). The seed's own rules on top: a model that failed Diving for
cover cannot shoot back (OW-PLK-06), a scared one does nothing else that phase and an
enemy of Fearsome Reputation needs a Pluck test first (OW-PLK-05), nobody shoots twice
in a phase (OW-HERO-11).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from kubik.core.keeping import Kept
from kubik.engine import Verdict, msg
from kubik.engine.applied import decides
from kubik.rulesets.data import DataError
from kubik.rulesets.old_west.core import Status, data, on_table
from kubik.rulesets.old_west.pluck import reputation_check


@dataclass(frozen=True, slots=True)
class Shooter:
    """What the shooting rules need of a model about to shoot."""

    weapons: tuple[str, ...]  # ids of the weapons it carries (data ``weapons``)
    status: Status = Status.IN_ACTION
    engaged: bool = False  # in base contact with an enemy: it is in a fight
    pinned: bool = False  # failed Diving for cover this turn (OW-PLK-06)
    scared: bool = False  # failed a Fearsome Reputation test this phase (OW-PLK-05)
    shot: bool = False  # already shot this phase (OW-HERO-11)


@decides()
def may_shoot(model: Shooter) -> Verdict:
    """May the model shoot this phase at all? In play, armed, not in a fight (OW-ABSENT-04
    default), not pinned after failing Diving for cover (OW-PLK-06), not scared
    (OW-PLK-05), not a second time (OW-HERO-11).

    >>> may_shoot(Shooter(("pistol",))).allowed, may_shoot(Shooter(("pistol",), pinned=True)).rules
    (True, ('OW-PLK-06',))
    """
    gone = on_table(model.status)
    if not gone.allowed:
        return gone
    if not model.weapons:
        return Verdict.forbid(msg("old_west.permission.unarmed"), "OW-ABSENT-04")
    if model.engaged:
        return Verdict.forbid(msg("old_west.permission.engaged_shoot"), "OW-ABSENT-04")
    if model.pinned:
        return Verdict.forbid(msg("old_west.permission.pinned"), "OW-PLK-06")
    if model.scared:
        return Verdict.forbid(msg("old_west.permission.scared"), "OW-PLK-05")
    if model.shot:
        return Verdict.forbid(msg("old_west.permission.shot"), "OW-HERO-11")
    return Verdict.allow("OW-ABSENT-04")


def weapon(weapon_id: str) -> dict[str, Any]:
    """A weapon's row of the data (range, Strength, names, move limit)."""
    table = data()["weapons"]
    row = table.get(weapon_id)
    if not isinstance(row, dict) or weapon_id in {"provenance", "provenance_cells"}:
        known = ", ".join(k for k, v in table.items() if isinstance(v, dict) and "range" in v)
        raise DataError(f"weapon: no weapon '{weapon_id}'; weapons: {known}")
    return row


def weapon_table() -> dict[str, dict[str, Any]]:
    """Every weapon of the data by id: range, Strength, names, move limit (OW-ABSENT-04)."""
    table = data()["weapons"]
    return {
        key: dict(value)
        for key, value in table.items()
        if isinstance(value, dict) and key not in {"provenance", "provenance_cells"}
    }


@decides("OW-ABSENT-04")
def most_in_the_way() -> int:
    """The most things in the way rolled for one shot (each a d6 that may stop it,
    OW-ABSENT-04 default)."""
    return int(data()["battle"]["max_in_the_way"])


@decides("OW-ABSENT-04")
def cover_reach() -> float:
    """How near the target (or far from the shooter) cover on the line of fire must be to
    count as in the way, in inches (OW-ABSENT-04 default: the cover the target hides behind,
    not the fence the shooter leans on)."""
    return float(data()["battle"]["cover_reach_inches"])


@cache
def move_limit(weapon_id: str) -> Fraction:
    """The fraction of its Move a model may have moved this turn and still fire the weapon
    (data ``max_move_fraction``; 1 when the weapon has none, 0 for "move or fire")."""
    return Fraction(str(weapon(weapon_id).get("max_move_fraction", 1)))


@dataclass(frozen=True, slots=True)
class ShotAt:
    """One shot the model might take: with which weapon, at whom, as the table measures it."""

    weapon: str  # weapon id
    distance: float  # inches, edge to edge
    visible: bool = True  # the shooter sees the target
    status: Status = Status.IN_ACTION  # the target's
    target_engaged: bool = False  # the target is in a fight
    fearsome: bool = False  # the target has Fearsome Reputation
    fearsome_passed: bool = False  # the shooter already passed its test against him this phase
    moved: float = 0.0  # inches the shooter moved this turn
    move: int = 6  # the shooter's Move, in inches


@decides()
def may_shoot_at(model: Shooter, shot: ShotAt) -> Verdict:
    """May the model take this shot? It may shoot (:func:`may_shoot`), carries the weapon,
    sees the target within its range, the target is in play and not in a fight, and the
    model moved no farther than the weapon allows (OW-ABSENT-04 defaults); an enemy of
    Fearsome Reputation needs a passed Pluck test first (OW-PLK-05, the verdict asks for
    :attr:`~kubik.rulesets.old_west.core.FirstTest.FEARSOME`).

    >>> may_shoot_at(Shooter(("pistol",)), ShotAt("pistol", 10.0)).allowed
    True
    >>> may_shoot_at(Shooter(("pistol",)), ShotAt("pistol", 13.0)).allowed
    False
    """
    key = (model, shot)
    found = _VERDICTS.get(key)
    if found is None:
        found = _VERDICTS.keep(key, _may_shoot_at(model, shot))
    return found


#: Most :func:`may_shoot_at` answers kept (an engine limit, not a rule).
VERDICTS_KEPT = 4096
#: The answers given so far: a battle asks the same shot of the same situation again and
#: again (declaring Quickdraw, weighing it, offering the shot, taking it), and the answer
#: depends on the two plain situations and the ruleset's data alone.
_VERDICTS: Kept[tuple[Shooter, ShotAt], Verdict] = Kept(VERDICTS_KEPT)


def _may_shoot_at(model: Shooter, shot: ShotAt) -> Verdict:
    shooting = may_shoot(model)
    if not shooting.allowed:
        return shooting
    if shot.weapon not in model.weapons:
        return Verdict.forbid(msg("old_west.permission.no_such_weapon"), "OW-ABSENT-04")
    gone = on_table(shot.status)
    if not gone.allowed:
        return gone
    row = weapon(shot.weapon)
    if shot.distance > float(row["range"]) + 1e-9:
        return Verdict.forbid(
            msg("old_west.permission.out_of_range", distance=shot.distance, range=row["range"]),
            "OW-ABSENT-04",
        )
    if not shot.visible:
        return Verdict.forbid(msg("old_west.permission.unseen"), "OW-ABSENT-04")
    if shot.target_engaged and not data()["shooting"]["shoot_into_fights"]:
        return Verdict.forbid(msg("old_west.permission.target_engaged"), "OW-ABSENT-04")
    limit = move_limit(shot.weapon) * shot.move
    if Fraction(shot.moved) > limit:
        return Verdict.forbid(
            msg("old_west.permission.moved_too_far", moved=shot.moved, limit=float(limit)),
            "OW-ABSENT-04",
        )
    return Verdict.combine(shooting, reputation_check(shot.fearsome, shot.fearsome_passed))


__all__ = [
    "Shooter",
    "ShotAt",
    "cover_reach",
    "may_shoot",
    "may_shoot_at",
    "most_in_the_way",
    "move_limit",
    "weapon",
    "weapon_table",
]
