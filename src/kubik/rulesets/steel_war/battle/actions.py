"""One action of a unit: the menu, the choice, and carrying it out.

:func:`take_action` asks the unit's side to choose from its menu (built only from the
rules' verdicts, :mod:`.menu`) and :func:`perform` carries the choice out: each act
measures what its rule needs, takes the reaction tests the verdict asked for (in
order, SW-REACT-01/02), Calls the rule's procedure and applies the outcome.
"""

from __future__ import annotations

import math

from kubik.engine import Call, Procedure, emit, msg
from kubik.game.battle import Posture, heading_shown
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.fire import may_go_to_ground
from kubik.rulesets.steel_war.no_step_back import (
    NoStepBackOutcome,
    NoStepBackResult,
    enter_berserk,
    no_step_back_test,
)
from kubik.rulesets.steel_war.reaction import ReactionAction
from kubik.rulesets.steel_war.reorganisation import ReorganiseOutcome, reorganise
from kubik.rulesets.steel_war.unsuppressing import UnsuppressOutcome, unsuppress
from kubik.table.tape import Way

from . import assault, carry, command, effects, moves, psionics, shooting, spotting
from .field import Battlefield
from .formation import inches
from .menu import build, care, casualty_kind, stand
from .options import (
    Act,
    Charge,
    Disembark,
    Embark,
    Fire,
    Inspire,
    Kind,
    Move,
    MoveHow,
    Observe,
    Option,
    PassAction,
    PlacedMove,
    Psi,
    Unload,
)
from .state import Gone, Panic, Squad, Stance, Status
from .typed import allowance_of, formed, move_entry, pace_of, place_models, where_ended


def take_action(
    game: Battlefield, squad: Squad, done: tuple[ActionType, ...], *, passed: bool = False
) -> Procedure[tuple[Option, ActionType | None]]:
    """The unit's side picks its next action and it is carried out; returns the option
    and the action type it spent (None: none, or the activation ends)."""
    with game.unchanged():  # nothing moves while the menu is measured
        offered = build(game, squad, done, passed=passed)
    key = "steel_war.game.choose_passed" if passed else "steel_war.game.choose_action"
    option: Option = yield from game.choose(
        offered.menu,
        squad.side,
        msg(key, squad=game.name(squad.id), n=len(done) + 1),
        offered.default,
        rules=offered.rules,
        entry=move_entry(game, squad, offered.menu.options, done, passed=passed),
    )
    if option == Act(Kind.END):
        yield emit(
            "steel_war.game.ends_activation", rules=("SW-CORE-04",), squad=game.name(squad.id)
        )
        return option, None
    spent = yield from perform(game, squad, option, done)
    return option, spent


def perform(
    game: Battlefield, squad: Squad, option: Option, done: tuple[ActionType, ...]
) -> Procedure[ActionType | None]:
    """Carry out one chosen action; the action type it spent."""
    with game.rolling(squad):
        return (yield from _perform(game, squad, option, done))


def _perform(
    game: Battlefield, squad: Squad, option: Option, done: tuple[ActionType, ...]
) -> Procedure[ActionType | None]:
    if isinstance(option, Fire):
        yield from shooting.fire(game, squad, game.squad(option.target), option.weapons)
    elif isinstance(option, Move):
        yield from move(game, squad, option)
    elif isinstance(option, PlacedMove):
        yield from placed_move(game, squad, option)
    elif isinstance(option, Charge):
        return (yield from assault.assault(game, squad, option))
    elif isinstance(option, Inspire):
        yield from command.encourage(game, squad, game.squad(option.target))
    elif isinstance(option, PassAction):
        yield from pass_action(game, squad, game.squad(option.target))
    elif isinstance(option, Psi):
        yield from psionics.use_psi(game, squad, option)
    elif isinstance(option, Observe):
        yield from spotting.observation(game, squad, option)
    elif isinstance(option, Embark):
        yield from carry.embark(game, squad, option)
    elif isinstance(option, Disembark):
        yield from carry.disembark(game, option)
    elif isinstance(option, Unload):
        yield from carry.unload(game, squad, option)
    elif option.kind is Kind.GO_TO_GROUND:
        yield from go_to_ground(game, squad)
    elif option.kind is Kind.GET_UP:
        squad.posture = Posture.STANDING
        yield emit("steel_war.game.got_up", rules=("SW-FIRE-07",), squad=game.name(squad.id))
    elif option.kind is Kind.UNSUPPRESS:
        yield from rally(game, squad)
    elif option.kind is Kind.REORGANISE:
        yield from regroup(game, squad)
    elif option.kind is Kind.NO_STEP_BACK:
        yield from no_step_back(game, squad)
    return option.action


