"""The plain facts about a unit that every question of legality takes.

A battle measures the table and keeps the state; the rules answer "may this unit
shoot, move, charge, go to ground now?" from a :class:`UnitSituation`. Each question
is one function in the rule module that owns the rule (``fire.may_shoot``,
``movement.may_move``, ``charge.may_charge`` ...), returning a
:class:`~kubik.engine.Verdict`: allowed, allowed after a reaction test, or forbidden,
naming the rules that decided. :func:`basic_verdict` is the part every action shares:
the activation (SW-CORE-04, SW-PANIC-01), riding inside a vehicle, being locked in
close combat, suppression (SW-SUP-01) and the morale level (SW-MOR-01).

>>> shaken = UnitSituation(level=MoraleLevel.SHAKEN, markers=1)
>>> basic_verdict(shaken, ActionType.SHOOT).rules
('SW-CORE-04', 'SW-SUP-01', 'SW-MOR-01')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from kubik.engine import Permission, Verdict, msg
from kubik.engine.applied import decides
from kubik.engine.dice import Die
from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war.activation import ActionType, action_verdict
from kubik.rulesets.steel_war.morale_levels import MoraleLevel, Order, order_verdict
from kubik.rulesets.steel_war.movers import MoverType, is_machine
from kubik.rulesets.steel_war.reaction import FailedReactions, ReactionAction, Tests
from kubik.rulesets.steel_war.suppression import is_suppressed, suppression_verdict


@dataclass(frozen=True, slots=True)
class UnitSituation:
    """A unit as the questions of legality see it: plain facts measured by the battle.

    ``done``: the actions already taken this activation; ``failed``: the reaction tests
    failed this turn (SW-REACT-01); ``passed``: it acts with an action its commander
    passed to it (SW-ABSENT-01); ``aboard``: it rides inside a vehicle; ``in_melee``: it
    is locked in a close combat that goes on (SW-CC-09); ``psi``: its psionic's psi die.
    """

    kind: MoverType = MoverType.INFANTRY
    level: MoraleLevel = MoraleLevel.STEADY
    markers: int = 0
    prone: bool = False
    in_cover: bool = False
    in_water: bool = False
    panicked: bool = False
    berserk: bool = False
    done: tuple[ActionType, ...] = ()
    failed: FailedReactions = field(default_factory=FailedReactions)
    marched: bool = False
    immobilised: bool = False
    aboard: bool = False
    in_melee: bool = False
    officer: bool = False
    psi: Die | None = None
    passed: bool = False
    _hash: int | None = field(default=None, init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        # hashed once: every question of legality a menu asks is remembered under it
        found = self._hash
        if found is None:
            found = hash(
                (
                    self.kind,
                    self.level,
                    self.markers,
                    self.prone,
                    self.in_cover,
                    self.in_water,
                    self.panicked,
                    self.berserk,
                    self.done,
                    self.failed,
                    self.marched,
                    self.immobilised,
                    self.aboard,
                    self.in_melee,
                    self.officer,
                    self.psi,
                    self.passed,
                )
            )
            object.__setattr__(self, "_hash", found)
        return found

    @property
    def machine(self) -> bool:
        """A vehicle or a robot (техника)."""
        return is_machine(self.kind)

    @property
    def suppressed(self) -> bool:
        """At least one suppression marker (SW-SUP-01)."""
        return is_suppressed(self.markers)


@decides()
def basic_verdict(unit: UnitSituation, action: ActionType, order: Order | None = None) -> Verdict:
    """What every action of ``unit`` must pass: activation, riding, melee, suppression, morale.

    ``order`` says where a move goes or whom a fire is at (the morale level and
    suppression care); by default the bare action.
    """
    return _basic_verdict(unit, action, order if order is not None else Order(action))


@lru_cache(maxsize=4096)
def _basic_verdict(unit: UnitSituation, action: ActionType, order: Order) -> Verdict:
    """:func:`basic_verdict`, remembered (a menu asks it of every act, situations repeat)."""
    return all_of(
        action_verdict(unit.done, action, panicked=unit.panicked, passed=unit.passed),
        _aboard_verdict(unit, action),
        _melee_verdict(unit),
        suppression_verdict(
            action,
            unit.markers,
            machine=unit.machine,
            in_cover=unit.in_cover,
            away_from_enemy=order.away_from_enemy,
        ),
        order_verdict(unit.level, order),
    )


def _aboard_verdict(unit: UnitSituation, action: ActionType) -> Verdict:
    """A squad riding inside a vehicle may only get off (SW-MOVE-04, SW-ABSENT-05 default)."""
    if not unit.aboard:
        return Verdict.allow()
    allowed = load_ruleset_data("steel_war")["transport"]["aboard_actions"]
    if action.value in allowed:
        return Verdict.allow("SW-MOVE-04")
    return Verdict.forbid(msg("steel_war.permission.aboard"), "SW-MOVE-04", "SW-ABSENT-05")


def _melee_verdict(unit: UnitSituation) -> Verdict:
    """A squad locked in close combat fights its next round; it takes no other action (SW-CC-09)."""
    if not unit.in_melee:
        return Verdict.allow()
    return Verdict.forbid(msg("steel_war.permission.in_melee"), "SW-CC-09")


def all_of(*verdicts: Verdict) -> Verdict:
    """The most restrictive of ``verdicts``; reaction tests several rules ask for add up,
    in order (moving out of cover while gone to ground as По takes two, SW-REACT-02).

    >>> from kubik.rulesets.steel_war.reaction import ReactionAction as R
    >>> down = Verdict.need((R.MOVE_WHILE_DOWN,), msg("x"), "SW-FIRE-07")
    >>> cover = Verdict.need((R.LEAVE_COVER_SHAKEN,), msg("y"), "SW-MOR-01")
    >>> [str(test) for test in all_of(cover, down).test]
    ['leave_cover_shaken', 'move_while_down']
    """
    needing = [v for v in verdicts if v.needs_test]
    if len(needing) <= 1:
        return Verdict.combine(*verdicts)
    tests: Tests = tuple(dict.fromkeys(t for v in needing for t in needed_tests(v)))
    rules = tuple(dict.fromkeys(r for v in needing for r in v.rules))
    joined = Verdict(
        Permission.NEEDS_TEST, rules, msg("steel_war.permission.reaction_tests", tests=tests), tests
    )
    return Verdict.combine(joined, *(v for v in verdicts if not v.needs_test))


def needed_tests(verdict: Verdict) -> Tests:
    """The reaction tests a Steel War verdict asks for, in order (none unless it needs a test).

    >>> needed_tests(Verdict.allow("SW-CORE-04"))
    ()
    """
    test = verdict.test
    if not isinstance(test, tuple):
        return ()
    return tuple(t for t in test if isinstance(t, ReactionAction))


__all__ = ["UnitSituation", "all_of", "basic_verdict", "needed_tests"]
