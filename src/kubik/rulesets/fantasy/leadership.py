"""Leadership tests (FB-ABSENT-06) and whose Leadership a unit may use: the
General's Inspiring presence (FB-CMD-01, FB-CMD-07, FB-SR-15) and the Battle
standard's re-roll (FB-CMD-06).

>>> leadership_for(TestKind.BREAK, 6, Command(general_leadership=9, general_inches=10))
(9, ('FB-CMD-01', 'FB-CMD-07'))
>>> leadership_for(TestKind.PANIC, 6, Command(general_leadership=9, general_inches=10))
(6, ())
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from kubik.engine import Procedure, Roll, emit, msg
from kubik.engine.applied import decides, record
from kubik.engine.dice import D6
from kubik.engine.reducers import Total
from kubik.engine.requests import Emit, tail_step
from kubik.rulesets.fantasy.charts import data, leadership_cap


class TestKind(StrEnum):
    """Which Leadership test: the seed names which ones the General and the Battle
    standard help with."""

    __test__ = False  # not a pytest class

    FEAR = "fear"
    TERROR = "terror"
    PANIC = "panic"
    BREAK = "break"
    RALLY = "rally"
    STUPIDITY = "stupidity"
    MARCH = "march"

    @property
    def msgid(self) -> str:
        """Message id of the test's name, for rendering."""
        return f"fantasy.test.{self.value}"


#: Tests the General's Leadership may be used for (seed: fear, terror, rally, break).
INSPIRED = frozenset({TestKind.FEAR, TestKind.TERROR, TestKind.RALLY, TestKind.BREAK})
#: Tests the Battle standard lets a unit re-roll (seed: break, fear, terror, panic, rally).
REROLLED = frozenset(
    {TestKind.BREAK, TestKind.FEAR, TestKind.TERROR, TestKind.PANIC, TestKind.RALLY}
)


@dataclass(frozen=True, slots=True)
class Command:
    """Where the army's General and Battle standard bearer are for this unit
    (distances in inches; None: not on the table)."""

    general_leadership: int | None = None
    general_inches: float | None = None
    general_large: bool = False
    battle_standard_inches: float | None = None


@decides("FB-CMD-01")
def general_range(large_target: bool) -> int:
    """Inspiring presence reaches 12" (FB-CMD-01), 18" from a General who is a Large
    target (FB-SR-15)."""
    table = data()["command"]
    if large_target:
        record("FB-SR-15")
    return int(table["general_large_inches" if large_target else "general_inches"])


def leadership_for(kind: TestKind, own: int, command: Command) -> tuple[int, tuple[str, ...]]:
    """The Leadership a unit tests on, and the rules that decided it."""
    if (
        kind in INSPIRED
        and command.general_leadership is not None
        and command.general_inches is not None
        and command.general_inches <= general_range(command.general_large)
        and command.general_leadership > own
    ):
        rules: tuple[str, ...] = ("FB-CMD-01", "FB-CMD-07")
        if command.general_large:
            rules += ("FB-SR-15",)
        return command.general_leadership, rules
    return own, ()


def may_reroll(kind: TestKind, command: Command) -> bool:
    """A failed test may be re-rolled within 12" of the Battle standard (FB-CMD-06)."""
    reach = int(data()["command"]["battle_standard_inches"])
    near = command.battle_standard_inches is not None and command.battle_standard_inches <= reach
    return kind in REROLLED and near


@dataclass(frozen=True, slots=True)
class LeadershipTest:
    """A test on 2D6 against ``leadership`` (after any modifier; capped at 10)."""

    kind: TestKind
    leadership: int
    reroll: bool = False
    rules: tuple[str, ...] = ()


def leadership_test(test: LeadershipTest) -> Procedure[bool]:
    """Roll 2D6: passed on a total not above Leadership (FB-ABSENT-06); a failed test
    is rolled again once near the Battle standard (FB-CMD-06)."""
    target = min(test.leadership, leadership_cap())
    first, again, rules = _rolls(test, target, int(data()["leadership"]["dice"]))
    total = yield first
    passed = bool(total <= target)
    if not passed and test.reroll:
        rerolled: bool = yield tail_step(_reroll, test, target, again, rules)
        return rerolled
    yield _told(test, target, rules, passed)
    return passed


def _reroll(
    test: LeadershipTest, target: int, again: Roll, rules: tuple[str, ...]
) -> Procedure[bool]:
    """The re-roll of a failed test (FB-CMD-06), a step of the test: its odds are
    the same whatever the first roll was, so they are worked out once."""
    total = yield again
    passed = bool(total <= target)
    yield _told(test, target, rules, passed)
    return passed


def _told(test: LeadershipTest, target: int, rules: tuple[str, ...], passed: bool) -> Emit:
    """The test's result, for the log."""
    return emit(
        "fantasy.leadership.result",
        rules=rules,
        test=test.kind,
        leadership=target,
        passed=passed,
    )


@lru_cache(maxsize=256)
def _rolls(test: LeadershipTest, target: int, dice: int) -> tuple[Roll, Roll, tuple[str, ...]]:
    """A test's roll, its re-roll and its rules, built once per test (the exact odds
    replay a test once per total, and know a request met before by its identity)."""
    rules = ("FB-ABSENT-06", *test.rules)
    pool = (D6,) * dice
    first = Roll(
        pool,
        msg("fantasy.leadership.roll", test=test.kind, leadership=target),
        reduce=Total(),
        rules=rules,
    )
    again = Roll(
        pool,
        msg("fantasy.leadership.reroll", test=test.kind, leadership=target),
        reduce=Total(),
        rules=(*rules, "FB-CMD-06"),
    )
    return first, again, rules
