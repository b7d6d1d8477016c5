"""A Steel War battle on the battle layer: roll-off, alternating activations, two actions each.

The seed has no turn structure (SW-ABSENT-01); the default is the ruleset's: each
turn the sides roll off (d6, ties re-rolled), then alternate activating one unit at
a time (:func:`~kubik.rulesets.steel_war.activation.alternating_order`). A unit's
activation holds two actions (SW-CORE-04); a panicked squad spends it trying to end
the panic (SW-PANIC-01); squads locked in close combat fight their next round at the
start of the turn instead (SW-CC-09: "the melee continues in the next turn").

Out of turn, the other side reacts through the layer's interrupts: the free fire at a
charge that falls short (SW-CC-04), the panic test of troops shot at for the first
time, and of troops who see the enemy — or enemy armour — for the first time
(SW-PANIC-02).

The battle ends when a side has no effective unit left (destroyed, surrendered,
routed off the table or fleeing); at the turn limit objectives decide, then the men
still fighting, else it is a draw.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kubik.engine import Procedure, Roll, Verdict, emit, msg
from kubik.game import Ending, Scenario, SideSummary, side_name
from kubik.game.battle import BattleRuleset, Menu, Moment, Presence, Reaching, Trigger
from kubik.rulesets.steel_war.activation import (
    ActionType,
    alternating_order,
    may_activate,
    roll_off_die,
    roll_off_winner,
)
from kubik.rulesets.steel_war.fire import reach_inches
from kubik.rulesets.steel_war.fire_weapons import weapon
from kubik.rulesets.steel_war.melee_fighters import Side
from kubik.rulesets.steel_war.movement import march_distance, move_distance
from kubik.rulesets.steel_war.movers import MoverType
from kubik.rulesets.steel_war.no_step_back import Ending as StandEnding
from kubik.rulesets.steel_war.no_step_back import ending as stand_ending
from kubik.rulesets.steel_war.no_step_back import level_after_ending
from kubik.rulesets.steel_war.panic import (
    PanicEvent,
    causes_panic,
    counts_as_armour,
    panic_on_sight,
)
from kubik.rulesets.steel_war.situation import basic_verdict
from kubik.rulesets.steel_war.vehicles import vehicle_profile

from . import actions, assault, effects
from .field import Battlefield
from .options import Act, Activate, Charge, Kind
from .setup import check
from .state import First, Squad, Stance, Status, Turn


class SteelWarGame(Battlefield):
    """One battle; all state lives on this object and is rebuilt by replaying answers."""

    def __init__(self, scenario: Scenario, options: Mapping[str, Any]) -> None:
        super().__init__(scenario, options)
        self.interrupts.on(Trigger.CHARGE_SHORT, "free_fire", self._free_fire)
        self.interrupts.on(Trigger.SHOT_AT, "first_shot_at", self._first_shot_at)
        self.interrupts.on(Trigger.MOVED, "first_sight", self._first_sight)

    # -- a turn ----------------------------------------------------------------

    def reach(self, unit: str) -> tuple[Reaching, ...]:
        """How far the squad moves on easy ground and marches (SW-MOVE-01/02, its speed),
        and how far each of its weapons fires for its quality (SW-FIRE-06, SW-FIRE-11)."""
        squad = self.squad(unit)
        speed = self.speed(squad)
        name = self.name(unit)
        out = [
            Reaching(
                "move",
                float(move_distance(speed)),
                msg("steel_war.game.reach.move", squad=name, inches=move_distance(speed)),
            ),
        ]
        if not squad.is_vehicle:
            marched = march_distance(speed)
            out.append(
                Reaching(
                    "move",
                    float(marched),
                    msg("steel_war.game.reach.march", squad=name, inches=marched),
                )
            )
        arms = dict.fromkeys(m.weapon for m in squad.active() if m.weapon)
        for arm in arms:
            inches = reach_inches(weapon(arm), squad.die)
            out.append(
                Reaching(
                    "weapon",
                    float(inches),
                    msg(
                        "steel_war.game.reach.weapon",
                        weapon=msg(f"steel_war.weapon.{arm}"),
                        inches=inches,
                    ),
                )
            )
        return tuple(out)

    def turn(self, number: int) -> Procedure[None]:
        """Continuing melees, the roll-off, then every unit's activation in turn."""
        if number == 1:
            yield from self._start()
        for squad in self.squads:
            squad.new_turn()
        yield from self._melees()
        first = yield from self._roll_off()
        ready = {side: len(self._ready(side)) for side in self.sides}
        ready = {side: n for side, n in ready.items() if n}
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

    def _start(self) -> Procedure[None]:
        """Each side's motivation and starting morale (SW-MOR-02/03); then who sees whom."""
        for side in self.sides:
            start = self.starts[side]
            yield emit(
                "steel_war.game.side_start",
                rules=("SW-MOR-02", "SW-MOR-03"),
                side=side_name(self.scenario, side),
                motivation=start.motivation,
                fatigue=start.fatigue,
                level=start.level,
                exception=start.exception,
            )
        for squad in self.squads:
            if squad.on_table:
                yield from self._first_sight(Moment(Trigger.MOVED, squad.side, squad.id))

    def _ready(self, side: str) -> list[Squad]:
        """The side's units that may activate now (the rule's verdict)."""
        return [s for s in self.of_side(side) if self._may_activate(s).allowed]

    def _may_activate(self, squad: Squad) -> Verdict:
        return may_activate(squad.activated, bool(self.contacts.of(squad.id)))

    def _melees(self) -> Procedure[None]:
        """Squads locked in a close combat fight its next round (SW-CC-09)."""
        for pair in self.contacts.pairs():
            a, b = self.squad(pair.a), self.squad(pair.b)
            if not self.contacts.engaged(a.id, b.id) or not (a.present and b.present):
                self.contacts.release(a.id, b.id)
                continue
            attacker, defender = (a, b) if a.melee_role is Side.ATTACKER else (b, a)
            attacker.turn = defender.turn = Turn.DONE
            yield from assault.melee(self, attacker, defender)

    def _roll_off(self) -> Procedure[str]:
        """Who activates first this turn: a d6 each, ties re-rolled (SW-ABSENT-01)."""
        die = roll_off_die()
        while True:
            rolls: dict[str, int] = {}
            for side in self.sides:
                (value,) = yield Roll(
                    die,
                    msg("steel_war.game.roll_off", side=side_name(self.scenario, side)),
                    roller=side,
                    rules=("SW-ABSENT-01",),
                )
                rolls[side] = value
            winner = roll_off_winner(rolls)
            if winner is not None:
                yield emit(
                    "steel_war.game.first",
                    rules=("SW-ABSENT-01",),
                    side=side_name(self.scenario, winner),
                )
                return winner
            yield emit("steel_war.game.roll_off_tie", rules=("SW-ABSENT-01",))

    def _pick(self, side: str, squads: list[Squad]) -> Procedure[Squad]:
        menu: Menu[Activate] = Menu()
        for squad in squads:
            option = Activate(squad.id)
            menu.offer(option, option.label(self.name), self._may_activate(squad))
        chosen = yield from self.choose(
            menu,
            side,
            msg("steel_war.game.choose_squad", side=side_name(self.scenario, side)),
            rules=("SW-ABSENT-01", "SW-CORE-04"),
        )
        return self.squad(chosen.squad)

    # -- an activation ---------------------------------------------------------

    def activation(self, squad: Squad) -> Procedure[None]:
        """Two actions (SW-CORE-04), or the attempt to end a panic (SW-PANIC-01)."""
        squad.turn = Turn.DONE
        squad.new_activation()
        yield emit(
            "steel_war.game.activation",
            rules=("SW-CORE-04",),
            squad=self.name(squad.id),
            level=squad.level,
            markers=squad.markers,
            men=len(squad.men()) if not squad.is_vehicle else 1,
        )
        if squad.panicked:
            yield emit(
                "steel_war.game.panic_attempt",
                rules=("SW-PANIC-01",),
                squad=self.name(squad.id),
            )
            if basic_verdict(self.situation(squad), ActionType.END_PANIC).allowed:
                yield from effects.panic(self, squad, PanicEvent.ONGOING)
            return
        done: list[ActionType] = []
        while squad.present and not squad.panicked and not self.contacts.of(squad.id):
            option, spent = yield from actions.take_action(self, squad, tuple(done))
            if spent is None and not _costs_nothing(option):
                break
            if isinstance(option, Charge) and spent is ActionType.CHARGE:
                break
            if spent is not None:
                done.append(spent)
        yield from self._stand_fast_ends()

    def _stand_fast_ends(self) -> Procedure[None]:
        """«Ни шагу назад!» ends when no enemy but broken ones is in view (SW-NSN-04)."""
        for squad in self.squads:
            if not squad.berserk or not squad.present:
                continue
            seen = tuple(e.level for e in self.board.enemies(squad) if self.board.sees(squad, e))
            if stand_ending(len(squad.men()), seen) is StandEnding.NO_ENEMY_LEFT:
                squad.stance = Stance.NORMAL
                yield emit(
                    "steel_war.game.berserk_over", rules=("SW-NSN-04",), squad=self.name(squad.id)
                )
                squad.level = level_after_ending()

    # -- out of turn -------------------------------------------------------------

    def _free_fire(self, moment: Moment) -> Procedure[None]:
        yield from assault.free_fire(self, moment)

    def _first_shot_at(self, moment: Moment) -> Procedure[None]:
        """Recruits panic the first time they are shot at (SW-PANIC-02)."""
        if moment.target is None:
            return
        target = self.squad(moment.target)
        if target.present and target.first(First.SHOT_AT):
            yield from effects.panic(self, target, PanicEvent.FIRST_SHOT_AT)

    def _first_sight(self, moment: Moment) -> Procedure[None]:
        """Whoever sees the enemy — or enemy armour — for the first time now may panic:
        untrained troops at any enemy, recruits at armour (SW-PANIC-02: panic_on_sight)."""
        for squad in self.squads:
            if not squad.on_table or squad.is_vehicle or not _may_panic_at_sight(squad):
                continue
            seen = [e for e in self.board.enemies(squad) if self.board.sees(squad, e)]
            if not seen:
                continue
            armour = any(_is_armour(self, e) for e in seen)
            event = panic_on_sight(
                squad.quality,
                enemy_in_sight=True,
                armour_in_sight=armour,
                enemy_seen_before=First.ENEMY_SEEN in squad.firsts,
                armour_seen_before=First.ARMOUR_SEEN in squad.firsts,
                panic_over=squad.panic_over,
            )
            squad.first(First.ENEMY_SEEN)
            if armour:
                squad.first(First.ARMOUR_SEEN)
            if event is not None:
                yield emit(
                    "steel_war.game.first_sight",
                    rules=("SW-PANIC-02",),
                    squad=self.name(squad.id),
                    event=event,
                )
                yield from effects.panic(self, squad, event)

    # -- the end ---------------------------------------------------------------

    def _effective(self, side: str) -> list[Squad]:
        return [s for s in self.squads if s.side == side and s.effective]

    def ending(self) -> Ending | None:
        """A side with no effective unit left loses; both at once: a draw."""
        standing = [side for side in self.sides if self._effective(side)]
        if len(standing) == len(self.sides):
            return None
        if not standing:
            return Ending(None, msg("steel_war.game.end.all_broken"))
        beaten = [side for side in self.sides if side not in standing]
        return Ending(
            standing[0] if len(standing) == 1 else None,
            msg("steel_war.game.end.no_squads", side=side_name(self.scenario, beaten[0])),
        )

    def _held(self, side: str) -> int:
        return sum(1 for o in self.objectives if self.controller(o) == side)

    def _men(self, side: str) -> int:
        return sum(len(s.men()) for s in self._effective(side))

    def winner_at_limit(self) -> str | None:
        """Objectives held, then men still fighting in effective units; else a draw."""
        for measure in (self._held, self._men):
            values = {side: measure(side) for side in self.sides}
            best = max(values.values())
            leaders = [side for side in self.sides if values[side] == best]
            if len(leaders) == 1:
                return leaders[0]
        return None

    def summary(self) -> tuple[SideSummary, ...]:
        """Per side: units and models left and lost — every model (men, weapons, robots,
        hulls), lost down, removed or fled, as the battle layer counts losses
        (:meth:`~kubik.game.battle.BattleGame.models_lost`) — and of the men lost, those
        killed, of unknown fate and taken prisoner; objectives held."""
        out = []
        for side in self.sides:
            squads = [s for s in self.squads if s.side == side]
            men = [m for s in squads for m in s.models if m.is_man]
            lost = self.models_lost(side)
            fled = sum(1 for s in squads for m in s.models if s.presence_of(m) is Presence.FLED)
            out.append(
                SideSummary(
                    side,
                    (
                        ("units_left", len(self._effective(side))),
                        ("models_left", sum(len(s.models) for s in squads) - lost),
                        ("models_lost", lost),
                        ("models_fled", fled),
                        ("killed", sum(1 for m in men if m.status is Status.KILLED)),
                        ("unverified", sum(1 for m in men if m.status is Status.UNVERIFIED)),
                        ("prisoners", sum(1 for m in men if m.status is Status.PRISONER)),
                        ("objectives", self._held(side)),
                    ),
                )
            )
        return tuple(out)


