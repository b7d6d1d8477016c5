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
from kubik.engine.requests import AnyCall, step
from kubik.engine.runs import Runs, odds_by_runs
from kubik.rulesets.fantasy.attacks import AttacksOutcome, Blows, attacks, weapon_flag
from kubik.rulesets.fantasy.charts import data
from kubik.rulesets.fantasy.combat_resolution import Resolutions
from kubik.rulesets.fantasy.combat_sides import Round, side_name
from kubik.rulesets.fantasy.combat_tally import (
    RoundState,
    Tally,
    other_side,
    target_of,
)
from kubik.rulesets.fantasy.profiles import Fighter
from kubik.rulesets.fantasy.regiment import ModelKind, fighting_models
from kubik.rulesets.fantasy.strike_order import order_rules, strike_key


def fighting_ranks(troops: Fighter) -> int:
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


def _breath_roll(r: Round, side: str) -> Roll:
    """The dice of a breath in combat: 2D6 automatic hits (FB-SR-01)."""
    return Roll(
        (D6,) * int(data()["breath"]["close_combat_dice"]),
        msg("fantasy.combat.breath", side=side_name(r, side)),
        unordered=True,
        reduce=Total(),
        rules=("FB-SR-01",),
    )


def _breath(r: Round, side: str, what: str, left: int, hits: int) -> Blows:
    """The ``hits`` of a breath of ``side`` at what of the enemy it strikes, which has
    ``left`` wounds (FB-SR-01): automatic hits with the breath's Strength."""
    reg, enemy = (r.a, r.b) if side == "a" else (r.b, r.a)
    victim = enemy.character if what == "character" and enemy.character else enemy.troops
    return Blows(
        attacks=hits,
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
        target_wounds_left=left,
    )


def _blows(st: RoundState, s: _Striker) -> tuple[str, Blows] | None:
    """The blows a striker of the rank and file or a character makes now at what of
    the enemy is left to strike."""
    reg = st.regiment(s.side)
    r = st.r
    target = target_of(st, other_side(s.side))
    if target is None:
        return None
    what, victim, left = target
    afraid = st.afraid_now(s.side)
    struck_afraid = st.afraid_now(other_side(s.side))
    rides = what == "character" and st.regiment(other_side(s.side)).kind is ModelKind.RIDDEN_MONSTER
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
            target_afraid=struck_afraid,
            target_wounds_left=left,
            target_rides=rides,
        )
    alive = st.models(s.side)
    if alive == 0:
        return None
    fighters = _fighters(st, s.side, alive)
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
        target_afraid=struck_afraid,
        target_wounds_left=left,
        target_rides=rides,
    )


def _fighters(st: RoundState, side: str, alive: int) -> int:
    """The rank and file that strike now (FB-ABSENT-13): those in base contact and the
    ranks supporting them — for a frontal fight given no contact, the first ranks, the
    character taking a place in the front one — less those slain before they strike
    (the casualties of this round are the models fighting)."""
    reg = st.regiment(side)
    full = reg.fighters
    if full is None:
        places = reg.files * fighting_ranks(reg.troops) - int(reg.character is not None)
        full = fighting_models(reg.models, places, 1)
    slain = st.troop_wounds[side] // reg.troops.w - reg.wounds_taken // reg.troops.w
    return max(0, min(alive, full - slain))


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
    resolution reads, its strikers grouped in strike order (FB-ABSENT-17) and each
    group's strikers of each side, each striker's blows, their call and the rules they
    name per tally, and what each side's blows strike at per tally, worked out once:
    the exact odds replay a step once per answer. Equal by identity (one per round
    object, :func:`plan_of`)."""

    __slots__ = ("breaths", "groups", "sides", "strikes", "targets")

    def __init__(self, r: Round) -> None:
        super().__init__(r)
        strikers = _strikers(r)
        self.groups = tuple(
            tuple(s for s in strikers if s.key == key) for key in sorted({s.key for s in strikers})
        )
        #: per group, the strikers of side a and of side b (a's strike before b's: in
        #: this order the blows are rolled)
        self.sides = tuple(
            {side: tuple(s for s in group if s.side == side) for side in ("a", "b")}
            for group in self.groups
        )
        self.strikes: Kept[tuple[Tally, _Striker], _Strike | None] = Kept(_STRIKES_KEPT)
        self.targets: Kept[tuple[Tally, str], tuple[str, int] | None] = Kept(_STRIKES_KEPT)
        #: each side's breath dice, one request each (the exact odds know it by identity)
        self.breaths = {side: _breath_roll(r, side) for side in ("a", "b")}

    def breath_roll(self, side: str) -> Roll:
        """The dice of the breath of ``side`` (FB-SR-01)."""
        return self.breaths[side]

    def side_blows(self, tally: Tally, group: int, side: str, target: tuple[str, int]) -> SideBlows:
        """What the strikers of ``side`` in ``group`` strike with at ``tally``."""
        strikes = tuple(
            None if s.what == "breath" else self.strike(tally, s) for s in self.sides[group][side]
        )
        return SideBlows(group, side, target, tally.afraid, strikes)

    def target(self, tally: Tally, side: str) -> tuple[str, int] | None:
        """What the blows of ``side`` strike at ``tally`` and the wounds it has left
        (none when nothing of the enemy is left to strike): every striker of a side in
        a group strikes the same, so what they deal adds up, capped at that."""
        key = (tally, side)
        made = self.targets.get(key)
        if made is not None or key in self.targets:
            return made
        found = target_of(RoundState.thawed(self.r, tally), other_side(side))
        return self.targets.keep(key, None if found is None else (found[0], found[2]))

    def strike(self, tally: Tally, s: _Striker) -> _Strike | None:
        """A striker's blows at the tally (none when he has no blows to make)."""
        key = (tally, s)
        made = self.strikes.get(key)
        if made is not None or key in self.strikes:
            return made
        st = RoundState.thawed(self.r, tally)
        planned = _blows(st, s)
        made = None if planned is None else _strike(self.r, tally.afraid, s, *planned)
        return self.strikes.keep(key, made)


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


