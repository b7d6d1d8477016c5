"""A Warhammer Fantasy battle: regiments in ranks and files, each player turn the
phases of FB-ABSENT-19 — start of turn (Stupidity, rallying), movement with charges
and charge reactions, an empty magic phase (the seed prints no spells), shooting and
close combat, every decision a menu of the rules' own verdicts and every roll a rule
procedure (the close-combat round, the volley, the Break test, the rout)."""

from __future__ import annotations

from dataclasses import dataclass

from kubik.engine import Call, Forecast, Procedure, Verdict, emit, msg
from kubik.game.battle import LazyForecast, Menu, Reaching, taste
from kubik.game.turns import side_name
from kubik.rulesets.fantasy.attacks import recover_wound, regeneration_save
from kubik.rulesets.fantasy.battle import charges, deploy, melee, shots
from kubik.rulesets.fantasy.battle.ground import grounds_under
from kubik.rulesets.fantasy.battle.moves import (
    Advance,
    advance,
    facing_towards,
    go_placed,
    plan_advance,
    run_away,
    turn_to,
)
from kubik.rulesets.fantasy.battle.state import FantasyState
from kubik.rulesets.fantasy.battle.table import PlacedOrder, order_entry
from kubik.rulesets.fantasy.battle.units import Act, State, Unit
from kubik.rulesets.fantasy.close_combat import close_combat_round
from kubik.rulesets.fantasy.movement import (
    Ground,
    charge_reach,
    march_test,
    may_march,
    may_move,
    move_allowance,
)
from kubik.rulesets.fantasy.psychology import (
    Rally,
    StupidityOutcome,
    may_rally,
    rally_test,
    stupidity_test,
)


@dataclass(frozen=True, slots=True)
class Orders:
    """What a unit chose in the Movement phase, and what its moves would be."""

    act: Act | PlacedOrder
    target: Unit
    march: int
    march_rules: tuple[str, ...]
    step: int
    step_rules: tuple[str, ...]
    marching: Verdict
    plans: dict[str, Advance]


