"""An Old West battle on the battle layer: advantage, Movement, Shooting, Close combat.

Each turn (OW-ABSENT-01 default order): posses at half strength test Head for the
Hills (OW-PLK-02/04); both sides roll for advantage; then the Movement, Shooting
and Close-combat phases, each opened by heroic actions (OW-HERO-06..11). The phases
live in their own modules and take the battle's state
(:class:`~kubik.rulesets.old_west.battle.state.OldWestState`); this one is the turn
structure that runs them: :meth:`~OldWestGame.turn` and :meth:`~OldWestGame.ending`.
Being hit and not removed, a model dives for cover out of the shooter's turn: an
interrupt (:data:`~kubik.game.battle.Trigger.SHOT_AT`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kubik.engine import Procedure, emit, msg
from kubik.game import Ending, Scenario, side_name
from kubik.game.battle import Reaching, Trigger
from kubik.rulesets.old_west.absent import advantage_roll
from kubik.rulesets.old_west.battle.figures import Nerve, Stance
from kubik.rulesets.old_west.battle.melee import close_combat_phase
from kubik.rulesets.old_west.battle.moves import movement_phase
from kubik.rulesets.old_west.battle.nerve import dive_for_cover, head_for_the_hills_tests
from kubik.rulesets.old_west.battle.objective import achieved
from kubik.rulesets.old_west.battle.shots import shooting_phase
from kubik.rulesets.old_west.battle.situations import mover
from kubik.rulesets.old_west.battle.state import OldWestState
from kubik.rulesets.old_west.core import Status
from kubik.rulesets.old_west.movement import allowance


class OldWestGame(OldWestState):
    """A whole battle between two posses, turn by turn."""

    def __init__(self, scenario: Scenario, options: Mapping[str, Any]) -> None:
        super().__init__(scenario, options)
        self.interrupts.on(Trigger.SHOT_AT, "diving_for_cover", lambda m: dive_for_cover(self, m))

    def reach(self, unit: str) -> tuple[Reaching, ...]:
        """How far the model moves this phase (OW-ABSENT-02/10: its Move, less half to
        stand up) and each weapon's range (edge to edge: from its centre, its base's
        radius farther)."""
        figure = self.figure(unit)
        move = float(allowance(mover(self, figure)))
        out = [
            Reaching(
                "move", move, msg("old_west.game.reach.move", model=self.name(unit), inches=move)
            )
        ]
        edge = figure.base.diameter / 2
        out.extend(
            Reaching(
                "weapon",
                weapon.range + edge,
                msg("old_west.game.reach.weapon", weapon=weapon.name, inches=weapon.range),
            )
            for weapon in figure.weapons
        )
        return tuple(out)

    def turn(self, number: int) -> Procedure[None]:
        """One turn: Head for the Hills, advantage, then the three phases."""
        for figure in self.figures:
            figure.nerve = Nerve.STEADY  # pinned for a turn, scared for a phase
            figure.moved = 0.0
            if figure.stance is Stance.CHARGED_PRONE:
                figure.stance = Stance.PRONE  # the charge was last turn's
        if number > 1:
            yield from head_for_the_hills_tests(self)
            if self.ending() is not None:
                return
        rolled = yield self.call(advantage_roll, (self.had_advantage,))
        self.advantage = rolled.advantage
        self.had_advantage = rolled.advantage
        yield emit(
            "old_west.game.advantage",
            rules=("OW-ABSENT-01",),
            side=side_name(self.scenario, self.advantage_side),
        )
        for phase in (movement_phase, shooting_phase, close_combat_phase):
            yield from phase(self)
            if self.ending() is not None:
                return

    def ending(self) -> Ending | None:
        """The objective achieved wins; a posse that fled or was wiped out loses (both: a
        draw); a posse whose last models left the table without the objective loses."""
        a, b = self.sides
        objective = self.spec.objective
        if objective is not None and achieved(self):
            name = side_name(self.scenario, objective.side)
            return Ending(objective.side, msg("old_west.game.end.objective", side=name))
        gone_a, gone_b = not self.active(a), not self.active(b)
        if not gone_a and not gone_b:
            return None
        if gone_a and gone_b:
            return Ending(None, msg("old_west.game.end.both_gone"))
        loser, winner = (a, b) if gone_a else (b, a)
        name = side_name(self.scenario, loser)
        if any(f.status is Status.LEFT_TABLE for f in self.posse(loser)):
            return Ending(winner, msg("old_west.game.end.left", side=name))
        if self.fled[loser]:
            return Ending(winner, msg("old_west.game.end.fled", side=name))
        return Ending(winner, msg("old_west.game.end.wiped_out", side=name))


__all__ = ["OldWestGame"]
