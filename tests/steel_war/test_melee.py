"""Steel War close combat: melee dice, pairing, the round, morale after it, casualty fates.

SW-CC-01, SW-CC-06..SW-CC-10. Exact odds are checked against plain itertools
enumerations written here, independently of the engine.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from pydantic import ValidationError

from kubik.core.errors import InputError
from kubik.engine import OddsDriver, TableSession, Tally, play
from kubik.engine.dice import D4, D6, D8, D10, D12, Die
from kubik.engine.log import EventEntry, RollEntry
from kubik.rulesets.data import DataError
from kubik.rulesets.steel_war.fire_weapons import weapon
from kubik.rulesets.steel_war.melee_casualties import (
    CasualtiesOutcome,
    CasualtyFate,
    casualty_fate_of,
    fate_table,
    melee_casualties,
    settle_casualties,
)
from kubik.rulesets.steel_war.melee_fighters import (
    Fighter,
    Side,
    can_fight_in_melee,
    cavalry_bonus_applies,
)
from kubik.rulesets.steel_war.melee_morale import (
    SideMorale,
    fall_back_inches,
    morale_order,
    round_morale,
    round_threat,
)
from kubik.rulesets.steel_war.melee_pairing import (
    Bout,
    Group,
    bouts_of,
    check_pairing,
    default_pairing,
)
from kubik.rulesets.steel_war.melee_round import RoundLosses, melee_round
from kubik.rulesets.steel_war.movement import Terrain
from kubik.rulesets.steel_war.movers import MoverType
from kubik.rulesets.steel_war.procedures.melee import (
    CloseCombatInput,
    CloseCombatOutcome,
    MeleeCasualtiesInput,
    Winner,
    close_combat_procedure,
    melee_casualties_procedure,
)
from kubik.text.i18n import render

# --- independent oracles -------------------------------------------------------------


def _faces(die: Die) -> range:
    return range(1, die.faces + 1)


def _drop(roll: int, target: int) -> int:
    """Morale test by hand: pass above target, two levels at half or less."""
    if roll > target:
        return 0
    return 2 if 2 * roll <= target else 1


def _oracle_close_combat(
    a_die: Die,
    d_die: Die,
    groups: list[tuple[int, int]],
    a_morale: tuple[Die, int],
    d_morale: tuple[Die, int],
) -> dict[CloseCombatOutcome, Fraction]:
    """Every melee die and both morale dice, enumerated; groups are (attackers, defenders)."""
    dice: list[Die] = []
    for n_att, n_def in groups:
        dice += [a_die] * n_att + [d_die] * n_def
    dice += [a_morale[0], d_morale[0]]
    weight = Fraction(1, 1)
    for d in dice:
        weight /= d.faces
    result: Counter[CloseCombatOutcome] = Counter()
    a_men = sum(n_att for n_att, _ in groups)
    d_men = sum(n_def for _, n_def in groups)
    for faces in product(*(_faces(d) for d in dice)):
        a_loss = d_loss = 0
        i = 0
        for n_att, n_def in groups:
            att, dfn = faces[i : i + n_att], faces[i + n_att : i + n_att + n_def]
            i += n_att + n_def
            a_loss += sum(1 for x in att if any(y > x for y in dfn))
            d_loss += sum(1 for y in dfn if any(x > y for x in att))
        a_roll, d_roll = faces[-2], faces[-1]
        if a_loss == d_loss == 0:
            order: list[str] = []
        elif a_loss > d_loss:
            order = ["attacker", "defender"]
        else:  # more defender casualties, or a tie: the defender tests first
            order = ["defender", "attacker"]
        winner, drop = Winner.NONE, 0
        for side in order:
            roll, leadership, losses, men = (
                (a_roll, a_morale[1], a_loss, a_men)
                if side == "attacker"
                else (d_roll, d_morale[1], d_loss, d_men)
            )
            if losses == men:  # nobody left to test: beaten, no roll
                winner = Winner.DEFENDER if side == "attacker" else Winner.ATTACKER
                break
            lost_levels = _drop(roll, leadership + losses)
            if lost_levels:
                winner = Winner.DEFENDER if side == "attacker" else Winner.ATTACKER
                drop = lost_levels
                break
        result[CloseCombatOutcome(a_loss, d_loss, winner, drop)] += 1
    return {o: n * weight for o, n in result.items()}


def _odds(inp: CloseCombatInput) -> dict[CloseCombatOutcome, Fraction]:
    return dict(OddsDriver().distribution(close_combat_procedure, (inp,)))


# --- SW-CC-01 ------------------------------------------------------------------------


def test_SW_CC_01_only_infantry_and_cavalry_fight_in_close_combat() -> None:
    """«Реально для ближнего боя были приспособлены только пехотинцы и всадники. Роботы и
    бронескафы к ближнему бою были не способны»."""
    assert can_fight_in_melee(MoverType.INFANTRY)
    assert can_fight_in_melee(MoverType.CAVALRY)
    assert not can_fight_in_melee(MoverType.ROBOT)
    assert not can_fight_in_melee(MoverType.ARMOURED_SUIT)
    assert not can_fight_in_melee(MoverType.TRACKED)


def test_SW_CC_01_robots_are_refused_as_close_combat_input() -> None:
    with pytest.raises(ValidationError, match="kind"):
        CloseCombatInput.model_validate(
            {
                "attacker": {"quality": "d8", "leadership": 2, "kind": "robot"},
                "defender": {"quality": "d8", "leadership": 2},
                "attackers": 1,
                "defenders": 1,
            }
        )


# --- SW-CC-07 ------------------------------------------------------------------------


def test_SW_CC_07_worked_example_mirror_battalion_regular_rolls_d12() -> None:
    """Regular d8 + PM-24 «Кошмар» (counts as SMG, +1) + fixed bayonet (+1) = d12."""
    assert Fighter(D8, "smg", cold_weapon=True).die() == D12


def test_SW_CC_07_smg_row_reads_plus_two_with_bayonet() -> None:
    """The weapon table's «+1 степень куба (+2 если со штыком)» is SMG +1 and bayonet +1 stacked."""
    assert Fighter(D6, "smg", cold_weapon=True).steps() == 2
    assert Fighter(D6, "smg").steps() == 1


