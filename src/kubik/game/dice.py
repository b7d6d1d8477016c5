"""Counter-based virtual dice: the k-th roll of a game depends on (seed, k) only.

No generator state is carried from roll to roll, so replaying a game, undoing a
roll and rolling it again, or resuming a save after a crash always gives the
same values for the same roll.

>>> from kubik.engine.dice import D6, D8
>>> from kubik.engine.requests import Roll
>>> dice = CounterDice(7)
>>> dice.values_for(3, Roll((D6, D8), "x")) == CounterDice(7).values_for(3, Roll((D6, D8), "x"))
True
>>> all(1 <= v <= 6 for k in range(50) for v in dice.values_for(k, Roll((D6,), "x")))
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from kubik.engine.requests import Roll


@dataclass(frozen=True, slots=True)
class CounterDice:
    """Virtual dice for one game, seeded by ``seed``."""

    seed: int

    def values_for(self, index: int, request: Roll) -> tuple[int, ...]:
        """The values of the game's roll number ``index`` (0-based), die by die.

        ``random.Random`` seeded with a string is stable across Python versions
        (SHA-512 of the text), so a seed means the same game everywhere.
        """
        rng = random.Random(f"kubik:{self.seed}:{index}")
        return tuple(rng.randint(1, die.faces) for die in request.dice)


__all__ = ["CounterDice"]
