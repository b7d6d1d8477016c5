"""Charges and close combat in a battle (SW-CC-01..11): measure, Call the rules, apply.

A charge is declared at a unit within reach; :func:`~kubik.rulesets.steel_war.charge.charge`
rolls the enhanced reaction test and the combat moves. The attackers move along their
way as far as the dice take them: when the first move falls short they stop there,
and the defender's free fire — an out-of-turn interrupt
(:data:`~kubik.game.battle.Trigger.CHARGE_SHORT`) — is measured from where they
stand; a charge that still falls short leaves them where they stopped; a failed
second test sends them back, suppressed (SW-CC-04). A charge that reaches brings the
two units into contact (the only way into contact:
:meth:`~kubik.game.battle.Engagements.engage`) and puts the defender to its test; a
squad that stands fights rounds of :func:`~kubik.rulesets.steel_war.melee_round.melee_round`
— each man with his own die — until a side falls back, then every man lost rolls his
fate (SW-CC-10) and the fight is released.
"""

from __future__ import annotations

import math

from kubik.engine import AnyForecast, Call, Forecast, Message, Procedure, Verdict, emit, msg
from kubik.engine.dice import Die
from kubik.game.battle import Menu, Moment, Trigger
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.charge import (
    ChargeOutcome,
    DefenderMoraleOutcome,
    DefensiveFire,
    charge,
    charged_squad_threat,
    defender_morale,
    defender_rules,
    is_frightening,
    may_charge,
    may_free_fire,
    may_hold_fire,
)
from kubik.rulesets.steel_war.damage import TargetKind
from kubik.rulesets.steel_war.fire_ammo import FiredThisActivation
from kubik.rulesets.steel_war.melee_casualties import CasualtiesOutcome, melee_casualties
from kubik.rulesets.steel_war.melee_fighters import (
    Fighter,
    Side,
    can_fight_in_melee,
    cavalry_bonus_applies,
)
from kubik.rulesets.steel_war.melee_morale import (
    RoundMorale,
    SideMorale,
    fall_back_inches,
    round_morale,
)
from kubik.rulesets.steel_war.melee_pairing import Bout, pair_fighters
from kubik.rulesets.steel_war.melee_round import RoundLosses, melee_round
from kubik.rulesets.steel_war.movement import TerrainClass
from kubik.rulesets.steel_war.movers import MoverType
from kubik.rulesets.steel_war.observation import gives_away
from kubik.rulesets.steel_war.panic import PanicEvent
from kubik.rulesets.steel_war.reaction import ReactionAction
from kubik.rulesets.steel_war.situation import needed_tests

from . import effects, moves, shooting
from .field import Battlefield, Sight
from .forecast import assault_forecast, assault_value, fire_forecast, odds_distance
from .formation import clamp_inside
from .options import Act, Charge, Fire, Kind
from .state import Squad, Status
from .typed import measured_distance


def charge_way(
    game: Battlefield, attacker: Squad, defender: Squad
) -> tuple[tuple[float, float], ...] | None:
    """The way the attackers run at the defenders' centre, round what they cannot cross."""
    return game.board.way(attacker, defender.centre)


def charge_terrain(game: Battlefield, attacker: Squad, defender: Squad) -> TerrainClass:
    """The class of the ground the charge crosses, for the attackers (SW-MOVE-02/03)."""
    way = charge_way(game, attacker, defender)
    if way is None:
        return TerrainClass.IMPASSABLE
    return moves.terrain_class(game, attacker, way)


def fighters(game: Battlefield, squad: Squad, named: bool = True) -> list[tuple[str, Die]]:
    """Each man able to fight and his own melee die: the squad's quality die stepped up
    for his weapon, the squad's cold weapons, a mounted cavalryman on ground easy for
    him (SW-CC-07, SW-ABSENT-07). Robots, bronescafs and weapons do not fight (SW-CC-01)."""
    return list(
        game.kept(("fighters", squad.id, named), lambda: tuple(_fighters(game, squad, named)))
    )


def _fighters(game: Battlefield, squad: Squad, named: bool) -> list[tuple[str, Die]]:
    out = []
    for model in squad.active():
        if model.kind is TargetKind.CAVALRY:
            kind = MoverType.CAVALRY
        elif model.kind in (TargetKind.MAN, TargetKind.FULL_INFANTRY_ARMOUR):
            kind = MoverType.INFANTRY
        else:
            continue
        if not can_fight_in_melee(kind):
            continue
        mounted = kind is MoverType.CAVALRY
        ground = game.terrain_at(model.point, MoverType.CAVALRY)
        fighter = Fighter(
            squad.die,
            model.weapon,
            cold_weapon=squad.spec.bayonets,
            cavalry_on_easy_terrain=mounted and cavalry_bonus_applies(ground, mounted),
        )
        out.append((model.id if named else "", fighter.die()))
    return out