def test_SW_CC_07_weapon_melee_column() -> None:
    """The weapon table's «Бл. бой» column: pistol, shotgun, SMG +1; flamethrowers +2."""
    assert [Fighter(D6, w).steps() for w in ("pistol", "smg", "shotgun")] == [1, 1, 1]
    assert weapon("flamethrower_keno").melee == weapon("flamethrower_lianra").melee == 2
    for weapon_id in ("primitive", "rifle", "assault_rifle", "lmg", "hmg", "slon"):
        assert Fighter(D6, weapon_id).steps() == 0
    with pytest.raises(InputError, match="weapon"):
        Fighter(D6, "lightsaber").steps()


def test_SW_CC_07_cavalry_plus_two_only_on_easy_terrain_and_cap_at_d12() -> None:
    assert Fighter(D6, "rifle", cavalry_on_easy_terrain=True).die() == D10
    assert Fighter(D6, "rifle", cavalry_on_easy_terrain=False).die() == D6
    assert Fighter(D4, "flamethrower_keno").die() == D8
    assert Fighter(D10, "flamethrower_keno", cold_weapon=True).die() == D12  # clamped


def test_SW_CC_07_cavalry_input_gets_its_bonus_only_on_easy_terrain() -> None:
    inp = CloseCombatInput.model_validate(
        {
            "attacker": {"quality": "d4", "leadership": 2, "kind": "cavalry"},
            "defender": {
                "quality": "d4",
                "leadership": 2,
                "kind": "cavalry",
                "easy_terrain": False,
            },
            "attackers": 1,
            "defenders": 1,
        }
    )
    assert inp.attacker.fighter().die() == D8
    assert inp.defender.fighter().die() == D4


# --- SW-CC-06 ------------------------------------------------------------------------


def test_SW_CC_06_worked_example_five_guardsmen_three_androids() -> None:
    """Each android faces a guardsman; the 2 spare guardsmen go where the player likes."""
    spread = default_pairing(attackers=3, defenders=5)
    check_pairing(spread, 3, 5)
    assert sum(g.count for g in spread) == 3  # every android heads its own group
    assert sorted((g.opponents, g.count) for g in spread) == [(1, 1), (2, 2)]
    # «трое на одного»: all spares against one android is legal too.
    three_on_one = (Group(Side.ATTACKER, 3, 1), Group(Side.ATTACKER, 1, 2))
    check_pairing(three_on_one, 3, 5)


