"""A whole round of close combat between two regiments, as one procedure.

Fear and Terror at the first round (FB-PSY-01..04), impact hits (FB-SR-14), the
challenge and its duel (FB-CHAL-01..03), every blow in strike order with the
models killed before they strike not striking (FB-ABSENT-17), breath in combat
(FB-SR-01), combat resolution (FB-ABSENT-07 with the seed's command bonuses),
and the loser's Break test (FB-ABSENT-08 with Stubborn, Unbreakable, Horde). So a
player sees the chance to win the combat and to break the enemy, not just wounds.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import NamedTuple

from kubik.dice import D3, D6
from kubik.engine import Call, Procedure, Roll, emit, msg
from kubik.engine.reducers import Total
from kubik.engine.requests import AnyCall, tail_step
from kubik.rulesets.fantasy.attacks import AttacksOutcome, Blows, attacks, weapon_flag
from kubik.rulesets.fantasy.challenge import Duel, DuelOutcome, duel_round
from kubik.rulesets.fantasy.charts import data
from kubik.rulesets.fantasy.leadership import Command
from kubik.rulesets.fantasy.profiles import Fighter
from kubik.rulesets.fantasy.psychology import (
    BreakOutcome,
    Confrontation,
    Defeat,
    Nerve,
    break_test,
    face_dread,
)
from kubik.rulesets.fantasy.regiment import (
    CommandGroup,
    ModelKind,
    fighting_models,
    rank_bonus,
    unit_strength,
)
from kubik.rulesets.fantasy.strike_order import order_rules, strike_key


class Facing(StrEnum):
    """Which face of the enemy a regiment fights (FB-ABSENT-07: flank +1, rear +2)."""

    FRONT = "front"
    FLANK = "flank"
    REAR = "rear"


class ChallengeChoice(StrEnum):
    """What happens to a challenge at the start of the combat (FB-CHAL-01/02)."""

    NONE = "none"
    ACCEPT = "accept"
    REFUSE = "refuse"


@dataclass(frozen=True, slots=True)
class Regiment:
    """One side of the combat: its rank and file, ranks and files, command group,
    the character in it, and how it came into the fight."""

    troops: Fighter
    models: int
    files: int = 5
    kind: ModelKind = ModelKind.INFANTRY
    command: CommandGroup = field(default_factory=CommandGroup)
    character: Fighter | None = None
    battle_standard: bool = False
    general: bool = False
    charging: bool = False
    facing: Facing = Facing.FRONT
    high_ground: bool = False
    skirmish: bool = False
    hates_enemy: bool = False
    impact: str | None = None
    breath_strength: int | None = None
    afraid: bool = False
    terror_tested: bool = False
    reach: Command = field(default_factory=Command)
    wounds_taken: int = 0


@dataclass(frozen=True, slots=True)
class Round:
    """A round of the combat between ``a`` and ``b``."""

    a: Regiment
    b: Regiment
    round_number: int = 1
    challenge: ChallengeChoice = ChallengeChoice.ACCEPT


@dataclass(frozen=True, slots=True)
class RoundOutcome:
    """Who won the round (``a``/``b``/``draw``) and by how much, who broke, and the
    models each side lost (its character not counted)."""

    winner: str
    margin: int
    broken: str | None
    a_lost: int
    b_lost: int
    a_character_lost: bool = False
    b_character_lost: bool = False


def _other(side: str) -> str:
    return "b" if side == "a" else "a"


def impact_dice(impact: str) -> tuple[int, int]:
    """(faces, plus) of an impact-hits value: ``d3`` → (3, 0), ``d6+1`` → (6, 1)."""
    text = impact.lower().replace(" ", "")
    die, _, plus = text.partition("+")
    return int(die.lstrip("d")), int(plus or 0)


class _Tally(NamedTuple):
    """A :class:`_State` frozen between the steps of a round (a tuple: hashed in C),
    the afraid flags resolved (a side's own test, else its regiment's)."""

    troop_wounds: tuple[int, int]
    character_wounds: tuple[int, int]
    caused: tuple[int, int]
    overkill: tuple[int, int]
    champion_lost: tuple[bool, bool]
    out_of_fight: frozenset[str]
    refused: frozenset[str]
    afraid: tuple[bool, bool]


@dataclass
class _State:
    """The round's running tally (private to one run of the procedure)."""

    r: Round
    troop_wounds: dict[str, int]
    character_wounds: dict[str, int] = field(default_factory=lambda: {"a": 0, "b": 0})
    caused: dict[str, int] = field(default_factory=lambda: {"a": 0, "b": 0})
    overkill: dict[str, int] = field(default_factory=lambda: {"a": 0, "b": 0})
    champion_lost: dict[str, bool] = field(default_factory=lambda: {"a": False, "b": False})
    out_of_fight: set[str] = field(default_factory=set)  # "a:character", "b:champion"
    refused: set[str] = field(default_factory=set)
    afraid: dict[str, bool] = field(default_factory=dict)

    def regiment(self, side: str) -> Regiment:
        return self.r.a if side == "a" else self.r.b

    def models(self, side: str) -> int:
        reg = self.regiment(side)
        lost = self.troop_wounds[side] // reg.troops.w
        return max(0, reg.models - int(self.champion_lost[side]) - lost)

    def troop_wounds_left(self, side: str) -> int:
        reg = self.regiment(side)
        return (reg.models - int(self.champion_lost[side])) * reg.troops.w - self.troop_wounds[side]

    def character_alive(self, side: str) -> bool:
        reg = self.regiment(side)
        return reg.character is not None and self.character_wounds[side] < reg.character.w

    def champion_alive(self, side: str) -> bool:
        reg = self.regiment(side)
        return "champion" in _command(reg, self.champion_lost[side]).alive(self.models(side))

    def character_fights(self, side: str) -> bool:
        return self.character_alive(side) and f"{side}:character" not in self.out_of_fight

    def frozen(self) -> _Tally:
        """The tally as a value, for the round's next step."""
        return _Tally(
            (self.troop_wounds["a"], self.troop_wounds["b"]),
            (self.character_wounds["a"], self.character_wounds["b"]),
            (self.caused["a"], self.caused["b"]),
            (self.overkill["a"], self.overkill["b"]),
            (self.champion_lost["a"], self.champion_lost["b"]),
            frozenset(self.out_of_fight),
            frozenset(self.refused),
            (self.afraid.get("a", self.r.a.afraid), self.afraid.get("b", self.r.b.afraid)),
        )

    @classmethod
    def thawed(cls, r: Round, tally: _Tally) -> _State:
        """The running tally of a round's step from its frozen value."""

        def pair(values: tuple[int, int]) -> dict[str, int]:
            return {"a": values[0], "b": values[1]}

        return cls(
            r,
            pair(tally.troop_wounds),
            pair(tally.character_wounds),
            pair(tally.caused),
            pair(tally.overkill),
            {"a": tally.champion_lost[0], "b": tally.champion_lost[1]},
            set(tally.out_of_fight),
            set(tally.refused),
            {"a": tally.afraid[0], "b": tally.afraid[1]},
        )


