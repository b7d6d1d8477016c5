"""Wounds outside the rules' own rounds: a shot's wound, a fall, a mount killed under its
rider, and a model put out of action (OW-CC-12, OW-ABSENT-04/06/07).

A close-combat round applies its own outcome (:mod:`.melee`); everything else that
hurts a model comes here: a Hero's Fortune may save each wound first (OW-ABSENT-07
default), then the model loses Wounds and, with its last, is out of action — off the
table, out of every fight, its loot dropped.
"""

from __future__ import annotations

from kubik.engine import Call, Procedure, emit
from kubik.rulesets.old_west.absent import fall_from_horse, fortune
from kubik.rulesets.old_west.battle.figures import Figure, Stance
from kubik.rulesets.old_west.battle.names import mount_key
from kubik.rulesets.old_west.battle.objective import drop_loot
from kubik.rulesets.old_west.battle.state import OldWestState
from kubik.rulesets.old_west.core import Status
from kubik.rulesets.old_west.wounds import out_of_action


def wound(game: OldWestState, figure: Figure, wounds: int) -> Procedure[None]:
    """``figure`` suffers ``wounds`` wounds (outside a fight): a Hero's Fortune may save
    some first (OW-ABSENT-07 default), then :func:`take_wounds`."""
    if wounds <= 0 or not figure.in_action:
        return
    wounds = min(wounds, figure.wounds_left)
    if figure.fortune > 0:
        saved = yield Call(fortune, (wounds, figure.fortune, figure.side, game.name(figure.id)))
        yield from game.pay_fortune(figure, saved.fortune_spent)
        wounds = saved.wounds
    yield from take_wounds(game, figure, wounds)


def wound_mount(game: OldWestState, figure: Figure, wounds: int) -> Procedure[None]:
    """``figure``'s mount suffers ``wounds`` wounds (a shot at a rider that hit the
    horse, OW-ABSENT-04); once killed the rider falls (OW-ABSENT-06 default)."""
    mount = figure.mount
    if mount is None or wounds <= 0:
        return
    figure.mount_wounds += wounds
    name = game.name(mount_key(mount.id))
    if not out_of_action(figure.mount_wounds, mount.wounds):
        yield emit(
            "old_west.game.mount_wounded",
            rules=("OW-ABSENT-04",),
            model=game.name(figure.id),
            mount=name,
        )
        return
    figure.dismount()
    yield emit(
        "old_west.game.mount_killed",
        rules=("OW-ABSENT-04", "OW-ABSENT-06"),
        model=game.name(figure.id),
        mount=name,
    )
    fall = yield Call(fall_from_horse, (figure.profile.toughness, figure.side))
    if fall.prone:
        figure.stance = Stance.PRONE
        yield emit("old_west.game.thrown", rules=("OW-ABSENT-06",), model=game.name(figure.id))
    if fall.wounded:
        yield from wound(game, figure, 1)


def take_wounds(game: OldWestState, figure: Figure, wounds: int) -> Procedure[None]:
    """``figure`` loses ``wounds`` Wounds (Fortune already spent); out of action once
    every Wound is lost (OW-CC-12): off the table, out of every fight."""
    wounds = min(wounds, figure.wounds_left)
    if wounds <= 0 or not figure.in_action:
        return
    figure.wounds_taken += wounds
    if out_of_action(figure.wounds_taken, figure.profile.wounds):
        figure.status = Status.OUT_OF_ACTION
        figure.stance = Stance.STANDING
        game.contacts.release(figure.id)
        yield emit("old_west.game.out_of_action", rules=("OW-CC-12",), model=game.name(figure.id))
        yield from drop_loot(game, figure)
    else:
        yield emit(
            "old_west.game.wounded",
            rules=("OW-CC-12",) if figure.profile.wounds > 1 else (),
            model=game.name(figure.id),
            wounds=wounds,
            left=figure.wounds_left,
        )


def credit(game: OldWestState, killer: Figure, victim: Figure) -> None:
    """Credit ``killer`` with ``victim`` if his shot or strikes put an enemy out of action,
    also by the fall from a horse his shot killed (``kubik sim``'s kills per unit; a
    friend hit in the way is no kill)."""
    if victim.status is Status.OUT_OF_ACTION and killer.side != victim.side:
        game.credit_kill(killer.id)


__all__ = ["credit", "take_wounds", "wound", "wound_mount"]
