"""The simulate driver: N seeded runs and an estimated distribution with intervals.

The generator form of a procedure runs through the same loop as the play driver;
a procedure that registers a vectorised batch form (numpy) is sampled with it
instead. Either way the seed is passed in and the same seed gives the same counts.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from kubik.engine.applied import not_recording
from kubik.engine.odds import Policy, default_policy
from kubik.engine.requests import Procedure
from kubik.engine.run import PolicyChooser, RandomDice, run

if TYPE_CHECKING:
    import numpy as np

#: How many runs pass between two calls of a simulation's ``progress``.
PROGRESS_EVERY = 2_000

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion.

    >>> low, high = wilson_interval(50, 100)
    >>> round(low, 4), round(high, 4)
    (0.4038, 0.5962)
    """
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Estimate:
    """One outcome's estimated probability with its 95% interval."""

    outcome: Any
    count: int
    runs: int

    @property
    def p(self) -> float:
        """Observed frequency."""
        return self.count / self.runs

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson interval."""
        return wilson_interval(self.count, self.runs)


@dataclass(frozen=True)
class Simulation:
    """Counts of each outcome over ``runs`` runs."""

    counts: dict[Hashable, int]
    runs: int

    def estimates(self) -> list[Estimate]:
        """Every observed outcome with its interval, most frequent first."""
        return [
            Estimate(o, c, self.runs) for o, c in sorted(self.counts.items(), key=lambda kv: -kv[1])
        ]

    def frequency(self, outcome: Hashable) -> Fraction:
        """Observed frequency of ``outcome`` as an exact fraction."""
        return Fraction(self.counts.get(outcome, 0), self.runs)


def simulate(
    procedure: Callable[..., Procedure[Any]],
    args: tuple[Any, ...],
    runs: int,
    seed: int,
    policy: Policy = default_policy,
    batch: Callable[[Any, np.random.Generator, int], Sequence[Hashable]] | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> Simulation:
    """Run ``procedure(*args)`` ``runs`` times from ``seed``.

    With ``batch`` (a vectorised form taking the single argument, a numpy
    generator and a count), sample that instead of stepping the generator.
    ``progress(done, runs)`` is called every :data:`PROGRESS_EVERY` runs (a
    progress bar); it does not change the draws.
    """
    if runs < 1:
        raise ValueError("runs must be at least 1")
    if batch is not None:
        import numpy as np  # only batch forms are vectorised

        (inp,) = args
        outcomes = batch(inp, np.random.default_rng(seed), runs)
        if progress is not None:
            progress(runs, runs)
        return Simulation(dict(Counter(outcomes)), runs)
    rng = random.Random(seed)
    dice = RandomDice(rng)
    chooser = PolicyChooser(policy)
    counts: Counter[Hashable] = Counter()
    with not_recording():  # hypothetical play is not a game's
        for done in range(runs):
            counts[run(procedure, args, dice=dice, chooser=chooser).outcome] += 1
            if progress is not None and (done + 1) % PROGRESS_EVERY == 0:
                progress(done + 1, runs)
    if progress is not None:
        progress(runs, runs)
    return Simulation(dict(counts), runs)
