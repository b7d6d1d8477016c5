"""Dukin' it out (OW-CC-03, OW-CC-11, OW-CC-13) and Fame in fights (OW-HERO-02/03/05)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from pydantic import ValidationError

from kubik import api
from kubik.core.errors import InputError
from kubik.engine import OddsDriver
from kubik.engine.log import ChoiceEntry, EventEntry
from kubik.rulesets.old_west.core import Side
from kubik.rulesets.old_west.fame import JustEnough, SpendNothing, policies
from kubik.rulesets.old_west.fight import FightOutcome
from kubik.rulesets.old_west.procedures.combat import LAWMAN
from kubik.rulesets.old_west.procedures.fight import FightInput, fight_procedure

from .helpers import ByPolicy, Scripted, roll_sizes, table

Spec = tuple[int, int, int]  # fight, attacks, fame


def brute_fight(a: list[Spec], b: list[Spec], advantage: str, spend: bool) -> dict[str, Fraction]:
    """P(winner) walking every die of both sides and a roll-off die; no engine."""
    dice = sum(f[1] for f in a) + sum(f[1] for f in b) + 1
    wins = {"a": 0, "b": 0}
    fights = {"a": max(f[0] for f in a), "b": max(f[0] for f in b)}
    pools = {"a": max(f[2] for f in a), "b": max(f[2] for f in b)}
    for faces in product(range(1, 7), repeat=dice):
        pos = 0
        best: dict[str, list[tuple[int, int]]] = {}
        for name, side in (("a", a), ("b", b)):
            best[name] = []
            for _, attacks, fame in side:
                best[name].append((max(faces[pos : pos + attacks]), fame))
                pos += attacks
        roll_off = faces[pos]

        def value(name: str, k: int) -> int:
            dice_fame = best[name]  # noqa: B023
            base = max(d for d, _ in dice_fame)
            if k == 0:
                return base
            return max([base] + [d + k for d, fame in dice_fame if fame >= k])

        def wins_outright(name: str, k: int) -> bool:
            other = "b" if name == "a" else "a"
            mine, theirs = value(name, k), value(other, 0)
            return mine > theirs or (mine == theirs and fights[name] > fights[other])

        spent = {"a": 0, "b": 0}
        if spend:
            for name in ("a", "b"):
                for k in range(pools[name] + 1):
                    if wins_outright(name, k):
                        spent[name] = k
                        break
        va, vb = value("a", spent["a"]), value("b", spent["b"])
        if va != vb:
            winner = "a" if va > vb else "b"
        elif fights["a"] != fights["b"]:
            winner = "a" if fights["a"] > fights["b"] else "b"
        else:
            other = "b" if advantage == "a" else "a"
            winner = advantage if roll_off <= 3 else other
        wins[winner] += 1
    total = 6**dice
    return {k: Fraction(v, total) for k, v in wins.items()}


def _input(a: list[Spec], b: list[Spec], advantage: str = "a") -> FightInput:
    return FightInput.model_validate(
        {
            "a": [{"fight": f, "attacks": n, "fame": fame} for f, n, fame in a],
            "b": [{"fight": f, "attacks": n, "fame": fame} for f, n, fame in b],
            "advantage": advantage,
        }
    )


CASES: list[tuple[list[Spec], list[Spec], str]] = [
    ([(3, 1, 0)], [(3, 1, 0)], "a"),
    ([(3, 1, 0)] * 3, [(4, 1, 0)], "b"),
    ([(5, 2, 0)], [(3, 1, 0), (4, 1, 0)], "a"),
    ([(5, 2, 2)], [(3, 1, 0)], "b"),
    ([(4, 1, 2)], [(4, 1, 1)], "a"),
    ([(3, 1, 0), (5, 1, 3)], [(4, 2, 1)], "b"),
]


@pytest.mark.parametrize(("a", "b", "advantage"), CASES)
def test_OW_CC_13_fight_odds_match_brute_force_under_both_policies(
    a: list[Spec], b: list[Spec], advantage: str
) -> None:
    for name, policy in policies().items():
        dist = OddsDriver(policy).distribution(fight_procedure, (_input(a, b, advantage),))
        expected = brute_fight(a, b, advantage, name == "just_enough")
        assert {str(o.winner): p for o, p in dist.items()} == {
            k: v for k, v in expected.items() if v
        }, name


def test_OW_CC_03_lawman_vs_outlaw_worked_example() -> None:
    """Seed: Lawman and Outlaw, 1 Attack, 1 Wound, Fight 3 each: higher die wins; equal
    dice and equal Fight values → one die, 1–3 one side, 4–6 the other."""
    inp = _input([(3, 1, 0)], [(3, 1, 0)])
    assert OddsDriver().distribution(fight_procedure, (inp,))[FightOutcome(Side.A)] == Fraction(
        1, 2
    )
    assert table(fight_procedure, (inp,), [5, 3]).result.outcome == FightOutcome(Side.A)  # type: ignore[union-attr]
    assert table(fight_procedure, (inp,), [2, 6]).result.outcome == FightOutcome(Side.B)  # type: ignore[union-attr]
    tie = table(fight_procedure, (inp,), [4, 4, 2])
    assert tie.result is not None and tie.result.outcome == FightOutcome(Side.A)
    assert roll_sizes(tie) == [("a", 1), ("b", 1), ("", 1)]
    assert table(fight_procedure, (inp,), [4, 4, 4]).result.outcome == FightOutcome(Side.B)  # type: ignore[union-attr]


def test_OW_CC_03_roll_off_low_band_goes_to_the_side_with_advantage() -> None:
    inp = _input([(3, 1, 0)], [(3, 1, 0)], advantage="b")
    assert table(fight_procedure, (inp,), [4, 4, 3]).result.outcome == FightOutcome(Side.B)  # type: ignore[union-attr]
    assert table(fight_procedure, (inp,), [4, 4, 4]).result.outcome == FightOutcome(Side.A)  # type: ignore[union-attr]


def test_OW_CC_03_tie_on_dice_goes_to_higher_fight_without_a_roll_off() -> None:
    inp = _input([(3, 1, 0)], [(5, 1, 0)])
    session = table(fight_procedure, (inp,), [6, 6])
    assert session.result is not None and session.result.outcome == FightOutcome(Side.B)
    assert roll_sizes(session) == [("a", 1), ("b", 1)]


def test_OW_CC_13_three_outlaws_vs_a_cowboy_worked_example() -> None:
    """Seed: three Outlaws roll three dice, the Cowboy one; his die meets their best."""
    inp = _input([(3, 1, 0)] * 3, [(3, 1, 0)])
    session = table(fight_procedure, (inp,), [1, 5, 2, 4])
    assert session.result is not None and session.result.outcome == FightOutcome(Side.A)
    assert roll_sizes(session) == [("a", 3), ("b", 1)]
    assert table(fight_procedure, (inp,), [1, 3, 2, 4]).result.outcome == FightOutcome(Side.B)  # type: ignore[union-attr]
    # P(best of three > one die) + half the ties (roll-off): 855/1296 + (216/1296)/2
    p_a = OddsDriver().distribution(fight_procedure, (inp,))[FightOutcome(Side.A)]
    assert p_a == Fraction(855, 1296) + Fraction(216, 1296) / 2 == Fraction(107, 144)


def test_OW_CC_11_a_model_with_two_attacks_rolls_two_dice_and_keeps_the_best() -> None:
    inp = _input([(3, 2, 0)], [(3, 1, 0)])
    session = table(fight_procedure, (inp,), [1, 6, 5])
    assert session.result is not None and session.result.outcome == FightOutcome(Side.A)
    assert roll_sizes(session) == [("a", 2), ("b", 1)]


def test_OW_CC_13_attacks_of_every_model_are_summed_and_best_fight_breaks_ties() -> None:
    inp = _input([(3, 2, 0), (5, 1, 0)], [(4, 1, 0)])
    session = table(fight_procedure, (inp,), [2, 4, 1, 4])
    assert roll_sizes(session) == [("a", 3), ("b", 1)]
    assert session.result is not None and session.result.outcome == FightOutcome(Side.A)


def test_OW_HERO_02_fame_is_spent_after_both_sides_rolled() -> None:
    inp = _input([(3, 1, 2)], [(3, 1, 0)])
    chooser = Scripted([2])
    session = table(fight_procedure, (inp,), [3, 5, 1], chooser)  # 3 + 2 ties 5: roll-off
    assert session.result is not None and session.result.outcome == FightOutcome(Side.A)
    (request,) = chooser.requests
    assert request.side == "a" and request.options == (0, 1, 2)
    assert request.reason.kwargs["rolled"] == 3 and request.reason.kwargs["opponent"] == 5
    assert request.reason.kwargs["to_succeed"] == -1  # 3 + 2 = 5 only ties (roll-off)
    # the default spends nothing and loses
    assert table(fight_procedure, (inp,), [3, 5]).result.outcome == FightOutcome(Side.B)  # type: ignore[union-attr]


def test_OW_HERO_03_secret_bids_neither_request_shows_the_other() -> None:
    inp = _input([(4, 1, 2)], [(4, 1, 2)])
    seen = []
    for bid_a, dice in ((0, [3, 4]), (2, [3, 4, 2])):
        chooser = Scripted([bid_a, 1])
        session = table(fight_procedure, (inp,), dice, chooser)
        request_a, request_b = chooser.requests
        assert request_a.reason.kwargs["secret"] and request_b.reason.kwargs["secret"]
        seen.append(request_b)
        events = [e.event.id for e in session.result.log if isinstance(e, EventEntry)]  # type: ignore[union-attr]
        assert "old_west.fame.bids_revealed" in events
    assert seen[0] == seen[1]  # b's request is the same whatever a wrote
    # a bids 2 (3 → 5), b bids 1 (4 → 5): tie, equal Fight, roll-off 1–3 → a (advantage)
    session = table(fight_procedure, (inp,), [3, 4, 2], Scripted([2, 1]))
    assert session.result is not None and session.result.outcome == FightOutcome(Side.A)


def test_OW_HERO_05_just_enough_spends_just_enough_to_win() -> None:
    inp = _input([(5, 1, 3)], [(3, 1, 0)])
    session = table(fight_procedure, (inp,), [3, 4], ByPolicy(JustEnough()))
    assert session.result is not None and session.result.outcome == FightOutcome(Side.A)
    # 3 + 1 = 4 ties, and Fight 5 beats 3: one point is enough
    entries = [e for e in session.result.log if isinstance(e, ChoiceEntry)]
    assert [e.answer for e in entries] == [1]
    default = table(fight_procedure, (inp,), [3, 4], ByPolicy(SpendNothing()))
    assert default.result is not None and default.result.outcome == FightOutcome(Side.B)


def test_OW_CC_03_input_is_validated() -> None:
    with pytest.raises(ValidationError):
        FightInput.model_validate({"a": [], "b": [{"fight": 3, "attacks": 1}]})
    with pytest.raises(ValidationError):
        FightInput.model_validate(
            {"a": [{"fight": 3, "attacks": 10}] * 3, "b": [{"fight": 3, "attacks": 1}]}
        )
    with pytest.raises(ValidationError):
        FightInput.model_validate(
            {"a": [{"fight": 3, "attacks": 1, "bogus": 1}], "b": [{"fight": 3, "attacks": 1}]}
        )


@pytest.mark.parametrize(
    ("procedure", "model", "field", "limit"),
    [
        ("old_west.fight", {"fight": 3}, "attacks", 3),
        ("old_west.fight", {"fight": 3, "attacks": 1}, "fame", 3),
        ("old_west.combat", {**LAWMAN, "attacks": 1}, "wounds", 3),
        ("old_west.combat", {**LAWMAN, "attacks": 1}, "fortune", 3),
    ],
)
def test_OW_ABSENT_09_a_question_past_the_games_values_names_the_limit(
    procedure: str, model: dict[str, int], field: str, limit: int
) -> None:
    """Attacks, Wounds, Fame and Fortune end at three, the seed's largest (OW-CC-11,
    OW-CC-12, OW-HERO-05): one more is refused in one line naming the field and the
    limit, in English and in Russian."""
    question = {"a": [{**model, field: limit + 1}], "b": [{**model, field: limit}]}
    with pytest.raises(InputError) as refused:
        api.odds(procedure, question)
    assert (
        refused.value.text("en") == f"input.a[0].{field}: {limit + 1} is too large; at most {limit}"
    )
    assert refused.value.text("ru").endswith(f"можно не больше {limit}")
    api.odds(procedure, {"a": [{**model, field: limit}], "b": [{**model, field: limit}]})


def test_OW_ABSENT_03_a_fight_question_has_a_single_model_on_one_side() -> None:
    """Fights are split so that one side is one model (OW-ABSENT-03), and six models fit
    around one: two against two, or seven against one, are refused."""
    one = {"fight": 3, "attacks": 1}
    with pytest.raises(InputError, match="one side of a fight must be a single model"):
        api.odds("old_west.fight", {"a": [one, one], "b": [one, one]})
    with pytest.raises(InputError, match="at most 6 items"):
        api.odds("old_west.fight", {"a": [one] * 7, "b": [one]})
    api.odds("old_west.fight", {"a": [one] * 6, "b": [one]})


def test_OW_HERO_03_both_bids_are_asked_before_anything_reveals_them() -> None:
    """The sealed bids: a's request, then b's, with no event between them (a referee hides
    a's answer until the next event), then the reveal — even when nobody spends."""
    inp = _input([(4, 1, 2)], [(4, 1, 1)])
    chooser = Scripted([0, 0])
    session = table(fight_procedure, (inp,), [3, 5], chooser)
    assert session.result is not None
    log = session.result.log
    kinds = [
        "choice" if isinstance(e, ChoiceEntry) else e.event.id
        for e in log
        if isinstance(e, ChoiceEntry | EventEntry)
    ]
    assert kinds[:3] == ["choice", "choice", "old_west.fame.bids_revealed"]
    request_a, request_b = chooser.requests
    assert request_a.sealed and request_b.sealed
    assert request_a.rules == ("OW-HERO-02", "OW-HERO-05", "OW-HERO-03")
    assert request_b.options == (0, 1)  # his whole pool: he cannot see a's bid
    reveal = next(e for e in log if isinstance(e, EventEntry))
    assert reveal.rules == ("OW-HERO-03",)
    open_bid = Scripted([])
    table(fight_procedure, (_input([(4, 1, 2)], [(4, 1, 0)]),), [3, 5], open_bid)
    assert not open_bid.requests[0].sealed
