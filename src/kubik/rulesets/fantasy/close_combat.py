"""A whole round of close combat between two regiments, as one procedure.

Fear and Terror at the first round (FB-PSY-01..04), impact hits (FB-SR-14), the
challenge and its duel (FB-CHAL-01..03), every blow in strike order with the
models killed before they strike not striking (FB-ABSENT-17, :mod:`.strikes`), breath
in combat (FB-SR-01), combat resolution (FB-ABSENT-07 with the seed's command
bonuses) and the loser's Break test (FB-ABSENT-08 with Stubborn, Unbreakable, Horde;
:mod:`.combat_resolution`). So a player sees the chance to win the combat and to
break the enemy, not just wounds.
"""

from __future__ import annotations

from kubik.engine import Call, Procedure, Roll, Verdict, emit, msg
from kubik.engine.applied import decides
from kubik.engine.dice import D3, D6
from kubik.engine.requests import step, tail_step
from kubik.rulesets.fantasy.attacks import AttacksOutcome, Blows, attacks
from kubik.rulesets.fantasy.challenge import Duel, DuelOutcome, duel_round
from kubik.rulesets.fantasy.combat_resolution import ranks_cancelled, resolution
from kubik.rulesets.fantasy.combat_sides import (
    ChallengeChoice,
    Facing,
    Regiment,
    Round,
    RoundOutcome,
    charged_face,
    side_name,
)
from kubik.rulesets.fantasy.combat_tally import (
    RoundState,
    Tally,
    champion_profile,
    deal_wounds,
    other_side,
    target_of,
)
from kubik.rulesets.fantasy.leadership import unit_leadership
from kubik.rulesets.fantasy.profiles import Fighter
from kubik.rulesets.fantasy.psychology import Confrontation, Nerve, face_dread
from kubik.rulesets.fantasy.regiment import ModelKind
from kubik.rulesets.fantasy.strikes import RoundPlan, plan_of, strike_group


def impact_dice(impact: str) -> tuple[int, int]:
    """(faces, plus) of an impact-hits value: ``d3`` → (3, 0), ``d6+1`` → (6, 1)."""
    text = impact.lower().replace(" ", "")
    die, _, plus = text.partition("+")
    return int(die.lstrip("d")), int(plus or 0)


