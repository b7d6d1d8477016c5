"""A battle of Дороги Апокалипсиса on the shared battle layer: the turn.

Turn edition (seed 003, the default): the warbands take turns, each in phases. At the
start of a turn the rout test, recovery, fleeing, terror and stupidity, then Дозор is
declared («в начале своего хода», RA-GUARD-01); then the movement phase («фаза
передвижения»: every warrior moves, and may hide where he ends), the shooting phase
(«фаза Стрельбы»: shooting and Melodies) and the close-combat phase («фаза Рукопашной»).
Activation edition (seed 000): every warrior still to act costs his side an FP; the
sides activate one warrior at a time (move, hide, shoot or sing; Караул «в ходе
активации»), then all fights are fought. The rules decide every question
(:mod:`.actions`, :mod:`.fights`); the state is :mod:`.state`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kubik.engine import Procedure, msg
from kubik.game import Scenario
from kubik.game.battle import Reaching, Trigger
from kubik.rulesets.apocalypse.battle import actions, fights, psyche, shots
from kubik.rulesets.apocalypse.battle.state import EDITION_OPTION, ApocalypseState
from kubik.rulesets.apocalypse.core import Edition
from kubik.rulesets.apocalypse.movement import move_allowance, run_allowance
from kubik.rulesets.apocalypse.warband import fp_for


def _whole(paces: float) -> float | int:
    """Paces as a count when whole (4 шага, 8 шагов), else as measured."""
    return int(paces) if paces.is_integer() else paces


class ApocalypseGame(ApocalypseState):
    """The battle: its state, and the turn of its edition."""

    def __init__(self, scenario: Scenario, options: Mapping[str, Any]) -> None:
        super().__init__(scenario, options)
        # the out-of-turn reaction at the end of every move: detection (RA-HIDE-05..07);
        # guard fire and detection during a move are part of the move (:mod:`.moving`)
        self.interrupts.on(Trigger.MOVED, "detection", lambda m: shots.detection(self, m))

    def reach(self, unit: str) -> tuple[Reaching, ...]:
        """How far the warrior walks and runs (RA-ABSENT-08: his Подвижность, twice it),
        in paces."""
        w = self.warrior(unit)
        name = self.name(unit)
        walk, run = move_allowance(w.mobility), run_allowance(w.mobility)
        return (
            Reaching(
                "move", walk, msg("apocalypse.game.reach.walk", unit=name, paces=_whole(walk))
            ),
            Reaching("move", run, msg("apocalypse.game.reach.run", unit=name, paces=_whole(run))),
        )

    def turn(self, number: int) -> Procedure[None]:
        self.round_jams = []
        if self.edition is Edition.TURN:
            for side in self.sides:
                if self.ending() is not None:
                    return
                self.turn_side = side
                yield from psyche.start_of_turn(self, side)
                if self.ending() is not None:
                    return
                yield from actions.watch_phase(self, side)
                yield from actions.movement_phase(self, side)
                if self.ending() is not None:
                    return
                yield from actions.shooting_phase(self, side)
                if self.ending() is not None:
                    return
                yield from fights.close_combat(self, side)
                yield from actions.end_of_turn(self, side)
            return
        for side in self.sides:
            if self.ending() is not None:
                return
            yield from psyche.start_of_turn(self, side)
            self.fp[side] = fp_for(sum(1 for w in self.side_warriors(side) if w.in_battle))
        if self.ending() is not None:
            return
        yield from actions.activations(self)
        for side in self.sides:
            yield from fights.close_combat(self, side)
            yield from actions.end_of_turn(self, side)


__all__ = ["EDITION_OPTION", "ApocalypseGame"]
