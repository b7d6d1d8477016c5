"""«Ни шагу назад!» (Not one step back!): the voluntary berserk test.

A squad in cover or gone to ground, with no friends within 12", facing at least
three enemy squads that are not retreating or fleeing, at По or better may try it
(SW-NSN-01): d8 for the Keno Guard, d6 for anyone else, 6+ succeeds (SW-NSN-02).
Success: no more morale or reaction tests, no suppression; failure: the squad
leaves the table, scattered or surrendered (SW-NSN-03). The state ends when the
squad dies out or sees no enemy but broken ones; it is then Стойкий (SW-NSN-04).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any

from kubik.engine import Procedure, Roll, Verdict, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import Die, parse_die
from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war.morale_levels import MoraleLevel


@cache
def _data() -> dict[str, Any]:
    return dict(load_ruleset_data("steel_war")["no_step_back"])


@dataclass(frozen=True, slots=True)
class Stand:
    """The squad's situation when it considers the test (plain facts from the table)."""

    level: MoraleLevel
    in_cover: bool = False
    gone_to_ground: bool = False
    nearest_friend: float | None = None  # inches; None = no friendly troops on the table
    enemy_levels_in_sight: tuple[MoraleLevel, ...] = ()  # one entry per enemy squad in sight
    nearest_enemy: float | None = None  # inches, for surrender on failure
    keno_guard: bool = False


class NotAllowed(StrEnum):
    """Which precondition of SW-NSN-01 fails."""

    NOT_IN_COVER = "not_in_cover"
    FRIENDS_NEAR = "friends_near"
    TOO_FEW_ENEMIES = "too_few_enemies"
    MORALE_TOO_LOW = "morale_too_low"

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"steel_war.no_step_back.{self.value}"


def counted_enemies(enemy_levels: Iterable[MoraleLevel], up_to: int | None = None) -> int:
    """Enemy squads that are "not retreating nor fleeing" (Ра and Бе do not count);
    ``up_to``: the count stops there, the rest of ``enemy_levels`` unread.

    >>> counted_enemies((MoraleLevel.STEADY, MoraleLevel.BROKEN, MoraleLevel.SHAKEN))
    2
    >>> counted_enemies((MoraleLevel.STEADY, MoraleLevel.BROKEN, MoraleLevel.SHAKEN), up_to=1)
    1
    """
    excluded = _not_counted()
    counted = 0
    if counted == up_to:
        return counted
    for level in enemy_levels:
        if level not in excluded:
            counted += 1
            if counted == up_to:
                break
    return counted


@cache
def _not_counted() -> frozenset[MoraleLevel]:
    """The levels of enemy squads that do not count (read once)."""
    return frozenset(MoraleLevel(v) for v in _data()["not_counted_levels"])


@cache
def _limits() -> tuple[float, int, MoraleLevel]:
    """SW-NSN-01's numbers (read once): no friend within so many inches, at least so
    many enemy squads in sight, at least this morale level."""
    data = _data()
    return (
        float(data["no_friends_within_inches"]),
        int(data["min_enemy_squads_in_sight"]),
        MoraleLevel(data["min_level"]),
    )


def preconditions_failing(stand: Stand) -> tuple[NotAllowed, ...]:
    """Every precondition of SW-NSN-01 the squad does not meet (empty: may test).

    >>> three = (MoraleLevel.STEADY,) * 3
    >>> preconditions_failing(Stand(MoraleLevel.SHAKEN, in_cover=True, enemy_levels_in_sight=three))
    ()
    >>> bad = Stand(MoraleLevel.BROKEN, gone_to_ground=True, nearest_friend=12.0)
    >>> [reason.value for reason in preconditions_failing(bad)]
    ['friends_near', 'too_few_enemies', 'morale_too_low']
    """
    friends = () if stand.nearest_friend is None else (stand.nearest_friend,)
    return _failing(
        stand.level,
        stand.in_cover or stand.gone_to_ground,
        friends,
        stand.enemy_levels_in_sight,
    )


