"""Fame spent optimally (OW-HERO-02/03/04/05): the engine's expectimax against brute force.

Every public Old West procedure with decisions, on small inputs: the optimal policy's
distribution, each side's expected worth and expected Fame spent equal a flat brute
force over every dice sequence and every choice. The rule of thumb ``just_enough``
falls short exactly where the issue said: a Hero one pip behind an equal Fight value
should spend to force the roll-off.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

import kubik.api as api
from kubik.engine import OddsCache, OddsDriver
from kubik.engine.objectives import objectives_for
from kubik.engine.optimal import Optimal
from kubik.engine.registry import get
from kubik.rulesets.old_west.core import Side
from kubik.rulesets.old_west.fame import JustEnough
from kubik.rulesets.old_west.fight import FightOutcome
from tests.optimal_oracle import as_worths, brute_optimal

LAWMAN: dict[str, Any] = {"fight": 3, "attacks": 1, "strength": 3, "toughness": 3}

CASES = [
    ("old_west.wound", {"strength": 3, "toughness": 8, "fame": 1}),
    ("old_west.wound", {"strength": 3, "toughness": 8, "fame": 3}),
    ("old_west.wound", {"strength": 4, "toughness": 5, "fame": 2}),
    (
        "old_west.fight",
        {"a": [{"fight": 4, "attacks": 1, "fame": 1}], "b": [{"fight": 4, "attacks": 1}]},
    ),
    (
        "old_west.fight",
        {"a": [{"fight": 4, "attacks": 1, "fame": 2}], "b": [{"fight": 5, "attacks": 2}]},
    ),
    (
        "old_west.fight",
        {
            "a": [{"fight": 4, "attacks": 1, "fame": 2}],
            "b": [{"fight": 4, "attacks": 1, "fame": 1}],
        },
    ),
    (
        "old_west.fight",
        {
            "a": [{"fight": 3, "attacks": 1}, {"fight": 5, "attacks": 1, "fame": 1}],
            "b": [{"fight": 4, "attacks": 1, "fame": 2}],
            "advantage": "b",
        },
    ),
    ("old_west.pluck_test", {"pluck": 3, "fame": 2}),
    ("old_west.fearsome_reputation", {"pluck": 2, "fame": 1}),
    ("old_west.jump_test", {"fame": 1}),
    ("old_west.shoot", {"shoot": 4, "strength": 3, "toughness": 4, "fame": 2}),
    ("old_west.combat", {"a": [{**LAWMAN, "fame": 1}], "b": [{**LAWMAN, "wounds": 2}]}),
    ("old_west.combat", {"a": [{**LAWMAN, "fame": 1}], "b": [{**LAWMAN, "fame": 1}]}),
    # two winners strike in turn, each with his own Fame
    (
        "old_west.combat",
        {
            "a": [{**LAWMAN, "fame": 1}, {**LAWMAN, "fame": 1}],
            "b": [{**LAWMAN, "wounds": 2}],
        },
    ),
]


@pytest.mark.parametrize(
    ("name", "example"), CASES, ids=[f"{n}[{i}]" for i, (n, _) in enumerate(CASES)]
)
def test_OW_HERO_02_optimal_fame_matches_brute_force(name: str, example: dict[str, Any]) -> None:
    spec = get(name)
    inp = spec.input_model.model_validate(example)
    goals = objectives_for(spec.function, (inp,))
    assert goals is not None
    sides, node = Optimal().solution(spec.function, (inp,), OddsCache())
    dist, value, cost = brute_optimal(spec.function, (inp,), as_worths(goals))
    assert node.dist == dist
    n = len(sides)
    assert {s: node.value[i] for i, s in enumerate(sides)} == value
    assert {s: node.value[n + i] for i, s in enumerate(sides)} == cost


def _fight(fame: int, a_fight: int = 4, b_fight: int = 4) -> Any:
    spec = get("old_west.fight")
    return spec.function, spec.input_model.model_validate(
        {
            "a": [{"fight": a_fight, "attacks": 1, "fame": fame}],
            "b": [{"fight": b_fight, "attacks": 1}],
        }
    )


def test_OW_HERO_05_a_hero_one_pip_behind_forces_the_roll_off() -> None:
    """Equal Fight values, 1 Fame: just enough spends nothing one pip behind (it cannot win
    outright); the optimal policy spends it to tie and win the roll-off half the time.
    a wins: ties (1/6) and ahead (5/12) without Fame; behind by 1 (5/36) is now a tie:
    7/12 becomes 7/12 + 5/36 · 1/2 = 47/72."""
    procedure, inp = _fight(1)
    optimal = OddsDriver(Optimal()).distribution(procedure, (inp,))
    rule_of_thumb = OddsDriver(JustEnough()).distribution(procedure, (inp,))
    assert rule_of_thumb[FightOutcome(Side.A)] == Fraction(7, 12)
    assert optimal[FightOutcome(Side.A)] == Fraction(47, 72)


def test_OW_HERO_05_explain_says_when_to_spend() -> None:
    out = api.odds(
        "old_west.fight",
        {"a": [{"fight": 4, "attacks": 1, "fame": 1}], "b": [{"fight": 4, "attacks": 1}]},
        policy="optimal",
        explain=True,
    )
    lines = {
        (row["situation"], row["choice"][0]["label"]): row["reach"]
        for row in out["explain"]
        if not row["default"]
    }
    assert lines == {
        ("side A behind by 1, 1 Fame left", "spend 1 Fame (Слава)"): "5/36",
        ("side A level with the other side, 1 Fame left", "spend 1 Fame (Слава)"): "1/6",
    }
    russian = api.odds(
        "old_west.fight",
        {"a": [{"fight": 4, "attacks": 1, "fame": 1}], "b": [{"fight": 4, "attacks": 1}]},
        policy="optimal",
        explain=True,
        lang="ru",
    )
    texts = {(r["situation"], r["choice"][0]["label"]) for r in russian["explain"]}
    assert ("сторона А отстаёт на 1, Славы осталось: 1", "потратить 1 очко Славы") in texts
    assert out["objectives"]["a"] == {
        "goal": "winning the fight (Борьба)",
        "expected": "47/72",
        "e": round(47 / 72, 6),
        "spent": "11/36",
    }


def test_OW_HERO_03_secret_bids_are_solved_as_a_game() -> None:
    """Both Heroes bid in secret: each side's mixed strategy guarantees its value whatever
    the other bids, and the two values add up to 1 (a zero-sum game)."""
    out = api.odds(
        "old_west.fight",
        {
            "a": [{"fight": 4, "attacks": 1, "fame": 2}],
            "b": [{"fight": 4, "attacks": 1, "fame": 1}],
        },
        policy="optimal",
        explain=True,
    )
    goals = out["objectives"]
    assert Fraction(goals["a"]["expected"]) + Fraction(goals["b"]["expected"]) == 1
    secret = [row for row in out["explain"] if "secret bid" in row["situation"]]
    assert secret and all(
        sum(Fraction(c["probability"]) for c in row["choice"]) == 1 for row in secret
    )


def test_OW_HERO_03_simulation_under_optimal_agrees_with_exact_odds() -> None:
    example = {
        "a": [{"fight": 4, "attacks": 1, "fame": 2}],
        "b": [{"fight": 4, "attacks": 1, "fame": 1}],
    }
    exact = api.odds("old_west.fight", example, policy="optimal")
    sim = api.odds("old_west.fight", example, policy="optimal", simulate=4000, seed=3)
    p_exact = {o["outcome"]["winner"]: float(Fraction(o["probability"])) for o in exact["outcomes"]}
    for row in sim["outcomes"]:
        low, high = row["interval"]
        assert low - 0.01 <= p_exact[row["outcome"]["winner"]] <= high + 0.01


def test_an_objective_of_ones_own() -> None:
    """b's goal replaced: b plays to make a win (an odd goal, but b's to choose)."""
    example = {
        "a": [{"fight": 4, "attacks": 1, "fame": 1}],
        "b": [{"fight": 4, "attacks": 1, "fame": 1}],
    }
    normal = api.odds("old_west.fight", example, policy="optimal")
    thrown = api.odds("old_west.fight", example, policy="optimal", objective={"b": "winner=a"})
    p = {o["outcome"]["winner"]: Fraction(o["probability"]) for o in normal["outcomes"]}
    q = {o["outcome"]["winner"]: Fraction(o["probability"]) for o in thrown["outcomes"]}
    assert q["a"] > p["a"]


def _falls_worths(fortune_kept: int) -> dict[str, Any]:
    """Goals for the falls alone: side a wants the losers' wounds; side b (the losers,
    who decide on Fortune) wants fewer wounds and values each Fortune point it keeps
    at ``fortune_kept`` wounds' worth, so spending is a real trade-off."""
    return {
        "a": lambda after: sum(s.marks.wounds for s in after),
        "b": lambda after: (
            -sum(s.marks.wounds for s in after)
            - Fraction(fortune_kept, 2) * sum(s.marks.fortune_spent for s in after)
        ),
    }


