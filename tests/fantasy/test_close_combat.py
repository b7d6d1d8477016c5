"""A whole round of close combat (``fantasy.close_combat``) and the challenge:
combat resolution, strike order, ranks, command, Break test, against sums worked
out here from single dice."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from kubik.engine import OddsDriver
from kubik.engine.registry import get
from kubik.rulesets.fantasy.challenge import (
    Duel,
    DuelOutcome,
    challenger_side,
    duel_round,
    may_challenge,
    may_refuse,
    overkill,
)
from kubik.rulesets.fantasy.close_combat import (
    ChallengeChoice,
    Regiment,
    Round,
    RoundOutcome,
    close_combat_round,
)
from kubik.rulesets.fantasy.profiles import Fighter
from kubik.rulesets.fantasy.regiment import (
    CommandGroup,
    ModelKind,
    rank_bonus,
    remove_casualties,
    unit_strength,
)
from kubik.rulesets.fantasy.strike_order import strike_key
from tests.fantasy.brute import convolve, one_attack

F = frozenset


def p2d6(at_most: int) -> Fraction:
    return Fraction(sum(1 for a, b in product(range(1, 7), repeat=2) if a + b <= at_most), 36)


def holds(leadership: int) -> Fraction:
    """A Break test held: 2D6 at most the Leadership, or a double 1 (Insane Courage)."""
    return p2d6(leadership) if leadership >= 2 else Fraction(1, 36)


def rounds(r: Round) -> dict[RoundOutcome, Fraction]:
    return dict(OddsDriver().distribution(close_combat_round, (r,)))


def chance(dist: dict[RoundOutcome, Fraction], **match: object) -> Fraction:
    return sum(
        (p for o, p in dist.items() if all(getattr(o, k) == v for k, v in match.items())),
        Fraction(0),
    )


def test_a_one_sided_round_resolves_and_breaks_as_worked_out_by_hand() -> None:
    """FB-ABSENT-07/08: wounds + ranks + standard + outnumbering; loser tests Ld − margin."""
    hitters = Regiment(
        Fighter(a=1), models=10, files=5, charging=True, command=CommandGroup(standard=True)
    )
    victims = Regiment(Fighter(a=0, ld=7), models=5, files=5)
    dist = rounds(Round(hitters, victims, challenge=ChallengeChoice.NONE))
    wounds = convolve(one_attack(hit=4, wound=4, armour=None), 5)
    # a: wounds + 1 rank (5 behind) + standard + outnumber (10 vs 5 minus losses)
    # a unit cut down to the last model takes no Break test: it is gone
    expected_break = sum(
        (p * (1 - holds(7 - (k + 3))) for k, p in wounds.items() if k < 5), Fraction(0)
    )
    assert chance(dist, winner="a") == 1
    assert chance(dist, broken="b") == expected_break


def test_fb_absent_17_chargers_strike_first_and_the_dead_do_not_strike() -> None:
    """FB-ABSENT-17: in round one the charger strikes first; models it kills do not
    strike back (a one-model fight)."""
    charger = Regiment(Fighter(ws=3, s=3, a=1, i=1), models=1, files=1, charging=True)
    defender = Regiment(Fighter(ws=3, s=3, a=1, i=10, ld=10), models=1, files=1)
    dist = rounds(Round(charger, defender, challenge=ChallengeChoice.NONE))
    kill = Fraction(1, 2) * Fraction(1, 2)
    assert chance(dist, b_lost=1) == kill
    assert chance(dist, a_lost=1) == (1 - kill) * kill
    # round two: Initiative 10 strikes first
    dist2 = rounds(Round(charger, defender, round_number=2))
    assert chance(dist2, a_lost=1) == kill


def test_fb_sr_02_03_strike_order_from_the_second_round() -> None:
    """FB-SR-02, FB-SR-03: from the second round ASF first, ASL (and great weapons) last; both
    cancel; in the first round neither counts (the seed)."""
    asf, asl = F({"always_strikes_first"}), F({"always_strikes_last"})
    assert strike_key(1, asf, round_number=2, charging=False) < strike_key(
        9, F(), round_number=2, charging=False
    )
    assert strike_key(9, asl, round_number=2, charging=False) > strike_key(
        1, F(), round_number=2, charging=False
    )
    assert strike_key(9, F(), round_number=2, charging=False, weapon="great_weapon") > (
        strike_key(1, F(), round_number=2, charging=False)
    )
    assert strike_key(4, asf | asl, round_number=2, charging=False) == (1, -4)
    assert strike_key(1, asf, round_number=1, charging=False) == (1, -1)
    quick = Regiment(Fighter(a=1, i=1, rules=asf), models=1, files=1)
    slow = Regiment(Fighter(a=1, i=9, ld=10), models=1, files=1, charging=True)
    dist = rounds(Round(slow, quick, round_number=2))
    assert chance(dist, a_lost=1) == Fraction(1, 4)


def test_fb_sr_08_and_fb_absent_13_extra_ranks_fight() -> None:
    """FB-ABSENT-13: the front rank fights; spears a second; FB-SR-08 one more."""
    target = Regiment(Fighter(a=0, t=10, ld=10, rules=F({"unbreakable"})), models=20, files=5)
    plain = Regiment(Fighter(a=1, s=10), models=15, files=5, charging=True)
    spear = Regiment(Fighter(a=1, s=10, weapon="spear"), models=15, files=5, charging=True)
    both = Regiment(
        Fighter(a=1, s=10, weapon="spear", rules=F({"fight_in_extra_rank"})),
        models=15,
        files=5,
        charging=True,
    )
    for regiment, fighters in ((plain, 5), (spear, 10), (both, 15)):
        dist = rounds(Round(regiment, target, challenge=ChallengeChoice.NONE))
        mean = sum((o.b_lost * p for o, p in dist.items()), Fraction(0))
        assert mean == fighters * Fraction(1, 2) * Fraction(1, 2)


def test_fb_cmd_03_06_standard_and_battle_standard_worked_example() -> None:
    """FB-CMD-06 worked example: unit standard + battle standard = +2 combat result."""
    still = Fighter(a=0, t=10, ld=10, rules=F({"unbreakable"}))
    flagged = Regiment(
        still,
        models=5,
        files=5,
        command=CommandGroup(standard=True),
        character=Fighter(a=0, t=10),
        battle_standard=True,
    )
    bare = Regiment(still, models=6, files=5)
    dist = rounds(Round(flagged, bare, challenge=ChallengeChoice.NONE))
    assert dist == {RoundOutcome("a", 2, None, 0, 0): 1}


def test_fb_cmd_04_musician_wins_a_draw() -> None:
    """FB-CMD-04: on a draw the side with a musician wins by 1; two musicians cancel."""
    still = Fighter(a=0, ld=10, rules=F({"unbreakable"}))
    music = Regiment(still, models=5, files=5, command=CommandGroup(musician=True))
    silent = Regiment(still, models=5, files=5)
    assert rounds(Round(music, silent)) == {RoundOutcome("a", 1, None, 0, 0): 1}
    assert rounds(Round(music, music)) == {RoundOutcome("draw", 0, None, 0, 0): 1}


def test_fb_unit_01_outnumbering_uses_unit_strength() -> None:
    """FB-UNIT-01: cavalry count 2 each; the higher unit strength scores +1."""
    assert unit_strength(ModelKind.CAVALRY, 5) == 10
    assert unit_strength(ModelKind.OGRE, 2) == 6
    assert unit_strength(ModelKind.CHARIOT, 1) == 4
    assert unit_strength(ModelKind.CHARIOT_WITH_CHARACTER, 1) == 5
    assert unit_strength(ModelKind.RIDDEN_MONSTER, 1, wounds=6) == 7
    still = Fighter(a=0, ld=10, rules=F({"unbreakable"}))
    knights = Regiment(still, models=3, files=3, kind=ModelKind.CAVALRY)
    foot = Regiment(still, models=5, files=5)
    assert rounds(Round(knights, foot)) == {RoundOutcome("a", 1, None, 0, 0): 1}


def test_fb_absent_07_ranks_flank_rear_high_ground() -> None:
    """FB-ABSENT-07: +1 per rank of 5 behind the first (max 3), flank +1, rear +2,
    high ground +1."""
    assert [rank_bonus(m, 5) for m in (5, 9, 10, 14, 15, 40)] == [0, 0, 1, 1, 2, 3]
    assert rank_bonus(20, 4) == 0
    still = Fighter(a=0, ld=10, rules=F({"unbreakable"}))
    from kubik.rulesets.fantasy.close_combat import Facing

    rear = Regiment(still, models=5, files=5, facing=Facing.REAR, high_ground=True)
    other = Regiment(still, models=5, files=5)
    assert rounds(Round(rear, other)) == {RoundOutcome("a", 3, None, 0, 0): 1}


def test_fb_cmd_05_casualties_in_the_seeds_order() -> None:
    """FB-CMD-05: rank and file, then musician, standard, champion."""
    group = CommandGroup(champion=True, standard=True, musician=True)
    assert remove_casualties(5, group, 2) == (3, ())
    assert remove_casualties(3, group, 1) == (2, ("musician",))
    assert remove_casualties(3, group, 3) == (0, ("musician", "standard", "champion"))


def test_fb_sr_14_impact_hits_first_when_charging() -> None:
    """FB-SR-14: a charging chariot's D6+1 impact hits land before any blow."""
    chariot = Regiment(
        Fighter(a=0, s=10, rules=F({"impact_hits"})),
        models=1,
        files=1,
        charging=True,
        impact="d6+1",
        kind=ModelKind.CHARIOT,
    )
    target = Regiment(Fighter(a=0, t=1, ld=10, rules=F({"unbreakable"})), models=10, files=5)
    dist = rounds(Round(chariot, target))
    wound = one_attack(hit=1, wound=2, armour=None)  # S10 against T1: 2+
    for lost in range(8):
        want = sum(
            (
                Fraction(1, 6) * convolve(wound, roll + 1).get(lost, Fraction(0))
                for roll in range(1, 7)
            ),
            Fraction(0),
        )
        assert chance(dist, b_lost=lost) == want


