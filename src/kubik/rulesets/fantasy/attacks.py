"""Blows in close combat (and any hits that roll to wound): FB-ABSENT-01..05 with
every special rule of seed 004 that changes a blow.

Pools, as at the table: roll to hit (re-rolling misses for Hatred or Always
Strikes First), to wound, armour saves, ward saves, regeneration. The seed's
deviations are kept as written: flaming attacks allow no armour save (FB-SR-09),
and Always Strikes First counts from the second round (FB-SR-02, in
:mod:`.strike_order`; its re-roll applies in every round).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from kubik.engine import Call, Procedure, Roll, emit, msg
from kubik.engine.dice import D6
from kubik.engine.odds import odds_by
from kubik.engine.requests import AnyCall
from kubik.engine.runs import Runs, odds_by_runs
from kubik.rulesets.fantasy.charts import armour_needed, data, to_hit_needed, to_wound_needed
from kubik.rulesets.fantasy.pools import Successes

#: Special rules that make a model's attacks magical (FB-ABSENT-20).
MAGICAL = frozenset({"magical_attacks", "flaming_attacks", "ethereal"})


def extra_attacks(rules: frozenset[str]) -> int:
    """+1 Attack for Extra attack (FB-SR-07), which Frenzy grants (FB-PSY-05)."""
    return 1 if rules & {"extra_attack", "frenzy"} else 0


def weapon_bonus(weapon: str, *, round_number: int, charging: bool) -> tuple[int, int]:
    """(Strength, Attacks) a weapon adds this round (FB-ABSENT-18)."""
    table = data()["weapons"].get(weapon)
    if table is None:
        return (0, 0)
    strength = int(table.get("strength", 0))
    if charging and round_number == 1:
        strength += int(table.get("charging_strength", 0))
    if round_number == 1:
        strength += int(table.get("first_round_strength", 0))
    return (strength, int(table.get("attacks", 0)))


def weapon_flag(weapon: str, flag: str) -> bool:
    """Whether a weapon of FB-ABSENT-18 carries ``flag`` (strikes_last, extra_rank)."""
    table = data()["weapons"].get(weapon, {})
    return bool(table.get(flag, False))


@dataclass(frozen=True, slots=True)
class Blows:
    """A group of identical blows against identical models (all plain values).

    ``strength`` is the attacker's own, before weapon and Devastating charge.
    ``auto_hit``: impact hits and breath hit without a roll (FB-SR-14, FB-SR-01).
    """

    attacks: int
    weapon_skill: int
    strength: int
    target_weapon_skill: int
    target_toughness: int
    target_armour_save: int | None = None
    target_ward_save: int | None = None
    rules: frozenset[str] = field(default_factory=frozenset)
    target_rules: frozenset[str] = field(default_factory=frozenset)
    round_number: int = 1
    charging: bool = False
    initiative: int = 3
    target_initiative: int = 3
    target_regeneration: int | None = None
    target_wounds: int = 1
    weapon: str = "hand_weapon"
    auto_hit: bool = False
    #: whether the attackers hate this target (FB-PSY-06); None: as their Hatred says
    hates_target: bool | None = None
    #: what the target has left to lose (None: as many as the blows cause): Killing
    #: blows slay at most the models there are, and no more wounds are caused
    target_wounds_left: int | None = None
    #: the target is a character riding a monster: wounds beyond those he has left are
    #: lost, never passed to his mount (FB-SR-16)
    target_rides: bool = False


@dataclass(frozen=True, slots=True)
class AttacksOutcome:
    """Unsaved wounds the blows caused (the public outcome of ``fantasy.attacks``);
    a Killing blow counts as all the victim's Wounds, a flaming wound on a
    Flammable model as two."""

    wounds: int


def effective_strength(blows: Blows) -> int:
    """Strength with the weapon and Devastating charge (FB-SR-05: +1 when charging,
    in the first round only)."""
    bonus, _ = weapon_bonus(blows.weapon, round_number=blows.round_number, charging=blows.charging)
    strength = blows.strength + (0 if blows.auto_hit else bonus)
    if "devastating_charge" in blows.rules and blows.charging and blows.round_number == 1:
        strength += 1
    return strength


def may_reroll_misses(blows: Blows) -> tuple[str, ...]:
    """The rules that let these blows re-roll failed to-hit rolls: Hatred of this
    target in the first round (FB-PSY-06), Always Strikes First with the higher
    Initiative (FB-SR-02)."""
    rules: tuple[str, ...] = ()
    hates = blows.hates_target if blows.hates_target is not None else "hatred" in blows.rules
    if blows.round_number == 1 and hates:
        rules += ("FB-PSY-06",)
    first = "always_strikes_first" in blows.rules and "always_strikes_last" not in blows.rules
    if first and blows.initiative > blows.target_initiative:
        rules += ("FB-SR-02",)
    return rules


def _pool(
    n: int,
    needed: int,
    split_six: bool,
    reason: str,
    rules: tuple[str, ...],
    leads_to: Callable[[tuple[int, int]], AnyCall] | None = None,
    **params: object,
) -> Procedure[tuple[int, int]]:
    """Roll ``n`` d6 needing ``needed``: (natural 6s when split, other successes).
    ``leads_to``: the stage's next stage after each answer (the roll's promise, so the
    exact odds take each answer's next stage without replaying this one)."""
    if n <= 0:
        return (0, 0)
    answer = yield _pool_roll(n, needed, split_six, reason, rules, tuple(params.items()), leads_to)
    sixes, others = answer
    return (int(sixes), int(others))


