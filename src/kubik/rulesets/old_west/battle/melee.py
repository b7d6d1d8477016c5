"""The Close-combat phase: fights divided, Time for Whuppin' first, then the fights in
the order the posse with advantage picks (OW-CC-01/02/08, OW-HERO-10/11).

The models charges brought together are divided into fights, every model in exactly
one (:mod:`.fights`). Each fight is one round of the rule
:func:`~kubik.rulesets.old_west.combat.combat` on the situation measured here: a loser
who cannot back off 1" is trapped (OW-CC-09), one at a cliff edge falls (OW-CC-09,
OW-ABSENT-05), a fight across a fence needs 4+ to reach (OW-CC-14). The round's
outcome is applied exactly: Fame and Fortune spent, wounds, mounts killed, riders
thrown, prone winners standing up; every loser ends out of contact — backing off 1",
over the edge, or, trapped, squeezing out while the others make way — so the fight
is over and no fight is fought again without a new charge.

A Hero's Time for Whuppin' resolves his fight first; if it wipes out his opponents he
and his friends of that fight move again (and may charge into other fights), and the
fights left are divided again among the models the rules still let fight
(:func:`~kubik.rulesets.old_west.division.may_fight`). A paid-for Whuppin' that cannot
be carried out is logged with the reason.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from kubik.engine import AnyForecast, Forecast, Procedure, Verdict, emit, msg
from kubik.game.battle import clear_of
from kubik.rulesets.old_west.backing_off import BackOff, Loser, back_off
from kubik.rulesets.old_west.battle.backing import (
    WayBack,
    lawful_step_back,
    lawful_way_out,
    make_way,
    room_for,
    way_back,
)
from kubik.rulesets.old_west.battle.fights import contacts_of, divide, fight_label, order_of
from kubik.rulesets.old_west.battle.figures import Figure, Stance
from kubik.rulesets.old_west.battle.harm import credit, take_wounds
from kubik.rulesets.old_west.battle.heroes import declare, heroic_lost
from kubik.rulesets.old_west.battle.judge import WhuppinValue, combat_model, weight
from kubik.rulesets.old_west.battle.moves import move_model
from kubik.rulesets.old_west.battle.names import mount_key
from kubik.rulesets.old_west.battle.phases import new_phase, phase_heading
from kubik.rulesets.old_west.battle.situations import fighting
from kubik.rulesets.old_west.battle.state import OldWestState
from kubik.rulesets.old_west.battle.table import placed
from kubik.rulesets.old_west.combat import CombatOutcome, Model, combat
from kubik.rulesets.old_west.core import Side
from kubik.rulesets.old_west.division import Fight, fight_shape, in_a_fight, may_fight, next_fight
from kubik.rulesets.old_west.division import divide as default_division
from kubik.rulesets.old_west.heroics import (
    HeroicAction,
    Phase,
    PhaseLedger,
    may_whup,
    whuppin_moves,
)
from kubik.rulesets.old_west.movement import may_place
from kubik.table import Point


def fight_situation(
    game: OldWestState, fight: Fight
) -> tuple[tuple[Model, ...], tuple[Model, ...], dict[str, WayBack]]:
    """The rule's models for a fight, and each model's way back should it lose: trapped if
    it has none (OW-CC-09), at a cliff edge if the only way is over it, across an
    obstacle if a fence lies between it and its opponent (OW-CC-14)."""
    side_a = [game.figure(m) for m in fight.a]
    side_b = [game.figure(m) for m in fight.b]
    ways: dict[str, WayBack] = {}

    def model(figure: Figure, opponents: list[Figure], single: bool) -> Model:
        back = way_back(game, figure, opponents)
        ways[figure.id] = back
        across = not single and any(
            game.tape.crossed((figure.base.centre, o.base.centre)) for o in opponents
        )
        return replace(
            combat_model(figure),
            trapped=not back.room,
            cliff_drop=back.cliff_drop,
            across_obstacle=across,
            fortune=figure.fortune,
            name=game.name(figure.id),
        )

    single_a = len(side_a) == 1 and len(side_b) > 1
    single_b = len(side_b) == 1 and len(side_a) > 1
    a = tuple(model(f, side_b, single_a) for f in side_a)
    b = tuple(model(f, side_a, single_b) for f in side_b)
    return a, b, ways


def resolve(game: OldWestState, fight: Fight) -> Procedure[CombatOutcome]:
    """One round of one fight: the rule, then exactly its outcome applied to the models."""
    a, b, ways = fight_situation(game, fight)
    shape = fight_shape(len(fight.a), len(fight.b))
    yield emit(
        "old_west.game.fight",
        rules=("OW-CC-01", *shape.rules),
        a=game.names(fight.a),
        b=game.names(fight.b),
    )
    outcome: CombatOutcome = yield game.call(combat, (a, b, game.advantage))
    for side, ids in ((Side.A, fight.a), (Side.B, fight.b)):
        for index, model_id in enumerate(ids):
            yield from game.pay_fame(
                game.figure(model_id), outcome.fame(side, index), ("OW-HERO-05",)
            )
    won, lost = (fight.a, fight.b) if outcome.winner is Side.A else (fight.b, fight.a)
    losers = a if outcome.winner is Side.B else b
    for index, model_id in enumerate(won):
        if outcome.stood_up(index):
            game.figure(model_id).stance = Stance.STANDING
    for index, model_id in enumerate(lost):
        figure = game.figure(model_id)
        yield from game.pay_fortune(figure, outcome.fortune_spent(index))
        if outcome.mount_killed(index):
            mount = figure.dismount()
            if mount is not None:
                yield emit(
                    "old_west.game.mount_killed",
                    rules=("OW-CC-16", "OW-ABSENT-06"),
                    model=game.name(figure.id),
                    mount=game.name(mount_key(mount.id)),
                )
        if outcome.on_the_ground(index):
            figure.stance = Stance.PRONE
            if outcome.mount_killed(index) or not losers[index].cliff_drop:
                yield emit(
                    "old_west.game.thrown", rules=("OW-ABSENT-06",), model=game.name(figure.id)
                )
        standing = figure.in_action
        yield from take_wounds(game, figure, outcome.wounds[index])
        killer = outcome.killer(index)
        if standing and killer is not None:
            credit(game, game.figure(won[killer]), figure)
    winners = [game.figure(w) for w in won if game.figure(w).in_action]
    for index, model_id in enumerate(lost):
        figure = game.figure(model_id)
        if figure.in_action:
            move = back_off(
                Loser(not losers[index].trapped, figure.prone, losers[index].cliff_drop)
            )
            yield from part(game, figure, winners, move, ways[model_id])
    return outcome


def part(
    game: OldWestState,
    loser: Figure,
    winners: list[Figure],
    move: BackOff,
    back: WayBack,
) -> Procedure[None]:
    """The loser ends the round out of contact (OW-CC-04/09/10): 1" back; over the cliff
    edge; or, trapped, out of contact anyway, the others shuffling aside. At a real table
    people put the models where they end, checked by the rules."""
    name = game.name(loser.id)
    board = game.board
    if move is BackOff.FALLS and back.below is not None:
        below = yield from placed(
            game,
            loser,
            back.below,
            msg("old_west.game.place.falls", model=name),
            partial(_landing, game, loser),
            ("OW-CC-09", "OW-ABSENT-05"),
        )
        loser.base = loser.base.moved_to(below)
        game.contacts.release(loser.id)
        yield emit(
            "old_west.game.falls",
            rules=("OW-CC-09", "OW-ABSENT-05"),
            model=name,
            height=back.cliff_drop,
            prone=loser.prone,
            x=below[0],
            y=below[1],
        )
        return
    if back.spot is not None and not board.fits(loser, back.spot):
        back = way_back(game, loser, winners)  # another loser backed off there first
    prone = ("OW-CC-10",) if loser.prone else ()
    if back.spot is not None:
        spot = yield from placed(
            game,
            loser,
            back.spot,
            msg("old_west.game.place.back_off", model=name),
            partial(lawful_step_back, game, loser, winners),
            ("OW-CC-04",),
        )
        loser.base = loser.base.moved_to(spot)
        game.contacts.release(loser.id)
        yield emit(
            "old_west.game.backs_off",
            rules=("OW-CC-04", *prone),
            model=name,
            x=spot[0],
            y=spot[1],
        )
        return
    found = make_way(game, loser, winners)
    if found is None:
        yield emit("old_west.game.stays_trapped", rules=("OW-CC-09",), model=name)
        return
    spot = found.spot
    if game.at_table:
        spot = yield from placed(
            game,
            loser,
            spot,
            msg("old_west.game.place.way_out", model=name),
            partial(lawful_way_out, game, loser, winners),
            ("OW-CC-09",),
        )
    shuffles = found.shuffles if spot == found.spot else room_for(game, loser, winners, spot)
    assert shuffles is not None  # the check asked it
    loser.base = loser.base.moved_to(spot)
    game.contacts.release(loser.id)
    yield emit(
        "old_west.game.squeezes_out_past" if shuffles else "old_west.game.squeezes_out",
        rules=("OW-CC-09", *prone),
        model=name,
        others=game.names(tuple(o.id for o, _ in shuffles)),
        x=spot[0],
        y=spot[1],
    )
    moving = [other for other, _ in shuffles]
    for other, aside in shuffles:
        moving.remove(other)
        aside = yield from placed(
            game,
            other,
            aside,
            msg("old_west.game.place.make_way", model=game.name(other.id), loser=name),
            partial(_aside, game, other, tuple(moving)),
            ("OW-CC-09",),
        )
        other.base = other.base.moved_to(aside)
        yield emit(
            "old_west.game.makes_way",
            rules=("OW-CC-09",),
            model=game.name(other.id),
            x=aside[0],
            y=aside[1],
        )


def _landing(game: OldWestState, loser: Figure, spot: Point) -> Verdict:
    """The rule's word on where a loser over a cliff edge lands (people may put him)."""
    board = game.board
    return may_place(board.fits(loser, spot), board.on_obstacle(loser, spot))


