"""The opposed roll's dice (SW-FIRE-01): the effect of the shooter's dice above the range
die, and the reducers that keep of each side's roll only what decides it (the shooter's
best dice, capped; the range die against them), with closed forms for exact odds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import TYPE_CHECKING, Any

from kubik.engine.dice import Die
from kubik.engine.reducers import top_values_counts
from kubik.rulesets.data import load_ruleset_data

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


@cache
def _data() -> Mapping[str, Any]:
    return load_ruleset_data("steel_war")


class Effect(Enum):
    """What a fire action did (SW-FIRE-01)."""

    __hash__ = object.__hash__  # members are singletons: hashed by identity, in C

    NONE = "none"
    SUPPRESSED = "suppressed"
    HITS = "hits"

    @property
    def msgid(self) -> str:
        """Message id of its name, for rendering."""
        return f"steel_war.effect.{self.value}"


@cache  # pure, its data read once per process: asked on every menu and replay
def effect_of(beaten: int) -> Effect:
    """The effect of ``beaten`` shooter dice strictly above the range die (SW-FIRE-01).

    >>> effect_of(0), effect_of(1), effect_of(3)
    (<Effect.NONE: 'none'>, <Effect.SUPPRESSED: 'suppressed'>, <Effect.HITS: 'hits'>)
    """
    table = _data()["fire_effect"]
    if beaten >= int(table["hits_at"]):
        return Effect.HITS
    if beaten >= int(table["suppressed_at"]):
        return Effect.SUPPRESSED
    return Effect.NONE


_EFFECTS = (Effect.NONE, Effect.SUPPRESSED, Effect.HITS)
_CODE_BASE = 16  # above the largest capped value (d12 + 1): one hex digit per kept die


def dice_that_matter() -> int:
    """How many of the shooter's best dice decide the effect (two: beyond that all is hits)."""
    return int(_data()["fire_effect"]["hits_at"])


@dataclass(frozen=True, slots=True)
class TopValues:
    """Reduces the shooter's pool to its ``keep`` best values (ascending), capped at ``cap``.

    The effect needs only how many dice beat the range die, up to ``keep``; with
    ``cap`` = range-die faces + 1 every value from the cap up beats every face alike,
    so capping loses nothing and keeps few branches for the odds driver.
    """

    keep: int
    cap: int

    def __call__(self, values: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(min(v, self.cap) for v in sorted(values)[-self.keep :])

    def counts(self, dice: tuple[Die, ...]) -> dict[tuple[int, ...], int] | None:
        """Closed form (the engine's order statistics) for one or two kept dice."""
        return top_values_counts(dice, self.keep, self.cap)

    def start(self) -> tuple[int, ...]:
        """Fold form: no die seen yet."""
        return ()

    def step(self, kept: tuple[int, ...], value: int) -> tuple[int, ...]:
        """Fold form: keep the best ``keep`` capped values seen so far."""
        return tuple(sorted((*kept, min(value, self.cap))))[-self.keep :]

    def finish(self, kept: tuple[int, ...]) -> tuple[int, ...]:
        """Fold form: the kept values are the answer."""
        return kept

    def batch(self, faces: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """One integer code per row of pool values: the kept values as base-16 digits."""
        import numpy as np  # only large grids are vectorised

        kept = np.minimum(np.sort(faces, axis=1)[:, -self.keep :], self.cap)
        codes = np.zeros(len(faces), dtype=np.int64)
        for column in range(kept.shape[1]):
            codes = codes * _CODE_BASE + kept[:, column]
        return codes

    def decode(self, code: int) -> tuple[int, ...]:
        """The kept values of a batch code."""
        digits = []
        for _ in range(self.keep):
            code, digit = divmod(code, _CODE_BASE)
            digits.append(digit)
        return tuple(reversed(digits))


@dataclass(frozen=True, slots=True)
class BeatRange:
    """Reduces the range die's value to the effect against the shooter's best dice."""

    best: tuple[int, ...]

    def __call__(self, values: tuple[int, ...]) -> Effect:
        (target,) = values
        return effect_of(sum(1 for v in self.best if v > target))

    def counts(self, dice: tuple[Die, ...]) -> dict[Effect, int]:
        """Range-die faces giving each effect (the range die alone is rolled)."""
        (die,) = dice
        out: dict[Effect, int] = {}
        beaten, first = len(self.best), 1  # targets from ``first`` up are beaten by ``beaten``
        for value in (*sorted(self.best), die.faces + 1):
            last = min(value - 1, die.faces)
            if last >= first:
                effect = effect_of(beaten)
                out[effect] = out.get(effect, 0) + last - first + 1
                first = last + 1
            beaten -= 1
        return out

    def batch(self, faces: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Effect codes for each range-die value."""
        import numpy as np  # only large grids are vectorised

        target = faces[:, 0]
        beaten = np.zeros(len(faces), dtype=np.int64)
        for value in self.best:
            beaten += value > target
        lookup = np.array([_EFFECTS.index(effect_of(b)) for b in range(len(self.best) + 1)])
        codes: npt.NDArray[np.int64] = lookup[beaten]
        return codes

    def decode(self, code: int) -> Effect:
        """The effect of a batch code."""
        return _EFFECTS[code]


__all__ = ["BeatRange", "Effect", "TopValues", "dice_that_matter", "effect_of"]