def test_fb_sr_01_breath_in_close_combat_is_2d6_hits() -> None:
    """FB-SR-01: in close combat a breath weapon is 2D6 automatic hits."""
    dragon = Regiment(
        Fighter(a=0, rules=F({"breath_weapon"})),
        models=1,
        files=1,
        breath_strength=10,
        kind=ModelKind.MONSTER,
    )
    target = Regiment(Fighter(a=0, t=1, ld=10, rules=F({"unbreakable"})), models=20, files=5)
    dist = rounds(Round(dragon, target))
    wound = one_attack(hit=1, wound=2, armour=None)
    for lost in (2, 7, 12):
        want = sum(
            (
                Fraction(1, 36) * convolve(wound, x + y).get(lost, Fraction(0))
                for x, y in product(range(1, 7), repeat=2)
            ),
            Fraction(0),
        )
        assert chance(dist, b_lost=lost) == want


def test_fb_psy_01_afraid_unit_fights_with_ws_one_in_the_round() -> None:
    """FB-PSY-01 in the round: a failed fear test sets WS to 1."""
    ghosts = Regiment(
        Fighter(a=0, ws=4, ld=10, rules=F({"fear", "unbreakable"})),
        models=1,
        files=1,
        charging=True,
    )
    men = Regiment(Fighter(a=1, ws=3, s=3, t=3, ld=7), models=1, files=1)
    dist = rounds(Round(ghosts, men))
    afraid = 1 - p2d6(7)
    # WS 3 vs 4 hits 4+; WS 1 vs 4 hits 5+
    expected = p2d6(7) * Fraction(1, 2) * Fraction(1, 2) + afraid * Fraction(1, 3) * Fraction(1, 2)
    assert chance(dist, a_lost=1) == expected


