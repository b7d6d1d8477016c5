"""Consequences applied to a squad: markers, hits on its models, commanders, morale, panic,
surrender.

Each function takes what the rules decided (a hit's result on one model, a morale
event's triggers …), Calls the rule procedure that decides what follows
(commander replacement, morale event, panic test) and applies its outcome to the
state, narrating what changed with the rules that made it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from kubik.engine import Call, Message, Procedure, emit, msg
from kubik.engine.dice import Die
from kubik.rulesets.steel_war.coherency import coherency_breaches
from kubik.rulesets.steel_war.damage import (
    HitEffect,
    NewCommander,
    TargetKind,
    replace_commander,
    specialist_replaceable,
)
from kubik.rulesets.steel_war.damage_models import ModelHit, TargetModel
from kubik.rulesets.steel_war.fire_weapons import Special, WeaponKind, weapon
from kubik.rulesets.steel_war.morale import MoraleEventOutcome, morale_event
from kubik.rulesets.steel_war.morale_levels import MoraleLevel, apply_drop, surrenders
from kubik.rulesets.steel_war.panic import PanicEvent, PanicOutcome, causes_panic, panic_test
from kubik.rulesets.steel_war.suppression import add_marker
from kubik.rulesets.steel_war.threat import PlusFactor, Trigger, threat_level
from kubik.table.tape import Tape

from .field import Battlefield
from .state import First, Gone, Model, Panic, Squad, Status


def place_marker(squad: Squad) -> tuple[bool, bool]:
    """One more suppression marker, at most three (SW-SUP-02); none while berserk (SW-NSN-03).

    Returns (a marker was placed, it is the squad's first suppression of the battle).
    """
    if squad.berserk:
        return False, False
    first = squad.first(First.SUPPRESSED)
    before = squad.markers
    squad.markers = add_marker(squad.markers)
    return squad.markers > before, first


def target_model(
    squad: Squad, model: Model, in_cover: bool = False, name: Message | None = None
) -> TargetModel:
    """A model as the armour rules see it: what it is, its cover, its vest, its psi die
    (a psionic, SW-PSI-03), what it carries (a Keno backpack, SW-DMG-09), its name."""
    psionic = squad.psionic()
    return TargetModel(
        model.id,
        model.kind or TargetKind.MAN,
        in_cover,
        squad.spec.flak_vest and model.is_man,
        squad.psi if psionic is not None and psionic.id == model.id else None,
        model.weapon,
        name,
    )


def is_specialist(model: Model) -> bool:
    """A man with a specialist's weapon: a support weapon or a sniper rifle (SW-DMG-05)."""
    if not model.weapon:
        return False
    w = weapon(model.weapon)
    return model.is_man and (w.kind is WeaponKind.SUPPORT or w.has(Special.SNIPER))


@dataclass(slots=True)
class Losses:
    """What hits did to one squad: men lost for morale, the commander among them, the
    models whose backpack flamethrowers went off."""

    casualties: int = 0
    commander_lost: bool = False
    explosions: list[str] = field(default_factory=list)


def apply_hits(
    game: Battlefield, squad: Squad, results: tuple[ModelHit, ...], by: Squad | None = None
) -> Procedure[Losses]:
    """Each resolved hit lands on its model (SW-DMG-03/07/10/11), in the order the rules
    resolved them: a man becomes an unverified casualty or is killed, a bronescaf loses
    his suit, a cavalryman his horse, a man-sized weapon or a robot is destroyed or
    immobilised. A lost specialist takes his weapon with him (SW-DMG-05); a lost
    commander is replaced at once (SW-DMG-06). The enemy unit ``by`` whose fire (or
    psionic) it was is credited with every model it took out of the fight."""
    losses = Losses()
    out = 0
    for result in results:
        model = squad.model(result.model)
        if result.explodes:
            losses.explosions.append(model.id)
        if result.effect is HitEffect.NONE:
            continue
        status = {
            HitEffect.REMOVED: Status.KILLED,
            HitEffect.UNVERIFIED_CASUALTY: Status.UNVERIFIED,
            HitEffect.DESTROYED: Status.DESTROYED,
        }.get(result.effect)
        if status is not None:
            out += model.status is Status.ACTIVE
            model.status = status
        elif result.after is not None:
            model.kind = result.after
        if result.casualty:
            losses.casualties += 1
            if model.id == squad.commander:
                losses.commander_lost = True
            elif (
                status is not None
                and is_specialist(model)
                and not specialist_replaceable(is_commander=False)
            ):
                yield emit(
                    "steel_war.game.specialist_lost",
                    rules="SW-DMG-05",
                    model=game.name(model.id),
                    weapon=msg(weapon(model.weapon).msgid),
                )
    credit(game, by, squad, out)
    if losses.commander_lost:
        yield from new_commander(game, squad)
    return losses


def credit(game: Battlefield, by: Squad | None, victims: Squad, models: int) -> None:
    """Credit ``by`` with taking ``models`` of ``victims`` out of the fight, when it is
    an enemy of theirs (the battle layer's one hook for kills; a friend's explosion or
    a squad's own men are nobody's kills)."""
    if by is not None and models and by.side != victims.side:
        game.credit_kill(by.id, models)


def new_commander(game: Battlefield, squad: Squad) -> Procedure[None]:
    """A subordinate takes over the lost commander — only his figure may be swapped
    (SW-DMG-05) — and a d6 sets his leadership (SW-DMG-06). An ordinary soldier is
    chosen before a specialist."""
    with game.rolling(squad):
        return (yield from _new_commander(game, squad))


def _new_commander(game: Battlefield, squad: Squad) -> Procedure[None]:
    living = squad.men()
    if not living or not specialist_replaceable(is_commander=True):
        return
    outcome: NewCommander = yield Call(replace_commander, (squad.leadership,))
    chosen = min(living, key=lambda m: (is_specialist(m), squad.models.index(m)))
    squad.commander = chosen.id
    squad.leadership = outcome.leadership
    yield emit(
        "steel_war.game.new_commander",
        rules=("SW-DMG-05", "SW-DMG-06"),
        squad=game.name(squad.id),
        model=game.name(chosen.id),
        leadership=squad.leadership,
    )


def breaches(squad: Squad) -> tuple[int, ...]:
    """The squad's models out of coherency (SW-ABSENT-09 default: every model within 2"
    of another and within 6" of its commander), measured edge to edge."""
    living = squad.active()
    if len(living) < 2 or squad.is_vehicle:
        return ()
    boss = squad.anchor()
    bases = [m.base() for m in living]
    # (each model against all the others at once: the least of its edge distances)
    near = [Tape.closest([b], [*bases[:i], *bases[i + 1 :]]) for i, b in enumerate(bases)]
    to_boss = [
        0.0 if m.id == squad.commander else Tape.closest([b], [boss])
        for m, b in zip(living, bases, strict=True)
    ]
    return coherency_breaches(near, to_boss)


def coherency_check(game: Battlefield, squad: Squad) -> Procedure[bool]:
    """Whether the squad is still in coherency after losing models; a squad that is not
    says so, and regroups only by reorganising (SW-REORG-01, SW-ABSENT-09)."""
    found = breaches(squad)
    if found:
        yield emit(
            "steel_war.game.out_of_coherency",
            rules="SW-ABSENT-09",
            squad=game.name(squad.id),
            models=len(found),
        )
    return not found


def morale_check(
    game: Battlefield, squad: Squad, triggers: list[Trigger], *, extra: int = 0
) -> Procedure[int]:
    """A morale event from the threat table (SW-MOR-05..07); returns the levels dropped.
    A berserk squad takes none (SW-NSN-03)."""
    with game.rolling(squad):
        return (yield from _morale_check(game, squad, triggers, extra=extra))


def _morale_check(
    game: Battlefield, squad: Squad, triggers: list[Trigger], *, extra: int = 0
) -> Procedure[int]:
    if not triggers or not squad.present:
        return 0
    if squad.berserk:
        yield emit("steel_war.game.no_morale_test", rules="SW-NSN-03", squad=game.name(squad.id))
        return 0
    threat = threat_level(
        squad.motivation,
        triggers,
        {
            PlusFactor.UNVERIFIED_CASUALTY: len(squad.with_status(Status.UNVERIFIED)),
            PlusFactor.WOUNDED_LEFT_BEHIND: int(game.left_behind(squad)),
        },
        extra=extra,
    )
    yield emit(
        "steel_war.game.morale_event",
        rules=("SW-MOR-05", "SW-MOR-06"),
        squad=game.name(squad.id),
        triggers=tuple(triggers),
    )
    outcome: MoraleEventOutcome = yield Call(
        morale_event, (squad.die, squad.leadership, squad.level, threat)
    )
    yield from set_level(game, squad, outcome.level)
    return outcome.drop


def fire_triggers(losses: Losses, before: int, first_suppressed: bool) -> list[Trigger]:
    """The threat table's rows one fire (or explosion) set off (SW-MOR-06): first
    suppression, casualties, more lost than remain, commander lost."""
    triggers = [Trigger.FIRST_SUPPRESSED] if first_suppressed else []
    if losses.casualties:
        triggers.append(Trigger.CASUALTIES)
        if losses.casualties > before - losses.casualties:
            triggers.append(Trigger.MORE_LOST_THAN_REMAIN)
    if losses.commander_lost:
        triggers.append(Trigger.COMMANDER_LOST)
    return triggers


def drop_levels(game: Battlefield, squad: Squad, levels: int) -> Procedure[None]:
    """Lose ``levels`` morale levels (a test already decided it)."""
    if levels:
        yield from set_level(game, squad, apply_drop(squad.level, levels))


def set_level(game: Battlefield, squad: Squad, level: MoraleLevel) -> Procedure[None]:
    """Change the squad's morale; a fleeing squad with an enemy within 12" surrenders."""
    if level is not squad.level:
        yield emit(
            "steel_war.game.level",
            rules="SW-MOR-01",
            squad=game.name(squad.id),
            before=squad.level,
            after=level,
        )
        squad.level = level
    yield from check_surrender(game, squad)


def check_surrender(game: Battlefield, squad: Squad) -> Procedure[None]:
    """Бегущий with an enemy within 12 inches surrenders (SW-MOR-01)."""
    if not squad.present or squad.aboard is not None or not surrenders(squad.level, 0.0):
        return  # (a squad that would not surrender even with an enemy at hand: no measuring)
    near = game.nearest_enemy(squad)
    if surrenders(squad.level, near[1] if near else None):
        yield from remove(game, squad, Gone.SURRENDERED, ("SW-MOR-01",))


def remove(game: Battlefield, squad: Squad, why: Gone, rules: tuple[str, ...]) -> Procedure[None]:
    """The squad leaves the battle; prisoners and the scattered count as lost. Its fights
    end, and riders of a vehicle that leaves are lost with it."""
    if squad.gone is not None:
        return
    squad.gone = why
    if why in (Gone.SURRENDERED, Gone.SCATTERED):
        for model in squad.models:
            if model.status in (Status.ACTIVE, Status.UNVERIFIED, Status.MELEE_LOST):
                model.status = Status.PRISONER
    riders = game.passengers(squad)
    game.contacts.release(squad.id)
    squad.melee_role = None
    yield emit("steel_war.game.gone", rules=rules, squad=game.name(squad.id), why=why)
    for rider in riders:  # (a vehicle that routs or surrenders takes its riders with it)
        yield from remove(game, rider, why, rules)


def check_destroyed(game: Battlefield, squad: Squad) -> Procedure[None]:
    """A squad with nobody left to fight is destroyed (a man-sized weapon without its crew
    is lost with it)."""
    if squad.gone is not None:
        return
    crew = [m for m in squad.active() if m.kind is not TargetKind.MAN_SIZED_WEAPON]
    if not crew and not squad.with_status(Status.MELEE_LOST):
        for model in squad.active():
            model.status = Status.DESTROYED
        yield from remove(game, squad, Gone.DESTROYED, ("SW-DMG-03", "SW-DMG-07"))


def panic(
    game: Battlefield, squad: Squad, event: PanicEvent, die: Die | None = None
) -> Procedure[bool]:
    """A panic-causing event (SW-PANIC-01/02): the test, and a level lost on failure;
    ``die``: the test's die when a rule names it (androids resist psionics on d6,
    SW-PSI-18), else the squad's quality die.

    Returns whether the squad is panicked now. Nothing happens when the event cannot
    panic these troops (veterans, a panic already overcome).
    """
    with game.rolling(squad):
        return (yield from _panic(game, squad, event, die))


def _panic(
    game: Battlefield, squad: Squad, event: PanicEvent, die: Die | None = None
) -> Procedure[bool]:
    if not squad.present or not causes_panic(squad.quality, event, squad.panic_over):
        return squad.panicked
    outcome: PanicOutcome = yield Call(
        panic_test,
        (die or squad.die, squad.leadership, event, squad.panic_over, squad.berserk),
    )
    if outcome.panicked:
        if not squad.panicked:
            yield emit("steel_war.game.panicked", rules="SW-PANIC-01", squad=game.name(squad.id))
        squad.panic = Panic.PANICKED
        yield from drop_levels(game, squad, outcome.drop)
    else:
        if squad.panicked:
            yield emit("steel_war.game.panic_over", rules="SW-PANIC-01", squad=game.name(squad.id))
        squad.panic = Panic.OVER
    return squad.panicked


def within(a: Model, b: Model, radius: float) -> bool:
    """Whether two models' bases are within ``radius`` inches (edge to edge)."""
    return math.dist(a.point, b.point) - (a.diameter + b.diameter) / 2 <= radius


__all__ = [
    "Losses",
    "apply_hits",
    "breaches",
    "check_destroyed",
    "check_surrender",
    "coherency_check",
    "credit",
    "drop_levels",
    "fire_triggers",
    "is_specialist",
    "morale_check",
    "new_commander",
    "panic",
    "place_marker",
    "remove",
    "set_level",
    "target_model",
    "within",
]
