"""A unit's next action: every option it could try, each with the rules' own verdict, its
forecast and a label, gathered in a :class:`~kubik.game.battle.Menu`.

Legality is never decided here: each question goes to the permission function of the
rule module that owns it, asked with the unit's plain situation
(:meth:`~.board.Battlefield.situation`) — ``fire.may_shoot`` and
``observation.may_fire_at``, ``movement.may_move``, ``charge.may_charge``,
``suppression.may_unsuppress``, ``reorganisation.may_reorganise``,
``inspiration.may_inspire`` / ``may_pass_action`` / ``may_communicate``,
``observation.may_observe``, ``psionics_actions.may_use_psi``, ``transport.may_embark`` /
``may_disembark`` / ``may_unload``, ``fire.may_get_up`` / ``may_go_to_ground``,
``no_step_back.may_stand_fast``. They apply the activation's limits (SW-CORE-04),
suppression (SW-SUP-01), the morale level (SW-MOR-01), going to ground (SW-FIRE-07),
reaction tests failed this turn (SW-REACT-01), and say which tests an act needs first,
in order; the menu records refusals with their reasons and rules.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass

from kubik.engine import AnyForecast, Forecast, Verdict, msg
from kubik.engine.applied import deciding_cache
from kubik.game.battle import Menu
from kubik.game.battle.menu import LazyForecast
from kubik.rulesets.steel_war.activation import ActionType, any_action_verdict
from kubik.rulesets.steel_war.fire import may_get_up, may_go_to_ground, reach_inches
from kubik.rulesets.steel_war.fire_weapons import weapon
from kubik.rulesets.steel_war.morale_levels import MoraleLevel, level_orders
from kubik.rulesets.steel_war.movement import may_move
from kubik.rulesets.steel_war.no_step_back import Stand, may_stand_fast_from
from kubik.rulesets.steel_war.observation import may_fire_at
from kubik.rulesets.steel_war.psionics_actions import PsiAction
from kubik.rulesets.steel_war.reaction import ReactionAction, reaction_threat
from kubik.rulesets.steel_war.reorganisation import (
    Care,
    CasualtyKind,
    care_at_hand,
    may_reorganise,
)
from kubik.rulesets.steel_war.situation import needed_tests
from kubik.rulesets.steel_war.unsuppressing import may_unsuppress

from . import assault, carry, command, effects, moves, psionics, shooting, spotting
from .board import Battlefield
from .forecast import (
    combat_move_forecast,
    fire_forecast,
    ground_forecast,
    reorganise_forecast,
    stand_forecast,
    unsuppress_forecast,
    weight,
)
from .options import Act, Fire, Kind, Move, MoveHow, MoveKind, Observe, Option, Psi
from .profiles import vehicle_profile
from .state import Model, Squad, Status


@dataclass(frozen=True, slots=True)
class Offered:
    """A unit's menu and the option a player who does not think long takes; ``spent``:
    the verdict that refused at once every act costing an action (SW-CORE-04)."""

    menu: Menu[Option]
    default: Option
    spent: Verdict | None = None

    @property
    def rules(self) -> tuple[str, ...]:
        """Every rule the verdicts applied, offered and refused (the decision's rules)."""
        every = (*self.menu.offers, *self.menu.refused)
        rules = itertools.chain.from_iterable(o.verdict.rules for o in every)
        if self.spent is not None:
            rules = itertools.chain(rules, self.spent.rules)
        return tuple(dict.fromkeys(rules))


def stand(game: Battlefield, squad: Squad) -> Stand:
    """The facts «Ни шагу назад!» checks (SW-NSN-01); d8 for the Keno Guard (SW-NSN-02)."""
    near = game.nearest_enemy(squad)
    return Stand(
        level=squad.level,
        in_cover=game.in_cover(squad),
        gone_to_ground=squad.prone,
        nearest_friend=game.nearest_friend(squad),
        enemy_levels_in_sight=tuple(e.level for e in game.enemies(squad) if game.sees(squad, e)),
        nearest_enemy=near[1] if near else None,
        keno_guard=squad.spec.keno_guard,
    )


def care(game: Battlefield, squad: Squad) -> Care:
    """The medical help a reorganising squad has (SW-REORG-02): its medic, a friendly
    medical vehicle within 6", a field surgeon."""
    medical = [
        game.distance(squad, v)
        for v in game.friends(squad)
        if v.is_vehicle and vehicle_profile(v.spec.vehicle).medical
    ]
    return care_at_hand(
        squad.spec.medic, min(medical) if medical else None, squad.spec.field_surgeon
    )


def casualty_kind(squad: Squad) -> CasualtyKind:
    """Who the squad's casualties are: androids get no medical bonus (SW-REORG-02)."""
    return CasualtyKind.ANDROID if squad.spec.android else CasualtyKind.HUMAN


def _reach(squad: Squad) -> float:
    reaches = [float(reach_inches(weapon(m.weapon), squad.die)) for m in squad.active() if m.weapon]
    return max(reaches, default=0.0)


def move_score(
    game: Battlefield,
    squad: Squad,
    end: tuple[float, float],
    kind: MoveKind,
    enemies: list[tuple[float, float]] | None = None,
) -> float:
    """Positional value of ending a move at ``end``: cover gained, closing in, in range
    (a bot's tastes, ``[bot]``); ``enemies``: the enemy models' centres, when known."""
    return game.lasting_of(
        lambda: (
            "move_score",
            game.shape(squad),
            game.enemy_board(squad),
            end,
            kind,
            squad.level,
            squad.suppressed,
        ),
        lambda: _move_score(game, squad, end, kind, enemies),
    )


def _move_score(
    game: Battlefield,
    squad: Squad,
    end: tuple[float, float],
    kind: MoveKind,
    enemies: list[tuple[float, float]] | None,
) -> float:
    here = game.kept(
        ("cover_score", squad.id), lambda: moves.cover_score(game.tape.standing(squad.centre))
    )
    score = moves.cover_score(game.tape.standing(end)) - here
    now = moves.enemy_distance_now(game, squad, enemies)
    after = moves.distance_to_enemy(game, squad, end, enemies)
    if now is not None and after is not None:
        if squad.level.at_least(MoraleLevel.SHAKEN) and not squad.suppressed:
            score += weight("closing_per_inch") * (now - after)
            reach = game.kept(("reach", squad.id), lambda: _reach(squad))
            sights = game.kept(  # (each enemy's centre and eye: alike for every move)
                ("enemy_anchors", squad.side),
                lambda: [(e.centre, e.anchor().centre) for e in game.enemies(squad)],
            )
            if any(
                math.dist(end, centre) <= reach and game.tape.sees(end, eye)
                for centre, eye in sights
            ):
                score += weight("in_range")
        else:
            score += weight("closing_per_inch") * (after - now)
    if kind is MoveKind.OBJECTIVE and game.objectives:
        score += weight("objective")
    if kind is MoveKind.RETREAT and not squad.level.at_least(MoraleLevel.SHAKEN):
        score += weight("objective")
    return score


def _scored(
    game: Battlefield,
    squad: Squad,
    end: tuple[float, float],
    kind: MoveKind,
) -> Callable[[], AnyForecast]:
    """A move's :func:`move_score` as a forecast, to be measured when read."""
    return lambda: Forecast(score=move_score(game, squad, end, kind))


#: :func:`~kubik.rulesets.steel_war.movement.may_move`, asked once per situation, move
#: and terrain (a menu asks it of every goal and kind of move, often alike).
_may_move = deciding_cache(2048)(may_move)


def move_offers(
    game: Battlefield, squad: Squad, done: tuple[ActionType, ...], passed: bool
) -> list[tuple[Move, Verdict, AnyForecast]]:
    """Moves, marches and combat moves toward each goal, with the movement rule's verdict
    and the reaction tests it asks for first, in order."""
    out: list[tuple[Move, Verdict, AnyForecast]] = []
    offered: set[tuple[object, ...]] = set()  # (each move's fields: hashed in C)
    unit = game.situation(squad, done, passed=passed)
    near = game.nearest_enemy(squad)
    for kind, goal, how, found in moves.menu_plans(game, squad, near):
        order = moves.order_for(game, squad, found.end, kind, how, in_cover=unit.in_cover)
        verdict = _may_move(unit, order, found.terrain)
        tests = needed_tests(verdict)
        end = found.end
        fields: tuple[MoveKind, MoveHow, float, float, float, tuple[ReactionAction, ...]]
        if how is MoveHow.COMBAT:
            fields = (kind, how, round(goal[0], 1), round(goal[1], 1), 0.0, tests)
        else:
            fields = (kind, how, end[0], end[1], found.moved, tests)
        if fields in offered:
            continue
        offered.add(fields)
        option = Move(*fields)
        if how is MoveHow.COMBAT:
            per_inch = weight("closing_per_inch") if kind is not MoveKind.RETREAT else 0.0
            forecast: AnyForecast = combat_move_forecast(found.terrain, per_inch, 0.0)
        elif verdict.allowed:
            forecast = Forecast(score=move_score(game, squad, end, kind))
        else:  # (a refused move shows its verdict alone: its worth is seldom read)
            forecast = LazyForecast(_scored(game, squad, end, kind))
        out.append((option, verdict, forecast))
    return out


def fire_offers(
    game: Battlefield, squad: Squad, done: tuple[ActionType, ...], passed: bool
) -> list[tuple[Fire, Verdict, AnyForecast, float]]:
    """A fire at each enemy it sees with each set of its weapons that may fire: the fire
    rule's verdict with the observation rule's (a hiding target must be spotted first).
    A refused fire needs only the distance: its cover and odds are measured when read."""
    out: list[tuple[Fire, Verdict, AnyForecast, float]] = []
    armed: list[shooting.Armed] | None = None
    verdicts: dict[tuple[bool, bool, bool], Verdict] = {}  # (by what the rules read)
    for enemy in game.enemies(squad):
        if not game.sees(squad, enemy):
            continue
        if armed is None:
            armed = shooting.armed(squad)
        asked = (enemy.id in squad.shot_by, game.hidden(enemy), squad.side in enemy.spotted_by)
        verdict = verdicts.get(asked)
        if verdict is None:
            verdict = verdicts[asked] = Verdict.combine(
                shooting.shoot_verdict(game, squad, done, passed=passed, shot_at_us=asked[0]),
                may_fire_at(asked[1], asked[2]),
            )
        distance = game.distance(squad, enemy)
        can = shooting.ready(squad, distance, armed)
        if not verdict.allowed:
            if shooting.in_zone(squad, distance):  # (else no plan: nothing to offer)
                for weapons in shooting.choices(squad, distance, can):
                    lazy = LazyForecast(_fire_forecast(game, squad, enemy, weapons, can))
                    out.append((Fire(enemy.id, weapons), verdict, lazy, distance))
            continue
        sight = game.sight(squad, enemy)
        for weapons in shooting.choices(squad, distance, can):
            plan = shooting.plan_fire(game, squad, enemy, sight, weapons, can)
            if plan is None:
                continue
            option = Fire(enemy.id, weapons)
            out.append((option, verdict, fire_forecast(plan.group, plan.target), distance))
    out.sort(key=lambda item: item[3])
    return out


def _fire_forecast(
    game: Battlefield,
    squad: Squad,
    enemy: Squad,
    weapons: tuple[str, ...],
    can: list[Model],
) -> Callable[[], AnyForecast]:
    """A refused fire's forecast, measured when read: the one an allowed fire holds."""

    def make() -> AnyForecast:
        plan = shooting.plan_fire(game, squad, enemy, game.sight(squad, enemy), weapons, can)
        assert plan is not None  # (seen within zone 5, with weapons that may fire)
        return fire_forecast(plan.group, plan.target)

    return make


def build(
    game: Battlefield, squad: Squad, done: tuple[ActionType, ...], *, passed: bool = False
) -> Offered:
    """Every option of ``squad``'s next action, and the default."""
    if squad.aboard is not None:
        return _rider(game, squad, done, passed)
    unit = game.situation(squad, done, passed=passed)
    left = any_action_verdict(unit.done, panicked=unit.panicked, passed=unit.passed)
    if not left.allowed:
        return _spent(game, squad, left)
    menu: Menu[Option] = Menu()
    fires = fire_offers(game, squad, done, passed)
    for option, verdict, forecast, _ in fires:
        menu.offer(option, option.label(game.name), verdict, forecast)
    for observe, verdict, forecast in spotting.observe_offers(game, squad, done, passed):
        menu.offer(observe, observe.label(game.name), verdict, forecast)
    if squad.markers:
        rally = Act(Kind.UNSUPPRESS)
        menu.offer(
            rally,
            rally.label(game.name),
            may_unsuppress(unit),
            unsuppress_forecast(squad.die, squad.leadership, squad.markers),
        )
    wounded = len(squad.with_status(Status.UNVERIFIED))
    apart = bool(  # (its models' places alone decide it: kept while they stand)
        game.lasting_of(
            lambda: ("breaches", game.shape(squad), squad.commander),
            lambda: effects.breaches(squad),
        )
    )
    if (wounded or apart) and not squad.is_vehicle:
        regroup = Act(Kind.REORGANISE)
        menu.offer(
            regroup,
            regroup.label(game.name),
            may_reorganise(unit),
            reorganise_forecast(wounded, care(game, squad), weight("coherency") if apart else 0.0),
        )
    for inspire, verdict, forecast in command.inspire_offers(game, squad, done, passed):
        menu.offer(inspire, inspire.label(game.name), verdict, forecast)
    if not passed:
        for hand, verdict, forecast in command.pass_offers(game, squad, done, {}):
            menu.offer(hand, hand.label(game.name), verdict, forecast)
    for psi, verdict, forecast in psionics.psi_offers(game, squad, done, passed):
        menu.offer(psi, psi.label(game.name), verdict, forecast)
    for charge, verdict, forecast in assault.charge_offers(game, squad, done, passed):
        menu.offer(charge, charge.label(game.name), verdict, forecast)
    for unload, verdict in carry.unload_options(game, squad, done):
        menu.offer(
            unload, unload.label(game.name), verdict, Forecast(score=weight("gun_in_action"))
        )
    if squad.is_vehicle:
        for leave, verdict in carry.disembark_options(
            game, squad, game.passengers(squad), squad, done
        ):
            menu.offer(
                leave, leave.label(game.name), verdict, Forecast(score=_unload_score(game, squad))
            )
    for embark, vehicle in carry.embark_options(game, squad):
        menu.offer(
            embark,
            embark.label(game.name),
            carry.embark_verdict(game, squad, vehicle, done),
            Forecast(score=weight("embark")),
        )
    movement = move_offers(game, squad, done, passed)
    for move, verdict, forecast in movement:
        menu.offer(move, move.label(game.name), verdict, forecast)
    if not squad.is_vehicle:
        up = Act(Kind.GET_UP)
        if squad.prone:
            menu.offer(up, up.label(game.name), may_get_up(unit), Forecast(score=0.0))
        down = Act(Kind.GO_TO_GROUND)
        test = (
            ReactionAction.GO_TO_GROUND_OTHER if unit.in_cover else ReactionAction.GO_TO_GROUND_OPEN
        )
        ground = may_go_to_ground(unit)
        make = _ground_forecast(game, squad, test)
        menu.offer(
            down, down.label(game.name), ground, make() if ground.allowed else LazyForecast(make)
        )
        _offer_stand_fast(game, squad, menu)
    legal_moves = [m for m in movement if m[1].allowed]
    _offer_end(game, squad, menu, must_move=bool(legal_moves))
    return Offered(menu, _default(game, squad, menu, fires, legal_moves))


def _ground_forecast(
    game: Battlefield, squad: Squad, test: ReactionAction
) -> Callable[[], AnyForecast]:
    """Going to ground's odds (SW-FIRE-07), the enemies that see the squad counted when
    read (a refused one's are not: only its verdict is shown)."""

    def make() -> AnyForecast:
        seen_by = sum(1 for e in game.enemies(squad) if game.sees(e, squad))
        threat = reaction_threat(test)
        return ground_forecast(squad.die, squad.leadership, threat, squad.berserk, seen_by)

    return make


def _spent(game: Battlefield, squad: Squad, spent: Verdict) -> Offered:
    """The menu of a spent activation (SW-CORE-04): what costs no action — «Ни шагу
    назад!» and ending it (``spent`` refuses the rest, so no way or shot is measured)."""
    menu: Menu[Option] = Menu()
    if not squad.is_vehicle:
        _offer_stand_fast(game, squad, menu)
    _offer_end(game, squad, menu, must_move=False)
    return Offered(menu, _default(game, squad, menu, [], []), spent)


def _offer_stand_fast(game: Battlefield, squad: Squad, menu: Menu[Option]) -> None:
    """«Ни шагу назад!» (SW-NSN-01), declared without spending an action. The rule reads
    the facts only as far as they decide it (it is refused almost always: a friend
    within 12" or too few enemies in sight); a refused test's odds are measured when read."""
    verdict = may_stand_fast_from(
        squad.level,
        sheltered=game.in_cover(squad) or squad.prone,
        friend_distances=(game.distance(squad, f) for f in game.friends(squad)),
        enemy_levels_in_sight=(e.level for e in game.enemies(squad) if game.sees(squad, e)),
        berserk=squad.berserk,
        panicked=squad.panicked,
    )
    men = len(squad.men())
    make = _stand_forecast(game, squad, men)
    fast = Act(Kind.NO_STEP_BACK)
    menu.offer(
        fast, fast.label(game.name), verdict, make() if verdict.allowed else LazyForecast(make)
    )


def _stand_forecast(game: Battlefield, squad: Squad, men: int) -> Callable[[], AnyForecast]:
    """The «Ни шагу назад!» test's odds on every fact of :func:`stand`, when read."""
    return lambda: stand_forecast(stand(game, squad), men)


def _offer_end(game: Battlefield, squad: Squad, menu: Menu[Option], *, must_move: bool) -> None:
    """Ending the activation: refused while the morale level orders a move that may be
    made (SW-MOR-01)."""
    end = Act(Kind.END)
    must = level_orders(squad.level).must_move and must_move
    menu.offer(
        end,
        end.label(game.name),
        Verdict.of(not must, msg("steel_war.permission.must_move", level=squad.level), "SW-MOR-01"),
        Forecast(score=0.0),
    )


def _unload_score(game: Battlefield, vehicle: Squad) -> float:
    """Getting the riders out is worth more the nearer the enemy (a taste)."""
    near = game.nearest_enemy(vehicle)
    close = near is not None and near[1] <= weight("disembark_within_inches")
    return weight("disembark_near_enemy") if close or vehicle.immobilised else -0.05


def _rider(game: Battlefield, squad: Squad, done: tuple[ActionType, ...], passed: bool) -> Offered:
    """A squad inside a vehicle may only get off (one action, SW-MOVE-04) or wait."""
    vehicle = game.squad(squad.aboard) if squad.aboard else squad
    menu: Menu[Option] = Menu()
    for leave, verdict in carry.disembark_options(game, vehicle, [squad], squad, done):
        menu.offer(
            leave, leave.label(game.name), verdict, Forecast(score=_unload_score(game, vehicle))
        )
    end = Act(Kind.END)
    menu.offer(end, end.label(game.name), Verdict.neutral(), Forecast(score=0.0))
    default = menu.options[0] if len(menu) > 1 and _unload_score(game, vehicle) > 0 else end
    return Offered(menu, default)


def _default(
    game: Battlefield,
    squad: Squad,
    menu: Menu[Option],
    fires: list[tuple[Fire, Verdict, AnyForecast, float]],
    legal_moves: list[tuple[Move, Verdict, AnyForecast]],
) -> Option:
    """What a player who does not think long does: fire everything at the nearest target;
    rally a suppressed squad; settle many wounded; observe a hidden enemy; else take the
    best-placed move; else stop."""
    options = menu.options  # (an allowed option is on offer: the menu offers it or fails)
    for option, verdict, _, _ in fires:
        if verdict.allowed:
            return option
    for kind in (Kind.UNSUPPRESS, Kind.REORGANISE):
        if Act(kind) in menu:
            return Act(kind)
    strikes = [o for o in options if isinstance(o, Psi) and o.act is PsiAction.STRIKE]
    if strikes:
        return strikes[0]  # a psionic with nothing to fire at strikes the nearest enemy
    observes = [o for o in options if isinstance(o, Observe)]
    if observes:
        return observes[0]
    scored = [(m, f.score) for m, v, f in legal_moves if m.how is not MoveHow.COMBAT]
    end = Act(Kind.END)
    if scored:
        best = max(scored, key=lambda item: item[1])
        if best[1] > 0 or end not in menu:
            return best[0]
    return end if end in menu else options[0]


__all__ = ["Offered", "build", "care", "casualty_kind", "move_score", "stand"]
