"""Hits on real models: every hit is allocated first, then each model's own armour test.

The seed's order («Попадания и потери», item 3, and its example): the models hit are
found at random — exposed ones first — or chosen by a lone sniper's owner (SW-DMG-02,
SW-FIRE-14); then for each hit the model's armour die is rolled against the weapon's
power (SW-DMG-03). Each model rolls its own armour: the table's die for what it is
(SW-DMG-04: a man d4, full infantry armour d6, a robot or a man-sized weapon d8, a
bronescaf d10), a flak vest's d6 against fragments, a psionic's psi die against aimed
small arms (SW-PSI-03). What "wounded" means depends on what was hit: a man becomes an
unverified casualty, a bronescaf loses his suit, a cavalryman his horse, a man-sized
weapon is destroyed (and is no casualty for morale, SW-DMG-07), a robot is immobilised,
then destroyed (SW-DMG-10). A Keno backpack flamethrower's bearer takes no test: he
dies and the pack explodes, hitting everyone within 4" with the flamethrower
(SW-DMG-09); the battle measures who stands there and Calls :func:`explosion_hits`.
"""

from __future__ import annotations

from dataclasses import dataclass

from kubik.core.errors import InputError
from kubik.engine import Call, Message, Procedure, emit
from kubik.engine.dice import Die
from kubik.engine.requests import RuleIds
from kubik.rulesets.steel_war.damage import (
    HitEffect,
    Injury,
    TargetKind,
    armour_die,
    armour_test,
    counts_for_morale,
    explodes_when_hit,
    explosion_radius,
    hit_armour,
    hit_effect,
    kind_after_hit,
)
from kubik.rulesets.steel_war.damage_allocation import allocate_hits
from kubik.rulesets.steel_war.fire_weapons import Special, weapon
from kubik.rulesets.steel_war.psionics import FireKind, survivability_armour_die


@dataclass(frozen=True, slots=True)
class TargetModel:
    """One model a hit can land on, as the armour rules see it.

    ``kind``: what it is (a man-sized weapon counts as a model of its own, SW-DMG-07);
    ``psi``: a psionic's psi die (SW-PSI-03); ``weapon``: what he carries (a Keno
    backpack flamethrower explodes when its bearer is hit, SW-DMG-09); ``name``: how
    people see it (a sniper's owner picks his victim by name).
    """

    id: str
    kind: TargetKind = TargetKind.MAN
    in_cover: bool = False
    flak_vest: bool = False
    psi: Die | None = None
    weapon: str = ""
    name: Message | None = None


@dataclass(frozen=True, slots=True)
class Hit:
    """What the hits are: the power die, flame or fragments, aimed small arms or not.

    ``rules``: the rules that set the power (the weapon table, support fire).
    """

    power: Die
    flame: bool = False
    fragmentation: bool = False
    aimed: bool = True
    from_air: bool = False
    rules: RuleIds = ("SW-FIRE-10",)


@dataclass(frozen=True, slots=True)
class ModelHit:
    """One hit resolved on one model.

    ``injury``: the armour test's result (None: no test — a backpack flamethrower's
    bearer); ``after``: what the model is now (None: it is gone); ``casualty``: it
    counts as a casualty for morale tests; ``explodes``: its Keno backpack flamethrower
    went off (the battle hits everyone within :func:`~.damage.explosion_radius` inches).
    """

    model: str
    effect: HitEffect
    injury: Injury | None = None
    after: TargetKind | None = None
    casualty: bool = False
    explodes: bool = False


_KIND_RULES: dict[TargetKind, RuleIds] = {
    TargetKind.MAN_SIZED_WEAPON: ("SW-DMG-07",),
    TargetKind.ROBOT: ("SW-DMG-10",),
    TargetKind.DAMAGED_ROBOT: ("SW-DMG-10",),
}


