"""The threat level (уровень угрозы) of a morale test: the reconstructed threat table.

Trigger rows start a morale test and only the largest of them counts; "+" rows
never start a test and are added to whatever test happens (SW-MOR-06/07). The
column is the side's motivation. The table's plain-number cells were lost in the
source; data/morale.toml says which cells are printed, rebuilt or guessed.

>>> threat_level(Motivation.MEDIUM, {Trigger.FIRST_SUPPRESSED, Trigger.CASUALTIES,
...                                  Trigger.COMMANDER_LOST})
3
>>> threat_level(Motivation.MEDIUM, {Trigger.COMMANDER_LOST}, {PlusFactor.ARTILLERY: 1})
4
>>> threat_level(Motivation.HIGH, {Trigger.CASUALTIES}) is None
True
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from enum import StrEnum
from functools import cache
from typing import Any

from kubik.core.errors import InputError
from kubik.engine.applied import decides
from kubik.rulesets.data import DataError, load_ruleset_data
from kubik.rulesets.steel_war.morale_levels import Motivation


class Trigger(StrEnum):
    """Events that start a morale test (rows without "+")."""

    FIRST_SUPPRESSED = "first_suppressed"  # первый раз подавлен огнём
    CASUALTIES = "casualties"  # несёт потери от обстрела
    MORE_LOST_THAN_REMAIN = "more_lost_than_remain"  # за один обстрел потеряно больше, чем осталось
    COMMANDER_LOST = "commander_lost"  # командир потерян

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"steel_war.threat.{self.value}"


class PlusFactor(StrEnum):
    """Aggravating factors ("+" rows): they add threat but start no test."""

    ARTILLERY = "artillery"  # под артобстрелом или авианалётом
    UNVERIFIED_CASUALTY = "unverified_casualty"  # за каждую непроверенную потерю
    WOUNDED_LEFT_BEHIND = "wounded_left_behind"  # пришлось оставить раненых

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"steel_war.threat.{self.value}"


@cache
def _table() -> dict[str, Any]:
    return dict(load_ruleset_data("steel_war")["threat_table"])


def trigger_value(motivation: Motivation, trigger: Trigger) -> int | None:
    """A trigger row's cell; ``None`` where the event starts no test ("Нет теста").

    >>> trigger_value(Motivation.LOW, Trigger.MORE_LOST_THAN_REMAIN)
    4
    """
    return _cell("triggers", trigger.value, motivation)


def plus_value(motivation: Motivation, factor: PlusFactor) -> int:
    """A "+" row's cell per occurrence ("Нет теста" in a "+" row adds nothing).

    >>> plus_value(Motivation.LOW, PlusFactor.UNVERIFIED_CASUALTY)
    1
    >>> plus_value(Motivation.HIGH, PlusFactor.UNVERIFIED_CASUALTY)
    0
    """
    value = _cell("plus", factor.value, motivation)
    return 0 if value is None else value


def _cell(kind: str, row: str, motivation: Motivation) -> int | None:
    table = _table()
    try:
        value = table[kind][row][motivation.value]
    except KeyError:
        raise DataError(
            f"steel_war.threat_table.{kind}.{row}: no {motivation.value} cell"
        ) from None
    if value == table["no_test"]:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise DataError(f"steel_war.threat_table.{kind}.{row}.{motivation.value}: not a number")
    return value


@decides("SW-MOR-06")
def plus_threat(motivation: Motivation, plus_factors: Mapping[PlusFactor, int]) -> int:
    """The sum of the "+" rows: each row's cell times how often it applies.

    ``plus_factors`` counts occurrences: the number of unverified casualties, and 1
    for artillery or wounded left behind. Used alone for inspiration (SW-MOR-10).

    >>> plus_threat(Motivation.LOW, {PlusFactor.UNVERIFIED_CASUALTY: 2})
    2
    """
    total = 0
    for factor, count in plus_factors.items():
        if count < 0:
            raise InputError(f"{factor.value}: a count of 0 or more, not {count}")
        total += plus_value(motivation, factor) * count
    return total


@decides("SW-MOR-06", "SW-MOR-07")
def threat_level(
    motivation: Motivation,
    triggers: Collection[Trigger],
    plus_factors: Mapping[PlusFactor, int] | None = None,
    extra: int = 0,
) -> int | None:
    """The threat of a morale test, or ``None`` when the event starts no test (SW-MOR-07).

    T = the largest trigger cell that applies + the "+" rows + ``extra`` (threat
    added by another rule: charge odds, melee casualties, psi strike). ``None``
    when no trigger applies at this motivation, since "+" rows never start a test.

    >>> threat_level(Motivation.LOW, {Trigger.MORE_LOST_THAN_REMAIN, Trigger.CASUALTIES},
    ...              {PlusFactor.UNVERIFIED_CASUALTY: 2})
    6
    >>> threat_level(Motivation.LOW, set(), {PlusFactor.ARTILLERY: 1}) is None
    True
    """
    values = [v for t in triggers if (v := trigger_value(motivation, t)) is not None]
    if not values:
        return None
    return max(values) + plus_threat(motivation, plus_factors or {}) + extra


@decides("SW-MOR-10")
def persistent_threat(
    motivation: Motivation,
    *,
    unverified: int = 0,
    wounded_left_behind: bool = False,
    under_artillery: bool = False,
) -> int:
    """The threat that hangs over a squad outside any event, for inspiration (SW-MOR-10).

    The seed's example counts only the standing "+" factors (data: inspiration.threat_factors).

    >>> persistent_threat(Motivation.MEDIUM, unverified=1, wounded_left_behind=True)
    2
    """
    counted = {
        PlusFactor(f) for f in load_ruleset_data("steel_war")["inspiration"]["threat_factors"]
    }
    counts = {
        PlusFactor.UNVERIFIED_CASUALTY: unverified,
        PlusFactor.WOUNDED_LEFT_BEHIND: int(wounded_left_behind),
        PlusFactor.ARTILLERY: int(under_artillery),
    }
    return plus_threat(motivation, {f: n for f, n in counts.items() if f in counted})
