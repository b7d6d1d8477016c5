"""Shooting (FB-ABSENT-02 and the seed's shooting rules): who shoots, the to-hit
roll with its modifiers and 7+ rolls, Multiple shots, Volley fire, Quick and Slow
to fire, Sniper, Light cavalry's fire on the march, hits on a ridden monster.

>>> shooters(ranks_models=(5, 5, 5, 3), volley=True)
(10, 4)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache

from kubik.engine import Call, Procedure, Roll, Verdict, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import D6
from kubik.engine.runs import Runs, odds_by_runs
from kubik.rulesets.fantasy.attacks import AttacksOutcome, Blows, attacks
from kubik.rulesets.fantasy.charts import ShotNeed, data, shooting_modifier, shooting_needed
from kubik.rulesets.fantasy.pools import Successes
from kubik.rulesets.fantasy.psychology import may_act_while_stupid


def shooters(ranks_models: tuple[int, ...], volley: bool) -> tuple[int, int]:
    """(Models shooting normally, models shooting overhead): the first two ranks;
    with Volley fire half of the rest, rounded down, at −1 (FB-SHOOT-04)."""
    normal = sum(ranks_models[:2])
    overhead = sum(ranks_models[2:]) // 2 if volley else 0
    return normal, overhead


def ignores_move_penalty(
    rules: frozenset[str], *, mounted: bool, character_joined: bool
) -> tuple[str, ...]:
    """The rules that cancel the −1 for moving: Quick to fire (FB-SHOOT-01); Light
    cavalry firing on the march, unless a character joined it (FB-MOV-01)."""
    if "quick_to_fire" in rules:
        return ("FB-SHOOT-01",)
    if "light_cavalry" in rules and mounted and not character_joined:
        return ("FB-MOV-01",)
    return ()


@decides()
def may_stand_and_shoot(
    rules: frozenset[str], has_missiles: bool, *, engaged: bool = False
) -> Verdict:
    """Stand and Shoot needs missile weapons, and not Slow to fire (FB-SHOOT-02,
    FB-ABSENT-10); a unit already fighting only holds (FB-ABSENT-10)."""
    if engaged:
        return Verdict.forbid(msg("fantasy.permission.engaged"), "FB-ABSENT-10")
    if not has_missiles:
        return Verdict.forbid(msg("fantasy.permission.no_missiles"), "FB-ABSENT-10")
    if "slow_to_fire" in rules:
        return Verdict.forbid(msg("fantasy.permission.slow_to_fire"), "FB-SHOOT-02")
    return Verdict.allow("FB-ABSENT-10")


@dataclass(frozen=True, slots=True)
class Volley:
    """A unit's shooting at one target: shooters, the shot, the situation, the target."""

    shots: int
    ballistic_skill: int
    strength: int
    target_toughness: int
    overhead_shots: int = 0
    target_armour_save: int | None = None
    target_ward_save: int | None = None
    target_regeneration: int | None = None
    target_wounds: int = 1
    rules: frozenset[str] = field(default_factory=frozenset)
    target_rules: frozenset[str] = field(default_factory=frozenset)
    moved: bool = False
    mounted: bool = False
    character_joined: bool = False
    long_range: bool = False
    single_target: bool = False
    cover: str = "none"
    stand_and_shoot: bool = False
    multiple: int = 1
    ridden_monster: bool = False
    rider_toughness: int = 3
    rider_armour_save: int | None = None
    rider_wounds: int = 1


@dataclass(frozen=True, slots=True)
class VolleyOutcome:
    """Unsaved wounds; at a ridden monster, those on the rider apart."""

    wounds: int
    rider_wounds: int = 0


def shot_need(v: Volley, overhead: bool = False) -> tuple[ShotNeed, tuple[str, ...]]:
    """What each shot needs, and the rules that set it."""
    rules: tuple[str, ...] = ("FB-ABSENT-02",)
    freed = ignores_move_penalty(v.rules, mounted=v.mounted, character_joined=v.character_joined)
    moved = v.moved and not freed
    rules += freed if v.moved else ()
    single = v.single_target and "sniper" not in v.rules
    if v.single_target and "sniper" in v.rules:
        rules += ("FB-SHOOT-03",)
    if v.multiple > 1:
        rules += ("FB-SHOOT-05",)
    if overhead:
        rules += ("FB-SHOOT-04",)
    if v.stand_and_shoot:
        rules += ("FB-ABSENT-10",)
    modifier = shooting_modifier(
        moved=moved,
        long_range=v.long_range,
        single_target=single,
        cover=v.cover,
        stand_and_shoot=v.stand_and_shoot,
        multiple_shots=v.multiple > 1,
        overhead=overhead,
    )
    return shooting_needed(v.ballistic_skill, modifier), rules


