"""Steel War shooting: the fire group's dice, the range die and the opposed roll.

The shooter rolls its pool (quality die, the small arms' rate-of-fire die, one die
per support weapon); the target rolls one range die. Count the shooter dice
strictly above it: none — no effect; one — suppressed; two or more — suppressed
and hit, with potential casualties from the dice sizes alone (SW-FIRE-01,
SW-DMG-01). Everything before the roll (which dice, which power) is arithmetic on
plain values: a :class:`FireGroup` against a :class:`FireTarget`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from kubik.core.errors import InputError
from kubik.engine import AnyCall, Call, Procedure, Roll, Verdict, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import Die, parse_die
from kubik.engine.memo import by_identity
from kubik.engine.odds import odds_by
from kubik.engine.requests import RuleIds, tail_step
from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war.core import step_die, zone_number
from kubik.rulesets.steel_war.damage import armour_tests_tail, hit_armour, potential_casualties
from kubik.rulesets.steel_war.damage_models import Hit, ModelHit, TargetModel, hits_on_models
from kubik.rulesets.steel_war.fire_dice import BeatRange as BeatRange
from kubik.rulesets.steel_war.fire_dice import Effect as Effect
from kubik.rulesets.steel_war.fire_dice import TopValues as TopValues
from kubik.rulesets.steel_war.fire_dice import dice_that_matter as dice_that_matter
from kubik.rulesets.steel_war.fire_dice import effect_of as effect_of
from kubik.rulesets.steel_war.fire_weapons import RangeLimit, Special, Weapon

# The questions of legality (may_shoot ...) read a unit's whole situation; their rules
# load when first asked, so the odds of a fire action load only what fire does.
if TYPE_CHECKING:
    from kubik.rulesets.steel_war.fire_ammo import Ammo
    from kubik.rulesets.steel_war.situation import UnitSituation


@cache
def _data() -> Mapping[str, Any]:
    return load_ruleset_data("steel_war")


class Cover(Enum):
    """The target's cover (SW-FIRE-08): light +1 step, hard (капитальное) +2."""

    __hash__ = object.__hash__  # members are singletons: hashed by identity, in C

    NONE = "none"
    LIGHT = "light"
    HARD = "hard"

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"steel_war.cover.{self.value}"


def rate_die(total_rate: Fraction | int) -> Die:
    """The small-arms rate-of-fire die from the summed rate (SW-FIRE-03).

    Round down to the largest die not above the sum; a sum below 4 rounds up to d4;
    above 12 stays d12. 9 gives d8 (the seed's own example prints d6: a typo).

    >>> rate_die(9), rate_die(12), rate_die(10), rate_die(1), rate_die(Fraction(7, 2))
    (Die(faces=8), Die(faces=12), Die(faces=10), Die(faces=4), Die(faces=4))
    """
    table = _data()["rate_die"]
    dice = [parse_die(d) for d in table["dice"]]
    if total_rate > dice[-1].faces:
        return parse_die(table["above_largest"])
    fitting = [d for d in dice if d.faces <= total_rate]
    return fitting[-1] if fitting else dice[0]


@cache
def _zone_dice() -> tuple[Die, ...]:
    return tuple(parse_die(d) for d in _data()["range_zones"]["dice"])


@decides("SW-FIRE-06")
def max_zone() -> int:
    """The last zone in which infantry may be fired at (SW-FIRE-06: five)."""
    return len(_zone_dice())


@decides("SW-FIRE-06")
def range_zone(quality: Die, distance: float | Fraction) -> int:
    """The range zone of ``distance`` inches from a shooter of this quality (SW-FIRE-06).

    Zone width = the quality die's faces; an upper bound belongs to its zone
    (exactly 6" from recruits is zone 1). May exceed 5: out of range.

    >>> from kubik.engine.dice import D6, D8
    >>> [range_zone(D6, d) for d in (10, 13, 6, 0)], range_zone(D8, 12)
    ([2, 3, 1, 1], 2)
    """
    return _range_zone(quality, distance)


def _range_zone(quality: Die, distance: float | Fraction) -> int:
    """:func:`range_zone` for this module's own rules (a battle's question is recorded
    where it asks it: these run inside the rules that ask them, thousands of times)."""
    if distance < 0:
        raise InputError("distance: must be 0 or more inches")
    return zone_number(distance, quality.faces, _zone_bound_inclusive())