def _failing(
    level: MoraleLevel,
    sheltered: bool,
    friend_distances: Iterable[float],
    enemy_levels_in_sight: Iterable[MoraleLevel],
) -> tuple[NotAllowed, ...]:
    """:func:`preconditions_failing` of these facts, each read only as far as it decides
    its precondition: friends until one is within 12", enemies until three count."""
    radius, need, least = _limits()
    failing: list[NotAllowed] = []
    if not sheltered:
        failing.append(NotAllowed.NOT_IN_COVER)
    for distance in friend_distances:
        if distance <= radius:
            failing.append(NotAllowed.FRIENDS_NEAR)
            break
    if counted_enemies(enemy_levels_in_sight, up_to=need) < need:
        failing.append(NotAllowed.TOO_FEW_ENEMIES)
    if not level.at_least(least):
        failing.append(NotAllowed.MORALE_TOO_LOW)
    return tuple(failing)


def test_die(keno_guard: bool) -> Die:
    """d8 for the Keno Guard, d6 for any other troops (SW-NSN-02)."""
    return parse_die(_data()["keno_guard_die" if keno_guard else "other_die"])


def test_success(roll: int) -> bool:
    """6 or more succeeds.

    >>> test_success(6), test_success(5)
    (True, False)
    """
    return roll >= int(_data()["success_at_least"])


class NoStepBackResult(StrEnum):
    """What the attempt led to."""

    NOT_ALLOWED = "not_allowed"  # a precondition fails: no test
    BERSERK = "berserk"  # the squad is in «Ни шагу назад!»
    SCATTERED = "scattered"  # failed: removed, soldiers scattered
    SURRENDERED = "surrendered"  # failed with an enemy within 12": removed as prisoners

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"steel_war.no_step_back.{self.value}"


@dataclass(frozen=True, slots=True)
class NoStepBackOutcome:
    """The result of a «Ни шагу назад!» attempt."""

    result: NoStepBackResult


def failure_result(nearest_enemy: float | None) -> NoStepBackResult:
    """A failed squad surrenders if an enemy is within 12", else it scatters (SW-NSN-03)."""
    radius = float(_data()["surrender_to_enemy_within_inches"])
    if nearest_enemy is not None and nearest_enemy <= radius:
        return NoStepBackResult.SURRENDERED
    return NoStepBackResult.SCATTERED


def no_step_back_test(stand: Stand) -> Procedure[NoStepBackOutcome]:
    """Check the preconditions, then roll d8 (Keno Guard) or d6: 6+ turns the squad berserk."""
    failing = preconditions_failing(stand)
    if failing:
        yield emit("steel_war.no_step_back.refused", rules="SW-NSN-01", reasons=failing)
        return NoStepBackOutcome(NoStepBackResult.NOT_ALLOWED)
    die = test_die(stand.keno_guard)
    need = int(_data()["success_at_least"])
    (roll,) = yield Roll(
        die,
        msg("steel_war.no_step_back.roll", need=need),
        roller="squad",
        rules=("SW-NSN-01", "SW-NSN-02"),
    )
    result = NoStepBackResult.BERSERK if test_success(roll) else failure_result(stand.nearest_enemy)
    yield emit(
        "steel_war.no_step_back.result",
        rules=("SW-NSN-02", "SW-NSN-03"),
        die=die,
        roll=roll,
        result=result,
    )
    return NoStepBackOutcome(result)


class Ending(StrEnum):
    """How «Ни шагу назад!» ends (SW-NSN-04)."""

    CONTINUES = "continues"
    WIPED_OUT = "wiped_out"
    NO_ENEMY_LEFT = "no_enemy_left"  # the squad returns to normal at Ст


@decides("SW-NSN-04")
def ending(models_left: int, enemy_levels_in_view: Iterable[MoraleLevel]) -> Ending:
    """Whether the state ends: last man down, or only broken enemies left in view.

    >>> [str(ending(3, (MoraleLevel.BROKEN,))), str(ending(3, (MoraleLevel.FLEEING,)))]
    ['no_enemy_left', 'continues']
    >>> str(ending(0, ()))
    'wiped_out'
    """
    if models_left <= 0:
        return Ending.WIPED_OUT
    ignored = {MoraleLevel(v) for v in _data()["ignored_when_ending"]}
    if all(level in ignored for level in enemy_levels_in_view):
        return Ending.NO_ENEMY_LEFT
    return Ending.CONTINUES


@decides("SW-NSN-04")
def level_after_ending() -> MoraleLevel:
    """The squad's morale when the state ends: Стойкий, whatever it started at (SW-NSN-04)."""
    return MoraleLevel(_data()["end_level"])


