"""At a real table: people move the models and measure; the rules check what they typed.

A move is typed in the battle layer's one grammar of places
(:func:`~kubik.game.battle.read_position`: where the model's centre ended, ``12.5, 30``,
or a distance and a direction, ``4 ne``, ``6 @135``) and checked as a bot's move is:
the board says whether the model fits there and how its way there goes round terrain
and models, and the movement rules judge it
(:func:`~kubik.rulesets.old_west.movement.allowance`,
:func:`~kubik.rulesets.old_west.movement.may_end_move`,
:func:`~kubik.rulesets.old_west.movement.may_charge`); a move ending in base contact
with one enemy is a charge at him. What the tape measured for a rule (a shot's
distance, line of sight and the things in the way; whether a model is behind cover)
is shown with its value as the default: people confirm it or type what they measured
(:func:`~kubik.game.battle.confirm`), and the log says when the two differ.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from kubik.engine import Entry, Message, Procedure, Verdict, emit, msg
from kubik.game.battle import (
    Menu,
    confirm_count,
    confirm_inches,
    confirm_yes_no,
    overlapping,
    touching,
)
from kubik.game.battle import move_entry as layer_move_entry
from kubik.rulesets.old_west.battle.figures import Figure
from kubik.rulesets.old_west.battle.line_of_fire import Blocker
from kubik.rulesets.old_west.battle.options import MoveKind, MoveTo
from kubik.rulesets.old_west.battle.situations import (
    charge_target,
    move_end,
    mover,
    shooter,
    shot_at,
)
from kubik.rulesets.old_west.battle.spec import Weapon
from kubik.rulesets.old_west.battle.state import OldWestState
from kubik.rulesets.old_west.movement import may_charge, may_end_move
from kubik.rulesets.old_west.shooting import may_shoot_at, most_in_the_way
from kubik.table import Point


def typed_move(
    game: OldWestState, figure: Figure, reach: float, near: Figure | None, spot: Point
) -> MoveTo | Message:
    """A move people made to ``spot`` as the rules take it, or why they refuse it: the way
    there round terrain within the model's allowance (``reach``), touching no model but
    one enemy (then it is a charge at him, which the charge rule must allow), ending where
    the movement rule lets a move end (``near``: a Yee Haw! Hero it follows), and no
    model in the way."""
    board = game.board
    way = board.way(figure, spot)
    if way is None:
        return msg("old_west.entry.impassable")
    cost = board.pace(figure)(way)
    if cost > reach + 1e-9:  # measured inside the limit, never past it
        return msg("old_west.entry.too_far", cost=round(cost, 1), allowance=round(reach, 1))
    base = figure.base.moved_to(spot)
    others = [f for f in board.units() if f.id != figure.id and board.in_battle(f)]
    if any(overlapping(base, f.base) for f in others):
        return msg("old_west.entry.overlap")
    touched = [f for f in others if touching(base, f.base)]
    enemy = touched[0] if len(touched) == 1 and touched[0].side != figure.side else None
    if touched and enemy is None:
        return msg("old_west.entry.touches")
    verdict = may_end_move(move_end(game, figure, spot, enemy is not None, near))
    if enemy is not None:
        route = round(cost, 1)
        charge = may_charge(mover(game, figure), charge_target(figure, enemy, route))
        verdict = Verdict.combine(charge, verdict)
    if not verdict.allowed:
        assert verdict.reason is not None
        return verdict.reason
    if board.settled(figure, way, target=enemy) != spot:
        return msg("old_west.entry.in_the_way")
    kind = MoveKind.CHARGE if enemy is not None else MoveKind.PLACED
    target = enemy.id if enemy is not None else ""
    return MoveTo(figure.id, kind, spot[0], spot[1], round(cost, 1), target)


def move_entry(game: OldWestState, figure: Figure, reach: float, near: Figure | None) -> Entry:
    """A move typed at the move prompt (by a person playing the side, or by people at a
    real table), checked by the board and the movement rules (:func:`typed_move`)."""

    def check(spot: Point) -> Message | None:
        found = typed_move(game, figure, reach, near, spot)
        return found if isinstance(found, Message) else None

    def make(spot: Point) -> MoveTo:
        found = typed_move(game, figure, reach, near, spot)
        assert isinstance(found, MoveTo)
        return found

    def label(value: Hashable) -> Message:
        assert isinstance(value, MoveTo)
        return value.label(game.name)

    return layer_move_entry(game.board, figure, make, check, label=label)


def placed(
    game: OldWestState,
    figure: Figure,
    spot: Point,
    ask: Message,
    check: Callable[[Point], Verdict],
    rules: tuple[str, ...],
) -> Procedure[Point]:
    """Where a model the rules move by themselves ends (a loser backing off or squeezing
    out, a model shuffling aside): ``spot``, as the program places it; at a real table,
    where people put the model, offered as the program's place or typed (``ask``) and
    checked by the rule (``check``), so the digital table stays the real one."""
    if not game.at_table:
        return spot
    menu: Menu[Point] = Menu()
    label = msg("old_west.game.option.place", model=game.name(figure.id), x=spot[0], y=spot[1])
    menu.offer(spot, label, check(spot))

    def refused(place: Point) -> Message | None:
        verdict = check(place)
        return None if verdict.allowed else verdict.reason

    def shown(value: Hashable) -> Message:
        assert isinstance(value, tuple)
        return msg("old_west.game.option.place", model=game.name(figure.id), x=value[0], y=value[1])

    entry = layer_move_entry(game.board, figure, lambda place: place, refused, label=shown)
    return (yield from game.choose(menu, figure.side, ask, default=spot, rules=rules, entry=entry))


def confirm_shot(
    game: OldWestState,
    figure: Figure,
    target: Figure,
    weapon: Weapon,
    blockers: tuple[Blocker, ...],
) -> Procedure[tuple[Blocker, ...] | None]:
    """The players confirm or correct the shot's distance, line of sight and the things in
    the way; the shot goes ahead only if the rule allows it as they measured
    (:func:`~kubik.rulesets.old_west.shooting.may_shoot_at`). Returns what is in the way
    (None: no shot)."""
    side, rules = figure.side, ("OW-ABSENT-04",)
    names = {"model": game.name(figure.id), "target": game.name(target.id)}
    measured = shot_at(game, figure, target, weapon)
    distance = yield from confirm_inches(
        side, msg("old_west.game.fact.distance", **names), measured.distance, rules
    )
    visible = yield from confirm_yes_no(
        side, msg("old_west.game.fact.sight", **names), measured.visible, rules
    )
    count = yield from confirm_count(
        side,
        msg("old_west.game.fact.in_the_way", **names),
        len(blockers),
        most_in_the_way(),
        rules,
    )
    verdict = may_shoot_at(
        shooter(game, figure), shot_at(game, figure, target, weapon, distance, visible)
    )
    if not verdict.allowed:
        yield emit(
            "old_west.game.shot_refused",
            rules=verdict.rules,
            model=game.name(figure.id),
            why=verdict.reason,
        )
        return None
    padding = tuple(Blocker("", False) for _ in range(max(0, count - len(blockers))))
    return (*blockers[:count], *padding)


def confirm_cover(game: OldWestState, target: Figure, behind: bool) -> Procedure[bool]:
    """The players confirm or correct whether a model diving for cover is behind cover."""
    fact = msg("old_west.game.fact.cover", model=game.name(target.id))
    return (yield from confirm_yes_no(target.side, fact, behind, ("OW-PLK-06",)))


__all__ = ["confirm_cover", "confirm_shot", "move_entry", "placed", "typed_move"]
