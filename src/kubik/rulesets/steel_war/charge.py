"""Steel War charge («атакую!»): the enhanced reaction test, the charge move, the second
attempt after the defender's free fire, and the charged squad's morale test.

The defender's free fire is a shooting rule, not ours: the charge takes its result
either as a number of casualties or as a :class:`DefensiveFire` — any procedure
plus a function reducing its outcome to casualties — which it Calls at the point
the fire happens (SW-CC-04).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from typing import Any

from kubik.core.errors import InputError
from kubik.core.keeping import Kept
from kubik.engine import Call, Emit, Procedure, Verdict, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import Die
from kubik.engine.memo import by_identity
from kubik.engine.requests import AnyCall, RuleIds, tail_step
from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war.activation import ActionType
from kubik.rulesets.steel_war.core import leadership_test
from kubik.rulesets.steel_war.fire import FireOutcome, may_shoot
from kubik.rulesets.steel_war.melee_fighters import can_fight_in_melee
from kubik.rulesets.steel_war.melee_morale import fall_back_inches
from kubik.rulesets.steel_war.morale import MoraleTestOutcome, morale_test
from kubik.rulesets.steel_war.morale_levels import MoraleLevel, Motivation, Order
from kubik.rulesets.steel_war.movement import TerrainClass, combat_move
from kubik.rulesets.steel_war.movers import MoverType
from kubik.rulesets.steel_war.no_step_back import berserk_effects
from kubik.rulesets.steel_war.reaction import (
    ReactionAction,
    reaction_rules,
    reaction_threat,
    reaction_verdict,
)
from kubik.rulesets.steel_war.situation import UnitSituation, all_of, basic_verdict
from kubik.rulesets.steel_war.threat import PlusFactor, plus_threat


@cache
def _data() -> Mapping[str, Any]:
    return load_ruleset_data("steel_war")


@cache  # pure, its data read once per process: asked on every menu and replay
def never_charges(morale: MoraleLevel) -> bool:
    """Broken and Fleeing squads never charge, whatever happens (SW-CC-02).

    >>> never_charges(MoraleLevel.BROKEN), never_charges(MoraleLevel.SHAKEN)
    (True, False)
    """
    return morale.value in _data()["charge_test"]["never_charge"]


def charge_threat(morale: MoraleLevel) -> int | None:
    """Threat of the charge's enhanced reaction test; None: the squad never charges (SW-CC-02).

    >>> charge_threat(MoraleLevel.STEADY), charge_threat(MoraleLevel.SHAKEN)
    (1, 3)
    >>> charge_threat(MoraleLevel.BROKEN) is None
    True
    """
    if never_charges(morale):
        return None
    return reaction_threat(ReactionAction.CHARGE, morale)


@cache  # pure, its data read once per process: asked on every menu and replay
def reach_inches() -> float:
    """How close the charge must end to have reached the enemy: 2" (SW-CC-03)."""
    return float(_data()["charge_reach"]["inches"])


def charge_reached(remaining: float) -> bool:
    """A charge has reached when it ends 2" or less from the enemy (SW-CC-03).

    >>> charge_reached(2), charge_reached(2.5)
    (True, False)
    """
    return remaining <= reach_inches()


def same_charge_distance(distance: float) -> float:
    """The distance that gives a charge from ``distance`` inches the same outcomes.

    Combat moves are whole inches and a charge reaches within 2" (SW-CC-03), so every
    distance with the same whole number of inches still to cover goes the same way:
    odds may share one distribution for all of them.

    >>> same_charge_distance(7.3), same_charge_distance(8.0), same_charge_distance(0.4)
    (8.0, 8.0, 1.0)
    """
    reach = reach_inches()
    return float(max(math.ceil(distance - reach) + reach, 0.0))


