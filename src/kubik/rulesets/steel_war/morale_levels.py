"""Morale levels (боевой дух): the five grades, moving between them, what each allows.

The one definition of the morale level: every rule and procedure input speaks of
:class:`MoraleLevel`.

Levels run best to worst Ув → Ст → По → Ра → Бе (SW-MOR-01). Failed tests push a
squad down (never past Бе), inspiration lifts it (never above the level it
started the battle at, SW-MOR-04); the start comes from fatigue (SW-MOR-02).

>>> MoraleLevel.STEADY.abbr, MoraleLevel.parse("Ра")
('Ст', <MoraleLevel.BROKEN: 'broken'>)
>>> apply_drop(MoraleLevel.STEADY, 2)
<MoraleLevel.BROKEN: 'broken'>
>>> raise_level(MoraleLevel.SHAKEN, start=MoraleLevel.STEADY, levels=5)
<MoraleLevel.STEADY: 'steady'>
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any

from kubik.core.errors import InputError
from kubik.engine import Verdict, msg
from kubik.engine.applied import decides
from kubik.rulesets.data import DataError, load_ruleset_data
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.reaction import ReactionAction

_ABBREVIATIONS = {
    "confident": "Ув",
    "steady": "Ст",
    "shaken": "По",
    "broken": "Ра",
    "fleeing": "Бе",
}


class MoraleLevel(StrEnum):
    """A morale grade; the declaration order is best to worst."""

    CONFIDENT = "confident"  # Уверенный
    STEADY = "steady"  # Стойкий
    SHAKEN = "shaken"  # Потрясённый
    BROKEN = "broken"  # Разбитый
    FLEEING = "fleeing"  # Бегущий

    @property
    def abbr(self) -> str:
        """The Russian abbreviation used at the table: Ув, Ст, По, Ра, Бе."""
        return _ABBREVIATIONS[self.value]

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"steel_war.morale.{self.value}"

    @property
    def rank(self) -> int:
        """0 for the best level (Ув) .. 4 for the worst (Бе), in the data's order."""
        return _order().index(self)

    def at_least(self, other: MoraleLevel) -> bool:
        """ "``other`` or higher": this level is ``other`` or better.

        >>> MoraleLevel.CONFIDENT.at_least(MoraleLevel.SHAKEN)
        True
        """
        return self.rank <= other.rank

    @classmethod
    def parse(cls, text: str) -> MoraleLevel:
        """A level from its id ("steady") or Russian abbreviation ("Ст")."""
        key = text.strip()
        for level in cls:
            if key.lower() == level.value or key.capitalize() == level.abbr:
                return level
        allowed = ", ".join(f"{lv.value}/{lv.abbr}" for lv in cls)
        raise InputError(f"morale level '{text}' is not one of {allowed}")


class Fatigue(StrEnum):
    """Fatigue level (уровень усталости) of a side, set before the battle (SW-MOR-02)."""

    FRESH = "fresh"  # свежие
    TIRED = "tired"  # уставшие
    EXHAUSTED = "exhausted"  # истощённые

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"steel_war.fatigue.{self.value}"


class Motivation(StrEnum):
    """Motivation level (уровень мотивации): the threat table's column (SW-MOR-03)."""

    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"steel_war.motivation.{self.value}"


@cache
def _data() -> Mapping[str, Any]:
    return load_ruleset_data("steel_war")


@cache
def _order() -> tuple[MoraleLevel, ...]:
    order = tuple(MoraleLevel(v) for v in _data()["morale_levels"]["order"])
    if set(order) != set(MoraleLevel) or len(order) != len(MoraleLevel):
        raise DataError("steel_war.morale_levels.order: must list each of the five levels once")
    return order


def _floor() -> MoraleLevel:
    return MoraleLevel(_data()["morale_floor"]["lowest"])


@decides("SW-MOR-01")
def apply_drop(level: MoraleLevel, levels: int) -> MoraleLevel:
    """``level`` after losing ``levels`` grades; never below Бе (SW-MOR-01 gap 2).

    >>> apply_drop(MoraleLevel.BROKEN, 2)
    <MoraleLevel.FLEEING: 'fleeing'>
    """
    if levels < 0:
        raise InputError(f"levels dropped must be 0 or more, not {levels}")
    order = _order()
    floor = _floor().rank
    return order[min(level.rank + levels, floor)]


@decides("SW-MOR-04")
def raise_level(level: MoraleLevel, start: MoraleLevel, levels: int = 1) -> MoraleLevel:
    """``level`` improved by ``levels`` grades, capped at the starting level (SW-MOR-04).

    A squad already at or above its start (after «Ни шагу назад!» ends at Ст, SW-NSN-04)
    stays where it is.

    >>> raise_level(MoraleLevel.BROKEN, start=MoraleLevel.CONFIDENT)
    <MoraleLevel.SHAKEN: 'shaken'>
    """
    if levels < 0:
        raise InputError(f"levels raised must be 0 or more, not {levels}")
    if level.rank <= start.rank:
        return level
    return _order()[max(level.rank - levels, start.rank)]


def can_rise(level: MoraleLevel, start: MoraleLevel) -> bool:
    """Whether any improvement is possible: the squad is below its starting level."""
    return level.rank > start.rank


@decides("SW-MOR-02")
def starting_level(fatigue: Fatigue) -> MoraleLevel:
    """The morale a side starts with for its fatigue level (SW-MOR-02).

    >>> starting_level(Fatigue.TIRED)
    <MoraleLevel.STEADY: 'steady'>
    """
    return MoraleLevel(_data()["fatigue"][fatigue.value])


