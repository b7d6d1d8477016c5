"""Observation (наблюдение): a documented default, not from the seed (SW-ABSENT-03).

The seed names the action (suppressed squads may still observe; psionics roll
their psi die instead of "the quality die or the observation-means die", against
"the range die") but never describes it. Default: one action; the observer rolls
its quality die (or observation-means die) against the target's range die
computed as for shooting (SW-FIRE-09, by the caller); strictly higher spots the
target until the end of the turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from kubik.data import load_ruleset_data
from kubik.dice import Die
from kubik.engine import Procedure, Roll, Verdict, emit, msg
from kubik.engine.requests import RuleIds
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.situation import UnitSituation, all_of, basic_verdict


@dataclass(frozen=True, slots=True)
class ObservationOutcome:
    """Whether the target was spotted."""

    spotted: bool


def spots(observer_roll: int, target_roll: int) -> bool:
    """Strictly higher spots; a tie favours the target, as in shooting.

    >>> spots(5, 4), spots(4, 4)
    (True, False)
    """
    return observer_roll > target_roll


def spotting_lasts() -> str:
    """How long a spotted target stays spotted (default: until the end of the turn)."""
    return str(load_ruleset_data("steel_war")["observation"]["lasts"])


def observe(
    observer: Die,
    target: Die,
    observer_rules: RuleIds = (),
    target_rules: RuleIds = (),
) -> Procedure[ObservationOutcome]:
    """The observer's die, then the target's range die; higher observer spots.

    ``observer_rules``, ``target_rules``: what chose each die besides this rule (a
    psionic's psi die, SW-PSI-11/12; the range die's rules, SW-FIRE-09)."""
    (seen,) = yield Roll(
        observer,
        msg("steel_war.observe.roll"),
        roller="observer",
        rules=("SW-ABSENT-03", *observer_rules),
    )
    (hidden,) = yield Roll(
        target,
        msg("steel_war.observe.range_roll"),
        roller="target",
        rules=("SW-ABSENT-03", *target_rules),
    )
    spotted = spots(seen, hidden)
    yield emit(
        "steel_war.observe.result",
        rules="SW-ABSENT-03",
        observer=observer,
        observer_roll=seen,
        target=target,
        target_roll=hidden,
        spotted=spotted,
    )
    return ObservationOutcome(spotted)


@cache  # the data is read once per process, as every rule module does
def is_hidden(*, in_cover: bool, gone_to_ground: bool, revealed: bool) -> bool:
    """Whether a squad hides from enemy fire (SW-ABSENT-03 default, «укрывающийся»
    of SW-PSI-12): in cover or gone to ground, unless it gave itself away this turn
    (fired or charged). A hiding squad may be fired at only once spotted.

    >>> is_hidden(in_cover=True, gone_to_ground=False, revealed=False)
    True
    >>> is_hidden(in_cover=True, gone_to_ground=False, revealed=True)
    False
    """
    table = load_ruleset_data("steel_war")["observation"]
    hiding = (in_cover and bool(table["hidden_in_cover"])) or (
        gone_to_ground and bool(table["hidden_gone_to_ground"])
    )
    return hiding and not revealed


def gives_away(action: ActionType) -> bool:
    """Whether taking ``action`` reveals a hiding squad until the end of the turn.

    >>> gives_away(ActionType.SHOOT), gives_away(ActionType.MOVE)
    (True, False)
    """
    return action.value in load_ruleset_data("steel_war")["observation"]["revealed_by"]


def may_fire_at(hidden: bool, spotted: bool) -> Verdict:
    """May a squad be fired at, as far as seeing it goes (SW-ABSENT-03 default)? A hiding
    squad only once an observation spotted it this turn.

    >>> may_fire_at(True, False).allowed, may_fire_at(True, True).rules
    (False, ('SW-ABSENT-03',))
    """
    if not hidden:
        return Verdict.allow()
    return Verdict.of(spotted, msg("steel_war.permission.hidden"), "SW-ABSENT-03")


def better_die(usual: Die, psi: Die | None) -> Die:
    """The die a psionic rolls in an observation, on either side: his psi die instead of
    the usual one when it is better (psi-detection SW-PSI-11, avert eyes SW-PSI-12).

    >>> from kubik.dice import D6, D8
    >>> better_die(D6, D8), better_die(D8, D6), better_die(D8, None)
    (Die(faces=8), Die(faces=8), Die(faces=8))
    """
    return usual if psi is None or psi.faces <= usual.faces else psi


def may_observe(unit: UnitSituation) -> Verdict:
    """May ``unit`` spend an action on «наблюдение» (SW-ABSENT-03 default: one action)?
    One of a suppressed squad's five actions (SW-SUP-01)."""
    return all_of(basic_verdict(unit, ActionType.OBSERVE), Verdict.allow("SW-ABSENT-03"))
