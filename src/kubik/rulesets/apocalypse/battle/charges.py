"""A charge (RA-ABSENT-08): who may charge whom (the movement rule's verdict), what the
bout he starts would be, and the charge itself — the fear tests (RA-PSY-07), the
enemy's guards firing on the way (RA-GUARD-02/04), base contact and the fight it
starts (RA-CC-01), a fleeing target running off (RA-PSY-06).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from kubik.engine import Call, Procedure, Verdict, emit
from kubik.game.battle import Moment, Trigger
from kubik.rulesets.apocalypse.battle import fights, moving
from kubik.rulesets.apocalypse.battle.nerve import run_away, spirit_of
from kubik.rulesets.apocalypse.battle.state import ApocalypseState
from kubik.rulesets.apocalypse.battle.warriors import Morale, Sight, Warrior, Watch
from kubik.rulesets.apocalypse.melee import Fighter
from kubik.rulesets.apocalypse.movement import Charger, charge_allowance, may_charge
from kubik.rulesets.apocalypse.psychology import (
    Fright,
    Stupor,
    fear_test,
    fright,
    ignores_psychology,
)


def charge_verdict(
    game: ApocalypseState,
    w: Warrior,
    target: Warrior,
    reach: float,
    in_combat: bool,
    height: float,
) -> Verdict:
    """May ``w`` charge ``target``? (``in_combat`` and ``height``: his own, the same for
    every target of one menu.)"""
    scared = fright(target.fright, w.fright)
    if ignores_psychology(w.frenzied, True):
        scared = Fright.NONE
    charger = Charger(
        target_hidden=target.sight is Sight.HIDDEN,
        level=abs(height - game.height(target)) < 1.0,
        reach=reach,
        distance=game.board.gap(w, target),
        in_combat=in_combat,
        fleeing=w.morale is Morale.FLEEING,
        stupid=w.stupor is not Stupor.SENSIBLE,
        target_fright=scared,
        guarding=w.watch is Watch.ON_GUARD,
    )
    return _may_charge(charger)


#: The movement rule's answer for one charge, remembered by all it reads: the same few
#: situations come back at every activation.
_may_charge = lru_cache(maxsize=1024)(may_charge)


def as_charger(game: ApocalypseState, w: Warrior, target: Warrior) -> Fighter:
    """The charger as the melee rule will see him after the charge."""
    base = fights.fighter(game, w, target, w.side)
    return replace(
        base,
        charging=True,
        over_obstacle=game.board.cover(w, target).value != "none",
    )


def charge(game: ApocalypseState, w: Warrior, target: Warrior) -> Procedure[None]:
    """A charge: fear tests (RA-PSY-07), guard fire on the way (RA-GUARD-02/04), into
    contact."""
    came_out = w.sight is Sight.HIDDEN
    if came_out:
        w.sight = Sight.SEEN
        # a charger cannot stay hidden (RA-HIDE-04; 000's «атаковать» reveals, RA-HIDE-03)
        yield emit(
            "apocalypse.game.revealed", rules=("RA-HIDE-03", "RA-HIDE-04"), unit=game.name(w.id)
        )
    scared = fright(target.fright, w.fright)
    if target.fright is not Fright.NONE and scared is not target.fright:
        yield emit(
            "apocalypse.game.immune" if scared is Fright.NONE else "apocalypse.game.only_fear",
            rules=("RA-PSY-09",),
            unit=game.name(w.id),
            fright=target.fright,
        )
    if scared is not Fright.NONE and not ignores_psychology(w.frenzied, True):
        brave = yield Call(fear_test, (spirit_of(game, w),))
        if not brave:
            w.turn.moved = True  # a failed charge: he stays where he is (RA-PSY-07 b)
            return
    yield emit(
        "apocalypse.game.charges",
        rules=("RA-ABSENT-08",),
        unit=game.name(w.id),
        target=game.name(target.id),
    )
    yield from game.interrupts.fire(
        Moment(Trigger.CHARGE_DECLARED, w.side, w.id, target.id, facts=(("charge", True),))
    )
    if not w.fit or not target.in_battle:
        return
    feared = fright(w.fright, target.fright)
    if feared is not Fright.NONE and target.fit and not ignores_psychology(target.frenzied, True):
        brave = yield Call(fear_test, (spirit_of(game, target),))
        if not brave:
            target.turn.afraid_of = w.id
    w.turn.over_obstacle = game.board.cover(w, target).value != "none"
    reach = charge_allowance(w.mobility) + 0.5
    walked = game.walk(w, game.contact_point(w, target), reach, target=target)
    w.turn.moved = True
    w.turn.charged = True
    if walked is None:
        return
    arrived = yield from moving.travel(
        game, w, walked.path, walked.end, target=target, came_out=came_out
    )
    if not arrived or not target.in_battle:
        return
    if game.board.gap(w, target) > 0.05:
        yield emit("apocalypse.game.charge_short", rules=("RA-ABSENT-08",), unit=game.name(w.id))
        return
    game.contacts.engage(w.id, target.id, ("RA-ABSENT-08", "RA-CC-01"))
    if w.turn.over_obstacle:
        yield emit("apocalypse.game.over_obstacle", rules=("RA-CC-10",), unit=game.name(w.id))
    if target.morale is Morale.FLEEING and target.fit:
        # a fleeing warrior charged runs d6 paces and avoids the blows (RA-PSY-06)
        yield from run_away(game, target, w.base.centre)
        return
    if target.watch is Watch.ON_GUARD:
        target.watch = Watch.NONE
        yield emit("apocalypse.game.guard_ends", rules=("RA-GUARD-03",), unit=game.name(target.id))


__all__ = ["as_charger", "charge", "charge_verdict"]
