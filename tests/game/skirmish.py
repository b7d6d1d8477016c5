"""A toy ruleset on the battle layer: one-model units skirmish on a small table.

It fills the hooks the way a real ruleset does (and the way docs/adding-a-ruleset.md
tells): the rules are plain functions and procedures (permissions return verdicts,
the shot is a procedure), the battle builds its menus only from those verdicts,
moves go through the contact rule, a charge is the only way into contact, and a
charge declared within 6" lets the target stand and shoot out of turn.

Each turn every unit in play, in scenario order, may shoot the nearest enemy it
sees (d6 ≥ 4 kills), move 4" toward it, charge it when within 6" (then both are
engaged and the charger kills it on a d6 ≥ 3, else falls itself), or wait. Every
kill is credited to the unit that made it (:meth:`BattleGame.credit_kill`), so
``kubik sim`` counts kills per unit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kubik.engine import Call, Forecast, Procedure, Roll, Verdict, emit, msg
from kubik.engine.dice import D6
from kubik.game import Ending, Scenario, ScenarioError
from kubik.game.battle import (
    BattleGame,
    BattleRuleset,
    Board,
    Menu,
    Moment,
    Piece,
    Presence,
    Trigger,
)
from kubik.table import Base

SKIRMISH_ID = "toy_skirmish"
MOVE = 4.0
CHARGE_REACH = 6.0


# -- the rules: plain functions and procedures on plain values ------------------


def shot(need: int) -> Procedure[bool]:
    """One shot (rule TS-SHOOT-01 of the toy): a d6 against ``need``."""
    (value,) = yield Roll(D6, msg("toy.shot"), rules=("TS-SHOOT-01",))
    return bool(value >= need)


def may_shoot(sees: bool, engaged: bool) -> Verdict:
    """A unit shoots a target it sees, unless it is in a fight."""
    if engaged:
        return Verdict.forbid(msg("toy.engaged"), "TS-SHOOT-02")
    return Verdict.of(sees, msg("toy.unseen"), "TS-SHOOT-02")


def may_charge(distance: float, engaged: bool) -> Verdict:
    """A unit charges an enemy within 6" when it is not in a fight."""
    if engaged:
        return Verdict.forbid(msg("toy.engaged"), "TS-CHARGE-01")
    return Verdict.of(distance <= CHARGE_REACH, msg("toy.too_far"), "TS-CHARGE-01")


def may_move(engaged: bool) -> Verdict:
    """A unit in a fight cannot walk away."""
    return Verdict.of(not engaged, msg("toy.engaged"), "TS-MOVE-01")


# -- the battle: hooks on the layer ---------------------------------------------


@dataclass(frozen=True, slots=True)
class Act:
    """An option: ``kind`` (shoot, move, charge, wait) against ``target``."""

    kind: str
    target: str = ""


@dataclass(slots=True)
class Fighter:
    id: str
    side: str
    base: Base
    presence: Presence = Presence.IN_PLAY


def _worth_kill(hit: bool) -> int:
    return int(hit)


class SkirmishBoard(Board[Fighter]):
    """The board's hooks: a unit is one fighter with one base."""

    def __init__(self, game: SkirmishGame) -> None:
        super().__init__(game)
        self.fighters = game.fighters

    def units(self) -> list[Fighter]:
        return self.fighters

    def unit_id(self, unit: Fighter) -> str:
        return unit.id

    def side_of(self, unit: Fighter) -> str:
        return unit.side

    def bases_of(self, unit: Fighter) -> list[Base]:
        return [unit.base] if unit.presence.on_table else []

    def in_battle(self, unit: Fighter) -> bool:
        return unit.presence.fighting