def move(game: Battlefield, squad: Squad, option: Move) -> Procedure[None]:
    """A move, march or combat move: the reaction tests first (SW-REACT-02), then the
    unit goes as far as its allowance — rolled for a combat move — and the contact rule
    let it, along the way the menu offered; at a real table where the players put it
    (in a formation, model by model), if the rules accept that."""
    if not (yield from moves.take_tests(game, squad, option.tests)):
        return
    found = moves.offered_plan(game, squad, option)
    if found is None:
        yield emit("steel_war.game.no_way", rules=("SW-MOVE-02",), squad=game.name(squad.id))
        return
    end, rolled = found.end, 0.0
    if option.how is MoveHow.COMBAT:
        roll: int = yield moves.roll_combat_move(found.terrain)
        rolled = float(roll)
        end = moves.combat_end(game, squad, found, rolled)
    start = squad.centre
    rules = moves.move_rules(option.how, found.terrain)
    placed = yield from where_ended(game, squad, option, end, rolled, rules)
    squad.marched = squad.marched or option.how is MoveHow.MARCH
    if not placed.typed:
        yield emit(
            "steel_war.game.moved",
            rules=rules,
            squad=game.name(squad.id),
            how=option.how,
            kind=option.kind,
            terrain=found.terrain,
            inches=found.moved if end == found.end else inches(math.dist(start, end)),
            x=end[0],
            y=end[1],
        )
        yield from moves.arrive(game, squad, end)
        return
    # placed at the table: told as it went, not as the menu aimed it, then model by model
    end = (placed.x, placed.y)
    way = game.board.way(squad, end) or (start, end)
    cls, _ = pace_of(game, squad, option, tuple(way), rolled)
    starts = {m.id: m.point for m in squad.active()}
    yield emit(
        "steel_war.game.moved_placed",
        rules=rules,
        squad=game.name(squad.id),
        how=option.how,
        heading=heading_shown(start, end),
        terrain=cls,
        inches=inches(Way(tuple(way), 0.0).length),
        x=end[0],
        y=end[1],
        formation=msg(f"steel_war.game.formation.{placed.formation or 'kept'}"),
    )
    if placed.formation:
        squad.stand_at(end, formed(squad, placed.formation, end))
    else:
        squad.shift(end)
    allowance = allowance_of(game, squad, option, cls, rolled)
    yield from place_models(game, squad, option, starts, allowance, cls, rules)
    yield from moves.arrive(game, squad, end)


def placed_move(game: Battlefield, squad: Squad, option: PlacedMove) -> Procedure[None]:
    """A move or march to the place a person typed at the action prompt (the rules
    accepted it when it was read): the reaction tests first (SW-REACT-02), then the
    squad goes there along the board's way, told as it went."""
    if not (yield from moves.take_tests(game, squad, option.tests)):
        return
    start, end = squad.centre, (option.x, option.y)
    way = game.board.way(squad, end) or (start, end)
    planned = Move(option.kind, option.how, option.x, option.y, option.inches)
    cls, _ = pace_of(game, squad, planned, tuple(way), 0.0)
    squad.marched = squad.marched or option.how is MoveHow.MARCH
    yield emit(
        "steel_war.game.moved_typed",
        rules=moves.move_rules(option.how, cls),
        squad=game.name(squad.id),
        how=option.how,
        heading=heading_shown(start, end),
        terrain=cls,
        inches=option.inches,
        x=end[0],
        y=end[1],
    )
    squad.shift(end)
    yield from moves.arrive(game, squad, end)


def go_to_ground(game: Battlefield, squad: Squad) -> Procedure[None]:
    """Going to ground: a reaction test, threat 2 in the open, 0 in cover (SW-FIRE-07)."""
    unit = game.situation(squad)
    test = ReactionAction.GO_TO_GROUND_OTHER if unit.in_cover else ReactionAction.GO_TO_GROUND_OPEN
    if not may_go_to_ground(unit).allowed:
        return
    if (yield from moves.react(game, squad, test)):
        squad.posture = Posture.PRONE
        yield emit("steel_war.game.prone", rules=("SW-FIRE-07",), squad=game.name(squad.id))


