"""The Shooting phase of a fantasy battle: volleys (at the rank and file, or a Sniper's
pick of the character or the champion), shots at a ridden monster split between
monster and rider, and a monster's breath weapon under the flame template with the
champion's "Look out, Sir!" (FB-ABSENT-02, FB-SHOOT-03/06, FB-SR-01, FB-ABSENT-12,
FB-CMD-02/05). Every permission is the rule module's verdict, every roll a rule
procedure."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from kubik.engine import Call, Forecast, Procedure, Verdict, emit, msg
from kubik.game.battle import LazyForecast, Menu, taste
from kubik.rulesets.fantasy.attacks import AttacksOutcome, Blows, attacks
from kubik.rulesets.fantasy.battle.formation import ahead, bearing, under_flame
from kubik.rulesets.fantasy.battle.panic import friends_panic, test_panic
from kubik.rulesets.fantasy.battle.state import FantasyState
from kubik.rulesets.fantasy.battle.units import Act, Unit
from kubik.rulesets.fantasy.command import (
    Breath,
    breath_hits,
    breath_uses_left,
    champion_removed_out_of_order,
    flame_template,
    look_out_sir,
    may_aim_template,
    may_breathe,
    may_look_out_sir,
)
from kubik.rulesets.fantasy.psychology import panic_needed
from kubik.rulesets.fantasy.regiment import ModelKind
from kubik.rulesets.fantasy.shooting import (
    Volley,
    VolleyOutcome,
    may_shoot,
    sniper_may_pick,
    volley,
)
from kubik.table import Base

#: What a Sniper may pick out of a unit besides its rank and file (FB-SHOOT-03).
PICKS = ("hero", "champion")


def shot_worth(out: VolleyOutcome) -> float:
    return taste("fantasy", "shot_wound") * (out.wounds + out.rider_wounds)


def breath_worth(hits: int) -> float:
    return taste("fantasy", "breath_hit") * hits


def ridden(target: Unit) -> bool:
    """A monster with its rider still on it (FB-SHOOT-06)."""
    return target.spec.kind is ModelKind.RIDDEN_MONSTER and target.hero_alive


def volley_of(
    game: FantasyState, unit: Unit, target: Unit, *, stand: bool = False, at: str = "unit"
) -> Volley:
    """The volley ``unit`` shoots at ``target``: at its rank and file (``unit``), or at
    the model a Sniper picks (``hero``, ``champion``)."""
    spec, foe = unit.spec, target.spec
    missile = spec.missile
    assert missile is not None
    front = min(unit.models, spec.files)
    second = min(max(0, unit.models - spec.files), spec.files)
    rest = max(0, unit.models - 2 * spec.files)
    volley_fire = "volley_fire" in unit.rules()
    base = Volley(
        shots=front + second,
        overhead_shots=rest // 2 if volley_fire else 0,
        ballistic_skill=spec.troops.bs,
        strength=missile.strength,
        target_toughness=foe.troops.t,
        target_armour_save=foe.troops.armour_save,
        target_ward_save=foe.troops.ward_save,
        target_regeneration=foe.troops.regeneration,
        target_wounds=foe.troops.w,
        rules=unit.rules(),
        target_rules=target.rules(),
        long_range=game.board.gap(unit, target) > missile.range / 2,
        stand_and_shoot=stand,
        single_target=target.figures() == 1 or foe.skirmish,
        moved=unit.moved and not stand,
        multiple=missile.multiple if "multiple_shots" in unit.rules() else 1,
        mounted=spec.kind in (ModelKind.CAVALRY, ModelKind.CHARIOT),
        character_joined=spec.character is not None,
    )
    hero = foe.character
    if at == "hero" and hero is not None:
        return replace(
            base,
            target_toughness=hero.t,
            target_armour_save=hero.armour_save,
            target_ward_save=hero.ward_save,
            target_regeneration=hero.regeneration,
            target_wounds=hero.w,
            target_rules=hero.rules,
            single_target=True,
        )
    if at == "champion":
        return replace(base, target_wounds=1, single_target=True)
    if ridden(target) and hero is not None:
        return replace(
            base,
            ridden_monster=True,
            rider_toughness=hero.t,
            rider_armour_save=hero.armour_save,
            rider_wounds=hero.w - target.hero_wounds,
        )
    return base


def shooting(game: FantasyState, side: str) -> Procedure[None]:
    """Every unit of ``side`` that may shoot or breathe chooses its target."""
    for unit in game.units:
        if unit.side != side or not unit.fighting:
            continue
        if "breath_weapon" in unit.rules() and unit.spec.breath_strength is not None:
            yield from breath_phase(game, unit)
        if unit.spec.missile is not None and unit.fighting:
            yield from volley_phase(game, unit)


def volley_phase(game: FantasyState, unit: Unit) -> Procedure[None]:
    """A shooting unit picks any enemy it sees in range that is not in close combat
    (FB-ABSENT-02), or a Sniper the character or champion in one (FB-SHOOT-03); the
    menu measured with the board still."""
    with game.still():
        act = yield from volley_menu(game, unit)
    if act is None:
        return
    if act.kind == "shoot":
        yield from fire(game, unit, game.unit(act.target))
    elif act.kind.startswith("snipe_"):
        yield from fire(game, unit, game.unit(act.target), at=act.kind.removeprefix("snipe_"))


def volley_menu(game: FantasyState, unit: Unit) -> Procedure[Act | None]:
    """The shooting unit's menu and what it chose (None: no target at all)."""
    missile = unit.spec.missile
    assert missile is not None
    board = game.board
    targets = [e for e in board.enemies(unit) if e.fighting and not board.is_engaged(e)]
    if not targets:
        return None
    menu: Menu[Act] = Menu()
    for target in sorted(targets, key=lambda e: (board.gap(unit, e), e.id)):
        verdict = may_shoot(
            has_missiles=True,
            engaged=board.is_engaged(unit),
            fleeing=False,
            stupid=unit.stupid,
            in_range=board.gap(unit, target) <= missile.range,
            sees=board.sees(unit, target),
            marched=unit.marched,
            rallied=unit.rallied,
        )
        menu.offer(
            Act("shoot", target.id),
            msg("fantasy.option.shoot", target=game.name(target.id)),
            verdict,
            _forecast(game, unit, target, "unit") if verdict.allowed else None,
        )
        for pick in PICKS:
            there = (
                target.hero_alive
                if pick == "hero"
                else "champion" in target.command().alive(target.models)
            )
            if not there or not verdict.allowed:
                continue
            menu.offer(
                Act(f"snipe_{pick}", target.id),
                msg(f"fantasy.option.snipe_{pick}", target=game.name(target.id)),
                Verdict.combine(verdict, sniper_may_pick(unit.rules())),
                _forecast(game, unit, target, pick),
            )
    menu.offer(Act("hold"), msg("fantasy.option.hold"), Verdict.neutral())
    act: Act = yield from game.choose(
        menu,
        unit.side,
        msg("fantasy.game.shooting", unit=game.name(unit.id)),
        rules=("FB-ABSENT-02",),
    )
    return act