def _hits(n: int, need: ShotNeed, rules: tuple[str, ...]) -> Procedure[int]:
    if n <= 0 or need.first is None:
        return 0
    answer = yield _hit_roll("fantasy.shooting.to_hit", n, need.first, str(need), rules)
    hits = int(answer[1])
    if need.second is not None and hits:
        second = need.second
        answer = yield _hit_roll("fantasy.shooting.second", hits, second, second, rules)
        hits = int(answer[1])
    return hits


@lru_cache(maxsize=256)
def _hit_roll(reason: str, n: int, needed: int, told: str | int, rules: tuple[str, ...]) -> Roll:
    """A roll to hit of :func:`_hits`, built once per pool (the exact odds replay a
    volley once per answer, and know a request met before by its identity)."""
    return Roll(
        (D6,) * n,
        msg(reason, dice=n, needed=told),
        unordered=True,
        reduce=Successes(needed),
        rules=rules,
    )


def _wounds_of(outcome: VolleyOutcome) -> tuple[int, int]:
    """What one model's shots add to the volley's wounds: on the unit, on the rider."""
    return (outcome.wounds, outcome.rider_wounds)


@dataclass(frozen=True, slots=True)
class _RiderAtMost:
    """The volley's outcome from its models' wounds added up: the rider loses no more
    than he has left (FB-SR-16); a model's own shots are capped alike, which changes
    nothing in the sum's cap."""

    rider_wounds: int

    def __call__(self, wounds: tuple[int, ...]) -> VolleyOutcome:
        on_unit, on_rider = wounds
        return VolleyOutcome(on_unit, min(on_rider, self.rider_wounds))


def shot_by_shot(v: Volley) -> Runs | None:
    """The volley as each model's shots, rolled alone: every shot hits, strikes the
    rider or his monster, wounds and is saved on its own die (the 7+ second roll too),
    so the volley's wounds are its models' added up, those normally and those
    overhead (another need) apart. None for one model's shots."""
    if v.shots + v.overhead_shots <= 1:
        return None
    normal = replace(v, shots=1, overhead_shots=0)
    overhead = replace(v, shots=0, overhead_shots=1)
    return Runs(
        ((v.shots, (normal,)), (v.overhead_shots, (overhead,))),
        _wounds_of,
        _RiderAtMost(v.rider_wounds),
        most=(None, v.rider_wounds),
    )


@odds_by_runs(shot_by_shot)
def volley(v: Volley) -> Procedure[VolleyOutcome]:
    """Roll to hit with every shot, then to wound and save as blows do (as pools, as
    at the table; the exact odds add up one model's shots, :func:`shot_by_shot`)."""
    need, rules = shot_need(v)
    hits = yield from _hits(v.shots * v.multiple, need, rules)
    if v.overhead_shots:
        over_need, over_rules = shot_need(v, overhead=True)
        hits += yield from _hits(v.overhead_shots * v.multiple, over_need, over_rules)
    yield emit("fantasy.shooting.hits", rules=rules, hits=hits)
    rider_hits = 0
    if v.ridden_monster and hits:
        answer = yield Roll(
            (D6,) * hits,
            msg("fantasy.shooting.ridden", dice=hits),
            unordered=True,
            reduce=Successes(int(data()["ridden_monster"]["monster_at_most"]) + 1),
            rules=("FB-SHOOT-06",),
        )
        rider_hits = int(answer[1])
    if not rider_hits:  # the volley's outcome is its blows', whatever they do
        unridden: VolleyOutcome = yield _unridden_call(v, hits)
        return unridden
    blows = _hits_as_blows(v, hits - rider_hits)
    result: AttacksOutcome = yield Call(attacks, (blows,))
    at_rider = replace(
        blows,
        attacks=rider_hits,
        target_toughness=v.rider_toughness,
        target_armour_save=v.rider_armour_save,
        target_ward_save=None,
        target_regeneration=None,
        target_rules=frozenset(),
        target_wounds=v.rider_wounds,
    )
    on_rider: AttacksOutcome = yield Call(attacks, (at_rider,))
    rider, wasted = rider_takes(on_rider.wounds, v.rider_wounds)
    if wasted:
        yield emit("fantasy.shooting.excess", rules=("FB-SR-16",), wasted=wasted)
    return VolleyOutcome(result.wounds, rider)


