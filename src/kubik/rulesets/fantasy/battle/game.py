"""A Warhammer Fantasy battle: regiments in ranks and files, each player turn the
phases of FB-ABSENT-19 — start of turn (Stupidity, rallying), movement with charges
and charge reactions, an empty magic phase (the seed prints no spells), shooting and
close combat, every decision a menu of the rules' own verdicts and every roll a rule
procedure (the close-combat round, the volley, the Break test, the rout)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from itertools import repeat
from typing import Any

from kubik.engine import Call, Forecast, Procedure, Verdict, emit, msg
from kubik.game import Ending, Scenario
from kubik.game.battle import BattleGame, Menu, Piece, Presence, clear_of, settle, taste
from kubik.game.turns import side_name
from kubik.rulesets.fantasy.battle import charges, deploy, ground, melee, shots
from kubik.rulesets.fantasy.battle.formation import (
    ahead,
    bases,
    bearing,
    depth,
    frontage,
    slots,
    turn_between,
)
from kubik.rulesets.fantasy.battle.spec import unit_specs
from kubik.rulesets.fantasy.battle.units import Act, State, Unit
from kubik.rulesets.fantasy.charts import data
from kubik.rulesets.fantasy.close_combat import (
    close_combat_round,
)
from kubik.rulesets.fantasy.command import may_breathe
from kubik.rulesets.fantasy.leadership import Command, general_range
from kubik.rulesets.fantasy.movement import (
    Ground,
    Rout,
    RoutOutcome,
    charge_reach,
    flees_on_ground,
    may_move,
    may_wheel,
    move_allowance,
    rout,
    wheel_inches,
)
from kubik.rulesets.fantasy.psychology import (
    Rally,
    StupidityOutcome,
    may_rally,
    rally_test,
    stupidity_test,
)
from kubik.rulesets.fantasy.regiment import remove_casualties, unit_strength
from kubik.table import Base


def _flee_worth(_: int) -> float:
    return taste("fantasy", "flee_reaction")


class FantasyBattle(BattleGame):
    """Regiments in battle on the shared layer."""

    def __init__(self, scenario: Scenario, options: Mapping[str, Any]) -> None:
        super().__init__(scenario, options)
        self.units: list[Unit] = []
        self.removed: list[tuple[str, tuple[str, ...]]] = []
        for spec in unit_specs(scenario):
            unit = Unit(
                spec, spec.models, spec.front, spec.facing, hero_alive=spec.character is not None
            )
            unit.started = spec.models
            self.units.append(unit)
            if spec.character is not None:
                en, ru = spec.character_name
                self.set_name(f"{spec.id}.hero", en, ru)

    # -- the layer's hooks ------------------------------------------------------------

    @classmethod
    def prepare_terrain(cls, index: int, entry: Mapping[str, Any]) -> Mapping[str, Any]:
        return ground.prepare(index, entry)

    def pieces(self) -> tuple[Piece, ...]:
        out: list[Piece] = []
        for unit in self.units:
            spec = unit.spec
            out.extend(
                _unit_pieces(
                    unit.id,
                    unit.side,
                    unit.front,
                    unit.facing,
                    spec.files,
                    unit.figures() if unit.on_table else 0,
                    spec.size,
                    spec.skirmish,
                    unit.state,
                    spec.models,
                    spec.character is not None,
                    unit.hero_alive,
                    unit.models,
                    math.copysign(1.0, unit.front[0]) < 0,  # (keys keep a zero's sign)
                    math.copysign(1.0, unit.front[1]) < 0,
                )
            )
        return tuple(out)

    def ending(self) -> Ending | None:
        alive = [
            s for s in self.scenario.side_ids if any(u.side == s and u.fighting for u in self.units)
        ]
        if len(alive) == len(self.scenario.side_ids):
            return None
        return Ending(alive[0] if alive else None, msg("fantasy.game.routed"))

    def winner_at_limit(self) -> str | None:
        strength = {
            s: sum(self.strength(u) for u in self.units if u.side == s and u.fighting)
            for s in self.scenario.side_ids
        }
        ranked = sorted(strength.items(), key=lambda kv: -kv[1])
        if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
            return None
        return ranked[0][0]

    # -- helpers ------------------------------------------------------------------------

    def unit(self, unit_id: str) -> Unit:
        return next(u for u in self.units if u.id == unit_id)

    def strength(self, unit: Unit) -> int:
        return unit_strength(unit.spec.kind, unit.models, wounds=unit.spec.troops.w) + int(
            unit.hero_alive
        )

    def formation(
        self, unit: Unit, front: tuple[float, float] | None = None, facing: int | None = None
    ) -> list[Any]:
        spot = unit.front if front is None else front
        face = unit.facing if facing is None else facing
        spec = unit.spec
        return bases(spot, face, spec.files, unit.figures(), spec.size, unit.id, spec.skirmish)

    def centre(self, unit: Unit) -> tuple[float, float]:
        """The middle of a regiment's formation."""
        deep = self.depth(unit) / 2
        dx, dy = ahead(unit.facing)
        return (unit.front[0] - dx * deep, unit.front[1] - dy * deep)

    def frontage(self, unit: Unit) -> float:
        return frontage(unit.spec.files, unit.figures(), unit.spec.size, unit.spec.skirmish)

    def depth(self, unit: Unit) -> float:
        return depth(unit.spec.files, unit.figures(), unit.spec.size, unit.spec.skirmish)

    def enemies(self, unit: Unit) -> list[Unit]:
        return [u for u in self.units if u.side != unit.side and u.on_table]

    def gap(self, a: Unit, b: Unit) -> float:
        """Distance between two regiments' nearest models (inches)."""
        return self.gap_at(self.formation(a), a.spec.size, b)

    def nearest(self, unit: Unit, candidates: list[Unit]) -> Unit | None:
        if not candidates:
            return None
        return min(candidates, key=lambda e: (self.gap(unit, e), e.id))

    def engaged_with(self, unit: Unit) -> list[Unit]:
        return [self.unit(other) for other in self.contacts.of(unit.id)]

    def command_for(self, unit: Unit) -> Command:
        general = next(
            (
                u
                for u in self.units
                if u.side == unit.side and u.spec.general and u.hero_alive and u.fighting
            ),
            None,
        )
        standard = next(
            (
                u
                for u in self.units
                if u.side == unit.side and u.spec.battle_standard and u.hero_alive and u.fighting
            ),
            None,
        )
        reach = Command()
        if general is not None and general.spec.character is not None:
            large = "large_target" in general.spec.character.rules | general.rules()
            distance = math.dist(general.front, unit.front)
            if distance <= general_range(large):
                reach = replace(
                    reach,
                    general_leadership=general.spec.character.ld,
                    general_inches=distance,
                    general_large=large,
                )
        if standard is not None:
            reach = replace(reach, battle_standard_inches=math.dist(standard.front, unit.front))
        return reach

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

    def gap_at(self, placed: list[Any], size: float, other: Unit) -> float:
        """Distance from bases ``placed`` to ``other``'s nearest model (inches)."""
        # the least distance between centres less the two radii: subtracting after the
        # minimum gives the same number (rounding keeps order), each row measured in C
        theirs = [q.centre for q in self.formation(other)]
        dist = math.dist
        nearest = min(min(map(dist, repeat(p.centre), theirs)) for p in placed)
        return max(0.0, nearest - (size + other.spec.size) / 2)

    def start_of_turn(self, side: str) -> Procedure[None]:
        for unit in self.units:
            if unit.side != side:
                continue
            unit.stupid = False
            unit.moved = False
            if unit.state is State.FLEEING:
                yield from self.try_rally(unit)
            elif unit.fighting and "stupidity" in unit.rules() and not self.contacts.of(unit.id):
                out: StupidityOutcome = yield Call(stupidity_test, (unit.spec.troops.ld,))
                if out.stupid:
                    unit.stupid = True
                    target = self.nearest(unit, self.enemies(unit))
                    yield from self.advance(unit, target, float(out.inches))

    def try_rally(self, unit: Unit) -> Procedure[None]:
        verdict = may_rally(unit.models, unit.started)
        if verdict.allowed:
            reach = self.command_for(unit)
            musician = "musician" in unit.command().alive(unit.models)
            if (yield Call(rally_test, (Rally(unit.spec.troops.ld, musician, reach),))):
                unit.state = State.READY
                self.turn_to(unit, self.facing_towards(unit))
                yield emit("fantasy.game.rallied", rules=("FB-ABSENT-11",), unit=self.name(unit.id))
                return
        yield from self.run_away(unit, None)

    def turn_to(self, unit: Unit, facing: int) -> None:
        """Turn in place about the formation's middle (a rally's or a flight's free
        reform); not when the turned formation would touch another model: then it
        stays as it stands."""
        if facing == unit.facing:
            return
        cx, cy = self.centre(unit)
        deep = self.depth(unit) / 2
        dx, dy = ahead(facing)
        front = (round(cx + dx * deep, 3), round(cy + dy * deep, 3))
        others = [p.base for p in self.bodies(besides=(unit.id,))]
        if clear_of(self.formation(unit, front, facing), others):
            unit.front, unit.facing = front, facing

    def facing_towards(self, unit: Unit) -> int:
        target = self.nearest(unit, self.enemies(unit))
        if target is None:
            return unit.facing
        return bearing(self.centre(unit), self.centre(target))

    # -- movement -----------------------------------------------------------------------

    def movement(self, side: str) -> Procedure[None]:
        for unit in self.units:
            if unit.side != side or not unit.fighting or self.ending() is not None:
                continue
            engaged = bool(self.contacts.of(unit.id))
            if engaged or unit.stupid:
                continue
            foes = [e for e in self.enemies(unit) if e.fighting]
            target = self.nearest(unit, foes)
            if target is None:
                continue
            menu: Menu[Act] = Menu()
            reach = charge_reach(unit.spec.troops.m, unit.rules())
            for foe in sorted(foes, key=lambda e: (self.gap(unit, e), e.id)):
                if foe is not target and self.gap(unit, foe) > reach:
                    continue
                plan = charges.charge_plan(self, unit, foe)
                menu.offer(
                    Act("charge", foe.id),
                    charges.charge_label(self, foe, plan.face),
                    ground.charge_verdict(self, unit, plan, reach),
                    Forecast(
                        close_combat_round,
                        (melee.round_of(self, unit, foe, 1, plan.face),),
                        value=melee.worth(),
                    ),
                )
            name = self.name(target.id)
            distance = self.gap(unit, target)
            closing = taste("fantasy", "closing_per_inch")
            flyer = self.flyer(unit)
            on_land = Ground.WATER not in ground.grounds_under(self, self.formation(unit))
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
                yield from self.advance(unit, target, float(march), rules=march_rules)

    def may_breathe_now(self, unit: Unit) -> bool:
        """Whether a breath weapon has a use left this turn (FB-SR-01: twice a game,
        once a turn, in the Shooting phase or in close combat alike)."""
        uses = int(data()["breath"]["uses_per_game"]) - unit.breaths
        return may_breathe(uses, unit.breathed == self.turn_number).allowed

    def flyer(self, unit: Unit) -> bool:
        """Whether the unit moves through the air (FB-MOV-02, FB-MOV-03)."""
        return bool(unit.rules() & {"fly", "hover"})

    def advance(
        self, unit: Unit, target: Unit | None, inches: float, rules: tuple[str, ...] = ()
    ) -> Procedure[None]:
        """Wheel to face ``target`` (paying the outer corner's distance, FB-ABSENT-19),
        then go straight ahead with what is left of ``inches``, never into contact."""
        if inches <= 0:
            return
        start, facing = unit.front, unit.facing
        others = [p.base for p in self.bodies(besides=(unit.id,))]
        wheeled = 0
        if target is not None:
            want = bearing(start, self.centre(target))
            turn = turn_between(facing, want)
            wide = self.frontage(unit)
            turn = min(turn, int(math.degrees(inches / wide)) + 1)
            loose = unit.spec.skirmish
            while turn and wheel_inches(wide, turn, loose=loose) > inches:
                turn -= 1
            sense = 1 if (want - facing) % 360 <= 180 else -1
            new = (facing + sense * turn) % 360
            cost = wheel_inches(self.frontage(unit), turn, loose=loose)
            verdict = may_wheel(cost, inches, engaged=False, fleeing=False)
            if turn and verdict.allowed and clear_of(self.formation(unit, start, new), others):
                facing, wheeled = new, turn
                inches = round(inches - cost, 1)
        goal, paced = ground.stride(self, unit, start, facing, inches)
        rules = tuple(dict.fromkeys((*(rules or ("FB-ABSENT-19",)), *paced)))
        spot = None
        if self.flyer(unit):  # over models and terrain, to a clear place (FB-MOV-02)
            spot = settle([goal], lambda p: self.formation(unit, p, facing), others)
        if spot is None:
            spot = settle([start, goal], lambda p: self.formation(unit, p, facing), others)
        if spot is None:
            spot = start
        if spot == start and not wheeled:
            return
        unit.front, unit.facing = spot, facing
        unit.moved = True
        if wheeled:
            yield emit(
                "fantasy.game.wheeled",
                rules=("FB-ABSENT-19",),
                unit=self.name(unit.id),
                degrees=wheeled,
            )
        if spot != start:
            yield emit(
                "fantasy.game.moved",
                rules=rules,
                unit=self.name(unit.id),
                inches=round(math.dist(start, spot), 1),
            )

    def on_table(
        self, unit: Unit, spot: tuple[float, float], facing: int | None = None
    ) -> tuple[float, float]:
        """``spot`` moved just enough that the whole formation stands on the table."""
        margin = 0.6
        placed = self.formation(unit, spot, facing)
        shift = []
        for axis, size in ((0, self.table.width), (1, self.table.height)):
            low = min(b.centre[axis] - b.radius for b in placed)
            high = max(b.centre[axis] + b.radius for b in placed)
            move = max(0.0, margin - low) - max(0.0, high - (size - margin))
            shift.append(move)
        return (round(spot[0] + shift[0], 1), round(spot[1] + shift[1], 1))

    # -- shooting -----------------------------------------------------------------------

    def wound(self, unit: Unit, wounds: int) -> int:
        """Casualties from ``wounds`` on the rank and file; command models go in the
        seed's order (FB-CMD-05), noted for the log in ``self.removed``."""
        per = unit.spec.troops.w
        before = unit.models
        unit.wounds += wounds
        unit.models = max(0, unit.spec.models - unit.wounds // per)
        _, gone = remove_casualties(before, unit.command(), before - unit.models)
        if gone:
            self.removed.append((unit.id, gone))
        return before - unit.models

    def casualty_notes(self) -> Procedure[None]:
        """Tell the log which command models fell (FB-CMD-05)."""
        for unit_id, gone in self.removed:
            yield emit(
                "fantasy.game.command_lost",
                rules=("FB-CMD-05",),
                unit=self.name(unit_id),
                models=tuple(msg(f"fantasy.command.{name}") for name in gone),
            )
        self.removed.clear()

    def destroy(self, unit: Unit, by: Unit | None) -> None:
        if by is not None and unit.models:
            self.credit_kill(by.id, unit.models)
        unit.state = State.DESTROYED
        unit.models = 0
        unit.hero_alive = False
        self.contacts.release(unit.id)

    def run_away(
        self, unit: Unit, enemy: Unit | None, inches: float | None = None
    ) -> Procedure[None]:
        """The unit flees straight away from the enemy (off the table: gone)."""
        if inches is None:
            out: RoutOutcome = yield Call(rout, (Rout(pursue=False),))
            inches = float(out.fled)
        self.contacts.release(unit.id)
        unit.state = State.FLEEING
        threat = enemy or self.nearest(unit, self.enemies(unit))
        away = (
            (unit.facing + 180) % 360
            if threat is None
            else bearing(self.centre(threat), self.centre(unit))
        )
        self.turn_to(unit, away)
        dx, dy = ahead(away)
        goal = (unit.front[0] + dx * inches, unit.front[1] + dy * inches)
        edge = 0.5
        if not (
            edge <= goal[0] <= self.table.width - edge
            and edge <= goal[1] <= self.table.height - edge
        ):
            unit.state = State.FLED
            yield emit("fantasy.game.fled_table", rules=("FB-ABSENT-08",), unit=self.name(unit.id))
            return
        others = [p.base for p in self.bodies(besides=(unit.id,))]
        spot = settle([unit.front, goal], lambda p: self.formation(unit, p), others)
        if spot is not None:
            unit.front = spot
        yield emit(
            "fantasy.game.flees",
            rules=("FB-ABSENT-08", *flees_on_ground(unit.rules())),
            unit=self.name(unit.id),
            inches=inches,
        )


#: Regiments' pieces kept (an engine limit, not a rule): the layer asks for them often.
_PIECES_KEPT = 256


@lru_cache(maxsize=_PIECES_KEPT)
def _unit_pieces(
    unit_id: str,
    side: str,
    front: tuple[float, float],
    facing: int,
    files: int,
    standing: int,
    size: float,
    loose: bool,
    state: State,
    models: int,
    has_character: bool,
    hero_alive: bool,
    alive_models: int,
    _x_negative: bool,
    _y_negative: bool,
) -> tuple[Piece, ...]:
    """A regiment's pieces (its character first), once per how it stands: its models
    in their places, the dead and the fled at its front, off the table."""
    places = slots(front, facing, files, standing, size, loose)
    presence = {
        State.READY: Presence.IN_PLAY,
        State.FLEEING: Presence.IN_PLAY,
        State.DESTROYED: Presence.REMOVED,
        State.FLED: Presence.FLED,
    }[state]
    ids = ([f"{unit_id}.hero"] if has_character else []) + [f"{unit_id}.{k}" for k in range(models)]
    alive = ([hero_alive] if has_character else []) + [k < alive_models for k in range(models)]
    out: list[Piece] = []
    slot = 0
    for piece_id, living in zip(ids, alive, strict=True):
        here = presence if living else Presence.REMOVED
        if living and slot < standing:
            x, y = places[slot]
            slot += 1
        else:
            x, y = front
        out.append(Piece(piece_id, unit_id, side, Base(x, y, size, piece_id), here))
    return tuple(out)
