"""A Steel War battle as a turn loop: roll-off, alternating activations, two actions each.

The seed has no turn structure (SW-ABSENT-01); the default is the ruleset's: each
turn the sides roll off (d6, ties re-rolled), then alternate activating one squad
at a time (:func:`~kubik.rulesets.steel_war.activation.alternating_order`). A squad's
activation holds two actions (SW-CORE-04); a panicked squad spends it trying to end
the panic (SW-PANIC-01); squads locked in close combat fight their next round at
the start of the turn instead (SW-CC-09: "the melee continues in the next turn").

The battle ends when a side has no effective squad left (destroyed, surrendered,
routed off the table or fleeing); at the turn limit objectives decide, then the
men still fighting, else it is a draw.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kubik.engine import Choose, Procedure, Roll, emit, msg
from kubik.game import Ending, Scenario, SideSummary, TurnLoop, side_name
from kubik.rulesets.steel_war.activation import (
    ActionType,
    alternating_order,
    roll_off_die,
    roll_off_winner,
)
from kubik.rulesets.steel_war.no_step_back import Ending as StandEnding
from kubik.rulesets.steel_war.no_step_back import ending as stand_ending
from kubik.rulesets.steel_war.no_step_back import level_after_ending
from kubik.rulesets.steel_war.panic import PanicEvent

from . import actions, assault, carry, effects, psionics, shooting
from .menu import menu
from .options import (
    Act,
    Activate,
    Charge,
    Disembark,
    Embark,
    Fire,
    Inspire,
    Kind,
    Move,
    Option,
    Psi,
)
from .setup import build
from .state import Squad, Status


class SteelWarGame(TurnLoop):
    """One battle; all state lives in :attr:`world` and is rebuilt by replaying answers."""

    def __init__(self, scenario: Scenario, options: Mapping[str, Any]) -> None:
        super().__init__(scenario)
        self.world = build(scenario, options)

    # -- a turn ----------------------------------------------------------------

    def turn(self, number: int) -> Procedure[None]:
        """Continuing melees, the roll-off, then every squad's activation in turn."""
        world = self.world
        for squad in world.squads:
            squad.new_turn()
        yield from self._melees()
        first = yield from self._roll_off()
        ready = {side: len(self._ready(side)) for side in world.sides}
        for side in world.sides:
            if not ready[side]:
                ready.pop(side)
        if first not in ready:
            return
        for side in alternating_order(first, ready):
            if self.ending() is not None:
                return
            squads = self._ready(side)
            if not squads:
                continue
            squad = yield from self._pick(side, squads)
            yield from self.activation(squad)

    def _ready(self, side: str) -> list[Squad]:
        return [s for s in self.world.of_side(side) if not s.activated and s.melee_with is None]

    def _melees(self) -> Procedure[None]:
        done: list[str] = []
        for squad in self.world.squads:
            if squad.melee_with is None or squad.id in done or not squad.present:
                continue
            other = self.world.squad(squad.melee_with)
            done += [squad.id, other.id]
            attacker, defender = (squad, other) if squad.attacking else (other, squad)
            squad.activated = other.activated = True
            yield from assault.melee(self.world, attacker, defender)

    def _roll_off(self) -> Procedure[str]:
        """Who activates first this turn: a d6 each, ties re-rolled (SW-ABSENT-01)."""
        die = roll_off_die()
        while True:
            rolls: dict[str, int] = {}
            for side in self.world.sides:
                (value,) = yield Roll(
                    die,
                    msg("steel_war.game.roll_off", side=side_name(self.scenario, side)),
                    roller=side,
                )
                rolls[side] = value
            winner = roll_off_winner(rolls)
            if winner is not None:
                yield emit("steel_war.game.first", side=side_name(self.scenario, winner))
                return winner
            yield emit("steel_war.game.roll_off_tie")

    def _pick(self, side: str, squads: list[Squad]) -> Procedure[Squad]:
        if len(squads) == 1:
            return squads[0]
        options = tuple(Activate(s.id, *s.spec.display_name) for s in squads)
        chosen: Activate = yield Choose(
            options,
            side,
            msg("steel_war.game.choose_squad", side=side_name(self.scenario, side)),
            default=options[0],
        )
        return self.world.squad(chosen.squad)

    # -- an activation ---------------------------------------------------------

    def activation(self, squad: Squad) -> Procedure[None]:
        """Two actions (SW-CORE-04), or the attempt to end a panic (SW-PANIC-01)."""
        world = self.world
        squad.activated = True
        squad.new_activation()
        yield emit(
            "steel_war.game.activation",
            squad=squad.name,
            level=squad.level,
            markers=squad.markers,
            men=len(squad.active()),
        )
        if squad.panicked:
            yield from effects.panic(world, squad, PanicEvent.ONGOING)
            return
        done: list[ActionType] = []
        while squad.present and not squad.panicked and squad.melee_with is None:
            choices = menu(world, squad, tuple(done))
            if choices.options == (Act(Kind.END),):
                break
            option: Option = yield Choose(
                choices.options,
                squad.side,
                msg("steel_war.game.choose_action", squad=squad.name, n=len(done) + 1),
                default=choices.default,
                forecasts=choices.forecasts,
            )
            if option == Act(Kind.END):
                yield emit("steel_war.game.ends_activation", squad=squad.name)
                break
            yield from self.perform(squad, option)
            action = getattr(option, "action", None)
            if isinstance(option, Charge):
                break
            if action is not None:
                done.append(action)
        yield from self._stand_fast_ends()

    def perform(self, squad: Squad, option: Option) -> Procedure[None]:
        """Carry out one chosen action."""
        world = self.world
        if isinstance(option, Fire):
            yield from shooting.fire(world, squad, world.squad(option.target))
        elif isinstance(option, Move):
            yield from actions.move(world, squad, option)
        elif isinstance(option, Charge):
            yield from assault.assault(world, squad, world.squad(option.target))
        elif isinstance(option, Inspire):
            yield from actions.encourage(world, squad, world.squad(option.target))
        elif isinstance(option, Psi):
            yield from psionics.use_psi(world, squad, option)
        elif isinstance(option, Embark):
            yield from carry.embark(world, squad, option)
        elif isinstance(option, Disembark):
            yield from carry.disembark(world, world.squad(option.squad), option)
        elif option.kind is Kind.GO_TO_GROUND:
            yield from actions.go_to_ground(world, squad)
        elif option.kind is Kind.GET_UP:
            yield from actions.get_up(squad)
        elif option.kind is Kind.UNSUPPRESS:
            yield from actions.rally(squad)
        elif option.kind is Kind.REORGANISE:
            yield from actions.regroup(world, squad)
        elif option.kind is Kind.NO_STEP_BACK:
            yield from actions.no_step_back(world, squad)

    def _stand_fast_ends(self) -> Procedure[None]:
        """«Ни шагу назад!» ends when no enemy but broken ones is in view (SW-NSN-04)."""
        for squad in self.world.squads:
            if not squad.berserk or not squad.present:
                continue
            seen = tuple(e.level for e in self.world.enemies(squad) if self.world.sees(squad, e))
            if stand_ending(len(squad.active()), seen) is StandEnding.NO_ENEMY_LEFT:
                squad.berserk = False
                yield emit("steel_war.game.berserk_over", squad=squad.name)
                squad.level = level_after_ending()

    # -- the end ---------------------------------------------------------------

    def _effective(self, side: str) -> list[Squad]:
        return [s for s in self.world.squads if s.side == side and s.effective]

    def ending(self) -> Ending | None:
        """A side with no effective squad left loses; both at once: a draw."""
        standing = [side for side in self.world.sides if self._effective(side)]
        if len(standing) == len(self.world.sides):
            return None
        if not standing:
            return Ending(None, msg("steel_war.game.end.all_broken"))
        beaten = [side for side in self.world.sides if side not in standing]
        return Ending(
            standing[0] if len(standing) == 1 else None,
            msg("steel_war.game.end.no_squads", side=side_name(self.scenario, beaten[0])),
        )

    def _held(self, side: str) -> int:
        return sum(1 for o in self.world.objectives if self.world.controller(o) == side)

    def _men(self, side: str) -> int:
        return sum(len(s.active()) for s in self._effective(side))

    def winner_at_limit(self) -> str | None:
        """Objectives held, then men still fighting in effective squads; else a draw."""
        sides = self.world.sides
        for measure in (self._held, self._men):
            values = {side: measure(side) for side in sides}
            best = max(values.values())
            leaders = [side for side in sides if values[side] == best]
            if len(leaders) == 1:
                return leaders[0]
        return None

    def summary(self) -> tuple[SideSummary, ...]:
        """Per side: units and models left and lost, killed, prisoners, objectives held."""
        out = []
        for side in self.world.sides:
            squads = [s for s in self.world.squads if s.side == side]
            statuses = [m.status for s in squads for m in s.models]
            out.append(
                SideSummary(
                    side,
                    (
                        ("units_left", len(self._effective(side))),
                        ("models_left", sum(len(s.active()) for s in squads if s.present)),
                        ("models_lost", sum(1 for st in statuses if st is not Status.ACTIVE)),
                        ("killed", statuses.count(Status.KILLED)),
                        ("unverified", statuses.count(Status.UNVERIFIED)),
                        ("prisoners", statuses.count(Status.PRISONER)),
                        ("objectives", self._held(side)),
                    ),
                )
            )
        return tuple(out)


__all__ = ["SteelWarGame"]