def test_SW_CC_06_nobody_may_stay_out_of_the_fight() -> None:
    idle = (Group(Side.ATTACKER, 1, 3),)  # two guardsmen left out
    with pytest.raises(InputError, match="groups"):
        check_pairing(idle, 3, 5)
    with pytest.raises(ValidationError, match="groups"):
        CloseCombatInput.model_validate(
            {
                "attacker": {"quality": "d8", "leadership": 2},
                "defender": {"quality": "d8", "leadership": 2},
                "attackers": 3,
                "defenders": 5,
                "groups": [{"attackers": 1, "defenders": 1, "count": 3}],
            }
        )
    with pytest.raises(ValidationError, match="one fighter facing"):
        CloseCombatInput.model_validate(
            {
                "attacker": {"quality": "d8", "leadership": 2},
                "defender": {"quality": "d8", "leadership": 2},
                "attackers": 2,
                "defenders": 2,
                "groups": [{"attackers": 2, "defenders": 2}],
            }
        )


def test_SW_CC_06_default_pairing_equal_sides_is_one_on_one() -> None:
    assert default_pairing(4, 4) == (Group(Side.ATTACKER, 1, 4),)
    assert default_pairing(7, 2) == (Group(Side.DEFENDER, 4, 1), Group(Side.DEFENDER, 3, 1))


# --- SW-CC-08 ------------------------------------------------------------------------


def test_SW_CC_08_worked_example_two_guardsmen_and_an_android() -> None:
    """Android rolls 6, guardsmen 1 and 8: one guardsman and the android are lost."""
    bout = Bout(Side.DEFENDER, D8, (D8, D8))  # the guardsmen charged the android
    session = TableSession(melee_round, ((bout,),))
    session.supply([6, 1, 8])  # the android's die, then each guardsman's
    assert session.result is not None
    assert session.result.outcome == RoundLosses(attacker=1, defender=1)
    named = Bout(Side.DEFENDER, D8, (D8, D8), ("android", "guard1", "guard2"))
    session = TableSession(melee_round, ((named,),))
    session.supply([6, 1, 8])
    assert session.result is not None
    assert session.result.outcome == RoundLosses(1, 1, ("android", "guard1"))


def test_SW_CC_08_worked_example_through_the_public_procedure() -> None:
    inp = CloseCombatInput.model_validate(
        {
            "attacker": {"quality": "d8", "leadership": 2},
            "defender": {"quality": "d8", "leadership": 2},
            "attackers": 2,
            "defenders": 1,
        }
    )
    session = TableSession(close_combat_procedure, (inp,))
    # android 6, guardsmen 1 and 8; then morale: 1 - 1 is a tie, the defender tests
    # first — but the android was the whole side: nobody is left to test, it is beaten.
    session.supply([6, 1, 8])
    assert session.result is not None
    assert session.result.outcome == CloseCombatOutcome(1, 1, Winner.ATTACKER, 0)
    rolls = [e for e in session.result.log if isinstance(e, RollEntry)]
    assert [r.values for r in rolls] == [(6,), (1,), (8,)]


def test_SW_CC_08_equal_rolls_are_no_casualty() -> None:
    session = TableSession(melee_round, ((Bout(Side.ATTACKER, D6, (D6,)),),))
    session.supply([4, 4])
    assert session.result is not None
    assert session.result.outcome == RoundLosses(0, 0)


@pytest.mark.parametrize(
    ("example", "a_die", "d_die", "groups"),
    [
        (
            {
                "attacker": {"quality": "d6", "leadership": 2},
                "defender": {"quality": "d6", "leadership": 2},
                "attackers": 2,
                "defenders": 1,
            },
            D6,
            D6,
            [(2, 1)],
        ),
        (
            {
                "attacker": {
                    "quality": "d8",
                    "leadership": 2,
                    "weapon": "smg",
                    "cold_weapon": True,
                },
                "defender": {"quality": "d6", "leadership": 3, "weapon": "rifle"},
                "attackers": 1,
                "defenders": 1,
            },
            D12,
            D6,
            [(1, 1)],
        ),
        (
            {
                "attacker": {"quality": "d4", "leadership": 2, "weapon": "primitive"},
                "defender": {"quality": "d4", "leadership": 1, "weapon": "pistol"},
                "attackers": 3,
                "defenders": 2,
                "groups": [{"attackers": 2, "defenders": 1}, {"attackers": 1, "defenders": 1}],
            },
            D4,
            D6,
            [(2, 1), (1, 1)],
        ),
        (
            {
                "attacker": {"quality": "d4", "leadership": 1},
                "defender": {"quality": "d4", "leadership": 3},
                "attackers": 2,
                "defenders": 2,
            },
            D4,
            D4,
            [(1, 1), (1, 1)],
        ),
    ],
)
def test_SW_CC_08_SW_CC_09_close_combat_odds_match_brute_force(
    example: dict[str, object], a_die: Die, d_die: Die, groups: list[tuple[int, int]]
) -> None:
    inp = CloseCombatInput.model_validate(example)
    a_morale = (inp.attacker.morale().quality, inp.attacker.leadership)
    d_morale = (inp.defender.morale().quality, inp.defender.leadership)
    expected = _oracle_close_combat(a_die, d_die, groups, a_morale, d_morale)
    assert _odds(inp) == expected