def _psychology(st: RoundState) -> Procedure[str | None]:
    """Fear and Terror tests when the combat begins; the side that flees, if any. A
    unit tests on its own Leadership, its character's when he is in it."""
    for side in ("a", "b"):
        reg, enemy = st.regiment(side), st.regiment(other_side(side))
        hero = reg.character
        nerve = yield Call(
            face_dread,
            (
                Confrontation(
                    reg.troops.rules,
                    enemy.troops.rules
                    | (enemy.character.rules if enemy.character else frozenset()),
                    unit_leadership(reg.troops.ld, hero.ld if hero else None, refused=reg.refused),
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


def gained_speed(charge_inches: float | None, movement: int) -> bool:
    """Impact hits need momentum: the charger went farther than its Movement this
    turn (FB-SR-14); ``None``: it did (the distance not given).

    >>> gained_speed(9.0, 8), gained_speed(3.0, 8), gained_speed(None, 8)
    (True, False, True)
    """
    return charge_inches is None or charge_inches > movement


def _impact(st: RoundState, side: str) -> Procedure[None]:
    """Impact hits of ``side``, if a charger that gained speed, first of all (FB-SR-14)."""
    reg = st.regiment(side)
    if not (reg.charging and reg.impact and "impact_hits" in reg.troops.rules):
        return
    if not gained_speed(reg.charge_inches, reg.troops.m):
        yield emit(
            "fantasy.combat.no_momentum",
            rules=("FB-SR-14",),
            side=side_name(st.r, side),
            inches=reg.charge_inches,
            movement=reg.troops.m,
        )
        return
    faces, plus = impact_dice(reg.impact)
    (rolled,) = yield Roll(
        D3 if faces == 3 else D6,
        msg("fantasy.combat.impact", side=side_name(st.r, side)),
        rules=("FB-SR-14",),
    )
    hits = int(rolled) + plus
    target = target_of(st, other_side(side))
    if target is None:
        return
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
        target_wounds_left=target[2],
    )
    result: AttacksOutcome = yield Call(attacks, (blows,))
    st.caused[side] += deal_wounds(st, other_side(side), target[0], result.wounds)


def _duelist(st: RoundState, side: str) -> tuple[str, Fighter, int] | None:
    """Who of ``side`` fights a duel: its character, else its champion (FB-CHAL-01),
    with the Wounds he has left."""
    reg = st.regiment(side)
    if reg.character is not None and st.character_alive(side):
        hero = reg.character
        if reg.kind is ModelKind.RIDDEN_MONSTER and hero.mount is None:
            hero = hero.with_mount(reg.troops)  # his monster strikes in the duel too
        return "character", hero, reg.character.w - st.character_wounds[side]
    if st.champion_alive(side):
        return "champion", champion_profile(reg), reg.troops.w
    return None


@decides()
def may_strike_rider(enemy: Regiment) -> Verdict:
    """Blows at a monster with a rider may be struck at the rider instead of the
    monster (the published 6th/7th rule the seed's Лишние раны assumes: wounds beyond
    the rider's are lost, FB-SR-16); not at a rider who is gone. An enemy that never
    had a rider is no case of the rule (no rule is cited: the game did not apply it)."""
    if enemy.kind is not ModelKind.RIDDEN_MONSTER:
        return Verdict.forbid(msg("fantasy.permission.no_rider"))
    if enemy.character is None:
        return Verdict.forbid(msg("fantasy.permission.no_rider"), "FB-SR-16")
    return Verdict.allow("FB-SR-16")


@decides()
def may_strike_mount() -> Verdict:
    """Blows at a monster with a rider may always go at the monster (FB-SR-16)."""
    return Verdict.allow("FB-SR-16")


def has_duelist(reg: Regiment) -> bool:
    """Whether a regiment has someone to issue or take a challenge: a character or a
    champion (FB-CHAL-01)."""
    return _duelist(RoundState.starting(Round(reg, reg)), "a") is not None


def duel_of(challenger: Regiment, challenged: Regiment) -> Duel | None:
    """The first round of the duel a challenge between two regiments would start
    (FB-CHAL-03): each side's character, else its champion; None when one has neither."""
    st = RoundState.starting(Round(challenger, challenged))
    one, two = _duelist(st, "a"), _duelist(st, "b")
    if one is None or two is None:
        return None
    return Duel(one[1], two[1], one[2], two[2], 1, challenger.charging)


def _challenge(st: RoundState) -> Procedure[None]:
    """The challenge at the start of the first round, and its duel, which goes on
    round after round until one of the two dies (FB-CHAL-01..03)."""
    r = st.r
    if r.challenge is ChallengeChoice.NONE:
        return
    if r.round_number != 1 and not r.duel_goes_on:
        return
    challenger = r.challenger or ("a" if r.a.charging or not r.b.charging else "b")
    challenged = other_side(challenger)
    one, two = _duelist(st, challenger), _duelist(st, challenged)
    if one is None or two is None:
        return
    if r.challenge is ChallengeChoice.REFUSE:
        st.out_of_fight.add(f"{challenged}:{two[0]}")
        st.refused.add(challenged)
        yield emit(
            "fantasy.duel.refused",
            rules=("FB-CHAL-01", "FB-CHAL-02"),
            side=side_name(r, challenged),
        )
        return
    if not r.duel_goes_on:
        yield emit(
            "fantasy.duel.accepted",
            rules=("FB-CHAL-01", "FB-CHAL-02"),
            side=side_name(r, challenger),
        )
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
        st.caused[other_side(side)] += took
        if what == "character":
            st.character_wounds[side] += took
        elif took >= st.regiment(side).troops.w:
            st.champion_lost[side] = True
    if out.dead == "challenged":
        st.overkill[challenger] += out.overkill
    elif out.dead == "challenger":
        st.overkill[challenged] += out.overkill
    else:
        st.dueling = True


#: The stages of a round before its blows: each side's impact hits (the first round),
#: then the challenge and its duel.
_BEFORE_BLOWS = ("a", "b", "challenge")


def _until(plan: RoundPlan, start: Tally, stage: int) -> Procedure[Tally]:
    """The tally once the round's first ``stage`` stages are done, from ``start`` (the
    tally after the psychology): each side's impact hits, the challenge, then each group
    of strikers in strike order. Each stage is a step on the stages before it (a fold
    forward through the round): the exact odds keep one distribution of tallies per
    stage, each tally once, instead of the round's outcomes from every tally."""
    if stage == 0:
        return start
    tally = start if stage == 1 else (yield step(_until, plan, start, stage - 1))
    now = stage - 1
    if now >= len(_BEFORE_BLOWS):
        return (yield from strike_group(plan, tally, now - len(_BEFORE_BLOWS)))
    what = _BEFORE_BLOWS[now]
    if what != "challenge" and plan.r.round_number != 1:
        return tally
    st = RoundState.thawed(plan.r, tally)
    if what == "challenge":
        yield from _challenge(st)
    else:
        yield from _impact(st, what)
    return st.frozen()


def _fought(plan: RoundPlan, start: Tally) -> Procedure[RoundOutcome]:
    """Impact, the challenge and the blows from ``start`` (:func:`_until`), then combat
    resolution and the loser's Break test on the tally they leave."""
    tally = yield step(_until, plan, start, len(_BEFORE_BLOWS) + len(plan.groups))
    return (yield from resolution(plan, tally, plan.resolved(tally)))


def close_combat_round(r: Round) -> Procedure[RoundOutcome]:
    """A round of close combat: psychology, impact, challenge, blows in strike
    order, combat resolution and the loser's Break test."""
    st = RoundState.starting(r)
    if r.round_number == 1:
        fled = yield from _psychology(st)
        if fled is not None:
            yield emit(
                "fantasy.combat.fled", rules=("FB-PSY-02", "FB-ABSENT-10"), side=side_name(r, fled)
            )
            return RoundOutcome(other_side(fled), 0, fled, 0, 0)
    outcome: RoundOutcome = yield tail_step(_fought, plan_of(r), st.frozen())
    return outcome


__all__ = [
    "ChallengeChoice",
    "Facing",
    "Regiment",
    "Round",
    "RoundOutcome",
    "charged_face",
    "close_combat_round",
    "impact_dice",
    "ranks_cancelled",
]