def _command(reg: Regiment, champion_lost: bool) -> CommandGroup:
    if champion_lost:
        return replace(reg.command, champion=False)
    return reg.command


def _champion(reg: Regiment) -> Fighter:
    """A champion fights with his unit's profile and one more Attack."""
    return replace(reg.troops, a=reg.troops.a + 1)


def _ranks(troops: Fighter) -> int:
    """Fighting ranks: the first, one more with spears, one more for Fight in extra
    rank (FB-ABSENT-13, FB-SR-08)."""
    return (
        1
        + int(weapon_flag(troops.weapon, "extra_rank"))
        + int("fight_in_extra_rank" in troops.rules)
    )


def _target(st: _State, side: str) -> tuple[str, Fighter, int] | None:
    """What blows at ``side`` strike: its rank and file, or its character once they
    are gone: (what, profile, wounds left)."""
    reg = st.regiment(side)
    if st.models(side) > 0:
        return "troops", reg.troops, st.troop_wounds_left(side)
    if st.character_fights(side) and reg.character is not None:
        return "character", reg.character, reg.character.w - st.character_wounds[side]
    return None


def _hit(st: _State, side: str, what: str, wounds: int) -> int:
    """Wounds ``side`` takes on ``what``, capped at what it has left; returns them."""
    target = _target(st, side)
    if target is None or target[0] != what:
        return 0
    taken = min(wounds, target[2])
    if what == "troops":
        st.troop_wounds[side] += taken
    else:
        st.character_wounds[side] += taken
    return taken


