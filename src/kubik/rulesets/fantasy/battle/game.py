"""A Warhammer Fantasy battle: regiments in ranks and files, each player turn the
phases of FB-ABSENT-19 — start of turn (Stupidity, rallying), movement with charges
and charge reactions, an empty magic phase (the seed prints no spells), shooting and
close combat, every decision a menu of the rules' own verdicts and every roll a rule
procedure (the close-combat round, the volley, the Break test, the rout)."""

from __future__ import annotations

from kubik.engine import Call, Forecast, Procedure, Verdict, emit, msg
from kubik.game.battle import Menu, taste
from kubik.game.turns import side_name
from kubik.rulesets.fantasy.battle import charges, deploy, melee, shots
from kubik.rulesets.fantasy.battle.ground import grounds_under
from kubik.rulesets.fantasy.battle.moves import advance, facing_towards, run_away, turn_to
from kubik.rulesets.fantasy.battle.state import FantasyState
from kubik.rulesets.fantasy.battle.units import Act, State, Unit
from kubik.rulesets.fantasy.close_combat import close_combat_round
from kubik.rulesets.fantasy.movement import Ground, charge_reach, may_move, move_allowance
from kubik.rulesets.fantasy.psychology import (
    Rally,
    StupidityOutcome,
    may_rally,
    rally_test,
    stupidity_test,
)


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
            yield from self.start_of_turn(side)
            yield from self.movement(side)
            yield from shots.shooting(self, side)
            yield from melee.close_combat(self, side)

    def start_of_turn(self, side: str) -> Procedure[None]:
        for unit in self.units:
            if unit.side != side:
                continue
            unit.stupid = False
            unit.moved = False
            if unit.state is State.FLEEING:
                yield from self.try_rally(unit)
            elif unit.fighting and "stupidity" in unit.rules() and not self.board.is_engaged(unit):
                out: StupidityOutcome = yield Call(stupidity_test, (unit.spec.troops.ld,))
                if out.stupid:
                    unit.stupid = True
                    target = self.board.nearest(unit)
                    yield from advance(self, unit, target, float(out.inches))

    def try_rally(self, unit: Unit) -> Procedure[None]:
        verdict = may_rally(unit.models, unit.started)
        if verdict.allowed:
            reach = self.command_for(unit)
            musician = "musician" in unit.command().alive(unit.models)
            if (yield Call(rally_test, (Rally(unit.spec.troops.ld, musician, reach),))):
                unit.state = State.READY
                turn_to(self, unit, facing_towards(self, unit))
                yield emit("fantasy.game.rallied", rules=("FB-ABSENT-11",), unit=self.name(unit.id))
                return
        yield from run_away(self, unit, None)

    # -- movement -----------------------------------------------------------------------

    def movement(self, side: str) -> Procedure[None]:
        for unit in self.units:
            if unit.side != side or not unit.fighting or self.ending() is not None:
                continue
            engaged = self.board.is_engaged(unit)
            if engaged or unit.stupid:
                continue
            board = self.board
            foes = [e for e in board.enemies(unit) if e.fighting]
            target = board.nearest(unit, foes)
            if target is None:
                continue
            menu: Menu[Act] = Menu()
            reach = charge_reach(unit.spec.troops.m, unit.rules())
            for foe in sorted(foes, key=lambda e: (board.gap(unit, e), e.id)):
                if foe is not target and board.gap(unit, foe) > reach:
                    continue
                plan = charges.charge_plan(self, unit, foe)
                menu.offer(
                    Act("charge", foe.id),
                    charges.charge_label(self, foe, plan.face),
                    charges.charge_verdict(self, unit, plan, reach),
                    Forecast(
                        close_combat_round,
                        (melee.round_of(self, unit, foe, 1, plan.face),),
                        value=melee.worth(),
                    ),
                )
            name = self.name(target.id)
            distance = board.gap(unit, target)
            closing = taste("fantasy", "closing_per_inch")
            flyer = self.flyer(unit)
            on_land = Ground.WATER not in grounds_under(self.tape, unit.bases())
            march, march_rules = move_allowance(
                unit.spec.troops.m, unit.rules(), march=True, flying=flyer, on_land=on_land
            )
            march_rules = march_rules or ("FB-ABSENT-19",)
            menu.offer(
                Act("march", target.id),
                msg("fantasy.option.march", target=name),
                may_move(engaged=engaged, fleeing=False),
                Forecast(score=closing * min(march, max(0.0, distance - 1.0))),
            )
            menu.offer(
                Act("hold"),
                msg("fantasy.option.hold"),
                Verdict.allow("FB-ABSENT-19"),
                Forecast(score=taste("fantasy", "hold")),
            )
            act = yield from self.choose(
                menu,
                side,
                msg("fantasy.game.orders", unit=self.name(unit.id)),
                rules=("FB-ABSENT-19",),
            )
            if act.kind == "charge":
                yield from charges.charge(self, unit, self.unit(act.target))
            elif act.kind == "march":
                yield from advance(self, unit, target, float(march), rules=march_rules)
