"""Benchmark: ``old_west.fight`` and ``old_west.combat`` against icepool's best formulation.

A fight is decided by each side's best d6 (then the better Fight value, then a
roll-off); a round of combat adds the winners' strikes and the wounds they deal.
The series grows to 18 dice against 3 (six models of 3 Attacks around one Hero of
3: the most the procedures' ranges take, which are the game's), with no Fame, so the
question is pure dice.

icepool is written the way a practised user writes it: each side's best die as
``d6.highest(n)``, the winner mapped from the two, the roll-off as a die, the
strikes as ``n @ success`` (a binomial) mapped to the wounds each loser takes.
Both distributions are asserted equal before anything is timed.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool

from bench.timing import best_of, row
from kubik.engine import OddsCache, OddsDriver
from kubik.engine.registry import get
from kubik.rulesets.old_west.chart import cell
from kubik.rulesets.old_west.core import number

#: Dice of side a in the series (18: six models of 3 Attacks against one of 3).
SIZES: tuple[int, ...] = (1, 2, 3, 6, 18)
#: The most Attacks a model has, and the most models around one (the procedures' ranges).
MOST_ATTACKS = 3
#: The issue's target: kubik at most twice icepool's time.
TARGET = 2.0
STRENGTH = TOUGHNESS = 3


def models(dice: int, wounds: int) -> list[dict[str, Any]]:
    """A side rolling ``dice`` dice: models of up to 3 Attacks each."""
    out = []
    while dice > 0:
        attacks = min(dice, MOST_ATTACKS)
        out.append(
            {
                "fight": 4,
                "attacks": attacks,
                "strength": STRENGTH,
                "toughness": TOUGHNESS,
                "wounds": wounds,
            }
        )
        dice -= attacks
    return out


def combat_case(dice: int) -> dict[str, Any]:
    """Side a: ``dice`` dice in models of one Wound; side b: one model of up to 3
    Attacks and three Wounds (a Hero), so one side is a single model."""
    return {"a": models(dice, 1), "b": models(min(dice, MOST_ATTACKS), 3)}


def fight_case(dice: int) -> dict[str, Any]:
    """The same sides in a plain fight (Fight values and Attacks only)."""
    data = combat_case(dice)
    return {
        side: [{"fight": m["fight"], "attacks": m["attacks"]} for m in data[side]] for side in data
    }


def _best(dice: int) -> icepool.Die:
    return icepool.d6 if dice == 1 else icepool.d6.highest(dice)


def _winner(data: dict[str, Any]) -> icepool.Die:
    """The fight's winner, icepool's way (ties: Fight values, then the roll-off)."""
    fight_a = max(m["fight"] for m in data["a"])
    fight_b = max(m["fight"] for m in data["b"])
    low = number("close_combat", "roll_off_low_max")

    def winner(x: int, y: int) -> str:
        if x != y:
            return "a" if x > y else "b"
        if fight_a != fight_b:
            return "a" if fight_a > fight_b else "b"
        return "roll-off"

    dice_a = sum(m["attacks"] for m in data["a"])
    dice_b = sum(m["attacks"] for m in data["b"])
    decided = icepool.map(winner, _best(dice_a), _best(dice_b))
    roll_off = icepool.d6.map(lambda v: "a" if v <= low else "b")  # a has advantage
    return decided.map({"roll-off": roll_off})


def icepool_fight(data: dict[str, Any]) -> Any:
    def question() -> dict[str, Fraction]:
        final = _winner(data)
        total = final.denominator()
        return {str(o): Fraction(q, total) for o, q in final.items()}

    return question


def icepool_combat(data: dict[str, Any]) -> Any:
    """Winner, then the winners' strikes (one per Attack) at the losers in turn."""

    def question() -> dict[tuple[Any, ...], Fraction]:
        needed = cell(STRENGTH, TOUGHNESS).first
        assert needed is not None
        success = icepool.d6.map(lambda v: int(v >= needed))

        def wounds(winner: str) -> icepool.Die:
            losers = data["b"] if winner == "a" else data["a"]
            strikes = sum(m["attacks"] for m in (data["a"] if winner == "a" else data["b"]))
            limits = [m["wounds"] for m in losers]

            def dealt(hits: int) -> tuple[Any, ...]:
                taken = []
                for limit in limits:
                    taken.append(min(hits, limit))
                    hits -= taken[-1]
                out = sum(1 for t, limit in zip(taken, limits, strict=True) if t >= limit)
                return (winner, tuple(taken), out)

            return (strikes @ success).map(dealt)

        final = _winner(data).map(wounds)
        total = final.denominator()
        return {tuple(o): Fraction(q, total) for o, q in final.items()}

    return question


def kubik_question(name: str, data: dict[str, Any]) -> Any:
    spec = get(name)
    inp = spec.input_model.model_validate(data)
    return lambda: OddsDriver(cache=OddsCache()).distribution(spec.function, (inp,))


def odds_call(name: str, data: dict[str, Any]) -> Any:
    """What a person's question costs: ``api.odds`` (input checked, JSON built), cold."""
    from kubik import api

    def asked() -> Any:
        api.clear_cache()
        return api.odds(name, data)

    return asked


def run() -> list[dict[str, object]]:
    """Rows: the fight, then the whole round, at each size; then both as ``api.odds``
    answers them (the user-facing call, JSON and all)."""
    rows: list[dict[str, object]] = []
    for dice in SIZES:
        data = fight_case(dice)
        kubik, reference = kubik_question("old_west.fight", data), icepool_fight(data)
        assert {o.winner.value: p for o, p in kubik().items()} == reference()
        b_dice = min(dice, MOST_ATTACKS)
        rows.append(
            row(
                f"old_west.fight: {dice} dice against {b_dice}",
                *best_of(kubik, reference),
                TARGET,
            )
        )
    for dice in SIZES:
        data = combat_case(dice)
        b_dice = min(dice, MOST_ATTACKS)
        kubik, reference = kubik_question("old_west.combat", data), icepool_combat(data)
        got = kubik()
        assert all(not (o.mounts or o.fell or o.fame_a or o.fame_b or o.fortune) for o in got)
        assert {
            (o.winner.value, o.wounds, o.out_of_action): p for o, p in got.items()
        } == reference()
        rows.append(
            row(
                f"old_west.combat: {dice} dice against {b_dice}, strikes and wounds",
                *best_of(kubik, reference),
                TARGET,
            )
        )
    for dice in (1, 18):
        for name, data, reference in (
            ("old_west.fight", fight_case(dice), icepool_fight(fight_case(dice))),
            ("old_west.combat", combat_case(dice), icepool_combat(combat_case(dice))),
        ):
            label = f"api.odds {name}: {dice} dice against {min(dice, MOST_ATTACKS)}"
            rows.append(row(label, *best_of(odds_call(name, data), reference), TARGET))
    return rows


if __name__ == "__main__":
    for line in run():
        print(line)
