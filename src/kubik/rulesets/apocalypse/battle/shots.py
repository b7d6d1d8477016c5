"""Shooting in a battle: the target's reaction, the shot, the hits; guard fire out of
turn; hidden warriors found by moving enemies; shooting from ambush.

Every question goes to the rule modules (:mod:`~kubik.rulesets.apocalypse.shooting`,
:mod:`~kubik.rulesets.apocalypse.hiding`, :mod:`~kubik.rulesets.apocalypse.guard`);
this module only measures the table into their situations and applies outcomes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from kubik.engine import Call, Emit, Forecast, Procedure, Verdict, emit, msg
from kubik.engine.applied import deciding_cache
from kubik.game.battle import Menu, Moment, clear_of
from kubik.game.battle.tastes import taste
from kubik.rulesets.apocalypse.battle.warriors import (
    Condition,
    Ground,
    Morale,
    Sight,
    Warrior,
    Watch,
    Weapon,
)
from kubik.rulesets.apocalypse.checks import spirit_test
from kubik.rulesets.apocalypse.core import Edition, decimal
from kubik.rulesets.apocalypse.hiding import (
    ambush_panic_applies,
    auto_detected,
    detection_roll,
    stays_unnoticed_possible,
    witnesses,
)
from kubik.rulesets.apocalypse.injuries import Harm, Hits, Injury, save_needed, take_hits
from kubik.rulesets.apocalypse.shooting import (
    Misfire,
    Reaction,
    Shooter,
    Shot,
    ShotOutcome,
    WeaponKind,
    may_shoot,
    pre_emptive,
    shoot,
    to_hit_modifier,
)
from kubik.table import Cover, Point

if TYPE_CHECKING:
    from kubik.rulesets.apocalypse.battle.game import ApocalypseGame


@dataclass(frozen=True, slots=True)
class Aim:
    """An option: shoot ``target`` with ``weapon`` (or hold fire: empty)."""

    target: str = ""
    weapon: str = ""


@dataclass(frozen=True, slots=True)
class Firing:
    """How a shot is fired: from guard (RA-GUARD-02) at a charger or at a fleeting target
    (RA-GUARD-04: coming out of hiding), with any other to-hit modifier (``extra``)."""

    guard: bool = False
    charging: bool = False
    fleeting: bool = False
    extra: int = 0


AIMED = Firing()  # an ordinary shot in the shooter's own turn


def shot_situation(
    game: ApocalypseGame, shooter: Warrior, target: Warrior, weapon: Weapon, how: Firing = AIMED
) -> Shot:
    """The rule's situation of a shot: skill, the target's Подвижность and every to-hit
    modifier measured on the table (RA-ABSENT-04, RA-GUARD-04: a guard's target coming
    out of hiding, or found this turn, is fleeting)."""
    guard = how.guard
    distance = game.gap(shooter, target)
    covered = game.tape.cover(shooter.base, target.base) is not Cover.NONE
    modifier = _to_hit_modifier(
        long_range=distance > weapon.range / 2,
        # a target who dived for cover (RA-SHOOT-05): the cover penalty (once), or the
        # small-target penalty when he lies in the open
        cover=covered or target.ground is Ground.COVER,
        prone_in_open=target.ground is Ground.PRONE,
        moved=shooter.turn.moved and not guard,
        gone_to_ground=shooter.ground is not Ground.NONE,
        fleeting=guard and (how.fleeting or target.sight is not Sight.SEEN),
        charging_guard=guard and how.charging,
    )
    kind = weapon.ranged or WeaponKind.FIREARM
    in_range = distance <= weapon.range
    return Shot(shooter.shooting, target.mobility, modifier + how.extra, in_range, kind)


def hit_worth(outcome: ShotOutcome) -> float:
    """What a shot's outcome is worth to the shooter (bot tastes)."""
    return taste("apocalypse", "hit") if outcome.hit else 0.0


def shooter_verdict(game: ApocalypseGame, w: Warrior, target: Warrior | None) -> Verdict:
    """The rule's answer: may ``w`` shoot (at ``target``) now?"""
    return _verdict_at(_shooter(game, w), target)


def _shooter(game: ApocalypseGame, w: Warrior) -> Shooter:
    """What the permission to shoot reads of ``w`` himself (the same at every target)."""
    near = any(
        game.gap(w, f) <= 1.0 for f in game.warriors if f.in_battle and game.contacts.of(f.id)
    )
    engaged = bool(game.engaged(w))
    return Shooter(
        has_weapon=bool(w.ranged_weapons()),
        in_combat=engaged,
        near_combat=near and not engaged,
        target_hidden=False,
        took_cover=w.ground is not Ground.NONE,
        stupid=w.stupor.value != "sensible",
        guarding=w.watch is Watch.ON_GUARD,
        ran=w.turn.ran,
    )


