"""Dividing models into fights (OW-ABSENT-03, OW-CC-01, OW-CC-13): every model in base
contact is in exactly one fight, each fight a single model against those it touches;
each model fights once a phase unless a Time for Whuppin' moved it on (OW-HERO-10/11);
contact only through a charge (OW-CC-01)."""

from __future__ import annotations

import random

import pytest

from kubik.engine import Permission
from kubik.rulesets.old_west.division import (
    Fight,
    Fighting,
    divide,
    divide_into_fights,
    division_check,
    fight_shape,
    in_a_fight,
    may_fight,
    may_touch,
    split,
    splits,
)

#: Wyatt - Joe - Doc - Pete in a chain (side a: wyatt, doc; side b: joe, pete).
CHAIN = frozenset({("wyatt", "joe"), ("doc", "joe"), ("doc", "pete")})
ORDER = ("wyatt", "joe", "doc", "pete")


def test_OW_ABSENT_03_models_in_base_contact_form_groups() -> None:
    groups = divide_into_fights(frozenset({("a1", "b1"), ("a2", "b1"), ("a2", "b2"), ("a3", "b3")}))
    assert [(sorted(g.a), sorted(g.b)) for g in groups] == [
        (["a1", "a2"], ["b1", "b2"]),
        (["a3"], ["b3"]),
    ]
    assert groups[0].needs_split and not groups[1].needs_split


def test_OW_CC_13_one_side_of_every_fight_is_a_single_model() -> None:
    """Seed: three Outlaws against a Cowboy is one fight (OW-CC-13)."""
    assert fight_shape(3, 1).rules == ("OW-ABSENT-03", "OW-CC-13")
    assert fight_shape(1, 1).rules == ("OW-ABSENT-03",)
    assert not fight_shape(2, 2).allowed and not fight_shape(0, 1).allowed


def test_OW_CC_01_a_chain_pairs_off_and_nobody_sits_out() -> None:
    group = divide_into_fights(CHAIN)[0]
    fights = split(group, CHAIN, ORDER)
    assert fights == (Fight(("wyatt",), ("joe",)), Fight(("doc",), ("pete",)))
    # even starting from Joe taking both his enemies, Pete is not left out
    assert split(group, CHAIN, ORDER, "joe") == fights
    assert splits(group, CHAIN, ORDER) == (fights,)
    ganging_up = (Fight(("wyatt", "doc"), ("joe",)),)
    verdict = division_check(ganging_up, CHAIN)
    assert not verdict.allowed and verdict.rules == ("OW-CC-01", "OW-ABSENT-03")


def test_OW_ABSENT_03_a_square_offers_both_pairings() -> None:
    square = frozenset({("a1", "b1"), ("a1", "b2"), ("a2", "b1"), ("a2", "b2")})
    order = ("a1", "b1", "a2", "b2")
    options = splits(divide_into_fights(square)[0], square, order)
    assert options == (
        (Fight(("a1",), ("b2",)), Fight(("a2",), ("b1",))),
        (Fight(("a1",), ("b1",)), Fight(("a2",), ("b2",))),
    )


def test_OW_CC_13_a_model_touching_several_enemies_fights_them_all() -> None:
    star = frozenset({("a1", "b1"), ("a2", "b1"), ("a3", "b1")})
    (fight,) = divide(star, ("a1", "a2", "a3", "b1"))
    assert fight == Fight(("a1", "a2", "a3"), ("b1",))
    assert division_check((fight,), star).rules == ("OW-CC-01", "OW-ABSENT-03", "OW-CC-13")


def test_OW_ABSENT_03_a_fight_is_one_model_and_enemies_it_touches() -> None:
    apart = frozenset({("a1", "b1"), ("a2", "b2")})
    verdict = division_check((Fight(("a1", "a2"), ("b1",)),), apart | {("a2", "b1")})
    assert not verdict.allowed  # b2 is left out
    wrong = division_check((Fight(("a1",), ("b1", "b2")),), apart | {("a1", "b1")})
    assert not wrong.allowed  # a1 does not touch b2; a2 is left out
    twice = division_check(
        (Fight(("a1",), ("b1",)), Fight(("a1",), ("b2",)), Fight(("a2",), ("b2",))), apart
    )
    assert not twice.allowed and twice.rules == ("OW-CC-01",)


@pytest.mark.parametrize("seed", range(40))
def test_OW_CC_01_every_split_of_any_brawl_puts_every_model_in_exactly_one_fight(
    seed: int,
) -> None:
    """Random brawls of up to 5 against 5: every offered split is a lawful division."""
    rng = random.Random(seed)
    side_a = [f"a{i}" for i in range(rng.randint(1, 5))]
    side_b = [f"b{i}" for i in range(rng.randint(1, 5))]
    contacts = frozenset((a, b) for a in side_a for b in side_b if rng.random() < 0.45) | frozenset(
        {(side_a[0], side_b[0])}
    )
    order = tuple(side_a + side_b)
    fights = divide(contacts, order)
    assert division_check(fights, contacts).allowed, (contacts, fights)
    for group in divide_into_fights(contacts):
        for option in splits(group, contacts, order):
            members = {(a, b) for a, b in contacts if a in group.a}
            assert division_check(option, frozenset(members)).allowed, (members, option)


def test_OW_HERO_11_a_model_fights_once_a_phase_unless_whuppin_moved_it_on() -> None:
    """Seed: «там можно посражаться в одной группе, после чего перейти в другую и провести
    ближний бой там»."""
    assert may_fight(Fighting()).rules == ("OW-CC-01",)
    again = may_fight(Fighting(fought=True))
    assert not again.allowed and again.rules == ("OW-CC-01", "OW-ABSENT-03")
    assert may_fight(Fighting(fought=True, whuppin_move=True)).rules == ("OW-HERO-10", "OW-HERO-11")


def test_OW_CC_01_enemies_touch_only_after_a_charge() -> None:
    """Seed: «Противники могут касаться друг друга подставками только в том случае, если
    одна сторона напала на другую»."""
    assert may_touch(True).permission is Permission.ALLOWED
    verdict = may_touch(False)
    assert not verdict.allowed and verdict.rules == ("OW-CC-01",)


def test_OW_HERO_10_time_for_whuppin_needs_a_fight() -> None:
    assert in_a_fight(True).allowed
    assert in_a_fight(False).rules == ("OW-CC-01", "OW-HERO-10")