def _hits_as_blows(v: Volley, hits: int) -> Blows:
    """The volley's ``hits`` on the unit as blows that hit already, to wound and save."""
    return Blows(
        attacks=hits,
        weapon_skill=1,
        strength=v.strength,
        target_weapon_skill=1,
        target_toughness=v.target_toughness,
        target_armour_save=v.target_armour_save,
        target_ward_save=v.target_ward_save,
        rules=v.rules,
        target_rules=v.target_rules,
        target_regeneration=v.target_regeneration,
        target_wounds=v.target_wounds,
        auto_hit=True,
    )


#: Calls of a volley's blows kept (an engine limit, not a rule).
_CALLS_KEPT = 1024


@lru_cache(maxsize=_CALLS_KEPT)
def _unridden_call(v: Volley, hits: int) -> Call[AttacksOutcome, Blows]:
    """The volley's last request when no hit strikes a rider: its ``hits`` as blows,
    whose outcome is the volley's (a ``tail`` call), built once per volley and hits
    (the exact odds replay a volley once per answer, and know a request met before by
    its identity)."""
    return Call(attacks, (_hits_as_blows(v, hits),), reduce=_unridden, tail=True)


def _unridden(outcome: AttacksOutcome) -> VolleyOutcome:
    """A volley's outcome from its blows when none strike a rider."""
    return VolleyOutcome(outcome.wounds, 0)


def rider_takes(wounds: int, wounds_left: int) -> tuple[int, int]:
    """(Wounds the rider loses, wounds wasted): excess wounds on a rider never pass
    to his mount (FB-SR-16).

    >>> rider_takes(4, 2)
    (2, 2)
    """
    taken = min(wounds, wounds_left)
    return taken, wounds - taken


@decides()
def sniper_may_pick(rules: frozenset[str]) -> Verdict:
    """A Sniper chooses which model of the unit he shoots at (FB-SHOOT-03)."""
    if "sniper" in rules:
        return Verdict.allow("FB-SHOOT-03")
    return Verdict.forbid(msg("fantasy.permission.not_sniper"), "FB-SHOOT-03")


__all__ = [
    "Volley",
    "VolleyOutcome",
    "may_stand_and_shoot",
    "rider_takes",
    "shooters",
    "shot_need",
    "sniper_may_pick",
    "volley",
]


@decides()
def may_shoot(
    *,
    has_missiles: bool,
    engaged: bool,
    fleeing: bool,
    stupid: bool,
    in_range: bool,
    sees: bool,
    marched: bool = False,
    rallied: bool = False,
) -> Verdict:
    """A unit shoots in the Shooting phase with missile weapons at an enemy it sees in
    range, unless it fights, flees or forgot itself (FB-ABSENT-02, FB-PSY-07), marched
    this turn (FB-ABSENT-14) or rallied at its start (FB-ABSENT-11)."""
    if not has_missiles:
        return Verdict.forbid(msg("fantasy.permission.no_missiles"), "FB-ABSENT-02")
    if stupid:
        return may_act_while_stupid(stupid)
    if engaged or fleeing:
        return Verdict.forbid(msg("fantasy.permission.busy"), "FB-ABSENT-19")
    if marched:
        return Verdict.forbid(msg("fantasy.permission.marched"), "FB-ABSENT-14")
    if rallied:
        return Verdict.forbid(msg("fantasy.permission.rallied"), "FB-ABSENT-11")
    if not sees:
        return Verdict.forbid(msg("fantasy.permission.unseen"), "FB-ABSENT-02")
    if not in_range:
        return Verdict.forbid(msg("fantasy.permission.out_of_range"), "FB-ABSENT-02")
    return Verdict.allow("FB-ABSENT-02")