def test_SW_CC_08_many_pairs_convolve_fast_and_sum_to_one() -> None:
    inp = CloseCombatInput.model_validate(
        {
            "attacker": {"quality": "d10", "leadership": 1, "weapon": "smg", "cold_weapon": True},
            "defender": {"quality": "d8", "leadership": 2},
            "attackers": 12,
            "defenders": 10,
        }
    )
    dist = _odds(inp)
    assert sum(dist.values()) == 1
    assert max(o.attacker_casualties for o in dist) == 12
    assert max(o.defender_casualties for o in dist) == 10


# --- SW-CC-09 ------------------------------------------------------------------------


def test_SW_CC_09_more_casualties_test_first_with_threat_per_casualty() -> None:
    assert [s.value for s in morale_order(RoundLosses(3, 1))] == ["attacker", "defender"]
    assert [s.value for s in morale_order(RoundLosses(0, 2))] == ["defender", "attacker"]
    assert round_threat(3) == 3


def test_SW_CC_09_ties_defender_first_and_no_casualties_no_test() -> None:
    assert [s.value for s in morale_order(RoundLosses(2, 2))] == ["defender", "attacker"]
    assert morale_order(RoundLosses(0, 0)) == ()


def test_SW_CC_09_loser_falls_back_and_the_other_side_wins() -> None:
    sides = (SideMorale(D8, 2), SideMorale(D8, 2))
    session = TableSession(round_morale, (RoundLosses(0, 3), *sides))
    session.supply([2])  # defender: threat 3, target 5; 2 <= 5/2 -> two levels
    assert session.result is not None
    assert session.result.outcome.fell_back is Side.DEFENDER
    assert session.result.outcome.drop == 2
    events = [e.event.id for e in session.result.log if isinstance(e, EventEntry)]
    assert "steel_war.close_combat.falls_back" in events


def test_SW_CC_09_if_the_harder_hit_side_holds_the_other_tests_the_same_way() -> None:
    sides = (SideMorale(D8, 2), SideMorale(D8, 2))
    session = TableSession(round_morale, (RoundLosses(1, 3), *sides))
    session.supply([6, 3])  # defender holds (6 > 5); attacker: 3 <= 2 + 1 -> one level
    assert session.result is not None
    assert session.result.outcome.fell_back is Side.ATTACKER
    assert session.result.outcome.drop == 1


def test_SW_CC_09_nobody_fails_the_melee_continues() -> None:
    sides = (SideMorale(D12, 1), SideMorale(D12, 1))
    session = TableSession(round_morale, (RoundLosses(1, 1), *sides))
    session.supply([12, 12])
    assert session.result is not None
    assert session.result.outcome.fell_back is None


# --- SW-CC-10 ------------------------------------------------------------------------


def test_SW_CC_10_casualty_fate_table_chosen_reading() -> None:
    assert [casualty_fate_of(r) for r in range(1, 7)] == [
        CasualtyFate.KILLED,
        CasualtyFate.KILLED,
        CasualtyFate.WOUNDED,
        CasualtyFate.WOUNDED,
        CasualtyFate.UNHURT,
        CasualtyFate.UNHURT,
    ]


def test_SW_CC_10_printed_reading_is_not_a_d6_table_and_differs() -> None:
    """The seed prints «1» и «2» twice (killed and unhurt); we read unhurt as 5–6."""
    literal = {"die": "d6", "killed": [1, 2], "wounded": [3, 4], "unhurt": [1, 2]}
    with pytest.raises(DataError, match="face 1"):
        fate_table(literal)
    chosen = fate_table({"die": "d6", "killed": [1, 2], "wounded": [3, 4], "unhurt": [5, 6]})
    p_unhurt_chosen = Fraction(sum(f is CasualtyFate.UNHURT for f in chosen.values()), 6)
    # Literal reading with the first match winning: 1–2 are killed, 5–6 have no fate at all.
    first_match = {r: f for f, faces in (("killed", [1, 2]), ("wounded", [3, 4])) for r in faces}
    p_unhurt_literal = Fraction(sum(1 for f in first_match.values() if f == "unhurt"), 6)
    assert (p_unhurt_chosen, p_unhurt_literal) == (Fraction(1, 3), Fraction(0))
    assert sorted(set(range(1, 7)) - set(first_match)) == [5, 6]


