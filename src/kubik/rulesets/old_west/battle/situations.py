"""The rules' situations for a model, as the battle state and the table give them.

The rule modules answer every question of legality on small plain situations
(:class:`~kubik.rulesets.old_west.movement.Mover`,
:class:`~kubik.rulesets.old_west.shooting.Shooter`,
:class:`~kubik.rulesets.old_west.heroics.HeroNow`); this module fills them in from a
model's state, so the phases ask the rules and never decide themselves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kubik.engine import Verdict
from kubik.rulesets.old_west.battle.state import Figure
from kubik.rulesets.old_west.division import in_a_fight
from kubik.rulesets.old_west.heroics import HeroicAction, HeroNow
from kubik.rulesets.old_west.movement import Mover, may_move
from kubik.rulesets.old_west.shooting import Shooter, may_shoot

if TYPE_CHECKING:
    from kubik.rulesets.old_west.battle.game import OldWestGame


def mover(game: OldWestGame, figure: Figure, moved: bool = False) -> Mover:
    """The model about to move (``moved``: it already moved this phase)."""
    return Mover(
        figure.status,
        mounted=figure.mounted,
        engaged=game.battle.engaged(figure),
        prone=figure.prone,
        moved=moved,
        scared=figure.scared,
    )


def shooter(game: OldWestGame, figure: Figure, shot: bool = False) -> Shooter:
    """The model about to shoot (``shot``: it already shot this phase)."""
    return Shooter(
        tuple(w.id for w in figure.weapons),
        figure.status,
        engaged=game.battle.engaged(figure),
        pinned=figure.pinned,
        scared=figure.scared,
        shot=shot,
    )


def hero_now(figure: Figure, declared: bool = False) -> HeroNow:
    """The model at the start of a phase, for declaring a heroic action."""
    return HeroNow(figure.fame, figure.hero, figure.status, declared)


def able(game: OldWestGame, figure: Figure, action: HeroicAction, acted: bool = False) -> Verdict:
    """Whether the model can do what ``action`` is for: move (Yee Haw!), shoot (Quickdraw)
    or fight (Time for Whuppin')."""
    if action is HeroicAction.YEE_HAW:
        return may_move(mover(game, figure, acted))
    if action is HeroicAction.QUICKDRAW:
        return may_shoot(shooter(game, figure, acted))
    return in_a_fight(game.battle.engaged(figure))


__all__ = ["able", "hero_now", "mover", "shooter"]
