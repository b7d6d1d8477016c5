"""Psychology (seed 004): Fear, Terror, their meeting, Immune to psychology,
Stupidity, Panic, and the tests that end a combat — Break (with Stubborn,
Unbreakable, Horde) and Rally.

Written as the seed words them where it differs from published WFB: a failed
Fear test sets the unit's WS to 1 for the combat (FB-PSY-01); a failed Terror
test means the Flee reaction (FB-PSY-02), and a unit tests for Terror once per
game, for Fear afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from kubik.engine import Call, Procedure, Roll, Verdict, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import D6
from kubik.rulesets.fantasy.charts import data, leadership_cap
from kubik.rulesets.fantasy.leadership import (
    Command,
    LeadershipTest,
    TestKind,
    leadership_for,
    leadership_test,
    may_reroll,
)


class Dread(StrEnum):
    """What a unit causes in its enemies."""

    NONE = "none"
    FEAR = "fear"
    TERROR = "terror"


def dread_of(rules: frozenset[str]) -> Dread:
    """Fear or Terror from a unit's special rules (Terror is the stronger)."""
    if "terror" in rules:
        return Dread.TERROR
    return Dread.FEAR if "fear" in rules else Dread.NONE


def immune(rules: frozenset[str]) -> bool:
    """Immune to psychology, by itself, through Frenzy or through Stupidity
    (FB-PSY-04, FB-PSY-05, FB-PSY-07)."""
    return bool(rules & {"immune_to_psychology", "frenzy", "stupidity"})


@dataclass(frozen=True, slots=True)
class Confrontation:
    """A unit charging or charged by an enemy unit, for its Fear or Terror test."""

    rules: frozenset[str]
    enemy_rules: frozenset[str]
    leadership: int
    terror_tested: bool = False
    command: Command = field(default_factory=Command)


def dread_test(c: Confrontation) -> tuple[TestKind | None, tuple[str, ...]]:
    """Which test the unit takes, if any, and the rules that say so."""
    enemy, own = dread_of(c.enemy_rules), dread_of(c.rules)
    if enemy is Dread.NONE:
        return None, ()
    if immune(c.rules):
        return None, ("FB-PSY-04",)
    if enemy is Dread.FEAR:
        if own is not Dread.NONE:
            return None, ("FB-PSY-03",)
        return TestKind.FEAR, ("FB-PSY-01",)
    if own is Dread.TERROR:
        return None, ("FB-PSY-03",)
    if own is Dread.FEAR:
        return TestKind.FEAR, ("FB-PSY-03", "FB-PSY-01")
    if c.terror_tested:
        return TestKind.FEAR, ("FB-PSY-02", "FB-PSY-01")
    return TestKind.TERROR, ("FB-PSY-02",)


class Nerve(StrEnum):
    """How a unit met a Fear or Terror causer."""

    UNSHAKEN = "unshaken"  # no test, or passed
    AFRAID = "afraid"  # failed Fear: WS 1 for the rest of the combat
    FLEES = "flees"  # failed Terror: the Flee reaction

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"fantasy.nerve.{self.value}"


def face_dread(c: Confrontation) -> Procedure[Nerve]:
    """Take the Fear or Terror test a confrontation calls for."""
    kind, rules = dread_test(c)
    if kind is None:
        if rules:
            yield emit("fantasy.psychology.no_test", rules=rules)
        return Nerve.UNSHAKEN
    leadership, inspired = leadership_for(kind, c.leadership, c.command)
    passed = yield Call(
        leadership_test,
        (LeadershipTest(kind, leadership, may_reroll(kind, c.command), rules + inspired),),
    )
    if passed:
        return Nerve.UNSHAKEN
    nerve = Nerve.FLEES if kind is TestKind.TERROR else Nerve.AFRAID
    yield emit("fantasy.psychology.failed", rules=rules, nerve=nerve)
    return nerve


@decides("FB-ABSENT-09")
def panic_needed(lost: int, at_start: int) -> bool:
    """A quarter or more of the unit lost to shooting in one phase (FB-ABSENT-09)."""
    return at_start > 0 and Fraction(lost, at_start) >= Fraction(data()["panic"]["loss_fraction"])


@dataclass(frozen=True, slots=True)
class Panic:
    """A unit that must test for panic."""

    rules: frozenset[str]
    leadership: int
    command: Command = field(default_factory=Command)