def _forecast(game: FantasyState, unit: Unit, target: Unit, at: str) -> LazyForecast:
    """The volley's odds as a bot weighs them, worked out when one does."""
    worth = shot_worth if at == "unit" else sniped_worth
    return LazyForecast(
        lambda: Forecast(volley, (volley_of(game, unit, target, at=at),), value=worth)
    )


def sniped_worth(out: VolleyOutcome) -> float:
    return taste("fantasy", "sniped") * out.wounds


def fire(
    game: FantasyState, unit: Unit, target: Unit, *, stand: bool = False, at: str = "unit"
) -> Procedure[None]:
    """One volley and what it does: casualties, a rider's wounds, a picked model slain,
    a Panic test."""
    unit.acted = True
    before, stood = target.models, target.bases()
    out: VolleyOutcome = yield Call(volley, (volley_of(game, unit, target, stand=stand, at=at),))
    lost = 0
    if at == "hero":
        yield from wound_hero(game, target, out.wounds, unit, ("FB-SHOOT-03",))
    elif at == "champion" and out.wounds:
        yield from champion_slain(game, target, unit, failed_look_out_sir=False)
        lost = 1
    else:
        lost = game.wound(target, out.wounds)
        if out.rider_wounds:
            yield from wound_hero(game, target, out.rider_wounds, unit, ("FB-SHOOT-06",))
    yield from game.casualty_notes()
    if lost and at != "champion":
        game.credit_kill(unit.id, lost)
    yield emit(
        "fantasy.game.shot",
        rules=("FB-ABSENT-02",),
        unit=game.name(unit.id),
        target=game.name(target.id),
        slain=lost,
    )
    yield from after_shots(game, target, unit, lost, before, stood, stand=stand)


def after_shots(
    game: FantasyState,
    target: Unit,
    shooter: Unit,
    lost: int,
    before: int,
    stood: Sequence[Base],
    *,
    stand: bool,
) -> Procedure[None]:
    """A target shot to the last model is destroyed, and its friends nearby test for
    panic; one that lost a quarter of its models tests itself (FB-ABSENT-09)."""
    if target.models == 0 and not target.hero_alive:
        game.destroy(target, by=None)
        yield from friends_panic(game, target, stood)
        return
    if not stand and panic_needed(lost, before):
        yield from test_panic(game, target, shooter)


def wound_hero(
    game: FantasyState, target: Unit, wounds: int, by: Unit, rules: tuple[str, ...]
) -> Procedure[None]:
    """Wounds on the character (a rider, or a Sniper's pick); he falls at his last."""
    hero = target.spec.character
    if hero is None or not target.hero_alive or wounds <= 0:
        return
    target.hero_wounds += wounds
    if target.hero_wounds >= hero.w:
        target.hero_alive = False
        game.credit_kill(by.id)
        yield emit("fantasy.game.hero_slain", rules=rules, unit=game.name(f"{target.id}.hero"))