def _psychology(st: _State) -> Procedure[str | None]:
    """Fear and Terror tests when the combat begins; the side that flees, if any."""
    for side in ("a", "b"):
        reg, enemy = st.regiment(side), st.regiment(_other(side))
        nerve = yield Call(
            face_dread,
            (
                Confrontation(
                    reg.troops.rules,
                    enemy.troops.rules
                    | (enemy.character.rules if enemy.character else frozenset()),
                    reg.troops.ld,
                    reg.terror_tested,
                    reg.reach,
                ),
            ),
        )
        if nerve is Nerve.FLEES:
            return side
        if nerve is Nerve.AFRAID:
            st.afraid[side] = True
    return None


def _impact(st: _State) -> Procedure[None]:
    """Impact hits of a charger that gained speed, first of all (FB-SR-14)."""
    for side in ("a", "b"):
        reg = st.regiment(side)
        if not (reg.charging and reg.impact and "impact_hits" in reg.troops.rules):
            continue
        faces, plus = impact_dice(reg.impact)
        (rolled,) = yield Roll(
            D3 if faces == 3 else D6, msg("fantasy.combat.impact", side=side), rules=("FB-SR-14",)
        )
        hits = int(rolled) + plus
        target = _target(st, _other(side))
        if target is None:
            continue
        blows = Blows(
            attacks=hits * max(1, reg.models),
            weapon_skill=reg.troops.ws,
            strength=reg.troops.s,
            target_weapon_skill=target[1].ws,
            target_toughness=target[1].t,
            target_armour_save=target[1].armour_save,
            target_ward_save=target[1].ward_save,
            rules=reg.troops.rules,
            target_rules=target[1].rules,
            target_regeneration=target[1].regeneration,
            target_wounds=target[1].w,
            auto_hit=True,
        )
        result: AttacksOutcome = yield Call(attacks, (blows,))
        st.caused[side] += _hit(st, _other(side), target[0], result.wounds)


def _duelist(st: _State, side: str) -> tuple[str, Fighter, int] | None:
    reg = st.regiment(side)
    if reg.character is not None and st.character_alive(side):
        return "character", reg.character, reg.character.w - st.character_wounds[side]
    if st.champion_alive(side):
        return "champion", _champion(reg), reg.troops.w
    return None


def _challenge(st: _State) -> Procedure[None]:
    """The challenge at the start of the first round (FB-CHAL-01..03)."""
    r = st.r
    if r.round_number != 1 or r.challenge is ChallengeChoice.NONE:
        return
    challenger = "a" if r.a.charging or not r.b.charging else "b"
    challenged = _other(challenger)
    one, two = _duelist(st, challenger), _duelist(st, challenged)
    if one is None or two is None:
        return
    if r.challenge is ChallengeChoice.REFUSE:
        st.out_of_fight.add(f"{challenged}:{two[0]}")
        st.refused.add(challenged)
        yield emit("fantasy.duel.refused", rules=("FB-CHAL-01", "FB-CHAL-02"), side=challenged)
        return
    yield emit("fantasy.duel.accepted", rules=("FB-CHAL-01", "FB-CHAL-02"), side=challenger)
    st.out_of_fight.add(f"{challenger}:{one[0]}")
    st.out_of_fight.add(f"{challenged}:{two[0]}")
    out: DuelOutcome = yield Call(
        duel_round,
        (Duel(one[1], two[1], one[2], two[2], r.round_number, st.regiment(challenger).charging),),
    )
    for side, (what, _, _), took in (
        (challenger, one, out.challenger_took),
        (challenged, two, out.challenged_took),
    ):
        st.caused[_other(side)] += took
        if what == "character":
            st.character_wounds[side] += took
        elif took >= st.regiment(side).troops.w:
            st.champion_lost[side] = True
    if out.dead == "challenged":
        st.overkill[challenger] += out.overkill
    elif out.dead == "challenger":
        st.overkill[challenged] += out.overkill


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


def _breath(st: _State, s: _Striker) -> Procedure[tuple[str, Blows] | None]:
    """The breath of a striker at what of the enemy is left to strike (FB-SR-01)."""
    reg = st.regiment(s.side)
    target = _target(st, _other(s.side))
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


def _blows(st: _State, s: _Striker) -> tuple[str, Blows] | None:
    """The blows a striker of the rank and file or a character makes now at what of
    the enemy is left to strike."""
    reg = st.regiment(s.side)
    r = st.r
    target = _target(st, _other(s.side))
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