@cache
def _zone_bound_inclusive() -> bool:
    """Whether a zone's upper bound belongs to it (read once)."""
    return bool(_data()["range_zones"]["upper_bound_inclusive"])


def base_range_die(zone: int) -> Die:
    """The target's range die for a zone: d4 in zone 1 … d12 in zone 5 (SW-FIRE-06).

    >>> base_range_die(1), base_range_die(5)
    (Die(faces=4), Die(faces=12))
    """
    dice = _zone_dice()
    if not 1 <= zone <= len(dice):
        raise InputError(
            f"distance: zone {zone} is beyond zone {len(dice)}; infantry cannot be fired at"
        )
    return dice[zone - 1]


@decides("SW-FIRE-09")
@lru_cache(maxsize=4096)  # pure; every menu measures the same few situations
def range_die(quality: Die, distance: float | Fraction, prone: bool, cover: Cover) -> Die:
    """The target's range die: zone die + 1 step if gone to ground + cover steps (SW-FIRE-09).

    Steps past d12 are lost (clamped).

    >>> from kubik.engine.dice import D6, D8
    >>> range_die(D6, 10, True, Cover.LIGHT), range_die(D8, 12, True, Cover.NONE)
    (Die(faces=10), Die(faces=8))
    """
    steps_table = _data()["range_die_steps"]
    steps = int(steps_table[cover.value]) + (int(steps_table["prone"]) if prone else 0)
    return step_die(base_range_die(_range_zone(quality, distance)), steps)


@cache
def range_rules(prone: bool, cover: Cover) -> RuleIds:
    """The rules that made a target's range die: the zone (SW-FIRE-06) and the combined
    die (SW-FIRE-09), going to ground (SW-FIRE-07) and cover (SW-FIRE-08) only when they
    added steps, and die steps (SW-CORE-01) whenever anything did.

    >>> range_rules(True, Cover.NONE)
    ('SW-FIRE-06', 'SW-FIRE-09', 'SW-FIRE-07', 'SW-CORE-01')
    """
    rules = ["SW-FIRE-06", "SW-FIRE-09"]
    if prone:
        rules.append("SW-FIRE-07")
    if cover is not Cover.NONE:
        rules.append("SW-FIRE-08")
    if prone or cover is not Cover.NONE:
        rules.append("SW-CORE-01")
    return tuple(rules)


@cache
def _min_cover_share() -> Fraction:
    """The share of a squad that must stand in cover for the squad to have it (read once)."""
    return Fraction(_data()["squad_cover"]["min_share"])


@decides("SW-FIRE-08")
def squad_cover(in_light: int, in_hard: int, models: int) -> Cover:
    """The cover a partly covered squad gets (SW-FIRE-08 default): the best cover that
    at least half its models share (hard cover also counts as light); cover never stacks.

    >>> squad_cover(0, 5, 10), squad_cover(3, 2, 10), squad_cover(2, 2, 10)
    (<Cover.HARD: 'hard'>, <Cover.LIGHT: 'light'>, <Cover.NONE: 'none'>)
    """
    if models <= 0 or in_light < 0 or in_hard < 0 or in_light + in_hard > models:
        raise InputError("models: the models in cover must be between 0 and the squad's size")
    share = _min_cover_share()
    if in_hard >= share * models:
        return Cover.HARD
    if in_light + in_hard >= share * models:
        return Cover.LIGHT
    return Cover.NONE


def in_range(w: Weapon, quality: Die, distance: float | Fraction) -> bool:
    """Whether ``w`` may join a fire action at this distance (SW-FIRE-11).

    Zone-1-only weapons need the shooter's first zone, flamethrowers their inches,
    and nothing fires beyond zone 5.

    >>> from kubik.engine.dice import D6
    >>> from kubik.rulesets.steel_war.fire_weapons import weapon
    >>> [in_range(weapon("smg"), D6, d) for d in (13, 5)], in_range(weapon("lmg"), D6, 30)
    ([False, True], True)
    """
    zone = _range_zone(quality, distance)
    if zone > len(_zone_dice()):
        return False
    if w.range_limit is RangeLimit.ZONE1:
        return zone == 1
    if w.range_limit is RangeLimit.INCHES:
        return w.range_inches is not None and Fraction(distance) <= w.range_inches
    return True


