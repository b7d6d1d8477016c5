"""Timing both sides of a comparison alike: CPU time of this process, best of N, cold.

Each repetition starts cold: kubik with a fresh ``OddsCache`` (its memo), icepool
with its pool cache cleared. The two are timed in alternation, so a busy machine
slows both alike, and CPU time (``time.process_time``) ignores time the process
spends waiting for a core.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import icepool

REPEATS = 15


def cold_icepool() -> None:
    """Forget icepool's cached pools (its only cache that outlives a question)."""
    icepool.Pool.clear_cache()


def best_of(kubik: Callable[[], object], reference: Callable[[], object]) -> tuple[float, float]:
    """(kubik seconds, reference seconds): the best of :data:`REPEATS` runs each,
    alternating, CPU time."""
    best_k = best_r = float("inf")
    for _ in range(REPEATS):
        start = time.process_time()
        kubik()
        best_k = min(best_k, time.process_time() - start)
        cold_icepool()
        start = time.process_time()
        reference()
        best_r = min(best_r, time.process_time() - start)
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