class _Plan:
    """What the steps of one round share whatever the dice: the round, its strikers
    grouped in strike order (FB-ABSENT-17), and each striker's blows, their call and
    the rules they name per tally, worked out once: the exact odds replay a step once
    per answer. Equal by identity (one per round object, :func:`_plan_of`)."""

    __slots__ = (
        "afters",
        "groups",
        "r",
        "ranks",
        "resolutions",
        "standings",
        "strengths",
        "strikes",
        "table",
        "tests",
    )

    def __init__(self, r: Round) -> None:
        self.r = r
        self.table = data()  # what the plan's answers were read from
        self.standings: dict[tuple[object, ...], tuple[int, tuple[str, ...]]] = {}
        self.tests: dict[tuple[str, int, bool, bool], AnyCall] = {}
        strikers = _strikers(r)
        self.groups = tuple(
            tuple(s for s in strikers if s.key == key) for key in sorted({s.key for s in strikers})
        )
        self.strikes: dict[tuple[_Tally, _Striker], _Strike | None] = {}
        self.resolutions: dict[_Tally, _Resolved] = {}
        self.ranks: dict[tuple[int, int], int] = {}
        self.strengths: dict[tuple[ModelKind, int], int] = {}
        self.afters: dict[tuple[_Tally, tuple[tuple[str, str, int], ...]], _Tally] = {}

    def resolved(self, tally: _Tally) -> _Resolved:
        """Combat resolution at the end of the round's blows, once per tally."""
        made = self.resolutions.get(tally)
        if made is None:
            if len(self.resolutions) >= _STRIKES_KEPT:
                self.resolutions.clear()
            made = self.resolutions[tally] = _resolved(_State.thawed(self.r, tally), self)
        return made

    def after(self, tally: _Tally, results: tuple[tuple[str, str, int], ...]) -> _Tally:
        """The tally once a step's strikers' ``results`` (side, what they struck,
        wounds) are dealt, once per tally and results: the exact odds replay the last
        step once per outcome of the Break test."""
        key = (tally, results)
        made = self.afters.get(key)
        if made is None:
            st = _State.thawed(self.r, tally)
            for side, what, wounds in results:
                st.caused[side] += _hit(st, _other(side), what, wounds)
            if len(self.afters) >= _STRIKES_KEPT:
                self.afters.clear()
            made = self.afters[key] = st.frozen()
        return made

    def break_test(self, st: _State, loser: str, margin: int) -> AnyCall:
        """The loser's Break test (FB-ABSENT-08), one call per what it reads: the
        margin, whether its character lives and whether he refused a challenge."""
        key = (loser, margin, st.character_alive(loser), loser in st.refused)
        made = self.tests.get(key)
        if made is None:
            if len(self.tests) >= _STRIKES_KEPT:
                self.tests.clear()
            ld, reach = _leader(st, loser)
            rules = st.regiment(loser).troops.rules
            made = self.tests[key] = Call(break_test, (Defeat(rules, ld, margin, reach),))
        return made

    def score(self, st: _State, side: str) -> tuple[int, tuple[str, ...]]:
        """:func:`_score`: the side's wounds caused and Overkill, and its standing
        (:func:`_standing`) once per what that reads of the tally: the models and
        characters left on both sides, its champion, its refusal."""
        other = _other(side)
        key = (
            side,
            st.models(side),
            st.models(other),
            st.character_alive(side),
            st.character_alive(other),
            st.champion_lost[side],
            side in st.refused,
        )
        standing = self.standings.get(key)
        if standing is None:
            if len(self.standings) >= _STRIKES_KEPT:
                self.standings.clear()
            standing = self.standings[key] = _standing(st, side, self)
        return _score(st, side, standing)

    def rank_bonus(self, models: int, files: int) -> int:
        """:func:`~kubik.rulesets.fantasy.regiment.rank_bonus`, once per arguments."""
        key = (models, files)
        made = self.ranks.get(key)
        if made is None:
            if len(self.ranks) >= _STRIKES_KEPT:
                self.ranks.clear()
            made = self.ranks[key] = rank_bonus(models, files)
        return made

    def unit_strength(self, kind: ModelKind, models: int) -> int:
        """:func:`~kubik.rulesets.fantasy.regiment.unit_strength`, once per arguments."""
        key = (kind, models)
        made = self.strengths.get(key)
        if made is None:
            if len(self.strengths) >= _STRIKES_KEPT:
                self.strengths.clear()
            made = self.strengths[key] = unit_strength(kind, models)
        return made

    def strike(self, tally: _Tally, s: _Striker) -> _Strike | None:
        """A striker's blows at the tally (none when he has no blows to make)."""
        key = (tally, s)
        made = self.strikes.get(key)
        if made is not None or key in self.strikes:
            return made
        st = _State.thawed(self.r, tally)
        planned = _blows(st, s)
        made = None if planned is None else _strike(st, s, *planned)
        if len(self.strikes) >= _STRIKES_KEPT:
            self.strikes.clear()
        self.strikes[key] = made
        return made


