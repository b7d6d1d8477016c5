"""Squad profiles: a documented default for the absent army lists (SW-ABSENT-08).

The seed relies on army lists it does not contain. A squad is, by default, a
troop quality, its commander's leadership, a number of models and a set of flags
from data (Keno Guard, frightening, androids, medic, radio ...).

>>> from kubik.rulesets.steel_war.core import Quality
>>> p = SquadProfile(Quality.REGULARS, 2, 7, frozenset({"keno_guard"}))
>>> p.quality_die, p.has("keno_guard"), p.has("medic")
(Die(faces=8), True, False)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from kubik.core.errors import InputError
from kubik.engine.dice import Die
from kubik.rulesets.data import load_ruleset_data
from kubik.rulesets.steel_war.core import Quality, clamp_leadership


@cache
def known_flags() -> frozenset[str]:
    """Flags a profile may carry (data: squad_profile.flags)."""
    return frozenset(load_ruleset_data("steel_war")["squad_profile"]["flags"])


@dataclass(frozen=True, slots=True)
class SquadProfile:
    """A squad as an army list would give it."""

    quality: Quality
    leadership: int
    models: int
    flags: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if clamp_leadership(self.leadership) != self.leadership:
            raise InputError(f"leadership: 1 (best) .. 3 (worst), not {self.leadership}")
        if self.models < 1:
            raise InputError(f"models: at least 1, not {self.models}")
        unknown = self.flags - known_flags()
        if unknown:
            allowed = ", ".join(sorted(known_flags()))
            raise InputError(f"flags: unknown {', '.join(sorted(unknown))}; allowed: {allowed}")

    @property
    def quality_die(self) -> Die:
        """The squad's quality die (SW-CORE-02)."""
        return self.quality.die

    def has(self, flag: str) -> bool:
        """Whether the profile carries ``flag``."""
        return flag in self.flags