def rally(game: Battlefield, squad: Squad) -> Procedure[None]:
    """One unsuppress action: beat leadership to remove a marker (SW-SUP-03)."""
    outcome: UnsuppressOutcome = yield Call(
        unsuppress, (squad.die, squad.leadership, squad.markers, 1)
    )
    squad.markers = outcome.markers
    yield emit(
        "steel_war.game.markers_left",
        rules=("SW-SUP-03",),
        squad=game.name(squad.id),
        markers=squad.markers,
    )


def regroup(game: Battlefield, squad: Squad) -> Procedure[None]:
    """Reorganisation: regroup around the commander (coherency, SW-ABSENT-09) and decide
    every unverified casualty (SW-REORG-01/02) — died, stabilised, or back in the ranks —
    with the medical help at hand (a medic, a medical vehicle within 6", a field surgeon)."""
    wounded = squad.with_status(Status.UNVERIFIED)
    help_ = care(game, squad)
    outcome: ReorganiseOutcome = yield Call(reorganise, (len(wounded), help_, casualty_kind(squad)))
    fates = (
        [Status.KILLED] * outcome.died
        + [Status.STABILISED] * outcome.stabilised
        + [Status.ACTIVE] * outcome.returned
    )
    for model, status in zip(wounded, fates, strict=True):
        model.status = status
    _regroup_in_place(game, squad)
    yield emit(
        "steel_war.game.regrouped",
        rules=("SW-REORG-01", "SW-REORG-02", "SW-ABSENT-09"),
        squad=game.name(squad.id),
        died=outcome.died,
        stabilised=outcome.stabilised,
        returned=outcome.returned,
        care=help_,
    )


def _regroup_in_place(game: Battlefield, squad: Squad) -> None:
    """The squad closes up in its block around its commander, if there is room there
    (else it stays as it stands)."""
    boss = squad.anchor().centre
    saved = [(m.x, m.y) for m in squad.active()]
    centre = squad.centre
    squad.place_models(boss)
    if game.board.fits(squad, boss):
        return
    for model, (x, y) in zip(squad.active(), saved, strict=True):
        model.x, model.y = x, y
    squad.centre = centre


def no_step_back(game: Battlefield, squad: Squad) -> Procedure[None]:
    """The voluntary «Ни шагу назад!» test (SW-NSN-01..03); no action spent."""
    outcome: NoStepBackOutcome = yield Call(no_step_back_test, (stand(game, squad),))
    if outcome.result is NoStepBackResult.BERSERK:
        state = enter_berserk(squad.markers, squad.panicked)
        squad.stance = Stance.BERSERK
        squad.markers = state.markers
        if squad.panicked and not state.panicked:
            squad.panic = Panic.OVER
        yield emit("steel_war.game.berserk", rules=("SW-NSN-03",), squad=game.name(squad.id))
    elif outcome.result is NoStepBackResult.SURRENDERED:
        yield from effects.remove(game, squad, Gone.SURRENDERED, ("SW-NSN-03",))
    elif outcome.result is NoStepBackResult.SCATTERED:
        yield from effects.remove(game, squad, Gone.SCATTERED, ("SW-NSN-03",))


def pass_action(game: Battlefield, officer: Squad, squad: Squad) -> Procedure[None]:
    """The commander passes one of his actions (SW-ABSENT-01): on the radio first
    (SW-ABSENT-04); got through, the squad takes one action at once — even if it has
    acted this turn — by its own menu, asked with ``passed`` (never a whole-activation
    act, never a test it failed this turn, SW-REACT-01)."""
    if not (yield from command.get_through(game, officer, squad)):
        yield emit(
            "steel_war.game.no_contact",
            rules=("SW-ABSENT-04",),
            officer=game.name(officer.id),
            squad=game.name(squad.id),
        )
        return
    if not squad.present or squad.panicked:
        return
    yield emit(
        "steel_war.game.passed_action",
        rules=("SW-ABSENT-01",),
        officer=game.name(officer.id),
        squad=game.name(squad.id),
    )
    yield from take_action(game, squad, (), passed=True)


__all__ = ["move", "pass_action", "perform", "take_action"]
