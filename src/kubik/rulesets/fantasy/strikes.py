"""The blows of a round of close combat in strike order (FB-ABSENT-17): strikers
grouped by when they strike, each group a step of the round on the tally the steps
before it left, those killed before they strike not striking; breath in combat
(FB-SR-01); the last step resolves the combat (:mod:`.combat_resolution`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from kubik.core.keeping import Kept
from kubik.engine import Call, Procedure, Roll, emit, msg
from kubik.engine.dice import D6
from kubik.engine.reducers import Total
from kubik.engine.requests import AnyCall, tail_step
from kubik.rulesets.fantasy.attacks import AttacksOutcome, Blows, attacks, weapon_flag
from kubik.rulesets.fantasy.charts import data
from kubik.rulesets.fantasy.combat_resolution import Resolutions, Resolved, resolution
from kubik.rulesets.fantasy.combat_sides import Round, RoundOutcome
from kubik.rulesets.fantasy.combat_tally import (
    RoundState,
    Tally,
    deal_wounds,
    other_side,
    target_of,
)
from kubik.rulesets.fantasy.profiles import Fighter
from kubik.rulesets.fantasy.regiment import fighting_models
from kubik.rulesets.fantasy.strike_order import order_rules, strike_key


def _ranks(troops: Fighter) -> int:
    """Fighting ranks: the first, one more with spears, one more for Fight in extra
    rank (FB-ABSENT-13, FB-SR-08)."""
    return (
        1
        + int(weapon_flag(troops.weapon, "extra_rank"))
        + int("fight_in_extra_rank" in troops.rules)
    )


@dataclass(frozen=True, slots=True)
class _Striker:
    side: str
    what: str  # troops / character / breath
    key: tuple[int, int]


def _strikers(r: Round) -> list[_Striker]:
    out: list[_Striker] = []
    for side in ("a", "b"):
        reg = r.a if side == "a" else r.b
        charging = reg.charging
        troops = reg.troops
        key = strike_key(
            troops.i,
            troops.rules,
            round_number=r.round_number,
            charging=charging,
            weapon=troops.weapon,
        )
        out.append(_Striker(side, "troops", key))
        if reg.breath_strength is not None and "breath_weapon" in troops.rules:
            out.append(_Striker(side, "breath", key))
        if reg.character is not None:
            ch = reg.character
            out.append(
                _Striker(
                    side,
                    "character",
                    strike_key(
                        ch.i,
                        ch.rules,
                        round_number=r.round_number,
                        charging=charging,
                        weapon=ch.weapon,
                    ),
                )
            )
    return out


def _breath(st: RoundState, s: _Striker) -> Procedure[tuple[str, Blows] | None]:
    """The breath of a striker at what of the enemy is left to strike (FB-SR-01)."""
    reg = st.regiment(s.side)
    target = target_of(st, other_side(s.side))
    if target is None:
        return None
    what, victim, _ = target
    total = yield Roll(
        (D6,) * int(data()["breath"]["close_combat_dice"]),
        msg("fantasy.combat.breath", side=s.side),
        unordered=True,
        reduce=Total(),
        rules=("FB-SR-01",),
    )
    return what, Blows(
        attacks=int(total),
        weapon_skill=reg.troops.ws,
        strength=reg.breath_strength or reg.troops.s,
        target_weapon_skill=victim.ws,
        target_toughness=victim.t,
        target_armour_save=victim.armour_save,
        target_ward_save=victim.ward_save,
        rules=reg.troops.rules,
        target_rules=victim.rules,
        target_regeneration=victim.regeneration,
        target_wounds=victim.w,
        auto_hit=True,
    )


def _blows(st: RoundState, s: _Striker) -> tuple[str, Blows] | None:
    """The blows a striker of the rank and file or a character makes now at what of
    the enemy is left to strike."""
    reg = st.regiment(s.side)
    r = st.r
    target = target_of(st, other_side(s.side))
    if target is None:
        return None
    what, victim, _ = target
    afraid = st.afraid.get(s.side, reg.afraid)
    if s.what == "character":
        if not st.character_fights(s.side) or reg.character is None:
            return None
        return what, reg.character.blows_at(
            victim,
            round_number=r.round_number,
            charging=reg.charging,
            models=1,
            afraid=afraid,
            hates=reg.hates_enemy,
        )
    alive = st.models(s.side)
    if alive == 0:
        return None
    fighters = fighting_models(alive, reg.files, _ranks(reg.troops))
    champion = st.champion_alive(s.side) and f"{s.side}:champion" not in st.out_of_fight
    if f"{s.side}:champion" in st.out_of_fight and st.champion_alive(s.side):
        fighters = min(fighters, alive - 1)
    return what, reg.troops.blows_at(
        victim,
        round_number=r.round_number,
        charging=reg.charging,
        models=fighters,
        afraid=afraid,
        hates=reg.hates_enemy,
        bonus_attacks=1 if champion and fighters else 0,
    )


def _blow_rules(what: str, fighter: Fighter) -> tuple[str, ...]:
    """The rules that shaped a striker's blows: fighting ranks (FB-ABSENT-13, FB-SR-08),
    the weapon (FB-ABSENT-18), Extra attack (FB-SR-07, through Frenzy FB-PSY-05)."""
    rules: tuple[str, ...] = ()
    if what == "troops":
        rules += ("FB-ABSENT-13",)
        if "fight_in_extra_rank" in fighter.rules:
            rules += ("FB-SR-08",)
    if fighter.weapon != "hand_weapon":
        rules += ("FB-ABSENT-18",)
    if "extra_attack" in fighter.rules:
        rules += ("FB-SR-07",)
    if "frenzy" in fighter.rules:
        rules += ("FB-SR-07", "FB-PSY-05")
    return rules


class RoundPlan(Resolutions):
    """What the steps of one round share whatever the dice: besides what its
    resolution reads, its strikers grouped in strike order (FB-ABSENT-17), and each
    striker's blows, their call and the rules they name per tally, and the tally each
    step's results leave, worked out once: the exact odds replay a step once per
    answer. Equal by identity (one per round object, :func:`plan_of`)."""

    __slots__ = ("finished", "groups", "strikes")

    def __init__(self, r: Round) -> None:
        super().__init__(r)
        strikers = _strikers(r)
        self.groups = tuple(
            tuple(s for s in strikers if s.key == key) for key in sorted({s.key for s in strikers})
        )
        self.strikes: Kept[tuple[Tally, _Striker], _Strike | None] = Kept(_STRIKES_KEPT)
        self.finished: Kept[
            tuple[Tally, tuple[tuple[str, str, int], ...]], tuple[Tally, Resolved]
        ] = Kept(_STRIKES_KEPT)

    def after(self, tally: Tally, results: tuple[tuple[str, str, int], ...]) -> Tally:
        """The tally once a step's strikers' ``results`` (side, what they struck,
        wounds) are dealt."""
        return _dealt(self.r, tally, results).frozen()

    def finish(
        self, tally: Tally, results: tuple[tuple[str, str, int], ...]
    ) -> tuple[Tally, Resolved]:
        """The tally the last step's ``results`` leave and its resolution, once per
        tally and results: the exact odds replay the last step once per outcome of
        the Break test."""
        key = (tally, results)
        made = self.finished.get(key)
        if made is None:
            st = _dealt(self.r, tally, results)
            after = st.frozen()
            made = self.finished.keep(key, (after, self.resolved(after, st)))
        return made

    def next_group(self, tally: Tally, group: int) -> int:
        """The first group from ``group`` on in which someone strikes at ``tally``: a
        group whose strikers have no blows to make asks nothing, so the round's next
        step skips it (the number of groups: none left, only the resolution)."""
        groups = self.groups
        while group < len(groups) and not any(
            s.what == "breath" or self.strike(tally, s) is not None for s in groups[group]
        ):
            group += 1
        return group

    def strike(self, tally: Tally, s: _Striker) -> _Strike | None:
        """A striker's blows at the tally (none when he has no blows to make)."""
        key = (tally, s)
        made = self.strikes.get(key)
        if made is not None or key in self.strikes:
            return made
        st = RoundState.thawed(self.r, tally)
        planned = _blows(st, s)
        return self.strikes.keep(key, None if planned is None else _strike(st, s, *planned))