#: Strikes a round's plan keeps (an engine limit, not a rule).
_STRIKES_KEPT = 1024
#: Round plans kept by the round's identity (an engine limit, not a rule).
_PLANS_KEPT = 64
_plans: dict[int, _Plan] = {}


def _plan_of(r: Round) -> _Plan:
    """The plan of round ``r`` (the same object for the same round object: it keeps
    the round, so the id is not reused while remembered)."""
    plan = _plans.get(id(r))
    if plan is not None and plan.r is r and plan.table is data():
        return plan
    if len(_plans) >= _PLANS_KEPT:
        _plans.clear()
    plan = _plans[id(r)] = _Plan(r)
    return plan


class _Strike(NamedTuple):
    """A striker's blows as asked: what they strike, the call, the rules of the strike."""

    what: str
    call: AnyCall
    attacks: int
    rules: tuple[str, ...]


def _strike(st: _State, s: _Striker, what: str, blows: Blows) -> _Strike | None:
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


def _strike_step(plan: _Plan, tally: _Tally, group: int) -> Procedure[RoundOutcome]:
    """One step of the strike order from ``tally``: its strikers, those killed before
    it not striking, then the next step; after the last, the resolution. Each step is
    a step of the round (a tail call on the new tally), so the odds of a round keep
    what each step did, not every way it was done."""
    if group >= len(plan.groups):
        return (yield from _resolution(plan, tally, plan.resolved(tally)))
    results: list[tuple[str, str, int]] = []
    for s in plan.groups[group]:
        if s.what == "breath":
            st = _State.thawed(plan.r, tally)
            planned = yield from _breath(st, s)
            made = None if planned is None else _strike(st, s, *planned)
        else:
            made = plan.strike(tally, s)
        if made is None:
            continue
        yield emit("fantasy.combat.strike", rules=made.rules, side=s.side, attacks=made.attacks)
        outcome: AttacksOutcome = yield made.call
        results.append((s.side, made.what, outcome.wounds))
    after = plan.after(tally, tuple(results))
    if group + 1 == len(plan.groups):  # the last step resolves the combat itself
        return (yield from _resolution(plan, after, plan.resolved(after)))
    rest: RoundOutcome = yield tail_step(_strike_step, plan, after, group + 1)
    return rest


def _score(
    st: _State, side: str, standing: tuple[int, tuple[str, ...]]
) -> tuple[int, tuple[str, ...]]:
    """One side's combat result and the rules that scored it (FB-ABSENT-07): the
    wounds it caused, its Overkill (FB-CHAL-03) and its ``standing``."""
    bonus, rules = standing
    score = st.caused[side] + st.overkill[side] + bonus
    if st.overkill[side]:
        return score, ("FB-ABSENT-07", "FB-CHAL-03", *rules)
    return score, ("FB-ABSENT-07", *rules)


def _standing(st: _State, side: str, plan: _Plan) -> tuple[int, tuple[str, ...]]:
    """What a side's combat result gets besides the wounds (FB-ABSENT-07): ranks,
    standard, Battle standard, outnumbering, flank or rear, high ground; with the
    rules that scored them."""
    reg, enemy = st.regiment(side), st.regiment(_other(side))
    table = plan.table["combat_resolution"]
    rules: list[str] = []
    score = 0
    alive = st.models(side)
    if reg.skirmish:
        pass  # a loose formation has no ranks (FB-ABSENT-07)
    elif enemy.facing is not Facing.FRONT and ranks_cancelled(
        enemy.facing, _strength(st, _other(side), plan)
    ):
        rules.append("FB-UNIT-01")
    else:
        score += plan.rank_bonus(alive, reg.files)
    if "standard" in _command(reg, st.champion_lost[side]).alive(alive):
        score += int(table["standard"])
        rules.append("FB-CMD-03")
    if reg.battle_standard and st.character_alive(side) and side not in st.refused:
        score += int(table["battle_standard"])
        rules.append("FB-CMD-06")
    if _strength(st, side, plan) > _strength(st, _other(side), plan):
        score += int(table["outnumber"])
        rules.append("FB-UNIT-01")
    if reg.facing is Facing.FLANK:
        score += int(table["flank"])
    elif reg.facing is Facing.REAR:
        score += int(table["rear"])
    if reg.high_ground:
        score += int(table["high_ground"])
    return score, tuple(rules)