def test_fb_psy_02_terror_makes_the_charged_unit_flee() -> None:
    """FB-PSY-02 in the round: a failed Terror test and the unit flees at once."""
    dragon = Regiment(Fighter(a=0, ld=10, rules=F({"terror"})), models=1, files=1, charging=True)
    men = Regiment(Fighter(a=1, ld=6), models=5, files=5)
    dist = rounds(Round(dragon, men))
    assert dist[RoundOutcome("a", 0, "b", 0, 0)] == 1 - p2d6(6)


def test_fb_psy_05_frenzy_is_lost_when_the_round_is_lost() -> None:
    """FB-PSY-05: frenzy ends when the unit loses a round (the round says so)."""
    import random

    from kubik.engine import play

    berserk = Regiment(Fighter(a=0, ld=10, rules=F({"frenzy", "unbreakable"})), models=1, files=1)
    host = Regiment(Fighter(a=0, ld=10), models=10, files=5)
    log = play(close_combat_round, (Round(host, berserk),), random.Random(1)).log
    assert any("FB-PSY-05" in entry.rules for entry in log if hasattr(entry, "rules"))


def test_fb_chal_03_overkill_worked_example_and_cap() -> None:
    """FB-CHAL-03 worked example: one wound left, three inflicted → +2; at most +5."""
    assert overkill(3, 1) == 2
    assert overkill(20, 1) == 5
    assert overkill(1, 1) == 0


