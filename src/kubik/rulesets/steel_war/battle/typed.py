"""At a real table (``kubik play --table``): people move the models and measure.

A move then ends where the players put the squad. The program proposes the place it
worked out; the referee may type where the squad's centre stands or how far and which
way it went, in the layer's one grammar (:mod:`kubik.game.battle.at_table`:
``12.5, 30``, ``6 n``, ``4,5 северо-восток``, ``5 @135``), with a formation word
after it when the squad was put in one (``6 n line``, ``12, 20 колонна``: a line
across the way it went, a column along it, or its block); then move single models
(``3 2 e``: model 3 two inches east; ``5 14.2, 9.8``: model 5 to that place) until
every model stands where it does on the table, and press Enter. Every typed place is
checked by the board (on the table, out of impassable ground, clear of every other
model: the contact rule) and by the same rules a bot's move is: each model within the
move's allowance through the terrain for this kind of unit (SW-MOVE-01..03, a combat
move's roll), the squad in coherency (SW-ABSENT-09), and where its morale lets it go
(SW-MOR-01, SW-SUP-01) — refused with the reason otherwise. What the rules take from
the table — a distance, a target's cover, a line of sight — is shown as the program
measured it, and the players confirm it or give what they measured (the layer's
``confirm_*``). Typed answers are marked in the log and kept in saves. Off the table
(bots, a virtual table) nothing is asked.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence

from kubik.engine import Choose, Entry, EntryError, Message, Procedure, emit, msg
from kubik.game.battle import (
    confirm_inches,
    confirm_one_of,
    confirm_yes_no,
    read_position,
)
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.coherency import coherency_breaches
from kubik.rulesets.steel_war.fire import Cover
from kubik.rulesets.steel_war.morale_levels import Order
from kubik.rulesets.steel_war.movement import (
    TerrainClass,
    march_allowed,
    march_distance,
    may_move,
    move_distance,
)
from kubik.rulesets.steel_war.situation import needed_tests
from kubik.table import Base
from kubik.table import Cover as TableCover
from kubik.table.geometry import Point
from kubik.table.tape import Tape, Way

from . import moves
from .field import Battlefield
from .formation import FORMATIONS, edge_point, formation_points
from .options import ModelSpot, Move, MoveHow, MoveKind, Option, Placed, PlacedMove, Spot
from .state import Squad


def where_ended(
    game: Battlefield,
    squad: Squad,
    option: Move,
    proposed: Point,
    rolled: float,
    rules: tuple[str, ...],
) -> Procedure[Spot]:
    """Where the squad's move ended: at a real table the players say (the proposed place,
    or a typed one — with a formation, if they put it in one — that the board and the
    rules accept); elsewhere the proposed place. ``rolled``: a combat move's roll."""
    offered = Spot(*proposed)
    if not game.at_table:
        return offered
    start = squad.centre

    def read(text: str) -> Hashable:
        words = text.split()
        formation = ""
        if len(words) > 1 and words[-1].casefold() in FORMATIONS:
            formation, text = FORMATIONS[words[-1].casefold()], " ".join(words[:-1])
        spot = read_position(text, start)
        if not formation and not game.board.on_ground(squad, spot):
            raise EntryError(msg("game.entry.off_ground", x=spot[0], y=spot[1]))
        problem = check_place(game, squad, option, spot, rolled, formation)
        if problem is not None:
            raise EntryError(problem)
        return Spot(spot[0], spot[1], formation, typed=True)

    picked = yield Choose(
        (offered,),
        squad.side,
        msg("steel_war.game.entry.where", squad=game.name(squad.id), x=proposed[0], y=proposed[1]),
        default=offered,
        labels=(offered.label(game.name),),
        rules=rules,
        entry=Entry(msg("steel_war.game.entry.where_hint"), read, _spot_label(game)),
    )
    assert isinstance(picked, Spot)
    return picked


