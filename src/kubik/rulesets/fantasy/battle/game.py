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
from kubik.rulesets.fantasy.battle import deploy, ground, shots
from kubik.rulesets.fantasy.battle.formation import (
    ahead,
    bases,
    bearing,
    depth,
    frontage,
    half_width,
    right,
    side_reach,
    slots,
    turn_between,
)
from kubik.rulesets.fantasy.battle.spec import unit_specs
from kubik.rulesets.fantasy.battle.units import Act, ChargePlan, State, Unit
from kubik.rulesets.fantasy.charts import data
from kubik.rulesets.fantasy.close_combat import (
    ChallengeChoice,
    Facing,
    Regiment,
    Round,
    RoundOutcome,
    charged_face,
    close_combat_round,
)
from kubik.rulesets.fantasy.command import may_breathe
from kubik.rulesets.fantasy.leadership import Command, general_range
from kubik.rulesets.fantasy.movement import (
    Ground,
    Rout,
    RoutOutcome,
    charge_distance,
    charge_reach,
    flee_reaction,
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
from kubik.rulesets.fantasy.shooting import may_stand_and_shoot, volley
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
            yield from self.close_combat(side)

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
                plan = self.charge_plan(unit, foe)
                menu.offer(
                    Act("charge", foe.id),
                    self.charge_label(foe, plan.face),
                    ground.charge_verdict(self, unit, plan, reach),
                    Forecast(
                        close_combat_round,
                        (self.round_of(unit, foe, 1, plan.face),),
                        value=self.worth(unit.id),
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
                yield from self.charge(unit, self.unit(act.target))
            elif act.kind == "march":
                yield from self.advance(unit, target, float(march), rules=march_rules)

    def worth(self, side_unit: str) -> Any:
        """What a round's outcome is worth to ``side_unit``'s side (bot tastes)."""
        won, slain = taste("fantasy", "round_won"), taste("fantasy", "enemy_slain")
        broke, own = taste("fantasy", "enemy_broken"), taste("fantasy", "own_broken")

        def value(o: RoundOutcome) -> float:
            score = won * (o.winner == "a") - won * (o.winner == "b")
            score += slain * (o.b_lost - o.a_lost)
            score += broke * (o.broken == "b") + own * (o.broken == "a")
            return score

        return value

    def round_of(self, a: Unit, b: Unit, number: int, face: Facing | None = None) -> Round:
        """The close-combat round between two regiments, ``a`` charging in round one
        (into ``face`` of ``b``)."""
        return Round(
            self.regiment(a, b, number == 1, face),
            self.regiment(b, a, False),
            number,
            ChallengeChoice.ACCEPT,
        )

    def regiment(
        self, unit: Unit, enemy: Unit, charging: bool, face: Facing | None = None
    ) -> Regiment:
        spec = unit.spec
        hates = enemy.id in spec.hates or enemy.side in spec.hates
        return Regiment(
            troops=replace(spec.troops, rules=unit.rules()),
            models=unit.models,
            files=spec.files,
            kind=spec.kind,
            command=unit.command(),
            character=spec.character if unit.hero_alive else None,
            battle_standard=spec.battle_standard,
            general=spec.general,
            charging=charging,
            skirmish=spec.skirmish,
            facing=unit.faces.get(enemy.id, Facing.FRONT) if face is None else face,
            hates_enemy=hates,
            impact=spec.impact,
            breath_strength=spec.breath_strength if self.may_breathe_now(unit) else None,
            terror_tested=unit.terror_tested,
            reach=self.command_for(unit),
            wounds_taken=unit.wounds % spec.troops.w,
        )

    def may_breathe_now(self, unit: Unit) -> bool:
        """Whether a breath weapon has a use left this turn (FB-SR-01: twice a game,
        once a turn, in the Shooting phase or in close combat alike)."""
        uses = int(data()["breath"]["uses_per_game"]) - unit.breaths
        return may_breathe(uses, unit.breathed == self.turn_number).allowed

    def flyer(self, unit: Unit) -> bool:
        """Whether the unit moves through the air (FB-MOV-02, FB-MOV-03)."""
        return bool(unit.rules() & {"fly", "hover"})

    def charge_label(self, target: Unit, face: Facing) -> Any:
        key = {
            Facing.FRONT: "fantasy.option.charge",
            Facing.FLANK: "fantasy.option.charge_flank",
            Facing.REAR: "fantasy.option.charge_rear",
        }[face]
        return msg(key, target=self.name(target.id))

    def charge_plan(self, unit: Unit, target: Unit) -> ChargePlan:
        """The charge ``unit`` would make at ``target``: which face of it the charger's
        front lies in now (FB-ABSENT-07), the one wheel that aligns the charger with
        that face, and the place on the table's 0.1" grid where its front rank touches
        it (FB-ABSENT-10)."""
        size, files, figures = target.spec.size, target.spec.files, target.figures()
        loose = target.spec.skirmish
        (dx, dy), (rx, ry) = ahead(target.facing), right(target.facing)
        ox, oy = unit.front[0] - target.front[0], unit.front[1] - target.front[1]
        across, along = ox * rx + oy * ry, ox * dx + oy * dy
        deep = depth(files, figures, size, loose)
        wide = half_width(files, figures, size, loose)
        face = charged_face(across, along - size / 2, wide + size / 2, deep + size, loose=loose)
        touch = (unit.spec.size + size) / 2
        tx, ty = target.front
        if face is Facing.FRONT:
            facing = (target.facing + 180) % 360
            ideal = (tx + dx * touch, ty + dy * touch)
        elif face is Facing.REAR:
            facing = target.facing
            ideal = (tx - dx * (deep + touch), ty - dy * (deep + touch))
        else:
            side = 1 if across > 0 else -1
            facing = (target.facing - 90 * side) % 360
            mx, my = tx - dx * deep / 2, ty - dy * deep / 2
            wide = side_reach(files, figures, size, side, loose)
            ideal = (mx + side * rx * (wide + touch), my + side * ry * (wide + touch))
        goal = self.touching_spot(unit, target, ideal, facing)
        wheel = turn_between(unit.facing, facing)
        distance = charge_distance(
            self.frontage(unit), wheel, math.dist(unit.front, goal), loose=unit.spec.skirmish
        )
        return ChargePlan(face, facing, goal, distance)

    def touching_spot(
        self, unit: Unit, target: Unit, ideal: tuple[float, float], facing: int
    ) -> tuple[float, float]:
        """The point of the 0.1" grid nearest ``ideal`` where the charger's bases touch
        the target's without overlapping (``ideal`` rounded when none does)."""
        theirs = self.formation(target)
        base = (round(ideal[0], 1), round(ideal[1], 1))
        spots = sorted(
            (
                (round(base[0] + i / 10, 1), round(base[1] + j / 10, 1))
                for i in range(-2, 3)
                for j in range(-2, 3)
            ),
            key=lambda p: (math.dist(p, ideal), p),
        )
        for spot in spots:
            mine = self.formation(unit, spot, facing)
            if clear_of(mine, (), may_touch=theirs) and not clear_of(mine, theirs):
                return spot
        return base

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

    def charge(self, unit: Unit, target: Unit) -> Procedure[None]:
        plan = self.charge_plan(unit, target)
        yield emit(
            "fantasy.game.charge",
            rules=("FB-ABSENT-10",),
            unit=self.name(unit.id),
            target=self.name(target.id),
        )
        reaction = yield from self.react(target, unit)
        if not unit.fighting or not target.on_table:
            return
        reach = charge_reach(unit.spec.troops.m, unit.rules())
        if reaction == "flee":
            plan = replace(self.charge_plan(unit, target), face=plan.face)
        if not ground.charge_verdict(self, unit, plan, reach).allowed:
            yield emit(
                "fantasy.game.charge_failed", rules=("FB-ABSENT-10",), unit=self.name(unit.id)
            )
            yield from self.advance(unit, target, float(unit.spec.troops.m))
            return
        others = [p.base for p in self.bodies(besides=(unit.id, target.id))]
        spot = settle(
            [plan.goal] if self.flyer(unit) else [unit.front, plan.goal],
            lambda p: self.formation(unit, p, plan.facing),
            others,
            may_touch=self.formation(target),
        )
        reached = spot is not None and not clear_of(
            self.formation(unit, spot, plan.facing), self.formation(target)
        )
        if spot is None or not reached:
            yield emit(
                "fantasy.game.charge_failed", rules=("FB-ABSENT-10",), unit=self.name(unit.id)
            )
            if spot is not None:
                unit.front, unit.facing = spot, plan.facing
            return
        unit.front, unit.facing = spot, plan.facing
        if reaction == "flee":
            yield emit(
                "fantasy.game.caught_fleeing",
                rules=("FB-ABSENT-10", "FB-ABSENT-08"),
                unit=self.name(target.id),
            )
            self.destroy(target, by=unit)
            return
        self.contacts.engage(unit.id, target.id, ("FB-ABSENT-10",))
        unit.rounds[target.id] = 0
        target.rounds[unit.id] = 0
        unit.faces[target.id] = plan.face
        yield emit(
            f"fantasy.game.engaged_{plan.face.value}",
            rules=("FB-ABSENT-10", "FB-ABSENT-07", "FB-ABSENT-19"),
            unit=self.name(unit.id),
            target=self.name(target.id),
        )

    def react(self, target: Unit, charger: Unit) -> Procedure[str]:
        """The charged unit's reaction: hold, stand and shoot, or flee (FB-ABSENT-10)."""
        if target.state is State.FLEEING:
            return "flee"
        if self.contacts.of(target.id):
            return "hold"
        menu: Menu[Act] = Menu()
        menu.offer(Act("hold"), msg("fantasy.option.hold"), Verdict.allow("FB-ABSENT-10"))
        missile = target.spec.missile
        refused: tuple[str, ...] = ()
        if missile is not None:
            stand = may_stand_and_shoot(target.rules(), True)
            refused = () if stand.allowed else stand.rules
            menu.offer(
                Act("stand_and_shoot", charger.id),
                msg("fantasy.option.stand_and_shoot", target=self.name(charger.id)),
                stand,
                Forecast(
                    volley,
                    (shots.volley_of(self, target, charger, stand=True),),
                    value=shots.shot_worth,
                ),
            )
        menu.offer(
            Act("flee"),
            msg("fantasy.option.flee"),
            Verdict.allow("FB-ABSENT-10"),
            Forecast(score=taste("fantasy", "flee_reaction")),
        )
        act = yield from self.choose(
            menu,
            target.side,
            msg("fantasy.game.reaction", unit=self.name(target.id)),
            rules=("FB-ABSENT-10", *refused),
        )
        if act.kind == "stand_and_shoot":
            yield from shots.fire(self, target, charger, stand=True)
        elif act.kind == "flee":
            inches = yield Call(flee_reaction, ())
            yield from self.run_away(target, charger, float(inches))
            return "flee"
        return "hold"

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

    # -- close combat -------------------------------------------------------------------

    def close_combat(self, side: str) -> Procedure[None]:
        done: list[str] = []
        for unit in list(self.units):
            for foe_id in self.contacts.of(unit.id):
                key = "|".join(sorted((unit.id, foe_id)))
                if key in done or not unit.fighting:
                    continue
                done.append(key)
                foe = self.unit(foe_id)
                number = unit.rounds.get(foe_id, 0) + 1
                unit.rounds[foe_id] = foe.rounds[unit.id] = number
                a, b = (unit, foe) if unit.side == side or number > 1 else (foe, unit)
                charger_first = number == 1
                r = Round(
                    self.regiment(a, b, charger_first and a.side == side),
                    self.regiment(b, a, charger_first and b.side == side),
                    number,
                    ChallengeChoice.ACCEPT,
                )
                yield emit(
                    "fantasy.game.fight",
                    rules=("FB-ABSENT-07",),
                    a=self.name(a.id),
                    b=self.name(b.id),
                    round=number,
                )
                for fighter, reg in ((a, r.a), (b, r.b)):
                    if reg.breath_strength is not None and "breath_weapon" in reg.troops.rules:
                        fighter.breaths += 1
                        fighter.breathed = self.turn_number
                out: RoundOutcome = yield Call(close_combat_round, (r,))
                yield from self.after_round(a, b, out)

    def after_round(self, a: Unit, b: Unit, out: RoundOutcome) -> Procedure[None]:
        for unit, foe, lost, hero_lost in (
            (a, b, out.a_lost, out.a_character_lost),
            (b, a, out.b_lost, out.b_character_lost),
        ):
            self.wound(unit, lost * unit.spec.troops.w)
            if lost:
                self.credit_kill(foe.id, lost)
            if hero_lost and unit.hero_alive:
                unit.hero_alive = False
                self.credit_kill(foe.id)
            if "fear" in foe.rules() or "terror" in foe.rules():
                unit.terror_tested = unit.terror_tested or "terror" in foe.rules()
        yield from self.casualty_notes()
        for unit in (a, b):
            if unit.models == 0 and not unit.hero_alive:
                self.destroy(unit, by=None)
        loser = a if out.winner == "b" else b if out.winner == "a" else None
        if loser is not None and "frenzy" in loser.rules():
            loser.frenzy_lost = True
        if out.broken is None or not a.on_table or not b.on_table:
            return
        broken, victor = (a, b) if out.broken == "a" else (b, a)
        swift = victor.spec.kind.value in ("cavalry", "chariot")  # flyers pursue on foot
        result: RoutOutcome = yield Call(
            rout, (Rout(broken.spec.kind.value == "cavalry", swift, True),)
        )
        if result.caught:
            yield emit("fantasy.game.cut_down", rules=("FB-ABSENT-08",), unit=self.name(broken.id))
            self.destroy(broken, by=victor)
            return
        yield from self.run_away(broken, victor, float(result.fled))
        self.contacts.release(victor.id, broken.id)


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
