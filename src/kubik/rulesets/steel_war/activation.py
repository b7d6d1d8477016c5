"""Activations and actions (SW-CORE-04) and the default turn structure (SW-ABSENT-01).

A unit acts in its activation, which holds two actions; some actions may be taken
only so often per activation (unsuppress twice, reorganise once, inspire twice),
some take the whole activation (ending a panic, unloading a gun, a charge). The
turn structure is absent from the seed: by default the sides alternate one unit
at a time, the roll-off winner first.

>>> action_verdict((ActionType.UNSUPPRESS,), ActionType.UNSUPPRESS).allowed
True
>>> action_verdict((ActionType.REORGANISE,), ActionType.REORGANISE).allowed
False
>>> alternating_order("a", {"a": 2, "b": 3})
('a', 'b', 'a', 'b', 'b')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any

from kubik.core.errors import InputError
from kubik.engine import Verdict, msg
from kubik.engine.applied import decides
from kubik.engine.dice import Die, parse_die
from kubik.rulesets.data import load_ruleset_data


class ActionType(StrEnum):
    """Every kind of action the seed names: the one list of them (morale, suppression,
    transport and the battle's options all speak of these)."""

    MOVE = "move"
    COMBAT_MOVE = "combat_move"  # боевое движение
    MARCH = "march"  # походный порядок
    SHOOT = "shoot"
    GO_TO_GROUND = "go_to_ground"  # залечь
    GET_UP = "get_up"  # выйти из залегания
    UNSUPPRESS = "unsuppress"  # расподавление
    REORGANISE = "reorganise"  # реорганизация
    OBSERVE = "observe"  # наблюдение
    COMMUNICATE = "communicate"  # выход на связь
    EMBARK = "embark"
    DISEMBARK = "disembark"
    INSPIRE = "inspire"  # воодушевление (the commander's action)
    PSI = "psi"  # пси-атака / пси-поддержка
    PASS_ACTION = "pass_action"  # «передать действие» (SW-ABSENT-01)
    CHARGE = "charge"  # «атакую!»
    UNLOAD = "unload"  # отцепить пушку, разгрузить машину
    END_PANIC = "end_panic"  # попытка прекратить панику

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"steel_war.action.{self.value}"


class Cost(StrEnum):
    """What an action uses up."""

    ACTION = "action"  # one of the activation's actions
    ACTIVATION = "activation"  # the whole activation


@dataclass(frozen=True, slots=True)
class ActionRule:
    """An action type's cost and per-activation limit (``None`` = no limit)."""

    cost: Cost
    limit: int | None


@cache
def _data() -> dict[str, Any]:
    return dict(load_ruleset_data("steel_war")["activation"])


@decides("SW-CORE-04")
def actions_per_activation() -> int:
    """Two (SW-CORE-04)."""
    return _actions()


@cache
def _actions() -> int:
    """:func:`actions_per_activation` for this module's own rules (asked by every verdict)."""
    return int(_data()["actions_per_activation"])


@cache
def action_rule(action: ActionType) -> ActionRule:
    """The cost and limit of ``action``.

    >>> action_rule(ActionType.END_PANIC)
    ActionRule(cost=<Cost.ACTIVATION: 'activation'>, limit=1)
    """
    row = _data()["actions"][action.value]
    limit = int(row["limit"])
    return ActionRule(Cost(row["cost"]), limit if limit > 0 else None)


def actions_used(done: Sequence[ActionType]) -> int:
    """Actions spent so far; a whole-activation action spends them all."""
    if any(action_rule(a).cost is Cost.ACTIVATION for a in done):
        return _actions()
    return len(done)


def action_verdict(
    done: Sequence[ActionType],
    action: ActionType,
    *,
    panicked: bool = False,
    passed: bool = False,
) -> Verdict:
    """May ``action`` follow ``done`` in the same activation (SW-CORE-04)?

    Two actions an activation; some only so often (unsuppress twice, reorganise once,
    inspire and psi twice); a whole-activation action needs an untouched activation.
    A panicked squad may do nothing but try to end the panic (SW-PANIC-01). ``passed``:
    the action is one its commander passed to it (SW-ABSENT-01 default): outside the
    squad's own two, so their count and limits do not apply, but it cannot be a
    whole-activation action.

    >>> action_verdict((ActionType.UNSUPPRESS,), ActionType.UNSUPPRESS).allowed
    True
    >>> action_verdict((ActionType.REORGANISE,), ActionType.REORGANISE).allowed
    False
    >>> action_verdict((), ActionType.SHOOT, panicked=True).rules
    ('SW-PANIC-01',)
    """
    if panicked and action is not ActionType.END_PANIC:
        return Verdict.forbid(msg("steel_war.permission.panicked"), "SW-PANIC-01")
    rule = action_rule(action)
    if rule.cost is Cost.ACTIVATION:
        if passed:
            return Verdict.forbid(
                msg("steel_war.permission.passed_whole", action=action), "SW-ABSENT-01"
            )
        if done:
            return Verdict.forbid(
                msg("steel_war.permission.whole_activation", action=action), "SW-CORE-04"
            )
        return Verdict.allow("SW-CORE-04")
    if passed:
        return Verdict.allow("SW-ABSENT-01")
    if actions_used(done) >= _actions():
        return Verdict.forbid(
            msg("steel_war.permission.activation_spent", actions=_actions()),
            "SW-CORE-04",
        )
    if rule.limit is not None and sum(1 for a in done if a is action) >= rule.limit:
        return Verdict.forbid(
            msg("steel_war.permission.limit", action=action, limit=rule.limit),
            *_limit_rules(action),
        )
    return Verdict.allow("SW-CORE-04")


@decides()
@cache
def any_action_verdict(
    done: tuple[ActionType, ...], *, panicked: bool = False, passed: bool = False
) -> Verdict:
    """May any action at all follow ``done`` (SW-CORE-04)? Forbidden once the activation
    is spent: then every act that costs an action is refused whatever it would aim at,
    so a menu need not work out where a move would go to know it may not be made.

    >>> any_action_verdict((ActionType.MOVE,)).allowed
    True
    >>> spent = any_action_verdict((ActionType.MOVE, ActionType.SHOOT))
    >>> spent.allowed, spent.rules
    (False, ('SW-CORE-04',))
    >>> any_action_verdict((ActionType.MOVE, ActionType.SHOOT), passed=True).allowed
    True
    """
    verdicts = [action_verdict(done, a, panicked=panicked, passed=passed) for a in ActionType]
    if any(v.allowed for v in verdicts):
        return Verdict.allow("SW-CORE-04")
    return Verdict.combine(*verdicts)


def _limit_rules(action: ActionType) -> tuple[str, ...]:
    """The rules that set an action's per-activation limit."""
    return ("SW-CORE-04", *_LIMIT_RULES.get(action, ()))


_LIMIT_RULES = {
    ActionType.UNSUPPRESS: ("SW-SUP-03",),
    ActionType.REORGANISE: ("SW-REORG-01",),
    ActionType.INSPIRE: ("SW-MOR-08",),
    ActionType.PSI: ("SW-PSI-05",),
    ActionType.END_PANIC: ("SW-PANIC-01",),
    ActionType.UNLOAD: ("SW-MOVE-05",),
    ActionType.CHARGE: ("SW-CC-02",),
}


@cache
def _turn() -> dict[str, Any]:
    return dict(load_ruleset_data("steel_war")["turn_structure"])


@decides("SW-ABSENT-01")
def roll_off_die() -> Die:
    """The die of the first-player roll-off (SW-ABSENT-01 default: d6, ties re-rolled)."""
    return parse_die(str(_turn()["roll_off_die"]))


@decides("SW-ABSENT-01")
def roll_off_winner(rolls: Mapping[str, int]) -> str | None:
    """The side with the highest roll-off; ``None`` on a tie (re-roll, by default).

    >>> roll_off_winner({"a": 3, "b": 5}), roll_off_winner({"a": 4, "b": 4})
    ('b', None)
    """
    best = max(rolls.values())
    winners = [side for side, value in rolls.items() if value == best]
    if len(winners) == 1:
        return winners[0]
    return None if _turn()["reroll_ties"] else sorted(winners)[0]


@decides("SW-ABSENT-01")
def alternating_order(first: str, units: Mapping[str, int]) -> tuple[str, ...]:
    """Whose unit activates next, for a whole turn (SW-ABSENT-01 default).

    Sides alternate one unit at a time starting with ``first``; a side that has
    no unit left leaves the rest to the others. Every unit activates
    ``activations_per_unit`` times (once).
    """
    if first not in units:
        raise InputError(f"first: side '{first}' has no units; sides are {', '.join(units)}")
    per_unit = int(_turn()["activations_per_unit"])
    sides = list(units)
    start = sides.index(first)
    rotation = sides[start:] + sides[:start]
    left = {side: units[side] * per_unit for side in sides}
    order: list[str] = []
    while any(left.values()):
        for side in rotation:
            if left[side] > 0:
                order.append(side)
                left[side] -= 1
    return tuple(order)