def ranks_cancelled(enemy_facing: Facing, enemy_strength: int) -> bool:
    """An enemy fighting a unit's flank or rear with a unit strength of 5 or more
    cancels its rank bonus (FB-ABSENT-07, the published rule).

    >>> ranks_cancelled(Facing.FLANK, 5), ranks_cancelled(Facing.REAR, 4)
    (True, False)
    """
    threshold = int(data()["combat_resolution"]["cancel_ranks_strength"])
    return enemy_facing is not Facing.FRONT and enemy_strength >= threshold


def charged_face(
    across: float, ahead: float, half_width: float, depth: float, *, loose: bool = False
) -> Facing:
    """Which face of a regiment a charger's front lies in at the start of its charge
    (FB-ABSENT-07, the published 6th/7th-edition arcs): ``across``/``ahead`` place
    the charger's front centre from the target's front centre, along its front rank
    and along its facing; ``half_width``/``depth`` are the target's outer edges. The
    front arc runs at 45° out from the front corners, the rear arc from the rear
    corners; the rest is flank. Skirmishers (``loose``) have no flank or rear.

    >>> charged_face(0.0, 10.0, 3.0, 4.0), charged_face(9.0, 2.0, 3.0, 4.0)
    (<Facing.FRONT: 'front'>, <Facing.FLANK: 'flank'>)
    >>> charged_face(1.0, -9.0, 3.0, 4.0)
    <Facing.REAR: 'rear'>
    """
    beside = abs(across) - half_width
    if loose:
        return Facing.FRONT
    if ahead >= 0 and beside <= ahead:
        return Facing.FRONT
    behind = -depth - ahead
    if behind >= 0 and beside <= behind:
        return Facing.REAR
    return Facing.FLANK


def _faces(st: _State, plan: _Plan) -> tuple[tuple[str, Facing, int, bool], ...]:
    """A flank or rear attack's bonus and whether it cancels the ranks, per side so
    attacked: (side, face, bonus, ranks cancelled), for the log."""
    out: list[tuple[str, Facing, int, bool]] = []
    for side in ("a", "b"):
        face = st.regiment(side).facing
        if face is Facing.FRONT:
            continue
        table = plan.table["combat_resolution"]
        strength = _strength(st, side, plan)
        out.append((side, face, int(table[face.value]), ranks_cancelled(face, strength)))
    return tuple(out)


def _strength(st: _State, side: str, plan: _Plan) -> int:
    reg = st.regiment(side)
    return plan.unit_strength(reg.kind, st.models(side)) + int(st.character_alive(side))


def _musician(st: _State, side: str) -> bool:
    reg = st.regiment(side)
    return "musician" in _command(reg, st.champion_lost[side]).alive(st.models(side))


def _leader(st: _State, side: str) -> tuple[int, Command]:
    """The loser's Leadership and its command: the General in the unit inspires it,
    the Battle standard in it lets it re-roll (unless he refused a challenge)."""
    reg = st.regiment(side)
    ld = reg.troops.ld
    reach = reg.reach
    leads = st.character_alive(side) and side not in st.refused and reg.character is not None
    if leads and reg.character is not None:
        ld = max(ld, reg.character.ld)
        if reg.general:
            reach = replace(reach, general_leadership=reg.character.ld, general_inches=0)
        if reg.battle_standard:
            reach = replace(reach, battle_standard_inches=0)
    return ld, reach


