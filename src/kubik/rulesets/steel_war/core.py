"""Steel War's core: quality levels, die steps from data, and the basic test.

Every Steel War test has one form (SW-CORE-03): roll the squad's quality die and
beat leadership + threat. Rules differ only in the threat and in what a failure
costs, so they all call :func:`leadership_test`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from enum import Enum
from fractions import Fraction
from functools import cache, lru_cache

from kubik.engine import Message, Procedure, Roll
from kubik.engine.dice import Die, StepOverflow, parse_die, step
from kubik.engine.requests import RuleIds
from kubik.rulesets.data import load_ruleset_data


class Quality(Enum):
    """Troop quality (SW-CORE-02); the die comes from data."""

    __hash__ = object.__hash__  # members are singletons: hashed by identity, in C

    UNTRAINED = "untrained"
    RECRUITS = "recruits"
    REGULARS = "regulars"
    VETERANS = "veterans"
    ELITE = "elite"

    @property
    def die(self) -> Die:
        """The quality die of this level (d4 .. d12)."""
        return _quality_die(self._value_)  # (``.value``, without the enum property's call)

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"steel_war.quality.{self.value}"


@cache
def _data() -> Mapping[str, dict[str, str]]:
    return load_ruleset_data("steel_war")


@cache
def _quality_die(level: str) -> Die:
    return parse_die(_data()["quality"][level])


@lru_cache(maxsize=1024)  # pure: every range die and melee die is stepped again and again
def step_die(die: Die, steps: int) -> Die:
    """``die`` moved ``steps`` along the chain with the data's overflow behaviour (SW-CORE-01).

    >>> from kubik.engine.dice import D10, D12
    >>> step_die(D10, +2) == D12
    True
    """
    steps_data = _data()["die_steps"]
    setting = steps_data["above_d12"] if steps > 0 else steps_data["below_d4"]
    return step(die, steps, StepOverflow(setting))


@lru_cache(maxsize=4096)  # pure; every menu measures the same few distances
def zone_number(distance: float | Fraction, width: int, upper_bound_inclusive: bool = True) -> int:
    """Which zone of ``width`` inches ``distance`` falls in, counting from 1 (0" is zone 1).

    Range zones (SW-FIRE-06, width = the quality die's faces) and psi zones
    (SW-PSI-06, 12") are the same arithmetic. With ``upper_bound_inclusive`` a
    zone's far edge belongs to it (exactly 6" from recruits is zone 1).

    >>> zone_number(6, 6), zone_number(6.5, 6), zone_number(0, 12), zone_number(6, 6, False)
    (1, 2, 1, 2)
    """
    ratio = Fraction(distance) / width
    if upper_bound_inclusive:
        return max(1, math.ceil(ratio))
    return math.floor(ratio) + 1


def clamp_leadership(leadership: int) -> int:
    """Leadership is never better than 1 nor worse than 3 (SW-DMG-06, SW-CORE-03)."""
    bounds = _data()["leadership"]
    return min(max(leadership, int(bounds["best"])), int(bounds["worst"]))


def test_passed(roll: int, leadership: int, threat: int = 0) -> bool:
    """The basic test: success iff roll > leadership + threat (SW-CORE-03).

    >>> test_passed(2, 1), test_passed(1, 1)
    (True, False)
    """
    return roll > leadership + threat


def leadership_test(
    quality: Die,
    leadership: int,
    threat: int,
    reason: Message,
    roller: str = "",
    *,
    rules: RuleIds = (),
) -> Procedure[tuple[bool, int]]:
    """Roll ``quality`` against leadership + threat; returns (passed, roll).

    Rolled even when it cannot succeed (the roll may matter, SW-MOR-05). The roll
    names the basic test's rules (SW-CORE-02/03) and the caller's ``rules``.
    """
    (roll,) = yield Roll(quality, reason, roller=roller, rules=test_form_rules(rules))
    return test_passed(roll, leadership, threat), roll


@cache
def test_form_rules(rules: RuleIds = ()) -> RuleIds:
    """A quality-die test's rules: the quality die (SW-CORE-02), the basic form
    (SW-CORE-03), then the rule that called for it.

    >>> test_form_rules(("SW-SUP-03",))
    ('SW-CORE-02', 'SW-CORE-03', 'SW-SUP-03')
    """
    return ("SW-CORE-02", "SW-CORE-03", *rules)


# pytest must not collect the rule functions above as tests.
test_passed.__test__ = False  # type: ignore[attr-defined]
test_form_rules.__test__ = False  # type: ignore[attr-defined]