def move_entry(
    game: Battlefield,
    squad: Squad,
    offered: Sequence[Option],
    done: tuple[ActionType, ...],
    *,
    passed: bool = False,
) -> Entry | None:
    """How a person playing the squad's side types where it goes at the action prompt
    (``16, 5``, ``6 ne``, ``4,5 северо-восток``: the layer's grammar), in any game: a move
    when its allowance reaches the place along the board's way, else a march — each only
    when the menu ``offered`` that kind of move (the activation's limits, SW-CORE-04,
    and the morale rules let it move so) — checked as a typed place at a real table is
    (:func:`check_place`: the terrain's pace, SW-MOVE-01..03; where its morale lets it
    go, SW-MOR-01, SW-SUP-01; the contact rule). ``None`` when the menu offers no move
    or march. ``done``, ``passed``: the activation so far, as the menu read it."""
    hows = tuple(
        how
        for how in (MoveHow.MOVE, MoveHow.MARCH)
        if any(isinstance(o, Move) and o.how is how for o in offered)
    )
    if not hows:
        return None
    start = squad.centre

    def read(text: str) -> Hashable:
        spot = read_position(text, start)
        if not game.board.on_ground(squad, spot):
            raise EntryError(msg("game.entry.off_ground", x=spot[0], y=spot[1]))
        refused: Message | None = None  # (the farthest kind of move's first reason)
        for how in hows:
            said: Message | None = None
            for kind in _kinds_of(game, squad, spot):
                option = Move(kind, how, spot[0], spot[1], 0.0)
                problem = check_place(game, squad, option, spot, 0.0)
                if problem is None:
                    return _placed_move(game, squad, option, spot, done, passed)
                said = said or problem
            refused = said
        assert refused is not None
        raise EntryError(refused)

    def label(value: Hashable) -> Message:
        assert isinstance(value, PlacedMove)
        return value.label(game.name)

    return Entry(msg("game.entry.position_hint"), read, label)


def _kinds_of(game: Battlefield, squad: Squad, spot: Point) -> tuple[MoveKind, ...]:
    """How the morale rules may read a move to ``spot`` (SW-MOR-01: a squad that may only
    fall back may go toward its own table edge or into cover): toward the enemy always,
    into cover when ``spot`` stands in cover, back when it is nearer the own edge."""
    kinds = [MoveKind.ADVANCE]
    if game.tape.standing(spot) is not TableCover.NONE:
        kinds.append(MoveKind.COVER)
    edge = squad.edge
    here = math.dist(squad.centre, edge_point(game.table, edge, squad.centre))
    if math.dist(spot, edge_point(game.table, edge, spot)) < here - TOLERANCE:
        kinds.append(MoveKind.RETREAT)
    return tuple(kinds)


def _placed_move(
    game: Battlefield,
    squad: Squad,
    option: Move,
    spot: Point,
    done: tuple[ActionType, ...],
    passed: bool,
) -> PlacedMove:
    """The typed move the rules accepted, with the reaction tests the movement rule asks
    first (SW-REACT-02: leaving cover, moving while gone to ground)."""
    way = game.board.way(squad, spot) or (squad.centre, spot)
    cls, _ = pace_of(game, squad, option, tuple(way), 0.0)
    order = moves.order_for(game, squad, (spot,), option.kind, option.how)
    verdict = may_move(game.situation(squad, done, passed=passed), order, cls)
    length = round(Way(tuple(way), 0.0).length, 1)
    return PlacedMove(option.kind, option.how, spot[0], spot[1], length, needed_tests(verdict))


def _spot_label(game: Battlefield) -> Callable[[Hashable], Message]:
    def label(spot: Hashable) -> Message:
        assert isinstance(spot, Spot | ModelSpot)
        return spot.label(game.name)

    return label


#: How far off people may place what they measured (inches): a tenth, the grid's step.
TOLERANCE = 0.1


def allowance_of(
    game: Battlefield, squad: Squad, option: Move, cls: TerrainClass, rolled: float
) -> float:
    """How far this move takes the squad through terrain of class ``cls`` (SW-MOVE-01..03),
    or what its dice rolled (a combat move, SW-ABSENT-02)."""
    speed = game.speed(squad)
    if option.how is MoveHow.MARCH:
        return float(march_distance(speed, [cls])) if march_allowed([cls]) else 0.0
    if option.how is MoveHow.COMBAT:
        return rolled
    return float(move_distance(speed, [cls]))


def pace_of(
    game: Battlefield, squad: Squad, option: Move, points: tuple[Point, ...], rolled: float
) -> tuple[TerrainClass, float]:
    """The terrain class that governs a move along ``points`` and how far along them it
    may go, as the movement rule paces a bot's move (SW-MOVE-01..03: stop short of harder
    ground at full pace, or go into it at its pace; a combat move as far as it rolled)."""
    if option.how is MoveHow.COMBAT:
        return moves.terrain_class(game, squad, points), rolled
    found = moves.farthest(game, squad, points, option.how, game.speed(squad))
    if found is None:
        return TerrainClass.IMPASSABLE, 0.0
    return found