@cache  # pure, its data read once per process: asked on every menu and replay
def second_attempt_threat(casualties: int) -> int | None:
    """Threat of the test after the free fire: +1 per casualty; None: no test needed (SW-CC-04).

    >>> second_attempt_threat(2), second_attempt_threat(0) is None
    (2, True)
    """
    table = _data()["charge_second_attempt"]
    if casualties == 0 and not table["test_without_casualties"]:
        return None
    return casualties * int(table["threat_per_casualty"])


def fire_casualties(outcome: FireOutcome) -> int:
    """Attackers the free fire put down: wounded and killed, the only effect it may have
    (SW-CC-04: «подавить их при этом нельзя, считается только нанесение потерь»).

    >>> from kubik.rulesets.steel_war.fire import Effect
    >>> fire_casualties(FireOutcome(Effect.HITS, 3, 1, 1))
    2
    """
    return outcome.wounded + outcome.killed


@dataclass(frozen=True, slots=True)
class DefensiveFire:
    """The defender's free fire at a charge that fell short (SW-CC-04).

    ``procedure(*args, remaining)`` resolves the fire (it must not suppress: only
    casualties count); ``remaining`` is how many inches the attackers still had to go
    when their move stopped, so the fire is measured from where they stand.
    ``casualties`` maps its outcome to the number of attackers hit
    (:func:`fire_casualties` for a fire action's outcome).
    """

    procedure: Callable[..., Procedure[Any]]
    args: tuple[Hashable, ...]
    casualties: Callable[[Any], int] = fire_casualties


@dataclass(frozen=True, slots=True)
class ChargeOutcome:
    """How the charge went.

    ``declared``: the enhanced reaction test passed; ``reached``: the attackers got
    within 2"; ``fell_short``: the first move did not reach, so the defender had its
    free fire; ``suppressed``: the test after that fire failed — the attackers are
    suppressed and back at their starting positions; ``remaining``: a charge that
    moved and did not reach stopped this many inches from the enemy, and the attackers
    stay there (SW-CC-04 default); 0 otherwise.
    """

    declared: bool
    reached: bool
    fell_short: bool
    suppressed: bool
    remaining: float = 0.0


def charge_test(
    quality: Die, leadership: int, threat: int, asked: str, told: str, rules: RuleIds
) -> Procedure[bool]:
    """One of the charge's tests, rolled by the attackers: the enhanced reaction test
    (SW-CC-02) or the second attempt after the free fire (SW-CC-04); ``asked`` and
    ``told`` are the messages of the roll and of its result. The log tells the roll; the
    charge goes on by whether it passed alone (so its odds branch on that, not on every
    face of the die)."""
    target = leadership + threat
    passed, roll = yield from leadership_test(
        quality,
        leadership,
        threat,
        msg(asked, target=target, leadership=leadership, threat=threat),
        roller="attacker",
        rules=rules,
    )
    yield emit(told, rules=rules, roll=roll, target=target, passed=passed)
    return passed


@by_identity
def _charge_test_call(quality: Die, leadership: int, threat: int, again: bool) -> AnyCall:
    """The charge's reaction test (SW-CC-02), or the test to go on after the free fire
    (SW-CC-04): built once, as exact odds replay a charge often."""
    if again:
        return Call(
            charge_test,
            (
                quality,
                leadership,
                threat,
                "steel_war.charge.retest",
                "steel_war.charge.retest_result",
                ("SW-CC-04",),
            ),
        )
    return Call(
        charge_test,
        (
            quality,
            leadership,
            threat,
            "steel_war.charge.test",
            "steel_war.charge.test_result",
            reaction_rules(ReactionAction.CHARGE),
        ),
    )


#: :func:`_free_fire_call`'s calls by the fire's id and the inches left, the fire kept
#: (so its id is its own while remembered).
_FREE_FIRES: Kept[tuple[int, float, float], tuple[DefensiveFire, AnyCall]] = Kept(256)


