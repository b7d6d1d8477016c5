"""Psychology, Leadership and the tests that end a combat (FB-PSY-*, FB-CMD-01/04/06/07,
FB-ABSENT-06/08/09/11), against 2D6 enumerated here."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from kubik.engine import OddsDriver
from kubik.rulesets.fantasy.leadership import Command, TestKind, leadership_for, may_reroll
from kubik.rulesets.fantasy.psychology import (
    BreakOutcome,
    Confrontation,
    Defeat,
    Nerve,
    Panic,
    Rally,
    StupidityOutcome,
    break_test,
    dread_test,
    face_dread,
    may_act_while_stupid,
    may_rally,
    panic_needed,
    panic_test,
    rally_test,
    stupidity_test,
)

F = frozenset


def p2d6(at_most: int) -> Fraction:
    return Fraction(sum(1 for a, b in product(range(1, 7), repeat=2) if a + b <= at_most), 36)


def with_reroll(p: Fraction) -> Fraction:
    return p + (1 - p) * p


def dist(proc, arg):  # type: ignore[no-untyped-def]
    return OddsDriver().distribution(proc, (arg,))


def test_fb_psy_01_fear_fails_to_ws_one() -> None:
    """FB-PSY-01: charged by a fear causer, a Ld test; failure sets WS 1 (the seed)."""
    got = dist(face_dread, Confrontation(F(), F({"fear"}), 7))
    assert got[Nerve.AFRAID] == 1 - p2d6(7)
    assert got[Nerve.UNSHAKEN] == p2d6(7)


def test_fb_psy_02_terror_fails_to_flee_and_is_taken_once_per_game() -> None:
    """FB-PSY-02: a failed Terror test means the Flee reaction; a second time, Fear."""
    first = dist(face_dread, Confrontation(F(), F({"terror"}), 8))
    assert first[Nerve.FLEES] == 1 - p2d6(8)
    again = dist(face_dread, Confrontation(F(), F({"terror"}), 8, terror_tested=True))
    assert again[Nerve.AFRAID] == 1 - p2d6(8) and Nerve.FLEES not in dict(again)


def test_fb_psy_03_fear_causers_ignore_each_other_terror_meets_fear_with_fear() -> None:
    """FB-PSY-03: fear against fear cancels; a fear causer tests Fear against terror;
    a terror causer ignores both (the catalogue's default)."""
    assert dread_test(Confrontation(F({"fear"}), F({"fear"}), 7)) == (None, ("FB-PSY-03",))
    kind, rules = dread_test(Confrontation(F({"fear"}), F({"terror"}), 7))
    assert kind is TestKind.FEAR and "FB-PSY-03" in rules
    assert dread_test(Confrontation(F({"terror"}), F({"fear"}), 7))[0] is None


def test_fb_psy_04_immune_to_psychology_passes_fear_terror_and_panic() -> None:
    """FB-PSY-04: no dice for Fear, Terror, Panic; Break tests still rolled."""
    assert dist(face_dread, Confrontation(F({"immune_to_psychology"}), F({"terror"}), 2)) == {
        Nerve.UNSHAKEN: 1
    }
    assert dist(panic_test, Panic(F({"immune_to_psychology"}), 2)) == {True: 1}
    broke = dist(break_test, Defeat(F({"immune_to_psychology"}), 7, 2))
    assert broke[BreakOutcome(True)] == 1 - p2d6(5)


def test_fb_psy_05_frenzy_is_immune_to_psychology() -> None:
    """FB-PSY-05: Frenzy brings Immune to psychology (its Extra attack: test_attacks)."""
    assert dist(face_dread, Confrontation(F({"frenzy"}), F({"fear"}), 2)) == {Nerve.UNSHAKEN: 1}


def test_fb_psy_07_stupidity_test_blunders_d6_and_forbids_acting() -> None:
    """FB-PSY-07: a Ld test each turn; failure moves D6" and forbids charge/shoot/cast."""
    got = dist(stupidity_test, 6)
    assert got[StupidityOutcome(False)] == p2d6(6)
    assert got[StupidityOutcome(True, 4)] == (1 - p2d6(6)) / 6
    assert not may_act_while_stupid(True).allowed
    assert may_act_while_stupid(False).allowed
    assert dist(face_dread, Confrontation(F({"stupidity"}), F({"fear"}), 2)) == {Nerve.UNSHAKEN: 1}


def test_fb_absent_08_break_test_at_leadership_less_margin() -> None:
    """FB-ABSENT-08: 2D6 against Ld minus the margin of defeat."""
    got = dist(break_test, Defeat(F(), 8, 3))
    assert got[BreakOutcome(True)] == 1 - p2d6(5)


def test_fb_psy_08_stubborn_ignores_the_margin() -> None:
    """FB-PSY-08: unmodified Leadership however badly the combat was lost."""
    got = dist(break_test, Defeat(F({"stubborn"}), 8, 5))
    assert got[BreakOutcome(True)] == 1 - p2d6(8)


def test_fb_psy_09_unbreakable_never_rolls() -> None:
    """FB-PSY-09: Break tests passed automatically."""
    assert dist(break_test, Defeat(F({"unbreakable"}), 2, 9)) == {BreakOutcome(False): 1}


def test_fb_psy_10_horde_takes_the_margin_as_wounds() -> None:
    """FB-PSY-10: no Break test; extra wounds equal to the difference."""
    assert dist(break_test, Defeat(F({"horde"}), 5, 4)) == {BreakOutcome(False, 4): 1}


def test_fb_cmd_01_07_general_lends_leadership_within_12_inches() -> None:
    """FB-CMD-01/07: the General's Ld for Fear, Terror, Rally and Break within 12"."""
    near = Command(general_leadership=9, general_inches=11)
    far = Command(general_leadership=9, general_inches=13)
    assert leadership_for(TestKind.BREAK, 6, near) == (9, ("FB-CMD-01", "FB-CMD-07"))
    assert leadership_for(TestKind.BREAK, 6, far) == (6, ())
    assert leadership_for(TestKind.PANIC, 6, near) == (6, ())  # panic is not listed
    got = dist(break_test, Defeat(F(), 6, 1, near))
    assert got[BreakOutcome(True)] == 1 - p2d6(8)


def test_fb_sr_15_large_general_inspires_to_18_inches() -> None:
    """FB-SR-15: a General who is a Large target inspires units within 18"."""
    large = Command(general_leadership=9, general_inches=17, general_large=True)
    assert leadership_for(TestKind.FEAR, 6, large)[0] == 9
    assert "FB-SR-15" in leadership_for(TestKind.FEAR, 6, large)[1]


def test_fb_cmd_06_battle_standard_rerolls_failed_tests_within_12() -> None:
    """FB-CMD-06: a failed Break, Fear, Terror, Panic or Rally test re-rolled."""
    near = Command(battle_standard_inches=6)
    assert may_reroll(TestKind.PANIC, near) and not may_reroll(TestKind.STUPIDITY, near)
    assert not may_reroll(TestKind.BREAK, Command(battle_standard_inches=13))
    got = dist(break_test, Defeat(F(), 7, 0, near))
    assert got[BreakOutcome(False)] == with_reroll(p2d6(7))


def test_fb_absent_09_panic_at_a_quarter_lost() -> None:
    """FB-ABSENT-09: a quarter of the unit lost to shooting in one phase."""
    assert panic_needed(5, 20) and not panic_needed(4, 20)
    assert dist(panic_test, Panic(F(), 7))[True] == p2d6(7)


def test_fb_absent_11_and_fb_cmd_04_rally_with_musician_capped_at_ten() -> None:
    """FB-ABSENT-11: rally on Ld, not below a quarter; FB-CMD-04: +1 with a musician, max 10."""
    assert dist(rally_test, Rally(7, musician=True))[True] == p2d6(8)
    assert dist(rally_test, Rally(10, musician=True))[True] == p2d6(10)
    assert not may_rally(4, 20).allowed and may_rally(5, 20).allowed