def _strike(
    r: Round, afraid: tuple[bool, bool], s: _Striker, what: str, blows: Blows
) -> _Strike | None:
    """A striker's ``blows`` at ``what``, with the rules of the strike (``afraid``: whether
    each side fights afraid, FB-PSY-01)."""
    if blows.attacks <= 0:
        return None
    reg = r.a if s.side == "a" else r.b
    fighter = reg.character if s.what == "character" and reg.character else reg.troops
    rules = (
        order_rules(fighter.rules, fighter.weapon, r.round_number)
        + _blow_rules(s.what, fighter)
        + (("FB-PSY-01",) if any(afraid) else ())
    )
    return _Strike(what, Call(attacks, (blows,)), blows.attacks, rules)


def strike_group(plan: RoundPlan, tally: Tally, group: int) -> Procedure[Tally]:
    """The tally once the strikers of ``group`` have struck at ``tally`` (the tally the
    groups before it left: those killed before they strike do not strike). The two
    sides' strikes are one call on what they read (:func:`both_strike`), whose answer,
    the wounds each side deals, the tally takes (:class:`Dealt`): the exact odds map
    each pair of wounds onto the tally instead of replaying the group for each."""
    strikes: list[tuple[SideBlows, int] | None] = []
    for side in ("a", "b"):
        strikers = len(plan.sides[group][side])
        target = plan.target(tally, side)
        if target is None or not strikers:
            strikes.append(None)
            continue
        strikes.append((plan.side_blows(tally, group, side, target), strikers))
    a, b = strikes
    if a is None and b is None:
        return tally
    dealt = Dealt(
        tally,
        None if a is None else a[0].target[0],
        None if b is None else b[0].target[0],
    )
    call = Call(both_strike, (plan, a, b), inline=True, tail=True, then=dealt)
    pair: tuple[int, int] = yield call
    return dealt(pair)


def both_strike(
    plan: RoundPlan, a: tuple[SideBlows, int] | None, b: tuple[SideBlows, int] | None
) -> Procedure[tuple[int, int]]:
    """The wounds each side's strikers of a group deal (side a's blows rolled first):
    each side's :func:`side_strikes` (``None``: a side that strikes nothing now)."""
    dealt_a: int = 0 if a is None else (yield step(side_strikes, plan, *a))
    dealt_b: int = 0 if b is None else (yield step(side_strikes, plan, *b))
    return dealt_a, dealt_b


class Dealt:
    """A tally taking the wounds each side's strikers of a group dealt: (wounds of
    side a, of side b) at what each struck (troops or character; ``None``: nothing)."""

    __slots__ = ("a", "b", "tally")

    def __init__(self, tally: Tally, a: str | None, b: str | None) -> None:
        self.tally, self.a, self.b = tally, a, b

    def __call__(self, pair: tuple[int, int]) -> Tally:
        tally = self.tally
        if pair[0] and self.a is not None:
            tally = wounded(tally, "a", self.a, pair[0])
        if pair[1] and self.b is not None:
            tally = wounded(tally, "b", self.b, pair[1])
        return tally