def bouts(
    game: Battlefield, attacker: Squad, defender: Squad, named: bool = True
) -> tuple[Bout, ...]:
    """The default pairing of the two squads' men, each with his own die (SW-CC-06/07)."""
    a, d = fighters(game, attacker, named), fighters(game, defender, named)
    if not a or not d:
        return ()
    return pair_fighters(a, d)


def riders(squad: Squad) -> int:
    """Mounted cavalrymen: a cavalry charge goes «в клинки» (SW-ABSENT-07 default)."""
    return sum(1 for m in squad.active() if m.kind is TargetKind.CAVALRY)


def frightening(squad: Squad, charging: bool = False) -> bool:
    """«Страшные» by the rule (SW-CC-11): their army list, the Keno Guard, cavalry charging
    «в клинки», or berserk."""
    return is_frightening(
        squad.spec.frightening,
        riders(squad) if charging else 0,
        keno_guard=squad.spec.keno_guard,
        berserk=squad.berserk,
    )


def defender_threat(game: Battlefield, attacker: Squad, defender: Squad) -> int:
    """The charged squad's threat by the rule (SW-CC-05), as the squads stand now."""
    return charged_squad_threat(
        len(fighters(game, attacker)) or 1,
        len(fighters(game, defender)) or 1,
        defender.motivation,
        unverified=len(defender.with_status(Status.UNVERIFIED)),
        wounded_left_behind=game.left_behind(defender),
        frightening=frightening(attacker, charging=True),
        cavalry_with_blades=min(riders(attacker), len(fighters(game, attacker)) or 1),
    )


def charge_offers(
    game: Battlefield, squad: Squad, done: tuple[ActionType, ...], passed: bool = False
) -> list[tuple[Charge, Verdict, AnyForecast]]:
    """A charge at every enemy it sees, with the charge rule's verdict (SW-CC-01..03, its
    tests in order) and the forecast: the charge, the defender's test, a round of melee."""
    unit = game.situation(squad, done, passed=passed)
    out: list[tuple[Charge, Verdict, AnyForecast]] = []
    for enemy in game.board.enemies(squad):
        if not game.board.sees(squad, enemy):
            continue
        distance = game.board.gap(squad, enemy)
        verdict = may_charge(
            unit,
            game.kind(enemy),
            distance=distance,
            target_in_melee=bool(game.contacts.of(enemy.id)),
        )
        tests = tuple(t for t in needed_tests(verdict) if t is not ReactionAction.CHARGE)
        option = Charge(enemy.id, distance, tests)
        if not verdict.allowed:
            out.append((option, verdict, Forecast(score=0.0)))
            continue
        out.append((option, verdict, _forecast(game, squad, enemy, distance)))
    return out


def _forecast(game: Battlefield, squad: Squad, enemy: Squad, distance: float) -> AnyForecast:
    back = game.sight(enemy, squad)
    free = None
    if shooting.shoot_verdict(game, enemy, shot_at_us=squad.id in enemy.shot_by).allowed:
        weapons = shooting.choices(enemy, back.distance)
        plan = shooting.plan_fire(game, enemy, squad, back, weapons[0]) if weapons else None
        if plan is not None:
            attackers = (plan.target.armour, len(squad.active()), squad.spec.flak_vest)
            free = (plan.group, enemy.die, attackers)
    fight = bouts(game, squad, enemy, named=False)
    if not fight:
        return Forecast(score=0.0)
    return Forecast(
        assault_forecast,
        (
            (squad.die, squad.leadership, squad.level),
            (
                enemy.die,
                enemy.leadership,
                defender_threat(game, squad, enemy),
                defender_rules(frightening(squad, True), riders(squad)),
            ),
            odds_distance(distance),
            charge_terrain(game, squad, enemy),
            free,
            fight,
        ),
        value=assault_value,
    )


def assault(game: Battlefield, attacker: Squad, option: Charge) -> Procedure[ActionType]:
    """Declare «атакую!» and play the charge through (the whole activation). Returns the
    action it spent: the charge, or only the failed attempt to get up first."""
    with game.rolling(
        attacker, target=game.squad(option.target), defender=game.squad(option.target)
    ):
        return (yield from _assault(game, attacker, option))