def champion_slain(
    game: FantasyState, target: Unit, by: Unit, *, failed_look_out_sir: bool
) -> Procedure[None]:
    """The champion is removed before his turn comes (FB-CMD-05)."""
    verdict = champion_removed_out_of_order(
        failed_look_out_sir=failed_look_out_sir, sniper=not failed_look_out_sir
    )
    target.champion_lost = True
    game.wound(target, target.spec.troops.w)
    game.removed.clear()
    game.credit_kill(by.id)
    yield emit("fantasy.game.champion_slain", rules=verdict.rules, unit=game.name(target.id))


# -- breath weapons -----------------------------------------------------------------


def template_on(game: FantasyState, unit: Unit, target: Unit) -> tuple[int, int, int]:
    """(Facing, models fully, models partly under) of the flame template laid from the
    monster's head toward ``target``'s nearest model."""
    dx, dy = ahead(unit.facing)
    head = (unit.front[0] + dx * unit.spec.size / 2, unit.front[1] + dy * unit.spec.size / 2)
    theirs = target.bases()
    aim = min(theirs, key=lambda b: (b.centre[0] - head[0]) ** 2 + (b.centre[1] - head[1]) ** 2)
    facing = bearing(head, aim.centre)
    fully, partly = under_flame(head, facing, theirs)
    return facing, fully, partly


def breath_phase(game: FantasyState, unit: Unit) -> Procedure[None]:
    """A monster may breathe in the Shooting phase: twice a game, once a turn (FB-SR-01)."""
    if game.board.is_engaged(unit):
        return
    uses = breath_uses_left(unit.breaths)
    used = unit.breathed == game.turn_number
    if not game.may_breathe_now(unit):
        return
    menu: Menu[Act] = Menu()
    reach = flame_template()[0] + unit.spec.size
    for target in game.board.enemies(unit):
        if (
            not target.fighting
            or game.board.is_engaged(target)
            or game.board.gap(unit, target) > reach
        ):
            continue
        _, fully, partly = template_on(game, unit, target)
        menu.offer(
            Act("breathe", target.id),
            msg("fantasy.option.breathe", target=game.name(target.id)),
            Verdict.combine(
                may_breathe(uses, used, marched=unit.marched, rallied=unit.rallied),
                may_aim_template(fully + partly),
            ),
            Forecast(breath_hits, (Breath(fully, partly, uses, used),), value=breath_worth),
        )
    if not menu.offers:
        return
    menu.offer(Act("hold"), msg("fantasy.option.hold"), Verdict.neutral())
    act = yield from game.choose(
        menu,
        unit.side,
        msg("fantasy.game.breath", unit=game.name(unit.id)),
        rules=("FB-SR-01",),
    )
    if act.kind == "breathe":
        yield from breathe(game, unit, game.unit(act.target), uses)


def breathe(game: FantasyState, unit: Unit, target: Unit, uses: int) -> Procedure[None]:
    strength = unit.spec.breath_strength
    assert strength is not None
    unit.breaths += 1
    unit.breathed = game.turn_number
    unit.acted = True
    _, fully, partly = template_on(game, unit, target)
    yield emit(
        "fantasy.game.breathes",
        rules=("FB-SR-01", "FB-ABSENT-12"),
        unit=game.name(unit.id),
        target=game.name(target.id),
    )
    hits: int = yield Call(breath_hits, (Breath(fully, partly, uses, False),))
    foe = target.spec.troops
    blows = Blows(
        attacks=hits,
        weapon_skill=1,
        strength=strength,
        target_weapon_skill=1,
        target_toughness=foe.t,
        target_armour_save=foe.armour_save,
        target_ward_save=foe.ward_save,
        rules=unit.rules() - {"breath_weapon"},
        target_rules=target.rules(),
        target_regeneration=foe.regeneration,
        target_wounds=foe.w,
        auto_hit=True,
    )
    before, stood = target.models, target.bases()
    lost = 0
    champion = "champion" in target.command().alive(target.models)
    infantry = target.models if target.spec.kind is ModelKind.INFANTRY else 0
    if hits and may_look_out_sir(template=True, champion=champion, infantry_models=infantry):
        saved = yield Call(look_out_sir, ())
        if not saved:
            hits -= 1
            on_him: AttacksOutcome = yield Call(attacks, (replace(blows, attacks=1),))
            if on_him.wounds:
                yield from champion_slain(game, target, unit, failed_look_out_sir=True)
                lost += 1
    if hits:
        out: AttacksOutcome = yield Call(attacks, (replace(blows, attacks=hits),))
        slain = game.wound(target, out.wounds)
        if slain:
            game.credit_kill(unit.id, slain)
        lost += slain
    yield from game.casualty_notes()
    yield emit(
        "fantasy.game.shot",
        rules=("FB-SR-01",),
        unit=game.name(unit.id),
        target=game.name(target.id),
        slain=lost,
    )
    yield from after_shots(game, target, unit, lost, before, stood, stand=False)