def _verdict_at(shooter: Shooter, target: Warrior | None) -> Verdict:
    """The permission to shoot at ``target`` (RA-HIDE-02: never at a hidden warrior)."""
    hidden = target is not None and target.sight is Sight.HIDDEN
    return _may_shoot(replace(shooter, target_hidden=True) if hidden else shooter)


#: The rules' answers, remembered by all they read (the same few situations come back
#: at every activation): the permission to shoot, and the to-hit modifiers.
_may_shoot = deciding_cache(256)(may_shoot)
_to_hit_modifier = deciding_cache(1024)(to_hit_modifier)


def targets(game: ApocalypseGame, w: Warrior) -> list[Warrior]:
    """Enemies he sees (hidden ones too: the verdict refuses them, RA-HIDE-02)."""
    return [
        e
        for e in game.enemies(w)
        if e.fit or e.condition is Condition.KNOCKED_DOWN
        if game.sees(w, e)
    ]


def shooting_menu(game: ApocalypseGame, w: Warrior, menu: Menu[Aim]) -> None:
    """Offer a shot at every enemy he sees, with the best weapon that reaches."""
    shooter: Shooter | None = None  # his part of the permission, read once
    for target in targets(game, w):
        weapons = w.ranged_weapons()
        if not weapons:
            break
        reaching = [x for x in weapons if x.range >= game.gap(w, target)] or list(weapons)
        weapon = max(reaching, key=lambda x: x.range)
        shot = shot_situation(game, w, target, weapon)
        menu.offer(
            Aim(target.id, weapon.id),
            msg(
                "apocalypse.option.shoot",
                target=game.name(target.id),
                weapon=game.name(f"weapon:{weapon.id}"),
                paces=round(game.gap(w, target), 1),
            ),
            _verdict_at(shooter or (shooter := _shooter(game, w)), target),
            Forecast(shoot, (shot,), value=hit_worth),
        )


def fire(
    game: ApocalypseGame, shooter: Warrior, target: Warrior, weapon: Weapon
) -> Procedure[None]:
    """One declared shot: the target reacts (RA-SHOOT-04..06), then the shot or shots."""
    shooter.turn.shot = True
    reaction = yield from _reaction(game, shooter, target)
    if reaction is Reaction.TAKE_COVER:
        yield from take_cover(game, target)
    if reaction is Reaction.PRE_EMPT:
        back = max(target.ranged_weapons(), key=lambda x: x.range)
        target_first = yield Call(pre_emptive, (shooter.mobility, target.mobility))
        if target_first:
            hasty = Firing(extra=to_hit_modifier(pre_emptive=True))
            yield from resolve(game, target, shooter, back, hasty)
            if shooter.fit:
                yield from resolve(game, shooter, target, weapon)
        else:
            yield from resolve(game, shooter, target, weapon)
            if target.fit and target.ranged_weapons():
                yield from resolve(game, target, shooter, back)
        target.turn.shot = True
        return
    yield from resolve(game, shooter, target, weapon)


def take_cover(game: ApocalypseGame, w: Warrior) -> Procedure[None]:
    """«В укрытие!» (RA-SHOOT-05): he moves into cover within a pace, or drops prone where
    he stands; either way he does nothing else this turn but shoot, at the «Залегание»
    penalty. A guard forced to move leaves guard (RA-GUARD-03)."""
    w.ground_turn = game.turn_side
    spot = cover_within(game, w, decimal("shooting", "take_cover_paces"))
    if spot is None:
        w.ground = Ground.PRONE
        yield emit("apocalypse.game.goes_prone", rules=("RA-SHOOT-05",), unit=game.name(w.id))
        return
    w.ground = Ground.COVER
    if spot != w.base.centre:
        game.place(w, spot)
        if w.watch is Watch.ON_GUARD:
            w.watch = Watch.NONE
            yield emit("apocalypse.game.guard_ends", rules=("RA-GUARD-03",), unit=game.name(w.id))
    yield emit("apocalypse.game.take_cover", rules=("RA-SHOOT-05",), unit=game.name(w.id))


