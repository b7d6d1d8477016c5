"""Barring a side from a rule, for the balance lab: "how much does this rule matter?".

A *bar* is a pair (side, rule): from the moment it is set in a process, every option
of a battle decision of that side whose permission verdict cites the rule (its
catalogue ID, or every ID under a prefix written ``SW-CHARGE-*``) is withheld, as if
the rule's permission refused it for that side — a side barred from ``SW-CHARGE-01``
never charges; its enemy still may. Nothing of a rule module changes: the bar acts
where the battle layer asks the side to choose (:meth:`BattleGame.choose`), on the
verdicts the rules already gave. Only decisions are barred: a rule that applies by
itself (a morale test, a hit) is not a choice and cannot be refused. When every
option of a decision is barred the decision is asked unchanged (a side must do
something); :func:`barred_count` says how often an option was withheld, so a bar that
never met its rule shows as zero.

``kubik sim --bar SIDE:RULE`` plays a cell per bar beside the unbarred baseline on
the same seeds (:mod:`kubik.sim`), so each bar's paired difference is the rule's worth.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import TypeVar

from kubik.engine import Verdict
from kubik.game.battle.menu import Menu

OptionT = TypeVar("OptionT", bound=Hashable)

#: side → the barred rule IDs and prefixes (``"SW-CHARGE-"`` for ``SW-CHARGE-*``).
_BARS: dict[str, tuple[str, ...]] = {}
_WITHHELD = [0]


def set_bars(bars: Mapping[str, Iterable[str]]) -> None:
    """Bar each side of ``bars`` from its rules in this process from now on (``{}``:
    no bar); the count of withheld options starts again from zero."""
    _BARS.clear()
    _BARS.update({side: tuple(r.removesuffix("*") for r in rules) for side, rules in bars.items()})
    _WITHHELD[0] = 0


def barred_count() -> int:
    """How many options were withheld since the bars were last set."""
    return _WITHHELD[0]


def has_bars() -> bool:
    """Whether any side is barred in this process (one look, for the hot path)."""
    return bool(_BARS)


def _barred(verdict: Verdict, rules: tuple[str, ...]) -> bool:
    return any(cited.startswith(rule) for cited in verdict.rules for rule in rules)


def without_barred(menu: Menu[OptionT], side: str) -> Menu[OptionT]:
    """``menu`` less the options barred for ``side`` (``menu`` itself when none is, or
    when every option would be)."""
    rules = _BARS.get(side)
    if not rules:
        return menu
    kept = [o for o in menu.offers if not _barred(o.verdict, rules)]
    if len(kept) == len(menu) or not kept:
        return menu
    _WITHHELD[0] += len(menu) - len(kept)
    narrowed: Menu[OptionT] = Menu()
    for offer in kept:
        narrowed.offer(offer.option, offer.label, offer.verdict, offer.forecast)
    return narrowed


__all__ = ["barred_count", "has_bars", "set_bars", "without_barred"]
