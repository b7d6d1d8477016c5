"""A charge (RA-ABSENT-08): who may charge whom (the movement rule's verdict), what the
bout he starts would be, and the charge itself — the fear tests (RA-PSY-07), the
enemy's guards firing on the way (RA-GUARD-02/04), base contact and the fight it
starts (RA-CC-01), a fleeing target running off (RA-PSY-06).
"""

from __future__ import annotations

import math
from dataclasses import replace

from kubik.engine import AnyForecast, Call, Forecast, Procedure, Verdict, emit
from kubik.engine.applied import deciding_cache
from kubik.game.battle import Moment, Trigger, Walk
from kubik.rulesets.apocalypse.battle import fights, moving
from kubik.rulesets.apocalypse.battle.nerve import run_away, spirit_of
from kubik.rulesets.apocalypse.battle.state import ApocalypseState
from kubik.rulesets.apocalypse.battle.warriors import Morale, Sight, Warrior, Watch
from kubik.rulesets.apocalypse.melee import Fighter, MeleeOutcome, melee
from kubik.rulesets.apocalypse.movement import Charger, charge_allowance, may_charge
from kubik.rulesets.apocalypse.psychology import (
    Fright,
    Stupor,
    fear_test,
    fright,
    ignores_psychology,
)


def charge_way(game: ApocalypseState, w: Warrior, target: Warrior) -> Walk | None:
    """The cheapest way ``w`` walks into base contact with ``target`` within his charge
    allowance (the board's walked way round terrain and models), or ``None``. A way is
    never shorter than the gap, so a target farther than the allowance is not walked."""
    allowance = charge_allowance(w.mobility)
    if game.board.gap(w, target) > allowance:
        return None
    return game.board.charge_way(w, target, allowance, approach=True)


def charge_verdict(
    game: ApocalypseState,
    w: Warrior,
    target: Warrior,
    in_combat: bool,
    height: float,
) -> tuple[Verdict, Walk | None]:
    """May ``w`` charge ``target``, and by which way? The movement rule's verdict on the
    paces his walked way into contact costs (RA-ABSENT-08: a charge reaches only by a
    way he can walk). ``in_combat`` and ``height``: his own, the same for every target
    of one menu."""
    scared = fright(target.fright, w.fright)
    if ignores_psychology(w.frenzied, True):
        scared = Fright.NONE
    hidden = target.sight is Sight.HIDDEN
    level = abs(height - game.height(target)) < 1.0
    fleeing, stupid = w.morale is Morale.FLEEING, w.stupor is not Stupor.SENSIBLE
    guarding = w.watch is Watch.ON_GUARD
    # the way is measured only for a charge nothing else forbids
    able = level and not (hidden or in_combat or fleeing or stupid or guarding)
    way = charge_way(game, w, target) if able else None
    charger = Charger(
        target_hidden=hidden,
        level=level,
        reach=charge_allowance(w.mobility),
        distance=math.inf if way is None else round(way.cost, 1),
        in_combat=in_combat,
        fleeing=fleeing,
        stupid=stupid,
        target_fright=scared,
        guarding=guarding,
    )
    return _may_charge(charger), way


#: The movement rule's answer for one charge, remembered by all it reads: the same few
#: situations come back at every activation.
_may_charge = deciding_cache(1024)(may_charge)


def fear_tests(game: ApocalypseState, w: Warrior, target: Warrior) -> tuple[int | None, int | None]:
    """The Spirit each side of a charge tests fear on (``None``: no test): the charger
    wanting to charge a fear-causer (RA-PSY-07 b), the target charged by one (RA-PSY-07
    a); fear-causers and the frenzied in reach take none (RA-PSY-09, RA-PSY-10)."""
    own = target_test = None
    if fright(target.fright, w.fright) is not Fright.NONE and not ignores_psychology(
        w.frenzied, True
    ):
        own = spirit_of(game, w)
    if (
        fright(w.fright, target.fright) is not Fright.NONE
        and target.fit
        and not ignores_psychology(target.frenzied, True)
    ):
        target_test = spirit_of(game, target)
    return own, target_test


def charge_bout(
    own_test: int | None,
    target_test: int | None,
    charger: Fighter,
    target: Fighter,
    sides: tuple[str, str],
) -> Procedure[MeleeOutcome | None]:
    """What a charge that reaches comes to (a charge's forecast): the charger's fear test
    (RA-PSY-07 b: failed, no charge), the target's (RA-PSY-07 a: failed, his attack die
    halved this round), then the bout (RA-CC-04). ``None``: no fight."""
    if own_test is not None and not (yield Call(fear_test, (own_test,))):
        return None
    if target_test is not None and not (yield Call(fear_test, (target_test,))):
        target = replace(target, afraid=True)
    outcome: MeleeOutcome = yield Call(melee, (charger, target, sides))
    return outcome


def charge_worth(outcome: MeleeOutcome | None) -> float:
    """What a charge's outcome is worth to the charger (bot tastes): its bout's worth,
    nothing when he did not dare."""
    return 0.0 if outcome is None else fights.bout_worth(outcome)


def charge_forecast(game: ApocalypseState, w: Warrior, target: Warrior) -> AnyForecast:
    """The odds of charging ``target`` (offered only where the way reaches him)."""
    own, theirs = fear_tests(game, w, target)
    charger = as_charger(game, w, target)
    defender = fights.fighter(game, target, w, w.side)
    args = (own, theirs, charger, defender, (w.side, target.side))
    named = (("a", game.name(w.id)), ("b", game.name(target.id)))
    return Forecast(charge_bout, args, value=charge_worth, sides=named)


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
    way = charge_way(game, w, target)
    if way is None:  # (the menu offers only charges whose way reaches)
        return
    own_test, _ = fear_tests(game, w, target)
    if own_test is not None:
        yield emit(
            "apocalypse.game.fear_to_charge",
            rules=("RA-PSY-07",),
            unit=game.name(w.id),
            target=game.name(target.id),
        )
        brave = yield Call(fear_test, (own_test,))
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
    # declared and measured: his way reaches, so a fear-causer's target tests now
    _, target_test = fear_tests(game, w, target)
    if target_test is not None:
        yield emit(
            "apocalypse.game.fear_of_charger",
            rules=("RA-PSY-07",),
            unit=game.name(target.id),
            charger=game.name(w.id),
        )
        brave = yield Call(fear_test, (target_test,))
        if not brave:
            target.turn.afraid_of = w.id
    w.turn.over_obstacle = game.board.cover(w, target).value != "none"
    w.turn.moved = True
    w.turn.charged = True
    arrived = yield from moving.travel(game, w, way.path, way.end, target=target, came_out=came_out)
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
        yield emit(
            game.post_msg("game.post_ends"), rules=("RA-GUARD-03",), unit=game.name(target.id)
        )


__all__ = [
    "as_charger",
    "charge",
    "charge_bout",
    "charge_forecast",
    "charge_verdict",
    "charge_way",
    "charge_worth",
    "fear_tests",
]