def test_fb_chal_03_challenger_strikes_first_in_the_duel() -> None:
    """FB-CHAL-03: the challenger strikes first (the seed), whatever the Initiative."""
    slow = Fighter(ws=3, s=3, t=3, a=1, i=1)
    quick = Fighter(ws=3, s=3, t=3, a=1, i=10)
    dist = dict(OddsDriver().distribution(duel_round, (Duel(slow, quick, 1, 1),)))
    kill = Fraction(1, 4)
    assert dist[DuelOutcome(0, 1, "challenged", 0)] == kill
    assert dist[DuelOutcome(1, 0, "challenger", 0)] == (1 - kill) * kill


def test_fb_sr_16_a_mount_strikes_in_the_duel_and_takes_no_excess() -> None:
    """FB-SR-16/FB-CHAL-03: the mount strikes every round; excess wounds on its rider
    are overkill, not passed to the mount."""
    steed = Fighter(ws=3, s=3, a=1)
    rider = Fighter(ws=3, s=3, t=3, a=0, mount=steed)
    foe = Fighter(ws=3, s=3, t=3, a=0, w=1)
    dist = dict(OddsDriver().distribution(duel_round, (Duel(rider, foe, 1, 1),)))
    assert dist[DuelOutcome(0, 1, "challenged", 0)] == Fraction(1, 4)


def test_fb_chal_01_02_who_challenges_and_who_may_refuse() -> None:
    """FB-CHAL-01: charger first, once, first round, both need a duelist;
    FB-CHAL-02: a surrounded unit may not refuse."""
    assert challenger_side(False, True, True) == "b"
    assert challenger_side(False, True, False) == "a"
    assert may_challenge(
        first_round=True, has_duelist=True, enemy_has_duelist=True, already=False
    ).allowed
    assert not may_challenge(
        first_round=True, has_duelist=True, enemy_has_duelist=True, already=True
    ).allowed
    assert not may_challenge(
        first_round=False, has_duelist=True, enemy_has_duelist=True, already=False
    ).allowed
    assert not may_challenge(
        first_round=True, has_duelist=False, enemy_has_duelist=True, already=False
    ).allowed
    assert not may_refuse(True).allowed and may_refuse(False).allowed


def test_fb_chal_02_refusing_keeps_the_champion_out_of_the_fight() -> None:
    """FB-CHAL-02: the refusing champion goes to the rear and does not strike."""
    champ_unit = Regiment(
        Fighter(a=0, t=10, ld=10, rules=F({"unbreakable"})),
        models=5,
        files=5,
        command=CommandGroup(champion=True),
    )
    foe = Regiment(
        Fighter(a=0, ld=10, rules=F({"unbreakable"})),
        models=5,
        files=5,
        command=CommandGroup(champion=True),
        charging=True,
    )
    refused = rounds(Round(foe, champ_unit, challenge=ChallengeChoice.REFUSE))
    fought = rounds(Round(foe, champ_unit, challenge=ChallengeChoice.NONE))
    assert refused == {RoundOutcome("draw", 0, None, 0, 0): 1}
    assert chance(fought, winner="b") == Fraction(1, 4)  # his one blow, when he fights


def test_the_public_procedure_gives_win_and_break_chances() -> None:
    """``fantasy.close_combat``: the chance to win and to break, exactly."""
    spec = get("fantasy.close_combat")
    inp = spec.input_model.model_validate(
        {
            "a": {"troops": {"weapon_skill": 4, "strength": 4}, "models": 10, "charging": True},
            "b": {"troops": {}, "models": 10},
        }
    )
    dist = OddsDriver().distribution(spec.function, (inp,))
    assert sum(dist.values()) == 1
    win = sum((p for o, p in dist.items() if o.winner == "a"), Fraction(0))
    assert Fraction(1, 2) < win < 1


def test_fb_absent_07_skirmishers_score_no_rank_bonus() -> None:
    """FB-ABSENT-07: a loose formation has no ranks to count."""
    from dataclasses import replace as _replace

    from kubik.rulesets.fantasy.close_combat import Regiment, Round, close_combat_round
    from kubik.rulesets.fantasy.profiles import Fighter

    men = Fighter(ws=3, s=3, t=3, w=1, i=3, a=1, ld=7)
    ranked = Regiment(men, models=15, files=5)
    loose = _replace(ranked, skirmish=True)
    from kubik.engine import OddsDriver

    def lead(reg: Regiment) -> object:
        """The expected margin of side a over side b."""
        dist = OddsDriver().distribution(close_combat_round, (Round(reg, ranked, 2),))
        sign = {"a": 1, "b": -1, "draw": 0}
        return sum(p * sign[o.winner] * o.margin for o, p in dist.items())

    assert lead(ranked) == 0  # the same regiment on both sides
    assert lead(loose) < -1  # two ranks' bonus gone
