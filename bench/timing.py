"""Timing both sides of a comparison alike: CPU time of this process, best of N, cold.

Each repetition starts cold: kubik with a fresh ``OddsCache`` (its memo), icepool
with its pool cache cleared. The two are timed in alternation, so a busy machine
slows both alike, and CPU time (``time.process_time``) ignores time the process
spends waiting for a core. A question of a fraction of a millisecond is repeated
more than :data:`REPEATS` times, until both sides together have run for
:data:`MIN_TOTAL_S` (at most :data:`MAX_REPEATS` times): fifteen samples of a few
hundred microseconds on a shared machine rarely include an undisturbed one, so their
best would measure the machine's load more than the question.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import icepool

REPEATS = 15
#: Seconds both sides together run, at least, before the best is taken.
MIN_TOTAL_S = 0.2
#: The most repetitions of a short question.
MAX_REPEATS = 400


def cold_icepool() -> None:
    """Forget icepool's cached pools (its only cache that outlives a question)."""
    icepool.Pool.clear_cache()


def best_of(kubik: Callable[[], object], reference: Callable[[], object]) -> tuple[float, float]:
    """(kubik seconds, reference seconds): the best of :data:`REPEATS` runs each (more
    for a short question), alternating, CPU time."""
    best_k = best_r = float("inf")
    runs, spent = 0, 0.0
    while runs < REPEATS or (spent < MIN_TOTAL_S and runs < MAX_REPEATS):
        start = time.process_time()
        kubik()
        took_k = time.process_time() - start
        cold_icepool()
        start = time.process_time()
        reference()
        took_r = time.process_time() - start
        best_k, best_r = min(best_k, took_k), min(best_r, took_r)
        runs, spent = runs + 1, spent + took_k + took_r
    return best_k, best_r


def row(case: str, kubik_s: float, icepool_s: float, target: float) -> dict[str, object]:
    """A table row: the case, both times, their ratio and the ratio the issue asks for."""
    return {
        "case": case,
        "kubik_s": kubik_s,
        "icepool_s": icepool_s,
        "ratio": kubik_s / icepool_s,
        "target": target,
    }