def _assault(game: Battlefield, attacker: Squad, option: Charge) -> Procedure[ActionType]:
    defender = game.squad(option.target)
    if not (yield from moves.take_tests(game, attacker, option.tests)):
        return ActionType.MOVE
    what = msg(
        "steel_war.game.entry.charge_at",
        attacker=game.name(attacker.id),
        defender=game.name(defender.id),
    )
    distance = yield from measured_distance(
        game, attacker.side, what, game.board.gap(attacker, defender), ("SW-CC-03",)
    )
    terrain = charge_terrain(game, attacker, defender)
    way = charge_way(game, attacker, defender) or (attacker.centre, defender.centre)
    start = attacker.centre
    if gives_away(ActionType.CHARGE):
        attacker.revealed = True
    yield emit(
        "steel_war.game.charge",
        rules=("SW-CC-01", "SW-CC-02"),
        attacker=game.name(attacker.id),
        defender=game.name(defender.id),
        distance=distance,
        terrain=terrain,
    )

    def free_fire(remaining: float) -> Procedure[int]:
        stop_short(game, attacker, way, distance - remaining)
        game.free_fire_casualties = 0
        yield from game.interrupts.fire(
            Moment(
                Trigger.CHARGE_SHORT,
                attacker.side,
                attacker.id,
                defender.id,
                at=attacker.centre,
            )
        )
        return game.free_fire_casualties

    outcome: ChargeOutcome = yield Call(
        charge,
        (
            attacker.die,
            attacker.leadership,
            attacker.level,
            distance,
            terrain,
            DefensiveFire(free_fire, (), _casualties),
        ),
    )
    if not outcome.declared:
        yield emit(
            "steel_war.game.charge_refused", rules=("SW-CC-02",), squad=game.name(attacker.id)
        )
        return ActionType.CHARGE
    if outcome.suppressed:
        attacker.shift(start)
        effects.place_marker(attacker)
        yield emit(
            "steel_war.game.charge_repulsed",
            rules=("SW-CC-04", "SW-SUP-01"),
            squad=game.name(attacker.id),
            markers=attacker.markers,
        )
        return ActionType.CHARGE
    if not outcome.reached:
        stop_short(game, attacker, way, distance - outcome.remaining)
        yield emit(
            "steel_war.game.charge_short",
            rules=("SW-CC-04",),
            squad=game.name(attacker.id),
            remaining=outcome.remaining,
        )
        return ActionType.CHARGE
    if not attacker.present or not defender.present:
        return ActionType.CHARGE
    yield from contact(game, attacker, defender)
    yield from receive(game, attacker, defender)
    return ActionType.CHARGE


def _casualties(value: int) -> int:
    return value


def stop_short(
    game: Battlefield, attacker: Squad, way: tuple[tuple[float, float], ...], covered: float
) -> None:
    """The attackers stand where their combat moves took them (``covered`` inches along
    their way, short of the enemy: the contact rule stops them before touching)."""
    path = moves.cut(way, max(covered, 0.0))
    end = game.board.settle(attacker, path)
    if end is not None and end != attacker.centre:
        attacker.shift(end)
        for rider in game.passengers(attacker):
            rider.place_models(end)


def contact(game: Battlefield, attacker: Squad, defender: Squad) -> Procedure[None]:
    """The charge reached: the attackers run into base contact with the defenders (the
    only move that may touch an enemy) and the two are engaged (SW-CC-03)."""
    way = charge_way(game, attacker, defender) or (attacker.centre, defender.centre)
    end = game.board.settle(attacker, way, target=defender)
    if end is not None:
        attacker.shift(end)
    game.contacts.engage(attacker.id, defender.id, ("SW-CC-03",))
    yield emit(
        "steel_war.game.contact",
        rules=("SW-CC-03",),
        attacker=game.name(attacker.id),
        defender=game.name(defender.id),
    )


def receive(game: Battlefield, attacker: Squad, defender: Squad) -> Procedure[None]:
    """The charged squad: panic at a frightening charge (regulars, SW-PANIC-02), then its
    morale test (SW-CC-05) — it falls back, or stands and the melee is fought."""
    scary = frightening(attacker, charging=True)
    if scary:
        yield from effects.panic(game, defender, PanicEvent.FRIGHTENING_CHARGE)
    if not defender.present:
        game.contacts.release(defender.id)
        return
    if defender.berserk:
        yield emit("steel_war.game.no_morale_test", rules="SW-NSN-03", squad=game.name(defender.id))
    else:
        stand: DefenderMoraleOutcome = yield Call(
            defender_morale,
            (
                defender.die,
                defender.leadership,
                defender_threat(game, attacker, defender),
                defender_rules(scary, riders(attacker)),
            ),
        )
        if not stand.melee:
            yield from effects.drop_levels(game, defender, stand.drop)
            yield from fall_back(game, defender, attacker, after_charge=True)
            return
    attacker.melee_role, defender.melee_role = Side.ATTACKER, Side.DEFENDER
    yield from melee(game, attacker, defender)