def _is_armour(game: Battlefield, squad: Squad) -> bool:
    """«Бронетехника или бронескафы» (SW-PANIC-02): armoured vehicles and bronescafs."""
    kind = game.kind(squad)
    armoured = not squad.is_vehicle or vehicle_profile(squad.spec.vehicle).armoured
    return counts_as_armour(kind, armoured) or (
        kind is not MoverType.ARMOURED_SUIT
        and any(m.kind is not None and m.kind.value == "bronescaf" for m in squad.active())
    )


def _may_panic_at_sight(squad: Squad) -> bool:
    """Whether seeing the enemy can still panic the squad (a first sight it has not had,
    of a kind that panics troops of its quality, SW-PANIC-02)."""
    return any(
        first not in squad.firsts and causes_panic(squad.quality, event, squad.panic_over)
        for first, event in (
            (First.ENEMY_SEEN, PanicEvent.FIRST_ENEMY_IN_SIGHT),
            (First.ARMOUR_SEEN, PanicEvent.FIRST_ARMOUR_SEEN),
        )
    )


def _costs_nothing(option: object) -> bool:
    """«Ни шагу назад!» is declared without spending an action (SW-NSN-02 default)."""
    return isinstance(option, Act) and option.kind is Kind.NO_STEP_BACK


def check_scenario(scenario: Scenario) -> None:
    """Raise :class:`~kubik.game.errors.ScenarioError` (one line, naming the field) when a
    Steel War battle cannot be played from ``scenario``."""
    check(scenario)


GAME = BattleRuleset("steel_war", check_scenario, SteelWarGame)

__all__ = ["GAME", "SteelWarGame", "check_scenario"]
