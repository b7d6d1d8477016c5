"""The Close-combat phase: fights formed from base contact, Time for Whuppin' first,
then the fights in the order the posse with advantage picks (OW-CC-01/02/08).

Models in base contact form fights (OW-ABSENT-03 default:
:func:`~kubik.rulesets.old_west.absent.divide_into_fights`); a group with several
models on both sides is split so that each fight has a single model on one side
(the model with most enemies in contact takes them all, and so on). Each fight is
one round of the rule :func:`~kubik.rulesets.old_west.combat.combat`, on the
situation measured here: a loser who cannot back off 1" is trapped (OW-CC-09), a
fight across a fence needs 4+ to reach (OW-CC-14). The outcome is applied: wounds
(with Fortune), the losers back off 1", prone winners stand up. A trapped loser who
survives stays in contact and fights again next turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kubik.engine import Procedure, emit
from kubik.rulesets.old_west.absent import divide_into_fights
from kubik.rulesets.old_west.battle import places
from kubik.rulesets.old_west.battle.heroes import declare
from kubik.rulesets.old_west.battle.judge import combat_model
from kubik.rulesets.old_west.battle.movement import move_model, msg_phase
from kubik.rulesets.old_west.battle.state import Battle, Figure
from kubik.rulesets.old_west.combat import CombatOutcome, Model, combat
from kubik.rulesets.old_west.core import Side
from kubik.rulesets.old_west.heroics import (
    HeroicAction,
    Phase,
    PhaseLedger,
    fight_order,
    whuppin_move_again,
)
from kubik.table import in_base_contact, obstacles_crossed

if TYPE_CHECKING:
    from kubik.rulesets.old_west.battle.game import OldWestGame


@dataclass(frozen=True, slots=True)
class Fight:
    """One fight: the models of the first posse (``a``) and of the second (``b``)."""

    a: tuple[str, ...]
    b: tuple[str, ...]

    @property
    def id(self) -> str:
        """A readable id: ``wyatt vs ike+billy``."""
        return f"{'+'.join(self.a)} vs {'+'.join(self.b)}"

    @property
    def models(self) -> tuple[str, ...]:
        """Every model in it."""
        return (*self.a, *self.b)


def form_fights(battle: Battle) -> tuple[Fight, ...]:
    """The fights of the phase from the models in base contact (OW-ABSENT-03 default)."""
    first, second = battle.sides
    contacts = frozenset(
        (a.id, b.id)
        for a in battle.active(first)
        for b in battle.active(second)
        if in_base_contact(a.base, b.base)
    )
    order = {f.id: i for i, f in enumerate(battle.figures)}
    fights: list[Fight] = []
    for group in divide_into_fights(contacts):
        if not group.needs_split:
            fights.append(Fight(_sorted(group.a, order), _sorted(group.b, order)))
            continue
        fights.extend(_split(group.a, group.b, contacts, order))
    return tuple(sorted(fights, key=lambda f: min(order[m] for m in f.models)))


def _sorted(ids: frozenset[str] | set[str], order: dict[str, int]) -> tuple[str, ...]:
    return tuple(sorted(ids, key=lambda m: order[m]))


def _split(
    a: frozenset[str],
    b: frozenset[str],
    contacts: frozenset[tuple[str, str]],
    order: dict[str, int],
) -> list[Fight]:
    """Split a many-against-many group so every fight has a single model on one side:
    the model with the fewest free enemies in contact takes them all (so models pair
    off where they can); a model left with no free enemy joins a fight where an enemy
    it touches stands alone, else it sits this round out."""
    free = set(a) | set(b)
    fights: list[tuple[str, set[str], bool]] = []  # (single model, opponents, single is on a)

    def enemies_of(model: str) -> set[str]:
        if model in a:
            return {y for x, y in contacts if x == model}
        return {x for x, y in contacts if y == model}

    while True:
        ready = [m for m in free if enemies_of(m) & free]
        if not ready:
            break
        model = min(ready, key=lambda m: (len(enemies_of(m) & free), order[m]))
        foes = enemies_of(model) & free
        free -= foes | {model}
        fights.append((model, foes, model in a))
    for model in sorted(free, key=lambda m: order[m]):
        for single, opponents, single_on_a in fights:
            if single in enemies_of(model) and single_on_a != (model in a):
                opponents.add(model)
                break
    out: list[Fight] = []
    for single, opponents, on_a in fights:
        many = _sorted(opponents, order)
        out.append(Fight((single,), many) if on_a else Fight(many, (single,)))
    return out


def situation(game: OldWestGame, fight: Fight) -> tuple[tuple[Model, ...], tuple[Model, ...]]:
    """The rule's models for a fight: trapped if it cannot back off (OW-CC-09), across an
    obstacle if a fence lies between it and its opponent (OW-CC-14)."""
    battle = game.battle
    side_a = [battle.figure(m) for m in fight.a]
    side_b = [battle.figure(m) for m in fight.b]

    def model(figure: Figure, opponents: list[Figure], single: bool) -> Model:
        trapped = places.back_off_spot(battle, figure, opponents) is None
        across = not single and any(
            obstacles_crossed(battle.table, [figure.base.centre, o.base.centre]) for o in opponents
        )
        base = combat_model(figure)
        return Model(
            base.fight,
            base.attacks,
            base.strength,
            base.toughness,
            base.wounds,
            fame=base.fame,
            prone=figure.prone,
            trapped=trapped,
            across_obstacle=across,
        )

    single_a = len(side_a) == 1 and len(side_b) > 1
    single_b = len(side_b) == 1 and len(side_a) > 1
    a = tuple(model(f, side_b, single_a) for f in side_a)
    b = tuple(model(f, side_a, single_b) for f in side_b)
    return a, b


def resolve(game: OldWestGame, fight: Fight) -> Procedure[CombatOutcome]:
    """One round of one fight: the rule, then its outcome applied to the models."""
    battle = game.battle
    a, b = situation(game, fight)
    names_a = tuple(battle.figure(m).name for m in fight.a)
    names_b = tuple(battle.figure(m).name for m in fight.b)
    yield emit("old_west.game.fight", a=names_a, b=names_b)
    outcome: CombatOutcome = yield game.call(combat, (a, b, game.advantage))
    figures = tuple(battle.figure(m) for m in fight.models)
    for side in game.sides:
        yield from game.pay_fame(side, figures)
    winners = fight.a if outcome.winner is Side.A else fight.b
    losers = fight.b if outcome.winner is Side.A else fight.a
    for model_id, wounds in zip(losers, outcome.wounds, strict=True):
        yield from game.wound(battle.figure(model_id), wounds)
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
    fights = form_fights(game.battle)
    if not fights:
        return
    yield msg_phase(Phase.CLOSE_COMBAT.value)
    ledger = PhaseLedger(Phase.CLOSE_COMBAT)
    heroes, ledger = yield from declare(game, HeroicAction.WHUPPIN, ledger)
    fought: set[str] = set()
    for hero in heroes:
        mine = next((f for f in form_fights(game.battle) if hero.id in f.models), None)
        if mine is None or hero.id in fought:
            continue
        yield emit("old_west.game.whuppin", model=hero.name)
        fought.update(mine.models)
        yield from resolve(game, mine)
        foes = mine.b if hero.side == game.sides[0] else mine.a
        left = sum(1 for m in foes if game.battle.figure(m).in_action)
        if not hero.in_action or not whuppin_move_again(left):
            continue
        friends = mine.a if hero.side == game.sides[0] else mine.b
        ledger, allowed = ledger.benefit(hero.id, frozenset(friends))
        for model_id in friends:
            if model_id in allowed:
                yield from move_model(game, game.battle.figure(model_id))
    remaining = tuple(f for f in form_fights(game.battle) if any(m not in fought for m in f.models))
    if not remaining:
        return
    by_id = {f.id: f for f in remaining}
    order = yield game.call(fight_order, (tuple(by_id), game.advantage, ()))
    for fight_id in order.order:
        fight = by_id[fight_id]
        if not all(game.battle.figure(m).in_action for m in fight.models):
            fight = _survivors(game.battle, fight)
            if not fight.a or not fight.b:
                continue
        yield from resolve(game, fight)


def _survivors(battle: Battle, fight: Fight) -> Fight:
    return Fight(
        tuple(m for m in fight.a if battle.figure(m).in_action),
        tuple(m for m in fight.b if battle.figure(m).in_action),
    )


__all__ = ["Fight", "close_combat_phase", "form_fights", "resolve", "situation"]
