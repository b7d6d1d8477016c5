"""Benchmark: exact odds of ``steel_war.fire`` against icepool's best formulation.

The question: the full distribution of (effect, hits, wounded, killed) of one fire
action. The shooter's pool grows from 2 to 24 dice: quality d10, five assault rifles
(rate 10 → a d10 rate die) and support weapons (light and heavy machine guns,
grenade launchers, «Ураган») at 18" in the open: zone 2 of a d10 shooter, range die
d6. Hits are Σ pool faces / 6 potential casualties, at most the target's models; each
is a power d8 (the assault rifles') against armour d4.

icepool is written the way a practised user writes it (not ``pool.expand()``, its
slowest form): the effect from ``pool.highest(2)`` against the range die — two dice
are all that decide it — and the casualties as a pool of injury dice, counted.
Both distributions are asserted equal before anything is timed.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool

from bench.timing import best_of, row
from kubik.engine import OddsCache, OddsDriver
from kubik.engine.registry import get
from kubik.rulesets.steel_war.damage import potential_casualties
from kubik.rulesets.steel_war.procedures.fire import _plan

#: Pool sizes of the series (quality + rate die + support weapons).
SIZES: tuple[int, ...] = (2, 3, 4, 6, 8, 12, 16, 20, 24)
#: The issue's target: kubik at most half icepool's time at every size.
TARGET = 0.5
SUPPORT = ("lmg", "hmg", "grenade_launcher", "uragan")

Row = tuple[str, int, int, int]


def case(size: int, models: int = 10) -> dict[str, Any]:
    """The fire action with a pool of ``size`` dice at a target of ``models`` men."""
    weapons: dict[str, int] = {"assault_rifle": 5}
    for index in range(size - 2):
        name = SUPPORT[index % len(SUPPORT)]
        weapons[name] = weapons.get(name, 0) + 1
    return {
        "quality": "d10",
        "weapons": [{"weapon": w, "count": n} for w, n in weapons.items()],
        "distance": 18,
        "cover": "none",
        "armour": "d4",
        "target_models": models,
    }


def kubik_question(data: dict[str, Any]) -> Any:
    """What is timed for kubik: the exact distribution, from a fresh memo."""
    spec = get("steel_war.fire")
    inp = spec.input_model.model_validate(data)
    return lambda: OddsDriver(cache=OddsCache()).distribution(spec.function, (inp,))


def odds_call(data: dict[str, Any]) -> Any:
    """What a person's question costs: ``api.odds`` (input checked, JSON built), cold."""
    from kubik import api

    def asked() -> Any:
        api.clear_cache()
        return api.odds("steel_war.fire", data)

    return asked


def icepool_question(data: dict[str, Any]) -> Any:
    """What is timed for icepool: the same distribution, icepool's best formulation.

    The dice come from kubik's rules (which dice fire, the range die, the number of
    hits): both answer the same question from the same dice.
    """
    spec = get("steel_war.fire")
    group, target = _plan(spec.input_model.model_validate(data))
    faces = [d.faces for d in group.pool]
    hits = min(potential_casualties(group.pool, target.range_die), target.models)
    power, armour, range_faces = group.power.faces, target.armour.faces, target.range_die.faces

    def effect_of(top: tuple[int, ...], rolled: int) -> str:
        beaten = sum(1 for v in top if v > rolled)
        return "none" if beaten == 0 else "suppressed" if beaten == 1 else "hits"

    def injury(p: int, a: int) -> int:
        return 2 if p >= 3 * a else 1 if p > a else 0

    def question() -> dict[Row, Fraction]:
        pool = icepool.Pool([icepool.d(f) for f in faces])
        effect = icepool.map(effect_of, pool.highest(2).expand(), icepool.d(range_faces))
        injuries = icepool.map(injury, icepool.d(power), icepool.d(armour))
        casualties = icepool.Pool([injuries] * hits).expand()
        counted = casualties.map(lambda t: ("hits", hits, t.count(1), t.count(2)))

        def outcome(e: str) -> Any:
            return counted if e == "hits" else icepool.Die([(e, 0, 0, 0)])

        final = effect.map(outcome)
        total = final.denominator()
        return {
            (str(o[0]), int(o[1]), int(o[2]), int(o[3])): Fraction(q, total)
            for o, q in final.items()
        }

    return question


def as_rows(distribution: Any) -> dict[Row, Fraction]:
    """kubik's outcomes as (effect, hits, wounded, killed) rows."""
    return {(o.effect.value, o.hits, o.wounded, o.killed): p for o, p in distribution.items()}


def run() -> list[dict[str, object]]:
    """One row per pool size, against a squad of 10, and two against a crowd of 50."""
    rows: list[dict[str, object]] = []
    series = [(size, 10) for size in SIZES] + [(12, 50), (24, 50)]
    for size, models in series:
        data = case(size, models)
        kubik, reference = kubik_question(data), icepool_question(data)
        assert as_rows(kubik()) == reference(), f"kubik and icepool disagree at {size} dice"
        kubik_s, icepool_s = best_of(kubik, reference)
        rows.append(
            row(
                f"steel_war.fire: {size} dice in the pool, {models} target models",
                kubik_s,
                icepool_s,
                TARGET,
            )
        )
    for size, models in ((2, 10), (24, 10), (24, 50)):
        data = case(size, models)
        label = f"api.odds steel_war.fire: {size} dice, {models} target models"
        rows.append(row(label, *best_of(odds_call(data), icepool_question(data)), TARGET))
    return rows


if __name__ == "__main__":
    for line in run():
        print(line)