@decides("SW-FIRE-06", "SW-FIRE-11")
def reach_inches(w: Weapon, quality: Die) -> float:
    """The farthest a weapon fires for a shooter of this quality (SW-FIRE-06, SW-FIRE-11).

    >>> from kubik.engine.dice import D6
    >>> from kubik.rulesets.steel_war.fire_weapons import weapon
    >>> [reach_inches(weapon(w), D6) for w in ("smg", "flamethrower_keno", "lmg")]
    [6, 4, 30]
    """
    if w.range_limit is RangeLimit.ZONE1:
        return quality.faces
    if w.range_limit is RangeLimit.INCHES and w.range_inches is not None:
        return min(w.range_inches, len(_zone_dice()) * quality.faces)
    return len(_zone_dice()) * quality.faces


@dataclass(frozen=True, slots=True)
class FireGroup:
    """The shooter's side of one fire action, after composing its weapons (SW-FIRE-02..05, 13, 14).

    ``pool``: quality die, then the rate die (if small arms fire), then support dice.
    ``alone``: one weapon type fired on its own, so its special rules apply.
    ``aimed``: aimed small-arms fire, not fragments or flame (a psionic's survivability,
    SW-PSI-03). ``rules``: the rules that composed the pool and its power (for the log).
    """

    pool: tuple[Die, ...]
    power: Die
    flame: bool = False
    fragmentation: bool = False
    sniper: bool = False
    alone: bool = False
    aimed: bool = True
    rules: RuleIds = ("SW-FIRE-01", "SW-FIRE-02", "SW-CORE-02")


@dataclass(frozen=True, slots=True)
class FireTarget:
    """The target's side: its range die, armour and size.

    ``range_rules``: the rules that made its range die (:func:`range_rules`).
    """

    range_die: Die
    armour: Die
    models: int
    flak_vest: bool = False
    range_rules: RuleIds = ("SW-FIRE-06", "SW-FIRE-09")


def _range_rules_of(target: FireTarget) -> RuleIds:
    """The rules that made a fire target's range die."""
    return target.range_rules


@decides(cites=_range_rules_of)
@lru_cache(maxsize=4096)  # pure, and its target a value: every menu asks it again
def fire_target(
    quality: Die,
    distance: float | Fraction,
    prone: bool,
    cover: Cover,
    armour: Die,
    models: int,
    flak_vest: bool = False,
) -> FireTarget:
    """The target of a fire action as measured: its range die from the shooter's quality,
    the distance, going to ground and cover (SW-FIRE-09), with the rules that made it.

    >>> from kubik.engine.dice import D4, D6
    >>> fire_target(D6, 10, True, Cover.LIGHT, D4, 10).range_die
    Die(faces=10)
    """
    return FireTarget(
        range_die(quality, distance, prone, cover),
        armour,
        models,
        flak_vest,
        range_rules(prone, cover),
    )


def group_power(weapons: Sequence[tuple[Weapon, int]]) -> Die:
    """The power of the whole fire (SW-FIRE-13).

    With small arms, the small arms' power (support weapons take it); of mixed small
    arms the most numerous type's, the lower on a tie (default). Support weapons
    alone: the same rule over them.

    >>> from kubik.rulesets.steel_war.fire_weapons import weapon
    >>> group_power([(weapon("sniper_rifle"), 1), (weapon("assault_rifle"), 3)])
    Die(faces=8)
    >>> group_power([(weapon("lmg"), 1), (weapon("smg"), 4)]), group_power([(weapon("lmg"), 1)])
    (Die(faces=8), Die(faces=10))
    """
    small = [(w, n) for w, n in weapons if w.is_small_arms]
    chosen = small or list(weapons)
    counts: dict[str, tuple[int, Die]] = {}
    for w, n in chosen:
        had, _ = counts.get(w.id, (0, w.power))
        counts[w.id] = (had + n, w.power)
    return max(counts.values(), key=lambda item: (item[0], -item[1].faces))[1]


