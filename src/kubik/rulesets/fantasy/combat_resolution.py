"""Combat resolution at the end of a round of close combat (FB-ABSENT-07 with the
seed's command bonuses: ranks, standard, Battle standard, outnumbering, flank and
rear, high ground, Overkill, the musician's draw) and the loser's Break test
(FB-ABSENT-08 with Stubborn, Unbreakable, Horde)."""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from kubik.core.keeping import Kept
from kubik.engine import Call, Procedure, emit
from kubik.engine.requests import AnyCall, narrating
from kubik.rulesets.fantasy.charts import data
from kubik.rulesets.fantasy.combat_sides import Facing, Round, RoundOutcome, side_name
from kubik.rulesets.fantasy.combat_tally import RoundState, Tally, command_left, other_side
from kubik.rulesets.fantasy.leadership import Command
from kubik.rulesets.fantasy.psychology import BreakOutcome, Defeat, break_test
from kubik.rulesets.fantasy.regiment import ModelKind, rank_bonus, unit_strength


class Resolutions:
    """What combat resolution reads of one round whatever the dice, worked out once:
    its numbers, each side's standing and the rule values it asks for by their
    arguments, the Break test calls, and the resolution of each tally (the exact odds
    replay the round's last step once per outcome of the Break test)."""

    __slots__ = (
        "faces",
        "r",
        "ranks",
        "resolutions",
        "standings",
        "strengths",
        "table",
        "tests",
    )

    def __init__(self, r: Round) -> None:
        self.r = r
        self.table = data()  # what the answers were read from
        self.standings: Kept[tuple[object, ...], tuple[int, tuple[str, ...]]] = Kept(_VALUES_KEPT)
        self.tests: Kept[tuple[str, int, bool, bool], AnyCall] = Kept(_VALUES_KEPT)
        self.resolutions: Kept[Tally, Resolved] = Kept(_VALUES_KEPT)
        self.ranks: Kept[tuple[int, int], int] = Kept(_VALUES_KEPT)
        self.strengths: Kept[tuple[ModelKind, int], int] = Kept(_VALUES_KEPT)
        self.faces: Kept[Standing, tuple[tuple[str, Facing, int, bool], ...]] = Kept(_VALUES_KEPT)

    def resolved(self, tally: Tally, st: RoundState | None = None) -> Resolved:
        """Combat resolution at the end of the round's blows, once per tally (``st``:
        the tally's running form, when the caller has it)."""
        made = self.resolutions.get(tally)
        if made is None:
            if st is None:
                st = RoundState.thawed(self.r, tally)
            made = self.resolutions.keep(tally, _resolved(st, self, self.standing(tally), tally))
        return made

    def standing(self, tally: Tally) -> Standing:
        """What ``tally`` leaves of the two sides (as :meth:`RoundState.models` and
        :meth:`RoundState.character_alive` read it), from the tally itself."""
        a, b = self.r.a, self.r.b
        troops, champions, heroes = tally.troop_wounds, tally.champion_lost, tally.character_wounds
        return (
            max(0, a.models - champions[0] - troops[0] // a.troops.w),
            max(0, b.models - champions[1] - troops[1] // b.troops.w),
            a.character is not None and heroes[0] < a.character.w,
            b.character is not None and heroes[1] < b.character.w,
        )

    def after_horde(
        self, tally: Tally, loser: str, wounds: int
    ) -> tuple[int, int, bool, bool, int, int, bool, bool, bool, bool, bool]:
        """The round's outcome fields after who broke (:func:`_lost_of`) once a Horde
        took ``wounds`` more instead of its Break test (FB-PSY-10), no more than its rank
        and file have left."""
        i = 0 if loser == "a" else 1
        reg = self.r.a if i == 0 else self.r.b
        taken = tally.troop_wounds[i]
        left = (reg.models - int(tally.champion_lost[i])) * reg.troops.w - taken
        taken += min(wounds, left)
        a, b, a_hero, b_hero = self.standing(tally)
        models = max(0, reg.models - tally.champion_lost[i] - taken // reg.troops.w)
        now = (models, b, a_hero, b_hero) if i == 0 else (a, models, a_hero, b_hero)
        return _lost_of(self.r, tally, now)  # the horde's wounds change only its models

    def break_test(self, st: RoundState, loser: str, margin: int) -> AnyCall:
        """The loser's Break test (FB-ABSENT-08), one call per what it reads: the
        margin, whether its character lives and whether he refused a challenge."""
        key = (loser, margin, st.character_alive(loser), loser in st.refused)
        made = self.tests.get(key)
        if made is None:
            ld, reach = _leader(st, loser)
            rules = st.regiment(loser).troops.rules
            made = self.tests.keep(key, Call(break_test, (Defeat(rules, ld, margin, reach),)))
        return made

    def score(self, st: RoundState, side: str, now: Standing) -> tuple[int, tuple[str, ...]]:
        """:func:`_score`: the side's wounds caused and Overkill, and its standing
        (:func:`_standing`) once per what that reads of the tally: the models and
        characters left on both sides (``now``), its champion, its refusal."""
        key = (side, now, st.champion_lost[side], side in st.refused)
        standing = self.standings.get(key)
        if standing is None:
            standing = self.standings.keep(key, _standing(st, side, self, now))
        return _score(st, side, standing)

    def strength(self, side: str, now: Standing) -> int:
        """The unit strength of ``side`` when the round leaves the sides as ``now`` says
        (its models', and its character's while he lives: FB-UNIT-01)."""
        i = 0 if side == "a" else 1
        reg = self.r.a if i == 0 else self.r.b
        return self.unit_strength(reg.kind, now[i]) + int(now[2 + i])

    def rank_bonus(self, models: int, files: int) -> int:
        """:func:`~kubik.rulesets.fantasy.regiment.rank_bonus`, once per arguments."""
        key = (models, files)
        made = self.ranks.get(key)
        if made is None:
            made = self.ranks.keep(key, rank_bonus(models, files))
        return made

    def unit_strength(self, kind: ModelKind, models: int) -> int:
        """:func:`~kubik.rulesets.fantasy.regiment.unit_strength`, once per arguments."""
        key = (kind, models)
        made = self.strengths.get(key)
        if made is None:
            made = self.strengths.keep(key, unit_strength(kind, models))
        return made


#: Values a round's resolution keeps of each kind (an engine limit, not a rule).
_VALUES_KEPT = 1024


def _score(
    st: RoundState, side: str, standing: tuple[int, tuple[str, ...]]
) -> tuple[int, tuple[str, ...]]:
    """One side's combat result and the rules that scored it (FB-ABSENT-07): the
    wounds it caused, its Overkill (FB-CHAL-03) and its ``standing``."""
    bonus, rules = standing
    score = st.caused[side] + st.overkill[side] + bonus
    if st.overkill[side]:
        return score, ("FB-ABSENT-07", "FB-CHAL-03", *rules)
    return score, ("FB-ABSENT-07", *rules)


def _standing(
    st: RoundState, side: str, plan: Resolutions, now: Standing
) -> tuple[int, tuple[str, ...]]:
    """What a side's combat result gets besides the wounds (FB-ABSENT-07): ranks,
    standard, Battle standard, outnumbering, flank or rear, high ground; with the
    rules that scored them (``now``: what the round leaves of the two sides)."""
    other = other_side(side)
    reg, enemy = st.regiment(side), st.regiment(other)
    table = plan.table["combat_resolution"]
    rules: list[str] = []
    score = 0
    alive = now[0] if side == "a" else now[1]
    if reg.skirmish:
        pass  # a loose formation has no ranks (FB-ABSENT-07)
    elif enemy.facing is not Facing.FRONT and ranks_cancelled(
        enemy.facing, plan.strength(other, now)
    ):
        rules.append("FB-UNIT-01")
    else:
        score += plan.rank_bonus(ranked_models(reg.models, alive), reg.files)
    if "standard" in command_left(reg, st.champion_lost[side]).alive(alive):
        score += int(table["standard"])
        rules.append("FB-CMD-03")
    if reg.battle_standard and now[2 if side == "a" else 3] and side not in st.refused:
        score += int(table["battle_standard"])
        rules.append("FB-CMD-06")
    if plan.strength(side, now) > plan.strength(other, now):
        score += int(table["outnumber"])
        rules.append("FB-UNIT-01")
    if reg.facing is Facing.FLANK:
        score += int(table["flank"])
    elif reg.facing is Facing.REAR:
        score += int(table["rear"])
    if reg.high_ground:
        score += int(table["high_ground"])
    return score, tuple(rules)


def ranked_models(at_start: int, now: int) -> int:
    """The models a unit's rank bonus counts (FB-ABSENT-07): as the published 6th/7th
    rule has it, the ranks the unit had at the start of the round, before its
    casualties (``ranks_counted_at`` in the data; the 8th edition counts them after).

    >>> ranked_models(15, 11)
    15
    """
    when = str(data()["combat_resolution"]["ranks_counted_at"])
    return at_start if when == "start_of_round" else now


def ranks_cancelled(enemy_facing: Facing, enemy_strength: int) -> bool:
    """An enemy fighting a unit's flank or rear with a unit strength of 5 or more
    cancels its rank bonus (FB-ABSENT-07, the published rule).

    >>> ranks_cancelled(Facing.FLANK, 5), ranks_cancelled(Facing.REAR, 4)
    (True, False)
    """
    threshold = int(data()["combat_resolution"]["cancel_ranks_strength"])
    return enemy_facing is not Facing.FRONT and enemy_strength >= threshold


#: The models of sides a and b at the end of the round's blows and whether each one's
#: character lives (what combat resolution counts besides the wounds).
Standing = tuple[int, int, bool, bool]


def _faces(
    st: RoundState, plan: Resolutions, now: Standing
) -> tuple[tuple[str, Facing, int, bool], ...]:
    """A flank or rear attack's bonus and whether it cancels the ranks, per side so
    attacked: (side, face, bonus, ranks cancelled), for the log; once per ``now``."""
    if st.r.a.facing is Facing.FRONT and st.r.b.facing is Facing.FRONT:
        return ()
    made = plan.faces.get(now)
    if made is None:
        made = plan.faces.keep(now, _faces_made(st, plan, now))
    return made


def _faces_made(
    st: RoundState, plan: Resolutions, now: Standing
) -> tuple[tuple[str, Facing, int, bool], ...]:
    out: list[tuple[str, Facing, int, bool]] = []
    for side in ("a", "b"):
        face = st.regiment(side).facing
        if face is Facing.FRONT:
            continue
        table = plan.table["combat_resolution"]
        strength = plan.strength(side, now)
        out.append((side, face, int(table[face.value]), ranks_cancelled(face, strength)))
    return tuple(out)


def _musician(st: RoundState, side: str, models: int) -> bool:
    reg = st.regiment(side)
    return "musician" in command_left(reg, st.champion_lost[side]).alive(models)


def _leader(st: RoundState, side: str) -> tuple[int, Command]:
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


class Resolved(NamedTuple):
    """What combat resolution concludes from a tally before the Break test: the
    results, the rules that scored them, the musician who broke a draw, the flank and
    rear attacks, the winner and the margin, the loser's Break test, if any, and the
    round's outcome fields after who broke (:func:`_lost_of`; the Break test's extra
    wounds for a Horde aside)."""

    a: int
    b: int
    rules: tuple[str, ...]
    musician: str | None
    faces: tuple[tuple[str, Facing, int, bool], ...]
    winner: str
    margin: int
    frenzy_lost: bool
    test: AnyCall | None
    lost: tuple[int, int, bool, bool, int, int, bool, bool, bool, bool, bool]


def _resolved(st: RoundState, plan: Resolutions, now: Standing, tally: Tally) -> Resolved:
    """Combat resolution (FB-ABSENT-07, FB-CMD-04) from the round's ``tally`` (``st``
    its running form), which leaves the sides as ``now`` says."""
    a_score, a_rules = plan.score(st, "a", now)
    b_score, b_rules = plan.score(st, "b", now)
    music: str | None = None
    if a_score == b_score:
        a_music, b_music = _musician(st, "a", now[0]), _musician(st, "b", now[1])
        bonus = int(plan.table["combat_resolution"]["musician_draw"])
        if a_music != b_music:
            if a_music:
                a_score += bonus
            else:
                b_score += bonus
            music = "a" if a_music else "b"
    rules = tuple(dict.fromkeys(a_rules + b_rules))
    lost = _lost_of(st.r, tally, now)
    if a_score == b_score:
        return Resolved(
            a_score, b_score, rules, music, _faces(st, plan, now), "draw", 0, False, None, lost
        )
    winner = "a" if a_score > b_score else "b"
    margin = abs(a_score - b_score)
    loser = other_side(winner)
    reg = st.regiment(loser)
    test: AnyCall | None = None
    if (now[1] if loser == "b" else now[0]) > 0 or (now[3] if loser == "b" else now[2]):
        test = plan.break_test(st, loser, margin)
    frenzy = "frenzy" in reg.troops.rules
    return Resolved(
        a_score,
        b_score,
        rules,
        music,
        _faces(st, plan, now),
        winner,
        margin,
        frenzy,
        test,
        lost,
    )


def _lost_of(
    r: Round, tally: Tally, now: Standing
) -> tuple[int, int, bool, bool, int, int, bool, bool, bool, bool, bool]:
    """The round's outcome fields after the winner, the margin and who broke: the
    models each side lost, whether its character fell, the wounds he lost, whether its
    champion fell, whether it is afraid, and whether a duel goes on; from the round's
    last ``tally`` and what it leaves of the sides (``now``)."""
    heroes, champions, afraid = tally.character_wounds, tally.champion_lost, tally.afraid
    return (
        r.a.models - now[0],
        r.b.models - now[1],
        r.a.character is not None and not now[2],
        r.b.character is not None and not now[3],
        heroes[0] - r.a.character_wounds_taken,
        heroes[1] - r.b.character_wounds_taken,
        champions[0],
        champions[1],
        afraid[0],
        afraid[1],
        tally.dueling,
    )


def resolution(plan: Resolutions, tally: Tally, resolved: Resolved) -> Procedure[RoundOutcome]:
    """Combat resolution (FB-ABSENT-07) and the loser's Break test (FB-ABSENT-08)
    at the end of the round's blows (``tally``). Its events are phrased only when
    narrated (the exact odds resolve every tally a round can end with)."""
    told = narrating()
    if told:
        yield from _told(plan, resolved)
    winner, lost = resolved.winner, resolved.lost
    broken: str | None = None
    if winner != "draw":
        loser = other_side(winner)
        if resolved.frenzy_lost and told:
            yield emit(
                "fantasy.combat.frenzy_lost", rules=("FB-PSY-05",), side=side_name(plan.r, loser)
            )
        if resolved.test is not None:
            result: BreakOutcome = yield resolved.test
            if result.horde_wounds:
                lost = plan.after_horde(tally, loser, result.horde_wounds)
            if result.broken:
                broken = loser
                if told:
                    yield emit(
                        "fantasy.combat.broken",
                        rules=("FB-ABSENT-08",),
                        side=side_name(plan.r, loser),
                    )
    return RoundOutcome(winner, resolved.margin, broken, *lost)


def _told(plan: Resolutions, resolved: Resolved) -> Procedure[None]:
    """The events of combat resolution: the musician's draw, flank and rear attacks, the
    two results."""
    if resolved.musician is not None:
        yield emit(
            "fantasy.combat.musician",
            rules=("FB-CMD-04",),
            side=side_name(plan.r, resolved.musician),
        )
    for side, face, bonus, cancelled in resolved.faces:
        yield emit(
            f"fantasy.combat.{face.value}",
            rules=("FB-ABSENT-07",),
            side=side_name(plan.r, side),
            bonus=bonus,
        )
        if cancelled:
            yield emit(
                "fantasy.combat.ranks_cancelled",
                rules=("FB-ABSENT-07", "FB-UNIT-01"),
                side=side_name(plan.r, other_side(side)),
            )
    yield emit(
        "fantasy.combat.result",
        rules=resolved.rules,
        a_side=side_name(plan.r, "a"),
        a=resolved.a,
        b_side=side_name(plan.r, "b"),
        b=resolved.b,
    )