def scenario_exception_level() -> MoraleLevel:
    """The rare scenario start below any fatigue level (long-encircled troops: Ра)."""
    return MoraleLevel(_data()["fatigue"]["scenario_exception"])


@dataclass(frozen=True, slots=True)
class LevelOrders:
    """What a squad at one morale level may do (SW-MOR-01), as read from data."""

    actions: frozenset[str]
    approach: bool
    moves: frozenset[str]
    leave_cover: str
    shoot: str
    must_move: bool
    surrender_within: int

    def allows_action(self, action: ActionType) -> bool:
        """Whether the action type is allowed at all at this level."""
        return "*" in self.actions or action.value in self.actions


@decides("SW-MOR-01")
def level_orders(level: MoraleLevel) -> LevelOrders:
    """The orders allowed at ``level``.

    >>> level_orders(MoraleLevel.SHAKEN).approach
    False
    >>> level_orders(MoraleLevel.FLEEING).surrender_within
    12
    """
    return _level_orders(level)


@cache
def _level_orders(level: MoraleLevel) -> LevelOrders:
    """:func:`level_orders` for this module's own rules (asked by every verdict)."""
    row = _data()["morale_levels"][level.value]
    return LevelOrders(
        actions=frozenset(row["actions"]),
        approach=bool(row["approach"]),
        moves=frozenset(row["moves"]),
        leave_cover=str(row["leave_cover"]),
        shoot=str(row["shoot"]),
        must_move=bool(row["must_move"]),
        surrender_within=int(row["surrender_within"]),
    )


@dataclass(frozen=True, slots=True)
class Order:
    """An order in the terms the morale rules care about (all plain facts).

    For moves, say where it goes (``away_from_enemy``: it ends farther from the enemy,
    all a suppressed squad may do, SW-SUP-01); for fire, whether the target shot at
    the squad earlier this turn.
    """

    action: ActionType
    approaches_enemy: bool = False
    away_from_enemy: bool = False
    toward_own_edge: bool = False
    toward_cover: bool = False
    leaves_cover: bool = False
    target_shot_at_us_this_turn: bool = False


#: Actions that move the squad across the table: the morale level governs where to.
MOVES = frozenset({ActionType.MOVE, ActionType.COMBAT_MOVE, ActionType.MARCH, ActionType.CHARGE})


def order_verdict(level: MoraleLevel, order: Order) -> Verdict:
    """May a squad at ``level`` carry out ``order`` (SW-MOR-01)?

    По: anything but approaching the enemy, and leaving cover only after a reaction
    test; Ра: only move toward its own edge or into cover, leave cover only to
    retreat, shoot only at an enemy that shot at it this turn; Бе: only move toward
    its own edge. The table is data (``[morale_levels]``).

    >>> order_verdict(MoraleLevel.SHAKEN, Order(ActionType.MOVE, leaves_cover=True)).test
    (<ReactionAction.LEAVE_COVER_SHAKEN: 'leave_cover_shaken'>,)
    >>> order_verdict(
    ...     MoraleLevel.BROKEN, Order(ActionType.SHOOT, target_shot_at_us_this_turn=True)
    ... ).allowed
    True
    >>> order_verdict(MoraleLevel.BROKEN, Order(ActionType.SHOOT)).allowed
    False
    """
    rules = _level_orders(level)
    if not rules.allows_action(order.action):
        return Verdict.forbid(
            msg("steel_war.permission.morale_action", level=level, action=order.action),
            "SW-MOR-01",
        )
    if order.action in MOVES:
        if order.approaches_enemy and not rules.approach:
            return Verdict.forbid(
                msg("steel_war.permission.morale_approach", level=level), "SW-MOR-01"
            )
        if "any" not in rules.moves and not _move_kind_allowed(rules, order):
            return Verdict.forbid(msg("steel_war.permission.morale_move", level=level), "SW-MOR-01")
        if order.leaves_cover:
            if rules.leave_cover == "reaction_test":
                return Verdict.need(
                    (ReactionAction.LEAVE_COVER_SHAKEN,),
                    msg("steel_war.permission.leave_cover_test", level=level),
                    "SW-MOR-01",
                    "SW-REACT-02",
                )
            if rules.leave_cover == "to_retreat" and order.approaches_enemy:
                return Verdict.forbid(
                    msg("steel_war.permission.morale_approach", level=level), "SW-MOR-01"
                )
    if order.action is ActionType.SHOOT:
        if rules.shoot == "none":
            return Verdict.forbid(
                msg("steel_war.permission.morale_action", level=level, action=order.action),
                "SW-MOR-01",
            )
        if rules.shoot == "returning_fire" and not order.target_shot_at_us_this_turn:
            return Verdict.forbid(
                msg("steel_war.permission.morale_shoot", level=level), "SW-MOR-01"
            )
    return Verdict.allow("SW-MOR-01")


def _move_kind_allowed(rules: LevelOrders, order: Order) -> bool:
    kinds = {
        "toward_own_edge": order.toward_own_edge,
        "toward_cover": order.toward_cover,
        "retreat_from_cover": order.leaves_cover and not order.approaches_enemy,
    }
    return any(kinds.get(kind, False) for kind in rules.moves)


@decides("SW-MOR-01")
def surrenders(level: MoraleLevel, nearest_enemy: float | None) -> bool:
    """A fleeing squad surrenders when an enemy is within 12 inches (SW-MOR-01).

    ``nearest_enemy`` in inches, ``None`` when no enemy is on the table.

    >>> surrenders(MoraleLevel.FLEEING, 11.5), surrenders(MoraleLevel.BROKEN, 1.0)
    (True, False)
    """
    within = _level_orders(level).surrender_within
    return within > 0 and nearest_enemy is not None and nearest_enemy <= within