#: Requests of the stages kept (an engine limit, not a rule).
_REQUESTS_KEPT = 1024


@lru_cache(maxsize=_REQUESTS_KEPT)
def _pool_roll(
    n: int,
    needed: int,
    split_six: bool,
    reason: str,
    rules: tuple[str, ...],
    params: tuple[tuple[str, object], ...],
    leads_to: Callable[[tuple[int, int]], AnyCall] | None = None,
) -> Roll:
    """The roll of :func:`_pool`, built once per pool: the exact odds know a request
    met before by its identity."""
    return Roll(
        (D6,) * n,
        msg(reason, dice=n, needed=needed, **dict(params)),
        unordered=True,
        reduce=Successes(needed, split_six),
        rules=rules,
        leads_to=leads_to,
    )


@dataclass(frozen=True, slots=True)
class _ToArmour:
    """After the to-wound roll: the armour stage of (Killing blows, other wounds)."""

    blows: Blows
    strength: int
    poison_wounds: int

    def __call__(self, answer: tuple[int, int]) -> AnyCall:
        kill_wounds, wounds = answer
        return _then(
            _armour_stage, self.blows, self.strength, self.poison_wounds, kill_wounds, wounds
        )


@dataclass(frozen=True, slots=True)
class _AfterSaves:
    """After a save (armour, ward, regeneration): ``next_stage`` of the wounds left
    (``kept`` of them carried past the save, the rest less the saved) and the Killing
    blows."""

    next_stage: Callable[..., Procedure[int]]
    blows: Blows
    kept: int
    wounds: int
    kill_wounds: int

    def __call__(self, answer: tuple[int, int]) -> AnyCall:
        _, saved = answer
        return _then(self.next_stage, self.blows, self.kept + self.wounds - saved, self.kill_wounds)


@lru_cache(maxsize=_REQUESTS_KEPT)
def _stage(procedure: Callable[..., Procedure[Any]], *args: Any) -> AnyCall:
    """A stage of the blows as a call, built once per arguments (the exact odds replay
    :func:`attacks` once per answer, and know a request met before by its identity)."""
    return Call(procedure, args)


@lru_cache(maxsize=_REQUESTS_KEPT)
def _then(procedure: Callable[..., Procedure[int]], *args: Any) -> AnyCall:
    """The next stage of the blows, as the stage's last request (a ``tail`` call: a
    stage's outcome is its next stage's, so the exact odds take those as the stage's
    own instead of replaying the stage once per answer), built once per arguments."""
    return Call(procedure, args, tail=True)