def fall_back(
    game: Battlefield, squad: Squad, away_from: Squad, *, after_charge: bool
) -> Procedure[None]:
    """The squad gives way 6 inches straight back from the enemy (SW-CC-05, SW-CC-09),
    out of contact."""
    game.contacts.release(squad.id, away_from.id)
    squad.melee_role = away_from.melee_role = None
    if not squad.present:
        return
    distance = float(fall_back_inches(after_charge))
    dx, dy = squad.centre[0] - away_from.centre[0], squad.centre[1] - away_from.centre[1]
    norm = math.hypot(dx, dy) or 1.0
    board = game.board
    goal = clamp_inside(
        game.table,
        (squad.centre[0] + dx / norm * distance, squad.centre[1] + dy / norm * distance),
        board.clearance_of(squad),
    )
    way = board.way(squad, goal)
    end = board.settle(squad, moves.cut(way, distance) if way is not None else (squad.centre,))
    if end is not None:
        squad.shift(end)
    yield emit(
        "steel_war.game.fell_back",
        rules=("SW-CC-05",) if after_charge else ("SW-CC-09",),
        squad=game.name(squad.id),
        inches=distance,
    )
    yield from effects.check_surrender(game, squad)


def _lose(squad: Squad, fallen: tuple[str, ...]) -> None:
    """Mark the fighters who fell in the round (their bouts name them, SW-CC-08)."""
    for model in squad.active():
        if model.id in fallen:
            model.status = Status.MELEE_LOST


def melee(game: Battlefield, attacker: Squad, defender: Squad) -> Procedure[None]:
    """One round of close combat and what follows it (SW-CC-06..10): every man rolls his
    own die; the morale test after the round is taken even when a side was wiped out."""
    with game.rolling(attacker, target=defender, defender=defender):
        return (yield from _melee(game, attacker, defender))


def _melee(game: Battlefield, attacker: Squad, defender: Squad) -> Procedure[None]:
    fight = bouts(game, attacker, defender)
    if not fight:
        loser = Side.ATTACKER if not fighters(game, attacker) else Side.DEFENDER
        yield from end_melee(game, attacker, defender, loser, 0)
        return
    yield emit(
        "steel_war.game.melee",
        rules=("SW-CC-06", "SW-CC-07"),
        attacker=game.name(attacker.id),
        defender=game.name(defender.id),
        a=sum(b.fighters(Side.ATTACKER) for b in fight),
        d=sum(b.fighters(Side.DEFENDER) for b in fight),
    )
    losses: RoundLosses = yield Call(melee_round, (fight,))
    _lose(attacker, losses.fallen)
    _lose(defender, losses.fallen)
    morale: RoundMorale = yield Call(
        round_morale,
        (
            losses,
            SideMorale(
                attacker.die,
                attacker.leadership,
                no_step_back=attacker.berserk,
                standing=len(fighters(game, attacker)),
            ),
            SideMorale(
                defender.die,
                defender.leadership,
                no_step_back=defender.berserk,
                standing=len(fighters(game, defender)),
            ),
        ),
    )
    if morale.fell_back is None:
        yield emit(
            "steel_war.game.melee_goes_on",
            rules=("SW-CC-09",),
            attacker=game.name(attacker.id),
            defender=game.name(defender.id),
        )
        return
    yield from end_melee(game, attacker, defender, morale.fell_back, morale.drop)