def _free_fire_call(fire: DefensiveFire, remaining: float) -> AnyCall:
    """The free fire at attackers ``remaining`` inches short (built once per fire and
    distance: exact odds replay a charge once per branch, each time with that fire)."""
    key = (id(fire), remaining, math.copysign(1.0, remaining))  # (0.0 and -0.0 apart)
    known = _FREE_FIRES.get(key)
    if known is not None and known[0] is fire:
        return known[1]
    made = Call(fire.procedure, (*fire.args, remaining), reduce=fire.casualties)
    _FREE_FIRES.keep(key, (fire, made))
    return made


@cache
def _combat_move_call(terrain: TerrainClass) -> AnyCall:
    """A charge's combat move over ``terrain`` (built once per class of ground)."""
    return Call(combat_move, (terrain,))


def charge(
    quality: Die,
    leadership: int,
    morale: MoraleLevel,
    distance: float,
    terrain: TerrainClass = TerrainClass.EASY,
    fire: DefensiveFire | int = 0,
) -> Procedure[ChargeOutcome]:
    """Declare a charge, move, and after a short move face the free fire and try again.

    ``distance``: inches to the enemy; ``terrain``: the class of the ground crossed,
    for the attackers (SW-MOVE-02); ``fire``: the free fire's casualties, or the fire.
    """
    if distance < 0:
        raise InputError(f"distance: must be 0 or more inches, not {distance}")
    threat = charge_threat(morale)
    if threat is None:
        yield emit("steel_war.charge.refused", rules=("SW-CC-02", "SW-MOR-01"), morale=morale)
        return ChargeOutcome(False, False, False, False)
    passed: bool = yield _charge_test_call(quality, leadership, threat, False)
    if not passed:
        return ChargeOutcome(False, False, False, False)
    if _charge_moves() < 1:
        return ChargeOutcome(True, False, True, False, distance)
    outcome: ChargeOutcome = yield tail_step(
        charge_move, quality, leadership, terrain, fire, distance, 0
    )
    return outcome


def charge_move(
    quality: Die,
    leadership: int,
    terrain: TerrainClass,
    fire: DefensiveFire | int,
    remaining: float,
    attempt: int,
) -> Procedure[ChargeOutcome]:
    """One move of a declared charge, ``remaining`` inches from the enemy (SW-CC-03);
    after a short move (``attempt`` > 0) the free fire and the test to go on come first
    (SW-CC-04). The last step of :func:`charge` and of the move before it, so exact odds
    keep a charge's later moves by the inches left instead of replaying what came before
    for each of their outcomes."""
    if attempt > 0:
        casualties = fire if isinstance(fire, int) else None
        if casualties is None:
            assert isinstance(fire, DefensiveFire)
            casualties = yield _free_fire_call(fire, remaining)
        yield emit("steel_war.charge.free_fire", rules="SW-CC-04", casualties=casualties)
        second = second_attempt_threat(casualties)
        if second is not None:
            again: bool = yield _charge_test_call(quality, leadership, second, True)
            if not again:
                return ChargeOutcome(True, False, True, True)
    outcome: ChargeOutcome = yield tail_step(
        charge_roll, quality, leadership, terrain, fire, remaining, attempt
    )
    return outcome


def charge_roll(
    quality: Die,
    leadership: int,
    terrain: TerrainClass,
    fire: DefensiveFire | int,
    remaining: float,
    attempt: int,
) -> Procedure[ChargeOutcome]:
    """The combat move of one move of a charge (SW-CC-03): the last step of
    :func:`charge_move`, so exact odds keep its outcomes by the inches left instead of
    replaying the free fire and the test before it for each. The charge's last move is
    a tail call whose roll maps straight to the charge's outcome."""
    if attempt + 1 >= _charge_moves():
        last = _last_move_call(terrain, remaining, attempt > 0)
        rolled: int = yield last
        ended: ChargeOutcome = last.promised(rolled)
        yield _moved_event(rolled, max(remaining - rolled, 0.0))
        return ended
    moved: int = yield _combat_move_call(terrain)
    remaining = max(remaining - moved, 0.0)
    yield _moved_event(moved, remaining)
    if charge_reached(remaining):
        return ChargeOutcome(True, True, attempt > 0, False)
    outcome: ChargeOutcome = yield tail_step(
        charge_move, quality, leadership, terrain, fire, remaining, attempt + 1
    )
    return outcome