def _wounds_of(outcome: AttacksOutcome) -> tuple[int]:
    """What one blow adds to the blows' wounds."""
    return (outcome.wounds,)


@dataclass(frozen=True, slots=True)
class _AtMost:
    """The blows' outcome from the wounds their blows cause one by one: no more than
    the target has left (None: all of them)."""

    left: int | None

    def __call__(self, wounds: tuple[int, ...]) -> AttacksOutcome:
        (caused,) = wounds
        return AttacksOutcome(caused if self.left is None else min(caused, self.left))


def blow_by_blow(blows: Blows) -> Runs | None:
    """The blows as one blow each, rolled alone: every stage (to hit and its re-roll,
    to wound, each save, Flammable's double wound, a Killing blow's ward save) treats
    each die alone, so the pools' wounds are the sum of single blows' (as one blow
    slays a model outright with a Killing blow, whatever is left, its Wounds count in
    full). Only the target's wounds left cap the whole: a Killing blow past the models
    left slays none, and no more wounds are caused than there are, so the blows cause
    at most what is left of the sum. None for one blow at a target with no such cap."""
    if blows.attacks == 0 or (blows.attacks == 1 and blows.target_wounds_left is None):
        return None
    one = replace(blows, attacks=1, target_wounds_left=None, target_rides=False)
    left = blows.target_wounds_left
    return Runs(((blows.attacks, (one,)),), _wounds_of, _AtMost(left), (_kept_up_to(left),))


def _kept_up_to(left: int | None) -> int | None:
    """How far the sum of the blows is kept for a target with ``left`` wounds: to the
    next power of two, so pools at targets with different wounds left (a round's strikes
    at every tally) share one sum, each read only up to its own.

    >>> _kept_up_to(0), _kept_up_to(5), _kept_up_to(60), _kept_up_to(None)
    (1, 8, 64, None)
    """
    if left is None:
        return None
    kept = 1
    while kept < left:
        kept *= 2
    return kept


@odds_by_runs(blow_by_blow)
def attacks(blows: Blows) -> Procedure[AttacksOutcome]:
    """Resolve the blows: to hit, re-rolls, to wound, armour, ward, regeneration.

    Rolled as pools, stage by stage, as at the table; each die goes its own way
    through them, so the exact odds take one blow's and add the blows up
    (:func:`blow_by_blow`).
    """
    magical = bool(blows.rules & MAGICAL)
    if "ethereal" in blows.target_rules and not magical:
        yield emit("fantasy.attacks.ethereal", rules=("FB-SR-06", "FB-ABSENT-20"))
        return AttacksOutcome(0)
    if blows.auto_hit:
        poison_wounds, hits = 0, blows.attacks
    else:
        poison_wounds, hits = yield _stage(_hit_stage, blows)
    total = yield _stage(_wound_stage, blows, poison_wounds, hits)
    yield emit("fantasy.attacks.result", rules=("FB-ABSENT-03",), wounds=total)
    return AttacksOutcome(total)


def _hit_stage(blows: Blows) -> Procedure[tuple[int, int]]:
    """To hit, with the re-roll of misses: (poisoned natural 6s, other hits)."""
    poisoned = "poisoned_attacks" in blows.rules
    needed = to_hit_needed(blows.weapon_skill, blows.target_weapon_skill)
    hit_rules = ("FB-ABSENT-01",) + (("FB-SR-11",) if poisoned else ())
    sixes, others = yield from _pool(
        blows.attacks, needed, poisoned, "fantasy.attacks.to_hit", hit_rules
    )
    reroll = may_reroll_misses(blows)
    misses = blows.attacks - sixes - others
    if reroll and misses:
        more_sixes, more = yield from _pool(
            misses, needed, poisoned, "fantasy.attacks.reroll", hit_rules + reroll
        )
        sixes, others = sixes + more_sixes, others + more
    if sixes:
        yield emit("fantasy.attacks.poisoned", rules=("FB-SR-11",), wounds=sixes)
    return (sixes, others)