@decides("SW-FIRE-02", "SW-FIRE-11")
def compose_group(quality: Die, weapons: Sequence[tuple[Weapon, int]]) -> FireGroup:
    """The pool and power of weapons firing together (all already in range, SW-FIRE-11:
    :func:`firing_weapons`).

    >>> from kubik.engine.dice import D6
    >>> from kubik.rulesets.steel_war.fire_weapons import weapon
    >>> compose_group(D6, [(weapon("smg"), 4), (weapon("lmg"), 1)]).pool
    (Die(faces=6), Die(faces=12), Die(faces=8))
    """
    small = [(w, n) for w, n in weapons if w.is_small_arms and n > 0]
    support = [(w, n) for w, n in weapons if not w.is_small_arms and n > 0]
    if not small and not support:
        raise InputError("weapons: a fire action needs at least one weapon")
    pool: list[Die] = [quality]
    if small:
        pool.append(rate_die(sum((w.rate or Fraction(0)) * n for w, n in small)))
    for w, n in support:
        if w.rate_die is not None:
            pool.extend([w.rate_die] * n)
    kinds = {w.id for w, _ in (*small, *support)}
    alone = len(kinds) == 1
    lone = (small or support)[0][0]
    flame = alone and lone.has(Special.FLAME)
    fragmentation = alone and lone.has(Special.FRAGMENTATION)
    sniper = alone and lone.has(Special.SNIPER)
    rules = ["SW-FIRE-01", "SW-FIRE-02", "SW-CORE-02", "SW-FIRE-10", "SW-FIRE-11"]
    if small:
        rules.append("SW-FIRE-03")
    if support:
        rules.append("SW-FIRE-04")
    if not alone:
        rules.append("SW-FIRE-13")
    if sniper:
        rules.append("SW-FIRE-14")
    if flame or fragmentation:
        rules.append("SW-FIRE-12")
    return FireGroup(
        pool=tuple(pool),
        power=group_power([*small, *support]),
        flame=flame,
        fragmentation=fragmentation,
        sniper=sniper,
        alone=alone,
        aimed=not (flame or fragmentation),
        rules=tuple(rules),
    )


def firing_weapons(
    quality: Die, weapons: Sequence[tuple[Weapon, int]], distance: float | Fraction
) -> tuple[tuple[Weapon, int], ...]:
    """The weapons that can take part at this distance; none is an InputError (SW-FIRE-11)."""
    firing = tuple((w, n) for w, n in weapons if n > 0 and in_range(w, quality, distance))
    if not firing:
        zone = _range_zone(quality, distance)
        reach = ", ".join(f'{w.id} ≤ {reach_inches(w, quality):g}"' for w, _ in weapons) or "none"
        raise InputError(
            f"distance: at {float(distance):g} inches (zone {zone} for a {quality.name} shooter) "
            f"none of the weapons can fire ({reach}); weapons: choose ones that reach"
        )
    return firing


@dataclass(frozen=True, slots=True)
class FireOutcome:
    """What one fire action did: the effect and, with hits, the casualties."""

    effect: Effect
    hits: int
    wounded: int
    killed: int


@odds_by(lambda pool, range_die, *rules: (pool, range_die))
def opposed_roll(
    pool: tuple[Die, ...],
    range_die: Die,
    pool_rules: RuleIds = ("SW-FIRE-01", "SW-FIRE-02"),
    target_rules: RuleIds = ("SW-FIRE-06", "SW-FIRE-09"),
) -> Procedure[Effect]:
    """The shooter rolls the pool, the target the range die; count the dice above it (SW-FIRE-01).

    A sub-procedure of its own so the odds driver computes its three outcomes once
    and the fire action branches over the effect, not over the pool's values.
    ``pool_rules``, ``target_rules``: what made each side's dice (for the log).
    """
    best = yield _pool_roll(pool, range_die, pool_rules, target_rules)
    effect: Effect = yield tail_step(range_against, range_die, best, target_rules)
    yield emit("steel_war.fire.effect", rules="SW-FIRE-01", effect=effect, die=range_die)
    return effect


@odds_by(lambda range_die, best, rules: (range_die, best))
def range_against(range_die: Die, best: tuple[int, ...], rules: RuleIds) -> Procedure[Effect]:
    """The target's side of the opposed roll: its range die against the shooter's ``best``
    dice (SW-FIRE-01). A step of :func:`opposed_roll` (its last), so the exact odds keep
    its three outcomes per best dice instead of replaying the whole roll for each."""
    effect: Effect = yield _range_roll(range_die, best, rules)
    return effect


@by_identity
def _pool_roll(
    pool: tuple[Die, ...], range_die: Die, rules: RuleIds, target_rules: RuleIds
) -> Roll:
    """The shooter's roll of the opposed roll, which leads to the target's side of it
    (built once: exact odds then take each best dice's effects without a replay)."""
    return Roll(
        pool,
        msg("steel_war.fire.pool", dice=pool),
        reduce=TopValues(dice_that_matter(), range_die.faces + 1),
        roller="shooter",
        rules=rules,
        leads_to=_RangeAgainst(range_die, target_rules),
    )


