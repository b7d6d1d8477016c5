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

from kubik.engine import Call, Procedure, Roll, emit, msg
from kubik.engine.dice import D3, D6
from kubik.engine.requests import tail_step
from kubik.rulesets.fantasy.attacks import AttacksOutcome, Blows, attacks
from kubik.rulesets.fantasy.challenge import Duel, DuelOutcome, duel_round
from kubik.rulesets.fantasy.combat_resolution import ranks_cancelled
from kubik.rulesets.fantasy.combat_sides import (
    ChallengeChoice,
    Facing,
    Regiment,
    Round,
    RoundOutcome,
    charged_face,
)
from kubik.rulesets.fantasy.combat_tally import (
    RoundState,
    champion_profile,
    deal_wounds,
    other_side,
    target_of,
)
from kubik.rulesets.fantasy.profiles import Fighter
from kubik.rulesets.fantasy.psychology import Confrontation, Nerve, face_dread
from kubik.rulesets.fantasy.strikes import plan_of, strike_step


def impact_dice(impact: str) -> tuple[int, int]:
    """(faces, plus) of an impact-hits value: ``d3`` → (3, 0), ``d6+1`` → (6, 1)."""
    text = impact.lower().replace(" ", "")
    die, _, plus = text.partition("+")
    return int(die.lstrip("d")), int(plus or 0)


def _psychology(st: RoundState) -> Procedure[str | None]:
    """Fear and Terror tests when the combat begins; the side that flees, if any."""
    for side in ("a", "b"):
        reg, enemy = st.regiment(side), st.regiment(other_side(side))
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


def _impact(st: RoundState) -> Procedure[None]:
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
        target = target_of(st, other_side(side))
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
        st.caused[side] += deal_wounds(st, other_side(side), target[0], result.wounds)


def _duelist(st: RoundState, side: str) -> tuple[str, Fighter, int] | None:
    reg = st.regiment(side)
    if reg.character is not None and st.character_alive(side):
        return "character", reg.character, reg.character.w - st.character_wounds[side]
    if st.champion_alive(side):
        return "champion", champion_profile(reg), reg.troops.w
    return None


def _challenge(st: RoundState) -> Procedure[None]:
    """The challenge at the start of the first round (FB-CHAL-01..03)."""
    r = st.r
    if r.round_number != 1 or r.challenge is ChallengeChoice.NONE:
        return
    challenger = "a" if r.a.charging or not r.b.charging else "b"
    challenged = other_side(challenger)
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
        st.caused[other_side(side)] += took
        if what == "character":
            st.character_wounds[side] += took
        elif took >= st.regiment(side).troops.w:
            st.champion_lost[side] = True
    if out.dead == "challenged":
        st.overkill[challenger] += out.overkill
    elif out.dead == "challenger":
        st.overkill[challenged] += out.overkill


def close_combat_round(r: Round) -> Procedure[RoundOutcome]:
    """A round of close combat: psychology, impact, challenge, blows in strike
    order, combat resolution and the loser's Break test."""
    st = RoundState(r, {"a": r.a.wounds_taken, "b": r.b.wounds_taken})
    if r.round_number == 1:
        fled = yield from _psychology(st)
        if fled is not None:
            yield emit("fantasy.combat.fled", rules=("FB-PSY-02", "FB-ABSENT-10"), side=fled)
            return RoundOutcome(other_side(fled), 0, fled, 0, 0)
        yield from _impact(st)
        yield from _challenge(st)
    plan, tally = plan_of(r), st.frozen()
    fought: RoundOutcome = yield tail_step(strike_step, plan, tally, plan.next_group(tally, 0))
    return fought


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