def _aside(game: OldWestState, model: Figure, still: tuple[Figure, ...], spot: Point) -> Verdict:
    """The rule's word on where a model making way stands (``still``: models in the way
    that have not moved yet, whose places it may take)."""
    board = game.board
    clear = clear_of(list(board.bases_at(model)(spot)), board.blocking(model, also=still))
    return may_place(clear and board.on_ground(model, spot), board.on_obstacle(model, spot))


def close_combat_phase(game: OldWestState) -> Procedure[None]:
    """The whole Close-combat phase."""
    new_phase(game)
    if not contacts_of(game):
        return
    yield from phase_heading(Phase.CLOSE_COMBAT)
    ledger = PhaseLedger(Phase.CLOSE_COMBAT)
    heroes, ledger = yield from declare(game, HeroicAction.WHUPPIN, ledger, _whuppin_best)
    fought: dict[str, bool] = {}
    moved: set[str] = set()

    def eligible() -> list[str]:
        return [
            f.id
            for f in game.figures
            if f.in_action
            and may_fight(fighting(f, fought.get(f.id, False), f.id in moved)).allowed
        ]

    fights = list((yield from divide(game)))
    for hero in heroes:
        mine = next((f for f in fights if hero.id in f.models), None)
        verdict = may_whup(
            ledger.beneficiary(hero.id),
            in_a_fight(mine is not None and game.board.is_engaged(hero)),
            may_fight(fighting(hero, fought.get(hero.id, False), hero.id in moved)),
            fought.get(hero.id, False),
        )
        if mine is None or not verdict.allowed:
            yield from heroic_lost(game, hero, HeroicAction.WHUPPIN, verdict)
            continue
        yield emit("old_west.game.whuppin", rules=("OW-HERO-10",), model=game.name(hero.id))
        fights.remove(mine)
        for model_id in mine.models:
            fought[model_id] = True
            moved.discard(model_id)
        yield from resolve(game, mine)
        friends, foes = (mine.a, mine.b) if hero.side == game.sides[0] else (mine.b, mine.a)
        left = sum(1 for m in foes if game.figure(m).in_action)
        moves = whuppin_moves(left)
        if not hero.in_action or not moves.allowed:
            continue
        alive = frozenset(m for m in friends if game.figure(m).in_action)
        ledger, allowed = ledger.benefit(hero.id, alive)
        yield emit(
            "old_west.game.move_again",
            rules=moves.rules,
            models=game.names(tuple(m for m in friends if m in allowed)),
        )
        if alive - allowed:
            yield emit(
                "old_west.game.benefited_already",
                rules=("OW-HERO-11",),
                models=game.names(tuple(m for m in friends if m in alive - allowed)),
            )
        for model_id in friends:
            if model_id in allowed:
                yield from move_model(game, game.figure(model_id))
                moved.add(model_id)
        fights = list((yield from divide(game, eligible())))
    while True:
        can = set(eligible())
        left_fights = tuple(f for f in fights if all(m in can for m in f.models))
        if not left_fights:
            break
        labels = tuple(
            msg("old_west.game.option.next_fight", fight=fight_label(game, f)) for f in left_fights
        )
        chosen = yield game.call(next_fight, (left_fights, game.advantage, (), labels))
        assert isinstance(chosen, Fight)
        fights.remove(chosen)
        for model_id in chosen.models:
            fought[model_id] = True
            moved.discard(model_id)
        yield from resolve(game, chosen)


def _whuppin_best(
    game: OldWestState, hero: Figure, share: float, score: float
) -> AnyForecast | None:
    """Time for Whuppin's worth as :func:`~.heroes.declare` weighs it: acting first is
    the whole of it (no ``share``)."""
    return whuppin_forecast(game, hero, score)


def whuppin_forecast(game: OldWestState, hero: Figure, score: float) -> AnyForecast | None:
    """Time for Whuppin's worth: moving again when his fight (as the rule's default split
    would make it) wipes out his opponents, by the combat rule's odds (None: no fight)."""
    fights = default_division(contacts_of(game), order_of(game))
    mine = next((f for f in fights if hero.id in f.models), None)
    if mine is None:
        return None
    a, b, _ = fight_situation(game, mine)
    a = tuple(replace(m, fame=0, fortune=0) for m in a)
    b = tuple(replace(m, fame=0, fortune=0) for m in b)
    side = game.rule_side(hero.side)
    foes = len(mine.b) if side is Side.A else len(mine.a)
    value = WhuppinValue(side, foes, weight("move_again"))
    return Forecast(combat, (a, b, game.advantage), value=value, score=score)


__all__ = ["close_combat_phase", "fight_situation", "part", "resolve", "whuppin_forecast"]