#: The special rules of the attacker the saves read (FB-SR-04, FB-SR-06, FB-SR-09).
_SAVE_RULES = ("flaming_attacks", "ethereal", "armour_piercing")


def regeneration_save(rules: frozenset[str], value: int | None) -> int | None:
    """The regeneration save a model takes (FB-SR-12): its own value, 4+ when it has
    the rule and no value is given; None without Regeneration.

    >>> regeneration_save(frozenset({"regeneration"}), None), regeneration_save(frozenset(), 5)
    (4, 5)
    """
    if value is not None:
        return value
    if "regeneration" in rules:
        return int(data()["regeneration"]["default"])
    return None


def _saves_read(blows: Blows) -> tuple[object, ...]:
    """What of the blows the save stages read (armour, ward, regeneration, Killing
    blows): the target's saves and Wounds, and the rules that change them. Blows
    that differ only in what came before (Attacks, WS, Initiative, ...) then share
    those stages' exact odds."""
    return (
        blows.target_armour_save,
        blows.target_ward_save,
        regeneration_save(blows.target_rules, blows.target_regeneration),
        blows.target_wounds,
        blows.target_wounds_left,
        blows.target_rides,
        "flammable" in blows.target_rules,
        *(rule in blows.rules for rule in _SAVE_RULES),
    )


def _wound_read(blows: Blows, poison_wounds: int, hits: int) -> tuple[object, ...]:
    """What :func:`_wound_stage` reads: the effective Strength, the target's
    Toughness, Killing blow, the counts and the saves after them."""
    return (
        effective_strength(blows),
        blows.target_toughness,
        "killing_blow" in blows.rules,
        poison_wounds,
        hits,
        *_saves_read(blows),
    )


@odds_by(_wound_read)
def _wound_stage(blows: Blows, poison_wounds: int, hits: int) -> Procedure[int]:
    """To wound; Killing blows (a natural 6) kept apart for their own saves."""
    strength = effective_strength(blows)
    killing = "killing_blow" in blows.rules
    kill_wounds = wounds = 0
    wound_needed = to_wound_needed(strength, blows.target_toughness)
    if hits and wound_needed is None:
        yield emit(
            "fantasy.attacks.cannot_wound",
            rules=("FB-ABSENT-03",),
            strength=strength,
            toughness=blows.target_toughness,
        )
    elif hits and wound_needed is not None:
        wound_rules = ("FB-ABSENT-03",) + (("FB-SR-13",) if killing else ())
        if "devastating_charge" in blows.rules and blows.charging and blows.round_number == 1:
            wound_rules += ("FB-SR-05",)
        kill_wounds, wounds = yield from _pool(
            hits,
            wound_needed,
            killing,
            "fantasy.attacks.to_wound",
            wound_rules,
            _ToArmour(blows, strength, poison_wounds),
        )
    total: int = yield _then(_armour_stage, blows, strength, poison_wounds, kill_wounds, wounds)
    return total


@odds_by(lambda blows, strength, *counts: (strength, *counts, *_saves_read(blows)))
def _armour_stage(
    blows: Blows, strength: int, poison_wounds: int, kill_wounds: int, wounds: int
) -> Procedure[int]:
    """Armour saves: none against poisoned sixes, Killing blows, flaming attacks (the
    seed) or ethereal attackers."""
    flaming = "flaming_attacks" in blows.rules
    piercing = "armour_piercing" in blows.rules
    armour = armour_needed(blows.target_armour_save, strength, armour_piercing=piercing)
    if wounds and (flaming or "ethereal" in blows.rules):
        if blows.target_armour_save is not None:
            yield emit(
                "fantasy.attacks.no_armour",
                rules=("FB-SR-09",) if flaming else ("FB-SR-06",),
            )
    elif wounds and armour is not None:
        armour_rules = ("FB-ABSENT-04",) + (("FB-SR-04",) if piercing else ())
        after = _AfterSaves(_ward_stage, blows, poison_wounds, wounds, kill_wounds)
        _, saved = yield from _pool(
            wounds, armour, False, "fantasy.attacks.armour", armour_rules, after
        )
        wounds -= saved
    elif wounds and blows.target_armour_save is not None:  # the Strength leaves no save
        pierced = piercing and armour_needed(blows.target_armour_save, strength) is not None
        yield emit(
            "fantasy.attacks.no_save_left",
            rules=("FB-ABSENT-04", "FB-SR-04") if pierced else ("FB-ABSENT-04",),
        )
    total: int = yield _then(_ward_stage, blows, poison_wounds + wounds, kill_wounds)
    return total


