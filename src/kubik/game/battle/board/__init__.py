"""The board: the units on the table, as every ruleset's battle asks about them.

A ruleset keeps its own units (squads, warriors, regiments, single figures) and tells
the board a few things about each by filling the hooks of :class:`Board`: which units
there are, a unit's id and side, the bases of its models that take up room, and whether
it is still in the battle. The board answers the rest once, for every ruleset:

* who is who: :meth:`Board.enemies`, :meth:`Board.friends`, :meth:`Board.engaged`;
* how far: :meth:`Board.gap` (edge to edge, the nearest two bases, on the battle's one
  tape) and :meth:`Board.nearest`;
* what it sees: :meth:`Board.sees` and :meth:`Board.covers` (from the unit's eyes —
  every model, unless the ruleset says who looks, e.g. a squad's commander);
* where it may go: :meth:`Board.walk` (a walked way round terrain, as far as the
  movement rule's allowance goes, ended where the contact rule lets it end),
  :meth:`Board.charge_way` and :meth:`Board.contact_spots` (into base contact with a
  target), :meth:`Board.back_away` (a straight step away from threats),
  :meth:`Board.make_way` (out of contact anyway, the models in the way shuffling
  aside), :meth:`Board.cover_spots` (places that give cover), :meth:`Board.fits`
  (whether a unit may stand at a place) and :meth:`Board.on_obstacle` (whether it
  would stand on a fence or in a trough, which moves cross and never end on).

The board decides no rule: how far a unit may go, what a difficult way costs and
whether a place is allowed are the ruleset's movement rule's, passed in as numbers or
as the rule's own functions (``pace``, ``allowed``). What it measures is geometry and
the contact rule of the battle layer (:func:`~kubik.game.battle.settle`).

While a menu is measured (:meth:`~kubik.game.battle.BattleGame.still`) the board keeps
every answer it gives for the menu, and its measurements of where units stand
(:meth:`Board.gap`, :meth:`Board.sees`) for as long as those units stand where they
stood (:meth:`~kubik.game.battle.BattleGame.lasting`).

One concept per module, the board assembled from them here: :mod:`.hooks` (the hooks and
who is who), :mod:`.distances` (how far), :mod:`.sight` (what it sees, its cover),
:mod:`.standing` (where it may stand, obstacles, places of cover), :mod:`.contact_places`
(where a move ends by the contact rule, a charger's contact spots), :mod:`.walks` (walked
ways and charges), :mod:`.making_way` (stepping back, shuffling models aside), and
:mod:`.grid` (the 0.1-inch grid every place lies on).
"""

from __future__ import annotations

from kubik.game.battle.board.contact_places import CONTACT_STEPS
from kubik.game.battle.board.distances import BoardDistances
from kubik.game.battle.board.grid import GRID, SLACK, on_grid
from kubik.game.battle.board.hooks import U
from kubik.game.battle.board.making_way import BoardMakingWay, MadeWay, away_from
from kubik.game.battle.board.sight import BoardSight
from kubik.game.battle.board.standing import OBSTACLE_OVERLAP
from kubik.game.battle.board.walks import Pace, Reach, Walk, length_along


class Board(BoardMakingWay[U], BoardSight[U], BoardDistances[U]):
    """The units of one battle on its table; a ruleset subclasses it and fills the hooks.

    Hooks a ruleset fills
        :meth:`units`      every unit, in a fixed order (the scenario's)
        :meth:`unit_id`    a unit's id (what engagements and the contact rule name)
        :meth:`side_of`    the side a unit fights for
        :meth:`bases_of`   the bases of its models taking up room on the table now
        :meth:`in_battle`  whether it is still in the battle (on the table, fighting)

    Optional hooks (with defaults)
        :meth:`eyes_of`     the bases a unit looks from (every model of it)
        :meth:`mover_of`    the table's mover type for a unit (its row of a terrain
                            table; ``None``: every feature counts as for anyone)
        :meth:`clearance_of` how far the unit reaches from its centre (how wide a way
                            it needs round impassable ground; its one base's radius)
        :meth:`centre_of`   the point a unit moves by (its one model's centre)
        :meth:`bases_at`    its bases were its centre at a point (it moves as it stands)
        :meth:`besides`     units that move with it and never block it (riders aboard)
        :meth:`shape_key`   everything a measurement of it may read (default: where its
                            bases stand): what :meth:`shape` numbers
        :meth:`reading`     a length as the ruleset reads it off the tape (default: as
                            measured; e.g. rounded to 0.1")

    While a menu is measured every answer about who is who, gaps, sight, the nearest
    and where a walk ends is found in one lookup the second time it is asked; the
    contact rule is asked only of the models near a way (:meth:`settle`).
    """


__all__ = [
    "CONTACT_STEPS",
    "GRID",
    "OBSTACLE_OVERLAP",
    "SLACK",
    "Board",
    "MadeWay",
    "Pace",
    "Reach",
    "Walk",
    "away_from",
    "length_along",
    "on_grid",
]
