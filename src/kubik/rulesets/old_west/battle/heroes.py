"""Declaring heroic actions at the start of a phase (OW-HERO-06/07) and who follows (08/09).

Each Hero the rule lets declare (:func:`~kubik.rulesets.old_west.heroics.may_declare`)
is asked, the posse with advantage first; the Fame is paid on declaring. When both
posses declare, the rule's d6 decides who acts first and the posses alternate
(:func:`~kubik.rulesets.old_west.heroics.heroic_sequence`). Each declaration carries
a forecast a bot can weigh honestly: the rule the action brings forward (his best
shot, his best charge, his fight) on the situation it would meet, weighted by how much
acting first is worth to a posse without advantage — or with it, against a rival
Hero — less the Fame it costs (tastes in data).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from kubik.engine import AnyForecast, Forecast, Procedure, Verdict, emit, msg
from kubik.game.battle import LazyForecast, Menu
from kubik.rulesets.old_west.battle.figures import Figure
from kubik.rulesets.old_west.battle.judge import weight
from kubik.rulesets.old_west.battle.options import Heroic
from kubik.rulesets.old_west.battle.situations import able, hero_now
from kubik.rulesets.old_west.battle.state import OldWestState
from kubik.rulesets.old_west.fame import spend
from kubik.rulesets.old_west.heroics import (
    HeroicAction,
    PhaseLedger,
    heroic_sequence,
    may_benefit,
    may_carry_out,
    may_declare,
)

#: What a heroic action brings forward, as its phase foresees it: the forecast of the
#: Hero's best act now (his shot, his charge, his fight), ``share`` of it weighed and
#: ``score`` added (``None``: he could do nothing).
Best = Callable[[OldWestState, Figure, float, float], AnyForecast | None]


def can_declare(
    game: OldWestState, hero: Figure, action: HeroicAction, declared: bool = False
) -> Verdict:
    """The rule's answer: may the Hero declare ``action`` now (Fame to pay, once a phase,
    and something to do)? Whether he could do it is worked out only if the rule asks."""
    return may_declare(
        hero_now(hero, declared), action, action.phase, partial(able, game, hero, action)
    )


def declare(
    game: OldWestState, action: HeroicAction, ledger: PhaseLedger, best: Best
) -> Procedure[tuple[tuple[Figure, ...], PhaseLedger]]:
    """Ask every Hero who can whether he takes ``action`` (``best``: what it would bring
    forward, for the bots); returns the Heroes in acting order and the phase ledger with
    their declarations."""
    if not game.settings.heroic_actions:
        return (), ledger
    declared: dict[str, list[Figure]] = {side: [] for side in game.sides}
    for side in game.side_order:
        behind = side != game.advantage_side
        share = weight("act_first" if behind else "contest_first")
        for hero in game.active(side):
            verdict = can_declare(game, hero, action, ledger.is_declared(hero.id))
            if not verdict.allowed:
                continue
            name = game.name(hero.id)
            menu: Menu[Heroic] = Menu()
            no, yes = Heroic(hero.id, action, False), Heroic(hero.id, action, True)
            menu.offer(
                no,
                msg("old_west.game.option.heroic_decline", model=name, action=action),
                Verdict.neutral(),
                Forecast(score=0.0),
            )
            menu.offer(
                yes,
                msg("old_west.game.option.heroic_declare", model=name, action=action),
                verdict,
                LazyForecast(partial(worth, game, hero, action, share, best)),
            )
            answer = yield from game.choose(
                menu,
                side,
                msg("old_west.game.heroic.ask", model=name, action=action, fame=hero.fame),
                default=no,
                rules=verdict.rules,
            )
            if not answer.declare:
                continue
            ledger = ledger.declare(hero.id, action, hero.fame)
            hero.fame = spend(hero.fame, action.cost)
            declared[side].append(hero)
            yield emit(
                "old_west.game.heroic.declared",
                rules=("OW-HERO-01", "OW-HERO-02", *verdict.rules),
                model=name,
                action=action,
                left=hero.fame,
            )
    a, b = game.sides
    if not declared[a] and not declared[b]:
        return (), ledger
    order = yield game.call(heroic_sequence, (len(declared[a]), len(declared[b]), game.advantage))
    queue = {side: list(heroes) for side, heroes in declared.items()}
    return tuple(queue[game.side_id(s)].pop(0) for s in order.sides), ledger


def worth(
    game: OldWestState, hero: Figure, action: HeroicAction, share: float, best: Best
) -> AnyForecast:
    """What declaring ``action`` is worth to the Hero's posse: ``share`` of the rule it
    brings forward (``best``: his best shot or charge — or, for Time for Whuppin', moving
    again when his fight wipes out his opponents), less the Fame it costs."""
    cost = -weight("fame_point") * action.cost
    found = best(game, hero, share, cost)
    return found if found is not None else Forecast(score=cost)


def hero_followers(game: OldWestState, hero: Figure, ledger: PhaseLedger) -> frozenset[str]:
    """Friends the rules let act with the Hero's Yee Haw! or Quickdraw: within 6" of him
    before he acts, not yet acted this phase, and able to move or shoot (OW-HERO-08/09/11).
    A Hero who declared his own action acts under it instead (each model benefits once)."""
    action = ledger.action
    return frozenset(
        f.id
        for f in game.active(hero.side)
        if f.id != hero.id
        and not ledger.is_declared(f.id)
        and able(game, f, action, f.id in ledger.acted).allowed
        and may_benefit(ledger.beneficiary(f.id, game.board.gap(hero, f)), action).allowed
    )


def heroic_lost(
    game: OldWestState, hero: Figure, action: HeroicAction, verdict: Verdict
) -> Procedure[None]:
    """The log line for a paid-for heroic action that cannot be carried out, and why."""
    yield emit(
        "old_west.game.heroic_lost",
        rules=verdict.rules,
        model=game.name(hero.id),
        action=action,
        why=verdict.reason
        if verdict.reason is not None
        else msg("old_west.permission.heroic_idle"),
    )


def carried_out(
    game: OldWestState, hero: Figure, action: HeroicAction, ledger: PhaseLedger
) -> Procedure[Verdict | None]:
    """Whether the Hero's declared Yee Haw! or Quickdraw can be carried out now (the
    rule's :func:`~kubik.rulesets.old_west.heroics.may_carry_out`): its verdict, or
    None once the log says why it cannot (:func:`heroic_lost`)."""
    verdict = may_carry_out(
        action, ledger.beneficiary(hero.id), able(game, hero, action, hero.id in ledger.acted)
    )
    if verdict.allowed:
        return verdict
    yield from heroic_lost(game, hero, action, verdict)
    return None


__all__ = [
    "Best",
    "can_declare",
    "carried_out",
    "declare",
    "hero_followers",
    "heroic_lost",
    "worth",
]