def test_SW_CC_10_winner_and_loser_sort_their_casualties() -> None:
    fates = Tally([CasualtyFate.KILLED, CasualtyFate.WOUNDED, CasualtyFate.UNHURT] * 2)
    assert settle_casualties(fates, won=True) == CasualtiesOutcome(2, 2, 2, 0)
    assert settle_casualties(fates, won=False) == CasualtiesOutcome(2, 0, 0, 4)


def test_SW_CC_10_table_reproduction() -> None:
    session = TableSession(melee_casualties, (3, False))
    session.supply([1, 4, 6])
    assert session.result is not None
    assert session.result.outcome == CasualtiesOutcome(
        killed=1, returned=0, unverified=0, prisoners=2
    )


@pytest.mark.parametrize(("casualties", "won"), [(0, True), (1, False), (2, True), (3, False)])
def test_SW_CC_10_melee_casualties_odds_match_brute_force(casualties: int, won: bool) -> None:
    expected: Counter[CasualtiesOutcome] = Counter()
    for faces in product(range(1, 7), repeat=casualties):
        killed = sum(1 for f in faces if f <= 2)
        wounded = sum(1 for f in faces if f in (3, 4))
        unhurt = sum(1 for f in faces if f >= 5)
        if won:
            expected[CasualtiesOutcome(killed, unhurt, wounded, 0)] += 1
        else:
            expected[CasualtiesOutcome(killed, 0, 0, unhurt + wounded)] += 1
    total = 6**casualties
    inp = MeleeCasualtiesInput(casualties=casualties, won=won)
    exact = OddsDriver().distribution(melee_casualties_procedure, (inp,))
    assert dict(exact) == {o: Fraction(n, total) for o, n in expected.items()}


# --- text ----------------------------------------------------------------------------


def test_SW_CC_08_every_melee_message_renders_in_english_and_russian() -> None:
    inp = CloseCombatInput.model_validate(
        {
            "attacker": {"quality": "d6", "leadership": 3},
            "defender": {"quality": "d6", "leadership": 3},
            "attackers": 3,
            "defenders": 2,
        }
    )
    seen: set[str] = set()
    for seed in range(40):
        for proc, args in (
            (close_combat_procedure, (inp,)),
            (melee_casualties_procedure, (MeleeCasualtiesInput(casualties=2, won=seed % 2 == 0),)),
        ):
            for entry in play(proc, args, random.Random(seed)).log:
                message = entry.reason if isinstance(entry, RollEntry) else None
                if isinstance(entry, EventEntry):
                    message = entry.event
                if message is None:
                    continue
                seen.add(message.id)
                for lang in ("en", "ru"):
                    text = render(message, lang)
                    assert not text.startswith(message.id), text
                    assert "steel_war.term" not in text, text
    assert "steel_war.close_combat.falls_back" in seen
    assert "steel_war.melee_casualties.result" in seen


def test_SW_CC_07_SW_ABSENT_07_cavalry_bonus_follows_the_cavalry_terrain_row() -> None:
    assert cavalry_bonus_applies(Terrain.OPEN)
    assert cavalry_bonus_applies(Terrain.DENSE_BUSHES)  # easy for cavalry, not for infantry
    assert not cavalry_bonus_applies(Terrain.MARSH)
    assert not cavalry_bonus_applies(Terrain.OPEN, mounted=False)  # lost his horse: infantry


def test_SW_CC_09_SW_CC_05_fall_back_six_inches() -> None:
    assert fall_back_inches(after_charge=True) == 6
    assert fall_back_inches(after_charge=False) == 6


def test_SW_CC_08_one_against_thirty_matches_the_closed_form() -> None:
    """A lone fighter survives iff nobody rolls higher: sum over his roll c of (c/12)^30 / 12."""
    bouts = bouts_of((Group(Side.DEFENDER, 30, 1),), Fighter(D12), Fighter(D12))
    dist = OddsDriver().distribution(melee_round, (bouts,))
    survives = sum(p for o, p in dist.items() if o.defender == 0)
    assert survives == sum(Fraction(c, 12) ** 30 for c in range(1, 13)) / 12
    assert sum(dist.values()) == 1