def panic_test(p: Panic) -> Procedure[bool]:
    """Passed (True) or the unit flees: Immune to psychology passes without dice
    (FB-PSY-04); the General's Leadership does not count for panic (seed lists only
    fear, terror, rally and break), the Battle standard's re-roll does."""
    if immune(p.rules):
        yield emit("fantasy.psychology.immune", rules=("FB-PSY-04", "FB-ABSENT-09"))
        return True
    passed = yield Call(
        leadership_test,
        (
            LeadershipTest(
                TestKind.PANIC,
                p.leadership,
                may_reroll(TestKind.PANIC, p.command),
                ("FB-ABSENT-09",),
            ),
        ),
    )
    return bool(passed)


@dataclass(frozen=True, slots=True)
class StupidityOutcome:
    """Whether the unit forgot itself this turn, and how far it then blunders."""

    stupid: bool
    inches: int = 0


def stupidity_test(leadership: int) -> Procedure[StupidityOutcome]:
    """At the start of its turn a stupid unit tests Leadership; failing, it moves D6"
    toward the nearest enemy and may not charge, shoot or cast (FB-PSY-07)."""
    passed = yield Call(
        leadership_test, (LeadershipTest(TestKind.STUPIDITY, leadership, False, ("FB-PSY-07",)),)
    )
    if passed:
        return StupidityOutcome(False)
    (inches,) = yield Roll(D6, msg("fantasy.stupidity.move"), rules=("FB-PSY-07",))
    return StupidityOutcome(True, int(inches))


@decides()
def may_act_while_stupid(stupid: bool) -> Verdict:
    """A unit that failed its Stupidity test may not charge, shoot or cast (FB-PSY-07)."""
    if stupid:
        return Verdict.forbid(msg("fantasy.permission.stupid"), "FB-PSY-07")
    return Verdict.allow("FB-PSY-07")


@dataclass(frozen=True, slots=True)
class Defeat:
    """A unit that lost a round of close combat by ``margin``."""

    rules: frozenset[str]
    leadership: int
    margin: int
    command: Command = field(default_factory=Command)


@dataclass(frozen=True, slots=True)
class BreakOutcome:
    """Whether the loser broke, and the wounds a Horde takes instead of testing."""

    broken: bool
    horde_wounds: int = 0


def break_test(d: Defeat) -> Procedure[BreakOutcome]:
    """The loser's Break test: 2D6 against Leadership less the margin (FB-ABSENT-08);
    Stubborn ignores the margin (FB-PSY-08), Unbreakable passes (FB-PSY-09), a Horde
    takes the margin as extra wounds instead (FB-PSY-10)."""
    if "horde" in d.rules:
        yield emit("fantasy.break.horde", rules=("FB-PSY-10",), wounds=d.margin)
        return BreakOutcome(False, d.margin)
    if "unbreakable" in d.rules:
        yield emit("fantasy.break.unbreakable", rules=("FB-PSY-09", "FB-ABSENT-08"))
        return BreakOutcome(False)
    leadership, inspired = leadership_for(TestKind.BREAK, d.leadership, d.command)
    rules: tuple[str, ...] = ("FB-ABSENT-08", *inspired)
    if "stubborn" in d.rules:
        rules += ("FB-PSY-08",)
    else:
        leadership -= d.margin
    passed = yield Call(
        leadership_test,
        (LeadershipTest(TestKind.BREAK, leadership, may_reroll(TestKind.BREAK, d.command), rules),),
    )
    return BreakOutcome(not passed)


@decides()
def may_rally(models: int, starting_models: int) -> Verdict:
    """A fleeing unit below a quarter of its starting size cannot rally (FB-ABSENT-11)."""
    if Fraction(models, max(1, starting_models)) < Fraction(data()["rally"]["min_fraction"]):
        return Verdict.forbid(msg("fantasy.permission.too_few_to_rally"), "FB-ABSENT-11")
    return Verdict.allow("FB-ABSENT-11")


@dataclass(frozen=True, slots=True)
class Rally:
    """A fleeing unit trying to rally."""

    leadership: int
    musician: bool = False
    command: Command = field(default_factory=Command)


def rally_test(r: Rally) -> Procedure[bool]:
    """Rally on 2D6 against Leadership, +1 with a musician but never above 10
    (FB-ABSENT-11, FB-CMD-04)."""
    leadership, rules = leadership_for(TestKind.RALLY, r.leadership, r.command)
    rules = ("FB-ABSENT-11", *rules)
    if r.musician:
        leadership = min(leadership_cap(), leadership + int(data()["rally"]["musician"]))
        rules += ("FB-CMD-04",)
    passed = yield Call(
        leadership_test,
        (LeadershipTest(TestKind.RALLY, leadership, may_reroll(TestKind.RALLY, r.command), rules),),
    )
    return bool(passed)
