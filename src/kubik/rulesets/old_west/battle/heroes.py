"""Declaring heroic actions at the start of a phase (OW-HERO-06/07) and who follows (08/09).

Each Hero who can pay is asked, the posse with advantage first; the Fame is paid
on declaring. When both posses declare, the rule's d6 decides who acts first and
the posses alternate (:func:`~kubik.rulesets.old_west.heroics.action_sequence`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kubik.engine import Choose, Forecast, Procedure, emit, msg
from kubik.rulesets.old_west.battle.options import Heroic
from kubik.rulesets.old_west.battle.state import Figure
from kubik.rulesets.old_west.fame import spend
from kubik.rulesets.old_west.heroics import (
    HeroicAction,
    PhaseLedger,
    action_sequence,
    followers,
    heroic_order,
)
from kubik.table import edge_distance

if TYPE_CHECKING:
    from kubik.rulesets.old_west.battle.game import OldWestGame

#: Positional worth of acting before the enemy (a bot's heuristic): with advantage a
#: posse acts first anyway, so paying Fame for it is worth less than the Fame.
ACT_FIRST = 0.35
FAME_COST = 0.2


def can_declare(game: OldWestGame, hero: Figure, action: HeroicAction) -> bool:
    """Whether the Hero could use ``action`` now (Fame to pay, and something to do)."""
    if not hero.hero or not hero.in_action or hero.fame < action.cost:
        return False
    engaged = game.battle.engaged(hero)
    if action is HeroicAction.YEE_HAW:
        return not engaged
    if action is HeroicAction.QUICKDRAW:
        return not engaged and bool(hero.weapons) and not hero.pinned
    return engaged


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
            if not can_declare(game, hero, action):
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
            )
            if answer != yes:
                continue
            ledger = ledger.declare(hero.id, action, hero.fame)
            hero.fame = spend(hero.fame, action.cost)
            declared[side].append(hero)
            yield emit(
                "old_west.game.heroic.declared", model=hero.name, action=action, left=hero.fame
            )
    a, b = game.sides
    if not declared[a] and not declared[b]:
        return (), ledger
    if declared[a] and declared[b]:
        order = yield game.call(heroic_order, (game.advantage,))
        first = order.first
    else:
        first = game.rule_side(a if declared[a] else b)
    queue = {side: list(heroes) for side, heroes in declared.items()}
    sequence = action_sequence(first, len(declared[a]), len(declared[b]))
    return tuple(queue[game.side_id(s)].pop(0) for s in sequence), ledger


def hero_followers(game: OldWestGame, hero: Figure) -> frozenset[str]:
    """Friends within 6" of the Hero before he acts, who may act with him (OW-HERO-08/09)."""
    friends = {
        f.id: edge_distance(hero.base, f.base)
        for f in game.battle.active(hero.side)
        if f.id != hero.id and not game.battle.engaged(f)
    }
    return followers(friends)


__all__ = ["can_declare", "declare", "hero_followers"]
