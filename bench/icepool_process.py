"""The icepool side of the whole-process benchmark: one question, one Python process.

``python bench/icepool_process.py fire POOL RANGE HITS POWER ARMOUR`` prints the fire
distribution; ``... fight A_DICE B_DICE A_FIGHT B_FIGHT LOW`` the fight's winner. Only
icepool is imported: this is what a user of icepool runs to answer the question.
"""

from __future__ import annotations

import json
import sys

import icepool


def fire(pool: str, range_faces: int, hits: int, power: int, armour: int) -> dict[str, str]:
    dice = icepool.Pool([icepool.d(int(f)) for f in pool.split(",")])

    def effect_of(top: tuple[int, ...], rolled: int) -> str:
        beaten = sum(1 for v in top if v > rolled)
        return "none" if beaten == 0 else "suppressed" if beaten == 1 else "hits"

    def injury(p: int, a: int) -> int:
        return 2 if p >= 3 * a else 1 if p > a else 0

    effect = icepool.map(effect_of, dice.highest(2).expand(), icepool.d(range_faces))
    injuries = icepool.map(injury, icepool.d(power), icepool.d(armour))
    counted = (
        icepool.Pool([injuries] * hits)
        .expand()
        .map(lambda t: f"hits,{hits},{t.count(1)},{t.count(2)}")
    )
    final = effect.map(lambda e: counted if e == "hits" else f"{e},0,0,0")
    total = final.denominator()
    return {str(o): f"{q}/{total}" for o, q in final.items()}


def fight(a: int, b: int, fight_a: int, fight_b: int, low: int) -> dict[str, str]:
    def best(n: int) -> icepool.Die:
        return icepool.d6 if n == 1 else icepool.d6.highest(n)

    def winner(x: int, y: int) -> str:
        if x != y:
            return "a" if x > y else "b"
        if fight_a != fight_b:
            return "a" if fight_a > fight_b else "b"
        return "roll-off"

    roll_off = icepool.d6.map(lambda v: "a" if v <= low else "b")
    final = icepool.map(winner, best(a), best(b)).map({"roll-off": roll_off})
    total = final.denominator()
    return {str(o): f"{q}/{total}" for o, q in final.items()}


if __name__ == "__main__":
    kind, *args = sys.argv[1:]
    if kind == "fire":
        out = fire(args[0], *(int(a) for a in args[1:]))
    else:
        a, b, fa, fb, low = (int(x) for x in args)
        out = fight(a, b, fa, fb, low)
    print(json.dumps(out))
