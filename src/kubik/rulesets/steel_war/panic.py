"""Panic (паника): which events cause it, and the test that ends it.

A panic-causing event (by troop quality, SW-PANIC-02) makes the squad take a
reaction test at once — quality die beats leadership + 0. Passing ends the panic,
and it never arises again in this battle; failing means the squad does nothing in
this activation and loses one morale level. While panicked, every activation is
one more attempt (the whole activation), each failure another level (SW-PANIC-01).
Psionics force the test on anyone (SW-PSI-14/16).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any

from kubik.core.errors import DiceError
from kubik.engine import Procedure, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import Die
from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war.core import Quality, leadership_test
from kubik.rulesets.steel_war.movers import MoverType, is_vehicle
from kubik.rulesets.steel_war.reaction import ReactionAction, reaction_rules, reaction_threat


class PanicEvent(StrEnum):
    """What happened to the squad; ``ONGOING`` = an attempt to end a current panic."""

    FIRST_ENEMY_IN_SIGHT = "first_enemy_in_sight"  # впервые в прямой видимости противник
    FIRST_ARMOUR_SEEN = "first_armour_seen"  # впервые увидели бронетехнику или бронескафы
    FIRST_SHOT_AT = "first_shot_at"  # в первый раз за бой обстреляны
    FRIGHTENING_CHARGE = "frightening_charge"  # врукопашную идут «страшные» солдаты
    PSIONIC = "psionic"  # пси-атака «Паника» или «Пси-взрыв»
    ONGOING = "ongoing"  # попытка прекратить панику

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"steel_war.panic.{self.value}"


@cache
def _data() -> Mapping[str, Any]:
    return load_ruleset_data("steel_war")


def quality_of(die: Die) -> Quality:
    """The troop quality whose die this is (d4 untrained .. d12 elite).

    >>> from kubik.engine.dice import D8
    >>> quality_of(D8)
    <Quality.REGULARS: 'regulars'>
    """
    for quality in Quality:
        if quality.die == die:
            return quality
    raise DiceError(f"{die} is not a quality die; they are d4, d6, d8, d10, d12")


@cache  # pure, its data read once per process: asked on every menu and replay
def panic_triggers(quality: Quality) -> frozenset[PanicEvent]:
    """The events that cause panic in troops of ``quality`` (psionics: always).

    >>> sorted(str(event) for event in panic_triggers(Quality.RECRUITS))
    ['first_armour_seen', 'first_shot_at', 'psionic']
    >>> panic_triggers(Quality.VETERANS)
    frozenset({<PanicEvent.PSIONIC: 'psionic'>})
    """
    table = _data()["panic_triggers"]
    return frozenset(PanicEvent(e) for e in [*table[quality.value], *table["always"]])


@decides("SW-PANIC-02")
def causes_panic(quality: Quality, event: PanicEvent, panic_over: bool = False) -> bool:
    """Whether ``event`` makes a squad of ``quality`` take the panic test.

    ``panic_over``: the squad already ended a panic in this battle; then only
    psionics can panic it again. An ongoing panic always gets its attempt.

    >>> causes_panic(Quality.REGULARS, PanicEvent.FRIGHTENING_CHARGE)
    True
    >>> causes_panic(Quality.ELITE, PanicEvent.FIRST_SHOT_AT)
    False
    >>> causes_panic(Quality.UNTRAINED, PanicEvent.FIRST_ENEMY_IN_SIGHT, panic_over=True)
    False
    """
    if event is PanicEvent.ONGOING:
        return True
    if event is not PanicEvent.PSIONIC and panic_over:
        return False
    return event in panic_triggers(quality)


#: The rule that makes each event a panic test (the quality table, or a psionic's attack).
_EVENT_RULES: dict[PanicEvent, tuple[str, ...]] = {
    PanicEvent.FIRST_ENEMY_IN_SIGHT: ("SW-PANIC-02",),
    PanicEvent.FIRST_ARMOUR_SEEN: ("SW-PANIC-02",),
    PanicEvent.FIRST_SHOT_AT: ("SW-PANIC-02",),
    PanicEvent.FRIGHTENING_CHARGE: ("SW-PANIC-02", "SW-CC-11"),
    PanicEvent.PSIONIC: ("SW-PSI-14", "SW-PSI-01"),
}


@decides("SW-PANIC-02")
@cache  # pure, its data read once per process: asked on every menu and replay
def counts_as_armour(kind: MoverType, armoured: bool = True) -> bool:
    """Whether an enemy unit of this kind is «бронетехника или бронескафы» that panics
    recruits the first time they see it (SW-PANIC-02): bronescafs always, vehicles when
    ``armoured`` (an APC or a tank, not a truck).

    >>> counts_as_armour(MoverType.ARMOURED_SUIT), counts_as_armour(MoverType.WHEELED, False)
    (True, False)
    """
    table = _data()["panic"]
    if kind.value in table["armour_kinds"]:
        return True
    return bool(table["armoured_vehicles"]) and armoured and is_vehicle(kind)


@decides("SW-PANIC-02")
def panic_on_sight(
    quality: Quality,
    *,
    enemy_in_sight: bool,
    armour_in_sight: bool = False,
    enemy_seen_before: bool = False,
    armour_seen_before: bool = False,
    panic_over: bool = False,
) -> PanicEvent | None:
    """The panic-causing event a squad's view brings now, if any (SW-PANIC-02): untrained
    troops the first time any enemy unit is in sight, recruits the first time they see
    enemy armour (:func:`counts_as_armour`); never once a panic test was passed.

    >>> panic_on_sight(Quality.RECRUITS, enemy_in_sight=True, armour_in_sight=True)
    <PanicEvent.FIRST_ARMOUR_SEEN: 'first_armour_seen'>
    >>> panic_on_sight(Quality.RECRUITS, enemy_in_sight=True) is None
    True
    """
    sights = (
        (PanicEvent.FIRST_ENEMY_IN_SIGHT, enemy_in_sight, enemy_seen_before),
        (PanicEvent.FIRST_ARMOUR_SEEN, armour_in_sight, armour_seen_before),
    )
    for event, now, before in sights:
        if now and not before and causes_panic(quality, event, panic_over):
            return event
    return None


@dataclass(frozen=True, slots=True)
class PanicOutcome:
    """Whether the squad is panicked after this test, and the morale levels lost."""

    panicked: bool
    drop: int


def panic_test(
    quality: Die,
    leadership: int,
    event: PanicEvent = PanicEvent.ONGOING,
    panic_over: bool = False,
    no_step_back: bool = False,
) -> Procedure[PanicOutcome]:
    """Reaction test at threat 0: pass ends the panic for good, fail costs a level.

    Nothing is rolled when the event cannot panic these troops, or when the squad
    is in «Ни шагу назад!» (its reaction tests pass automatically, SW-NSN-03).
    """
    if no_step_back:
        yield emit("steel_war.panic_test.no_step_back", rules=("SW-NSN-03", "SW-PANIC-01"))
        return PanicOutcome(panicked=False, drop=0)
    if not causes_panic(quality_of(quality), event, panic_over):
        yield emit(
            "steel_war.panic_test.no_panic",
            rules=("SW-PANIC-02", "SW-PANIC-01"),
            event=event,
            die=quality,
        )
        return PanicOutcome(panicked=False, drop=0)
    panic = _data()["panic"]
    threat = reaction_threat(ReactionAction.PANIC_EVENT)
    target = leadership + threat
    rules = (*reaction_rules(ReactionAction.PANIC_EVENT), *_EVENT_RULES.get(event, ()))
    passed, roll = yield from leadership_test(
        quality,
        leadership,
        threat,
        msg("steel_war.panic_test.roll", target=target),
        "squad",
        rules=rules,
    )
    drop = 0 if passed else int(panic["levels_lost_per_failure"])
    yield emit(
        "steel_war.panic_test.result",
        rules=("SW-PANIC-01", "SW-MOR-01") if drop else "SW-PANIC-01",
        event=event,
        die=quality,
        roll=roll,
        target=target,
        passed=passed,
        drop=drop,
    )
    return PanicOutcome(panicked=not passed, drop=drop)