@dataclass(frozen=True, slots=True)
class BerserkEffects:
    """What «Ни шагу назад!» changes for the squad while it lasts (SW-NSN-03)."""

    morale_tests_pass: bool
    reaction_tests_pass: bool
    suppression_ignored: bool
    frightening: bool


def berserk_effects() -> BerserkEffects:
    """The state's effects: automatic tests, no suppression markers, and «страшные» (SW-CC-11).

    >>> berserk_effects().frightening
    True
    """
    return BerserkEffects(True, True, True, bool(_data()["berserk_frightening"]))


@dataclass(frozen=True, slots=True)
class Berserk:
    """A squad as it enters «Ни шагу назад!»: in the state, its markers and panic as left."""

    markers: int
    panicked: bool
    berserk: bool = True


@decides("SW-NSN-03")
def enter_berserk(markers: int, panicked: bool = False) -> Berserk:
    """The one place a squad enters «Ни шагу назад!» — by its own test (SW-NSN-03) or a
    psionic (SW-PSI-10): the markers it carries come off (no suppression while it lasts)
    and a panic ends (it passes every reaction test); data ``[no_step_back]``.

    >>> enter_berserk(2, panicked=True)
    Berserk(markers=0, panicked=False, berserk=True)
    """
    data = _data()
    return Berserk(
        markers=0 if data["clears_markers"] else markers,
        panicked=False if data["ends_panic"] else panicked,
    )


@decides()
def may_stand_fast(stand: Stand, *, berserk: bool = False, panicked: bool = False) -> Verdict:
    """May the squad volunteer for «Ни шагу назад!» now (SW-NSN-01, SW-NSN-02)?

    Every precondition must hold: in cover or gone to ground, no friends within 12", at
    least three enemy squads in sight that are not retreating or fleeing, morale По or
    better. Not again while in the state; not while panicked (it can do nothing but try
    to end the panic, SW-PANIC-01). The test costs no action (SW-NSN-02 default).

    >>> three = (MoraleLevel.STEADY,) * 3
    >>> may_stand_fast(Stand(MoraleLevel.SHAKEN, in_cover=True, enemy_levels_in_sight=three)).rules
    ('SW-NSN-01', 'SW-NSN-02')
    """
    friends = () if stand.nearest_friend is None else (stand.nearest_friend,)
    return may_stand_fast_from(
        stand.level,
        sheltered=stand.in_cover or stand.gone_to_ground,
        friend_distances=friends,
        enemy_levels_in_sight=stand.enemy_levels_in_sight,
        berserk=berserk,
        panicked=panicked,
    )


@decides()
def may_stand_fast_from(
    level: MoraleLevel,
    *,
    sheltered: bool,
    friend_distances: Iterable[float],
    enemy_levels_in_sight: Iterable[MoraleLevel],
    berserk: bool = False,
    panicked: bool = False,
) -> Verdict:
    """:func:`may_stand_fast` from the facts as they are measured, each read only as far
    as it decides the verdict (``sheltered``: in cover or gone to ground; the distance
    to each friendly unit, the level of each enemy squad in sight, both lazy): none
    while berserk or panicked, friends until one is within 12", enemies until three
    count. The same verdict, its refusal naming every precondition that fails.

    >>> far, seen = iter([20.0, 5.0, 30.0]), iter([MoraleLevel.STEADY] * 4)
    >>> verdict = may_stand_fast_from(
    ...     MoraleLevel.SHAKEN, sheltered=True, friend_distances=far, enemy_levels_in_sight=seen
    ... )
    >>> verdict.allowed, next(far), next(seen).value
    (False, 30.0, 'steady')
    """
    if panicked:
        return Verdict.forbid(msg("steel_war.permission.panicked"), "SW-PANIC-01")
    if berserk:
        return Verdict.forbid(msg("steel_war.permission.berserk_already"), "SW-NSN-03")
    failing = _failing(level, sheltered, friend_distances, enemy_levels_in_sight)
    if failing:
        return Verdict.forbid(msg("steel_war.no_step_back.refused", reasons=failing), "SW-NSN-01")
    return Verdict.allow("SW-NSN-01", "SW-NSN-02")


# pytest must not collect the rule functions above as tests.
test_die.__test__ = False  # type: ignore[attr-defined]
test_success.__test__ = False  # type: ignore[attr-defined]
