"""Consequences applied to a squad: markers, casualties, commanders, morale, panic, surrender.

Each function takes the measured facts, Calls the rule procedure that decides
(allocation, commander replacement, morale event, panic test) and applies its
outcome to the state, narrating what changed.
"""

from __future__ import annotations

from kubik.engine import Call, Message, Procedure, emit, msg
from kubik.rulesets.steel_war.damage import replace_commander
from kubik.rulesets.steel_war.damage_allocation import allocate_hits
from kubik.rulesets.steel_war.morale import MoraleEventOutcome, morale_event
from kubik.rulesets.steel_war.morale_levels import MoraleLevel, apply_drop, surrenders
from kubik.rulesets.steel_war.panic import PanicEvent, PanicOutcome, causes_panic, panic_test
from kubik.rulesets.steel_war.suppression import add_marker
from kubik.rulesets.steel_war.threat import PlusFactor, Trigger, threat_level

from .state import Gone, Squad, Status
from .world import World


def place_marker(squad: Squad) -> tuple[bool, bool]:
    """One more suppression marker, at most three (SW-SUP-02); none while berserk (SW-NSN-03).

    Returns (a marker was placed, it is the squad's first suppression of the battle).
    """
    if squad.berserk:
        return False, False
    first = not squad.ever_suppressed
    before = squad.markers
    squad.markers = add_marker(squad.markers)
    squad.ever_suppressed = True
    return squad.markers > before, first


def wound_or_kill(
    squad: Squad,
    hits: int,
    wounded: int,
    killed: int,
    in_cover: tuple[bool, ...],
    sniper: bool,
    side: str,
) -> Procedure[tuple[int, bool]]:
    """Allocate the hits to real models (SW-DMG-02, exposed first) and apply the armour
    tests' results: the first ``killed`` models hit die, the next ``wounded`` become
    unverified casualties (the tests are interchangeable, the allocation is random).

    Returns (men lost, whether the commander was among them).
    """
    living = squad.active()
    exposed = tuple(m.id for m, c in zip(living, in_cover, strict=True) if not c)
    covered = tuple(m.id for m, c in zip(living, in_cover, strict=True) if c)
    victims: tuple[str, ...] = yield Call(allocate_hits, (hits, exposed, covered, sniper, side))
    lost = 0
    commander_lost = False
    for index, model_id in enumerate(victims):
        model = squad.model(model_id)
        if index < killed:
            model.status = Status.KILLED
        elif index < killed + wounded:
            model.status = Status.UNVERIFIED
        else:
            continue
        lost += 1
        commander_lost = commander_lost or model_id == squad.commander
        yield emit(
            "steel_war.game.casualty",
            squad=squad.name,
            model=model_id,
            fate=msg_status(model.status),
        )
    return lost, commander_lost


def msg_status(status: Status) -> Message:
    """A model status as a message (for narration)."""
    return msg(f"steel_war.game.status.{status.value}")


def new_commander(squad: Squad) -> Procedure[None]:
    """A subordinate takes over the lost commander; a d6 sets his leadership (SW-DMG-06)."""
    living = squad.active()
    if not living:
        return
    outcome = yield Call(replace_commander, (squad.leadership,))
    squad.commander = living[0].id
    squad.leadership = outcome.leadership
    yield emit(
        "steel_war.game.new_commander",
        squad=squad.name,
        model=squad.commander,
        leadership=squad.leadership,
    )


def morale_check(
    world: World,
    squad: Squad,
    triggers: list[Trigger],
    *,
    extra: int = 0,
) -> Procedure[int]:
    """A morale event from the threat table (SW-MOR-05..07); returns the levels dropped."""
    if squad.berserk or not triggers or not squad.present:
        return 0
    threat = threat_level(
        squad.motivation,
        triggers,
        {
            PlusFactor.UNVERIFIED_CASUALTY: len(squad.with_status(Status.UNVERIFIED)),
            PlusFactor.WOUNDED_LEFT_BEHIND: int(squad.wounded_left_behind),
        },
        extra=extra,
    )
    yield emit("steel_war.game.morale_event", squad=squad.name, triggers=tuple(triggers))
    outcome: MoraleEventOutcome = yield Call(
        morale_event, (squad.die, squad.leadership, squad.level, threat)
    )
    yield from set_level(world, squad, outcome.level)
    return outcome.drop


def drop_levels(world: World, squad: Squad, levels: int) -> Procedure[None]:
    """Lose ``levels`` morale levels (a test already decided it)."""
    if levels:
        yield from set_level(world, squad, apply_drop(squad.level, levels))


def set_level(world: World, squad: Squad, level: MoraleLevel) -> Procedure[None]:
    """Change the squad's morale; a fleeing squad with an enemy within 12" surrenders."""
    if level is not squad.level:
        yield emit("steel_war.game.level", squad=squad.name, before=squad.level, after=level)
        squad.level = level
    yield from check_surrender(world, squad)


def check_surrender(world: World, squad: Squad) -> Procedure[None]:
    """Бегущий with an enemy within 12 inches surrenders (SW-MOR-01)."""
    if not squad.present:
        return
    near = world.nearest_enemy(squad)
    if surrenders(squad.level, near[1] if near else None):
        yield from remove(squad, Gone.SURRENDERED)


def remove(squad: Squad, why: Gone) -> Procedure[None]:
    """The squad leaves the battle; prisoners and the scattered count as lost."""
    if squad.gone is not None:
        return
    squad.gone = why
    if why in (Gone.SURRENDERED, Gone.SCATTERED):
        for model in squad.models:
            if model.status in (Status.ACTIVE, Status.UNVERIFIED, Status.MELEE_LOST):
                model.status = Status.PRISONER
    yield emit("steel_war.game.gone", squad=squad.name, why=why)


def check_destroyed(squad: Squad) -> Procedure[None]:
    """A squad with no man left fighting is destroyed."""
    if squad.gone is None and not squad.active() and not squad.with_status(Status.MELEE_LOST):
        yield from remove(squad, Gone.DESTROYED)


def panic(world: World, squad: Squad, event: PanicEvent) -> Procedure[bool]:
    """A panic-causing event (SW-PANIC-01/02): the test, and a level lost on failure.

    Returns whether the squad is panicked now. Nothing happens when the event cannot
    panic these troops (veterans, a panic already overcome).
    """
    if not squad.present or not causes_panic(squad.quality, event, squad.panic_over):
        return squad.panicked
    outcome: PanicOutcome = yield Call(
        panic_test, (squad.die, squad.leadership, event, squad.panic_over, squad.berserk)
    )
    if outcome.panicked:
        if not squad.panicked:
            yield emit("steel_war.game.panicked", squad=squad.name)
        squad.panicked = True
        yield from drop_levels(world, squad, outcome.drop)
    else:
        if squad.panicked:
            yield emit("steel_war.game.panic_over", squad=squad.name)
        squad.panicked = False
        squad.panic_over = True
    return squad.panicked


__all__ = [
    "check_destroyed",
    "check_surrender",
    "drop_levels",
    "morale_check",
    "new_commander",
    "panic",
    "place_marker",
    "remove",
    "set_level",
    "wound_or_kill",
]