def check_place(
    game: Battlefield,
    squad: Squad,
    option: Move,
    spot: Point,
    rolled: float,
    formation: str = "",
) -> Message | None:
    """Whether the rules accept a typed place as this move's end (the reason when they
    do not): a way there no longer than the move may go along it through its terrain for
    this kind of unit (SW-MOVE-01..03, a combat move's roll), where the squad may go
    (SW-MOR-01, SW-SUP-01) and clear of every other model (the contact rule, the
    board's); in a ``formation``, every model within the allowance of where it stood, on
    the table and clear, and the squad in coherency (SW-ABSENT-09)."""
    board = game.board
    points = board.way(squad, spot)
    if points is None:
        return msg("steel_war.game.entry.no_way", x=spot[0], y=spot[1])
    cls, reach = pace_of(game, squad, option, points, rolled)
    allowance = allowance_of(game, squad, option, cls, rolled)
    if not formation:
        length = Way(points, 0.0).length
        if length > reach + TOLERANCE + 1e-9:
            return msg("steel_war.game.entry.too_far", inches=round(length, 1), allowance=allowance)
        order = moves.order_for(game, squad, (spot,), option.kind, option.how)
        problem = _morale(game, squad, order, cls)
        if problem is not None:
            return problem
        if board.settle(squad, points) != (round(spot[0], 1), round(spot[1], 1)):
            return msg("steel_war.game.entry.contact", x=spot[0], y=spot[1])
        return None
    places = formed(squad, formation, spot)
    starts = {m.id: m.point for m in squad.active()}
    return _placed_problem(game, squad, option, places, starts, allowance, cls)


def formed(squad: Squad, formation: str, centre: Point) -> dict[str, Point]:
    """Where each fighting model of the squad stands in ``formation`` around ``centre``,
    its commander in the middle of a line or a column (so every man keeps within reach
    of him, SW-ABSENT-09); a line across the way it went, a column along it."""
    living = squad.active()
    heading = (centre[0] - squad.centre[0], centre[1] - squad.centre[1])
    if formation != "block":
        boss = [m for m in living if m.id == squad.commander]
        rest = [m for m in living if m.id != squad.commander]
        half = (len(living) - 1) // 2
        living = [*rest[:half], *boss, *rest[half:]]
    spots = formation_points(formation, centre, len(living), heading if any(heading) else (0, 1))
    return {m.id: spot for m, spot in zip(living, spots, strict=True)}


def _placed_problem(
    game: Battlefield,
    squad: Squad,
    option: Move,
    places: Mapping[str, Point],
    starts: Mapping[str, Point],
    allowance: float,
    cls: TerrainClass,
) -> Message | None:
    """What is wrong with the squad's models standing at ``places`` (model id → centre)
    at the end of this move, if anything: each within ``allowance`` of where it stood
    when the move began (``starts``), every base fitting (the board: on the table, out of impassable
    ground, clear of every other model and of each other), the squad in coherency, and
    where its morale lets it go."""
    models = {m.id: m for m in squad.models}
    for model_id, place in places.items():
        start = starts.get(model_id, models[model_id].point)
        if math.dist(start, place) > allowance + TOLERANCE + 1e-9:
            return msg(
                "steel_war.game.entry.model_too_far",
                model=game.name(model_id),
                inches=round(math.dist(start, place), 1),
                allowance=allowance,
            )
    bases = [Base(x, y, models[i].diameter, i) for i, (x, y) in places.items()]
    for index, base in enumerate(bases):
        if not game.board.bases_fit(squad, [base], with_own=bases[:index] + bases[index + 1 :]):
            return msg(
                "steel_war.game.entry.model_contact",
                model=game.name(base.id),
                x=base.x,
                y=base.y,
            )
    if _breaches(squad, bases):
        return msg("steel_war.game.entry.coherency", squad=game.name(squad.id))
    order = moves.order_placed(game, squad, bases, option.kind, option.how)
    return _morale(game, squad, order, cls)


def _breaches(squad: Squad, bases: list[Base]) -> tuple[int, ...]:
    """The models out of coherency standing on ``bases`` (SW-ABSENT-09), as measured."""
    if len(bases) < 2 or squad.is_vehicle:
        return ()
    boss = next((b for b in bases if b.id == squad.commander), bases[0])
    near = [Tape.closest([b], [*bases[:i], *bases[i + 1 :]]) for i, b in enumerate(bases)]
    to_boss = [0.0 if b is boss else Tape.closest([b], [boss]) for b in bases]
    return coherency_breaches(near, to_boss)


