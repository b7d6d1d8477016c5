"""The rules' situations for a model, as the battle state and the table give them.

The rule modules answer every question of legality on small plain situations
(:class:`~kubik.rulesets.old_west.movement.Mover`,
:class:`~kubik.rulesets.old_west.shooting.Shooter`,
:class:`~kubik.rulesets.old_west.shooting.ShotAt`,
:class:`~kubik.rulesets.old_west.heroics.HeroNow`,
:class:`~kubik.rulesets.old_west.division.Fighting`); this module fills them in from
a model's state and the tape's measurements, so the phases ask the rules and never
decide themselves.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from kubik.engine import Verdict
from kubik.rulesets.old_west.battle.figures import Figure, Nerve
from kubik.rulesets.old_west.battle.spec import Weapon
from kubik.rulesets.old_west.battle.state import OldWestState
from kubik.rulesets.old_west.division import Fighting, in_a_fight
from kubik.rulesets.old_west.heroics import HeroicAction, HeroNow, may_quickdraw
from kubik.rulesets.old_west.movement import ChargeTarget, MoveEnd, Mover, may_move, may_stand
from kubik.rulesets.old_west.shooting import Shooter, ShotAt, may_shoot, may_shoot_at
from kubik.table import Point


def mover(game: OldWestState, figure: Figure, moved: bool = False) -> Mover:
    """The model about to move (``moved``: it already moved this phase)."""
    return Mover(
        figure.status,
        mounted=figure.mounted,
        engaged=game.board.is_engaged(figure),
        prone=figure.prone,
        charged_while_prone=figure.stance.charged_while_prone,
        moved=moved,
        scared=figure.nerve is Nerve.SCARED,
    )


def charge_target(figure: Figure, enemy: Figure, route: float | None) -> ChargeTarget:
    """An enemy as a charge at him finds him (``route``: inches of the way into contact)."""
    return ChargeTarget(
        route,
        enemy.status,
        enemy.profile.fearsome,
        enemy.id in figure.tested_fearsome,
    )


def move_end(
    game: OldWestState,
    figure: Figure,
    spot: Point,
    charge: bool,
    near: Figure | None,
    enemies: Sequence[Figure] | None = None,
) -> MoveEnd:
    """Where a move would end, as the rule takes it: how near the nearest enemy (edge to
    edge; none for a charge; ``enemies``: the model's, when the caller has them) and, for
    a Yee Haw! follower, how far from the Hero (``near``)."""
    hero_gap = None
    if near is not None:  # measured as it is: 6.02" is not within 6"
        hero_gap = game.board.gap_from(game.board.bases_at(figure)(spot), near)
    gap = 0.0 if charge else round(_enemy_gap(game, figure, spot, enemies), 2)
    return MoveEnd(gap, charge, hero_gap, game.board.on_obstacle(figure, spot))


def stands(game: OldWestState, figure: Figure) -> Callable[[Point], bool]:
    """The movement rule's word on where ``figure`` may end a move, as the board asks it:
    never on an obstacle (:func:`~kubik.rulesets.old_west.movement.may_stand`)."""
    board = game.board
    return lambda spot: may_stand(board.on_obstacle(figure, spot)).allowed


def standing(game: OldWestState) -> Callable[[Figure, Point], bool]:
    """:func:`stands` for any model (the models a trapped loser's way out moves)."""
    board = game.board
    return lambda figure, spot: may_stand(board.on_obstacle(figure, spot)).allowed


def _enemy_gap(
    game: OldWestState, figure: Figure, spot: Point, enemies: Sequence[Figure] | None
) -> float:
    """How near the model would stand to an enemy at ``spot`` (1e9 with none left)."""
    found = game.board.nearest_gap(figure, spot, enemies)
    return found if math.isfinite(found) else 1e9


def shooter(game: OldWestState, figure: Figure, shot: bool = False) -> Shooter:
    """The model about to shoot (``shot``: it already shot this phase)."""
    return Shooter(
        tuple(w.id for w in figure.weapons),
        figure.status,
        engaged=game.board.is_engaged(figure),
        pinned=figure.nerve is Nerve.PINNED,
        scared=figure.nerve is Nerve.SCARED,
        shot=shot,
    )


def shot_at(
    game: OldWestState,
    figure: Figure,
    enemy: Figure,
    weapon: Weapon,
    distance: float | None = None,
    visible: bool | None = None,
) -> ShotAt:
    """A shot with ``weapon`` at ``enemy`` as the rule takes it: measured by the tape
    unless the players measured it themselves (``distance``, ``visible``)."""
    return ShotAt(
        weapon.id,
        round(game.board.gap(figure, enemy), 1) if distance is None else distance,
        game.board.sees(figure, enemy) if visible is None else visible,
        enemy.status,
        game.board.is_engaged(enemy),
        enemy.profile.fearsome,
        enemy.id in figure.tested_fearsome,
        moved=round(figure.moved, 1),
        move=figure.move,
    )


def shots_at(
    game: OldWestState, figure: Figure, enemy: Figure, distance: float | None = None
) -> tuple[ShotAt, ...]:
    """A shot at ``enemy`` with each of the model's weapons, as the rule takes it: the
    distance (``distance``, when the caller measured it: rounded to 0.1") and the line of
    sight measured once for them all."""
    if distance is None:
        distance = round(game.board.gap(figure, enemy), 1)
    visible = game.board.sees(figure, enemy)
    return tuple(shot_at(game, figure, enemy, w, distance, visible) for w in figure.weapons)


def hero_now(figure: Figure, declared: bool = False) -> HeroNow:
    """The model at the start of a phase, for declaring a heroic action."""
    return HeroNow(figure.fame, figure.hero, figure.status, declared)


def fighting(figure: Figure, fought: bool, whuppin_move: bool) -> Fighting:
    """The model about to fight a round this phase."""
    return Fighting(fought, whuppin_move, figure.status)


def able(game: OldWestState, figure: Figure, action: HeroicAction, acted: bool = False) -> Verdict:
    """Whether the model can do what ``action`` is for: move (Yee Haw!), shoot at an enemy
    it may shoot (Quickdraw works only if the Hero shoots, OW-HERO-09) or fight (Time
    for Whuppin')."""
    if action is HeroicAction.YEE_HAW:
        return may_move(mover(game, figure, acted))
    if action is HeroicAction.WHUPPIN:
        return in_a_fight(game.board.is_engaged(figure))
    situation = shooter(game, figure, acted)
    shooting = may_shoot(situation)
    if not shooting.allowed:
        return shooting
    has_target = any(
        may_shoot_at(situation, shot).allowed
        for enemy in game.board.enemies(figure)
        for shot in shots_at(game, figure, enemy)
    )
    return may_quickdraw(shooting, has_target)


__all__ = [
    "able",
    "charge_target",
    "fighting",
    "hero_now",
    "move_end",
    "mover",
    "shooter",
    "shot_at",
    "shots_at",
    "standing",
    "stands",
]