@dataclass(frozen=True, slots=True)
class _RangeAgainst:
    """The opposed roll's last step after the shooter's ``best`` dice (its pool roll
    leads to it)."""

    range_die: Die
    rules: RuleIds

    def __call__(self, best: tuple[int, ...]) -> AnyCall:
        return tail_step(range_against, self.range_die, best, self.rules)


@by_identity
def _range_roll(range_die: Die, best: tuple[int, ...], rules: RuleIds) -> Roll:
    """The target's roll of the opposed roll, against the shooter's ``best`` dice."""
    return Roll(
        range_die,
        msg("steel_war.fire.range_roll", die=range_die),
        reduce=BeatRange(best),
        roller="target",
        rules=("SW-FIRE-01", *rules),
    )


@by_identity
def _opposed(
    pool: tuple[Die, ...], range_die: Die, rules: RuleIds, range_rules: RuleIds
) -> AnyCall:
    """The opposed roll's call (built once: exact odds replay a fire action often)."""
    return Call(opposed_roll, (pool, range_die, rules, range_rules))


@by_identity
def _pool_size(pool: tuple[Die, ...], range_die: Die) -> tuple[int, int]:
    """The pool's summed faces and its potential casualties (SW-DMG-01), computed once."""
    return sum(d.faces for d in pool), potential_casualties(pool, range_die)


@by_identity
def _without_rules(group: FireGroup, target: FireTarget) -> tuple[FireGroup, FireTarget]:
    """A fire's two sides without the rule ids they carry for the log (its odds' key)."""
    return replace(group, rules=()), replace(target, range_rules=())


@odds_by(_without_rules)
def fire_action(group: FireGroup, target: FireTarget) -> Procedure[FireOutcome]:
    """Resolve one fire action (SW-FIRE-01, SW-DMG-01, SW-DMG-03, SW-DMG-08).

    The shooter rolls the pool, the target its range die; with hits, each potential
    casualty (at most the target's models) is one power-then-armour roll.
    """
    effect: Effect = yield _opposed(group.pool, target.range_die, group.rules, target.range_rules)
    if effect is not Effect.HITS:
        return FireOutcome(effect, 0, 0, 0)
    hits = yield from hits_scored(group, target.range_die, target.models)
    armour = hit_armour(target.armour, target.flak_vest, group.fragmentation)
    rules = ("SW-DMG-04", *power_rules(group))
    fired: FireOutcome = yield tail_step(casualties, armour, group.power, hits, group.flame, rules)
    return fired


@odds_by(lambda armour, power, hits, flame, rules: (armour, power, hits, flame))
def casualties(
    armour: Die, power: Die, hits: int, flame: bool, rules: RuleIds
) -> Procedure[FireOutcome]:
    """The armour tests of a fire's ``hits`` and what they did (SW-DMG-03/04): the last
    step of :func:`fire_action`, so the exact odds keep its outcomes by the hits and the
    dice alone (shared by every fire of that power at that armour) instead of replaying
    the whole fire for each. The tests are its tail call, their counts mapped to the
    fire's outcome (:class:`_Casualties`) instead of replayed for each."""
    tests = armour_tests_tail(armour, power, hits, flame, rules, _casualties_of(hits))
    counts: tuple[int, int] = yield tests
    wounded, killed = counts
    yield emit(
        "steel_war.fire.casualties", rules="SW-DMG-03", hits=hits, wounded=wounded, killed=killed
    )
    fired: FireOutcome = tests.promised(counts)
    return fired


@dataclass(frozen=True, slots=True)
class _Casualties:
    """A fire's outcome from the (wounded, killed) of its ``hits`` armour tests."""

    hits: int

    def __call__(self, counts: tuple[int, int]) -> FireOutcome:
        return FireOutcome(Effect.HITS, self.hits, counts[0], counts[1])


@lru_cache(maxsize=64)
def _casualties_of(hits: int) -> _Casualties:
    """:class:`_Casualties` of ``hits`` (one per number: the tests' calls are kept by it)."""
    return _Casualties(hits)


