"""Brawl's battle: its hooks on kubik.game.battle (the brawlers, their menu, the end).

Each turn every brawler still standing, in scenario order, strikes the nearest foe when
he is within reach, or walks toward him, or waits; the last gang standing wins.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from brawl_rules.strike import may_strike, may_wait, may_walk, need, strike, walk
from kubik.engine import Call, Forecast, Procedure, emit, msg
from kubik.game import Ending, Scenario, ScenarioError
from kubik.game.battle import BattleGame, Board, Menu, Piece, Presence
from kubik.table import Base


@dataclass(frozen=True, slots=True)
class Act:
    """An option: ``kind`` (strike, walk, wait) against ``foe``."""

    kind: str
    foe: str = ""


@dataclass(slots=True)
class Brawler:
    id: str
    side: str
    base: Base
    presence: Presence = Presence.IN_PLAY


class BrawlBoard(Board[Brawler]):
    """The board's hooks: a unit is one brawler on one base."""

    def __init__(self, game: BrawlGame) -> None:
        super().__init__(game)
        self.brawlers = game.brawlers

    def units(self) -> list[Brawler]:
        return self.brawlers

    def unit_id(self, unit: Brawler) -> str:
        return unit.id

    def side_of(self, unit: Brawler) -> str:
        return unit.side

    def bases_of(self, unit: Brawler) -> list[Base]:
        return [unit.base] if unit.presence.on_table else []

    def in_battle(self, unit: Brawler) -> bool:
        return unit.presence.fighting


class BrawlGame(BattleGame):
    def __init__(self, scenario: Scenario, options: Mapping[str, Any]) -> None:
        super().__init__(scenario, options)
        self.brawlers: list[Brawler] = []
        for unit in scenario.units:
            spot = (float(unit.data["x"]), float(unit.data["y"]))
            self.brawlers.append(Brawler(unit.id, unit.side, Base(*spot, 1.0, unit.id)))
            self.set_name(unit.id, str(unit.data["name"]), str(unit.data.get("name_ru", "")))
        self.board = BrawlBoard(self)

    def pieces(self) -> tuple[Piece, ...]:
        return tuple(Piece(b.id, b.id, b.side, b.base, b.presence) for b in self.brawlers)

    def turn(self, number: int) -> Procedure[None]:
        for brawler in self.brawlers:
            if brawler.presence.fighting and self.ending() is None:
                yield from self.act(brawler)

    def act(self, brawler: Brawler) -> Procedure[None]:
        foe = self.board.nearest(brawler)
        assert foe is not None  # (the battle ends when one gang is left)
        gap = self.board.gap(brawler, foe)
        menu: Menu[Act] = Menu()
        name = self.name(foe.id)
        blow = Forecast(strike, (need(),), value=int)
        menu.offer(
            Act("strike", foe.id), msg("brawl.option.strike", foe=name), may_strike(gap), blow
        )
        menu.offer(Act("walk", foe.id), msg("brawl.option.walk", foe=name), may_walk(gap))
        menu.offer(Act("wait"), msg("brawl.option.wait"), may_wait())
        act = yield from self.choose(
            menu, brawler.side, msg("brawl.reason", unit=self.name(brawler.id))
        )
        if act.kind == "strike" and (yield Call(strike, (need(),))):
            foe.presence = Presence.REMOVED
            self.credit_kill(brawler.id)
            yield emit("brawl.down", rules=("BR-STRIKE-01",), unit=name)
        elif act.kind == "walk":
            way = self.board.walk(brawler, foe.base.centre, walk())
            if way is not None:
                brawler.base = brawler.base.moved_to(way.end)

    def ending(self) -> Ending | None:
        standing = {b.side for b in self.brawlers if b.presence.fighting}
        if len(standing) > 1:
            return None
        return Ending(next(iter(standing), None), msg("brawl.ending"))


def check(scenario: Scenario) -> None:
    """Every brawler needs a name and a spot (``x``, ``y`` in inches)."""
    for index, unit in enumerate(scenario.units):
        for key in ("x", "y"):
            if not isinstance(unit.data.get(key), int | float):
                raise ScenarioError(f"units[{index}].{key}: a number of inches is required")
        if not isinstance(unit.data.get("name"), str):
            raise ScenarioError(f"units[{index}].name: a name is required")
