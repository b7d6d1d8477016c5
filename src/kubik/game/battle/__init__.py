"""The battle layer every ruleset stands on (see :mod:`.battle` for the hooks).

One concept per module: :mod:`.pieces` (models as the layer sees them: presence and
posture as enums), :mod:`.board` (the units on the table: who is an enemy or a friend,
who is engaged, gaps and the nearest, sight and cover, walked ways, charges' contact
spots and backing away; a ruleset fills its hooks; a package, one module a concept),
:mod:`.at_table` (what people at a real table type: places, distances and bearings,
measurements), :mod:`.contact` (the contact rule and the fights charges start),
:mod:`.menu` (decisions built only from the rules' verdicts), :mod:`.interrupts`
(out-of-turn reactions), :mod:`.battle` (the base class with its hooks, and the
ruleset adapter), :mod:`.tastes` (what bots weigh besides the odds, from data).
The measuring tape is :class:`kubik.table.tape.Tape`.
"""

from kubik.game.battle.at_table import (
    COMPASS,
    bearing,
    confirm,
    confirm_count,
    confirm_inches,
    confirm_one_of,
    confirm_yes_no,
    heading_shown,
    move_entry,
    read_count,
    read_inches,
    read_position,
    read_yes_no,
)
from kubik.game.battle.battle import (
    LOST,
    SPECTATOR,
    TABLE_OPTION,
    BattleGame,
    BattleRuleset,
    TerrainReader,
    UnitResult,
    battle_table,
)
from kubik.game.battle.board import Board
from kubik.game.battle.board.grid import GRID, SLACK, on_grid
from kubik.game.battle.board.making_way import MadeWay, away_from
from kubik.game.battle.board.walks import Pace, Reach, Walk, length_along
from kubik.game.battle.contact import (
    GAP,
    Engagement,
    Engagements,
    Violation,
    clear_of,
    overlapping,
    settle,
    touching,
    violations,
)
from kubik.game.battle.interrupts import Handler, Interrupts, Moment, Trigger
from kubik.game.battle.menu import LazyForecast, Menu, Offer
from kubik.game.battle.pieces import Piece, Posture, Presence, Reaching
from kubik.game.battle.tastes import taste, tastes

__all__ = [
    "COMPASS",
    "GAP",
    "GRID",
    "LOST",
    "SLACK",
    "SPECTATOR",
    "TABLE_OPTION",
    "BattleGame",
    "BattleRuleset",
    "Board",
    "Engagement",
    "Engagements",
    "Handler",
    "Interrupts",
    "LazyForecast",
    "MadeWay",
    "Menu",
    "Moment",
    "Offer",
    "Pace",
    "Piece",
    "Posture",
    "Presence",
    "Reach",
    "Reaching",
    "TerrainReader",
    "Trigger",
    "UnitResult",
    "Violation",
    "Walk",
    "away_from",
    "battle_table",
    "bearing",
    "clear_of",
    "confirm",
    "confirm_count",
    "confirm_inches",
    "confirm_one_of",
    "confirm_yes_no",
    "heading_shown",
    "length_along",
    "move_entry",
    "on_grid",
    "overlapping",
    "read_count",
    "read_inches",
    "read_position",
    "read_yes_no",
    "settle",
    "taste",
    "tastes",
    "touching",
    "violations",
]