def _morale(game: Battlefield, squad: Squad, order: Order, cls: TerrainClass) -> Message | None:
    """The movement rule's word on where the squad ends (the reaction tests it needed
    were taken already): SW-MOR-01, SW-SUP-01."""
    bare = Order(
        order.action,
        approaches_enemy=order.approaches_enemy,
        away_from_enemy=order.away_from_enemy,
        toward_own_edge=order.toward_own_edge,
        toward_cover=order.toward_cover,
        leaves_cover=False,
    )
    verdict = may_move(game.situation(squad), bare, cls)
    return verdict.reason if not verdict.allowed else None


def place_models(
    game: Battlefield,
    squad: Squad,
    option: Move,
    starts: Mapping[str, Point],
    allowance: float,
    cls: TerrainClass,
    rules: tuple[str, ...],
) -> Procedure[None]:
    """At a real table, after the squad's place: the players move single models
    (``N PLACE``: model N to a place, or a distance and direction from where it stands)
    until every one stands where it does on the table; each place is checked as the
    squad's was (its allowance from where the model stood, the contact rule, coherency,
    morale; ``starts``: where each model stood when the move began). Elsewhere nothing
    is asked."""
    if not game.at_table or squad.is_vehicle or len(squad.active()) < 2:
        return
    done = Placed()
    while True:
        picked = yield Choose(
            (done,),
            squad.side,
            msg("steel_war.game.entry.models", squad=game.name(squad.id)),
            default=done,
            labels=(done.label(game.name),),
            rules=rules,
            entry=Entry(
                msg("steel_war.game.entry.models_hint"),
                lambda text: _read_model(game, squad, option, starts, allowance, cls, text),
                _spot_label(game),
            ),
        )
        if not isinstance(picked, ModelSpot):
            return
        model = squad.model(picked.model)
        model.x, model.y = picked.x, picked.y
        yield emit(
            "steel_war.game.model_placed",
            rules=rules,
            model=game.name(model.id),
            x=picked.x,
            y=picked.y,
        )


def _read_model(
    game: Battlefield,
    squad: Squad,
    option: Move,
    starts: Mapping[str, Point],
    allowance: float,
    cls: TerrainClass,
    text: str,
) -> Hashable:
    """``N PLACE`` typed: model N of the squad (as its name numbers it) to a place."""
    number, _, rest = text.strip().partition(" ")
    living = {m.id: m for m in squad.active()}
    if not number.isdigit() or not 1 <= int(number) <= len(squad.models):
        raise EntryError(
            msg("steel_war.game.entry.model_number", text=text.strip(), most=len(squad.models))
        )
    model = squad.models[int(number) - 1]
    if model.id not in living:
        raise EntryError(msg("steel_war.game.entry.model_down", model=game.name(model.id)))
    spot = read_position(rest, model.point)
    places = {i: (m.x, m.y) for i, m in living.items()}
    places[model.id] = spot
    problem = _placed_problem(game, squad, option, places, starts, allowance, cls)
    if problem is not None:
        raise EntryError(problem)
    return ModelSpot(model.id, spot[0], spot[1])


def measured_distance(
    game: Battlefield, side: str, what: Message, value: float, rules: tuple[str, ...]
) -> Procedure[float]:
    """A distance the rules take: as measured, or as the players measured it."""
    if not game.at_table:
        return value
    return (yield from confirm_inches(side, what, value, rules))


def measured_cover(
    game: Battlefield, side: str, what: Message, value: Cover, rules: tuple[str, ...]
) -> Procedure[Cover]:
    """A target's cover as measured, or as the players judge it (SW-FIRE-08)."""
    if not game.at_table:
        return value
    picked = yield from confirm_one_of(side, what, value, tuple(Cover), _cover_shown, rules)
    assert isinstance(picked, Cover)
    return picked


def _cover_shown(cover: Hashable) -> Message:
    """How a cover reads (none, light, hard)."""
    assert isinstance(cover, Cover)
    return msg(cover.msgid)


def measured_sight(
    game: Battlefield, side: str, what: Message, value: bool, rules: tuple[str, ...]
) -> Procedure[bool]:
    """A line of sight as measured, or as the players see it at the table."""
    if not game.at_table:
        return value
    return (yield from confirm_yes_no(side, what, value, rules))


__all__ = [
    "TOLERANCE",
    "allowance_of",
    "check_place",
    "formed",
    "measured_cover",
    "measured_distance",
    "measured_sight",
    "pace_of",
    "place_models",
    "where_ended",
]