@pytest.mark.parametrize("kept", [0, 1, 3])
def test_OW_CC_09_each_losers_fall_and_its_fortune_solved_as_brute_force(kept: int) -> None:
    """Every loser still standing at a cliff edge falls in turn after the strikes
    (OW-CC-09, OW-ABSENT-05), spending Fortune on the fall's wounds (OW-ABSENT-07) as
    his side's goal says. The falls are steps on where the losers stand: solved that
    way, the odds and each side's worth equal a flat brute force over every die and
    choice, for goals where spending pays, where it does not, and where it is close."""
    from kubik.engine.expectimax import ByGoals, Solver
    from kubik.rulesets.old_west.combatant import Model
    from kubik.rulesets.old_west.strikes import Struck
    from kubik.rulesets.old_west.winners import falls_from

    struck = (
        Struck(Model(3, 1, 3, 2, wounds=2, cliff_drop=4, fortune=1), False),
        Struck(Model(3, 1, 3, 3, cliff_drop=1), False),  # 1": no fall worth a hit
        Struck(Model(3, 1, 3, 2, cliff_drop=3, fortune=1), True),
    )
    args = (struck, Side.A, 0)
    worths = _falls_worths(kept)
    sides = ("a", "b")
    node = Solver(OddsCache(), sides).solve(
        falls_from, args, ByGoals(tuple(worths[s] for s in sides))
    )
    dist, value, _cost = brute_optimal(falls_from, args, worths)
    assert node.dist == dist
    assert {s: node.value[i] for i, s in enumerate(sides)} == value
    assert all(after[0].fell and after[2].fell and not after[1].fell for after in dist)


