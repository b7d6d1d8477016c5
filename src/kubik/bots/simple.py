"""The two bots that need no odds: the default-taker and the uniformly random one.

>>> from kubik.engine.requests import Choose
>>> request = Choose(("aim", "volley", "hold"), "steel", "stance", default="hold")
>>> DefaultBot()(request)
'hold'
>>> one, two = RandomBot(seed=7, side="steel"), RandomBot(seed=7, side="steel")
>>> picks = [one(request) for _ in range(6)]
>>> picks == [two(request) for _ in range(6)], set(picks) <= set(request.options)
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import ClassVar

from kubik.engine.requests import Choose


@dataclass(frozen=True, slots=True)
class DefaultBot:
    """Takes every decision's default: the rule writer's sensible choice, no thinking."""

    name: ClassVar[str] = "default"

    def __call__(self, request: Choose) -> Hashable:
        return request.default


@dataclass(slots=True)
class RandomBot:
    """A uniformly random legal option, reproducible from ``seed`` alone.

    Its k-th decision draws from ``random.Random("kubik-bot:<seed>:<side>:<k>")``:
    counter-based (no generator state carried between decisions, never the global
    generator), so the same seed and the same run of requests give the same game,
    and the two sides of one game never share a stream. A bot built for a loaded
    game counts its decisions afresh (the save records answers, not bots).
    """

    name: ClassVar[str] = "random"
    seed: int
    side: str
    decisions: int = field(default=0, compare=False)

    def __call__(self, request: Choose) -> Hashable:
        rng = random.Random(f"kubik-bot:{self.seed}:{self.side}:{self.decisions}")
        self.decisions += 1
        return request.options[rng.randrange(len(request.options))]


__all__ = ["DefaultBot", "RandomBot"]