@odds_by(lambda blows, *counts: (*counts, *_saves_read(blows)))
def _ward_stage(blows: Blows, wounds: int, kill_wounds: int) -> Procedure[int]:
    """Ward saves against the ordinary wounds (FB-ABSENT-05)."""
    ward = blows.target_ward_save
    if ward is not None and wounds:
        after = _AfterSaves(_regeneration_stage, blows, 0, wounds, kill_wounds)
        _, saved = yield from _pool(
            wounds, ward, False, "fantasy.attacks.ward", ("FB-ABSENT-05",), after
        )
        wounds -= saved
    total: int = yield _then(_regeneration_stage, blows, wounds, kill_wounds)
    return total


@odds_by(lambda blows, *counts: (*counts, *_saves_read(blows)))
def _regeneration_stage(blows: Blows, wounds: int, kill_wounds: int) -> Procedure[int]:
    """Regeneration (not against flaming attacks), then Flammable's double wounds."""
    flaming = "flaming_attacks" in blows.rules
    regeneration = regeneration_save(blows.target_rules, blows.target_regeneration)
    if regeneration is not None and wounds:
        if flaming:
            yield emit("fantasy.attacks.no_regeneration", rules=("FB-SR-09", "FB-SR-12"))
        else:
            after = _AfterSaves(_killing_stage, blows, 0, wounds, kill_wounds)
            _, healed = yield from _pool(
                wounds, regeneration, False, "fantasy.attacks.regeneration", ("FB-SR-12",), after
            )
            wounds -= healed
    if flaming and "flammable" in blows.target_rules and wounds:
        yield emit("fantasy.attacks.flammable", rules=("FB-SR-10",), wounds=wounds)
        wounds *= 2
    total: int = yield _then(_killing_stage, blows, wounds, kill_wounds)
    return total


@odds_by(lambda blows, *counts: (*counts, *_saves_read(blows)))
def _killing_stage(blows: Blows, wounds: int, kills: int) -> Procedure[int]:
    """Killing blows: only a ward save stops them (FB-SR-13); each slays outright."""
    if kills and blows.target_ward_save is not None:
        _, saved = yield from _pool(
            kills,
            blows.target_ward_save,
            False,
            "fantasy.attacks.ward",
            ("FB-ABSENT-05", "FB-SR-13"),
        )
        kills -= saved
    left = blows.target_wounds_left
    if left is not None:  # no more models slain than there are, no more wounds than left
        kills = min(kills, -(-left // blows.target_wounds))
    if kills:
        yield emit("fantasy.attacks.killing_blow", rules=("FB-SR-13",), slain=kills)
    total = wounds + kills * blows.target_wounds
    if left is None or total <= left:
        return total
    if blows.target_rides:
        yield emit("fantasy.shooting.excess", rules=("FB-SR-16",), wasted=total - left)
    return left


def recover_wound(regeneration: int) -> Procedure[bool]:
    """A model that took no action for a whole turn rolls its regeneration save to
    recover one lost wound (FB-SR-12)."""
    (rolled,) = yield Roll(
        D6, msg("fantasy.attacks.recover", needed=regeneration), rules=("FB-SR-12",)
    )
    healed = int(rolled) >= regeneration
    yield emit("fantasy.attacks.recovered", rules=("FB-SR-12",), healed=healed)
    return healed
