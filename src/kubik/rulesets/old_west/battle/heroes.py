"""Declaring heroic actions at the start of a phase (OW-HERO-06/07) and who follows (08/09).

Each Hero the rule lets declare (:func:`~kubik.rulesets.old_west.heroics.may_declare`)
is asked, the posse with advantage first; the Fame is paid on declaring. When both
posses declare, the rule's d6 decides who acts first and the posses alternate
(:func:`~kubik.rulesets.old_west.heroics.heroic_sequence`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kubik.engine import Choose, Forecast, Procedure, Verdict, emit, msg
from kubik.rulesets.old_west.battle.options import Heroic
from kubik.rulesets.old_west.battle.situations import able, hero_now
from kubik.rulesets.old_west.battle.state import Figure
from kubik.rulesets.old_west.fame import spend
from kubik.rulesets.old_west.heroics import (
    HeroicAction,
    PhaseLedger,
    heroic_sequence,
    may_benefit,
    may_declare,
)
from kubik.table import edge_distance

if TYPE_CHECKING:
    from kubik.rulesets.old_west.battle.game import OldWestGame

#: Positional worth of acting before the enemy (a bot's heuristic): with advantage a
#: posse acts first anyway, so paying Fame for it is worth less than the Fame.
ACT_FIRST = 0.35
FAME_COST = 0.2


def can_declare(
    game: OldWestGame, hero: Figure, action: HeroicAction, declared: bool = False
) -> Verdict:
    """The rule's answer: may the Hero declare ``action`` now (Fame to pay, once a phase,
    and something to do)?"""
    return may_declare(hero_now(hero, declared), action, action.phase, able(game, hero, action))


def declare(
    game: OldWestGame, action: HeroicAction, ledger: PhaseLedger
) -> Procedure[tuple[tuple[Figure, ...], PhaseLedger]]:
    """Ask every Hero who can whether he takes ``action``; returns the Heroes in acting
    order and the phase ledger with their declarations."""
    if not game.options.heroic_actions:
        return (), ledger
    declared: dict[str, list[Figure]] = {side: [] for side in game.sides}
    for side in game.side_order:
        behind = side != game.advantage_side
        for hero in game.battle.active(side):
            verdict = can_declare(game, hero, action, ledger.is_declared(hero.id))
            if not verdict.allowed:
                continue
            no = Heroic(hero.id, action, False, hero.name_en, hero.name_ru)
            yes = Heroic(hero.id, action, True, hero.name_en, hero.name_ru)
            worth = (ACT_FIRST if behind else 0.0) - FAME_COST
            answer = yield Choose(
                (no, yes),
                side,
                msg("old_west.game.heroic.ask", model=hero.name, action=action, fame=hero.fame),
                default=no,
                forecasts=(Forecast(score=0.0), Forecast(score=worth)),
                rules=verdict.rules,
            )
            if answer != yes:
                continue
            ledger = ledger.declare(hero.id, action, hero.fame)
            hero.fame = spend(hero.fame, action.cost)
            declared[side].append(hero)
            yield emit(
                "old_west.game.heroic.declared",
                rules=verdict.rules,
                model=hero.name,
                action=action,
                left=hero.fame,
            )
    a, b = game.sides
    if not declared[a] and not declared[b]:
        return (), ledger
    order = yield game.call(heroic_sequence, (len(declared[a]), len(declared[b]), game.advantage))
    queue = {side: list(heroes) for side, heroes in declared.items()}
    return tuple(queue[game.side_id(s)].pop(0) for s in order.sides), ledger


def hero_followers(game: OldWestGame, hero: Figure, ledger: PhaseLedger) -> frozenset[str]:
    """Friends the rules let act with the Hero's Yee Haw! or Quickdraw: within 6" of him
    before he acts, not yet acted this phase, and able to move or shoot (OW-HERO-08/09/11).
    A Hero who declared his own action acts under it instead (each model benefits once)."""
    action = ledger.action
    return frozenset(
        f.id
        for f in game.battle.active(hero.side)
        if f.id != hero.id
        and not ledger.is_declared(f.id)
        and able(game, f, action, f.id in ledger.acted).allowed
        and may_benefit(ledger.beneficiary(f.id, edge_distance(hero.base, f.base)), action).allowed
    )


__all__ = ["can_declare", "declare", "hero_followers"]