def close_combat_round(r: Round) -> Procedure[RoundOutcome]:
    """A round of close combat: psychology, impact, challenge, blows in strike
    order, combat resolution and the loser's Break test."""
    st = _State(r, {"a": r.a.wounds_taken, "b": r.b.wounds_taken})
    if r.round_number == 1:
        fled = yield from _psychology(st)
        if fled is not None:
            yield emit("fantasy.combat.fled", rules=("FB-PSY-02", "FB-ABSENT-10"), side=fled)
            return RoundOutcome(_other(fled), 0, fled, 0, 0)
        yield from _impact(st)
        yield from _challenge(st)
    fought: RoundOutcome = yield tail_step(_strike_step, _plan_of(r), st.frozen(), 0)
    return fought


class _Resolved(NamedTuple):
    """What combat resolution concludes from a tally before the Break test: the
    results, the rules that scored them, the musician who broke a draw, the flank and
    rear attacks, the winner and the margin, and the loser's Break test, if any."""

    a: int
    b: int
    rules: tuple[str, ...]
    musician: str | None
    faces: tuple[tuple[str, Facing, int, bool], ...]
    winner: str
    margin: int
    frenzy_lost: bool
    test: AnyCall | None
    lost: tuple[int, int, bool, bool]


def _resolved(st: _State, plan: _Plan) -> _Resolved:
    """Combat resolution (FB-ABSENT-07, FB-CMD-04) from the round's tally."""
    a_score, a_rules = plan.score(st, "a")
    b_score, b_rules = plan.score(st, "b")
    music: str | None = None
    if a_score == b_score:
        a_music, b_music = _musician(st, "a"), _musician(st, "b")
        bonus = int(plan.table["combat_resolution"]["musician_draw"])
        if a_music != b_music:
            if a_music:
                a_score += bonus
            else:
                b_score += bonus
            music = "a" if a_music else "b"
    rules = tuple(dict.fromkeys(a_rules + b_rules))
    if a_score == b_score:
        return _Resolved(
            a_score, b_score, rules, music, _faces(st, plan), "draw", 0, False, None, _lost(st)
        )
    winner = "a" if a_score > b_score else "b"
    margin = abs(a_score - b_score)
    loser = _other(winner)
    reg = st.regiment(loser)
    test: AnyCall | None = None
    if st.models(loser) > 0 or st.character_alive(loser):
        test = plan.break_test(st, loser, margin)
    frenzy = "frenzy" in reg.troops.rules
    return _Resolved(
        a_score, b_score, rules, music, _faces(st, plan), winner, margin, frenzy, test, _lost(st)
    )


def _lost(st: _State) -> tuple[int, int, bool, bool]:
    """The models each side lost in the round and whether its character fell."""
    r = st.r
    a_lost = r.a.models - st.models("a")
    b_lost = r.b.models - st.models("b")
    a_hero = r.a.character is not None and not st.character_alive("a")
    b_hero = r.b.character is not None and not st.character_alive("b")
    return a_lost, b_lost, a_hero, b_hero


def _resolution(plan: _Plan, tally: _Tally, resolved: _Resolved) -> Procedure[RoundOutcome]:
    """Combat resolution (FB-ABSENT-07) and the loser's Break test (FB-ABSENT-08)
    at the end of the round's blows (``tally``)."""
    if resolved.musician is not None:
        yield emit("fantasy.combat.musician", rules=("FB-CMD-04",), side=resolved.musician)
    for side, face, bonus, cancelled in resolved.faces:
        yield emit(f"fantasy.combat.{face.value}", rules=("FB-ABSENT-07",), side=side, bonus=bonus)
        if cancelled:
            yield emit(
                "fantasy.combat.ranks_cancelled",
                rules=("FB-ABSENT-07", "FB-UNIT-01"),
                side=_other(side),
            )
    yield emit("fantasy.combat.result", rules=resolved.rules, a=resolved.a, b=resolved.b)
    broken: str | None = None
    winner, margin, lost = resolved.winner, resolved.margin, resolved.lost
    if winner != "draw":
        loser = _other(winner)
        if resolved.frenzy_lost:
            yield emit("fantasy.combat.frenzy_lost", rules=("FB-PSY-05",), side=loser)
        if resolved.test is not None:
            result: BreakOutcome = yield resolved.test
            if result.horde_wounds:
                st = _State.thawed(plan.r, tally)
                st.troop_wounds[loser] += min(result.horde_wounds, st.troop_wounds_left(loser))
                lost = _lost(st)
            if result.broken:
                broken = loser
                yield emit("fantasy.combat.broken", rules=("FB-ABSENT-08",), side=loser)
    return RoundOutcome(winner, margin, broken, *lost)