def _moved_event(moved: int, remaining: float) -> Emit:
    """A charge's move, for the log: how far, how far from the enemy, whether it reached."""
    return emit(
        "steel_war.charge.moved",
        rules=("SW-CC-03",),
        moved=moved,
        remaining=remaining,
        reached=charge_reached(remaining),
    )


@dataclass(frozen=True, slots=True)
class _LastMove:
    """How a charge's last move ends, ``remaining`` inches from the enemy before it
    (``again``: after a short first move): reached, or stopped short where it stands."""

    remaining: float
    again: bool

    def __call__(self, moved: int) -> ChargeOutcome:
        remaining = max(self.remaining - moved, 0.0)
        if charge_reached(remaining):
            return ChargeOutcome(True, True, self.again, False)
        return ChargeOutcome(True, False, True, False, remaining)


#: :func:`_last_move_call`'s calls, by all they read (the inches left told apart by type
#: and sign, as an outcome shows them: 4 is not 4.0, nor -0.0 0.0).
_LAST_MOVES: Kept[tuple[TerrainClass, float, type, float, bool], AnyCall] = Kept(256)


def _last_move_call(terrain: TerrainClass, remaining: float, again: bool) -> AnyCall:
    """A charge's last combat move as its step's tail call (built once per ground and
    inches left: exact odds replay the charge often)."""
    key = (terrain, remaining, type(remaining), math.copysign(1.0, remaining), again)
    known = _LAST_MOVES.get(key)
    if known is None:
        made = Call(combat_move, (terrain,), tail=True, then=_LastMove(remaining, again))
        known = _LAST_MOVES.keep(key, made)
    return known


@cache
def _charge_moves() -> int:
    """How many moves a charge may make to reach (SW-CC-03/04; read once)."""
    return int(_data()["charge_reach"]["moves"])


