"""Benchmark: exact odds of ``steel_war.fire`` — kubik's odds driver against icepool.

Case: an elite squad (d12) fires six assault rifles (rate 6 × 2 = 12 → d12), a
light machine gun (d8) and a grenade launcher (d10) at ordinary infantry (armour
d4) 18" away in the open: zone 2 of a d12 shooter → range die d6. With hits,
(12 + 12 + 8 + 10) / 6 = 7 potential casualties, each a power d8 (the assault
rifles', SW-FIRE-13) against armour d4 roll. The question is the full
distribution of (effect, hits, wounded, killed).

Both sides compute it from scratch on every repetition (a fresh ``OddsCache`` for
kubik; icepool builds its pool and dice expressions anew), the two exact
distributions are asserted equal, and each time is the minimum of N repetitions.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import icepool

from kubik.engine import OddsCache, OddsDriver
from kubik.engine.registry import get

REPEATS = 7

CASE: dict[str, Any] = {
    "quality": "d12",
    "weapons": [
        {"weapon": "assault_rifle", "count": 6},
        {"weapon": "lmg", "count": 1},
        {"weapon": "grenade_launcher", "count": 1},
    ],
    "distance": 18,
    "cover": "none",
    "prone": False,
    "armour": "d4",
    "target_models": 10,
}

Row = tuple[str, int, int, int]


def kubik_distribution() -> dict[Row, Fraction]:
    """The distribution through the registered procedure and a fresh odds cache."""
    spec = get("steel_war.fire")
    inp = spec.input_model.model_validate(CASE)
    dist = OddsDriver(cache=OddsCache()).distribution(spec.function, (inp,))
    return {(o.effect.value, o.hits, o.wounded, o.killed): p for o, p in dist.items()}


def kubik_timed() -> Callable[[], object]:
    """What is timed: the exact distribution, fresh cache, input parsed once (as the API does)."""
    spec = get("steel_war.fire")
    inp = spec.input_model.model_validate(CASE)
    return lambda: OddsDriver(cache=OddsCache()).distribution(spec.function, (inp,))


def icepool_distribution() -> dict[Row, Fraction]:
    """The same question written with icepool primitives (independently of kubik)."""
    pool = icepool.Pool([icepool.d12, icepool.d12, icepool.d8, icepool.d10])
    range_die = icepool.d6
    hits = 7  # round((12 + 12 + 8 + 10) / 6)

    def beaten(values: tuple[int, ...], target: int) -> str:
        k = sum(1 for v in values if v > target)
        return "none" if k == 0 else "suppressed" if k == 1 else "hits"

    effect = icepool.map(beaten, pool.expand(), range_die)

    def one_hit(power: int, armour: int) -> icepool.Vector:
        if power >= 3 * armour:
            return icepool.Vector((0, 1))
        return icepool.Vector((1, 0) if power > armour else (0, 0))

    per_hit = icepool.map(one_hit, icepool.d8, icepool.d4)
    casualties = hits @ per_hit

    def outcome(eff: str) -> Any:
        if eff != "hits":
            return icepool.Die([(eff, 0, 0, 0)])
        return casualties.map(lambda v: ("hits", hits, v[0], v[1]))

    final = effect.map(outcome)
    denominator = final.denominator()
    return {
        (str(o[0]), int(o[1]), int(o[2]), int(o[3])): Fraction(q, denominator)
        for o, q in final.items()
    }


def _best_time(fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(REPEATS):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def run() -> list[dict[str, object]]:
    """One row: the seven-casualty fire action, kubik vs icepool (seconds, min of N)."""
    kubik_dist = kubik_distribution()
    icepool_dist = icepool_distribution()
    assert kubik_dist == icepool_dist, "kubik and icepool disagree"
    kubik_s = _best_time(kubik_timed())
    icepool_s = _best_time(icepool_distribution)
    return [
        {
            "case": "steel_war.fire: elite d12, 6 assault rifles + LMG + grenade launcher "
            'at 18" (range d6), 7 potential casualties vs armour d4',
            "kubik_s": kubik_s,
            "icepool_s": icepool_s,
            "ratio": kubik_s / icepool_s,
        }
    ]


if __name__ == "__main__":
    for row in run():
        print(row)
