"""Heroes, Fame points and heroic actions (OW-HERO-01, 06..11) and the order of fights
(OW-CC-02, OW-CC-08)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kubik.core.errors import InputError
from kubik.engine import OddsDriver
from kubik.rulesets.old_west.absent import Profile
from kubik.rulesets.old_west.core import Side
from kubik.rulesets.old_west.division import next_fight
from kubik.rulesets.old_west.fame import spend
from kubik.rulesets.old_west.heroics import (
    ActingOrder,
    Beneficiary,
    HeroicAction,
    OrderOutcome,
    Phase,
    PhaseLedger,
    action_sequence,
    heroic_order,
    heroic_sequence,
    may_benefit,
    quickdraw_works,
    whuppin_moves,
)
from kubik.rulesets.old_west.movement import MoveEnd, may_end_move
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


def test_OW_HERO_07_both_sides_declared_roll_then_alternate_one_side_acts_alone() -> None:
    """Seed: both players declare: d6, 1–3 a Hero of the side with advantage first, 4–6
    the other's; then they alternate until every declared action is done."""
    both = table(heroic_sequence, (2, 1, Side.B), [5])
    assert both.result is not None
    assert both.result.outcome == ActingOrder((Side.A, Side.B, Side.A))
    alone = table(heroic_sequence, (0, 2, Side.A), [])  # no roll when one side declares
    assert alone.result is not None and alone.result.outcome == ActingOrder((Side.B, Side.B))
    none = table(heroic_sequence, (0, 0, Side.A), [])
    assert none.result is not None and none.result.outcome == ActingOrder(())
    dist = OddsDriver().distribution(heroic_sequence, (1, 1, Side.A))
    assert dist == {
        ActingOrder((Side.A, Side.B)): Fraction(1, 2),
        ActingOrder((Side.B, Side.A)): Fraction(1, 2),
    }


def test_OW_HERO_08_yee_haw_followers_within_six_inches_end_within_six() -> None:
    """Seed: friends within 6" move with him and must end their moves within 6"."""
    near, edge, far = (Beneficiary(distance=d) for d in (2.0, 6.0, 6.01))
    assert may_benefit(near, HeroicAction.YEE_HAW).allowed
    assert may_benefit(edge, HeroicAction.YEE_HAW).allowed
    assert not may_benefit(far, HeroicAction.YEE_HAW).allowed
    assert may_end_move(MoveEnd(3.0, hero_gap=5.9)).allowed
    assert may_end_move(MoveEnd(3.0, hero_gap=7.0)).rules == ("OW-HERO-08",)


def test_OW_HERO_09_quickdraw_needs_the_hero_to_shoot() -> None:
    ledger = PhaseLedger(Phase.SHOOTING).declare("kid", HeroicAction.QUICKDRAW, fame=2)
    near = may_benefit(ledger.beneficiary("p1", 3.0), HeroicAction.QUICKDRAW).allowed
    far = may_benefit(ledger.beneficiary("p2", 9.0), HeroicAction.QUICKDRAW).allowed
    assert near and not far
    ledger, allowed = ledger.benefit("kid", frozenset({"p1"}))
    assert allowed == frozenset({"kid", "p1"})
    assert quickdraw_works(True).allowed and not quickdraw_works(False).allowed
    assert quickdraw_works(False).rules == ("OW-HERO-09",)


def test_OW_HERO_10_time_for_whuppin_fight_first_and_move_again_if_all_opponents_dead() -> None:
    assert HeroicAction.WHUPPIN.cost == 1  # missing in the seed: the general 1 Fame
    assert whuppin_moves(0).allowed and not whuppin_moves(1).allowed
    first = table(next_fight, (("f1", "f2", "f3"), Side.A, ("f3",)), [])
    assert first.result is not None and first.result.outcome == "f3"
    chooser = Scripted(["f2"])
    then = table(next_fight, (("f1", "f2"), Side.A, ("f3",)), [], chooser)
    assert then.result is not None and then.result.outcome == "f2"
    assert [r.rules for r in chooser.requests] == [("OW-CC-02", "OW-CC-08")]


def test_OW_CC_02_side_with_advantage_picks_the_next_fight() -> None:
    chooser = Scripted(["f2"])
    session = table(next_fight, (("f1", "f2", "f3"), Side.B, ()), [], chooser)
    assert [r.side for r in chooser.requests] == ["b"]
    assert session.result is not None and session.result.outcome == "f2"


def test_OW_CC_08_next_fight_is_picked_only_after_the_previous_one() -> None:
    """Each pick is its own request, made once the previous fight is resolved: the
    second offers only the fights left; the last fight needs no decision."""
    chooser = Scripted(["f3"])
    table(next_fight, (("f1", "f2", "f3"), Side.A, ()), [], chooser)
    table(next_fight, (("f1", "f2"), Side.A, ()), [], chooser)
    last = table(next_fight, (("f1",), Side.A, ()), [], chooser)
    assert [r.options for r in chooser.requests] == [("f1", "f2", "f3"), ("f1", "f2")]
    assert last.result is not None and last.result.outcome == "f1"
    with pytest.raises(InputError):
        table(next_fight, ((), Side.A, ()), [])


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