def model_armour(model: TargetModel, hit: Hit) -> tuple[Die, RuleIds]:
    """The armour die ``model`` rolls against ``hit``, and the rules that chose it.

    >>> from kubik.engine.dice import D4, D8, D10
    >>> model_armour(TargetModel("m", psi=D8), Hit(D10))
    (Die(faces=8), ('SW-DMG-04', 'SW-PSI-03'))
    >>> model_armour(TargetModel("m", flak_vest=True), Hit(D8, fragmentation=True))[0]
    Die(faces=6)
    """
    armour = hit_armour(armour_die(model.kind), model.flak_vest, hit.fragmentation)
    rules: list[str] = ["SW-DMG-04", *_KIND_RULES.get(model.kind, ())]
    if model.psi is not None:
        fire = FireKind.AIMED_SMALL_ARMS if hit.aimed else FireKind.OTHER
        psi_armour = survivability_armour_die(model.psi, armour, fire, from_air=hit.from_air)
        if psi_armour != armour:
            armour = psi_armour
            rules.append("SW-PSI-03")
    return armour, tuple(rules)


def _effect_rules(kind: TargetKind, effect: HitEffect) -> RuleIds:
    """The rules that say what the result means for this kind of model."""
    rules = ["SW-DMG-03", *_KIND_RULES.get(kind, ())]
    if effect is HitEffect.UNVERIFIED_CASUALTY:
        rules.append("SW-DMG-11")
    return tuple(rules)


def hit_on_model(model: TargetModel, hit: Hit) -> Procedure[ModelHit]:
    """One hit on one model: its own armour test, or the backpack going off (SW-DMG-09)."""
    if explodes_when_hit(model.weapon):
        yield emit(
            "steel_war.hit.explodes",
            rules="SW-DMG-09",
            model=model.name or model.id,
            radius=explosion_radius(),
        )
        return ModelHit(model.id, HitEffect.REMOVED, casualty=True, explodes=True)
    armour, rules = model_armour(model, hit)
    yield emit(
        "steel_war.hit.armour_test",
        rules=rules,
        model=model.name or model.id,
        power=hit.power,
        armour=armour,
    )
    injury: Injury = yield Call(armour_test, (armour, hit.power, hit.flame, (*rules, *hit.rules)))
    effect = hit_effect(model.kind, injury)
    yield emit(
        "steel_war.hit.result",
        rules=_effect_rules(model.kind, effect),
        model=model.name or model.id,
        effect=effect,
    )
    return ModelHit(
        model.id,
        effect,
        injury,
        kind_after_hit(model.kind, effect),
        counts_for_morale(model.kind, effect),
    )


def hits_on_models(
    hits: int,
    models: tuple[TargetModel, ...],
    hit: Hit,
    sniper: bool = False,
    side: str = "shooter",
) -> Procedure[tuple[ModelHit, ...]]:
    """Allocate ``hits`` among ``models`` (exposed ones first; a lone sniper's owner
    chooses), then resolve each model's hit in that order (SW-DMG-02, SW-DMG-03)."""
    if len({m.id for m in models}) != len(models):
        raise InputError("models: every model needs its own id")
    exposed = tuple(m.id for m in models if not m.in_cover)
    covered = tuple(m.id for m in models if m.in_cover)
    names = tuple((m.id, m.name) for m in models if m.name is not None)
    victims: tuple[str, ...] = yield from allocate_hits(hits, exposed, covered, sniper, side, names)
    by_id = {m.id: m for m in models}
    results: list[ModelHit] = []
    for victim in victims:
        results.append((yield from hit_on_model(by_id[victim], hit)))
    return tuple(results)


def explosion_hits(
    bearer_weapon: str, victims: tuple[TargetModel, ...]
) -> Procedure[tuple[ModelHit, ...]]:
    """A Keno backpack flamethrower explodes: every model within 4" of its bearer, friend
    or foe, gets a hit from that flamethrower (SW-DMG-09) — automatically wounded, killed
    on power ≥ 3 × armour (SW-DMG-08). Flame is not fragmentation, so flak vests do not
    help; a victim carrying such a pack sets his own off in turn.
    """
    carried = weapon(bearer_weapon)
    if not carried.has(Special.BACKPACK_EXPLODES):
        raise InputError(f"bearer_weapon: {bearer_weapon} does not explode when hit")
    hit = Hit(carried.power, flame=True, aimed=False, rules=("SW-DMG-09", "SW-FIRE-10"))
    results: list[ModelHit] = []
    for victim in victims:
        results.append((yield from hit_on_model(victim, hit)))
    return tuple(results)


__all__ = [
    "Hit",
    "ModelHit",
    "TargetModel",
    "explosion_hits",
    "hit_on_model",
    "hits_on_models",
    "model_armour",
]