def outnumbering_threat(attackers: int, defenders: int, cavalry_with_blades: int = 0) -> int:
    """Threat from numbers: +1 if more, +2 if twice as many, +3 if thrice… (SW-CC-05).

    A cavalryman charging «в клинки» counts as two infantrymen (SW-ABSENT-07).

    >>> outnumbering_threat(5, 5), outnumbering_threat(6, 5), outnumbering_threat(10, 5)
    (0, 1, 2)
    >>> outnumbering_threat(3, 5, cavalry_with_blades=3)
    1
    """
    if defenders < 1:
        raise InputError("defenders: at least one defender must be charged")
    if not 0 <= cavalry_with_blades <= attackers:
        raise InputError("cavalry_with_blades: between 0 and the number of attackers")
    table = _data()["charge_numbers"]
    weight = int(table["cavalry_with_blades_counts"])
    strength = attackers - cavalry_with_blades + weight * cavalry_with_blades
    if strength <= defenders:
        return 0
    return max(int(table["minimum"]), strength // defenders)


@decides("SW-CC-11")
def is_frightening(
    frightening: bool = False,
    cavalry_with_blades: int = 0,
    *,
    keno_guard: bool = False,
    berserk: bool = False,
) -> bool:
    """Whether the attackers are «страшные» (SW-CC-11): flagged so by their army list
    (``frightening``: «и так далее»), the Keno Guard, cavalry charging «в клинки», or
    soldiers in «Ни шагу назад!» (berserk, SW-NSN-03).

    >>> is_frightening(False, 2), is_frightening(False, 0), is_frightening(berserk=True)
    (True, False, True)
    """
    table = _data()["frightening"]
    return (
        frightening
        or (bool(table["keno_guard"]) and keno_guard)
        or (bool(table["cavalry_with_blades"]) and cavalry_with_blades > 0)
        or (berserk and berserk_effects().frightening)
    )


def defender_threat(
    attackers: int,
    defenders: int,
    *,
    cavalry_with_blades: int = 0,
    other_threat: int = 0,
    frightening: bool = False,
) -> int:
    """Threat of the charged squad's morale test: numbers + other factors, doubled if frightening.

    >>> defender_threat(6, 3, other_threat=1, frightening=True)
    6
    """
    if other_threat < 0:
        raise InputError("other_threat: must be 0 or more")
    threat = outnumbering_threat(attackers, defenders, cavalry_with_blades) + other_threat
    if is_frightening(frightening, cavalry_with_blades):
        threat *= int(_data()["frightening"]["threat_multiplier"])
    return threat


@decides("SW-CC-05", "SW-MOR-06")
def charged_squad_threat(
    attackers: int,
    defenders: int,
    motivation: Motivation,
    *,
    unverified: int = 0,
    wounded_left_behind: bool = False,
    under_artillery: bool = False,
    frightening: bool = False,
    cavalry_with_blades: int = 0,
) -> int:
    """The charged squad's whole threat: the numbers, every "+" row of the threat table that
    applies to it (unverified casualties, wounded left behind, artillery), all doubled
    against frightening attackers (SW-CC-05, SW-MOR-06, SW-CC-11).

    >>> charged_squad_threat(6, 3, Motivation.LOW, unverified=1, frightening=True)
    6
    """
    other = plus_threat(
        motivation,
        {
            PlusFactor.UNVERIFIED_CASUALTY: unverified,
            PlusFactor.WOUNDED_LEFT_BEHIND: int(wounded_left_behind),
            PlusFactor.ARTILLERY: int(under_artillery),
        },
    )
    return defender_threat(
        attackers,
        defenders,
        cavalry_with_blades=cavalry_with_blades,
        other_threat=other,
        frightening=frightening,
    )


def defender_rules(
    frightening: bool, cavalry_with_blades: int = 0, *, threat_table: bool = True
) -> RuleIds:
    """The rules of the charged squad's morale test (for the log): the numbers, the
    threat table's "+" rows by motivation (``threat_table``), frightening attackers
    (SW-CC-11), cavalry «в клинки» (SW-ABSENT-07).

    >>> defender_rules(True)
    ('SW-CC-05', 'SW-MOR-06', 'SW-MOR-07', 'SW-MOR-03', 'SW-CC-11')
    """
    rules = ["SW-CC-05"]
    if threat_table:
        rules += ["SW-MOR-06", "SW-MOR-07", "SW-MOR-03"]
    if frightening:
        rules.append("SW-CC-11")
    if cavalry_with_blades:
        rules.append("SW-ABSENT-07")
    return tuple(rules)


@dataclass(frozen=True, slots=True)
class DefenderMoraleOutcome:
    """The charged squad's test: levels dropped, and whether it stands to fight (SW-CC-05)."""

    drop: int
    melee: bool


def defender_morale(
    quality: Die, leadership: int, threat: int, rules: RuleIds = ("SW-CC-05",)
) -> Procedure[DefenderMoraleOutcome]:
    """The charged squad tests morale; failing, it drops and moves back 6" from the attackers.

    ``rules``: what made the threat (:func:`defender_rules`), for the log.
    """
    result: MoraleTestOutcome = yield Call(morale_test, (quality, leadership, threat, rules))
    if result.drop:
        inches = fall_back_inches(after_charge=True)
        yield emit(
            "steel_war.defender_morale.falls_back",
            rules=("SW-CC-05", "SW-MOR-01"),
            inches=inches,
            drop=result.drop,
        )
        return DefenderMoraleOutcome(result.drop, False)
    yield emit("steel_war.defender_morale.stands", rules="SW-CC-05")
    return DefenderMoraleOutcome(0, True)


@decides()
def may_free_fire(unit: UnitSituation, *, target_shot_at_us: bool = False) -> Verdict:
    """May the charged squad take its free action to fire at attackers whose charge fell
    short (SW-CC-04)? The action is given to it outside its own activation
    («бесплатное действие»), so nothing of that activation counts — the actions it took,
    a march (which only bars firing in the same activation, SW-MOVE-01), an action passed
    to it — while the fire rule's own questions still do: suppression (SW-SUP-01), its
    morale level (SW-MOR-01), being locked in close combat (SW-CC-09).

    >>> from kubik.rulesets.steel_war.situation import UnitSituation
    >>> may_free_fire(UnitSituation(marched=True, done=(ActionType.MARCH,))).allowed
    True
    >>> may_free_fire(UnitSituation(markers=1)).allowed
    False
    """
    outside = replace(unit, done=(), marched=False, passed=False)
    return Verdict.combine(
        Verdict.allow("SW-CC-04"), may_shoot(outside, target_shot_at_us=target_shot_at_us)
    )


@decides()
def may_hold_fire() -> Verdict:
    """The free action at a charge that fell short is given to the defender
    («атакованному даётся одно „бесплатное действие“», SW-CC-04): it may also let it go.

    >>> may_hold_fire().rules
    ('SW-CC-04',)
    """
    return Verdict.allow("SW-CC-04")


@decides()
def may_charge(
    unit: UnitSituation,
    target: MoverType = MoverType.INFANTRY,
    *,
    distance: float | None = None,
    target_in_melee: bool = False,
) -> Verdict:
    """May ``unit`` declare «атакую!» against a ``target`` of this kind now?

    Only infantry and cavalry fight in close combat, and only they can be charged
    (SW-CC-01 and its default); Broken and Fleeing squads never charge, the others take
    the enhanced reaction test first — By may charge though it may not otherwise
    approach the enemy (SW-CC-02). A charge takes the whole activation (SW-CORE-04),
    is not among a suppressed squad's actions (SW-SUP-01), and a squad gone to ground
    must pass the reaction test to move without getting up as well (SW-FIRE-07), taken
    before the charge's own. By default the enemy is at most 12" away (``distance``)
    and not already locked in another close combat (``target_in_melee``, SW-CC-03/06
    defaults).
    """
    within = distance is None or distance <= _max_declare_inches()
    return _may_charge(unit, target, within, target_in_melee)


@cache
def _max_declare_inches() -> float:
    """How far off a charge may be declared (SW-CC-03 default; read once)."""
    return float(_data()["charge_reach"]["max_declare_inches"])


@lru_cache(maxsize=4096)
def _may_charge(
    unit: UnitSituation, target: MoverType, within: bool, target_in_melee: bool
) -> Verdict:
    """:func:`may_charge` once the distance is read (``within``: at most the declaring
    distance): remembered, as every menu asks it of every enemy in sight."""
    reach = _data()["charge_reach"]
    verdicts = [
        Verdict.of(
            within,
            msg("steel_war.permission.charge_too_far", inches=reach["max_declare_inches"]),
            "SW-CC-03",
        ),
        Verdict.of(
            bool(reach["join_melee"]) or not target_in_melee,
            msg("steel_war.permission.target_in_melee"),
            "SW-CC-06",
        ),
        Verdict.of(
            can_fight_in_melee(unit.kind),
            msg("steel_war.permission.cannot_fight", kind=unit.kind),
            "SW-CC-01",
        ),
        Verdict.of(
            can_fight_in_melee(target),
            msg("steel_war.permission.cannot_be_charged", kind=target),
            "SW-CC-01",
        ),
    ]
    if never_charges(unit.level):
        verdicts.append(
            Verdict.forbid(msg("steel_war.permission.never_charge", level=unit.level), "SW-CC-02")
        )
    verdicts.append(basic_verdict(unit, ActionType.CHARGE, Order(ActionType.CHARGE)))
    if unit.prone:
        verdicts.append(
            reaction_verdict(ReactionAction.MOVE_WHILE_DOWN, unit.failed, no_step_back=unit.berserk)
        )
    verdicts.append(reaction_verdict(ReactionAction.CHARGE, unit.failed, no_step_back=unit.berserk))
    return all_of(*verdicts)