def test_OW_CC_09_odds_show_no_path_record_but_a_played_round_does() -> None:
    """``killed_by`` (whose strikes put a loser out) is not part of a round's result: a
    loser out of action by the strikes and one out by his fall are one outcome. The
    odds, which list outcomes, leave it out (else one path's value would stand for
    both); a round played and refereed keeps it, to credit the kill."""
    import random

    from kubik.engine import play
    from kubik.engine.jsonify import distribution_outcome_json, outcome_json

    spec = get("old_west.combat")
    answer = api.odds("old_west.combat", CLIFF_ODDS)
    assert answer["outcomes"] and all("killed_by" not in o["outcome"] for o in answer["outcomes"])
    assert "killed_by" not in answer["fields"]
    simulated = api.odds("old_west.combat", CLIFF_ODDS, simulate=200, seed=3)
    assert all("killed_by" not in o["outcome"] for o in simulated["outcomes"])
    inp = spec.input_model.model_validate(CLIFF_ODDS)
    played = play(spec.function, (inp,), random.Random(7)).outcome
    assert "killed_by" in outcome_json(played)
    assert distribution_outcome_json(played) == {
        k: v for k, v in outcome_json(played).items() if k != "killed_by"
    }


#: One Hero against two at a cliff edge: a loser can be put out by the strikes or by
#: his fall, which is the same outcome.
CLIFF_ODDS = {
    "a": [{**LAWMAN, "fight": 5, "attacks": 3, "strength": 5, "toughness": 2, "wounds": 2}],
    "b": [
        {**LAWMAN, "fight": 3, "attacks": 2, "strength": 2, "fortune": 2, "cliff_drop": 8},
        {**LAWMAN, "fight": 2, "attacks": 2, "strength": 4, "toughness": 4, "cliff_drop": 4},
    ],
    "advantage": "b",
}
