"""A warband (банда): its warriors' profiles (RA-ABSENT-13) and, in the activation
edition, the FP it spends to act (RA-ABSENT-10).

The seeds give neither: profiles are ours in the seeds' own terms (Подвижность,
Стойкость, Боевое умение, Сила духа), and FP follow the catalogue's default — each turn
a warband has as many FP as warriors in play; activating one costs
:func:`activation_cost`, hiding :func:`~kubik.rulesets.apocalypse.hiding.hiding_cost`
more; the sides take turns activating one warrior each (RA-ABSENT-10).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from kubik.engine import Verdict, msg
from kubik.engine.applied import decides
from kubik.rulesets.apocalypse.core import data, number


@decides("RA-ABSENT-13")
@cache
def profiles() -> Mapping[str, Mapping[str, Any]]:
    """The warrior profiles of the data, by name (RA-ABSENT-13)."""
    return {k: v for k, v in data()["profiles"].items() if k != "provenance"}


@decides("RA-ABSENT-10")
def activation_cost() -> int:
    """FP an activation costs (RA-ABSENT-10 default).

    >>> activation_cost()
    1
    """
    return number("activation", "activation_cost")


@decides("RA-ABSENT-10")
def fp_for(in_play: int) -> int:
    """A warband's FP for a turn: one per warrior in play (RA-ABSENT-10 default).

    >>> fp_for(7)
    7
    """
    return in_play


@decides()
def may_activate(fp: int, acted: bool) -> Verdict:
    """May a warrior be activated now? Once a turn, while his warband has the FP
    (RA-ABSENT-10).

    >>> may_activate(1, False).allowed, may_activate(0, False).allowed
    (True, False)
    >>> may_activate(3, True).allowed
    False
    """
    if acted:
        return Verdict.forbid(msg("apocalypse.permission.acted"), "RA-ABSENT-10")
    return Verdict.of(fp >= activation_cost(), msg("apocalypse.permission.no_fp"), "RA-ABSENT-10")


__all__ = ["activation_cost", "fp_for", "may_activate", "profiles"]
