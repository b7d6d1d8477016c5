"""Python's cycle collector paced for kubik's heaviest work: playing games and working out
exact odds.

Both allocate millions of short-lived objects (tallies, tuples, big integers) that
reference counting frees at once. Collecting the youngest generation every 700 of them,
Python's default, took about a tenth of a game's time and found little; the odds of a
large close combat spent 13–17% of their time on it. When objects are freed changes no
game and no odds: nothing kubik computes depends on it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

#: Allocations between two young-generation collections during heavy work.
HEAVY_WORK_GC_THRESHOLD = 50_000


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Run the youngest generation every :data:`HEAVY_WORK_GC_THRESHOLD` allocations
    instead of every 700, and put the thresholds back after (nested uses keep the
    outermost's)."""
    before = gc.get_threshold()
    gc.set_threshold(max(HEAVY_WORK_GC_THRESHOLD, before[0]), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


__all__ = ["HEAVY_WORK_GC_THRESHOLD", "fewer_collections"]