class SkirmishGame(BattleGame):
    def __init__(self, scenario: Scenario, options: Mapping[str, Any]) -> None:
        super().__init__(scenario, options)
        self.fighters = [
            Fighter(u.id, u.side, Base(float(u.data["x"]), float(u.data["y"]), 1.0, u.id))
            for u in scenario.units
        ]
        for unit in scenario.units:
            self.set_name(
                unit.id, str(unit.data.get("name", unit.id)), str(unit.data.get("name_ru", ""))
            )
        self.interrupts.on(Trigger.CHARGE_DECLARED, "stand_and_shoot", self.stand_and_shoot)
        self.board = SkirmishBoard(self)

    def pieces(self) -> tuple[Piece, ...]:
        return tuple(Piece(f.id, f.id, f.side, f.base, f.presence) for f in self.fighters)

    def fighter(self, unit: str) -> Fighter:
        return next(f for f in self.fighters if f.id == unit)

    def turn(self, number: int) -> Procedure[None]:
        for fighter in self.fighters:
            if fighter.presence.fighting and self.ending() is None:
                yield from self.act(fighter)

    def act(self, fighter: Fighter) -> Procedure[None]:
        board = self.board
        target = board.nearest(fighter)
        assert target is not None
        engaged = board.is_engaged(fighter)
        distance = board.gap(fighter, target)
        menu: Menu[Act] = Menu()
        name = self.name(target.id)
        menu.offer(
            Act("charge", target.id),
            msg("toy.option.charge", target=name),
            may_charge(distance, engaged),
        )
        menu.offer(
            Act("shoot", target.id),
            msg("toy.option.shoot", target=name),
            may_shoot(board.sees(fighter, target), engaged),
            Forecast(shot, (4,), value=_worth_kill),
        )
        menu.offer(Act("move", target.id), msg("toy.option.move", target=name), may_move(engaged))
        menu.offer(Act("wait"), msg("toy.option.wait"), Verdict.allow())
        if engaged:
            (foe,) = self.contacts.of(fighter.id)
            yield from self.fight(fighter, self.fighter(foe))
            return
        act = yield from self.choose(
            menu, fighter.side, msg("toy.reason", unit=self.name(fighter.id))
        )
        if act.kind == "shoot" and (yield Call(shot, (4,))):
            target.presence = Presence.REMOVED
            self.contacts.release(target.id)  # a fallen model fights no more
            self.credit_kill(fighter.id)
            yield emit("toy.killed", rules=("TS-SHOOT-01",), unit=name)
        elif act.kind == "move":
            yield from self.move(fighter, target, contact=False)
        elif act.kind == "charge":
            yield from self.interrupts.fire(
                Moment(Trigger.CHARGE_DECLARED, fighter.side, fighter.id, target.id)
            )
            if fighter.presence.fighting and target.presence.fighting:
                yield from self.move(fighter, target, contact=True)

    def move(self, fighter: Fighter, target: Fighter, *, contact: bool) -> Procedure[None]:
        board = self.board
        if contact:
            walk = board.charge_way(fighter, target, CHARGE_REACH)
        else:
            walk = board.walk(fighter, target.base.centre, MOVE)
        if walk is None:
            return
        fighter.base = fighter.base.moved_to(walk.end)
        if contact:
            self.contacts.engage(fighter.id, target.id, ("TS-CHARGE-01",))
            yield emit("toy.engaged_now", rules=("TS-CHARGE-01",), unit=self.name(fighter.id))

    def fight(self, fighter: Fighter, foe: Fighter) -> Procedure[None]:
        won = yield Call(shot, (3,))
        loser, victor = (foe, fighter) if won else (fighter, foe)
        loser.presence = Presence.REMOVED
        self.credit_kill(victor.id)
        self.contacts.release(loser.id)
        yield emit("toy.killed", rules=("TS-FIGHT-01",), unit=self.name(loser.id))

    def stand_and_shoot(self, moment: Moment) -> Procedure[None]:
        assert moment.target is not None
        target, charger = self.fighter(moment.target), self.fighter(moment.unit)
        menu: Menu[Act] = Menu()
        menu.offer(
            Act("shoot", charger.id),
            msg("toy.option.shoot", target=self.name(charger.id)),
            may_shoot(self.board.sees(target, charger), self.board.is_engaged(target)),
            Forecast(shot, (5,), value=_worth_kill),
        )
        menu.offer(Act("wait"), msg("toy.option.wait"), Verdict.allow())
        act = yield from self.choose(
            menu, target.side, msg("toy.reason", unit=self.name(target.id))
        )
        if act.kind == "shoot" and (yield Call(shot, (5,))):
            charger.presence = Presence.REMOVED
            self.contacts.release(charger.id)
            self.credit_kill(target.id)
            yield emit("toy.killed", rules=("TS-SHOOT-01",), unit=self.name(charger.id))

    def ending(self) -> Ending | None:
        alive = [
            s
            for s in self.scenario.side_ids
            if any(f.side == s and f.presence.fighting for f in self.fighters)
        ]
        if len(alive) == 2:
            return None
        return Ending(alive[0] if alive else None, msg("toy.wiped_out"))


def _check(scenario: Scenario) -> None:
    for index, unit in enumerate(scenario.units):
        for key in ("x", "y"):
            if not isinstance(unit.data.get(key), int | float):
                raise ScenarioError(f"units[{index}].{key}: a number of inches is required")


GAME = BattleRuleset(SKIRMISH_ID, _check, SkirmishGame)

SCENARIO = """\
[scenario]
id = "toy_skirmish.demo"
name = "Skirmish"
name_ru = "Стычка"
ruleset = "toy_skirmish"

[table]
width = 24
height = 24

[[terrain]]
id = "barn"
name = "barn"
points = [[10, 10], [14, 10], [14, 14], [10, 14]]
kind = "impassable"
blocks_los = true
cover = "hard"

[[sides]]
id = "red"
name = "Red"
name_ru = "Красные"

[[sides]]
id = "blue"
name = "Blue"
name_ru = "Синие"

[[units]]
id = "r1"
side = "red"
name = "Ann"
name_ru = "Анна"
x = 3
y = 3

[[units]]
id = "r2"
side = "red"
x = 3
y = 8

[[units]]
id = "b1"
side = "blue"
x = 21
y = 21

[[units]]
id = "b2"
side = "blue"
x = 16
y = 21

[end]
turn_limit = 8
"""