def cover_within(game: ApocalypseGame, w: Warrior, paces: float) -> Point | None:
    """The nearest place within ``paces`` of him right by a feature giving cover (where
    he stands, if he is there already), clear of every other model."""
    if game.next_to_cover(w, 0.3):
        return w.base.centre
    others = [p.base for p in game.bodies(besides=(w.id,))]
    best: tuple[float, Point] | None = None
    for feature in game.table.features:
        if feature.cover is Cover.NONE or feature.elevation >= 1.0:
            continue
        for point in game.tape.around(feature.id, w.base.radius, 0.2, step=0.5):
            spot = (round(point[0], 1), round(point[1], 1))
            d = math.dist(spot, w.base.centre)
            moved = w.base.moved_to(spot)
            closer = d <= paces and (best is None or d < best[0])
            if closer and game.fits(moved) and clear_of([moved], others):
                best = (d, spot)
    return None if best is None else best[1]


def _reaction(game: ApocalypseGame, shooter: Warrior, target: Warrior) -> Procedure[Reaction]:
    """The target's reaction to a declared shot (RA-SHOOT-04..06). A shot from hiding
    comes unannounced: the target only ducks, and is never told who fired."""
    if not target.fit or shooter.sight is Sight.HIDDEN:
        return Reaction.DUCK
    menu: Menu[Reaction] = Menu()
    menu.offer(Reaction.DUCK, msg("apocalypse.option.duck"), Verdict.allow("RA-SHOOT-04"))
    menu.offer(
        Reaction.TAKE_COVER,
        msg("apocalypse.option.take_cover"),
        Verdict.combine(
            Verdict.of(
                not game.engaged(target), msg("apocalypse.permission.in_combat"), "RA-SHOOT-05"
            ),
            Verdict.of(
                target.ground is Ground.NONE, msg("apocalypse.permission.down"), "RA-SHOOT-05"
            ),
        ),
        Forecast(score=taste("apocalypse", "take_cover")),
    )
    can_pre_empt = (
        bool(target.ranged_weapons())
        and not target.turn.shot
        and shooter_verdict(game, target, shooter).allowed
        and game.sees(target, shooter)
        and shooter.sight is Sight.SEEN
    )
    menu.offer(
        Reaction.PRE_EMPT,
        msg("apocalypse.option.pre_empt", shooter=game.name(shooter.id)),
        Verdict.of(can_pre_empt, msg("apocalypse.permission.no_weapon"), "RA-SHOOT-06"),
        Forecast(score=0.1),
    )
    picked = yield from game.choose(
        menu,
        target.side,
        msg("apocalypse.reason.reaction", unit=game.name(target.id), shooter=game.name(shooter.id)),
        default=Reaction.DUCK,
        rules=("RA-SHOOT-04",),
    )
    return picked


def resolve(
    game: ApocalypseGame, shooter: Warrior, target: Warrior, weapon: Weapon, how: Firing = AIMED
) -> Procedure[None]:
    """One shot and what follows: misfire, hit, injury, ambush (RA-AMB-*)."""
    if not shooter.fit or not target.in_battle:
        return
    shot = shot_situation(game, shooter, target, weapon, how)
    yield Emit(
        game.told(
            shooter,
            "apocalypse.game.shoots",
            unit=game.name(shooter.id),
            target=game.name(target.id),
            weapon=game.name(f"weapon:{weapon.id}"),
        ),
        ("RA-ABSENT-04", "RA-ABSENT-14"),
    )
    outcome: ShotOutcome = yield Call(shoot, (shot,))
    if outcome.misfire is not Misfire.NONE:
        shooter.jammed.append(weapon.id)
    if outcome.hit:
        yield from harm(game, target, 1, by=shooter)
    was_hidden = shooter.sight is Sight.HIDDEN
    if was_hidden:
        verdict = stays_unnoticed_possible(
            not target.in_battle or target.condition is Condition.OUT_OF_ACTION,
            weapon.ranged is WeaponKind.BOW,
        )
        if verdict.allowed:
            seen_by = [
                e.mobility
                for e in game.friends(target)
                if e.fit and game.sees(e, shooter) and game.sees(e, target)
            ]
            revealed = yield Call(witnesses, (tuple(seen_by),))
            if revealed:
                shooter.sight = Sight.FOUND
                yield from revealed_note(game, shooter, ("RA-AMB-02", "RA-HIDE-03"))
        else:
            shooter.sight = Sight.SEEN
            yield from revealed_note(game, shooter, verdict.rules)
        if game.edition is Edition.ACTIVATION and ambush_panic_applies(game.edition):
            yield from squad_panic(game, target)


def revealed_note(game: ApocalypseGame, w: Warrior, rules: tuple[str, ...]) -> Procedure[None]:
    """Narrate that a hidden warrior has been seen."""
    yield emit("apocalypse.game.revealed", rules=rules, unit=game.name(w.id))