class FantasyBattle(FantasyState):
    """Regiments in battle on the shared layer: each player turn in its phases."""

    # -- the turn -----------------------------------------------------------------------

    def turn(self, number: int) -> Procedure[None]:
        if number == 1:
            yield from deploy.deployment(self)
        for side in self.scenario.side_ids:
            if self.ending() is not None:
                return
            yield emit(
                "fantasy.game.player_turn",
                rules=("FB-ABSENT-19",),
                side=side_name(self.scenario, side),
            )
            for phase in (self.start_of_turn, self.movement, self.shooting, self.close_combat):
                self.panicked.clear()
                yield from phase(side)
            yield from self.regenerate(side)

    def regenerate(self, side: str) -> Procedure[None]:
        """At the end of its turn a model with Regeneration that did nothing the whole
        turn — neither moved, shot nor fought — rolls its regeneration save to recover
        a wound it lost (FB-SR-12)."""
        for unit in self.units:
            spec = unit.spec
            save = regeneration_save(unit.rules(), spec.troops.regeneration)
            wounded = unit.wounds % spec.troops.w
            if unit.side != side or not unit.fighting or save is None or not wounded:
                continue
            if unit.acted or unit.moved or self.board.is_engaged(unit):
                continue
            yield emit("fantasy.game.regenerates", rules=("FB-SR-12",), unit=self.name(unit.id))
            if (yield Call(recover_wound, (save,))):
                unit.wounds -= 1

    def shooting(self, side: str) -> Procedure[None]:
        """The Shooting phase (:mod:`.shots`)."""
        yield from shots.shooting(self, side)

    def close_combat(self, side: str) -> Procedure[None]:
        """The Close combat phase (:mod:`.melee`)."""
        yield from melee.close_combat(self, side)

    def start_of_turn(self, side: str) -> Procedure[None]:
        for unit in self.units:
            if unit.side != side:
                continue
            unit.stupid = unit.moved = unit.marched = unit.rallied = unit.acted = False
            unit.charge_inches = None
            if unit.state is State.FLEEING:
                yield from self.try_rally(unit)
            elif unit.fighting and "stupidity" in unit.rules() and not self.board.is_engaged(unit):
                out: StupidityOutcome = yield Call(stupidity_test, (self.leadership(unit),))
                if out.stupid:
                    unit.stupid = True
                    target = self.board.nearest(unit)
                    yield from advance(self, unit, target, float(out.inches))

    def try_rally(self, unit: Unit) -> Procedure[None]:
        verdict = may_rally(unit.models, unit.started)
        if verdict.allowed:
            reach = self.command_for(unit)
            musician = "musician" in unit.command().alive(unit.models)
            if (yield Call(rally_test, (Rally(self.leadership(unit), musician, reach),))):
                unit.state = State.READY
                unit.rallied = True
                turn_to(self, unit, facing_towards(self, unit))
                yield emit("fantasy.game.rallied", rules=("FB-ABSENT-11",), unit=self.name(unit.id))
                return
        yield from run_away(self, unit, None)

    # -- movement -----------------------------------------------------------------------

    def reach(self, unit: str) -> tuple[Reaching, ...]:
        """How far the regiment advances and marches (FB-ABSENT-14, FB-MOV-02..04: its
        Movement, twice it; a flyer's, a hoverer's, an aquatic unit's own) and how far
        its missiles shoot."""
        regiment = self.unit(unit)
        name, rules, m = self.name(unit), regiment.rules(), regiment.spec.troops.m
        flying = self.flyer(regiment)
        on_land = Ground.WATER not in grounds_under(self.tape, regiment.bases())
        step, _ = move_allowance(m, rules, march=False, flying=flying, on_land=on_land)
        march, _ = move_allowance(m, rules, march=True, flying=flying, on_land=on_land)
        out = [
            Reaching("move", float(step), msg("fantasy.game.reach.advance", unit=name, inches=step))
        ]
        if march > step:
            out.append(
                Reaching(
                    "move", float(march), msg("fantasy.game.reach.march", unit=name, inches=march)
                )
            )
        missile = regiment.spec.missile
        if missile is not None:
            out.append(
                Reaching(
                    "weapon",
                    float(missile.range),
                    msg("fantasy.game.reach.missile", unit=name, inches=missile.range),
                )
            )
        return tuple(out)

    def movement(self, side: str) -> Procedure[None]:
        for unit in self.units:
            if unit.side != side or not unit.fighting or self.ending() is not None:
                continue
            engaged = self.board.is_engaged(unit)
            free = may_move(engaged=engaged, fleeing=False, rallied=unit.rallied)
            if not free.allowed or unit.stupid:
                continue
            yield from self.orders(unit, side, free)

    def orders(self, unit: Unit, side: str, free: Verdict) -> Procedure[None]:
        """A unit's orders in the Movement phase: charge an enemy within reach, march,
        advance at its normal pace, or hold (``free``: the rules let it move). The menu
        is measured with the board still (:meth:`~kubik.game.battle.BattleGame.still`)."""
        with self.still():
            chosen = yield from self.order_menu(unit, side, free)
        if chosen is None:
            return
        act, target, marching, plans = chosen.act, chosen.target, chosen.marching, chosen.plans
        march, march_rules = chosen.march, chosen.march_rules
        step, step_rules = chosen.step, chosen.step_rules
        if isinstance(act, PlacedOrder):  # a place typed at the prompt
            yield from go_placed(self, unit, act, march_rules if act.march else step_rules)
        elif act.kind == "charge":
            yield from charges.charge(self, unit, self.unit(act.target))
        elif act.kind == "march" and marching.needs_test:
            leadership = self.leadership(unit)
            if (yield Call(march_test, (leadership,))):
                unit.marched = True
                yield from advance(self, unit, target, march, march_rules, plans.get("march"))
            else:
                yield emit(
                    "fantasy.game.march_failed",
                    rules=("FB-ABSENT-14",),
                    unit=self.name(unit.id),
                )
                yield from advance(self, unit, target, step, step_rules, plans.get("advance"))
        elif act.kind == "march":
            unit.marched = True
            yield from advance(self, unit, target, march, march_rules, plans.get("march"))
        elif act.kind == "advance":
            yield from advance(self, unit, target, step, step_rules, plans.get("advance"))

    def order_menu(self, unit: Unit, side: str, free: Verdict) -> Procedure[Orders | None]:
        """The menu of a unit's orders and what it chose (None: no enemy to face)."""
        board = self.board
        foes = [e for e in board.enemies(unit) if e.fighting]
        target = board.nearest(unit, foes)
        if target is None:
            return None
        menu: Menu[Act] = Menu()
        reach = charge_reach(unit.spec.troops.m, unit.rules())
        for foe in sorted(foes, key=lambda e: (board.gap(unit, e), e.id)):
            if foe is not target and board.gap(unit, foe) > reach:
                continue
            plan = charges.charge_plan(self, unit, foe)
            menu.offer(
                Act("charge", foe.id),
                charges.charge_label(self, foe, plan.face),
                charges.charge_verdict(self, unit, plan, reach, foe),
                Forecast(
                    close_combat_round,
                    (melee.round_of(self, unit, foe, 1, plan),),
                    value=melee.worth(),
                    sides=(("a", self.name(unit.id)), ("b", self.name(foe.id))),
                ),
            )
        name = self.name(target.id)
        distance = board.gap(unit, target)
        closing = taste("fantasy", "closing_per_inch")
        flyer = self.flyer(unit)
        on_land = Ground.WATER not in grounds_under(self.tape, unit.bases())
        rules, m = unit.rules(), unit.spec.troops.m
        march, march_rules = move_allowance(m, rules, march=True, flying=flyer, on_land=on_land)
        step, step_rules = move_allowance(m, rules, march=False, flying=flyer, on_land=on_land)
        near = min((board.gap(unit, e) for e in foes), default=None)
        marching = Verdict.combine(
            free, may_march(near, rules=rules, flying=flyer, on_land=on_land)
        )
        shoots = unit.spec.missile is not None or unit.spec.breath_strength is not None
        holds_fire = taste("fantasy", "march_holds_fire") if shoots else 0.0
        plans: dict[str, Advance] = {}

        gains: dict[str, float] = {}

        def closer(kind: str, inches: float, rules: tuple[str, ...]) -> float:
            """How much nearer the target the move would take the unit (inches)."""
            plan = plans[kind] = plan_advance(self, unit, target, inches, rules)
            after = board.gap_from(unit.bases(plan.spot, plan.facing), target)
            gains[kind] = distance - after
            return gains[kind]

        def nearer_at_pace() -> float:
            """How much nearer a normal move takes the unit: as near as the march would
            on the same way, no farther than its pace (worked out when there is no
            march to go by)."""
            if "march" in gains:
                return min(gains["march"], float(step))
            return closer("advance", step, step_rules)

        menu.offer(
            Act("march", target.id),
            msg("fantasy.option.march", target=name),
            marching,
            LazyForecast(
                lambda: Forecast(score=closing * closer("march", march, march_rules) - holds_fire)
            ),
        )
        menu.offer(
            Act("advance", target.id),
            msg("fantasy.option.advance", target=name),
            free,
            LazyForecast(lambda: Forecast(score=closing * nearer_at_pace())),
        )
        menu.offer(
            Act("hold"),
            msg("fantasy.option.hold"),
            Verdict.neutral(),
            Forecast(score=taste("fantasy", "hold")),
        )
        unhindered = marching.allowed and not marching.needs_test
        act = yield from self.choose(
            menu,
            side,
            msg("fantasy.game.orders", unit=self.name(unit.id)),
            rules=("FB-ABSENT-19",),
            entry=order_entry(self, unit, float(step), float(march) if unhindered else None),
        )
        return Orders(act, target, march, march_rules, step, step_rules, marching, plans)
