"""The battle layer every ruleset stands on (see :mod:`.battle` for the hooks).

One concept per module: :mod:`.pieces` (models as the layer sees them: presence and
posture as enums), :mod:`.contact` (the contact rule and the fights charges start),
:mod:`.menu` (decisions built only from the rules' verdicts), :mod:`.interrupts`
(out-of-turn reactions), :mod:`.battle` (the base class with its hooks, and the
ruleset adapter), :mod:`.tastes` (what bots weigh besides the odds, from data).
The measuring tape is :class:`kubik.table.tape.Tape`.
"""

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
from kubik.game.battle.pieces import Piece, Posture, Presence
from kubik.game.battle.tastes import taste, tastes

__all__ = [
    "GAP",
    "LOST",
    "SPECTATOR",
    "TABLE_OPTION",
    "BattleGame",
    "BattleRuleset",
    "Engagement",
    "Engagements",
    "Handler",
    "Interrupts",
    "LazyForecast",
    "Menu",
    "Moment",
    "Offer",
    "Piece",
    "Posture",
    "Presence",
    "TerrainReader",
    "Trigger",
    "UnitResult",
    "Violation",
    "battle_table",
    "clear_of",
    "overlapping",
    "settle",
    "taste",
    "tastes",
    "touching",
    "violations",
]
