"""Дороги Апокалипсиса on the battle layer's board: a warrior is a unit of one model
on a round base, measured in paces (the scenario's table is in paces, RA-ABSENT-12).

Every relation, gap, sight, walk and contact of a battle is the board's
(:class:`~kubik.game.battle.Board`); this module only says what a warrior is to it.
"""

from __future__ import annotations

from collections.abc import Sequence

from kubik.game.battle import BattleGame, Board
from kubik.rulesets.apocalypse.battle.warriors import Warrior
from kubik.table import Base, Point


class ApocalypseBoard(Board[Warrior]):
    """The warriors of one battle (``warriors``, in scenario order) on its table."""

    def __init__(self, game: BattleGame, warriors: Sequence[Warrior]) -> None:
        super().__init__(game)
        self.warriors = warriors

    def units(self) -> Sequence[Warrior]:
        return self.warriors

    def unit_id(self, unit: Warrior) -> str:
        return unit.id

    def side_of(self, unit: Warrior) -> str:
        return unit.side

    def bases_of(self, unit: Warrior) -> Sequence[Base]:
        """His base, while he is on the table (standing, knocked down or stunned)."""
        return (unit.base,) if unit.in_battle else ()

    def in_battle(self, unit: Warrior) -> bool:
        return unit.in_battle

    def centre_of(self, unit: Warrior) -> Point:
        return unit.base.centre

    def clearance_of(self, unit: Warrior) -> float:
        """His base's radius: a way round impassable ground keeps his whole base clear."""
        return unit.base.radius


__all__ = ["ApocalypseBoard"]