def squad_panic(game: ApocalypseGame, target: Warrior) -> Procedure[None]:
    """Activation edition: the squad shot at from ambush tests for panic (RA-AMB-03)."""
    from kubik.rulesets.apocalypse.battle import psyche
    from kubik.rulesets.apocalypse.psychology import panic_test

    squad = [w for w in game.side_warriors(target.side) if w.squad == target.squad and w.fit]
    if not squad:
        return
    spirit = max(w.spirit for w in squad)
    holds = yield Call(panic_test, (spirit,))
    if not holds:
        for w in squad:
            yield from psyche.start_fleeing(game, w, None)


def harm(
    game: ApocalypseGame, w: Warrior, hits: int, by: Warrior | None, save: int | None = None
) -> Procedure[Harm]:
    """Hits on ``w``: saves and injuries (RA-CC-16), then what they do to him; a guard
    who is hurt leaves guard (RA-GUARD-03)."""
    needed = save_needed(w.armour, w.shield) if save is None else save
    knocked = w.condition is not Condition.STANDING
    result: Harm = yield Call(take_hits, (Hits(hits, needed, w.current_toughness, knocked),))
    w.wounds += result.wounds
    if w.watch is Watch.ON_GUARD and (result.wounds or result.injury is not Injury.STANDING):
        w.watch = Watch.NONE
        yield emit("apocalypse.game.guard_ends", rules=("RA-GUARD-03",), unit=game.name(w.id))
    yield from apply_injury(game, w, result.injury, by)
    return result


def apply_injury(
    game: ApocalypseGame, w: Warrior, injury: Injury, by: Warrior | None
) -> Procedure[None]:
    """Set his condition after an injury roll (RA-ABSENT-06)."""
    from kubik.rulesets.apocalypse.battle import songs

    if injury is Injury.OUT_OF_ACTION:
        game.take_out(w, Condition.OUT_OF_ACTION, by)
        yield emit("apocalypse.game.out", rules=("RA-ABSENT-06",), unit=game.name(w.id))
        yield from songs.singer_gone(game, w)
    elif injury is Injury.KNOCKED_DOWN and w.condition is Condition.STANDING:
        w.condition = Condition.KNOCKED_DOWN
        w.frenzied = False  # a knocked-down frenzied warrior is frenzied no more (RA-PSY-10)
    elif injury is Injury.STUNNED:
        w.condition = Condition.STUNNED
        w.frenzied = False
    if injury is not Injury.STANDING and w.sight is not Sight.SEEN:
        w.sight = Sight.SEEN


# -- out of turn: detection at the end of a move -------------------------------------


def detection(game: ApocalypseGame, moment: Moment) -> Procedure[None]:
    """After a move, hidden warriors may be found (RA-HIDE-05..07)."""
    mover = game.warrior(moment.unit)
    if not mover.in_battle:
        return
    if game.edition is Edition.TURN:
        # a moving enemy notices a hidden model within half his Подвижность (RA-HIDE-07)
        for hidden in game.enemies(mover):
            if (
                hidden.sight is Sight.HIDDEN
                and mover.fit
                and auto_detected(game.gap(mover, hidden), mover.mobility, game.edition)
            ):
                hidden.sight = Sight.FOUND
                yield from revealed_note(game, hidden, ("RA-HIDE-07", "RA-HIDE-06"))
        return
    # activation edition: the opponent of the hiders rolls d6 + the Подвижность of his
    # warrior nearest to them; within that warrior's Подвижность they are found anyway
    sides = {mover.side} | {e.side for e in game.enemies(mover)}
    for side in sorted(sides):
        for hidden in [w for w in game.side_warriors(side) if w.sight is Sight.HIDDEN]:
            if not hidden.in_battle:
                continue
            seekers = [e for e in game.enemies(hidden) if e.fit]
            nearest = game.nearest(hidden, seekers)
            if nearest is None:
                continue
            moved_near = nearest is mover or hidden is mover
            if not moved_near and math.dist(mover.base.centre, hidden.base.centre) > 12:
                continue
            distance = game.gap(nearest, hidden)
            if auto_detected(distance, nearest.mobility, game.edition):
                found = True
                rules: tuple[str, ...] = ("RA-HIDE-06",)
            else:
                found = yield Call(
                    detection_roll, (nearest.mobility, math.ceil(distance), nearest.side)
                )
                rules = ("RA-HIDE-05",)
            if found:
                hidden.sight = Sight.FOUND
                yield from revealed_note(game, hidden, rules)


def morale_steady(w: Warrior) -> bool:
    """Whether he holds his nerve."""
    return w.morale is Morale.STEADY


__all__ = [
    "AIMED",
    "Aim",
    "Firing",
    "detection",
    "fire",
    "harm",
    "resolve",
    "shooting_menu",
    "spirit_test",
]