def wounded(tally: Tally, side: str, what: str, wounds: int) -> Tally:
    """``tally`` once ``side`` deals ``wounds`` to what of the enemy it strikes (no more
    than that has left): the enemy's troops or character take them, ``side`` caused them."""
    hit = 1 if side == "a" else 0
    caused = list(tally.caused)
    caused[1 - hit] += wounds
    if what == "troops":
        troops = list(tally.troop_wounds)
        troops[hit] += wounds
        return tally._replace(troop_wounds=(troops[0], troops[1]), caused=(caused[0], caused[1]))
    characters = list(tally.character_wounds)
    characters[hit] += wounds
    return tally._replace(
        character_wounds=(characters[0], characters[1]), caused=(caused[0], caused[1])
    )


class SideBlows(NamedTuple):
    """What the strikers of one side in a group strike with at a tally: their target
    (what of the enemy and the wounds it has left), whether each side fights afraid,
    and each striker's blows (None: a breath, rolled at the target, or no blows). All
    the side's strikes read of the tally, so tallies that differ elsewhere share them."""

    group: int
    side: str
    target: tuple[str, int]
    afraid: tuple[bool, bool]
    strikes: tuple[_Strike | None, ...]


def _strikers_apart(
    plan: RoundPlan, blows: SideBlows, strikers: int, alone: bool = False
) -> Runs | None:
    """:func:`side_strikes` of several strikers as runs of each striker alone: they
    strike at once on the same tally, each his own dice, so the wounds they deal
    together are the sum of each one's, capped at what their target has left."""
    if alone or strikers == 1:
        return None
    return Runs(
        tuple((1, (plan, blows, striker, True)) for striker in range(1, strikers + 1)),
        _as_amount,
        _first_amount,
        (blows.target[1],),
    )


def _as_amount(wounds: int) -> tuple[int]:
    return (wounds,)


def _first_amount(amounts: tuple[int, ...]) -> int:
    return amounts[0]


@odds_by_runs(_strikers_apart)
def side_strikes(
    plan: RoundPlan, blows: SideBlows, strikers: int, alone: bool = False
) -> Procedure[int]:
    """The wounds the first ``strikers`` of a side in a group deal together, at most what
    their target has left (the strikers of a group strike at once, each on the tally the
    group began with; one side's blows do not change the other's); ``alone``: the wounds
    of the ``strikers``-th alone. Each striker is a step on the wounds of those before
    him; the exact odds add the strikers' wounds up as independent runs
    (:func:`_strikers_apart`), each striker's once, not every way the sum was made."""
    before: int = (
        0 if strikers == 1 or alone else (yield step(side_strikes, plan, blows, strikers - 1))
    )
    target = blows.target
    s = plan.sides[blows.group][blows.side][strikers - 1]
    if s.what == "breath":
        wounds: int = yield step(breath_strike, plan, s, target, blows.afraid)
        return min(before + wounds, target[1])
    made = blows.strikes[strikers - 1]
    if made is None:
        return before
    struck = yield from _struck(plan, s, made)
    return min(before + struck, target[1])


def breath_strike(
    plan: RoundPlan, s: _Striker, target: tuple[str, int], afraid: tuple[bool, bool]
) -> Procedure[int]:
    """The wounds a breath deals at ``target`` (what of the enemy it strikes and the
    wounds that has left; FB-SR-01): its dice, then its hits' blows. A step of its own
    on just what it reads, so the exact odds keep its wounds once per target, not every
    roll of its dice per tally."""
    hits = yield plan.breath_roll(s.side)
    made = _strike(plan.r, afraid, s, target[0], _breath(plan.r, s.side, *target, int(hits)))
    if made is None:
        return 0
    return (yield from _struck(plan, s, made))


def _struck(plan: RoundPlan, s: _Striker, made: _Strike) -> Procedure[int]:
    """A striker's blows struck: told, then rolled; the wounds they deal."""
    striker = plan.r.a if s.side == "a" else plan.r.b
    yield emit(
        "fantasy.combat.strike",
        rules=made.rules,
        side=striker.character_name
        if s.what == "character" and striker.character_name is not None
        else side_name(plan.r, s.side),
        attacks=made.attacks,
    )
    outcome: AttacksOutcome = yield made.call
    return outcome.wounds
