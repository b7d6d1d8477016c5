"""Movement (the movement phase is absent from seeds 000/003: RA-ABSENT-08, the Mordheim
family's default): a warrior moves up to his Подвижность in paces, runs or charges up to
twice that; a charge ends in base contact; a warrior leaves a fight of his own will in
his movement, each enemy striking him once as he goes (RA-CC-20).

Who may charge: not a warrior in a fight (RA-CC-01), fleeing (RA-PSY-06), stupefied
(RA-PSY-11) or on guard (RA-GUARD-01); never at a hidden enemy (RA-HIDE-02), nor one a
storey above or below him (RA-MAN-05: from a roof he leaps); only where his walked way
reaches the enemy; a fear-causing enemy asks a fear test first (RA-PSY-07 b).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from kubik.engine import Verdict, msg
from kubik.engine.applied import decides
from kubik.rulesets.apocalypse.checks import first_refusal
from kubik.rulesets.apocalypse.core import number
from kubik.rulesets.apocalypse.psychology import Fright

#: Paces of measuring slack at a table (a tape and a hand placing a model).
SLACK = 0.05


@decides("RA-ABSENT-08")
def move_allowance(mobility: int) -> float:
    """Paces a warrior moves: his Подвижность (RA-ABSENT-08).

    >>> move_allowance(4)
    4.0
    """
    return float(mobility)


@cache
def _multipliers() -> tuple[int, int]:
    """The run's and the charge's multiple of Подвижность (read once: menus ask often)."""
    return number("movement", "run_multiplier"), number("movement", "charge_multiplier")


@decides("RA-ABSENT-08")
def run_allowance(mobility: int) -> float:
    """Paces a warrior runs: twice his Подвижность (RA-ABSENT-08).

    >>> run_allowance(4)
    8.0
    """
    return float(mobility * _multipliers()[0])


@decides("RA-ABSENT-08")
def charge_allowance(mobility: int) -> float:
    """Paces a warrior charges: twice his Подвижность (RA-ABSENT-08).

    >>> charge_allowance(5)
    10.0
    """
    return float(mobility * _multipliers()[1])


@dataclass(frozen=True, slots=True)
class Charger:
    """What the permission to charge needs: his allowance (``reach``) and the paces his
    walked way to the enemy costs (``distance``; infinite when no way leads there)."""

    reach: float
    distance: float
    in_combat: bool = False
    fleeing: bool = False
    stupid: bool = False
    target_fright: Fright = Fright.NONE
    guarding: bool = False
    target_hidden: bool = False
    level: bool = True


@decides()
def may_charge(c: Charger) -> Verdict:
    """May he charge this enemy? (see the module docstring)

    >>> may_charge(Charger(8, 7.5)).allowed, may_charge(Charger(8, 8.5)).allowed
    (True, False)
    >>> may_charge(Charger(8, 2, target_fright=Fright.FEAR)).needs_test
    True
    """
    refused = first_refusal(
        (c.in_combat, "apocalypse.permission.in_combat", "RA-CC-01"),
        (c.fleeing, "apocalypse.permission.fleeing", "RA-PSY-06"),
        (c.stupid, "apocalypse.permission.stupid", "RA-PSY-11"),
        (c.guarding, "apocalypse.permission.guarding", "RA-GUARD-01"),
        (c.target_hidden, "apocalypse.permission.hidden", "RA-HIDE-02"),
        (not c.level, "apocalypse.permission.out_of_reach", "RA-MAN-05"),
        (c.distance > c.reach, "apocalypse.permission.out_of_reach", "RA-ABSENT-08"),
    )
    if refused is not None:
        return refused
    if c.target_fright is not Fright.NONE:
        return Verdict.need(Fright.FEAR, msg("apocalypse.permission.fear_first"), "RA-PSY-07")
    return Verdict.allow("RA-ABSENT-08")


@decides()
def may_break_away(standing: bool, fleeing: bool) -> Verdict:
    """May he leave his fight of his own will now (RA-CC-20, «уход от рукопашной» of the
    absent movement phase, RA-ABSENT-08)? Only on his feet — a knocked-down or stunned
    warrior cannot walk away — and not while fleeing (he runs by the flight rule).

    >>> may_break_away(True, False).allowed, may_break_away(False, False).allowed
    (True, False)
    """
    refused = first_refusal(
        (not standing, "apocalypse.permission.down", "RA-CC-20"),
        (fleeing, "apocalypse.permission.fleeing", "RA-PSY-06"),
    )
    return refused or Verdict.allow("RA-CC-20", "RA-ABSENT-08")


@decides()
def may_end_move(paces: float, mobility: int, *, into_contact: bool = False) -> Verdict:
    """May a warrior end a move of his own here (a place typed at a real table)? A walk
    of at most his Подвижность, a run of at most twice it (RA-ABSENT-08); a move that ends
    touching a model is a charge (or no move at all), not a walk.

    >>> may_end_move(3.5, 4).allowed, may_end_move(7.9, 4).allowed, may_end_move(8.3, 4).allowed
    (True, True, False)
    """
    if into_contact:
        return Verdict.forbid(msg("apocalypse.permission.move_into_contact"), "RA-ABSENT-08")
    allowance = run_allowance(mobility)
    if paces > allowance + SLACK:
        return Verdict.forbid(
            msg("apocalypse.permission.too_far", paces=round(paces, 1), allowance=allowance),
            "RA-ABSENT-08",
        )
    return Verdict.allow("RA-ABSENT-08")


@decides("RA-ABSENT-08")
def is_run(paces: float, mobility: int) -> bool:
    """Whether a move of ``paces`` is a run: more than his Подвижность (RA-ABSENT-08).

    >>> is_run(4.0, 4), is_run(4.5, 4)
    (False, True)
    """
    return paces > move_allowance(mobility) + SLACK


__all__ = [
    "SLACK",
    "Charger",
    "charge_allowance",
    "is_run",
    "may_break_away",
    "may_charge",
    "may_end_move",
    "move_allowance",
    "run_allowance",
]
