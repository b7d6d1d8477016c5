"""The Close-combat phase: fights formed from base contact, Time for Whuppin' first,
then the fights in the order the posse with advantage picks (OW-CC-01/02/08).

Models in base contact form fights (OW-ABSENT-03 default:
:func:`~kubik.rulesets.old_west.absent.divide_into_fights`); a group with several
models on both sides is split so that each fight has a single model on one side
(the model with most enemies in contact takes them all, and so on). Each fight is
one round of the rule :func:`~kubik.rulesets.old_west.combat.combat`, on the
situation measured here: a loser who cannot back off 1" is trapped (OW-CC-09), a
fight across a fence needs 4+ to reach (OW-CC-14). The outcome is applied: wounds
(with Fortune), the losers back off 1", prone winners stand up. Known gap (to wire
in the battle layer): a trapped loser who survives stays in contact here, though the
rule has him end out of contact, the others making way
(:attr:`~kubik.rulesets.old_west.combat.BackOff.others_make_way`, OW-CC-09).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from kubik.engine import Procedure, Verdict, emit, msg
from kubik.rulesets.old_west.battle import measure, places
from kubik.rulesets.old_west.battle.fights import (
    Fight,
    NextFight,
    contacts_of,
    divide,
    form_fights,
    next_fights,
)
from kubik.rulesets.old_west.battle.heroes import declare
from kubik.rulesets.old_west.battle.judge import combat_model
from kubik.rulesets.old_west.battle.movement import heroic_lost, move_model, msg_phase
from kubik.rulesets.old_west.battle.situations import able
from kubik.rulesets.old_west.battle.state import Battle, Figure
from kubik.rulesets.old_west.combat import CombatOutcome, Model, combat
from kubik.rulesets.old_west.core import Side
from kubik.rulesets.old_west.division import fight_shape, next_fight
from kubik.rulesets.old_west.heroics import (
    HeroicAction,
    Phase,
    PhaseLedger,
    may_carry_out,
    whuppin_moves,
)

if TYPE_CHECKING:
    from kubik.rulesets.old_west.battle.game import OldWestGame


def situation(game: OldWestGame, fight: Fight) -> tuple[tuple[Model, ...], tuple[Model, ...]]:
    """The rule's models for a fight: trapped if it cannot back off (OW-CC-09), across an
    obstacle if a fence lies between it and its opponent (OW-CC-14)."""
    battle = game.battle
    side_a = [battle.figure(m) for m in fight.a]
    side_b = [battle.figure(m) for m in fight.b]

    def model(figure: Figure, opponents: list[Figure], single: bool) -> Model:
        trapped = places.back_off_spot(battle, figure, opponents) is None
        across = not single and any(
            measure.crossed(battle.table, (figure.base.centre, o.base.centre)) for o in opponents
        )
        return replace(
            combat_model(figure),
            trapped=trapped,
            across_obstacle=across,
            fortune=figure.fortune,
            name=figure.name,
        )

    single_a = len(side_a) == 1 and len(side_b) > 1
    single_b = len(side_b) == 1 and len(side_a) > 1
    a = tuple(model(f, side_b, single_a) for f in side_a)
    b = tuple(model(f, side_a, single_b) for f in side_b)
    return a, b


def resolve(game: OldWestGame, fight: Fight) -> Procedure[CombatOutcome]:
    """One round of one fight: the rule, then exactly its outcome applied to the models:
    Fame and Fortune spent, wounds, mounts killed, riders thrown; the losers back off 1"
    and prone winners stand up."""
    battle = game.battle
    a, b = situation(game, fight)
    names_a = tuple(battle.figure(m).name for m in fight.a)
    names_b = tuple(battle.figure(m).name for m in fight.b)
    shape = fight_shape(len(fight.a), len(fight.b))
    yield emit("old_west.game.fight", rules=("OW-CC-01", *shape.rules), a=names_a, b=names_b)
    outcome: CombatOutcome = yield game.call(combat, (a, b, game.advantage))
    for side, ids in ((Side.A, fight.a), (Side.B, fight.b)):
        for index, model_id in enumerate(ids):
            yield from game.pay_fame(battle.figure(model_id), outcome.fame(side, index))
    winners = fight.a if outcome.winner is Side.A else fight.b
    losers = fight.b if outcome.winner is Side.A else fight.a
    for index, model_id in enumerate(losers):
        figure = battle.figure(model_id)
        wounds = outcome.wounds[index]
        yield from game.pay_fortune(figure, outcome.fortune_spent(index))
        if outcome.mount_killed(index):
            mount = figure.dismount()
            if mount is not None:
                yield emit("old_west.game.mount_killed", model=figure.name, mount=mount.name)
        if outcome.on_the_ground(index):
            figure.prone = True
            yield emit("old_west.game.thrown", model=figure.name)
        yield from game.take_wounds(figure, wounds)
    for model_id in winners:
        figure = battle.figure(model_id)
        figure.prone = False
    for model_id in losers:
        figure = battle.figure(model_id)
        if not figure.in_action:
            continue
        opponents = [battle.figure(w) for w in winners if battle.figure(w).in_action]
        if not opponents:
            continue
        spot = places.back_off_spot(battle, figure, opponents)
        if spot is None:
            continue
        figure.base = figure.base.moved_to(spot)
        yield emit("old_west.game.backs_off", model=figure.name)
    return outcome


def close_combat_phase(game: OldWestGame) -> Procedure[None]:
    """The whole Close-combat phase."""
    if not contacts_of(game.battle):
        return
    yield msg_phase(Phase.CLOSE_COMBAT.value)
    ledger = PhaseLedger(Phase.CLOSE_COMBAT)
    heroes, ledger = yield from declare(game, HeroicAction.WHUPPIN, ledger)
    fights = yield from divide(game)
    fought: set[str] = set()
    for hero in heroes:
        mine = next((f for f in fights if hero.id in f.models), None)
        if mine is None or hero.id in fought:
            verdict = _fought_already(hero.id in fought)
        else:
            verdict = may_carry_out(
                HeroicAction.WHUPPIN,
                ledger.beneficiary(hero.id),
                able(game, hero, HeroicAction.WHUPPIN),
            )
        if mine is None or not verdict.allowed:
            yield heroic_lost(hero, HeroicAction.WHUPPIN, verdict)
            continue
        yield emit("old_west.game.whuppin", rules=verdict.rules, model=hero.name)
        fought.update(mine.models)
        yield from resolve(game, mine)
        foes = mine.b if hero.side == game.sides[0] else mine.a
        left = sum(1 for m in foes if game.battle.figure(m).in_action)
        moves = whuppin_moves(left)
        if not hero.in_action or not moves.allowed:
            continue
        friends = mine.a if hero.side == game.sides[0] else mine.b
        ledger, allowed = ledger.benefit(hero.id, frozenset(friends))
        for model_id in friends:
            if model_id in allowed:
                yield from move_model(game, game.battle.figure(model_id))
    if fought:
        # after Time for Whuppin' the models may have moved: fights are divided again
        fights = yield from divide(game)
    remaining = tuple(f for f in fights if any(m not in fought for m in f.models))
    if not remaining:
        return
    pending = list(next_fights(game.battle, remaining))
    while pending:
        chosen = yield game.call(next_fight, (tuple(pending), game.advantage, ()))
        assert isinstance(chosen, NextFight)
        pending.remove(chosen)
        fight = chosen.fight
        if not all(game.battle.figure(m).in_action for m in fight.models):
            fight = _survivors(game.battle, fight)
            if not fight.a or not fight.b:
                continue
        yield from resolve(game, fight)


def _fought_already(fought: bool) -> Verdict:
    """Why a declared Time for Whuppin' finds no fight of its own to resolve first."""
    if fought:
        return Verdict.forbid(msg("old_west.permission.fought_already"), "OW-CC-01", "OW-HERO-10")
    return Verdict.forbid(msg("old_west.permission.no_fight"), "OW-CC-01", "OW-HERO-10")


def _survivors(battle: Battle, fight: Fight) -> Fight:
    return Fight(
        tuple(m for m in fight.a if battle.figure(m).in_action),
        tuple(m for m in fight.b if battle.figure(m).in_action),
    )


__all__ = ["Fight", "close_combat_phase", "form_fights", "resolve", "situation"]
