"""Heroes, Fame points and heroic actions (OW-HERO-01, 06..11) and the order of fights
(OW-CC-02, OW-CC-08)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kubik.engine import OddsDriver
from kubik.errors import InputError
from kubik.rulesets.old_west.absent import Profile
from kubik.rulesets.old_west.core import Side
from kubik.rulesets.old_west.fame import spend
from kubik.rulesets.old_west.heroics import (
    FightOrder,
    HeroicAction,
    OrderOutcome,
    Phase,
    PhaseLedger,
    action_sequence,
    fight_order,
    followers,
    heroic_order,
    quickdraw_counts,
    whuppin_move_again,
    yee_haw_end_ok,
)
from kubik.rulesets.old_west.procedures.heroics import OrderInput, heroic_order_procedure

from .helpers import Scripted, table


def test_OW_HERO_01_fame_and_fortune_are_points_spent_until_none_are_left() -> None:
    hero = Profile(shoot=4, fight=5, strength=3, toughness=4, fame=3, fortune=1, hero=True)
    assert hero.fame == 3 and hero.fortune == 1
    left = spend(hero.fame, 2)
    assert left == 1 and spend(left, 1) == 0
    with pytest.raises(InputError):
        spend(0, 1)


def test_OW_HERO_06_one_heroic_action_per_hero_per_phase_costs_fame() -> None:
    ledger = PhaseLedger(Phase.MOVEMENT).declare("marshal", HeroicAction.YEE_HAW, fame=1)
    with pytest.raises(InputError):
        ledger.declare("marshal", HeroicAction.YEE_HAW, fame=1)
    with pytest.raises(InputError):
        ledger.declare("deputy", HeroicAction.YEE_HAW, fame=0)
    with pytest.raises(InputError):
        ledger.declare("deputy", HeroicAction.QUICKDRAW, fame=1)  # wrong phase
    assert HeroicAction.YEE_HAW.cost == 1 and HeroicAction.QUICKDRAW.phase is Phase.SHOOTING


def test_OW_HERO_07_order_roll_one_to_three_side_with_advantage_then_alternate() -> None:
    for advantage in (Side.A, Side.B):
        dist = OddsDriver().distribution(heroic_order_procedure, (OrderInput(advantage=advantage),))
        assert dist[OrderOutcome(advantage)] == Fraction(1, 2)
        low = table(heroic_order_procedure, (OrderInput(advantage=advantage),), [3])
        assert low.result is not None and low.result.outcome == OrderOutcome(advantage)
        high = table(heroic_order, (advantage,), [4])
        assert high.result is not None and high.result.outcome == OrderOutcome(advantage.other)
    assert action_sequence(Side.B, 2, 2) == (Side.B, Side.A, Side.B, Side.A)
    assert action_sequence(Side.A, 1, 3) == (Side.A, Side.B, Side.B, Side.B)


def test_OW_HERO_08_yee_haw_followers_within_six_inches_end_within_six() -> None:
    assert followers({"x": 2.0, "y": 6.0, "z": 6.01}) == frozenset({"x", "y"})
    assert yee_haw_end_ok(5.9) and not yee_haw_end_ok(7)


def test_OW_HERO_09_quickdraw_needs_the_hero_to_shoot() -> None:
    ledger = PhaseLedger(Phase.SHOOTING).declare("kid", HeroicAction.QUICKDRAW, fame=2)
    ledger, allowed = ledger.benefit("kid", followers({"p1": 3.0, "p2": 9.0}))
    assert allowed == frozenset({"kid", "p1"})
    assert quickdraw_counts(True) and not quickdraw_counts(False)


def test_OW_HERO_10_time_for_whuppin_fight_first_and_move_again_if_all_opponents_dead() -> None:
    assert HeroicAction.WHUPPIN.cost == 1  # missing in the seed: the general 1 Fame
    assert whuppin_move_again(0) and not whuppin_move_again(1)
    session = table(fight_order, (("f1", "f2", "f3"), Side.A, ("f3",)), [], Scripted(["f2"]))
    assert session.result is not None and session.result.outcome == FightOrder(("f3", "f2", "f1"))


def test_OW_CC_02_side_with_advantage_orders_the_fights() -> None:
    chooser = Scripted(["f2", "f3"])
    session = table(fight_order, (("f1", "f2", "f3"), Side.B, ()), [], chooser)
    assert [r.side for r in chooser.requests] == ["b", "b"]  # the last fight needs no choice
    assert session.result is not None and session.result.outcome == FightOrder(("f2", "f3", "f1"))


def test_OW_CC_08_next_fight_is_picked_only_after_the_previous_one() -> None:
    chooser = Scripted(["f3"])
    table(fight_order, (("f1", "f2", "f3"), Side.A, ()), [], chooser)
    assert [r.options for r in chooser.requests] == [("f1", "f2", "f3"), ("f1", "f2")]
    with pytest.raises(InputError):
        table(fight_order, (("f1",), Side.A, ("f9",)), [])


def test_OW_HERO_11_each_model_benefits_once_per_phase() -> None:
    moving = PhaseLedger(Phase.MOVEMENT)
    moving = moving.declare("h1", HeroicAction.YEE_HAW, 1).declare("h2", HeroicAction.YEE_HAW, 1)
    moving, first = moving.benefit("h1", frozenset({"m1", "m2"}))
    moving, second = moving.benefit("h2", frozenset({"m2", "m3"}))
    assert first == {"h1", "m1", "m2"} and second == {"h2", "m3"}  # m2 moves only once
    shooting = PhaseLedger(Phase.SHOOTING).act("m1").declare("h", HeroicAction.QUICKDRAW, 1)
    _, allowed = shooting.benefit("h", frozenset({"m1", "m2"}))
    assert allowed == {"h", "m2"}  # m1 already shot: never twice


def test_OW_HERO_11_worked_example_second_whuppin_does_not_extend_to_the_first_hero() -> None:
    """Seed: a Hero declares Time for Whuppin', kills his opponent, joins a fight where a
    second Hero also uses Time for Whuppin' — it no longer extends to the first Hero."""
    ledger = PhaseLedger(Phase.CLOSE_COMBAT)
    ledger = ledger.declare("h1", HeroicAction.WHUPPIN, 1).declare("h2", HeroicAction.WHUPPIN, 1)
    ledger, first = ledger.benefit("h1", frozenset({"friend"}))
    ledger = ledger.act("h1")  # fought; in close combat he may still fight again elsewhere
    ledger, second = ledger.benefit("h2", frozenset({"h1", "other"}))
    assert "h1" in first and "h1" not in second and second == {"h2", "other"}