def shoot(group: FireGroup, target: FireTarget) -> Procedure[Effect]:
    """The opposed roll of a fire action, named by the rules that made both sides' dice."""
    effect: Effect = yield _opposed(group.pool, target.range_die, group.rules, target.range_rules)
    return effect


def hits_scored(group: FireGroup, range_die: Die, models: int) -> Procedure[int]:
    """Potential casualties from the dice sizes (SW-DMG-01), at most the models there are;
    a lone sniper's owner will choose the victims (SW-FIRE-14), a lone flamethrower's
    victims are at least wounded (SW-DMG-08)."""
    shooter, potential = _pool_size(group.pool, range_die)
    hits = min(potential, models)
    yield emit(
        "steel_war.fire.hits",
        rules="SW-DMG-01",
        shooter=shooter,
        target=range_die.faces,
        potential=potential,
        hits=hits,
    )
    if group.sniper:
        yield emit("steel_war.fire.sniper_chooses", rules=("SW-FIRE-14", "SW-DMG-02"))
    if group.flame:
        yield emit("steel_war.fire.flame", rules="SW-DMG-08")
    return hits


def power_rules(group: FireGroup) -> RuleIds:
    """The rules that set the power of a fire's hits: the weapon table (SW-FIRE-10), and
    the supported weapons' power when weapons fired together (SW-FIRE-13).

    >>> from kubik.engine.dice import D8
    >>> power_rules(FireGroup((D8, D8), D8, alone=False))
    ('SW-FIRE-10', 'SW-FIRE-13')
    """
    return ("SW-FIRE-10",) if group.alone else ("SW-FIRE-10", "SW-FIRE-13")


# --- fire on real models (SW-DMG-02, SW-DMG-03) -------------------------------------------


def hit_of(group: FireGroup) -> Hit:
    """What a fire group's hits are, for the models they land on."""
    return Hit(group.power, group.flame, group.fragmentation, group.aimed, rules=power_rules(group))


@dataclass(frozen=True, slots=True)
class ModelsFireOutcome:
    """A fire action on real models: the effect, the hits, and each hit as it landed."""

    effect: Effect
    hits: int
    results: tuple[ModelHit, ...] = ()


def fire_on_models(
    group: FireGroup, target: FireTarget, models: tuple[TargetModel, ...], side: str = "shooter"
) -> Procedure[ModelsFireOutcome]:
    """A fire action at real models, in the seed's order: the opposed roll, the potential
    casualties, every hit allocated (exposed models first), then each model's own armour
    test (SW-FIRE-01, SW-DMG-01..03). ``target`` gives the range die; each of ``models``
    its own armour (its ``armour`` and ``models`` fields are not used here).
    """
    effect = yield from shoot(group, target)
    if effect is not Effect.HITS:
        return ModelsFireOutcome(effect, 0)
    hits = yield from hits_scored(group, target.range_die, len(models))
    results = yield from hits_on_models(hits, models, hit_of(group), group.sniper, side)
    return ModelsFireOutcome(effect, hits, results)


# --- questions of legality ------------------------------------------------------------------


@decides()
@lru_cache(maxsize=4096)  # (a menu asks it of every situation again)
def may_shoot(unit: UnitSituation, *, target_shot_at_us: bool = False) -> Verdict:
    """May ``unit`` make a fire action now (one action, SW-CORE-04)?

    Not while suppressed — but a suppressed vehicle or robot fires (SW-SUP-01); a Broken
    squad only at an enemy that shot at it this turn, a Fleeing one never (SW-MOR-01);
    not after marching this activation (SW-MOVE-01 default). Which of its weapons fire
    is :func:`may_fire_weapon`'s.
    """
    from kubik.rulesets.steel_war.activation import ActionType
    from kubik.rulesets.steel_war.morale_levels import Order
    from kubik.rulesets.steel_war.situation import all_of, basic_verdict

    order = Order(ActionType.SHOOT, target_shot_at_us_this_turn=target_shot_at_us)
    verdicts = [basic_verdict(unit, ActionType.SHOOT, order)]
    if unit.marched and not _data()["march"]["fire_after_march"]:
        verdicts.append(Verdict.forbid(msg("steel_war.permission.marched"), "SW-MOVE-01"))
    return all_of(*verdicts)