def end_melee(
    game: Battlefield, attacker: Squad, defender: Squad, loser_side: Side, drop: int
) -> Procedure[None]:
    """The melee is over: every man lost rolls his fate, the loser drops and falls back,
    and the fight is released (SW-CC-09, SW-CC-10); each side is credited with the men
    of the other it took out for good (killed, wounded, captured)."""
    squads = {Side.ATTACKER: attacker, Side.DEFENDER: defender}
    loser, winner = squads[loser_side], squads[loser_side.other]
    yield emit(
        "steel_war.game.melee_over",
        rules=("SW-CC-09",),
        winner=game.name(winner.id),
        loser=game.name(loser.id),
    )
    for squad, won in ((winner, True), (loser, False)):
        lost = squad.with_status(Status.MELEE_LOST)
        if not lost:
            continue
        with game.rolling(squad):
            fates: CasualtiesOutcome = yield Call(melee_casualties, (len(lost), won))
        plan = (
            [Status.KILLED] * fates.killed
            + [Status.ACTIVE] * fates.returned
            + [Status.UNVERIFIED] * fates.unverified
            + [Status.PRISONER] * fates.prisoners
        )
        for model, status in zip(lost, plan, strict=True):
            model.status = status
        other = loser if won else winner  # (its enemy in the fight took them out)
        effects.credit(game, other, squad, len(lost) - fates.returned)
        if squad.model(squad.commander).status is not Status.ACTIVE:
            yield from effects.new_commander(game, squad)
    if loser.present:
        yield from effects.drop_levels(game, loser, drop)
    yield from fall_back(game, loser, winner, after_charge=False)
    game.contacts.release(attacker.id, defender.id)
    attacker.melee_role = defender.melee_role = None
    for squad in (winner, loser):
        yield from effects.check_destroyed(game, squad)


def free_fire(game: Battlefield, moment: Moment) -> Procedure[None]:
    """The defender's free action at a charge that fell short (SW-CC-04): a fire at the
    attackers from where they stopped, or none. It is outside the defender's own
    activation, so what it did in that activation (its actions, a march) does not count
    and weapons it fired earlier this turn fire again; only the fire rule's own questions
    (suppression, morale, SW-SUP-01, SW-MOR-01) decide (:func:`~kubik.rulesets.
    steel_war.charge.may_free_fire`). When it holds its fire, the log says why."""
    assert moment.target is not None
    defender, attacker = game.squad(moment.target), game.squad(moment.unit)
    if not defender.present or not attacker.present:
        return
    unit = game.situation(defender)
    verdict = may_free_fire(unit, target_shot_at_us=attacker.id in defender.shot_by)
    saved = defender.fired
    defender.fired = FiredThisActivation()
    sight = game.sight(defender, attacker)
    menu: Menu[Fire | Act] = Menu()
    for weapons in shooting.choices(defender, sight.distance):
        plan = shooting.plan_fire(game, defender, attacker, sight, weapons)
        if plan is None:
            continue
        option = Fire(attacker.id, weapons)
        menu.offer(option, option.label(game.name), verdict, fire_forecast(plan.group, plan.target))
    hold = Act(Kind.END)
    menu.offer(hold, msg("steel_war.game.option.hold_fire"), may_hold_fire())
    rules = tuple(dict.fromkeys(r for o in (*menu.offers, *menu.refused) for r in o.verdict.rules))
    picked = yield from game.choose(
        menu,
        defender.side,
        msg(
            "steel_war.game.free_fire",
            squad=game.name(defender.id),
            attacker=game.name(attacker.id),
        ),
        rules=tuple(dict.fromkeys(("SW-CC-04", *rules))),
    )
    if isinstance(picked, Fire):
        fired = yield from shooting.fire(game, defender, attacker, picked.weapons, free=True)
        game.free_fire_casualties = fired.wounded + fired.killed
    else:
        why, held_rules = _held_because(menu, verdict, sight, defender)
        yield emit(
            "steel_war.game.free_fire_held",
            rules=tuple(dict.fromkeys(("SW-CC-04", *held_rules))),
            squad=game.name(defender.id),
            attacker=game.name(attacker.id),
            why=why,
        )
    defender.fired = saved


def _held_because(
    menu: Menu[Fire | Act], verdict: Verdict, sight: Sight, defender: Squad
) -> tuple[Message, tuple[str, ...]]:
    """Why a defender let its free action go (SW-CC-04), and the rules that say so: the
    fire rule refused it, it does not see the attackers, none of its weapons reaches
    them, or it (its player, its bot) chose to."""
    if len(menu) > 1:
        return msg("steel_war.game.held.chosen"), ()
    if not verdict.allowed and menu.refused:
        return msg("steel_war.game.held.refused", reason=verdict.reason), verdict.rules
    if not sight.visible:
        return msg("steel_war.game.held.unseen"), ("SW-FIRE-01",)
    return (
        msg("steel_war.game.held.out_of_reach", inches=sight.distance, die=defender.die),
        ("SW-FIRE-06", "SW-FIRE-11"),
    )


__all__ = [
    "assault",
    "bouts",
    "charge_offers",
    "charge_terrain",
    "contact",
    "defender_threat",
    "end_melee",
    "fall_back",
    "fighters",
    "free_fire",
    "frightening",
    "melee",
    "receive",
]