#: Strikes a round's plan keeps (an engine limit, not a rule).
_STRIKES_KEPT = 1024


#: Round plans kept by the round's identity (an engine limit, not a rule).
_PLANS_KEPT = 64


_plans: Kept[int, RoundPlan] = Kept(_PLANS_KEPT)


def plan_of(r: Round) -> RoundPlan:
    """The plan of round ``r`` (the same object for the same round object: it keeps
    the round, so the id is not reused while remembered)."""
    plan = _plans.get(id(r))
    if plan is not None and plan.r is r and plan.table is data():
        return plan
    return _plans.keep(id(r), RoundPlan(r))


class _Strike(NamedTuple):
    """A striker's blows as asked: what they strike, the call, the rules of the strike."""

    what: str
    call: AnyCall
    attacks: int
    rules: tuple[str, ...]


def _strike(st: RoundState, s: _Striker, what: str, blows: Blows) -> _Strike | None:
    if blows.attacks <= 0:
        return None
    reg = st.regiment(s.side)
    fighter = reg.character if s.what == "character" and reg.character else reg.troops
    rules = (
        order_rules(fighter.rules, fighter.weapon, st.r.round_number)
        + _blow_rules(s.what, fighter)
        + (("FB-PSY-01",) if st.afraid.get(s.side, reg.afraid) else ())
    )
    return _Strike(what, Call(attacks, (blows,)), blows.attacks, rules)


def _dealt(r: Round, tally: Tally, results: tuple[tuple[str, str, int], ...]) -> RoundState:
    """The running tally once ``results`` (side, what they struck, wounds) are dealt."""
    st = RoundState.thawed(r, tally)
    for side, what, wounds in results:
        st.caused[side] += deal_wounds(st, other_side(side), what, wounds)
    return st


def strike_step(plan: RoundPlan, tally: Tally, group: int) -> Procedure[RoundOutcome]:
    """One step of the strike order from ``tally``: its strikers, those killed before
    it not striking, then the next step; after the last, the resolution. Each step is
    a step of the round (a tail call on the new tally), so the odds of a round keep
    what each step did, not every way it was done."""
    if group >= len(plan.groups):
        return (yield from resolution(plan, tally, plan.resolved(tally)))
    results: list[tuple[str, str, int]] = []
    for s in plan.groups[group]:
        if s.what == "breath":
            st = RoundState.thawed(plan.r, tally)
            planned = yield from _breath(st, s)
            made = None if planned is None else _strike(st, s, *planned)
        else:
            made = plan.strike(tally, s)
        if made is None:
            continue
        yield emit("fantasy.combat.strike", rules=made.rules, side=s.side, attacks=made.attacks)
        outcome: AttacksOutcome = yield made.call
        results.append((s.side, made.what, outcome.wounds))
    if group + 1 == len(plan.groups):  # the last step resolves the combat itself
        after, resolved = plan.finish(tally, tuple(results))
        return (yield from resolution(plan, after, resolved))
    after = plan.after(tally, tuple(results))
    rest: RoundOutcome = yield tail_step(
        strike_step, plan, after, plan.next_group(after, group + 1)
    )
    return rest