@decides()
def may_fire_weapon(
    w: Weapon,
    quality: Die,
    distance: float | Fraction,
    *,
    fired: int = 0,
    ground_mounted: bool = False,
    ammo: Ammo | None = None,
) -> Verdict:
    """May this weapon join a fire action at a target ``distance`` inches away?

    Each weapon fires once per activation, a heavy weapon set up on the ground twice
    (SW-FIRE-05; ``fired``: times it fired this activation); a limited one needs a shot
    left (SW-FIRE-15); it must reach (SW-FIRE-11, nothing beyond zone 5, SW-FIRE-06).
    Any combination of the weapons that may fire can fire together or apart: splitting
    fire between actions and targets is free (SW-FIRE-05), and a sniper rifle firing
    alone picks its victim (SW-FIRE-14, :func:`compose_group`).

    >>> from kubik.engine.dice import D6
    >>> from kubik.rulesets.steel_war.fire_weapons import weapon
    >>> may_fire_weapon(weapon("hmg"), D6, 10, fired=1, ground_mounted=True).allowed
    True
    >>> may_fire_weapon(weapon("hmg"), D6, 10, fired=1).allowed
    False
    """
    from kubik.rulesets.steel_war.fire_ammo import shots_per_activation

    shots = shots_per_activation(w.id, ground_mounted)
    verdicts = [
        Verdict.of(
            fired < shots,
            msg("steel_war.permission.weapon_fired", weapon=msg(w.msgid), times=fired),
            "SW-FIRE-05",
        ),
        Verdict.of(
            in_range(w, quality, distance),
            msg(
                "steel_war.permission.weapon_out_of_range",
                weapon=msg(w.msgid),
                distance=float(distance),
            ),
            "SW-FIRE-11",
            "SW-FIRE-06",
        ),
    ]
    if ammo is not None and ammo.shots_left is not None:
        verdicts.append(
            Verdict.of(
                ammo.can_fire,
                msg("steel_war.permission.no_ammo", weapon=msg(w.msgid)),
                "SW-FIRE-15",
            )
        )
    return Verdict.combine(*verdicts)


@decides()
@lru_cache(maxsize=4096)  # (a menu asks it of every situation again)
def may_go_to_ground(unit: UnitSituation) -> Verdict:
    """May ``unit`` go to ground (залечь) now (SW-FIRE-07)?

    One action of an infantry squad, never in water, not when it is down already, after
    a reaction test: threat 2 in the open, 0 in woods, bushes or cover (SW-REACT-02).
    Not among a suppressed squad's five actions (SW-SUP-01).
    """
    from kubik.rulesets.steel_war.activation import ActionType
    from kubik.rulesets.steel_war.movers import MoverType
    from kubik.rulesets.steel_war.reaction import ReactionAction, reaction_verdict
    from kubik.rulesets.steel_war.situation import all_of, basic_verdict

    rule = _data()["going_to_ground"]
    verdicts = [basic_verdict(unit, ActionType.GO_TO_GROUND)]
    if rule["infantry_only"] and unit.kind is not MoverType.INFANTRY:
        verdicts.append(Verdict.forbid(msg("steel_war.permission.ground_infantry"), "SW-FIRE-07"))
    if unit.in_water and not rule["allowed_in_water"]:
        verdicts.append(Verdict.forbid(msg("steel_war.permission.ground_water"), "SW-FIRE-07"))
    if unit.prone:
        verdicts.append(Verdict.forbid(msg("steel_war.permission.already_down"), "SW-FIRE-07"))
    test = ReactionAction.GO_TO_GROUND_OTHER if unit.in_cover else ReactionAction.GO_TO_GROUND_OPEN
    verdicts.append(reaction_verdict(test, unit.failed, no_step_back=unit.berserk))
    return all_of(*verdicts)


@decides()
@lru_cache(maxsize=4096)  # (a menu asks it of every situation again)
def may_get_up(unit: UnitSituation) -> Verdict:
    """May ``unit`` spend an action to get up from going to ground (SW-FIRE-07)?

    (Moving without getting up takes a reaction test instead: :func:`~.movement.may_move`.)
    """
    from kubik.rulesets.steel_war.activation import ActionType
    from kubik.rulesets.steel_war.situation import all_of, basic_verdict

    verdicts = [basic_verdict(unit, ActionType.GET_UP)]
    if not unit.prone:
        verdicts.append(Verdict.forbid(msg("steel_war.permission.not_down"), "SW-FIRE-07"))
    else:
        verdicts.append(Verdict.allow("SW-FIRE-07"))
    return all_of(*verdicts)
